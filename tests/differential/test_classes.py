"""Differential test of classes (docs/semantics.md, "Classes"): random Python programs that make
objects, alias them (`b1 = b0`, a list of them, an attribute linking one to another), change
them through every kind of reference (attributes assigned and `+=`, a list attribute appended
to, a method, a function's parameter, a `for` loop's variable, a link) and print them. pyx must
print exactly what CPython prints; a rejection fails too, since every generated program is in the
subset classes support (`python tests/differential/test_classes.py N` runs N programs and reports
how many pyx rejected, and by which codes).

CI runs a few derandomized examples; `-m slow` runs many more (PYX_CLASS_EXAMPLES)."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

PRELUDE = '''class Box:
    def __init__(self, n: int):
        self.n = n
        self.items: list[int] = []
        self.link: "Box | None" = None

    def bump(self, k: int):
        self.n += k
        self.items.append(self.n)

    def __repr__(self) -> str:
        return f"Box({self.n}, {self.items}, {self.link is None})"


def grow(b: Box, k: int):
    b.n = b.n * 2 + k
    b.items.append(k)


def total(b: Box) -> int:
    return b.n + len(b.items)

'''
NAMES = 4  # b0 .. b3

name = st.integers(min_value=0, max_value=NAMES - 1).map(lambda i: f"b{i}")
small = st.integers(min_value=-3, max_value=9)


@st.composite
def statement(draw) -> str:
    a, b, k = draw(name), draw(name), draw(small)
    return draw(st.sampled_from([
        f"{a}.n += {k}",
        f"{a}.n = {b}.n + {k}",
        f"{a}.items.append({k})",
        f"{a}.bump({k})",
        f"grow({a}, {k})",
        f"{a} = {b}",
        f"{a} = Box({k})",
        f"{a}.link = {b}",
        f"{a}.link = None",
        f"if {a}.link is not None:\n        {a}.link.n += {k}",
        f"if {a}.link is not None:\n        {a}.link.items.append({k})",
        f"boxes = [{a}, {b}]\n    for x in boxes:\n        x.n += {k}",
        f"boxes = [{a}, {b}]\n    boxes[1].n = {k}\n    boxes[0].bump({k})",
        f"print({a} is {b}, {a}.n == {b}.n, total({a}))",
        f"print({a})",
    ]))


@st.composite
def program(draw) -> str:
    lines = [PRELUDE, "def main():"]
    for i in range(NAMES):
        lines.append(f"    b{i} = Box({i})" if i < 2 or draw(st.booleans()) else f"    b{i} = b{i - 2}")
    for s in draw(st.lists(statement(), min_size=3, max_size=12)):
        lines.append(f"    {s}")
    lines.append(f"    print({', '.join(f'b{i}' for i in range(NAMES))})")
    lines.append(f"    print({', '.join(f'b{i}.link' for i in range(NAMES))})")
    return "\n".join(lines) + "\n\n\nif __name__ == \"__main__\":\n    main()\n"


def run_both(text: str, folder: Path) -> tuple[subprocess.CompletedProcess, subprocess.CompletedProcess]:
    path = folder / "prog.px"
    path.write_text(text)
    python = subprocess.run([sys.executable, str(path)], capture_output=True, text=True)
    pyx = subprocess.run([sys.executable, "-m", "pyx", "run", str(path)], capture_output=True, text=True,
                         env={**os.environ, "PYX_CACHE_DIR": str(folder / "cache")}, timeout=300)
    return python, pyx


def check(text: str, folder: Path) -> None:
    note(text)
    python, pyx = run_both(text, folder)
    assert python.returncode == 0, python.stderr
    assert pyx.returncode == 0, pyx.stderr
    assert pyx.stdout == python.stdout


@settings(max_examples=4, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(program())
def test_objects_shared_and_changed_as_in_python(tmp_path, text):
    check(text, tmp_path)


@pytest.mark.slow
@settings(max_examples=int(os.environ.get("PYX_CLASS_EXAMPLES", "200")), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(program())
def test_many_programs_with_objects(tmp_path, text):
    check(text, tmp_path)


if __name__ == "__main__":  # the share pyx rejects, and by which codes
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    verdicts: Counter = Counter()
    codes: Counter = Counter()
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(count):
            text = program().example()
            python, pyx = run_both(text, Path(tmp))
            if pyx.returncode != 0 and "error[" in pyx.stderr:
                verdicts["rejected"] += 1
                codes.update(set(re.findall(r"error\[(E\d{4})\]", pyx.stderr)))
            elif pyx.returncode != 0 or pyx.stdout != python.stdout:
                verdicts["different"] += 1
                print(text, "\n--- python\n", python.stdout, "\n--- pyx\n", pyx.stdout, pyx.stderr)
            else:
                verdicts["same"] += 1
    print(dict(verdicts), dict(codes))
