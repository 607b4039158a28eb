"""Differential test of docs/semantics.md: random Python programs that pass lists and dicts to
functions that change them, alias them (`b = a`, `c = g[0]`, `.copy()`), change elements in
place (`g[i].append(v)`, `g[i][j] = v`, swaps) and change them through loop variables. pyx must
either reject the program at compile time (a diagnostic, exit status 1, nothing printed) or
print exactly what CPython prints; a crash, a hang or a different output fails. A rejection
counts as a rejection, not a pass: `python tests/differential/test_shared_mutation.py N`
prints the share of N generated programs that pyx rejects, and by which codes.

CI runs a few derandomized examples; `-m slow` runs many more (PYX_SHARING_EXAMPLES)."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, note, settings
from hypothesis import strategies as st

# Helpers a program may call; only those it calls are written into it (a function that
# changes a borrowed argument is rejected whether it is called or not).
HELPERS = {
    "push": "def push(xs: list[int], v: int):\n    xs.append(v)\n",
    "drop": "def drop(xs: list[int]):\n    if len(xs) > 0:\n        xs.pop()\n",
    "wipe": "def wipe(xs: list[int]):\n    xs.clear()\n",
    "put": "def put(xs: list[int], i: int, v: int):\n    if len(xs) > i:\n        xs[i] = v\n",
    "bump": "def bump(xs: list[int], i: int, v: int):\n    if len(xs) > i:\n        xs[i] += v\n",
    "store": "def store(d: dict[int, int], k: int, v: int):\n    d[k] = v\n",
    "rebind": "def rebind(xs: list[int]) -> int:\n    xs = [7, 8]\n    xs.append(9)\n    return len(xs)\n",
    "total": "def total(xs: list[int]) -> int:\n    s = 0\n    for x in xs:\n        s += x\n    return s\n",
}

BOX = ("class Box:\n    def __init__(self):\n        self.items: list[int] = [0]\n"
       "        self.d: dict[int, int] = {}\n")

LISTS = ["a", "b", "c"]
value = st.integers(min_value=-9, max_value=9)
small = st.integers(min_value=0, max_value=2)
lst = st.sampled_from(LISTS)


def _statement():
    """One statement of main (text, helpers it needs), indented by the caller."""
    return st.one_of(
        st.builds(lambda x, v: (f"{x}.append({v})", ()), lst, value),
        st.builds(lambda x: (f"if len({x}) > 0:\n    {x}.pop()", ()), lst),
        st.builds(lambda x, i, v: (f"if len({x}) > {i}:\n    {x}[{i}] = {v}", ()), lst, small, value),
        st.builds(lambda x, i, v: (f"if len({x}) > {i}:\n    {x}[{i}] += {v}", ()), lst, small, value),
        st.builds(lambda x: (f"{x}.clear()", ()), lst),
        st.builds(lambda x, y: (f"{x} = {y}", ()), lst, lst),
        st.builds(lambda x, y: (f"{x} = {y}.copy()", ()), lst, lst),
        st.builds(lambda x, i: (f"{x} = g[{i % 2}]", ()), lst, small),
        st.builds(lambda x, i: (f"{x} = g[{i % 2}].copy()", ()), lst, small),
        st.builds(lambda i, v: (f"g[{i % 2}].append({v})", ()), small, value),
        st.builds(lambda i, j, v: (f"if len(g[{i % 2}]) > {j}:\n    g[{i % 2}][{j}] = {v}", ()), small, small, value),
        st.builds(lambda i, j, v: (f"if len(g[{i % 2}]) > {j}:\n    g[{i % 2}][{j}] += {v}", ()), small, small, value),
        st.just(("g[0], g[1] = g[1], g[0]", ())),
        st.builds(lambda x: (f"if len({x}) > 1:\n    {x}[0], {x}[1] = {x}[1], {x}[0]", ()), lst),
        st.builds(lambda x, v: (f"for e in {x}:\n    print(e + {v})", ()), lst, value),
        st.builds(lambda v: (f"for row in g:\n    row.append({v})", ()), value),
        st.builds(lambda: ("for row in g:\n    print(len(row))", ())),
        st.builds(lambda v: (f"for i in range(len(g)):\n    g[i].append({v})", ()), value),
        # bounded: with y an alias of x, Python's loop would otherwise walk a list that never ends
        st.builds(lambda x, y: (f"for e in {x}:\n    if len({y}) < 12:\n        {y}.append(e)", ()), lst, lst),
        st.builds(lambda x, y: (f"g.append({x})\n{x}.append(1)", ()), lst, lst),
        st.builds(lambda k, v: (f"d[{k}] = {v}", ()), small, value),
        st.builds(lambda k, v: (f"dl[{k % 2}].append({v})", ()), small, value),
        st.builds(lambda name, x, i, v: (
            {"push": f"push({x}, {v})", "drop": f"drop({x})", "wipe": f"wipe({x})",
             "put": f"put({x}, {i}, {v})", "bump": f"bump({x}, {i}, {v})", "store": f"store(d, {i}, {v})",
             "rebind": f"print(rebind({x}), {x})", "total": f"print(total({x}))"}[name], (name,)),
            st.sampled_from(sorted(HELPERS)), lst, small, value),
        st.builds(lambda x: (f"print({x})", ()), lst),
        # an object's list and dict (semantics/object_containers.py): bound to a local, changed where
        # they are, passed to a function that changes them, replaced
        st.builds(lambda x: (f"{x} = o.items", ()), lst),
        st.builds(lambda v: (f"o.items.append({v})", ()), value),
        st.builds(lambda v: (f"o.items = [{v}]", ()), value),
        st.builds(lambda v: (f"push(o.items, {v})", ("push",)), value),
        st.builds(lambda k, v: (f"store(o.d, {k}, {v})", ("store",)), small, value),
        st.just(("print(o.items, o.d)", ())),
    )


def _indent(text: str, depth: int) -> str:
    return "\n".join("    " * depth + line for line in text.split("\n"))


@st.composite
def programs(draw) -> str:
    statements = draw(st.lists(_statement(), min_size=1, max_size=8))
    looped = draw(st.integers(min_value=0, max_value=len(statements)))  # the tail runs twice, in a loop
    needed = sorted({h for _, hs in statements for h in hs})
    lines = [HELPERS[h] for h in needed] + [BOX]
    body = ["o = Box()", "a: list[int] = [1, 2]", "b: list[int] = [3]", "c: list[int] = [4, 5, 6]",
            "g: list[list[int]] = [[1, 2], [3]]", "d: dict[int, int] = {0: 10}",
            "dl: dict[int, list[int]] = {0: [1], 1: [2]}"]
    body += [_indent(text, 0) for text, _ in statements[:looped]]
    if looped < len(statements):
        body.append("for _ in range(2):")
        body += [_indent(text, 1) for text, _ in statements[looped:]]
    body.append("print(a, b, c, g, d, dl, o.items, o.d)")
    lines.append("def main():\n" + "\n".join(_indent(s, 1) for s in body) + "\n")
    return "\n\n".join(lines) + "\n\nif __name__ == \"__main__\":\n    main()\n"


def outcome(program: str) -> tuple[str, str]:
    """("rejected", codes) or ("same", "") after running both; fails on any other outcome.
    ("skip", why) when CPython itself does not finish (a list that grows while walked)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "prog.px"
        path.write_text(program)
        try:
            python = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=10)
        except subprocess.TimeoutExpired:
            return "skip", "CPython does not finish"
        if python.returncode != 0:
            return "skip", "CPython raises"
        env = {**os.environ, "PYX_NO_CACHE": "1"}
        ours = subprocess.run([sys.executable, "-m", "pyx", "run", str(path)], capture_output=True, text=True,
                              timeout=120, env=env)
    codes = re.findall(r"error\[(E\d{4})\]", ours.stderr)
    if ours.returncode == 1 and codes and not ours.stdout and "internal compiler error" not in ours.stderr:
        return "rejected", " ".join(sorted(set(codes)))
    assert ours.returncode == 0, f"pyx exited {ours.returncode}:\n{ours.stderr}"
    assert ours.stdout == python.stdout, f"pyx printed\n{ours.stdout}\nCPython printed\n{python.stdout}"
    return "same", ""


