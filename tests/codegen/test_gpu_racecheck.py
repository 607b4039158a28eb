"""`pyx run --racecheck`: a shared-memory race (two threads of a block touching the same element, one
of them writing, with no `barrier()` between) is a `RuntimeError` naming the kernel, the array and
element, both threads with their lines, and the block; a correct kernel runs as without the flag.
The check works however the CPU target runs a block: thread loops (barriers in the kernel's body),
coroutines (warp operations), plain calls (no barrier at all)."""
from helpers import run_cli, run_source
from pyx.codegen.racecheck import CHECK

REDUCTION = """\
@kernel
fn block_sum(x: Ptr[Float32], out: Ptr[Float32]):
    var cache = shared_array[Float32, 8]()
    var t = thread_idx.x
    cache[t] = x[block_idx.x * 8 + t]
    barrier()
    var s = 4
    while s > 0:
        if t < s:
            cache[t] += cache[t + s]
BARRIER
        s //= 2
    if t == 0:
        out[block_idx.x] = cache[0]


fn main():
    var x = Ptr[Float32].alloc(16)
    var out = Ptr[Float32].alloc(2)
    for i in range(16):
        x[i] = Float32(i)
    launch block_sum[grid=2, block=8](x, out)
    launch block_sum[grid=2, block=8](x, out)
    print(out[0], out[1])
"""
MISSING = REDUCTION.replace("BARRIER\n", "")
CORRECT = REDUCTION.replace("BARRIER", "        barrier()")


def test_a_reduction_missing_its_barrier_is_reported(tmp_path):
    result = run_source(MISSING, tmp_path, "reduce.px", "--racecheck")
    assert result.status == 1 and result.stdout == ""
    path = tmp_path / "reduce.px"
    assert result.stderr == (
        "Traceback (most recent call last):\n"
        f'  File "{path}", line 21, in main\n'
        f'  File "{path}", line 10, in block_sum\n'
        "RuntimeError: race in kernel block_sum on shared array cache[1]: thread (0, 0, 0) read it at "
        "reduce.px:10 and thread (1, 0, 0) wrote it at reduce.px:10, in block (0, 0, 0), with no barrier() "
        "between\n")


def test_without_the_flag_the_race_goes_unnoticed(tmp_path):
    # What the check is for: the CPU target runs the racy kernel to an answer (a wrong one here).
    result = run_source(MISSING, tmp_path, "reduce.px")
    assert result.status == 0 and result.stderr == ""
    assert result.stdout == "7.0 39.0\n"


def test_the_correct_reduction_is_not_reported(tmp_path):
    result = run_source(CORRECT, tmp_path, "reduce.px", "--racecheck")
    assert (result.status, result.stdout, result.stderr) == (0, "28.0 92.0\n", "")


WARPS = """\
@kernel
fn total(x: Ptr[Float32], out: Ptr[Float32]):
    var partial = shared_array[Float32, 2]()
    var t = thread_idx.x
    var v = warp_sum(x[t])
    if t % 32 == 0:
        partial[t // 32] = v
BARRIER
    if t == 0:
        out[0] = partial[0] + partial[1]


fn main():
    var x = Ptr[Float32].alloc(64)
    var out = Ptr[Float32].alloc(1)
    for i in range(64):
        x[i] = 1.0
    launch total[grid=1, block=64](x, out)
    print(out[0])
"""


def test_a_race_between_warps_is_reported_in_a_kernel_run_as_coroutines(tmp_path):
    result = run_source(WARPS.replace("BARRIER\n", ""), tmp_path, "warps.px", "--racecheck")
    assert result.status == 1
    assert result.stderr.splitlines()[-1] == (
        "RuntimeError: race in kernel total on shared array partial[1]: thread (0, 0, 0) read it at warps.px:9 "
        "and thread (32, 0, 0) wrote it at warps.px:7, in block (0, 0, 0), with no barrier() between")
    result = run_source(WARPS.replace("BARRIER", "    barrier()"), tmp_path, "warps.px", "--racecheck")
    assert (result.status, result.stdout, result.stderr) == (0, "64.0\n", "")


def test_a_kernel_without_barriers_that_shares_memory_is_checked(tmp_path):
    source = """\
@kernel
fn neighbours(x: Ptr[Float32], out: Ptr[Float32]):
    var tile = shared_array[Float32, 4]()
    var t = thread_idx.x
    tile[t] = x[t]
    out[t] = tile[t]
    out[t] += tile[(t + 1) % 4]


fn main():
    var x = Ptr[Float32].alloc(4)
    var out = Ptr[Float32].alloc(4)
    launch neighbours[grid=1, block=4](x, out)
"""
    result = run_source(source, tmp_path, "direct.px", "--racecheck")
    assert result.status == 1
    # Thread 0 reads its own element (no race), then thread 1's, which thread 1 writes later.
    assert result.stderr.splitlines()[-1] == (
        "RuntimeError: race in kernel neighbours on shared array tile[1]: thread (0, 0, 0) read it at "
        "direct.px:7 and thread (1, 0, 0) wrote it at direct.px:5, in block (0, 0, 0), with no barrier() between")


def test_a_normal_build_has_no_checks(tmp_path):
    path = tmp_path / "reduce.px"
    path.write_text(MISSING)
    plain = run_cli("build", "--emit=llvm", str(path))
    checked = run_cli("build", "--emit=llvm", "--racecheck", str(path))
    assert plain.status == 0 and checked.status == 0
    assert CHECK not in plain.stdout
    assert f"@{CHECK}(" in checked.stdout


def test_racecheck_is_refused_for_a_gpu_target(tmp_path):
    path = tmp_path / "reduce.px"
    path.write_text(CORRECT)
    result = run_cli("run", "--racecheck", "--target=cuda", str(path))
    assert result.status == 2
    assert result.stderr == "pyx: error: --racecheck checks kernels run on the CPU; it cannot be used with " \
                            "--target=cuda\n"
    result = run_cli("build", "--racecheck", "--emit=spirv", str(path), "-o", str(tmp_path / "out.spv"))
    assert result.status == 2
    assert result.stderr == "pyx: error: --racecheck checks kernels run on the CPU; it cannot be used with " \
                            "--target=opencl\n"


def test_arrays_are_named_by_their_variable_and_dynamic_shared_by_its_name(tmp_path):
    source = """\
@kernel
fn reverse(data: Ptr[Float32], n: Int):
    var tile = dynamic_shared[Float32]()
    var flag = shared_array[Int, 4]()
    var t = thread_idx.x
    if t == 0:
        flag[0] = 1
    tile[t] = data[t]
    data[t] = tile[n - 1 - t]


fn main():
    var data = Ptr[Float32].alloc(8)
    launch reverse[grid=1, block=8, shared_bytes=32](data, 8)
"""
    result = run_source(source, tmp_path, "dyn.px", "--racecheck")
    assert result.status == 1
    assert result.stderr.splitlines()[-1] == (
        "RuntimeError: race in kernel reverse on shared array dynamic_shared[4]: thread (3, 0, 0) read it at "
        "dyn.px:9 and thread (4, 0, 0) wrote it at dyn.px:8, in block (0, 0, 0), with no barrier() between")
    result = run_source(source.replace("    if t == 0:\n", "    if True:\n"), tmp_path, "dyn.px", "--racecheck")
    assert result.stderr.splitlines()[-1] == (
        "RuntimeError: race in kernel reverse on shared array flag[0]: thread (0, 0, 0) wrote it at dyn.px:7 "
        "and thread (1, 0, 0) wrote it at dyn.px:7, in block (0, 0, 0), with no barrier() between")
