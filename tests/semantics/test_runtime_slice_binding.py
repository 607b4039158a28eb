"""A module loads stdlib/zip_rows.px's `tuple_items` (semantics/tuples.py `runtime_slice`) only where a
slice has a bound that is not written as a number: `xs[1:-1]` and `t[::2]` load nothing more,
`t[:n]` does."""
from pyx.diagnostics import DiagnosticBag
from pyx.semantics.module import uses_summary
from pyx.source import SourceFile
from pyx.syntax import parse


def _wants_runtime_slices(code: str) -> bool:
    return bool(uses_summary(parse(SourceFile("prog.px", code), DiagnosticBag())).get("runtime_slices"))


def test_slices_with_number_bounds_load_nothing_more():
    assert not _wants_runtime_slices("def f(xs: list[int]) -> list[int]:\n    return xs[1:-1] + xs[::2] + xs[:]\n")


def test_a_slice_with_a_bound_only_the_run_knows_loads_tuple_items():
    assert _wants_runtime_slices("def f(n: int) -> None:\n    print((16, 8, 0)[:3 - n])\n")
    assert _wants_runtime_slices("def f(xs: list[int], k: int) -> list[int]:\n    return xs[::k]\n")