COMMON = dict(deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


@settings(max_examples=6, derandomize=True, **COMMON)
@given(programs())
def test_shared_mutation_is_rejected_or_prints_as_cpython(program):
    note(program)
    result, _ = outcome(program)
    assume(result != "skip")


@pytest.mark.slow
@settings(max_examples=int(os.environ.get("PYX_SHARING_EXAMPLES", "300")), **COMMON)
@given(programs())
def test_many_shared_mutation_programs(program):
    note(program)
    result, _ = outcome(program)
    assume(result != "skip")


if __name__ == "__main__":  # the rejected share: python tests/differential/test_shared_mutation.py [N]
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    tally: Counter = Counter()
    codes: Counter = Counter()
    samples = []

    @settings(max_examples=count, **COMMON)
    @given(programs())
    def collect(program):
        result, why = outcome(program)
        tally[result] += 1
        for code in why.split() if result == "rejected" else ():
            codes[code] += 1

    collect()
    ran = tally["same"] + tally["rejected"]
    print(f"{ran} programs run by both: {tally['same']} printed the same, {tally['rejected']} rejected "
          f"({100 * tally['rejected'] / max(ran, 1):.0f}%); {tally['skip']} skipped (CPython raised or did not finish)")
    print("codes in rejected programs:", dict(codes.most_common()))
