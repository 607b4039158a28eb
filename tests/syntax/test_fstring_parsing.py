"""The expressions inside f-strings are parsed on their own, with their places in the file kept."""
from pyx.source import SourceFile
from pyx.syntax import ast, parse
from pyx.syntax.parser import _parser


def test_each_fstring_expression_is_parsed_alone(monkeypatch):
    """Parsing each `{...}` with the whole file around it (blanked) made a file of n f-strings
    cost n parses of the file: 5000 of them took 16 s of CPU. Only the expression is parsed now."""
    lark = _parser()
    lengths = []
    real = lark.parse

    def recording(text, *args, **kwargs):
        lengths.append(len(text))
        return real(text, *args, **kwargs)

    monkeypatch.setattr(lark, "parse", recording)
    text = "fn main():\n    var x = 1\n" + '    print(f"{x} and {x + 1}")\n' * 200
    parse(SourceFile("many.px", text))
    assert lengths[0] == len(text)  # the file itself, once
    assert len(lengths) == 1 + 400 and max(lengths[1:]) < 20  # then each expression alone


def _names(node, wanted: str) -> list:
    found, stack = [], [node]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Name) and node.id == wanted:
            found.append(node)
        stack.extend(ast.children(node))
    return found


def test_fstring_expressions_keep_their_columns():
    source = SourceFile("f.px", 'fn main():\n    var x = 1\n    print(f"a {x + yy} b {f\'{zz}\'!r:>5}")\n')
    module = parse(source)
    (yy,), (zz,) = _names(module, "yy"), _names(module, "zz")
    assert (yy.span.line, yy.span.col) == (3, 20) and source.text[yy.span.start:yy.span.end] == "yy"
    assert (zz.span.line, zz.span.col) == (3, 30) and source.text[zz.span.start:zz.span.end] == "zz"
