"""A String that shares bytes it does not own (a one-character ASCII string, a literal of the
program: capacity 0, stdlib/string.px `_set_ascii`, `_literal`) comes back to Python as a str,
and the bridge leaves those bytes alone: it gives back only memory the String owns."""
import pytest

from helpers import compiled_module

MODULE = '''
fn letter(text: String, i: Int) -> String:
    return text[i]


fn word() -> String:
    return "shared literal"


fn code(i: Int) raises -> String:
    return chr(i)


fn first_of_each(text: String) -> String:
    var out = String("")
    for c in text:
        out = c
    return out


fn grown(text: String) -> String:
    var c = text[0]
    c += "!"
    return c
'''


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    with compiled_module("t6_shared_strings", MODULE, tmp_path_factory) as module:
        yield module


def test_shared_strings_come_back_and_stay_intact(m):
    # Many round trips: freeing bytes a String does not own would abort the process or corrupt
    # the next results.
    for _ in range(2000):
        assert m.letter("pyx", 1) == "y" and m.letter("é!", -1) == "!" and m.letter("aé", 1) == "é"
        assert m.word() == "shared literal"
        assert m.code(65) == "A" and m.code(955) == "λ"
        assert m.first_of_each("abc") == "c" and m.grown("xy") == "x!"
