"""Calling generic, unannotated and container-taking pyx functions from Python (runtime/dispatch.py):
one instance per combination of argument types, compiled on first call and cached on disk;
lists, dicts, sets, tuples and strs copied across; functions Python cannot call say why."""
import subprocess
import sys
import textwrap

import pytest

np = pytest.importorskip("numpy")

from helpers import compiled_module  # noqa: E402
from pyx.runtime import dispatch  # noqa: E402

SOURCE = textwrap.dedent('''
    def total(xs):
        s = 0
        for x in xs:
            s += x
        return s


    def fsum(xs):
        s = 0.0
        for x in xs:
            s += x
        return s


    def scale(xs, k):
        for i in range(len(xs)):
            xs[i] = xs[i] * k


    def size(xs):
        return len(xs)


    def twice(x):
        return x + x


    def count_words(words: List[String]) -> Dict[String, Int]:
        var d = Dict[String, Int]()
        for w in words:
            if w in d:
                d[w] += 1
            else:
                d[w] = 1
        return d


    fn weighted(x: Ptr[Float64], ws: List[Float64]) -> Float64:
        var s = 0.0
        for i in range(len(ws)):
            s += x[i] * ws[i]
        return s


    def pairs(d):
        out = []
        for k in d:
            out.append((k, d[k]))
        return out


    def evens(s):
        out = set()
        for x in s:
            if x % 2 == 0:
                out.add(x)
        return out


    def first(t):
        return t[0]


    fn bump(mut x: Int):
        x += 1


    @fieldwise_init
    struct Point:
        var x: Float64
        var y: Float64


    fn origin() -> Point:
        return Point(0.0, 0.0)


    def mid(a, b):
        return Point((a.x + b.x) / 2.0, (a.y + b.y) / 2.0)


    def grid_sum(g):
        s = 0.0
        for i in range(g.shape[0]):
            for j in range(g.shape[1]):
                s += g[i, j]
        return s
''')


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    with compiled_module("generic_fns", SOURCE, tmp_path_factory) as module:
        yield module


def test_an_unannotated_function_is_compiled_for_each_new_combination_of_argument_types(m):
    assert m.twice(21) == 42 and m.twice("ab") == "abab"
    assert m.twice.signatures == ["Int", "String"]
    assert type(m.twice(21)) is int


def test_numpy_arrays_are_passed_without_a_copy(m):
    xs = np.arange(5.0)
    m.scale(xs, 2.0)  # a 1-D array is a Span: the writes land in it
    assert xs.tolist() == [0.0, 2.0, 4.0, 6.0, 8.0]
    strided = np.arange(6.0)[::2]  # not contiguous: a Buffer of one dimension
    m.scale(strided, 3.0)
    assert strided.tolist() == [0.0, 6.0, 12.0]
    g = np.arange(6.0).reshape(2, 3)[:, ::2]  # a strided 2-D view is a Buffer
    assert m.grid_sum(g) == g.sum()
    assert m.scale.signatures == ["Span[Float64], Float64", "Buffer[Float64, 1], Float64"]
    assert m.grid_sum.signatures == ["Buffer[Float64, 2]"]


def test_python_containers_are_copied_in_and_out(m):
    assert m.total([1, 2, 3]) == 6
    assert m.count_words(["a", "b", "a"]) == {"a": 2, "b": 1}
    assert m.pairs({"x": 1, "y": 2}) == [("x", 1), ("y", 2)]
    assert m.evens({1, 2, 3, 4}) == {2, 4}
    assert m.first((7, "seven")) == 7
    words = ["a"]
    m.count_words(words)
    assert words == ["a"]  # a copy: the list itself is untouched


def test_an_annotated_function_taking_a_list_and_an_array_takes_each_as_declared(m):
    x = np.array([1.0, 2.0])
    assert m.weighted(x, [0.5, 0.25]) == 1.0
    assert m.weighted(x, [1, 2]) == 5.0  # ints where Float64s are declared, as for a Float64 parameter
    assert m.weighted.signatures == ["Ptr[Float64], List[Float64]"]
    with pytest.raises(TypeError, match="weighted\\(\\) argument 'x' must be Ptr\\[Float64\\]"):
        m.weighted([1.0], [1.0])


def test_structs_cross_as_python_objects_both_ways(m):
    p = m.mid(m.origin(), m.Point(2.0, 4.0))
    assert p == m.Point(1.0, 2.0) and type(p) is m.Point
    assert type(p).__module__ == "generic_fns" and type(p).__qualname__ == "Point"


def test_later_calls_go_straight_to_the_instance(m):
    assert m.twice(2) == 4 and m.total([1]) == 1
    loaded = (m.twice.instances_loaded, m.total.instances_loaded)
    assert loaded[0] >= 1 and loaded[1] >= 1
    assert m.twice(3) == 6 and m.total([4, 5]) == 9 and m.total([]) == 0  # an empty list fits List[Int]
    assert (m.twice.instances_loaded, m.total.instances_loaded) == loaded


