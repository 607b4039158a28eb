import os
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("PYX_VERIFY", "1")  # the IR verifier runs after every pass in the tests
# CPython's str hashes, and so the order of its sets of str, change from run to run unless
# PYTHONHASHSEED is fixed; pyx's are CPython's with PYTHONHASHSEED=0 (stdlib/string.px,
# docs/python-subset.md), so every CPython the tests start runs with it.
os.environ["PYTHONHASHSEED"] = "0"
# A cache of their own: code cached by an earlier run without the verifier must not let a
# test pass without compiling (and verifying) what it checks.
os.environ.setdefault("PYX_CACHE_DIR", tempfile.mkdtemp(prefix="pyx-test-cache-"))
# pyx's pytest plugin (lang/pytest_plugin.py, loaded once pyx-llvm is installed) collects
# test_*.px files; this one fails on purpose, for the tests of `pyx test` and of the plugin.
collect_ignore = ["cli/test_sample_suite.px"]


@pytest.fixture()
def fake(monkeypatch, tmp_path):
    """The stand-in in place of cuda-python for one test, with a fresh device and cache."""
    from fake_cuda import FakeDriver
    from pyx.runtime import cuda

    driver = FakeDriver()
    cuda.use_driver(lambda: driver)
    monkeypatch.setenv("PYX_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("PYX_NO_CACHE", raising=False)
    yield driver
    cuda.use_driver(None)
