"""Child processes for the runtime tests: signals, pipes and stack overflows must not take the
test process down with them."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


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
