"""f-strings are tokenized and parsed by pyx's grammar, once with the file, by PEP 701's rules
(Python 3.12's) whichever Python runs pyx; each piece keeps its place in the file."""
import ast as pyast

import pytest

from pyx.diagnostics import CompileError
from pyx.source import SourceFile
from pyx.syntax import ast, parse
from pyx.syntax.parser import _parser


def _count_parses(monkeypatch) -> list[int]:
    lark = _parser()
    lengths: list[int] = []
    real = lark.parse

    def recording(text, *args, **kwargs):
        lengths.append(len(text))
        return real(text, *args, **kwargs)

    monkeypatch.setattr(lark, "parse", recording)
    return lengths


def test_a_file_of_fstrings_is_parsed_once(monkeypatch):
    """Each `{...}` used to be parsed again on its own (before that, with the whole file around
    it: a file of n f-strings cost n parses of the file, quadratic). Now the grammar reads the
    f-strings with everything else: one parse, however many fields."""
    lengths = _count_parses(monkeypatch)
    text = "fn main():\n    var x = 1\n" + '    print(f"{x} and {x + 1:>4} {f"{x!r}"}")\n' * 200
    parse(SourceFile("many.px", text))
    assert lengths == [len(text)]


def test_no_help_from_the_host_pythons_parser(monkeypatch):
    """Which f-strings are legal must not depend on the Python running pyx (3.11 refused a
    backslash or the same quote inside `{}`): pyx does not hand them to CPython's parser."""
    real = pyast.parse

    def refuse(text, *args, **kwargs):
        # literal_eval (for plain string literals) parses too; only an f-string is refused here.
        if isinstance(text, str) and text.lstrip()[:3].lower().replace("r", "").startswith("f"):
            raise AssertionError(f"an f-string went to CPython's parser: {text}")
        return real(text, *args, **kwargs)

    monkeypatch.setattr(pyast, "parse", refuse)
    text = "fn main():\n    var xs = [\"a\"]\n    print(f\"{\"-\".join(xs)} {'\\n'.join(xs)!r:>9}\")\n"
    parse(SourceFile("host.px", text))


def _names(node, wanted: str) -> list:
    found, stack = [], [node]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Name) and node.id == wanted:
            found.append(node)
        stack.extend(ast.children(node))
    return found


def _at(source: SourceFile, node) -> tuple[int, int, str]:
    return node.span.line, node.span.col, source.text[node.span.start:node.span.end]


def test_fstring_expressions_keep_their_columns():
    source = SourceFile("f.px", 'fn main():\n    var x = 1\n    print(f"a {x + yy} b {f\'{zz}\'!r:>5}")\n')
    module = parse(source)
    (yy,), (zz,) = _names(module, "yy"), _names(module, "zz")
    assert _at(source, yy) == (3, 20, "yy")
    assert _at(source, zz) == (3, 30, "zz")


def test_fields_of_a_multiline_fstring_keep_their_lines():
    text = 'fn main():\n    print(f"""one\ntwo {aa} "{"b" + bb}"\n  {cc  # a comment\n  :>5}""")\n'
    source = SourceFile("f.px", text)
    module = parse(source)
    assert _at(source, _names(module, "aa")[0]) == (3, 6, "aa")
    assert _at(source, _names(module, "bb")[0]) == (3, 18, "bb")
    assert _at(source, _names(module, "cc")[0]) == (4, 4, "cc")


def test_text_pieces_and_specs_have_their_own_spans():
    source = SourceFile("f.px", 'fn main():\n    print(f"ab{x:>5}cd")\n')
    module = parse(source)
    literals = []
    stack = [module]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.StrLit):
            literals.append((source.text[node.span.start:node.span.end], node.value))
        stack.extend(ast.children(node))
    assert sorted(literals) == [(">5", ">5"), ("ab", "ab"), ("cd", "cd")]


@pytest.mark.parametrize("line, column, message", [
    ('    print(f"{x!z}")', 16, "invalid conversion character `z`"),
    ('    print(f"{x! r}")', 15, "the conversion must come right after `!`"),
    ('    print(f"{x!}")', 16, "missing conversion character after `!`"),
    ('    print(f"{}")', 14, "an f-string field needs an expression before `}`"),
    ('    print(f"a}b")', 14, "a single `}` is not allowed in an f-string"),
    ('    print(f"{x")', 15, "expected `}` before the end of the f-string"),
    ('    print(f"abc\n    )', 11, "unterminated f-string literal"),
    ('    print(f"{x:>\n5}")', 17, "format spec cannot go on on the next line"),
    ('    print(f"""abc {x}', 11, "unterminated triple-quoted f-string literal"),
    ('    print(f"\\x4{x}")', 13, "truncated `\\xXX` escape"),
    ('    print("abc)', 11, "unterminated string literal"),
])
def test_one_error_for_one_mistake_where_it_is(line, column, message):
    """One diagnostic, at the mistake's line and column, that says "f-string" at most once."""
    source = SourceFile("e.px", "fn main():\n    var x = 3\n" + line + "\n")
    with pytest.raises(CompileError) as info:
        parse(source)
    (diag,) = info.value.diagnostics
    assert (diag.span.line, diag.span.col) == (3, column)
    assert message in diag.message and diag.message.count("f-string") <= 1


@pytest.mark.filterwarnings("ignore:invalid escape sequence")  # `\8` and `\q` keep their backslash
@pytest.mark.parametrize("text", [r"\101\7\8\q", r"a\\b \N{SNAKE} \x41\u00e9\U0001F40D", "a\\\nb",
                                  r"\t\"'\a\b\f\v\r", "{{}} é"])
def test_text_escapes_decode_as_pythons_plain_strings(text):
    """pyx decodes an f-string's text itself; it must agree with Python's plain strings."""
    source = SourceFile("f.px", f'fn main():\n    print(f"{text}{{1}}")\n')
    module = parse(source)
    found, stack = [], [module]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.StrLit):
            found.append(node.value)
        stack.extend(ast.children(node))
    expected = pyast.literal_eval('"' + text.replace("{{", "{").replace("}}", "}") + '"')
    assert found == [expected]


def test_a_fields_expression_part_is_one_rule_not_one_per_quote_kind():
    """The grammar has f-string rules for each of eight quote kinds (pyx.lark), but what a field
    holds before its format spec (`expr`, `=`, `!r`) does not depend on the quote: it is one rule.
    Copied into each kind's field, its optional parts multiplied the parser's states (1074, not
    886), and every cold `pyx run` loads all of them from Lark's cache."""
    lark = _parser()
    holders = {rule.origin.name for rule in lark.rules
               if any(sym.name in ("fstring_eq", "fstring_conv") for sym in rule.expansion)}
    assert holders == {"_fstring_head"}
