"""The Pygments lexer (lang/pygments_lexer.py), run by Pygments itself."""
from __future__ import annotations

import importlib.metadata
import importlib.util
import subprocess
import sys
import textwrap

import pytest

pygments = pytest.importorskip("pygments", reason="pygments is not installed (pip install -e .[test])")
from pygments import highlight  # noqa: E402
from pygments.formatters import HtmlFormatter  # noqa: E402
from pygments.token import Error  # noqa: E402

import editor_surface as surface  # noqa: E402

LEXER_FILE = surface.REPO / "lang" / "pygments_lexer.py"


def _load_lexer_module():
    # By path, not `import pyx...`: the tests check this checkout's file whether
    # or not it is installed (and PyPI's unrelated `pyx` may own the name).
    spec = importlib.util.spec_from_file_location("pyx_pygments_lexer_under_test", LEXER_FILE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


PyxLexer = _load_lexer_module().PyxLexer


def tokens_by_offset(text: str) -> dict[int, tuple]:
    return {pos: (ttype, value) for pos, ttype, value in PyxLexer().get_tokens_unprocessed(text)}


def line_offsets(text: str) -> list[int]:
    offsets, total = [], 0
    for line in text.split("\n"):
        offsets.append(total)
        total += len(line) + 1
    return offsets


def token_at(toks: dict, offsets: list[int], line: int, col: int, word: str):
    """The token that is exactly `word` at line/col, or why there is none."""
    pos = offsets[line - 1] + col
    if pos in toks and toks[pos][1] == word:
        return toks[pos][0]
    if pos - 1 in toks and toks[pos - 1][1] == "@" + word:  # Pygments keeps the @ of a decorator
        return toks[pos - 1][0]
    starts = [p for p in toks if p <= pos]
    if starts:
        p = max(starts)
        return f"<no token for {word!r}: {toks[p][1]!r} ({toks[p][0]}) covers it>"
    return f"<no token for {word!r}>"


def check_vocabulary(text: str) -> tuple[int, list[str]]:
    toks = tokens_by_offset(text)
    offsets = line_offsets(text)
    problems = []
    occurrences = surface.vocabulary_occurrences(text)
    for occ in occurrences:
        got = token_at(toks, offsets, occ.line, occ.col, occ.word)
        if str(got) not in {f"Token.{t}" for t in occ.category.expected["pygments"]}:
            problems.append(f"{occ.line}:{occ.col + 1} {occ.word} ({occ.category.name}): got {got}, "
                            f"want {' or '.join(occ.category.expected['pygments'])}")
    return len(occurrences), problems


STRUCTURE_TOKENS = {
    "function name": ("Token.Name.Function", "Token.Name.Function.Magic"),
    "struct name": ("Token.Name.Class",),
    "trait name": ("Token.Name.Class",),
    "launched kernel": ("Token.Name.Function",),
    "launch key": ("Token.Name.Attribute",),
    "number": ("Token.Literal.Number.Integer", "Token.Literal.Number.Float", "Token.Literal.Number.Hex",
               "Token.Literal.Number.Oct", "Token.Literal.Number.Bin"),
}


@pytest.mark.parametrize("path", surface.real_files(), ids=lambda p: str(p.relative_to(surface.REPO)))
def test_known_words_get_their_token_type(path):
    text = path.read_text(encoding="utf-8")
    checked, problems = check_vocabulary(text)
    assert not problems, "\n".join(problems)
    if path.parent == surface.FIXTURES:
        assert checked > 0


@pytest.mark.parametrize("path", surface.real_files(), ids=lambda p: str(p.relative_to(surface.REPO)))
def test_names_numbers_and_launches_get_their_token_type(path):
    text = path.read_text(encoding="utf-8")
    toks = tokens_by_offset(text)
    offsets = line_offsets(text)
    problems = []
    for what, line, col, name in surface.structure_occurrences(text):
        got = str(token_at(toks, offsets, line, col, name))
        if got not in STRUCTURE_TOKENS[what]:
            problems.append(f"{line}:{col + 1} {what} {name}: got {got}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("path", surface.real_files(), ids=lambda p: str(p.relative_to(surface.REPO)))
def test_no_error_tokens_and_lossless(path):
    text = path.read_text(encoding="utf-8")
    toks = list(PyxLexer().get_tokens_unprocessed(text))
    errors = [(pos, v) for pos, t, v in toks if t in Error]
    assert not errors, f"error tokens: {errors[:10]}"
    assert "".join(v for _, _, v in toks) == text


def test_everything_fixture_covers_the_whole_vocabulary():
    # The fixture is the one place each construct is guaranteed to appear.
    text = (surface.FIXTURES / "everything.px").read_text(encoding="utf-8")
    seen = {(o.category.name, o.word) for o in surface.vocabulary_occurrences(text)}
    missing = [f"{c.name}: {w}" for c in surface.categories() for w in c.words if (c.name, w) not in seen]
    assert not missing, "everything.px lacks: " + ", ".join(missing)


def types_of(src: str) -> list[tuple[str, str]]:
    return [(str(t), v) for t, v in PyxLexer().get_tokens(textwrap.dedent(src)) if v.strip()]


def test_signature_with_parameters_conventions_and_raises():
    toks = types_of("fn f[T: Trait, n: Int](a: Int, mut b: Float64, var c: T) raises -> Int:\n")
    assert toks[:3] == [("Token.Keyword.Declaration", "fn"), ("Token.Name.Function", "f"),
                        ("Token.Punctuation", "[")]
    assert ("Token.Keyword.Pseudo", "mut") in toks
    assert ("Token.Keyword.Pseudo", "var") in toks
    assert ("Token.Keyword", "raises") in toks
    assert ("Token.Operator", "->") in toks
    assert toks[-2:] == [("Token.Keyword.Type", "Int"), ("Token.Punctuation", ":")]


def test_out_is_a_convention_only_in_front_of_a_name():
    toks = types_of("""\
        fn __init__(out self, owned s: String, ref r: Int):
            pass
        fn block_sum(x: Ptr[Float32], out: Ptr[Float32], n: Int):
            atomic_add(out, x[0])
    """)
    conventions = [v for t, v in toks if t == "Token.Keyword.Pseudo"]
    assert conventions == ["out", "owned", "ref"]
    assert toks.count(("Token.Name", "out")) == 2


def test_multiline_signature_keeps_state():
    toks = types_of("""\
        fn spread(
            mut a: Int,   # the first
            b: Float64 = 1.0,
        ) raises -> Int:
            return a
    """)
    assert ("Token.Keyword.Pseudo", "mut") in toks
    assert ("Token.Comment.Single", "# the first") in toks
    assert ("Token.Keyword", "raises") in toks
    assert ("Token.Keyword", "return") in toks


def test_launch_syntax():
    toks = types_of("launch mod.block_sum[grid=(n + 255) // 256, block=(256, 1), shared_bytes=0](x, out, n)\n")
    assert toks[0] == ("Token.Keyword", "launch")
    assert toks[1] == ("Token.Name.Function", "mod.block_sum")
    keys = [v for t, v in toks if t == "Token.Name.Attribute"]
    assert keys == ["grid", "block", "shared_bytes"]
    assert ("Token.Operator", "//") in toks
    assert ("Token.Name", "out") in toks


def test_comptime_forms():
    toks = types_of("""\
        comptime MAX_ITER = 200
        comptime for i in range(4):
            pass
        comptime if MAX_ITER > 4:
            pass
        alias Vec = SIMD[DType.float32, 4]
    """)
    assert toks[:2] == [("Token.Keyword.Declaration", "comptime"), ("Token.Name.Constant", "MAX_ITER")]
    assert ("Token.Keyword", "comptime") in toks
    assert ("Token.Keyword.Declaration", "alias") in toks
    assert ("Token.Name.Constant", "float32") in toks


def test_members_are_not_builtins():
    toks = types_of("x.min(y) + self.barrier() + v.len + DType.no_such\n")
    assert ("Token.Name", "min") in toks
    assert ("Token.Name", "barrier") in toks
    assert ("Token.Name", "len") in toks
    assert ("Token.Name", "no_such") in toks


def test_literals():
    toks = types_of("""\
        x = (1_000, 0xFF_FF, 0o17, 0b1010_1010, 1.5e-3, 1e10, .5)
        s = f"v={x!r:>8} {{lit}}" + 'a\\'b' + r"\\d" + b"\\x00" + \"\"\"doc\"\"\"
    """)
    kinds = [t for t, v in toks if t.startswith("Token.Literal.Number")]
    assert kinds == ["Token.Literal.Number.Integer", "Token.Literal.Number.Hex", "Token.Literal.Number.Oct",
                     "Token.Literal.Number.Bin", "Token.Literal.Number.Float", "Token.Literal.Number.Float",
                     "Token.Literal.Number.Float"]
    assert ("Token.Literal.String.Interpol", "{") in toks
    assert ("Token.Literal.String.Escape", "{{") in toks
    assert ("Token.Literal.String.Escape", "\\'") in toks
    assert ("Token.Literal.String.Affix", "r") in toks


def test_pep701_fstrings():
    """Python 3.12's f-strings, which pyx reads: the same quotes nested, and comments in fields."""
    toks = types_of('''\
        print(f"{"-".join(xs)!r:>9}", f"""{y  # why
        }""")
    ''')
    assert ("Token.Literal.String.Double", "-") in toks and ("Token.Name", "join") in toks
    assert ("Token.Comment.Single", "# why") in toks
    assert not [v for t, v in toks if t.startswith("Token.Error")]


def test_python_code_is_not_claimed():
    assert PyxLexer.analyse_text("import os\n\ndef main():\n    print(os.getcwd())\n") == 0.0
    assert PyxLexer.analyse_text((surface.FIXTURES / "block_sum.px").read_text()) >= 0.5


def test_html_rendering_marks_types_and_intrinsics():
    html = highlight((surface.FIXTURES / "block_sum.px").read_text(), PyxLexer(), HtmlFormatter())
    assert '<span class="kt">Float32</span>' in html
    assert '<span class="nb">barrier</span>' in html
    assert '<span class="nd">@kernel</span>' in html


def test_lexer_module_imports_only_pygments():
    # Pygments imports every plugin's module on lookup: it must stay light.
    code = textwrap.dedent(f"""
        import importlib.util, sys
        before = set(sys.modules)
        spec = importlib.util.spec_from_file_location("m", {str(LEXER_FILE)!r})
        m = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(m)
        new = sorted(n.split(".")[0] for n in set(sys.modules) - before)
        extra = [n for n in new if n != "pygments" and n not in sys.stdlib_module_names and n != "m"]
        print(extra)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


def test_pyproject_registers_the_entry_point():
    tomllib = pytest.importorskip("tomllib", reason="tomllib needs Python 3.11")
    data = tomllib.loads((surface.REPO / "pyproject.toml").read_text(encoding="utf-8"))
    assert data["project"]["entry-points"]["pygments.lexers"] == {"px": "pyx.pygments_lexer:PyxLexer"}


def _installed_entry_point():
    for ep in importlib.metadata.entry_points(group="pygments.lexers"):
        if ep.value == "pyx.pygments_lexer:PyxLexer":
            return ep
    return None


def test_pygments_finds_the_lexer_through_the_entry_point():
    if _installed_entry_point() is None:
        pytest.skip("pyx-llvm is not installed with its pygments.lexers entry point "
                    "(run `pip install -e .` to register it)")
    from pygments.lexers import get_lexer_by_name, get_lexer_for_filename

    for alias in ("px", "pyx-lang"):
        assert type(get_lexer_by_name(alias)).__name__ == "PyxLexer"
    assert type(get_lexer_for_filename("kernel.px")).__name__ == "PyxLexer"
    # `pyx` stays Pygments' own Cython lexer: built-in aliases win.
    assert type(get_lexer_by_name("pyx")).__name__ == "CythonLexer"

