"""Child processes for the runtime tests: signals, pipes and stack overflows must not take the
test process down with them."""
from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest


def child_env(tmp_path: Path, **extra: str) -> dict:
    env = dict(os.environ, PYX_CACHE_DIR=str(tmp_path / "cache"), PYTHONPATH=os.pathsep.join(sys.path))
    env.pop("PYTHONUNBUFFERED", None)  # C stdio buffers a pipe as it does for any program
    env.update(extra)
    return env


def pyx_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "pyx", *args]


def run_python(tmp_path: Path, script: str, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", script, str(tmp_path), *args], capture_output=True, text=True,
                          env=child_env(tmp_path), timeout=timeout)


def build_executable(program: Path, tmp_path: Path) -> Path:
    """`pyx build program -o exe`, the executable's path; skips where there is no C compiler."""
    exe = program.with_suffix("")
    built = subprocess.run(pyx_command("build", str(program), "-o", str(exe)), capture_output=True, text=True,
                           env=child_env(tmp_path))
    if built.returncode != 0 and "E0902" in built.stderr:
        pytest.skip("no C compiler to link an executable")
    assert built.returncode == 0, built.stderr
    return exe


def interrupt_group(command, env):
    """Start `command` in a process group of its own, wait for its first line, then SIGINT the
    group once: (status, stdout, stderr). The whole group is killed if it is still running."""
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True,
                             start_new_session=True)
    try:
        ready, _, _ = select.select([child.stdout], [], [], 120)
        first = child.stdout.readline() if ready else ""
        assert first, "no first line" if child.poll() is None else child.communicate()[1]
        time.sleep(0.5)  # into the launch (a SIGINT before it would stop the host code instead)
        os.killpg(child.pid, signal.SIGINT)
        try:
            out, err = child.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            pytest.fail("the launch went on 30 s after SIGINT")
        return child.returncode, first + out, err
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
            child.communicate()


def opencl_available() -> bool:
    """Whether an OpenCL runtime that takes SPIR-V (pyopencl) is here."""
    try:
        from pyx.runtime import opencl
    except ImportError:
        return False
    return opencl.available()
