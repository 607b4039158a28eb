"""Comprehensions and generator expressions (semantics/comprehensions.py): a builtin consuming a
generator expression is one loop with no list in between, and a comprehension's loop variable
used outside it is reported with a note saying why."""
import pytest

from pyx import pipeline
from pyx.diagnostics import CompileError
from pyx.ir.printer import print_module
from pyx.source import SourceFile


def _ir(text: str) -> str:
    return print_module(pipeline.lower(SourceFile("prog.px", text)).ir)


def _function(ir_text: str, name: str) -> str:
    start = ir_text.index(f"fn @prog.{name}(")
    return ir_text[start:ir_text.index("\n}", start)]


@pytest.mark.parametrize("consumer", ["sum(x * x for x in xs if x > 2)", "any(x > 2 for x in xs)",
                                      "all(x > 2 for x in xs)", "max((x for x in xs), default=0)",
                                      "min(x for x in xs for y in range(x))"])
def test_a_consumed_generator_builds_no_list(consumer):
    body = _function(_ir(f"def f(xs: list[int]):\n    return {consumer}\n"), "f")
    assert "__iter__" in body  # it walks xs ...
    assert "List[Int].__init__" not in body and "append" not in body  # ... and makes no list


def test_a_list_comprehension_appends_to_one_new_list():
    body = _function(_ir("def f(n: int) -> list[int]:\n    return [i * i for i in range(n) if i % 2]\n"), "f")
    assert body.count("List[Int].__init__") == 1 and body.count("List[Int].append") == 1


def _errors(text: str):
    with pytest.raises(CompileError) as info:
        pipeline.check(SourceFile("prog.px", text))
    return info.value.diagnostics


def test_a_leaked_loop_variable_is_explained():
    (d,) = _errors("def main():\n    ys = [y for y in range(3)]\n    print(y)\n")
    assert d.code == "E0101" and d.span.line == 3
    assert "loop variable of a comprehension, which has a scope of its own" in d.notes[0].message
    assert d.notes[0].span.line == 2


def test_an_iterable_naming_its_own_clause_variable_is_explained():
    (d,) = _errors("def main():\n    print([(a, b) for a in range(2) for b in range(b)])\n")
    assert d.code == "E0101" and "not bound yet here" in d.notes[0].message
