"""Functions chosen at run time (semantics/function_values.py): a call through a function whose
identity the compiler knows stays a direct call; a call through a `Callable[[...], R]` value is
an indirect call of its thunk; and the environments and heap cells those values hold are freed
exactly once, by whichever lets go last."""
import re
import textwrap
from pathlib import Path

from helpers import memory_growth_mib, run_cli

CHOICE = textwrap.dedent('''
    def inc(x: int) -> int:
        return x + 1


    def dec(x: int) -> int:
        return x - 1


    def known(xs: list[int]) -> int:
        f = inc
        total = 0
        for x in xs:
            total += f(x)
        return total


    def chosen(xs: list[int], up: bool) -> int:
        f = inc if up else dec
        total = 0
        for x in xs:
            total += f(x)
        return total


    def main():
        print(known([1, 2]), chosen([1, 2], False))


    if __name__ == "__main__":
        main()
''')


def _function(text: str, start: str, end: str) -> str:
    """The part of `text` from the line that starts with `start` to the next line starting with `end`."""
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith(start))
    rest = lines[at:]
    return "\n".join(rest[:next(i for i, line in enumerate(rest) if line.startswith(end) and i > 0) + 1])


def test_known_function_is_called_directly_and_a_chosen_one_indirectly(tmp_path: Path):
    src = tmp_path / "choice.px"
    src.write_text(CHOICE)
    ir = run_cli("build", "--emit=ir", str(src))
    assert ir.status == 0, ir.stderr
    known = _function(ir.stdout, "fn @choice.known(", "}")
    assert "call @choice.inc(" in known and "call_indirect" not in known and "Callable" not in known
    chosen = _function(ir.stdout, "fn @choice.chosen(", "}")
    assert "call @choice.Callable[[Int], Int].__call__(" in chosen
    call = _function(ir.stdout, "fn @choice.Callable[[Int], Int].__call__(", "}")
    assert "call_indirect" in call
    # In machine code: `known` has inc inlined (no call through a register); `chosen` calls
    # through one, the function value's code address.
    asm = run_cli("build", "--emit=asm", str(src))
    assert asm.status == 0, asm.stderr
    indirect = r"call\w*\s+\*"
    assert not re.search(indirect, _function(asm.stdout, "choice.known:", ".Lfunc_end"))
    assert re.search(indirect, _function(asm.stdout, "choice.chosen:", ".Lfunc_end"))


CHURN = textwrap.dedent('''
    from typing import Callable


    class Box:
        def __init__(self, v: int):
            self.v = v
            self.items: list[int] = [v, v + 1]

        def get(self, k: int) -> int:
            return self.v + k + len(self.items)


    def counter():
        c = 0
        def inc() -> int:
            nonlocal c
            c += 1
            return c
        return inc


    def adder(n: int) -> Callable[[int], int]:
        return lambda x: x + n


    def churn(rounds: int) -> int:
        s = 0
        for i in range(rounds):
            b = Box(i)
            f: Callable[[int], int] = b.get     # holds the object
            g = counter()                       # its own heap cell, returned
            h = adder(i)                        # a Callable result
            d = {"f": f, "h": h}
            fs = [f, h, lambda x: x * 2]
            s += d["f"](1) + d["h"](1) + g() + g() + fs[2](3) + fs[0](0)
        return s
''')

MEASURE = textwrap.dedent('''
    import resource, sys
    import pyx
    m = pyx.import_module("churn", path=[sys.argv[1]], target="cpu")
    assert m.churn(10) == 3 * 45 + 15 * 10
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    rounds = 1_000_000
    assert m.churn(rounds) == 3 * rounds * (rounds - 1) // 2 + 15 * rounds
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print((after - before) // 1024)
''')


def test_a_million_function_values_and_closures_keep_memory_flat(tmp_path: Path):
    (grown,) = memory_growth_mib(tmp_path, "churn", CHURN, MEASURE)
    # Each round makes an object, two heap cells' worth of closures and four environments
    # (well over 100 bytes): a leak of any of them would grow the process by over 100 MiB.
    assert grown < 32, f"peak resident memory grew by {grown} MiB over a million rounds"
