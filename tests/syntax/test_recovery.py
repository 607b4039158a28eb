"""After a syntax error the parser goes on (syntax/recovery.py): every error of a file is
reported, none because of an earlier one, and the checker does not run on what is left."""
import pytest

from pyx.diagnostics import CompileError
from pyx.source import SourceFile
from pyx.syntax import parse
from pyx.syntax.recovery import MAX_ERRORS, logical_line_end


def errors(text: str) -> list[tuple[int, str]]:
    with pytest.raises(CompileError) as info:
        parse(SourceFile("t.px", text))
    return [(d.span.line, d.code) for d in info.value.diagnostics]


def test_each_bad_statement_once():
    assert errors("fn f():\n    x = = 1\n    y = 2\n    z = (1 2)\n    return y\n") == [(2, "E0001"), (4, "E0001")]


def test_a_header_without_its_colon_keeps_its_block_and_else():
    text = "fn f(x: Int):\n    if x > 1\n        print(1)\n    else:\n        print(2)\n    w = = 1\n"
    assert errors(text) == [(2, "E0001"), (6, "E0001")]


def test_a_bad_header_keeps_its_block():
    text = "fn f(a: Int b: Int):\n    print(a)\n    return\nfn g(:\n    pass\n"
    assert errors(text) == [(1, "E0001"), (4, "E0001")]


def test_an_unexpected_indent_once_and_its_lines_are_read():
    text = "fn f():\n    x = 1\n        y = 2\n        z = = 3\n    print(x)\n"
    assert errors(text) == [(3, "E0005"), (4, "E0001")]


def test_the_checker_does_not_run_after_a_syntax_error():
    # `total` is defined on the dropped line: no "name not defined" for its uses.
    from pyx import pipeline

    with pytest.raises(CompileError) as info:
        pipeline.check(SourceFile("t.px", "fn main():\n    var total = 1 +\n    print(total)\n"))
    assert [d.code for d in info.value.diagnostics] == ["E0001"]


def test_at_most_max_errors():
    text = "fn f():\n" + "".join(f"    x{i} = = {i}\n" for i in range(MAX_ERRORS + 5))
    found = errors(text)
    assert len(found) == MAX_ERRORS and found[-1] == (MAX_ERRORS + 1, "E0001")


def test_the_end_of_a_logical_line():
    text = 'a = (1,\n  2)  # (\nb = "x(" + \\\n  c\nd = """(\n"""\ne = [\n'
    assert logical_line_end(text, 0) == text.index("\nb")
    assert logical_line_end(text, text.index("b")) == text.index("\nd")
    assert logical_line_end(text, text.index("d =")) == text.index("\ne")
    assert logical_line_end(text, text.index("e =")) is None
