"""A C-API function this Python does not export is an ImportError naming it, never a call to
address 0. Python 3.10 exports no PyObject_Vectorcall, which the compiled CPython entry points
call: pyx requires 3.11 (pyproject.toml), and loading a module checks every C-API function its
code calls (bridge.check_python_api, over the list build.py records)."""
import sys
import tomllib

import pytest

from helpers import ROOT, import_source


def test_a_missing_c_api_function_is_an_import_error():
    from pyx.runtime.bridge import check_python_api

    check_python_api("fine", ["PyObject_Vectorcall", "PyTuple_GetItem"])  # all there on 3.11+
    with pytest.raises(ImportError, match="needs the C-API function PyObject_NotInAnyPython") as info:
        check_python_api("mod", ["PyTuple_GetItem", "PyObject_NotInAnyPython"])
    assert info.value.name == "mod"


def test_modules_record_the_c_api_functions_they_call(tmp_path, monkeypatch):
    module = import_source("capi", "fn add(a: Int, b: Int) -> Int:\n    return a + b\n", tmp_path, monkeypatch)
    assert "PyObject_Vectorcall" in module.__pyx__["meta"]["python_api"]  # the fast entry's fallback
    assert module.add(2, 3) == 5


def test_loading_checks_before_any_code_runs(tmp_path, monkeypatch):
    from pyx.runtime import bridge

    module = import_source("capi2", "fn one() -> Int:\n    return 1\n", tmp_path, monkeypatch)
    meta = dict(module.__pyx__["meta"], python_api=["PyObject_NotInAnyPython"])
    with pytest.raises(ImportError, match="PyObject_NotInAnyPython"):
        bridge.make_module("capi2", meta, module.__pyx__["library"].jit, "capi2.px")


def test_declared_python_version():
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"]
    assert declared == ">=3.11"
    assert sys.version_info >= (3, 11)
