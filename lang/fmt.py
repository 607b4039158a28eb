"""`pyx fmt`: the vertical layout of `.px` files, as Black lays out Python.

What it changes, Black's rules for blank lines and line ends:
- two blank lines before and after a top-level `def`, `fn`, `class`, `struct` or `trait`
  (before the comments right above it, and none between its decorators and it), one before
  and after a nested one (none when it is the first thing in its block); one-line stubs
  (`fn area(self) -> Float64: ...`) may stay together; elsewhere at most two blank lines in a
  row at the top level and one inside blocks;
- no blank lines at the start of a block that a function opens, nor at the start of the file;
- no trailing whitespace, `\\n` line ends, and exactly one newline at the end of the file.

What it leaves as written: everything inside a line (spacing around operators and commas,
quotes, line length, indentation), since that needs a printer of pyx's syntax tree that keeps
comments, which pyx does not have yet. Text inside strings is never touched. The layout is
worked out from Python's tokenizer (pyx's lexical syntax is Python's), and the result is
parsed again: unless it gives the same syntax tree as the original, the file is left alone
and that is reported as a bug.
"""
from __future__ import annotations

import difflib
import io
import re
import sys
import tokenize
from dataclasses import dataclass
from pathlib import Path

DEFINITIONS = {"def", "fn", "class", "struct", "trait", "async"}
CONTINUATIONS = {"else", "elif", "except", "finally"}


class CannotFormat(Exception):
    """A file the formatter leaves alone: it does not tokenize, or (a bug) formatting changed it."""


@dataclass
class _Row:
    text: str  # without its line end
    kind: str = "blank"  # "blank", "comment", "stmt" (a logical line starts here), "cont", "string"
    indent: int = 0
    first: str = ""  # the first token of a statement
    start: int = 0  # the row its logical line starts on
    strip: bool = True  # whether trailing whitespace may go (not inside a string)


def _rows(text: str) -> list[_Row]:
    rows = [_Row(line) for line in text.split("\n")]
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError) as exc:  # IndentationError is a SyntaxError
        raise CannotFormat(f"does not tokenize: {exc}") from None
    inside, start = False, 0  # inside a logical line (from its first token to its NEWLINE)
    for tok in tokens:
        kind, (row, col), (end_row, _) = tok.type, tok.start, tok.end
        r = row - 1
        if kind == tokenize.NEWLINE:
            inside = False
            continue
        if kind in (tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER):
            continue
        if kind in (tokenize.NL, tokenize.COMMENT):
            if inside and rows[r].kind == "blank":  # a blank or comment line inside brackets
                rows[r].kind, rows[r].start = "cont", start
            elif kind == tokenize.COMMENT and rows[r].kind == "blank":
                rows[r].kind, rows[r].indent, rows[r].start = "comment", col, r
            continue
        if not inside:
            inside, start = True, r
            rows[r].kind, rows[r].indent, rows[r].first, rows[r].start = "stmt", col, tok.string, r
        elif rows[r].kind == "blank":
            rows[r].kind, rows[r].start = "cont", start
        if kind == tokenize.STRING and end_row > row:  # a string over several lines: its text is its own
            for k in range(r, end_row - 1):
                rows[k].strip = False
            for k in range(r + 1, end_row):
                rows[k].kind, rows[k].start = "string", start
    return rows


def _is_definition(row: _Row) -> bool:
    return row.kind == "stmt" and (row.first in DEFINITIONS or row.first == "@")


def format_text(text: str) -> str:
    """The text laid out by the rules above (CannotFormat when it does not tokenize)."""
    text = text.replace("\r\n", "\n")
    rows = _rows(text if text.endswith("\n") else text + "\n")
    out: list[str] = []
    blanks = 0  # blank rows seen since the last row written
    last_kind: dict[int, str] = {}  # indent -> "def" or "other": the last statement at that indent in its block
    prev: _Row | None = None  # the last non-blank row written
    for i, row in enumerate(rows):
        if row.kind == "blank" and row.strip and row.text.strip() == "":
            blanks += 1
            continue
        if row.kind in ("cont", "string"):
            out.extend([""] * blanks)  # inside a statement: what is there stays
            blanks = 0
            out.append(row.text.rstrip() if row.strip else row.text)
            prev = row
            continue
        anchor = row
        if row.kind == "comment":  # comments right above a statement at their indent belong to it
            j = i + 1
            while j < len(rows) and rows[j].kind == "comment":
                j += 1
            if j < len(rows) and rows[j].kind == "stmt" and rows[j].indent == row.indent:
                anchor = rows[j]
        out.extend([""] * _blank_lines(blanks, anchor, row, prev, rows, last_kind))
        blanks = 0
        out.append(row.text.rstrip() if row.strip else row.text)
        if row.kind == "stmt" and row.first not in CONTINUATIONS:
            for depth in [d for d in last_kind if d > row.indent]:
                del last_kind[depth]
            if not (prev is not None and prev.kind == "stmt" and rows[prev.start].first == "@"
                    and prev.indent == row.indent):
                stub = row.first in DEFINITIONS and row.text.rstrip().endswith(": ...")  # `fn f(self): ...`
                last_kind[row.indent] = "stub" if stub else "def" if _is_definition(row) else "other"
        prev = row
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out) + "\n" if out else ""


