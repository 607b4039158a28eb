"""Pairs of random strings through the operations scripts use on two strings against CPython:
`+`, `*`, comparisons, `in`, `count`, `find`, `replace`, `split`, `partition`, `strip(chars)`,
`join`, indexing and slicing (one-character strings taken out and then changed), a dict counting
characters (str keys: Dict's own hash) and sets of characters and words (printed in CPython's
order with PYTHONHASHSEED=0, which tests/conftest.py sets: Set keeps CPython's str hash). Each
example is one program printing many lines, run by pyx and by CPython, which must print the same."""
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import prints_as_python

text = st.text(alphabet=st.sampled_from(list("ab ab\té.ßΣ")), max_size=7)

SHOW2 = '''def show2(a: str, b: str) -> None:
    print(repr(a), repr(b), a + b, a * 3, a < b, a == b, a <= b, a > b, max(a, b), sorted([b, a, a + b]))
    print(a in b, b.count(a), b.find(a), b.rfind(a), b.startswith(a), b.endswith(a), b.replace(a, "-"))
    print(repr(b.strip(a)), repr(b.lstrip(a)), repr(b.rstrip(a)), "-".join([a, b, a]), a.join([b, b]), list(a))
    if a:
        print(b.split(a), b.partition(a), b.rpartition(a), b.replace(a, "", 1), b.split(a, 1))
    if b:
        c = b[0]
        c += a
        d = b[-1]
        d = d.upper() + d
        print(b[len(b) // 2], b[1:3], b[::-1], b[::2], b[-2:], c, d, ord(b[0]), chr(ord(b[0])) == b[0])
    counts: dict[str, int] = {}
    for ch in a + b:
        counts[ch] = counts.get(ch, 0) + 1
    print(counts, sorted(counts.items()), len(counts))
    s1 = set(a)
    s2 = set(b)
    print(s1 | s2, s1 & s2, s1 - s2, s1 ^ s2, s1 <= s2, s1 < s1 | s2, sorted(s1 ^ s2), len(s1 | s2))
    w1 = set(a.split()) | {b}
    w2 = {x for x in b.split(a) if x} if a else set(b.split())
    print(w1, w2, w1 & w2, w1 - w2, sorted(w1 | w2))


'''


def _program(pairs, pyx: bool) -> str:
    body = "\n".join(f"    show2({a!r}, {b!r})" for a, b in pairs)
    return SHOW2 + f"def main():\n{body}\n\n\n" + ("" if pyx else "main()\n")


def _check(pairs, tmp_path):
    prints_as_python(_program(pairs, pyx=True), _program(pairs, pyx=False), tmp_path)


_HEALTH = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]


@settings(max_examples=3, deadline=None, suppress_health_check=_HEALTH)
@given(st.lists(st.tuples(text, text), min_size=1, max_size=8))
def test_string_pairs_match_python(tmp_path, pairs):
    _check(pairs, tmp_path)


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=_HEALTH)
@given(st.lists(st.tuples(text, text), min_size=10, max_size=30))
def test_many_string_pairs_match_python(tmp_path, pairs):
    _check(pairs, tmp_path)
