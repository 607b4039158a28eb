"""String at the boundary: a Python str passes to a `String` (or `str`) parameter as its UTF-8
bytes, lent for the call; a String result comes back as a str, and the module gets its memory
back at once."""
import resource

import pytest

import pyx
from helpers import compiled_module

MODULE = '''
fn greet(name: String, times: Int = 1) -> String:
    """Hello, repeated."""
    var out = String("")
    for _ in range(times):
        out += "hello, " + name + "! "
    return out.strip()


fn length(text: String) -> Int:
    return len(text)


fn shout(text: str) -> str:
    return text.upper() + "!"


fn pick(text: String, i: Int) -> String:
    return text[i]


fn same(text: String) -> String:
    return text


fn keep(var text: String) -> Int:
    return len(text)


fn to_int(text: String) raises -> Int:
    return int(text)


fn to_float(text: String) raises -> Float64:
    return float(text)
'''


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    with compiled_module("strings", MODULE, tmp_path_factory) as module:
        yield module


def test_str_in_and_out(m):
    assert m.greet("wörld", 2) == "hello, wörld! hello, wörld!"
    assert m.greet("", 0) == "" and m.greet(name="x") == "hello, x!"
    assert m.length("héllo") == 5 and m.shout("abc") == "ABC!" and m.pick("h🐍llo", 1) == "🐍"


@pytest.mark.parametrize("text", ["", "a\x00b", "🐍" * 1000, "tab\tnew\nline", "\udc80"])
def test_text_round_trips_unchanged(m, text):
    assert m.same(text) == text
    assert m.length(text) == len(text)


def test_errors_name_the_parameter_and_leave_the_module_usable(m):
    with pytest.raises(TypeError, match=r"length\(\) argument 'text' must be String \(a str\), not int"):
        m.length(3)
    with pytest.raises(TypeError, match="not bytes"):
        m.length(b"abc")
    with pytest.raises(IndexError, match="string index out of range"):
        m.pick("abc", 5)
    assert m.pick("abc", -1) == "c"
    assert "greet(name: String, times: Int = 1) -> String" in m.greet.__doc__


def test_a_function_taking_ownership_of_a_string_is_not_exported(m):
    assert not hasattr(m, "keep")


def test_results_give_their_memory_back(m):
    def peak_kib() -> int:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

    m.greet("x" * 10_000, 10)
    before = peak_kib()
    for _ in range(2000):
        m.greet("x" * 10_000, 10)  # 100 kB made and dropped each time: 200 MB if it leaked
    assert peak_kib() - before < 50_000


def test_int_and_float_of_text_follow_python_within_int64(m):
    for text in ["9223372036854775807", "-9223372036854775808", " 1_2 ", "-0"]:
        assert m.to_int(text) == int(text)
    for text in ["9223372036854775808", "-9223372036854775809", "1" * 30]:
        with pytest.raises(pyx.ProgramStopped, match="int too large for pyx's 64-bit int"):
            m.to_int(text)  # Python's int has no limit; pyx's Int has 64 bits: no Exception to handle
    for text in ["1e308", "-1e-320", "NaN", " 2.5 ", "1_0.0_1"]:
        value = m.to_float(text)
        assert value == float(text) or (value != value and text == "NaN")
    with pytest.raises(ValueError, match=r"could not convert string to float: '0x10'"):
        m.to_float("0x10")

