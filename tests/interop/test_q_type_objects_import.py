"""`type(x)` printed in a pyx module that Python imports names the class by the module's own
name, as CPython does for an imported module (`<class 'q_kinds.Pt'>`), where the same module run
as the program says `__main__` (tests/golden/type_q_objects.px; semantics/type_objects.py reads
the module's `__name__ == "__main__"` flag)."""
import pytest

from helpers import import_source

SOURCE = '''
class Pt:
    def __init__(self, x: int) -> None:
        self.x = x


def kinds(n: int) -> str:
    p = Pt(n)
    return str(type(p)) + " " + str(type(n)) + " " + str(type(p) is Pt)
'''


def test_an_imported_modules_class_is_named_by_the_module(tmp_path):
    monkeypatch = pytest.MonkeyPatch()
    try:
        m = import_source("q_kinds", SOURCE, tmp_path, monkeypatch)
        assert m.kinds(3) == "<class 'q_kinds.Pt'> <class 'int'> True"
    finally:
        monkeypatch.undo()
