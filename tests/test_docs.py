"""The docs cannot rot: every diagnostic code is documented, and every example in docs/*.md runs.

Conventions for fenced blocks in docs/*.md (docs/compiler.md, "Documentation", says the same):

- A ```python block followed (blank lines only in between) by an ```output block is a
  program: `pyx run` must print exactly the output block and exit with status 0.
- A ```python block whose first line is `# NAME.px`, followed by a ```console block: the
  program is saved as NAME.px and every `$ ` line of the console block is a command run in
  that directory (`pyx ...`, `python3 NAME.px`, `./NAME`). What it writes (stdout, then
  stderr) must match the lines up to the next `$ `; a line `...` stands for any lines.
- A ```python block with `# E: CODE` comments is a diagnostics example (the convention of
  tests/diagnostics): `pyx check` must report exactly those codes on those lines.

Any other block (```python without output, ```sh, ```text) is prose and is not run.
"""
from __future__ import annotations

import itertools
import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from helpers import ROOT, run_cli, run_source

DOCS = sorted((ROOT / "docs").glob("*.md"))
FENCE = re.compile(r"^```(\S*)\s*$")
MARK = re.compile(r"#\s*E:\s*(.*)$", re.M)
FILE_HEADER = re.compile(r"^#\s*([\w.-]+\.px)\s*$")
HAVE_CC = any(shutil.which(c) for c in (os.environ.get("CC"), "cc", "gcc", "clang") if c)


@dataclass
class Block:
    doc: Path
    lang: str
    text: str
    start: int  # line number of the opening fence (1-based)
    end: int  # line number of the closing fence

    @property
    def where(self) -> str:
        return f"{self.doc.name}:{self.start}"


def blocks(doc: Path) -> list[Block]:
    out, lines = [], doc.read_text().splitlines()
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m or not m.group(1):
            i += 1
            continue
        start, body = i, []
        i += 1
        while i < len(lines) and lines[i].strip() != "```":
            body.append(lines[i])
            i += 1
        out.append(Block(doc, m.group(1), "\n".join(body) + "\n", start + 1, i + 1))
        i += 1
    return out


def pairs(lang: str) -> list[tuple[Block, Block]]:
    """(python block, the `lang` block right after it)."""
    found = []
    for doc in DOCS:
        lines = doc.read_text().splitlines()
        bs = blocks(doc)
        for a, b in itertools.pairwise(bs):
            between = lines[a.end:b.start - 1]
            if a.lang == "python" and b.lang == lang and all(not s.strip() for s in between):
                found.append((a, b))
    return found


def file_name(block: Block) -> str:
    m = FILE_HEADER.match(block.text.splitlines()[0])
    return m.group(1) if m else "prog.px"


def matches(expected: str, got: str) -> bool:
    """Line-by-line equality, where an expected line `...` matches any number of lines."""
    parts = [r"(?:[^\n]*\n)*?" if line == "..." else re.escape(line) + r"\n"
             for line in expected.splitlines()]
    return re.fullmatch("".join(parts), got if got.endswith("\n") or not got else got + "\n") is not None


def test_docs_exist():
    names = {d.name for d in DOCS}
    assert {"getting-started.md", "reference.md", "diagnostics.md", "compiler.md"} <= names


# ---- every diagnostic code is documented ----

def test_every_code_is_documented():
    from pyx.diagnostics.codes import MESSAGES, WARNINGS

    text = (ROOT / "docs" / "diagnostics.md").read_text()
    headings = set(re.findall(r"^#{2,4} `?([EW]\d{4})`?", text, re.M))
    registry = {**MESSAGES, **WARNINGS}
    assert not set(registry) - headings, f"undocumented codes: {sorted(set(registry) - headings)}"
    stale = sorted(headings - set(registry))
    assert not stale, f"documented codes no longer in the registry: {stale}"
    for code, template in registry.items():
        assert template in text, f"{code}: the message template `{template}` is not quoted in docs/diagnostics.md"


