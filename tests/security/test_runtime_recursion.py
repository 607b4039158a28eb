"""Recursion deeper than the thread's stack raises RecursionError, Python's exception with
Python's message, instead of a SIGSEGV: from `pyx run` (tests/golden/recursion_depth.px), from
Python, on a Python thread with a small stack, on several threads at once, and inside a prange
worker; recursions of different cycles nested in one another land in their own entries
(tests/golden/recursion_guards.px). A function that is not on a cycle of the call graph is not
checked at all (nothing about it changes), and the check is one compare per call (its cost)."""
import platform
import subprocess
from pathlib import Path

import pytest

from runtime_helpers import build_executable, child_env, pyx_command, run_python

MODULE = '''
fn down(n: Int) -> Int:
    if n == 0:
        return 0
    return n - down(n - 1)


fn in_workers(n: Int, depth: Int) -> Int:
    var total = 0
    for i in prange(n):
        total += down(depth + i)
    return total


fn plain(n: Int) -> Int:
    return n * 2
'''

SCRIPT = r'''
import sys, threading
import pyx
m = pyx.import_module("recmod", path=[sys.argv[1]])
print(m.down(1000), m.in_workers(4, 100))
for what, call in (("python", lambda: m.down(10**8)), ("prange", lambda: m.in_workers(8, 10**8))):
    try:
        call()
    except RecursionError as exc:
        print(what, type(exc).__name__, exc)

def small():
    try:
        m.down(10**8)
    except RecursionError as exc:
        print("thread", exc)
    print("thread fine:", m.down(100))

threading.stack_size(256 * 1024)
t = threading.Thread(target=small)
t.start()
t.join()
print("still running:", m.down(10), m.plain(21))
'''


def test_deep_recursion_raises_recursion_error(tmp_path):
    (tmp_path / "recmod.px").write_text(MODULE)
    done = run_python(tmp_path, SCRIPT)
    assert done.returncode == 0, f"status {done.returncode}: {done.stderr}"
    assert done.stdout == ("500 204\n"
                           "python RecursionError maximum recursion depth exceeded\n"
                           "prange RecursionError maximum recursion depth exceeded\n"
                           "thread maximum recursion depth exceeded\n"
                           "thread fine: 50\n"
                           "still running: 5 42\n")


def test_only_functions_on_a_cycle_are_guarded():
    """The check costs something per recursive call: functions that cannot recurse have none."""
    from pyx import pipeline
    from pyx.source import SourceFile

    comp = pipeline.lower(SourceFile("guarded.px", MODULE + "\nfn main():\n    print(down(3), plain(2))\n"))
    symbols = {f.symbol for f in comp.ir.functions}
    assert "guarded.down.rec" in symbols and "guarded.plain.rec" not in symbols
    checks = {f.symbol: sum(1 for b in f.blocks for i in b.instrs if getattr(i, "name", "") == "recursion_check")
              for f in comp.ir.functions}
    assert checks["guarded.down.rec"] == 1
    assert checks["guarded.plain"] == 0 and checks["guarded.main"] == 0
    down = comp.ir.function("guarded.down.rec")
    assert not down.raises  # the recursion keeps its plain calling convention


FIB = '''
fn fib(n: Int) -> Int:
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)
'''


def _body_asm(tmp_path) -> list[str]:
    """The x86-64 instructions of fib's recursion body, as `pyx build --emit=asm` prints them."""
    (tmp_path / "fibmod.px").write_text(FIB)
    done = subprocess.run(pyx_command("build", "--emit=asm", str(tmp_path / "fibmod.px"), "-o",
                                      str(tmp_path / "fib.s")), capture_output=True, text=True,
                          env=child_env(tmp_path))
    assert done.returncode == 0, done.stderr
    lines = (tmp_path / "fib.s").read_text().splitlines()
    start = lines.index("fibmod.fib.rec:")
    end = next(k for k in range(start, len(lines)) if lines[k].startswith(".Lfunc_end"))
    return [line.strip() for line in lines[start + 1:end] if not line.strip().startswith(".cfi")]


def test_the_check_is_one_register_compare_per_call_outside_the_loop(tmp_path):
    """What the check costs fib(32) (issue 14: under 5%): the body compares the stack pointer with
    the limit once per call, register to register (the limit stays in the register swiftcc gives
    `swiftself`, passed on without a move), and not inside the loop LLVM makes of the second
    recursive call. (It was two compares with a limit in memory per iteration: 10-28% of fib.)"""
    if platform.machine() not in ("x86_64", "AMD64"):
        pytest.skip("reads x86-64 assembly")
    body = _body_asm(tmp_path)
    compares = [k for k, line in enumerate(body) if line.startswith("cmp") and "%rsp" in line]
    assert len(compares) == 1, body
    assert "(" not in body[compares[0]], body  # no operand in memory
    labels = {line[:-1]: k for k, line in enumerate(body) if line.endswith(":")}
    back_edges = [(labels[line.split()[-1]], k) for k, line in enumerate(body)
                  if line.startswith("j") and labels.get(line.split()[-1], len(body)) < k]
    assert back_edges, body  # the loop that was fib(n - 2)
    for top, bottom in back_edges:
        assert not top < compares[0] < bottom, body


THREADS = r'''
import sys, threading
import pyx
m = pyx.import_module("recmod", path=[sys.argv[1]])
results = []

def work(k):
    for _ in range(3):
        try:
            m.down(10**8 + k)
        except RecursionError as exc:
            results.append(str(exc))
    results.append(m.down(1000 + 2 * k))

threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(sorted(results, key=str))
'''


def test_python_threads_that_run_out_at_once_each_land_in_their_own_call(tmp_path):
    """Each thread's recursion lands in the guard of its own call (the guard a thread runs under
    is kept per thread), however the threads' calls interleave (they run without the GIL)."""
    (tmp_path / "recmod.px").write_text(MODULE)
    done = run_python(tmp_path, THREADS)
    assert done.returncode == 0, f"status {done.returncode}: {done.stderr}"
    expected = [500, 501, 502, 503] + ["maximum recursion depth exceeded"] * 12
    assert done.stdout == str(sorted(expected, key=str)) + "\n"


def test_an_executable_lands_each_recursion_in_its_own_entry(tmp_path):
    """`pyx build` executables run the same guards as `pyx run` (tests/golden/recursion_guards.px)."""
    golden = Path(__file__).resolve().parents[1] / "golden" / "recursion_guards.px"
    (tmp_path / "prog.px").write_text(golden.read_text())
    exe = build_executable(tmp_path / "prog.px", tmp_path)
    done = subprocess.run([str(exe)], capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == golden.with_suffix(".out").read_text()
