"""What every editor integration must highlight, and where it occurs in real files.

Each engine's test (Pygments, Vim; the VS Code grammar has the same logic in
editors/vscode/tests/check_scopes.js) walks the same occurrences and compares
what the engine says with vocabulary.json. Which text is code, and which is a
string or a comment, is decided here by a small scanner, not by the engine under
test, so a grammar that swallows code into a string cannot pass by skipping it.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
FIXTURES = HERE / "fixtures"
VOCABULARY = json.loads((HERE / "vocabulary.json").read_text(encoding="utf-8"))


def fixture_files() -> list[Path]:
    return sorted(FIXTURES.glob("*.px"))


def example_files() -> list[Path]:
    # Globbed at test time: examples/ grows while the compiler is written.
    return sorted((REPO / "examples").rglob("*.px"))


def real_files() -> list[Path]:
    return example_files() + fixture_files()


@dataclass(frozen=True)
class Category:
    name: str
    words: tuple[str, ...]
    after: str | None
    reserved: bool
    expected: dict  # engine -> tuple of accepted scopes / token types / groups


def categories() -> list[Category]:
    out = []
    for name, cat in VOCABULARY["categories"].items():
        out.append(Category(
            name=name,
            words=tuple(cat["words"]),
            after=cat.get("after"),
            reserved=bool(cat.get("reserved")),
            expected={k: tuple(cat[k]) for k in ("textmate", "pygments", "vim")},
        ))
    return out


def _lookup():
    plain, prefixed = {}, {}
    for cat in categories():
        for w in cat.words:
            if cat.after:
                prefixed[(cat.after, w)] = cat
            else:
                plain[w] = cat
    return plain, prefixed


_PLAIN, _PREFIXED = _lookup()

_STRING_START = re.compile(r"(?i)(?<![\w])(?:rb|br|rf|fr|[rbuf])?('''|\"\"\"|'|\")")


def code_mask(text: str) -> list[bool]:
    """True for each character of `text` that is code (not string, not comment)."""
    mask = [True] * len(text)
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "#":
            j = text.find("\n", i)
            j = n if j < 0 else j
            for k in range(i, j):
                mask[k] = False
            i = j
            continue
        # Identifiers are consumed whole below, so a prefix letter seen here
        # really starts a string (f"...", rb'...').
        m = _STRING_START.match(text, i) if (c in "'\"" or c.isalpha()) else None
        if m:
            quote = m.group(1)
            j = m.end()
            while j < n:
                if text.startswith(quote, j):
                    j += len(quote)
                    break
                if text[j] == "\\" and j + 1 < n:
                    # Even in a raw string a backslash keeps the next quote in.
                    j += 2
                    continue
                if text[j] == "\n" and len(quote) == 1:
                    break
                j += 1
            for k in range(i, min(j, n)):
                mask[k] = False
            i = j
            continue
        if c.isalpha() or c == "_" or c.isdigit():
            j = i
            while j < n and (text[j].isalnum() or text[j] == "_"):
                j += 1
            i = j
            continue
        i += 1
    return mask


@dataclass(frozen=True)
class Occurrence:
    line: int  # 1-based
    col: int  # 0-based, in characters
    word: str
    category: Category


def vocabulary_occurrences(text: str) -> list[Occurrence]:
    """Every known word in code, with the category its context gives it."""
    mask = code_mask(text)
    out = []
    offset = 0
    for lineno, line in enumerate(text.split("\n"), 1):
        for m in re.finditer(r"\b[A-Za-z_]\w*", line):
            pos = offset + m.start()
            if pos >= len(mask) or not mask[pos]:
                continue
            word, start = m.group(), m.start()
            before, after = line[:start], line[m.end():]
            if re.search(r"\bDType\s*\.\s*$", before):
                cat = _PREFIXED.get(("DType.", word))
            elif re.search(r"^\s*@\s*$", before):
                cat = _PREFIXED.get(("@", word))
            elif re.search(r"\.\s*$", before):
                continue  # a member: any name goes
            else:
                cat = _PLAIN.get(word)
                if cat is None:
                    continue
                if not cat.reserved:
                    # A builtin's name reused for something the user defines or names.
                    if re.search(r"\b(?:fn|def|struct|trait|alias|var|comptime)\s+$", before):
                        continue
                    if re.match(r"\s*(?::(?!=)|=(?!=))", after) and re.search(
                        r"(?:[(\[,]|^|\b(?:mut|var|owned|ref|out))\s*$", before
                    ):
                        continue
            if cat is not None:
                out.append(Occurrence(lineno, start, word, cat))
        offset += len(line) + 1
    return out


STRUCTURE = [
    # (what, regex with the name in group 1)
    ("function name", re.compile(r"\b(?:fn|def)\s+([A-Za-z_]\w*)")),
    ("struct name", re.compile(r"\bstruct\s+([A-Za-z_]\w*)")),
    ("trait name", re.compile(r"\btrait\s+([A-Za-z_]\w*)")),
    ("launched kernel", re.compile(r"\blaunch\s+([A-Za-z_]\w*)(?:\s*\.\s*[A-Za-z_]\w*)*\s*\[")),
    ("launch key", re.compile(r"\blaunch\s+[\w.]+\s*\[\s*([A-Za-z_]\w*)\s*=(?!=)")),
    ("number", re.compile(
        r"(?<![\w.])((?:0[xX](?:_?[0-9a-fA-F])+|0[oO](?:_?[0-7])+|0[bB](?:_?[01])+"
        r"|(?:\d(?:_?\d)*\.(?:\d(?:_?\d)*)?|\.\d(?:_?\d)*)(?:[eE][+-]?\d(?:_?\d)*)?"
        r"|\d(?:_?\d)*(?:[eE][+-]?\d(?:_?\d)*)?))(?![\w.])")),
]


def structure_occurrences(text: str):
    """(what, line, col, name) for declared names, launch targets and numbers in code."""
    mask = code_mask(text)
    offset = 0
    out = []
    for lineno, line in enumerate(text.split("\n"), 1):
        for what, rx in STRUCTURE:
            for m in rx.finditer(line):
                if offset + m.start() < len(mask) and mask[offset + m.start()] and mask[offset + m.start(1)]:
                    out.append((what, lineno, m.start(1), m.group(1)))
        offset += len(line) + 1
    return out
