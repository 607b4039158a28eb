"""Ctrl-C during a long kernel launch on the CPU target stops it as a long host loop stops:
`pyx run` ends by SIGINT after Python's traceback (the kernel's line in it) and
`KeyboardInterrupt`, and a launch from Python raises KeyboardInterrupt in the caller. Kernels on
the CPU keep the interrupt polls at their loops' back-edges (ir/interrupts.py strips them only
for the device targets), in thread loops and in the scheduler's threads alike.

On `pyx run --target=opencl` the launch waits for the kernel asking the runtime, and stops
waiting at a SIGINT: the program raises KeyboardInterrupt at its `launch` (before, the wait was
the runtime's own and ignored Ctrl-C until the kernel ended).

The SIGINT goes to the child's whole process group, as a terminal's Ctrl-C does."""
import signal
import sys

import pytest

from runtime_helpers import child_env, interrupt_group, opencl_available, pyx_command

# The loop runs 2^40 times, then a warp operation: a kernel run as thread loops (one region
# before the warp_sum, one after).
THREAD_LOOPS = '''
@kernel
fn spin(out: Ptr[Float32], n: Int):
    var acc: Float32 = 0.0
    for k in range(n):
        acc += Float32(k % 3)
    var s = warp_sum(acc)
    if thread_idx.x == 0:
        out[block_idx.x] = s


fn main():
    var out = Ptr[Float32].alloc(4)
    print("started")
    launch spin[grid=2, block=32](out, 1099511627776)
    print(out[0])
'''

# A warp operation inside the loop, reached by only some threads, in a device function: the
# scheduler runs each thread on a stack of its own.
SCHEDULED = '''
fn work(n: Int) -> Float32:
    var acc: Float32 = 0.0
    var k = 0
    while k < n:
        acc += warp_sum(Float32(k % 3))
        k += 1
    return acc


@kernel
fn spin(out: Ptr[Float32], n: Int):
    var acc: Float32 = 0.0
    if thread_idx.x < 48:
        acc = work(n)
    if thread_idx.x == 0:
        out[block_idx.x] = acc


fn main():
    var out = Ptr[Float32].alloc(4)
    print("started")
    launch spin[grid=2, block=64](out, 1099511627776)
    print(out[0])
'''

CALLER = r'''
import sys
import numpy as np
import pyx
m = pyx.import_module("prog", path=[sys.argv[1]])
out = np.zeros(4, np.float32)
print("ready", flush=True)
try:
    m.spin[2, 32](out, 1 << 40)
except KeyboardInterrupt:
    print("caught", flush=True)
'''


@pytest.mark.parametrize("program, frames", [
    (THREAD_LOOPS, '  File "prog.px", line 15, in main\n  File "prog.px", line 5, in spin\n'),
    (SCHEDULED, '  File "prog.px", line 23, in main\n  File "prog.px", line 15, in spin\n'
                '  File "prog.px", line 5, in work\n'),
], ids=["thread loops", "scheduler"])
def test_sigint_stops_a_kernel_launch_on_the_cpu(tmp_path, program, frames):
    (tmp_path / "prog.px").write_text(program)
    env = child_env(tmp_path, PYTHONUNBUFFERED="1")
    status, out, err = interrupt_group(pyx_command("run", str(tmp_path / "prog.px")), env)
    assert status == -signal.SIGINT and out == "started\n", err
    assert err == f"Traceback (most recent call last):\n{frames}KeyboardInterrupt\n".replace(
        "prog.px", str(tmp_path / "prog.px"))


def test_sigint_stops_a_kernel_launched_from_python(tmp_path):
    pytest.importorskip("numpy")
    (tmp_path / "prog.px").write_text(THREAD_LOOPS)
    env = child_env(tmp_path, PYTHONUNBUFFERED="1")
    status, out, err = interrupt_group([sys.executable, "-c", CALLER, str(tmp_path)], env)
    assert (status, out) == (0, "ready\ncaught\n"), err


@pytest.mark.skipif(not opencl_available(), reason="no OpenCL runtime that takes SPIR-V (pyopencl) here")
def test_sigint_stops_waiting_for_a_kernel_on_opencl(tmp_path):
    (tmp_path / "prog.px").write_text(THREAD_LOOPS)
    env = child_env(tmp_path, PYTHONUNBUFFERED="1")
    status, out, err = interrupt_group(pyx_command("run", "--target=opencl", str(tmp_path / "prog.px")), env)
    assert status == -signal.SIGINT and out == "started\n", err
    frame = f'  File "{tmp_path / "prog.px"}", line 15, in main\n'  # the launch: the kernel is not stopped
    assert err == f"Traceback (most recent call last):\n{frame}KeyboardInterrupt\n"
