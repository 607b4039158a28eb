"""Random programs against CPython for two features of session 7 that had goldens only:

- `zip(*m)` (semantics/zip_rows.py): random matrices of ints or strs, ragged rows included (zip
  stops at the shortest), a list of strs (each str a row of its characters) and a tuple of rows;
  the columns printed, listed, measured, summed, sorted, compared, and turned back into lists;
- lazy `islice`, `takewhile` and `dropwhile` (semantics/lazy_itertools.py) over lists, finite
  generators and an endless generator (read only as far as CPython's iterator reads it), with
  random bounds, steps and thresholds, and a generator that prints as it yields, so the order
  in which the items are pulled shows too.
pyx must print what CPython prints."""
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import prints_as_python

_HEALTH = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]

INTS = st.integers(-9, 9)
STRS = st.text(alphabet="ab'z ", min_size=0, max_size=2)


@st.composite
def matrices(draw):
    strs = draw(st.booleans())
    rows = draw(st.integers(1, 4))
    width = draw(st.integers(0, 4))
    ragged = draw(st.booleans())
    m = []
    for _ in range(rows):
        n = draw(st.integers(0, width)) if ragged else width
        m.append([draw(STRS if strs else INTS) for _ in range(n)])
    if not any(m):  # (`[[], []]` is E0007 even annotated: its rows' type is not taken from the annotation)
        m[0].append(draw(STRS if strs else INTS))
    words = draw(st.lists(st.text(alphabet="xyz", min_size=0, max_size=4), min_size=1, max_size=3))
    return strs, m, words


def _zip_program(strs: bool, m: list, words: list) -> str:
    lines = [
        "def main():",
        f"    m: list[list[{'str' if strs else 'int'}]] = {m!r}",  # (annotated: a row may be `[]`)
        "    cols = list(zip(*m))",
        "    print(cols, len(cols))",
        "    for col in zip(*m):",
        "        print(col, len(col), list(col), col == col, sorted(col))",
        "    print([list(c) for c in zip(*m)], sorted(zip(*m)))",
        f"    words = {words!r}",
        "    print(list(zip(*words)))",
        "    for chars in zip(*words):",
        "        print(''.join(list(chars)), chars)",
    ]
    if not strs:
        lines += [
            "    print([sum(c) for c in zip(*m)], [max(c) for c in zip(*m) if c])",
            "    t = (m[0], m[-1])",
            "    print(list(zip(*t)))",
        ]
    lines += ["", "", 'if __name__ == "__main__":', "    main()", ""]
    return "\n".join(lines)


@settings(max_examples=4, deadline=None, suppress_health_check=_HEALTH)
@given(matrices())
def test_zip_of_rows_prints_as_python(tmp_path, case):
    text = _zip_program(*case)
    prints_as_python(text, text, tmp_path)


@st.composite
def lazy_cases(draw):
    xs = draw(st.lists(INTS, min_size=0, max_size=8))
    start = draw(st.integers(0, 4))
    stop = draw(st.integers(start, 10))
    step = draw(st.integers(1, 3))
    limit = draw(st.integers(-5, 6))
    a, b = draw(st.integers(1, 3)), draw(st.integers(-3, 3))
    return xs, start, stop, step, limit, a, b


def _lazy_program(xs, start, stop, step, limit, a, b) -> str:
    lines = [
        "from itertools import dropwhile, islice, takewhile",
        "",
        "",
        "def naturals():",
        "    i = 0",
        "    while True:",
        f"        yield i * {a} + {b}",
        "        i += 1",
        "",
        "",
        "def loud(xs):",
        "    for x in xs:",
        "        print('yield', x)",
        "        yield x",
        "",
        "",
        "def main():",
        f"    xs: list[int] = {xs!r}",
        f"    print(list(islice(xs, {stop})), list(islice(xs, {start}, {stop})), "
        f"list(islice(xs, {start}, {stop}, {step})))",
        f"    print(list(islice(naturals(), {start}, {stop}, {step})))",
        f"    print(list(takewhile(lambda v: v < {limit}, xs)), list(dropwhile(lambda v: v < {limit}, xs)))",
        f"    print(list(takewhile(lambda v: v < {limit} + 6, naturals())))",
        f"    print(list(islice(dropwhile(lambda v: v < {limit}, naturals()), {stop - start})))",
        f"    for v in islice(loud(xs), {start}, {stop}, {step}):",
        "        print('got', v)",
        f"    for v in takewhile(lambda v: v != {limit}, loud(xs)):",
        "        print('took', v)",
        f"    print(sum(dropwhile(lambda v: v <= {limit}, loud(xs))))",
        "",
        "",
        'if __name__ == "__main__":',
        "    main()",
        "",
    ]
    return "\n".join(lines)


@settings(max_examples=4, deadline=None, suppress_health_check=_HEALTH)
@given(lazy_cases())
def test_lazy_itertools_print_as_python(tmp_path, case):
    text = _lazy_program(*case)
    prints_as_python(text, text, tmp_path)
