"""`Callable[[Point], int]` is made of the `Point` its module means (issue 15 item 4, types by
declaration, not by name): two modules that each declare a `Point` and take functions of it have
two function types, though both read the same. They were one type, kept by its text, so the second
module's `Callable[[Point], int]` took the first one's `Point` and a valid program was refused
("expected `prog.Point`, found `a.Point`")."""
from pathlib import Path

from helpers import file_prints_as_cpython

MODULE_A = """\
from dataclasses import dataclass
from typing import Callable


@dataclass
class Point:
    x: int
    y: int


def apply_a(f: Callable[[Point], int], p: Point) -> int:
    return f(p)


def xa(p: Point) -> int:
    return p.x * 10 + p.y


def run_a() -> int:
    g: Callable[[Point], int] = xa
    return apply_a(g, Point(1, 2))
"""

PROGRAM = """\
from dataclasses import dataclass
from typing import Callable

import a


@dataclass
class Point:
    name: str
    w: float


def apply_b(f: Callable[[Point], int], p: Point) -> int:
    return f(p)


def wb(p: Point) -> int:
    return len(p.name) + int(p.w)


def main() -> None:
    print(a.run_a())
    print(apply_b(wb, Point("abc", 2.5)))
    g: Callable[[Point], int] = wb
    print(g(Point("hello", 1.0)))


if __name__ == "__main__":
    main()
"""


def test_two_modules_points_make_two_callable_types(tmp_path: Path):
    (tmp_path / "a.px").write_text(MODULE_A)
    (tmp_path / "a.py").write_text(MODULE_A)  # CPython's twin of the module
    (tmp_path / "prog.px").write_text(PROGRAM)
    file_prints_as_cpython(tmp_path / "prog.px")