def test_each_diagnostic_example_shows_its_own_code():
    text = (ROOT / "docs" / "diagnostics.md").read_text()
    sections = re.split(r"^#{2,4} `?(?=[EW]\d{4})", text, flags=re.M)[1:]
    for section in sections:
        code = section[:5]
        marked = set(re.findall(r"#\s*E:\s*([EW]\d{4})", section))
        if marked:
            assert code in marked, f"the example under {code} is marked {sorted(marked)}"


# ---- programs with their output ----

PROGRAMS = pairs("output")


@pytest.mark.parametrize("program,output", PROGRAMS, ids=[p.where for p, _ in PROGRAMS])
def test_program_prints_its_output(program: Block, output: Block, tmp_path: Path):
    result = run_source(program.text, tmp_path, file_name(program))
    assert result.stderr == "" and result.status == 0, result.stderr
    assert matches(output.text, result.stdout), f"{program.where} printed:\n{result.stdout}"


# ---- console sessions ----

SESSIONS = [(p, c) for p, c in pairs("console") if FILE_HEADER.match(p.text.splitlines()[0])]


def commands(console: Block) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for line in console.text.splitlines():
        if line.startswith("$ "):
            out.append((line[2:], ""))
        else:
            assert out, f"{console.where}: output before the first `$ ` command"
            out[-1] = (out[-1][0], out[-1][1] + line + "\n")
    return out


def run_command(command: str, cwd: Path) -> str:
    argv = shlex.split(command)
    env = {}
    while argv and re.fullmatch(r"\w+=.*", argv[0]):
        key, _, value = argv.pop(0).partition("=")
        env[key] = value
    if argv[0] == "pyx":
        saved = {k: os.environ.get(k) for k in env}
        os.environ.update(env)
        try:
            result = run_cli(*argv[1:])
        finally:
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v
        return result.stdout + result.stderr
    if argv[0] in ("python", "python3"):
        argv[0] = sys.executable
    elif not argv[0].startswith("./"):
        raise AssertionError(f"don't know how to run `{command}` (use a ```sh block for prose)")
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=60,
                          env={**os.environ, **env})
    return done.stdout + done.stderr


def companions(program: Block) -> list[Block]:
    """Named python blocks before this one in the same `##` section: the modules it imports."""
    lines = program.doc.read_text().splitlines()
    return [b for b in blocks(program.doc)
            if b.lang == "python" and b.start < program.start and FILE_HEADER.match(b.text.splitlines()[0])
            and not any(line.startswith("## ") for line in lines[b.start:program.start])]


@pytest.mark.parametrize("program,console", SESSIONS, ids=[p.where for p, _ in SESSIONS])
def test_console_session(program: Block, console: Block, tmp_path: Path, monkeypatch):
    cmds = commands(console)
    if not HAVE_CC and any("--emit=exe" in c or c.startswith("./") for c, _ in cmds):
        pytest.skip("needs a C compiler to link an executable")
    monkeypatch.chdir(tmp_path)
    for module in companions(program):
        (tmp_path / file_name(module)).write_text(module.text)
    (tmp_path / file_name(program)).write_text(program.text)
    for command, expected in cmds:
        got = run_command(command, tmp_path)
        assert matches(expected, got), f"{console.where}: `{command}` wrote:\n{got}"


# ---- diagnostics examples ----

MARKED = [b for d in DOCS for b in blocks(d) if b.lang == "python" and MARK.search(b.text)]


def expectations(text: str) -> list[tuple[int, str]]:
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        m = MARK.search(line)
        if m:
            out.extend((number, item.strip().split()[0]) for item in m.group(1).split(" | "))
    return out


@pytest.mark.parametrize("block", MARKED, ids=[b.where for b in MARKED])
def test_marked_example_reports_exactly_its_diagnostics(block: Block):
    from pyx import pipeline
    from pyx.diagnostics import CompileError
    from pyx.source import SourceFile

    with pytest.raises(CompileError) as info:
        pipeline.check(SourceFile(file_name(block), block.text))
    got = sorted((d.span.line if d.span else 0, d.code) for d in info.value.diagnostics)
    assert got == sorted(expectations(block.text)), block.where


def test_the_conventions_find_examples():
    # A typo in a fence must not turn every example into unchecked prose.
    assert len(PROGRAMS) >= 20 and len(SESSIONS) >= 10 and len(MARKED) >= 30
