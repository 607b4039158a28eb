"""pyx's own words are soft keywords: a valid Python name stays a name.

Python reserves `if`, `for`, `class`, ...; pyx adds `alias`, `var`, `fn`, `struct`, `trait`,
`comptime` and `launch`, which Python programs use as ordinary names (`alias = find(...)`).
Lark's contextual lexer already reads such a word as a NAME wherever the parser cannot take the
keyword there (`x = alias`, `obj.var`, `f(fn=1)`, `def launch():`); it reads the keyword only
where both could start what follows: at the start of a statement (`alias X = 1` / `alias = 1`)
and of a parameter (`var x: T` / `var: T`). There the word after it decides, as Python's own
soft keywords `match` and `type` are decided: pyx's keyword is always followed by a name
(`alias X`, `var x`, `fn f`, `struct S`, `trait T`, `comptime N`, `launch k[...]`; `comptime if`
and `comptime for`), and a Python name never is, unless by a Python keyword (`alias if c else d`,
`var in xs`). So the post-lexer (parser._Indenter) turns the keyword back into a NAME unless a
name that is not a Python keyword follows. It looks at the text, not at the next token: the
next token is lexed only once the parser has taken this one, in the state that results.

Python's own soft keywords `match` and `case` go through the same door, decided by their line:
the keyword where the logical line opens a block (`match command:`, `case [x, y]:`), a name
everywhere else (`match = pattern.match(s)`, `case.lower()`).

Words that need no help: `raises` stands after a signature's `)`, where no name can; the
argument conventions (`mut`, `out`, `owned`, `ref`, `var`) are read as names by the grammar
and checked by build_ast.
"""
from __future__ import annotations

import keyword
import re

from lark import Token

# Terminal name -> the word (the grammar's string terminals, named by Lark).
SOFT_KEYWORDS = {"ALIAS": "alias", "VAR": "var", "FN": "fn", "STRUCT": "struct", "TRAIT": "trait",
                 "COMPTIME": "comptime", "LAUNCH": "launch", "MATCH": "match",
                 "CASE": "case"}
# Every soft keyword of the grammar, for the docs and the tests: the above (Python's own `match`
# and `case` among them), `raises`, and the argument conventions.
ALL_SOFT_WORDS = (*SOFT_KEYWORDS.values(), "raises", "mut", "out", "owned", "ref")

_HARD = frozenset(keyword.kwlist)
# What may stand between the keyword and the next word: spaces and line continuations; inside
# brackets (a parameter list) also newlines and comments, which the lexer skips there.
_NEXT_WORD = re.compile(r"(?:[ \t\f]|\\\r?\n)*([^\W\d]\w*)?")
_NEXT_WORD_IN_BRACKETS = re.compile(r"(?:\s|#[^\n]*|\\\r?\n)*([^\W\d]\w*)?")


def retag(tok: Token, text: str, in_brackets: bool) -> Token:
    """`tok` (one of SOFT_KEYWORDS) as the keyword, or as a NAME when no name follows it."""
    if tok.type in ("MATCH", "CASE"):  # Python's soft keywords: `match x:` opens a block, `match = 1` does not
        return tok if not in_brackets and _opens_block(text, tok.start_pos or 0) else _as_name(tok)
    pattern = _NEXT_WORD_IN_BRACKETS if in_brackets else _NEXT_WORD
    after = pattern.match(text, tok.end_pos or 0)  # always matches (maybe nothing)
    word = after.group(1) if after is not None else None
    if word is not None and word not in _HARD:
        return tok
    if tok.type == "COMPTIME" and word == "for":
        return tok
    if tok.type == "COMPTIME" and word == "if" and _opens_block(text, tok.start_pos or 0):
        return tok  # `comptime if c:`; `comptime if c else d` is Python's conditional expression
    return _as_name(tok)


def _as_name(tok: Token) -> Token:
    return Token.new_borrow_pos("NAME", tok.value, tok)


def _opens_block(text: str, start: int) -> bool:
    from .recovery import logical_line_end, opens_block

    end = logical_line_end(text, start)
    return end is None or opens_block(text, start, end)
