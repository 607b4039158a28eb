"""Ctrl-C while a launch waits for its kernel on a device target stops the wait: a launch from
Python raises KeyboardInterrupt with a note naming the kernel, and a whole program
(`pyx run --target=cuda`) or a pyx function that launches, called from Python, raises it at its
`launch`, as `--target=opencl` does (test_z_kernel_interrupt.py). Before, these waited in the
runtime's C code (clFinish, a blocking copy, cuCtxSynchronize) for the whole kernel, deaf to
Ctrl-C (and the pyx function's process then died of SIGSEGV: Python's KeyboardInterrupt escaped
the launch callback). The kernel itself cannot be stopped and runs on to its end: the arrays of
an interrupted call from Python are not copied back, and on CUDA the next launch waits for it,
drops an exception of one of its threads (it is not the next launch's) and only then frees the
memory freed meanwhile.

OpenCL runs for real on Intel's CPU runtime where it is installed; CUDA runs against the
stand-in driver (tests/fake_cuda.py), whose held kernel runs on and whose synchronize calls wait
for it with SIGINT blocked, as a driver waits in C."""
import signal
import struct
import sys
import threading
import traceback
from pathlib import Path

import pytest

from fake_cuda import SAXPY_KERNEL
from runtime_helpers import child_env, interrupt_group, opencl_available

np = pytest.importorskip("numpy")

import pyx  # noqa: E402

TESTS = str(Path(__file__).resolve().parent.parent)  # where the stand-in driver is

SPIN = '''
@kernel
fn spin(out: Ptr[Float32], n: Int):
    var acc: Float32 = 0.0
    for k in range(n):
        acc += Float32(k % 3)
    if thread_idx.x == 0:
        out[block_idx.x] = acc
'''

OPENCL_CALLER = r'''
import sys
import numpy as np
import pyx
m = pyx.import_module("spin", path=[sys.argv[1]], target="opencl")
out = np.full(4, 7.0, np.float32)
print("ready", flush=True)
try:
    m.spin[2, 32](out, 1 << 40)
except KeyboardInterrupt as exc:
    print("caught", *exc.__notes__, sep="\n")
print(out.tolist())
'''

SAXPY = SAXPY_KERNEL

PROGRAM = SAXPY + '''

fn main():
    var n = 64
    var x = Ptr[Float32].alloc(n)
    var y = Ptr[Float32].alloc(n)
    for i in range(n):
        x[i] = 0.0
        y[i] = 1.0
    print("started")
    launch saxpy[grid=2, block=32](2.0, x, y, n)
    print("not reached")
'''

CUDA_RUN = r'''
import sys
sys.path.insert(0, sys.argv[1])
from fake_cuda import FakeDriver
from pyx.cli import main
from pyx.runtime import cuda
driver = FakeDriver()
driver.hold(60)  # a kernel that runs on for a minute (pyx-base waited for all of it)
cuda.use_driver(lambda: driver)
sys.argv = ["pyx", "run", "--target=cuda", sys.argv[2]]
sys.exit(main())
'''


@pytest.mark.skipif(not opencl_available(), reason="no OpenCL runtime that takes SPIR-V (pyopencl) here")
def test_sigint_stops_waiting_for_a_kernel_launched_from_python_on_opencl(tmp_path):
    (tmp_path / "spin.px").write_text(SPIN)
    env = child_env(tmp_path, PYTHONUNBUFFERED="1")
    status, out, err = interrupt_group([sys.executable, "-c", OPENCL_CALLER, str(tmp_path)], env)
    ready, caught, note, array = out.splitlines()
    assert (status, ready, caught) == (0, "ready", "caught"), err
    assert note.startswith("pyx: Ctrl-C while waiting for kernel spin on ") and "runs on to its end" in note
    assert array == "[7.0, 7.0, 7.0, 7.0]"  # not copied back from the device


