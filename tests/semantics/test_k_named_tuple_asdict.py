"""`_asdict()` of a named tuple whose fields have several types: a dict holds one value type, so
pyx refuses the call at compile time (syntax/named_tuples.py) where CPython would build a dict of
mixed values; with fields of one type it runs (tests/golden/k_named_tuples_modules.px)."""
import pytest

from pyx import pipeline
from pyx.diagnostics import CompileError
from pyx.source import SourceFile

MIXED = '''from collections import namedtuple
from typing import NamedTuple

Point = namedtuple("Point", ["x", "y"])


class Item(NamedTuple):
    name: str
    price: float


def main():
    p = Point(1, 2.5)
    print(p._asdict())
'''


def test_asdict_of_mixed_fields_is_refused():
    with pytest.raises(CompileError) as info:
        pipeline.check(SourceFile("mixed.px", MIXED))
    found = [(d.code, d.message) for d in info.value.diagnostics]
    assert len(found) == 1, found
    code, message = found[0]
    assert code == "E0167" and "`_asdict()` of a named tuple whose fields have different types" in message


def test_typed_class_with_mixed_fields_has_no_asdict():
    source = MIXED.replace("p = Point(1, 2.5)\n    print(p._asdict())", 'i = Item("pen", 1.5)\n    print(i._asdict())')
    with pytest.raises(CompileError) as info:
        pipeline.check(SourceFile("typed.px", source))
    assert [(d.code, d.message) for d in info.value.diagnostics] == [("E0118", "`Item` has no method `_asdict`")]
