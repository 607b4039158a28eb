"""Shared arrays get the memory they index, on the GPU and in the CPU emulation.

The run-time behaviour is in tests/golden/memory_shared_arrays.px (structs by their size,
generic instances apart, launch sizes checked) and the compile-time limit in
tests/diagnostics/shared_memory.px; here, what those cannot show: the PTX, and the message.
"""
import re
import textwrap

from helpers import run_cli

GENERIC = textwrap.dedent('''
    fn sum_of_squares[N: Int](out: Ptr[Int]):
        var tile = shared_array[Int, N]()
        tile[thread_idx.x] = thread_idx.x * thread_idx.x
        barrier()
        if thread_idx.x == 0:
            var s = 0
            for i in range(N):
                s += tile[i]
            out[0] = s


    @kernel
    fn small(out: Ptr[Int]):
        sum_of_squares[2](out)


    @kernel
    fn large(out: Ptr[Int]):
        sum_of_squares[64](out)
''')


def test_each_instance_of_a_generic_shared_array_is_its_own_ptx_array(tmp_path):
    """One `.shared` array per instance, each of its own size: the 64-element instance used to
    index the 2-element array the first instance declared (one global per source offset)."""
    src = tmp_path / "generic_shared.px"
    src.write_text(GENERIC)
    result = run_cli("build", "--emit=ptx", str(src), "-o", str(tmp_path / "out.ptx"))
    assert result.status == 0, result.stderr
    sizes = sorted(int(n) for n in re.findall(r"^\.shared \.align 16 \.b8 \S+\[(\d+)\];", (tmp_path / "out.ptx")
                                                  .read_text(), re.M))
    assert sizes == [2 * 8, 64 * 8]


def test_the_limit_names_the_kernel_and_each_array(tmp_path):
    src = tmp_path / "too_much.px"
    src.write_text(textwrap.dedent('''
        fn stage(out: Ptr[Float32]):
            var s = shared_array[Float32, 8192]()
            out[0] = s[0]


        @kernel
        fn k(out: Ptr[Float32]):
            var tile = shared_array[Float64, 4096]()
            out[0] = Float32(tile[0])
            stage(out)
    '''))
    result = run_cli("check", "--color=never", str(src))
    assert result.status == 1
    assert "too_much.px:8:4: error[E0180]: `@kernel fn k` needs 65536 bytes of static shared memory" in result.stderr
    assert "a block has at most 49152 (48 KiB)" in result.stderr
    assert "too_much.px:3:13: note: `shared_array[Float32, 8192]` takes 32768 bytes" in result.stderr
    assert "too_much.px:9:16: note: `shared_array[Float64, 4096]` takes 32768 bytes" in result.stderr
