"""Random programs against CPython for constructs that had goldens and twins only (session 11's
and session 12's everyday Python):

- `print(*xs, sep=..., end=...)`, with items before and after the unpacked ones, of any length;
- `@classmethod` factories (`cls(...)`) called on a base class and on a subclass;
- `opt or default` of a "T or None" (`d.get(k) or d0`, a finder's `str | None` or a default);
- `map`/`filter` over a range, a str, a tuple and a dict;
- `math.log(x, base)`;
- unpacking a generator expression, with CPython's count errors;
- a list or dict as a parameter's default, shared by the calls that leave it out, and
  `acc: list[int] | None = None` with `if acc is None: acc = []`, a new one at each call;
- `is` of lists where the source shows the answer, and builtins over empty displays.
pyx must print what CPython prints (tests/helpers.py `prints_as_python`)."""
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import prints_as_python

_HEALTH = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
_SETTINGS = settings(max_examples=3, deadline=None, suppress_health_check=_HEALTH)

INTS = st.integers(-9, 9)
WORDS = st.text(alphabet="ab z'", min_size=0, max_size=3)
SEPS = st.sampled_from(["", " ", ", ", "-", "\\n", "|"])


def _program(body: list[str], head: tuple[str, ...] = ()) -> str:
    return "\n".join([*head, "def main():", *("    " + line for line in body), "", "",
                      'if __name__ == "__main__":', "    main()", ""])


def _same(text: str, tmp_path) -> None:
    prints_as_python(text, text, tmp_path)


@_SETTINGS
@given(st.lists(INTS, max_size=4), st.lists(WORDS, max_size=3), SEPS, SEPS, st.booleans())
def test_print_unpacked_prints_as_python(tmp_path, xs, words, sep, end, around):
    before, after = ('"<", ', ', ">"') if around else ("", "")
    body = [f"xs: list[int] = {xs!r}", f"words: list[str] = {words!r}",
            f'print({before}*xs{after}, sep="{sep}", end="{end}")', "print()",
            f'print(*words, *xs, sep="{sep}")', f"print(*xs, end=\"{end}\")", "print(*range(len(xs)))",
            f'print(*(x * 2 for x in xs), sep="{sep}")']
    _same(_program(body), tmp_path)


@_SETTINGS
@given(INTS, INTS, st.integers(1, 4))
def test_classmethod_factories_print_as_python(tmp_path, a, b, scale):
    head = ("class Shape:",
            "    made = 0",
            "",
            "    def __init__(self, size: int):",
            "        self.size = size",
            "",
            "    @classmethod",
            "    def of(cls, size: int):",
            "        Shape.made += 1",
            "        return cls(size)",
            "",
            "    @classmethod",
            "    def unit(cls):",
            f"        return cls.of({scale})",
            "",
            "    def area(self) -> int:",
            "        return self.size * self.size",
            "",
            "",
            "class Square(Shape):",
            "    def area(self) -> int:",
            f"        return self.size * {scale}",
            "",
            "")
    body = [f"s = Shape.of({a})", f"q = Square.of({b})", "u = Square.unit()",
            "print(s.area(), q.area(), u.area(), u.size)",
            "print(type(s).__name__, type(q).__name__, type(u).__name__, Shape.made)"]
    _same(_program(body, head), tmp_path)


@_SETTINGS
@given(st.dictionaries(st.sampled_from("abcd"), st.integers(0, 2), max_size=4), st.sampled_from("abcde"),
       INTS, st.lists(WORDS, max_size=4), WORDS)
def test_optional_or_default_prints_as_python(tmp_path, d, key, fallback, words, wanted):
    head = ("def find(words: list[str], w: str) -> str | None:",
            "    for x in words:",
            "        if x == w:",
            "            return x",
            "    return None",
            "",
            "")
    body = [f"d: dict[str, int] = {d!r}", f"words: list[str] = {words!r}",
            f"print(d.get({key!r}) or {fallback}, d.get('a') or -1)",
            f"print(find(words, {wanted!r}) or 'none', repr(find(words, {wanted!r}) or ''))",
            "for k in 'abcde':", f"    print(k, d.get(k) or {fallback})"]
    _same(_program(body, head), tmp_path)


@_SETTINGS
@given(st.integers(-3, 3), st.integers(0, 6), st.integers(1, 3), st.text(alphabet="abC1 ", max_size=5),
       st.lists(INTS, min_size=1, max_size=4), st.dictionaries(st.sampled_from("xyz"), INTS, max_size=3), INTS)
