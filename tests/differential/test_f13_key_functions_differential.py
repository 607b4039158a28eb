"""Random programs against CPython for `key=` and `reverse=` (session 13): `sorted`, `list.sort`,
`min` and `max` of random lists of ints, of strs and of (int, str) tuples, with a key that is a
builtin (`abs`, `len`, `str.lower`), a module `def`, a lambda (returning an int, a tuple or an item of
a tuple), a dict's `get`; `reverse=` both ways (a stable sort keeps equal keys in their order either
way); `min`/`max` of several arguments with a key, and of a maybe-empty list with `default=` (without
`key=`: both at once are E0363).
pyx must print what CPython prints (tests/helpers.py `prints_as_python`)."""
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import prints_as_python

_HEALTH = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
_SETTINGS = settings(max_examples=3, deadline=None, suppress_health_check=_HEALTH)

INTS = st.lists(st.integers(-12, 12), max_size=9)
WORDS = st.lists(st.text(alphabet="abAB", min_size=0, max_size=4), max_size=7)
PAIRS = st.lists(st.tuples(st.integers(-3, 3), st.text(alphabet="xyz", max_size=2)), max_size=6)
INT_KEYS = st.sampled_from(["abs", "neg", "lambda v: v % 4", "lambda v: (v % 3, -v)", "lambda v: v * v",
                            "lambda v: str(v)"])
WORD_KEYS = st.sampled_from(["len", "str.lower", "lambda w: (len(w), w)", "lambda w: w[::-1]",
                             "lambda w: w.count('a')", "str.upper"])
PAIR_KEYS = st.sampled_from(["lambda p: p[0]", "lambda p: p[1]", "lambda p: (p[1], -p[0])", "lambda p: len(p[1])"])

HEAD = ("def neg(v: int) -> int:",
        "    return -v",
        "",
        "")


def _program(body: list[str]) -> str:
    return "\n".join([*HEAD, "def main():", *("    " + line for line in body), "", "",
                      'if __name__ == "__main__":', "    main()", ""])


def _lines(name: str, key: str, reverse: bool, default: str) -> list[str]:
    return [f"print(sorted({name}, key={key}), sorted({name}, key={key}, reverse={reverse}))",
            f"print(sorted({name}, reverse={reverse}), sorted({name}, key={key}, reverse=not {reverse}))",
            f"print(min({name}, key={key}) if {name} else {default}, max({name}, key={key}) if {name} else {default})",
            f"print(min({name}, default={default}), max({name}, default={default}))",
            f"if {name}:",
            f"    print(min({name}, key={key}), max({name}, key={key}), min({name}), max({name}))",
            f"if len({name}) >= 2:",
            f"    print(max({name}[0], {name}[-1], key={key}), min({name}[-1], {name}[0], key={key}))",
            f"copy_{name} = list({name})",
            f"copy_{name}.sort(key={key}, reverse={reverse})",
            f"print(copy_{name})",
            f"copy_{name}.sort()",
            f"print(copy_{name} == sorted(copy_{name}), copy_{name})"]


@_SETTINGS
@given(INTS, INT_KEYS, st.booleans(), WORDS, WORD_KEYS, st.booleans(), PAIRS, PAIR_KEYS, st.booleans())
def test_key_functions_print_as_python(tmp_path, xs, int_key, int_rev, ws, word_key, word_rev, ps, pair_key,
                                       pair_rev):
    body = [f"xs: list[int] = {xs!r}", f"ws: list[str] = {ws!r}", f"ps: list[tuple[int, str]] = {ps!r}",
            *_lines("xs", int_key, int_rev, "-99"),
            *_lines("ws", word_key, word_rev, "'none'"),
            *_lines("ps", pair_key, pair_rev, "(0, '')"),
            "counts: dict[str, int] = {}",
            "for w in ws:",
            "    counts[w] = counts.get(w, 0) + len(w) % 3",
            "print(sorted(counts, key=counts.get), sorted(counts, key=lambda k: counts[k], reverse=True))",
            "print(max(counts, key=counts.get) if counts else '-', sorted(counts.items(), key=lambda kv: kv[1]))"]
    text = _program(body)
    prints_as_python(text, text, tmp_path)
