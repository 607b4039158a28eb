"""pytest runs the test_* functions of test_*.px files (lang/pytest_plugin.py): each is an item
with pytest's reporting, a failure shows the exception and the .px frames, `-k` and `-x`
work, a file that does not compile is a collection error with its diagnostics, and
pytest-xdist spreads the items over workers. Run in a pytest of its own, in a folder of its
own; `-p no:pyx -p pyx.pytest_plugin` loads the plugin whether or not pyx-llvm's entry point is
installed (tests/packaging/test_wheel.py checks the entry point)."""
import importlib.util
import os
import subprocess
import sys

import pytest

from helpers import ROOT

SUITE = (ROOT / "tests" / "cli" / "test_sample_suite.px").read_text()


def pytest_in(folder, *args):
    env = {**os.environ, "PYX_CACHE_DIR": str(folder / ".cache"), "COLUMNS": "200"}  # no truncated summaries
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:pyx", "-p", "pyx.pytest_plugin", "-p",
                           "no:cacheprovider", "-p", "no:randomly", "-q", *args], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=600)


@pytest.fixture()
def suite(tmp_path):
    (tmp_path / "test_sample_suite.px").write_text(SUITE)
    (tmp_path / "helper_not_a_test.px").write_text("fn test_never() -> Int:\n    return 1\n")
    return tmp_path


def test_each_test_function_is_an_item_with_pytests_reporting(suite):
    done = pytest_in(suite, "-rA")
    assert done.returncode == 1, done.stdout + done.stderr
    out = done.stdout
    assert "PASSED test_sample_suite.px::test_gcd" in out
    assert "FAILED test_sample_suite.px::test_broken - AssertionError: this one is wrong on purpose" in out
    assert "FAILED test_sample_suite.px::test_division - ZeroDivisionError: integer division or modulo by zero" in out
    assert 'test_sample_suite.px", line 16, in test_broken' in out
    assert "bridge.py" not in out  # only the .px frames are shown
    assert "test_never" not in out  # only test_*.px files are collected
    assert out.rstrip().splitlines()[-1].startswith("2 failed, 1 passed")


def test_k_and_x_select_and_stop(suite):
    done = pytest_in(suite, "-k", "gcd")
    assert done.returncode == 0 and "1 passed, 2 deselected" in done.stdout, done.stdout + done.stderr
    done = pytest_in(suite, "-x")
    assert done.returncode == 1 and "stopping after 1 failures" in done.stdout
    assert "1 failed, 1 passed" in done.stdout  # test_division never ran


def test_a_file_that_does_not_compile_is_a_collection_error(tmp_path):
    (tmp_path / "test_bad.px").write_text("fn test_x():\n    var y: Int = 1.5\n")
    done = pytest_in(tmp_path)
    assert done.returncode == 2, done.stdout + done.stderr  # pytest's status for collection errors
    assert "ERROR collecting test_bad.px" in done.stdout
    assert "test_bad.px does not compile" in done.stdout and "error[E0201]" in done.stdout


@pytest.mark.skipif(importlib.util.find_spec("xdist") is None, reason="pytest-xdist is not installed")
def test_xdist_spreads_the_items_over_workers(suite):
    (suite / "test_second.px").write_text(SUITE)
    done = pytest_in(suite, "-p", "xdist", "-n", "2", "-k", "gcd or division")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "2 failed, 2 passed" in done.stdout