def test_map_filter_over_iterables_print_as_python(tmp_path, start, stop, step, s, t, d, k):
    body = [f"t = {tuple(t)!r}", f"d: dict[str, int] = {d!r}",
            f"print(list(map(lambda i: i * {k}, range({start}, {stop}, {step}))))",
            f"print(list(filter(lambda i: i % 2 == 0, range({start}, {stop}))))",
            f"print(list(map(str.upper, {s!r})), list(filter(lambda c: c != ' ', {s!r})))",
            f"print(list(map(lambda x: x - {k}, t)), list(filter(lambda x: x > {k}, t)))",
            "print(list(map(lambda key: key + '!', d)), list(filter(lambda key: d[key] > 0, d)))",
            "print(sum(map(abs, t)), max(map(lambda x: x * x, t)))"]
    _same(_program(body), tmp_path)


@_SETTINGS
@given(st.lists(st.sampled_from([1.0, 2.0, 8.0, 10.0, 1000.0, 0.5, 3.75, 1e-3, 2.0 ** 20]), min_size=1, max_size=4),
       st.lists(st.sampled_from([1, 2, 8, 9, 10, 100, 1024]), min_size=1, max_size=3),
       st.sampled_from([2, 10, 3, 0.5, 2.5, 16]))
def test_math_log_base_prints_as_python(tmp_path, xs, ns, base):
    body = [f"for x in {xs!r}:", f"    print(math.log(x, {base!r}), math.log(x), math.log(x, 2) == math.log2(x))",
            f"for n in {ns!r}:", f"    print(math.log(n, {base!r}), math.log(n, n + 1))"]
    _same(_program(body, ("import math", "", "")), tmp_path)


@_SETTINGS
@given(st.lists(st.integers(0, 99), min_size=0, max_size=4), st.integers(1, 3))
def test_unpacking_a_generator_prints_as_python(tmp_path, xs, k):
    body = [f"parts: list[str] = {[str(x) for x in xs]!r}",
            "try:",
            f"    a, b, c = (int(p) * {k} for p in parts)",
            "    print(a, b, c)",
            "except ValueError as e:",
            "    print('ValueError:', e)",
            "try:",
            "    first, second = (p + '!' for p in parts)",
            "    print(first, second)",
            "except ValueError as e:",
            "    print('ValueError:', e)"]
    _same(_program(body), tmp_path)


@_SETTINGS
@given(st.lists(st.tuples(st.integers(0, 9), st.booleans()), min_size=1, max_size=6))
def test_shared_default_prints_as_python(tmp_path, calls):
    head = ("def note(x: int, seen: list[int] = []) -> int:",
            "    seen.append(x)",
            "    return len(seen)",
            "",
            "",
            "def counted(k: int, counts: dict[int, int] = {}) -> int:",
            "    counts[k] = counts.get(k, 0) + 1",
            "    return counts[k]",
            "",
            "",
            "def fresh(x: int, acc: list[int] | None = None) -> list[int]:",
            "    if acc is None:",
            "        acc = []",
            "    acc.append(x)",
            "    return acc",
            "",
            "")
    body = ["mine: list[int] = []"]
    for x, own in calls:
        body += [f"print(note({x}, mine), mine)", f"print(fresh({x}, mine))", "print(mine)"] if own \
            else [f"print(note({x}), counted({x % 3}), fresh({x}), fresh({x}, [{x}]), fresh({x}, acc=None))"]
    _same(_program(body, head), tmp_path)


@_SETTINGS
@given(st.lists(INTS, max_size=3), st.booleans(), st.booleans())
def test_list_identity_and_empty_displays_print_as_python(tmp_path, xs, alias, dict_too):
    body = [f"a: list[int] = {xs!r}", "b = a" if alias else "b = a.copy()", "c = list(a)",
            "print(a is b, a is not b, a is c, b is c, a is [1], a[:] is a, a == b)",
            "print(any([]), all(()), sum([]), len(()), max([], default=len(a)), min((), default=-1))",
            "print(*[], sep='-')"]
    if dict_too:
        body += ["d = {'k': len(a)}", "e = d" if alias else "e = dict(d)", "print(d is e, d is {'k': 0})"]
    _same(_program(body), tmp_path)