def _sigint_once_launched(fake) -> threading.Thread:
    """SIGINT to this (the main) thread once the stand-in's kernel has been launched."""
    main = threading.main_thread().ident

    def send():
        if fake.launched.wait(60):
            signal.pthread_kill(main, signal.SIGINT)

    sender = threading.Thread(target=send, daemon=True)
    sender.start()
    return sender


def test_sigint_stops_waiting_for_a_kernel_launched_from_python_on_cuda(fake, tmp_path):
    (tmp_path / "e_saxpy.px").write_text(SAXPY)
    sys.modules.pop("e_saxpy", None)
    m = pyx.import_module("e_saxpy", target="cuda", path=[str(tmp_path)])
    x, y = np.ones(64, np.float32), np.ones(64, np.float32)
    m.saxpy[2, 32](2.0, x, y, 64)  # a launch that ends (the stand-in computes y = 2 * x + y)
    fake.hold(10)  # pyx-base waited these 10 s, SIGINT blocked, and raised only once it was over
    fake.raises = struct.pack("<i", 1)  # a thread of it raised (a record whose flag is set)
    sender = _sigint_once_launched(fake)
    with pytest.raises(KeyboardInterrupt) as caught:
        m.saxpy[2, 32](2.0, x, y, 64)
    sender.join()
    assert fake.running()  # the wait stopped; the kernel did not
    assert caught.value.__notes__ == ["pyx: Ctrl-C while waiting for kernel saxpy on the GPU (sm_90); the kernel "
                                      "itself cannot be stopped and runs on to its end there (its arrays are not "
                                      "copied back)"]
    assert y.tolist() == [3.0] * 64  # not copied back
    assert len(fake.memory) == 2  # x's and y's device copies: the kernel may still use them
    fake.raises = None
    fake.release()
    m.saxpy[2, 32](2.0, x, y, 64)  # raises nothing: the exception was the interrupted kernel's
    assert y.tolist() == [5.0] * 64
    assert fake.memory == {}  # the interrupted launch's copies, freed by this one


LAUNCHER = """
from e_saxpy import saxpy


fn axpy(a: Float32, x: Ptr[Float32], y: Ptr[Float32], n: Int) -> Float32:
    launch saxpy[grid=2, block=32](a, x, y, n)
    return y[0]
"""


def test_sigint_stops_a_pyx_function_at_its_launch_on_cuda(fake, tmp_path):
    (tmp_path / "e_saxpy.px").write_text(SAXPY)
    (tmp_path / "e_launcher.px").write_text(LAUNCHER)
    sys.modules.pop("e_launcher", None)
    m = pyx.import_module("e_launcher", target="cuda", path=[str(tmp_path)])
    x, y = np.ones(64, np.float32), np.ones(64, np.float32)
    fake.hold(10)
    sender = _sigint_once_launched(fake)
    with pytest.raises(KeyboardInterrupt) as caught:
        m.axpy(2.0, x, y, 64)
    sender.join()
    assert fake.running()
    innermost = traceback.extract_tb(caught.value.__traceback__)[-1]
    assert (innermost.name, innermost.lineno) == ("axpy", 6)  # the launch
    assert y.tolist() == [1.0] * 64  # not copied back
    assert len(fake.memory) == 2  # the staged copies of x and y: the kernel may still use them
    fake.release()
    assert m.axpy(2.0, x, y, 64) == 3.0
    assert y.tolist() == [3.0] * 64
    assert fake.memory == {}


def test_sigint_stops_a_whole_program_at_its_launch_on_cuda(tmp_path):
    source = tmp_path / "prog.px"
    source.write_text(PROGRAM)
    env = child_env(tmp_path, PYTHONUNBUFFERED="1")
    status, out, err = interrupt_group([sys.executable, "-c", CUDA_RUN, TESTS, str(source)], env)
    assert status == -signal.SIGINT and out == "started\n", err
    assert err == f'Traceback (most recent call last):\n  File "{source}", line 19, in main\nKeyboardInterrupt\n'

