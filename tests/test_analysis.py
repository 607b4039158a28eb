"""The editor queries (pyx.analysis): answers come from the real checker, errors or not."""
from pyx.analysis import analyze

SOURCE = '''comptime LIMIT = 10

fn scale(x: Float64, k: Int) -> Float64:
    var y = x * k
    return y


def square(v):
    return v * v


fn main():
    total = 0
    for i in range(LIMIT):
        total += square(i)
    print(scale(1.5, total), square(2.5))
'''


def test_hover_on_variables_parameters_and_constants():
    a = analyze(SOURCE, "m.px")
    assert a.diagnostics == []
    assert a.hover(4, 9) == "(variable) y: Float64"
    assert a.hover(4, 13) == "(parameter) x: Float64"
    assert a.hover(14, 20) == "comptime LIMIT: IntLiteral = 10"
    assert a.hover(15, 9) == "(variable) total: Int"


def test_hover_on_a_call_shows_each_instantiated_signature():
    a = analyze(SOURCE, "m.px")
    assert a.hover(16, 11) == "fn scale(x: Float64, k: Int) -> Float64"
    assert a.hover(15, 18) == "def square(v: Int) -> Int"
    assert a.hover(16, 30) == "def square(v: Float64) -> Float64"


def test_go_to_definition():
    a = analyze(SOURCE, "m.px")
    target = a.definition(16, 11)
    assert (target.line, target.col) == (3, 4)
    target = a.definition(5, 12)  # `y` in `return y`
    assert (target.line, target.col) == (4, 9)


def test_document_symbols():
    names = [(s.name, s.kind) for s in analyze(SOURCE, "m.px").symbols()]
    assert names == [("LIMIT", "constant"), ("scale", "function"), ("square", "function"), ("main", "function")]


def test_completion_offers_locals_in_scope_module_names_and_builtins():
    labels = {c.label: c for c in analyze(SOURCE, "m.px").completions(16, 5)}
    assert labels["total"].detail == "Int" and labels["i"].kind == "variable"
    assert "y" not in labels  # belongs to another function
    assert {"scale", "square", "LIMIT", "print", "Float64", "while"} <= set(labels)


def test_works_on_a_file_with_errors():
    a = analyze(SOURCE.replace("return y", "return y + undefined_name"), "m.px")
    assert [d.code for d in a.diagnostics] == ["E0101"]
    assert a.hover(4, 9) == "(variable) y: Float64"


def test_syntax_error_gives_a_diagnostic_and_no_crash():
    a = analyze("fn main(:\n", "m.px")
    assert [d.code for d in a.diagnostics] == ["E0001"]
    assert a.hover(1, 4) is None and a.symbols() == []


STRUCTS = '''import math


@fieldwise_init
struct Point:
    var x: Float64
    var y: Float64

    fn norm(self) -> Float64:
        return math.sqrt(self.x * self.x + self.y * self.y)


fn main():
    var p = Point(3.0, 4.0)
    print(p.x, p.norm())
'''


def test_hover_on_a_field():
    a = analyze(STRUCTS, "s.px")
    assert a.hover(15, 13) == "(field) x: Float64"


def test_member_completion_after_a_dot_uses_the_last_analysis_that_parsed():
    good = analyze(STRUCTS, "s.px")
    typing = analyze(STRUCTS.replace("print(p.x, p.norm())", "print(p."), "s.px")
    assert typing.program is None  # `print(p.` does not parse
    labels = {c.label for c in typing.member_completions(15, 13, "    print(p.", good)}
    assert labels == {"x", "y", "norm"}
    maths = {c.label for c in good.member_completions(10, 21, "        return math.", None)}
    assert {"sqrt", "exp", "pi"} <= maths


def test_symbols_include_structs_traits_and_their_members():
    from helpers import ROOT

    symbols = analyze((ROOT / "examples" / "shapes.px").read_text(), "shapes.px").symbols()
    kinds = {s.name: s.kind for s in symbols}
    assert kinds["Shape"] == "trait" and kinds["Rect"] == "struct" and kinds["growth"] == "function"
    rect = next(s for s in symbols if s.name == "Rect")
    assert [(c.name, c.kind) for c in rect.children] == [("w", "field"), ("h", "field"), ("area", "method"),
                                                        ("scaled", "method"), ("corners", "method")]