def _blank_lines(seen: int, anchor: _Row, row: _Row, prev: _Row | None, rows: list[_Row],
                 last_kind: dict[int, str]) -> int:
    """How many blank lines go before `row` (whose statement is `anchor`), `seen` having been there."""
    if prev is None:
        return 0  # the start of the file
    limit = 2 if anchor.indent == 0 else 1
    if prev.kind == "comment" and seen == 0 and prev.indent == row.indent:
        return 0  # comments right above a statement stay on it
    opener = rows[prev.start]  # the statement the previous row belongs to
    if anchor.kind == "stmt" and anchor.first in CONTINUATIONS:
        return min(seen, limit)
    if opener.kind == "stmt" and opener.indent < row.indent:  # the first thing in a block
        return 0 if opener.first in ("def", "fn", "async") else min(seen, 1)  # a class's may stay, as in Black
    if opener.kind == "stmt" and opener.first == "@" and opener.indent == row.indent and row is anchor:
        return 0  # between a decorator and what it decorates
    if last_kind.get(anchor.indent) == "stub" and anchor.first in DEFINITIONS:
        return min(seen, limit)  # one-line stubs (a trait's methods, overloads) may stay together, as in Black
    if row.kind == "stmt" and anchor.indent in last_kind and (_is_definition(anchor)
                                                               or last_kind[anchor.indent] != "other"):
        return limit
    if row is not anchor and _is_definition(anchor) and anchor.indent in last_kind:
        return limit  # before the comments above a definition
    return min(seen, limit)


def same_tree(before: str, after: str, name: str) -> bool:
    """Whether two texts parse to the same syntax tree (positions aside)."""
    from . import pipeline
    from .source import SourceFile
    from .syntax import ast
    from .syntax.printer import format_ast

    def tree(text: str) -> str:
        module = pipeline.parse(SourceFile(name, text)).ast
        assert isinstance(module, ast.Node)
        # Positions aside: the printer shows each node's, and desugared `with` statements name
        # their hidden variable after its place (`with@50:5`).
        return re.sub(r"@\d+:\d+", "", format_ast(module))

    return tree(before) == tree(after)


def main(paths: list[str], check: bool = False, diff: bool = False, color: str = "auto") -> int:
    """`pyx fmt`: 0 when every file is formatted (or, with --check, already was), 1 when a file
    does not parse or would change under --check, 2 for a path that does not exist."""
    from .diagnostics import CompileError
    from .diagnostics.render import render_all

    files: list[Path] = []
    for given in paths or ["."]:
        path = Path(given)
        if path.is_dir():
            files.extend(sorted(p for p in path.rglob("*.px") if "__pycache__" not in p.parts))
        elif path.is_file():
            files.append(path)
        else:
            print(f"pyx: error: {given}: no such file or directory", file=sys.stderr)
            return 2
    status = 0
    changed = 0
    for path in files:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            print(f"pyx fmt: {path}: left as it is: cannot read it as UTF-8 text ({exc})", file=sys.stderr)
            status = 1
            continue
        try:
            same_tree(text, text, str(path))  # a file that does not parse is reported as `pyx check` would
            new = format_text(text)
            if new != text.replace("\r\n", "\n") and not same_tree(text, new, str(path)):
                raise CannotFormat("formatting would change its meaning (a bug in pyx fmt: please report it)")
        except CompileError as exc:
            sys.stderr.write(render_all(exc.diagnostics, sys.stderr, color) + "\n")
            status = 1
            continue
        except CannotFormat as exc:
            print(f"pyx fmt: {path}: left as it is: {exc}", file=sys.stderr)
            status = 1
            continue
        if new == text:
            continue
        changed += 1
        if diff:
            sys.stdout.writelines(difflib.unified_diff(text.splitlines(True), new.splitlines(True),
                                                       f"{path}", f"{path} (formatted)"))
        if check:
            print(f"would reformat {path}", file=sys.stderr)
            status = 1
        elif not diff:
            path.write_text(new, encoding="utf-8")
    verb = "would reformat" if check or diff else "reformatted"
    print(f"pyx fmt: {verb} {changed} of {len(files)} file{'s' if len(files) != 1 else ''}", file=sys.stderr)
    return status
