"""Source text -> pyx AST: Lark's LALR parser, Python's indentation rules, our diagnostics."""
from __future__ import annotations

import functools
import io
import re
import tokenize
import unicodedata
from pathlib import Path

from lark import Lark, Token
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.indenter import DedentError, PythonIndenter

from .. import cancel
from ..diagnostics import CompileError, DiagnosticBag
from ..source import SourceFile
from . import ast
from .build_ast import build
from .validate import check_module_shape

GRAMMAR = Path(__file__).with_name("pyx.lark")

# Readable names for the terminals a syntax error mentions.
TOKEN_NAMES = {
    "_NEWLINE": "end of line", "_INDENT": "indentation", "_DEDENT": "end of block",
    "$END": "end of file", "NAME": "name", "DEC_NUMBER": "number", "FLOAT_NUMBER": "number",
    "STRING": "string",
}


class _Indenter(PythonIndenter):
    """Python's indentation rules, and a point where a long parse can be cancelled (see cancel.py):
    Lark parses a megabyte in seconds, and an editor may have moved on meanwhile."""

    def process(self, stream):
        for count, token in enumerate(super().process(stream)):
            if count & 4095 == 0:
                cancel.check()
            yield token


def _normalize_name(token: Token) -> Token:
    """Python reads every identifier in its NFKC form, so `ﬁ` (a ligature) and `fi` are one
    name; pyx must too, or a program using both would print something else than CPython."""
    if token.isascii():
        return token
    return Token.new_borrow_pos(token.type, unicodedata.normalize("NFKC", token), token)


@functools.lru_cache(maxsize=1)
def _parser() -> Lark:
    # cache=True stores the LALR tables in the temp dir: building them costs ~0.5 s.
    return Lark(GRAMMAR.read_text(), parser="lalr", postlex=_Indenter(), start="file_input",
                propagate_positions=True, maybe_placeholders=True, cache=True,
                lexer_callbacks={"NAME": _normalize_name})


def parse(source: SourceFile, diags: DiagnosticBag | None = None) -> ast.Module:
    """Parse a file. Syntax errors raise at once; with `diags` given, errors about
    constructs pyx does not support are collected there and parsing returns a module
    the checker can go on with (the caller raises later, with everything it found)."""
    keep_going = diags is not None
    diags = diags if diags is not None else DiagnosticBag()
    text = source.text if source.text.endswith("\n") else source.text + "\n"
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as exc:
        diags.add(_syntax_error(source, exc))
        diags.raise_if_errors()
        raise
    except DedentError:
        diags.error("E0005", _last_line_span(source))
        diags.raise_if_errors()
        raise
    body = build(tree, source, diags)
    module = ast.Module(source.span(0, len(source.text)), Path(source.name).stem, body)
    if not check_module_shape(module, diags) or not keep_going:
        # Too deep (E0003) stops here even when the caller goes on after errors: the checker and
        # the lowering recurse over the tree, and it is deeper than they are built to walk.
        diags.raise_if_errors()
    return module


def _last_line_span(source: SourceFile):
    return source.span(max(0, len(source.text.rstrip()) - 1), len(source.text.rstrip()))


def _unclosed_bracket(text: str) -> int | None:
    """Offset of the innermost bracket still open at the end of the file (pyx tokenizes like Python)."""
    stack: list[int] = []
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.OP and tok.string in "([{":
                stack.append(starts[tok.start[0] - 1] + tok.start[1])
            elif tok.type == tokenize.OP and tok.string in ")]}" and stack:
                stack.pop()
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass
    return stack[-1] if stack else None


def _describe(token) -> str:
    if token.type in TOKEN_NAMES:
        name = TOKEN_NAMES[token.type]
        return f"{name} `{token}`" if token.type in ("NAME", "DEC_NUMBER", "FLOAT_NUMBER") else name
    return f"`{token}`"


def _syntax_error(source: SourceFile, exc: UnexpectedInput):
    from ..diagnostics import error

    pos = getattr(exc, "pos_in_stream", None)
    if isinstance(exc, UnexpectedToken):
        tok = exc.token
        if tok.type in ("$END", "_DEDENT"):
            opener = _unclosed_bracket(source.text)
            if opener is not None:
                return error("E0001", source.span(opener, opener + 1),
                             detail=f"`{source.text[opener]}` was never closed")
        if tok.type in ("_INDENT", "_DEDENT") and tok.end_pos is not None:
            # Indentation tokens borrow the newline's position; point at the line they start.
            start = tok.end_pos
            end = source.text.find("\n", start)
            span = source.span(start, end if end > start else start + 1)
            if tok.type == "_INDENT":
                return error("E0005", span)
            return error("E0001", span, detail="unexpected end of block")
        before = source.text[:tok.start_pos].rstrip()
        if exc.expected and (set(exc.expected) <= {"_INDENT"} or before.endswith(":")) and tok.column == 1 \
                or set(exc.expected) <= {"_INDENT"}:
            return error("E0001", source.span(tok.start_pos, tok.end_pos), detail="expected an indented block")
        if tok.type == "$END" or pos is None:
            span = _last_line_span(source)
        else:
            span = source.span(tok.start_pos, tok.end_pos if tok.end_pos is not None else tok.start_pos + 1)
        detail = f"unexpected {_describe(tok)}"
        expected = _expected(exc)
        if expected:
            detail += f"; expected {expected}"
        if tok.type in ("_INDENT", "_DEDENT"):
            return error("E0005", span)
        return error("E0001", span, detail=detail)
    if isinstance(exc, UnexpectedCharacters):
        ch = source.text[exc.pos_in_stream] if exc.pos_in_stream < len(source.text) else "?"
        number = re.match(r"0\d[\d_]*", source.text[exc.pos_in_stream:])
        if number:
            return error("E0004", source.span(exc.pos_in_stream, exc.pos_in_stream + number.end()),
                         detail="leading zeros in decimal integer literals are not permitted; "
                                "use an 0o prefix for octal integers")
        if ch in "\"'":
            return error("E0004", source.span(exc.pos_in_stream, exc.pos_in_stream + 1),
                         detail="unterminated string literal")
        shown = f"`{ch}`" if ch.isprintable() else f"U+{ord(ch):04X}"  # a NUL or an escape code, named
        return error("E0001", source.span(exc.pos_in_stream, exc.pos_in_stream + 1),
                     detail=f"unexpected character {shown}")
    if isinstance(exc, UnexpectedEOF):
        return error("E0001", _last_line_span(source), detail="unexpected end of file")
    return error("E0001", _last_line_span(source), detail=str(exc))


def _expected(exc: UnexpectedToken) -> str:
    lark = _parser()
    names = []
    for term in sorted(exc.expected):
        if term in TOKEN_NAMES:
            names.append(TOKEN_NAMES[term])
            continue
        try:
            pattern = lark.get_terminal(term).pattern
        except KeyError:
            continue
        if pattern.type == "str":
            names.append(f"`{pattern.value}`")
    if not names or len(names) > 5:
        return ""
    return ", ".join(names[:-1]) + (" or " if len(names) > 1 else "") + names[-1]


def parse_file(path: str) -> ast.Module:
    return parse(SourceFile.read(path))


__all__ = ["parse", "parse_file", "CompileError"]
