"""A wheel built from the tracked files alone installs, imports every module, and runs."""
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from helpers import ROOT


def tracked_files() -> list[str]:
    done = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip("not a git checkout")
    return [f for f in done.stdout.splitlines() if (ROOT / f).is_file()]


def test_wheel_from_clean_checkout_imports_every_module(tmp_path: Path):
    checkout = tmp_path / "checkout"
    for name in tracked_files():
        dest = checkout / name
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes((ROOT / name).read_bytes())
    dist = tmp_path / "dist"
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), str(checkout)],
                           capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    wheel = next(dist.glob("pyx_llvm-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert "pyx/syntax/pyx.lark" in names
    # The license the metadata names ships with it, as an SPDX expression (PEP 639).
    info = next(n for n in names if n.endswith(".dist-info/METADATA"))
    metadata = zipfile.ZipFile(wheel).read(info).decode()
    assert "License-Expression: Apache-2.0" in metadata.splitlines()
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    modules = sorted(n[:-3].replace("/", ".").removesuffix(".__init__") for n in names
                     if n.endswith(".py") and n.startswith("pyx/"))
    for package_dir in ("lang", "runtime", "stdlib"):
        for source in (ROOT / package_dir).rglob("*.py"):
            rel = source.relative_to(ROOT / package_dir).with_suffix("")
            prefix = {"lang": "pyx", "runtime": "pyx.runtime", "stdlib": "pyx.stdlib"}[package_dir]
            dotted = ".".join((prefix, *rel.parts)).removesuffix(".__init__")
            if str(source.relative_to(ROOT)) in tracked_files():
                assert dotted in modules, f"{dotted} is missing from the wheel"
    site = tmp_path / "site"
    install = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(site),
                              str(wheel)], capture_output=True, text=True)
    assert install.returncode == 0, install.stderr
    env = {**os.environ, "PYTHONPATH": str(site)}
    script = "import importlib, sys\nfor m in sys.argv[1:]:\n    importlib.import_module(m)\n"
    importable = [m for m in modules if m != "pyx.__main__"]  # that one runs the CLI; -m pyx below covers it
    done = subprocess.run([sys.executable, "-c", script, *importable], cwd=tmp_path, env=env, capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr
    run = subprocess.run([sys.executable, "-m", "pyx", "run", str(ROOT / "examples" / "hello.px")], cwd=tmp_path,
                         env=env, capture_output=True, text=True)
    assert run.stdout == "Hello, pyx!\n", run.stderr
    # Installed, the pytest plugin is found by its entry point: plain `pytest` runs .px tests.
    suite = tmp_path / "suite"
    suite.mkdir()
    (suite / "test_sample_suite.px").write_bytes((ROOT / "tests" / "cli" / "test_sample_suite.px").read_bytes())
    tested = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
                             "-k", "gcd", str(suite)], cwd=suite, env=env, capture_output=True, text=True)
    assert tested.returncode == 0 and "1 passed, 2 deselected" in tested.stdout, tested.stdout + tested.stderr
