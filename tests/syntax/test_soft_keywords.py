"""pyx's own words (`alias`, `var`, `fn`, `struct`, `trait`, `comptime`, `launch`, `raises`, and
the argument conventions) are soft keywords: wherever Python allows a name, each is one, and
where pyx gives it a meaning, it keeps it (syntax/soft_keywords.py)."""
import pytest

from pyx.source import SourceFile
from pyx.syntax import ast, parse
from pyx.syntax.soft_keywords import ALL_SOFT_WORDS


def body_of(text: str) -> tuple:
    return parse(SourceFile("t.px", text)).body


def statements(code: str) -> tuple:
    """The statements of `def f():` with `code` as its body."""
    (fn,) = body_of("def f():\n" + "".join(f"    {line}\n" for line in code.splitlines()))
    return fn.body


def test_the_list_is_every_word_pyx_adds_to_pythons_keywords():
    import keyword
    import re

    from pyx.syntax.parser import _parser

    words = {t.pattern.value for t in _parser().terminals
             if t.pattern.type == "str" and re.fullmatch(r"[A-Za-z_]+", t.pattern.value)}
    assert words - set(keyword.kwlist) <= set(ALL_SOFT_WORDS)


@pytest.mark.parametrize("word", ALL_SOFT_WORDS)
def test_a_variable(word):
    assign, aug, ann, expr, swap, cond = statements(
        f"{word} = 1\n{word} += 2\n{word}: int = {word} * 2\n{word}\n{word}, b = b, {word}\n"
        f"{word} if {word} in xs else {word}")
    assert isinstance(assign, ast.Assign) and assign.targets[0] == ast.Name(assign.targets[0].span, word)
    assert isinstance(aug, ast.AugAssign) and aug.target.id == word
    assert isinstance(ann, ast.VarDecl) and ann.name == word and not ann.explicit
    assert isinstance(expr, ast.ExprStmt) and expr.expr.id == word
    assert isinstance(swap, ast.Assign) and swap.targets[0].elts[0].id == word
    assert isinstance(cond, ast.ExprStmt) and isinstance(cond.expr, ast.IfExp)


@pytest.mark.parametrize("word", ALL_SOFT_WORDS)
def test_a_parameter_and_a_keyword_argument(word):
    fn, call = body_of(f"def g({word}: int, other={word}) -> int:\n    return {word}\n"
                       f"def h():\n    g({word}={word}, other=1)\n")
    assert [p.name for p in fn.params] == [word, "other"] and fn.params[0].convention is None
    (stmt,) = call.body
    assert [k.name for k in stmt.expr.keywords] == [word, "other"]


@pytest.mark.parametrize("word", ALL_SOFT_WORDS)
def test_an_unannotated_parameter(word):
    (fn,) = body_of(f"def g({word}, x):\n    return {word}\n")
    assert [p.name for p in fn.params] == [word, "x"]


@pytest.mark.parametrize("word", ALL_SOFT_WORDS)
def test_an_attribute_and_a_field(word):
    struct, fn = body_of(f"struct S:\n    var {word}: Int\n"
                         f"def f(s):\n    s.{word} = 1\n    return s.{word}.{word}\n")
    assert [f.name for f in struct.fields] == [word]
    assign, ret = fn.body
    assert assign.targets[0].attr == word and ret.value.attr == word


@pytest.mark.parametrize("word", ALL_SOFT_WORDS)
def test_a_function_name(word):
    fn, user = body_of(f"def {word}(x):\n    return x\nfn user() -> Int:\n    return {word}(1) + {word} (2)\n")
    assert fn.name == word
    assert user.body[0].value.left.func.id == word


@pytest.mark.parametrize("word", ALL_SOFT_WORDS)
def test_a_name_in_a_loop_a_comprehension_an_import_and_a_lambda(word):
    loop, imp = statements(f"for {word} in range(3):\n    print({word}[0], [{word} for {word} in xs])\n"
                           f"from m import {word} as {word}")
    assert loop.target.id == word
    assert imp.names == ((word, word),)


def test_the_keywords_keep_their_meaning():
    alias, comptime, fn, struct, trait = body_of(
        "alias N = 4\n"
        "comptime M = 2\n"
        "fn f(var x: Int, mut y: Int) raises -> Int:\n"
        "    var z: Int = x\n"
        "    comptime if M > 1:\n        pass\n"
        "    comptime for i in range(2):\n        pass\n"
        "    launch k[grid=1, block=1](x)\n"
        "    return z\n"
        "struct S:\n    var a: Int\n"
        "trait T:\n    fn m(self) -> Int: ...\n")
    assert isinstance(alias, ast.Comptime) and alias.name == "N"
    assert isinstance(comptime, ast.Comptime)
    assert isinstance(fn, ast.FnDef) and fn.kind == "fn" and fn.raises
    assert [p.convention for p in fn.params] == ["var", "mut"]
    decl, cif, cfor, launch, _ = fn.body
    assert isinstance(decl, ast.VarDecl) and decl.explicit
    assert isinstance(cif, ast.ComptimeIf) and isinstance(cfor, ast.ComptimeFor)
    assert isinstance(launch, ast.Launch)
    assert isinstance(struct, ast.StructDef) and isinstance(trait, ast.TraitDef)


def test_a_keyword_decided_across_a_line_continuation_and_in_brackets():
    (fn,) = body_of("def f(var\n      x: Int, alias):\n    var \\\n        y = 1\n    alias \\\n        = 2\n")
    assert [(p.name, p.convention) for p in fn.params] == [("x", "var"), ("alias", None)]
    decl, assign = fn.body
    assert isinstance(decl, ast.VarDecl) and decl.explicit and decl.name == "y"
    assert isinstance(assign, ast.Assign) and assign.targets[0].id == "alias"
