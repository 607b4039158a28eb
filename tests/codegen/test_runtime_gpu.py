"""The GPU-on-CPU scheduler is pyx (stdlib/runtime_gpu.px) around a few generated pieces
(codegen/gpu_cpu.py): the two agree on the context's words, and the pyx side reports what the
generated scheduler reported (deadlocks in any block of a 2-D grid, in 3-D blocks, by either way of
running a block; exceptions in any block)."""
import re

import pytest

from helpers import run_source
from pyx.codegen import gpu_cpu
from pyx.semantics.imports import STDLIB

SOURCE = (STDLIB / "runtime_gpu.px").read_text()
COMPTIMES = {name: int(value) for name, value in re.findall(r"^comptime (_\w+) = (-?\d+)", SOURCE, re.M)}


def test_the_pyx_scheduler_and_the_generated_code_name_the_same_words():
    """Each field of gpu_cpu.FIELDS is the word of stdlib/runtime_gpu.px's comptime of the same name:
    the generated code of a kernel reads the words the pyx side writes."""
    words = {name: COMPTIMES["_" + name.upper()] for name in gpu_cpu.FIELDS if name != "idx"}
    assert words == {name: gpu_cpu.field_word(name) for name in words}
    assert COMPTIMES["_WORDS"] == gpu_cpu.field_word(gpu_cpu.FIELDS[-1]) + 1
    assert (COMPTIMES["_THREAD"], COMPTIMES["_BLOCK"]) == (0, 3)  # idx's thread and block index
    # every field one word, so the struct the generated code reads is the array pyx writes
    assert all(t.width == 64 if hasattr(t, "width") else t.is_pointer or t.count == 12
               for t in gpu_cpu.gpu_ctx_type().elements)
    assert [COMPTIMES[f"_{s}"] for s in ("RUNNABLE", "AT_BARRIER", "AT_WARP", "DONE")] == \
        [gpu_cpu.RUNNABLE, gpu_cpu.AT_BARRIER, gpu_cpu.AT_WARP, gpu_cpu.DONE]
    assert (COMPTIMES["_STACK_BYTES"], COMPTIMES["_REPORT_BYTES"], COMPTIMES["_DEADLOCK"]) == \
        (gpu_cpu.STACK_BYTES, gpu_cpu.REPORT_BYTES, gpu_cpu.DEADLOCK)


def test_a_launch_links_the_pyx_scheduler_and_generates_only_the_pieces_pyx_cannot_say(tmp_path):
    from pyx.codegen.llvm_gen import generate
    from pyx.codegen.runtime_source import PREFIX
    from pyx.codegen.target import host_target
    from pyx.ir import ops
    from pyx.options import CompileOptions
    from pyx.pipeline import lower
    from pyx.source import SourceFile

    text = ("@kernel\nfn k(p: Ptr[Float32]):\n    p[thread_idx.x] = 1.0\n    barrier()\n\n\n"
            "fn main():\n    var p = Ptr[Float32].alloc(4)\n    launch k[grid=1, block=4](p)\n    p.free()\n")
    module = generate(lower(SourceFile(str(tmp_path / "k.px"), text), CompileOptions()).ir, host_target(),
                      entry=True, c_main=True)
    names = {f.name for f in module.functions}
    assert {f"{PREFIX}runtime_gpu.{kind}_blocks" for kind in ("direct", "coroutine", "region")} <= names
    generated = {name for name in names if name.startswith("__pyx_gpu_")}
    assert generated == {"__pyx_gpu_make_key", "__pyx_gpu_ctx", "__pyx_gpu_thread", "__pyx_gpu_barrier",
                         "__pyx_gpu_warp_sync", "__pyx_gpu_prepare", "__pyx_gpu_round", "__pyx_gpu_direct_blocks",
                         "__pyx_gpu_coroutine_blocks", "__pyx_gpu_region_blocks", "__pyx_gpu_launch"}
    # The census `gpu.region_settle` asked for is the thread loops' own now (codegen/thread_loops.py).
    assert "gpu.region_settle" not in ops.SPECS and "gpu.region_wait" in ops.SPECS


# A deadlock in one block of a 2-D grid (the pool's pieces start at different blocks, whose indices
# the pyx side steps) between threads of a 3-D block; `warp_sum` makes the kernel's threads
# coroutines, a kernel with barriers alone runs as loops over its threads.
DEADLOCKS = """\
@kernel
fn looped(x: Ptr[Int]):
    var t = thread_idx.x + 8 * (thread_idx.y + 4 * thread_idx.z)
    if block_idx.x == 2 and block_idx.y == 1 and thread_idx.z == 1 and thread_idx.y >= 2:
        barrier()
    else:
        barrier()
    x[t] = t


@kernel
fn coroutines(x: Ptr[Int]):
    var t = thread_idx.x + 8 * (thread_idx.y + 4 * thread_idx.z)
    x[t] = warp_sum(1)
    if block_idx.x == 2 and block_idx.y == 1 and thread_idx.z == 1 and thread_idx.y >= 2:
        barrier()
    else:
        barrier()


@kernel
fn raises(x: Ptr[Int], d: Int):
    if block_idx.x == 1 and block_idx.y == 1 and thread_idx.y == 2:
        x[0] = 7 // d
    x[1] = 1


fn main():
    var x = Ptr[Int].alloc(64)
    try:
        launch looped[grid=(3, 2), block=(8, 4, 2)](x)
    except RuntimeError as e:
        print(e)
    try:
        launch coroutines[grid=(3, 2), block=(8, 4, 2)](x)
    except RuntimeError as e:
        print(e)
    try:
        launch raises[grid=(3, 2), block=(8, 4, 2)](x, 0)
    except ZeroDivisionError as e:
        print("raised:", e)
    launch raises[grid=(3, 2), block=(8, 4, 2)](x, 1)
    print(x[0], x[1])
    x.free()
"""


@pytest.mark.parametrize("threads", ["1", "2"])
def test_deadlocks_and_exceptions_in_any_block_are_reported_as_before(tmp_path, monkeypatch, threads):
    monkeypatch.setenv("PYX_NUM_THREADS", threads)
    result = run_source(DEADLOCKS, tmp_path)
    assert result.stderr == ""
    assert result.stdout.splitlines() == [
        "deadlock in kernel looped: in block (2, 1, 0), thread (0, 0, 0) waits at barrier() at prog.px:7 "
        "and thread (0, 2, 1) at barrier() at prog.px:5",
        "deadlock in kernel coroutines: in block (2, 1, 0), thread (0, 0, 0) waits at barrier() at prog.px:18 "
        "and thread (0, 2, 1) at barrier() at prog.px:16",
        "raised: integer division or modulo by zero",
        "7 1",
    ]