def test_an_instance_is_loaded_from_the_disk_cache_by_the_next_process(m):
    code = textwrap.dedent(f'''
        import sys
        import pyx
        m = pyx.import_module("generic_fns", path=[{str(m.__file__.rsplit("/", 1)[0])!r}])
        print(m.first(("z", 5.5)), m.first.instances_loaded, m.first.instances_compiled)
    ''')
    from pyx.runtime import cache

    # Keys hold the compiler's fingerprint, taken once per process: where the compiler's files
    # changed since this process started, the instance is written under the key a new one computes.
    cache.compiler_fingerprint.cache_clear()
    assert m.first(("q", 1.5)) == "q"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "z 1 0\n"  # loaded, not compiled


def test_eager_compilation_with_a_signature_spelled_in_pyx_types(m):
    fn = m.fsum.compile("(List[Float64])")
    assert m.fsum.signatures == ["List[Float64]"]
    assert fn([0.5, 0.25]) == 0.75
    assert m.fsum([]) == 0.0  # an empty list fits the instance there is
    with pytest.raises(TypeError, match="Ptr\\[Int\\] cannot cross from Python"):
        m.fsum.compile("Ptr[Int]")


def test_arguments_that_cannot_cross_are_a_type_error_naming_the_parameter(m):
    with pytest.raises(TypeError, match="total\\(\\) argument 'xs': a list mixes Int and Float64"):
        m.total([1, 2.5])
    with pytest.raises(TypeError, match="twice\\(\\) argument 'x': a object cannot cross to pyx"):
        m.twice(object())
    with pytest.raises(TypeError, match=r"count_words\(\) argument 'words' must be List\[String\], not List\[Int\]"):
        m.count_words([1, 2])
    with pytest.raises(TypeError, match="cannot tell the element type of an empty container"):
        m.size([])  # no instance yet: List of what?


def test_a_body_that_does_not_compile_for_the_arguments_says_where(m):
    with pytest.raises(TypeError) as info:
        m.total(["a", "b"])  # `s = 0` then `s += x`: an Int plus a String
    assert "total() cannot be compiled for arguments (List[String])" in str(info.value)
    with pytest.raises(TypeError, match=r"total\(\) cannot be compiled for arguments \(List\[String\]\)"):
        m.total(["c"])  # the same signature again: the same error, without compiling again
    assert "generic_fns.px:5:9: error[E0202]: operator `+` is not defined for `Int` and `String`" in str(info.value)


def test_a_function_python_cannot_call_says_why(m):
    with pytest.raises(AttributeError, match=r"generic_fns\.bump cannot be called from Python: parameter 'x' is `mut`"):
        m.bump  # noqa: B018 - the attribute access is what raises
    with pytest.raises(AttributeError, match="has no attribute 'nothing_here'"):
        m.nothing_here  # noqa: B018


def test_a_module_with_module_level_variables_refuses_instances_it_would_copy(tmp_path, monkeypatch):
    from helpers import import_source

    text = "counter = 0\n\n\ndef add(x):\n    global counter\n    counter += x\n    return counter\n"
    mod = import_source("stateful", text, tmp_path, monkeypatch)
    with pytest.raises(TypeError, match=r"runs statements at import .* its own copy of them"):
        mod.add(1)


def test_pyx_check_exports_lists_every_function(tmp_path):
    (tmp_path / "ex.px").write_text("fn a(x: Int) -> Int:\n    return x\n\n\ndef b(x):\n    return x\n\n\n"
                                    "fn c(mut x: Int):\n    x += 1\n\n\n"
                                    "fn d(xs: List[Int]) -> Int:\n    return len(xs)\n")
    done = subprocess.run([sys.executable, "-m", "pyx", "check", "--exports", str(tmp_path / "ex.px")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line.split(": ", 1)[1] for line in lines] == [
        "a: exported (Int)",
        "b: compiled for each new combination of argument types on call",
        "c: not callable from Python: parameter 'x' is `mut`: Python cannot lend a variable for pyx to change "
        "(return the new value instead, or pass a NumPy array as a Span)",
        "d: exported through a conversion wrapper (List[Int])",
    ]
    assert lines[0].startswith(str(tmp_path / "ex.px") + ":1: ")


def test_signatures_parse_as_documented():
    assert dispatch.parse("(Span[Float64], Int)") == [("Span", "Float64"), "Int"]
    assert dispatch.parse("Dict[String, List[Int]], Buffer[Float32, 2]") == [
        ("Dict", "String", ("List", "Int")), ("Buffer", "Float32", 2)]
    assert dispatch.render(dispatch.type_of({"a": [(1, 2.0)]})) == "Dict[String, List[Tuple[Int, Float64]]]"
    with pytest.raises(ValueError):
        dispatch.parse("List[Int")
