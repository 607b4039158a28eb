"""Ctrl-C stops compiled code as it stops Python.

`pyx run` of a program that never ends by itself, sent SIGINT once it has printed a line, ends
by SIGINT (status 130 in a shell) after printing Python's traceback and `KeyboardInterrupt`,
serial or in a prange loop; a second SIGINT ends a program that does not poll. A call from
Python raises KeyboardInterrupt in the caller, which can catch it and go on.
"""
import select
import shutil
import signal
import subprocess
import sys
import time

import pytest

from runtime_helpers import build_executable, pyx_command
from runtime_helpers import child_env as _child_env


def child_env(tmp_path):
    return _child_env(tmp_path, PYTHONUNBUFFERED="1")

SERIAL = '''
fn main():
    print("started")
    var x = 0
    while True:
        x += 1
'''

PARALLEL = '''
fn steps(n: Int) -> Int:
    var total = 0
    for i in prange(n):
        var x = i + 1
        while x != 1:
            x = x // 2 if x % 2 == 0 else 3 * x + 1
            total += 1
    return total


fn main():
    print("started")
    print(steps(1000000000000000))
'''

CAUGHT = '''
fn main():
    print("started")
    var x = 0
    try:
        while True:
            x += 1
    except KeyboardInterrupt:
        print("interrupted; finally reached")
'''

# Recursion with no loop to poll: the first SIGINT is noted, the second ends the program.
NO_LOOP = '''
fn fib(n: Int) -> Int:
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


fn main():
    print("started")
    print(fib(90))
'''

MODULE = '''
fn forever(n: Int) -> Int:
    var x = n
    while x >= 0:
        x += 1
    return x


fn forever_in_workers(n: Int) -> Int:
    var total = 0
    for i in prange(n):
        var x = i + 1
        while x != 1:
            x = x // 2 if x % 2 == 0 else 3 * x + 1
            total += 1
    return total


fn forever_printing(n: Int):
    print("in pyx")
    var x = n
    while x >= 0:
        x += 1
'''

CALLER = r'''
import sys
import pyx
m = pyx.import_module("loops", path=[sys.argv[1]])
call = {"serial": lambda: m.forever(1), "prange": lambda: m.forever_in_workers(10**15),
        "ctypes path": lambda: m.forever_printing(1)}[sys.argv[2]]
if sys.argv[2] != "ctypes path":  # that one prints its own first line, from inside the call
    print("ready", flush=True)
try:
    call()
except KeyboardInterrupt:
    print("caught", flush=True)
print("after:", m.forever.__name__, flush=True)
'''


def _interrupt(command, env, signals: int = 1):
    """Start `command`, wait for its first line, send SIGINT `signals` times: (status, stdout, stderr).
    The child's stdout is unbuffered (PYTHONUNBUFFERED makes CPython set C's stdio so; an
    executable runs under stdbuf), so its first line arrives when it is printed."""
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True)
    try:
        ready, _, _ = select.select([child.stdout], [], [], 120)
        first = child.stdout.readline() if ready else ""
        assert first, "no first line" if child.poll() is None else child.communicate()[1]
        if first == "ready\n":
            time.sleep(0.5)  # let the call begin (a SIGINT before it is Python's own KeyboardInterrupt)
        for _ in range(signals):
            child.send_signal(signal.SIGINT)
            try:
                out, err = child.communicate(timeout=20)
                return child.returncode, first + out, err
            except subprocess.TimeoutExpired:
                continue
        pytest.fail(f"still running {signals} SIGINT(s) later")
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate()


@pytest.mark.parametrize("program, frames", [
    (SERIAL, '  File "prog.px", line 5, in main\n'),
    # A worker notices the flag at whichever poll comes first: the inner loop's or the prange's.
    (PARALLEL, '  File "prog.px", line 14, in main\n  File "prog.px", line 6, in steps\n'),
], ids=["serial", "prange"])
def test_pyx_run_stops_on_sigint(tmp_path, program, frames):
    (tmp_path / "prog.px").write_text(program)
    status, out, err = _interrupt(pyx_command("run", str(tmp_path / "prog.px")), child_env(tmp_path))
    assert status == -signal.SIGINT  # killed by SIGINT, as CPython ends: a shell shows 130
    assert out == "started\n"
    err = err.replace("line 4, in steps", "line 6, in steps")  # the prange's own poll came first
    assert err == f"Traceback (most recent call last):\n{frames}KeyboardInterrupt\n".replace(
        "prog.px", str(tmp_path / "prog.px"))


def test_keyboard_interrupt_can_be_caught(tmp_path):
    (tmp_path / "prog.px").write_text(CAUGHT)
    status, out, err = _interrupt(pyx_command("run", str(tmp_path / "prog.px")), child_env(tmp_path))
    assert (status, out, err) == (0, "started\ninterrupted; finally reached\n", "")


def test_a_second_sigint_ends_a_program_that_does_not_poll(tmp_path):
    (tmp_path / "prog.px").write_text(NO_LOOP)
    status, out, _ = _interrupt(pyx_command("run", str(tmp_path / "prog.px")), child_env(tmp_path), signals=2)
    assert status == -signal.SIGINT and out == "started\n"


def test_executable_stops_on_sigint(tmp_path):
    (tmp_path / "prog.px").write_text(SERIAL)
    exe = build_executable(tmp_path / "prog.px", tmp_path)
    if shutil.which("stdbuf") is None:
        pytest.skip("no stdbuf to unbuffer the executable's stdout")
    status, out, err = _interrupt(["stdbuf", "-o0", str(exe)], child_env(tmp_path))
    assert status == -signal.SIGINT and out == "started\n"
    assert err.endswith(", line 5, in main\nKeyboardInterrupt\n")


@pytest.mark.parametrize("which", ["serial", "prange", "ctypes path"])
def test_call_from_python_raises_keyboard_interrupt(tmp_path, which):
    (tmp_path / "loops.px").write_text(MODULE)
    status, out, err = _interrupt([sys.executable, "-c", CALLER, str(tmp_path), which], child_env(tmp_path))
    assert status == 0, err
    first = "in pyx\n" if which == "ctypes path" else "ready\n"
    assert out == f"{first}caught\nafter: forever\n"
