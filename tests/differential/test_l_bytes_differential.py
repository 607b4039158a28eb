"""Random byte strings through bytes operations against CPython: literals (every byte value, so
every escape `repr` writes), `len`, indexing, slicing with steps, iteration, comparisons, `in`
(a byte value and a sub-bytes), `+`, `*`, `hash` (CPython's, with PYTHONHASHSEED=0, which
tests/conftest.py sets), `hex`/`fromhex`, `split`/`strip`/`startswith`/`find`/`count`/`replace`/
`join`/`upper`, dict keys and sets of bytes, and `decode` under utf-8, ascii and latin-1 with the
three error handlers (valid and invalid UTF-8 alike, so UnicodeDecodeError's messages are
compared too), and `str.encode` back. Each example is one program of many lines, run by pyx and
by CPython, which must print the same."""
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import prints_as_python

# Bytes that make UTF-8 interesting (ASCII, continuation bytes, lead bytes of 2-4 byte forms and
# the ones never valid), quotes and backslashes (repr's choice of quote), and whitespace.
interesting = st.sampled_from([0, 9, 10, 13, 32, 34, 39, 92, 97, 98, 44, 0x7F, 0x80, 0xA9, 0xBF, 0xC0, 0xC3,
                               0xE2, 0x82, 0xAC, 0xED, 0xA0, 0xF0, 0x9F, 0x98, 0xF4, 0x90, 0xFF])
data = st.binary(max_size=8) | st.lists(interesting, max_size=8).map(bytes)
text = st.text(alphabet=st.sampled_from(list("ab, é€😀")), max_size=6)

SHOW = '''def show(a: bytes, b: bytes, s: str) -> None:
    print(a, b, repr(a), str(b), len(a), a + b, a * 2, a == b, a != b, a < b, a <= b, a > b, a >= b)
    print([x for x in a], list(b[::-1]), a[1:], a[:-1], a[::2], a[1:5:2], b in a, a in a + b, hash(a), hash(b))
    if a:
        print(a[0], a[-1], a[0] in b, a.hex(), bytes.fromhex(a.hex()) == a, sorted([b, a, a + b]))
        print(b.split(a[:1]), b.count(a[:1]), b.find(a[:1]), b.startswith(a[:1]), b.endswith(a[-1:]))
        print(b.replace(a[:1], b"-"), a[:1].join([b, b]))
    print(a.split(), a.strip(), a.lstrip(), a.rstrip(), a.upper(), a.lower(), bytes(list(a)) == a)
    counts: dict[bytes, int] = {}
    for w in (a + b" " + b).split():
        counts[w] = counts.get(w, 0) + 1
    print(counts, {a, b}, len({a, b, a}))
    for enc in ["utf-8", "ascii", "latin-1"]:
        for errors in ["strict", "replace", "ignore"]:
            try:
                print(repr(a.decode(enc, errors)))
            except UnicodeDecodeError as e:
                print("UnicodeDecodeError:", e)
            try:
                print(s.encode(enc, errors))
            except UnicodeEncodeError as e:
                print("UnicodeEncodeError:", e)
    print(s.encode().decode() == s, bytes(s, "utf-8"))


'''


def _program(cases, pyx: bool) -> str:
    body = "\n".join(f"    show({a!r}, {b!r}, {s!r})" for a, b, s in cases)
    return SHOW + f"def main():\n{body}\n\n\n" + ("" if pyx else "main()\n")


def _check(cases, tmp_path):
    prints_as_python(_program(cases, pyx=True), _program(cases, pyx=False), tmp_path)


_HEALTH = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]


@settings(max_examples=3, deadline=None, suppress_health_check=_HEALTH)
@given(st.lists(st.tuples(data, data, text), min_size=1, max_size=8))
def test_bytes_operations_match_python(tmp_path, cases):
    _check(cases, tmp_path)


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=_HEALTH)
@given(st.lists(st.tuples(data, data, text), min_size=10, max_size=30))
def test_many_bytes_operations_match_python(tmp_path, cases):
    _check(cases, tmp_path)
