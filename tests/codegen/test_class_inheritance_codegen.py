"""Inheritance (docs/semantics.md, "Inheritance"): objects of subclasses held through their base
class are freed as what they are, and seeing an object as another class of its hierarchy (every
dispatched call does) allocates nothing."""
import os
import re
import subprocess
import sys
import textwrap

from helpers import memory_growth_mib

HIERARCHY = textwrap.dedent('''
    class Shape:
        def __init__(self, n: int):
            self.items: list[int] = [n, n]

        def size(self) -> int:
            return len(self.items)


    class Big(Shape):
        def __init__(self, n: int):
            super().__init__(n)
            self.more: list[int] = [n, n, n, n, n, n, n, n]

        def size(self) -> int:
            return len(self.items) + len(self.more)


    class Bigger(Big):
        def size(self) -> int:
            return super().size() + 1


    def churn(n: int) -> int:
        total = 0
        for i in range(n):
            s: Shape = Big(i)
            total += s.size()
            if i % 3 == 0:
                s = Bigger(i)
            elif i % 3 == 1:
                s = Shape(i)
            total += s.size()
        return total
''')

MEASURE = textwrap.dedent('''
    import resource, sys
    import pyx
    m = pyx.import_module("shapes", path=[sys.argv[1]], target="cpu")
    expected = lambda n: sum(10 + (11 if i % 3 == 0 else 2 if i % 3 == 1 else 10) for i in range(n))
    assert m.churn(1000) == expected(1000)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    assert m.churn(1_000_000) == expected(1_000_000)
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print((after - before) // 1024)
''')


def test_subclass_objects_held_as_their_base_are_freed(tmp_path):
    # A Big freed as a Shape would leak its `more` list: 10^6 of them, well over 100 MiB.
    (grown,) = memory_growth_mib(tmp_path, "shapes", HIERARCHY, MEASURE)
    assert grown < 32


def test_casts_and_dispatch_allocate_nothing(tmp_path):
    # Seeing a Big as a Shape (or back) is the same address under another type: a dispatched
    # call makes one, so an allocation there would cost a malloc and a free per call.
    source = tmp_path / "shapes.px"
    source.write_text(HIERARCHY + "\n\ndef main():\n    print(churn(10))\n")
    out = tmp_path / "shapes.s"
    done = subprocess.run([sys.executable, "-m", "pyx", "build", "--emit=asm", str(source), "-o", str(out)],
                          capture_output=True, text=True, env=dict(os.environ, PYX_NO_CACHE="1"))
    assert done.returncode == 0, done.stderr
    bodies: dict[str, list[str]] = {}
    name = ""
    for line in out.read_text().splitlines():
        label = re.match(r"^([\w.$]+):", line)
        if label and not line.startswith("."):
            name = label.group(1)
        bodies.setdefault(name, []).append(line)
    casts = [n for n in bodies if re.match(r"shapes\.\w+\.(__pyx_up_|__pyx_down_|size)", n)]
    assert casts, f"no conversion or dispatched method among {sorted(bodies)[:20]}"
    for n in casts:
        assert not any("malloc" in line for line in bodies[n]), n
