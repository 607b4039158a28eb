"""Threads of a block that wait at different `barrier()` calls never meet (a GPU hangs, or goes on
with its shared memory half written): the CPU target reports it as a deadlock naming the kernel, the
block, and the two places two threads wait at, from pyx and from Python."""
import pytest

from helpers import import_source, run_source

DIVERGENT = """\
@kernel
fn divergent(x: Ptr[Float32]):
    var s = shared_array[Float32, 64]()
    s[thread_idx.x] = x[thread_idx.x]
    if thread_idx.x < 40:
        barrier()
        x[thread_idx.x] = s[thread_idx.x + 1]
    else:
        barrier()
        x[thread_idx.x] = s[thread_idx.x - 1]


@kernel
fn looped(x: Ptr[Float32], rounds: Int):
    # One barrier in a loop, and threads that end early: they are the same barrier each time.
    var s = shared_array[Float32, 64]()
    for r in range(rounds if thread_idx.x < 8 else 1):
        s[thread_idx.x] = Float32(r)
        barrier()
    x[thread_idx.x] = s[thread_idx.x]


fn main():
    var x = Ptr[Float32].alloc(64)
    for i in range(64):
        x[i] = Float32(i)
    launch looped[grid=1, block=64](x, 3)
    print(x[0], x[63])
    launch divergent[grid=2, block=64](x)
    print("not reached")
"""

MESSAGE = ("RuntimeError: deadlock in kernel divergent: in block (0, 0, 0), thread (0, 0, 0) waits at barrier() "
           "at prog.px:6 and thread (40, 0, 0) at barrier() at prog.px:9")


def test_threads_at_different_barriers_are_a_deadlock(tmp_path):
    result = run_source(DIVERGENT, tmp_path)
    assert result.status == 1
    assert result.stdout == "2.0 0.0\n"
    assert result.stderr.splitlines()[-1] == MESSAGE
    assert "prog.px\", line 29, in main" in result.stderr


def test_from_python_the_launch_raises(tmp_path, monkeypatch):
    np = pytest.importorskip("numpy")
    m = import_source("divergent_barriers", DIVERGENT, tmp_path, monkeypatch)
    x = np.arange(64, dtype=np.float32)
    with pytest.raises(RuntimeError, match=r"deadlock in kernel divergent: in block \(0, 0, 0\), thread \(0, 0, 0\) "
                       r"waits at barrier\(\) at divergent_barriers.px:6 and thread \(40, 0, 0\) at barrier\(\)"):
        m.divergent[2, 64](x)
