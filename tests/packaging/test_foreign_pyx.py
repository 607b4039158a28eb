"""PyX (the graphics package, also imported as `pyx`) installed into the same `pyx/` folder as
pyx-llvm: `import pyx` warns when PyX's files are beside ours, and the `pyx` command refuses
to run (exit 2) when the `pyx` package it finds is PyX's, saying what happened and what to do,
instead of an AttributeError or a crash later."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

from helpers import ROOT


def overlay(tmp_path: Path, graphics_init: bool) -> Path:
    """A `pyx/` folder as pip leaves it after installing both: ours, plus PyX's files (and,
    when PyX was installed second, PyX's `__init__.py` over ours)."""
    site = tmp_path / "site"
    shutil.copytree(ROOT / "lang", site / "pyx", ignore=shutil.ignore_patterns("__pycache__"))
    (site / "pyx" / "canvas.py").write_text("class canvas:\n    pass\n")
    if graphics_init:
        (site / "pyx" / "__init__.py").write_text('"""PyX stand-in."""\nfrom .canvas import canvas\n')
    return site


def run(site: Path, *args: str):
    env = {**os.environ, "PYTHONPATH": str(site)}
    return subprocess.run([sys.executable, *args], cwd=site, env=env, capture_output=True, text=True, timeout=120)


def test_import_warns_when_pyx_graphics_files_are_beside_ours(tmp_path):
    site = overlay(tmp_path, graphics_init=False)
    done = run(site, "-c", "import pyx; print(pyx.__file__)")
    assert done.returncode == 0 and done.stdout.strip() == str(site / "pyx" / "__init__.py")
    assert "RuntimeWarning: PyX (the graphics package, `pip install PyX`) and pyx-llvm both install" in done.stderr
    assert f"one was installed over the other in {site / 'pyx'}" in done.stderr


def test_the_command_refuses_to_run_on_pyx_graphics_package(tmp_path):
    site = overlay(tmp_path, graphics_init=True)
    done = run(site, "-c", "import sys; from pyx.cli import main; sys.exit(main(['--version']))")
    assert done.returncode == 2, done.stderr
    assert "pyx: error: PyX (the graphics package" in done.stderr
    assert "(the `pyx` imported now is PyX's)" in done.stderr and "Traceback" not in done.stderr


def test_a_clean_install_says_nothing():
    done = subprocess.run([sys.executable, "-W", "error", "-c", "import pyx"], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0 and done.stderr == ""
