"""Functions as values (semantics/closures.py): a call through one is a direct call, so the
function that takes it is compiled for that function and the call inlines; and what closures and
the iterators taking them hold is freed exactly once."""
import re
import textwrap
from pathlib import Path

from helpers import memory_growth_mib, run_cli
from pyx.codegen.abi import ALLOC_HOOK, FREE_HOOK, LAUNCH_HOOK

DEVICE_HOOKS = (LAUNCH_HOOK, ALLOC_HOOK, FREE_HOOK)  # (codegen/device_hooks.py)

KEYED = textwrap.dedent('''
    def apply_all(f, xs: list[int]) -> list[int]:
        out: list[int] = []
        for x in xs:
            out.append(f(x))
        return out

    def main():
        xs = [5, 3, 8, 1]
        k = 3
        print(sorted(xs, key=lambda v: v % k))
        print(apply_all(lambda v: v * k, xs))

    if __name__ == "__main__":
        main()
''')


def _function(text: str, start: str, end: str) -> str:
    """The part of `text` from the line that starts with `start` to the next `end`."""
    at = next(i for i, line in enumerate(text.splitlines()) if line.startswith(start))
    lines = text.splitlines()[at:]
    return "\n".join(lines[:next(i for i, line in enumerate(lines) if line.startswith(end) and i > 0) + 1])


def test_key_and_map_style_calls_name_their_function_and_inline(tmp_path: Path):
    src = tmp_path / "keyed.px"
    src.write_text(KEYED)
    ir = run_cli("build", "--emit=ir", str(src))
    assert ir.status == 0, ir.stderr
    # In pyx's IR the function passed is known: one copy of each taker per function, calling it directly.
    sort_copy = _function(ir.stdout, "fn @functional.sorted_by_key[Int, <lambda at 11:26 in main>]", "}")
    assert "call @keyed.<lambda at 11:26 in main>.__call__[Int](" in sort_copy
    helper = _function(ir.stdout, "fn @keyed.apply_all[<lambda at 12:21 in main>,List[Int]]", "}")
    assert "call @keyed.<lambda at 12:21 in main>.__call__[Int](" in helper
    # After LLVM's inliner, neither calls the lambda; the only calls through a register are the
    # device hooks a `Ptr` allocation checks (codegen/device_hooks.py), not a function value.
    asm = run_cli("build", "--emit=asm", str(src))
    assert asm.status == 0, asm.stderr
    for name in ("functional.sorted_by_key[Int, <lambda at 11:26 in main>]",
                 "keyed.apply_all[<lambda at 12:21 in main>,List[Int]]"):
        body = _function(asm.stdout, f'"{name}":', ".Lfunc_end")
        assert "__call__" not in body and "lambda" not in body.split(":", 1)[1], body
        assert len(re.findall(r"call\w*\s+\*", body)) <= sum(body.count(hook) for hook in DEVICE_HOOKS), body


CHURN = textwrap.dedent('''
    def make_adder(n: int):
        return lambda x: x + n

    fn churn(rounds: Int, size: Int) -> Int:
        var xs = List[Int]()
        for i in range(size):
            xs.append(i)
        var total = 0
        for r in range(rounds):
            var add = make_adder(r)              # a closure returned by the function that made it
            var shared = lambda i: xs[i] + r     # shares xs (by address) and keeps r
            var ys = list(map(add, xs))          # map holds a copy of xs while it runs
            for y in filter(lambda v: v % 1000 == 0, ys):
                total += shared(0) + y
        return total
''')

MEASURE = textwrap.dedent('''
    import resource, sys
    import pyx
    m = pyx.import_module("churn", path=[sys.argv[1]], target="cpu")
    m.churn(2, 100_000)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    m.churn(1000, 100_000)
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print((after - before) // 1024)
''')


def test_closures_and_map_filter_iterators_keep_memory_flat(tmp_path: Path):
    (grown,) = memory_growth_mib(tmp_path, "churn", CHURN, MEASURE)
    # Each round copies a list of 100k Ints (800 KB) into map's iterator and builds another:
    # a leak of either would grow the process by more than 800 MB over 1000 rounds.
    assert grown < 100, f"peak resident memory grew by {grown} MiB over 1000 rounds"


CELLS = textwrap.dedent('''
    from typing import Callable

    def memoize(fn):
        cache: dict[int, int] = {}

        def wrapper(n: int) -> int:
            if n not in cache:
                cache[n] = fn(n)
            return cache[n]

        return wrapper

    def square(n: int) -> int:
        return n * n

    def make_pair():
        items: list[str] = []

        def push(s: str) -> int:
            items.append(s)
            return len(items)

        def size() -> int:
            return len(items)

        return push, size

    fn churn(rounds: Int, size: Int) -> Int:
        var total = 0
        for r in range(rounds):
            var cached = memoize(square)            # a dict in a heap cell, kept by the closure
            for i in range(size):
                total += cached(i)
            var kept: Callable[[int], int] = cached  # a function value: another reference
            total += kept(3)
            var pair = make_pair()                  # two closures sharing one list's cell
            for i in range(size // 10):
                _ = pair[0]("item")
            total += pair[1]()
        return total
''')


def test_closures_keeping_containers_free_them_with_the_last_closure(tmp_path: Path):
    script = MEASURE.replace('"churn"', '"cells"').replace("(2, 100_000)", "(2, 10_000)").replace(
        "(1000, 100_000)", "(300, 10_000)")
    (grown,) = memory_growth_mib(tmp_path, "cells", CELLS, script)
    # Each round fills a dict of 10k Ints (a few hundred KB) and a list of 1k strings: a cell
    # never freed would grow the process by well over 100 MB over 300 rounds.
    assert grown < 40, f"peak resident memory grew by {grown} MiB over 300 rounds"
