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
