"""The parser: literals in every base, precedence as in Python, spans, and deep input."""
import pytest

from pyx.diagnostics import CompileError
from pyx.source import SourceFile
from pyx.syntax import ast, parse


def expr_of(text: str) -> ast.Expr:
    module = parse(SourceFile("t.px", f"fn f():\n    x = {text}\n"))
    return module.body[0].body[0].value


@pytest.mark.parametrize("text, value", [
    ("1_000_000", 1000000), ("0xFF_ff", 65535), ("0o17", 15), ("0b1010_1010", 170), ("0", 0), ("00", 0),
])
def test_integer_literals(text, value):
    node = expr_of(text)
    assert isinstance(node, ast.IntLit) and node.value == value


@pytest.mark.parametrize("text, value", [("1.5", 1.5), (".5", 0.5), ("1e10", 1e10), ("1_0.2_5e-1_0", 10.25e-10),
                                         ("5.", 5.0)])
def test_float_literals(text, value):
    node = expr_of(text)
    assert isinstance(node, ast.FloatLit) and node.value == value


def shape(node) -> str:
    if isinstance(node, ast.Binary):
        return f"({shape(node.left)} {node.op} {shape(node.right)})"
    if isinstance(node, ast.Unary):
        return f"({node.op} {shape(node.operand)})"
    if isinstance(node, ast.BoolOp):
        return "(" + f" {node.op} ".join(shape(v) for v in node.values) + ")"
    if isinstance(node, ast.Compare):
        parts = [shape(node.left)]
        for op, c in zip(node.ops, node.comparators, strict=True):
            parts += [op, shape(c)]
        return "(" + " ".join(parts) + ")"
    if isinstance(node, ast.Name):
        return node.id
    return repr(node.value)


@pytest.mark.parametrize("text, expected", [
    ("a + b * c", "(a + (b * c))"),
    ("a - b - c", "((a - b) - c)"),
    ("-a ** b", "(- (a ** b))"),
    ("a ** b ** c", "(a ** (b ** c))"),
    ("a << b + c", "(a << (b + c))"),
    ("a & b | c ^ d", "((a & b) | (c ^ d))"),
    ("not a < b and c or d", "(((not (a < b)) and c) or d)"),
    ("a < b <= c != d", "(a < b <= c != d)"),
    ("a // b % c * d", "(((a // b) % c) * d)"),
    ("~a + -b", "((~ a) + (- b))"),
])
def test_precedence_matches_python(text, expected):
    assert shape(expr_of(text)) == expected


def test_spans_point_at_source():
    source = SourceFile("t.px", "fn f():\n    x = alpha + beta\n")
    node = parse(source).body[0].body[0].value
    assert source.text[node.span.start:node.span.end] == "alpha + beta"
    assert (node.right.span.line, node.right.span.col) == (2, 17)


@pytest.mark.parametrize("depth", [1000, 5000])
def test_deep_nesting_is_a_diagnostic_not_a_crash(depth):
    text = "fn main():\n    x = " + "-(" * depth + "1" + ")" * depth + "\n"
    with pytest.raises(CompileError) as info:
        parse(SourceFile("deep.px", text))
    assert info.value.diagnostics[0].code == "E0003"


def test_thousands_of_parentheses_fold_away():
    text = "fn main():\n    print(" + "(" * 3000 + "1" + ")" * 3000 + ")\n"
    parse(SourceFile("parens.px", text))


def test_unsupported_constructs_are_collected_not_fatal():
    from pyx.diagnostics import DiagnosticBag

    bag = DiagnosticBag()
    parse(SourceFile("t.px", "fn f():\n    x = f'{f!a}'\n    async def g():\n        pass\n"), bag)
    assert [d.code for d in bag.items] == ["E0007", "E0002"]  # `!a` is planned, async is not


def test_long_flat_expressions_compile_and_run(tmp_path):
    """A 990-term sum is a 990-deep tree; everything up to the limit works end to end."""
    from helpers import run_source

    text = ("fn main():\n    var x = 1\n    print(" + " + ".join(["x"] * 990) + ")\n"
            "    print(" + "-(" * 495 + "x" + ")" * 495 + ")\n")
    result = run_source(text, tmp_path)
    assert (result.status, result.stdout) == (0, "990\n-1\n"), result.stderr
