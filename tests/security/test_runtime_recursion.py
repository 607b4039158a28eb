"""Recursion deeper than the thread's stack raises RecursionError, Python's exception with
Python's message, instead of a SIGSEGV: from `pyx run` (tests/golden/recursion_depth.px), from
Python, on a Python thread with a small stack, and inside a prange worker. A function that is
not on a cycle of the call graph is not checked at all (nothing about it changes)."""
import pytest

from runtime_helpers import run_python

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
