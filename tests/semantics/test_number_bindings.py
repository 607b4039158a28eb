"""When a module loads stdlib/number.px (Python's `int | float`, semantics/numbers.py) for a value that
mixes ints and floats: for a display or conditional with an int constant beside a float one
(`[1, 2.5]`, `1 if c else 0.5`, `{"a": 1, "b": 2.5}`), which CPython keeps as each is. Not for one
whose other side may be a float (`x if c else 0.5`, `[x, 0.5]`): those compiled before without it,
and loading it costs each compile of the module (numbers.py `mixes_numbers`)."""
import pytest

from pyx.diagnostics import DiagnosticBag
from pyx.semantics.module import uses_summary
from pyx.source import SourceFile
from pyx.syntax import parse


def _wants_numbers(line: str) -> bool:
    code = f"def main():\n    x = 2.5\n    n = 3\n    print({line})\n"
    return bool(uses_summary(parse(SourceFile("prog.px", code), DiagnosticBag()))["numbers"])


@pytest.mark.parametrize("line", ["[1, 2.5]", "1 if n > 2 else 0.5", "-0.5 if n > 2 else 2", "{1, 2.5}",
                                  '{"a": 1, "b": -2.5}'])
def test_int_and_float_constants_in_one_value_load_numbers(line):
    assert _wants_numbers(line)


@pytest.mark.parametrize("line", ["x if n > 2 else 0.5", "[x, 0.5]", "[1.5, 2.5]", "1.0 if n > 2 else 0.0",
                                  "[1, n]", '{"a": x, "b": 2.5}'])
def test_values_that_may_all_be_floats_load_none(line):
    assert not _wants_numbers(line)
