"""The prelude is a stdlib file (issue 15, item 3): the names every module sees without an import
are the `from M import ...` lines of stdlib/prelude.px, read like any module, not a table in the
compiler. (Every import there resolving is checked with the rest of the stdlib, in
test_stdlib_compiles.py.)"""
import shutil

from helpers import run_cli
from pyx.semantics import imports, module


def _check(tmp_path, text: str):
    (tmp_path / "prog.px").write_text(text)
    return run_cli("check", str(tmp_path / "prog.px"))


def test_a_name_the_prelude_file_adds_needs_no_import(tmp_path, monkeypatch):
    program = "fn main():\n    var xs = List[Int]()\n    var it = ListIterator[Int](xs.data, 0, 0)\n"
    # ListIterator is a stdlib struct the prelude leaves out: using it needs an import...
    assert _check(tmp_path, program).status == 1
    # ...until a copy of the stdlib lists it in its prelude.px, and nothing else changes.
    stdlib = tmp_path / "stdlib"
    shutil.copytree(imports.STDLIB, stdlib, ignore=shutil.ignore_patterns("__pycache__"))
    with open(stdlib / "prelude.px", "a", encoding="utf-8") as prelude:
        prelude.write("from collections import ListIterator\n")
    monkeypatch.setattr(imports, "STDLIB", stdlib)
    module.prelude.cache_clear()
    try:
        result = _check(tmp_path, program)
        assert result.status == 0, result.stderr
        assert module.prelude()["ListIterator"] == "collections"
    finally:
        module.prelude.cache_clear()
