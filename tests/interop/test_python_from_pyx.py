"""Python objects used from pyx (stdlib/python.px): reference counts stay exact, a million
operations keep memory flat, Python's exceptions become pyx ones and come back to Python as
themselves, and calls from several Python threads at once take the GIL in turn."""
import sys
import textwrap
from concurrent.futures import ThreadPoolExecutor

import pytest

from helpers import compiled_module, memory_growth_mib

MODULE = '''
fn use(obj: PythonObject, rounds: Int) raises:
    var builtins = Python.import_module("builtins")
    for round in range(rounds):
        var copy = obj
        var kind = obj.__class__
        var again = builtins.id(copy)
        var listed = builtins.list(builtins.range(3))
        var item = listed[1] + round


fn refcounts_unchanged(rounds: Int) raises -> Bool:
    """Copies, attribute reads, calls and temporaries each take and give back their references."""
    var builtins = Python.import_module("builtins")
    var sys = Python.import_module("sys")
    var obj = builtins.object()
    var before = Int(sys.getrefcount(obj))
    use(obj, rounds)
    return Int(sys.getrefcount(obj)) == before


fn churn(rounds: Int) raises -> Int:
    var builtins = Python.import_module("builtins")
    var total = 0
    for i in range(rounds):
        var value = builtins.int(i) * 2 + 1
        total += Int(value) % 7
    return total


fn parse(text: String) raises -> Int:
    var builtins = Python.import_module("builtins")
    return Int(builtins.int(text))


fn lookup(key: String) raises -> Int:
    var builtins = Python.import_module("builtins")
    var d = builtins.dict()
    d["one"] = 1
    return Int(d[key])


fn describe(obj: PythonObject) raises -> String:
    return str(obj) + " has " + str(len(obj)) + " items"


fn doubled(obj: PythonObject) raises -> PythonObject:
    return obj * 2


fn call_back(f: PythonObject, x: Int) raises -> Int:
    return Int(f(x)) + 1


fn hypot(x: Float64, y: Float64) raises -> Float64:
    var math = Python.import_module("math")
    return Float64(math.hypot(x, y))
'''


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    with compiled_module("pyobjects", MODULE, tmp_path_factory) as module:
        yield module


def test_reference_counts_are_exact(m):
    assert m.refcounts_unchanged(1000)


def test_python_exceptions_come_back_to_python_as_themselves(m):
    with pytest.raises(ValueError, match="invalid literal for int"):
        m.parse("x1")
    with pytest.raises(KeyError, match="'two'"):
        m.lookup("two")
    assert m.parse("41") + 1 == 42 and m.lookup("one") == 1  # the module is still usable


def test_python_objects_cross_both_ways_with_their_references(m):
    x = [1, 2, 3]
    before = sys.getrefcount(x)
    assert m.describe(x) == "[1, 2, 3] has 3 items" and m.doubled(x) == [1, 2, 3, 1, 2, 3]
    assert m.doubled("ab") == "abab" and m.call_back(lambda v: v * 10, 4) == 41
    result = m.doubled(x)
    assert sys.getrefcount(result) == 2  # only `result` (and getrefcount's argument) hold it
    for _ in range(1000):
        m.describe(x)
        m.doubled(x)
    assert sys.getrefcount(x) == before
    with pytest.raises(ZeroDivisionError):
        m.call_back(lambda v: 1 / 0, 1)  # Python's exception, through pyx, back to Python
    assert "fn describe(obj: PythonObject) raises -> String" in m.describe.__doc__


def test_calls_from_several_threads_take_the_gil_in_turn(m):
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda k: m.hypot(3.0 * k, 4.0 * k), range(1, 200)))
    assert results == [5.0 * k for k in range(1, 200)]


def test_a_million_operations_keep_memory_flat(tmp_path):
    script = textwrap.dedent('''
        import resource, sys
        import pyx
        m = pyx.import_module("pyobjects", path=[sys.argv[1]])
        m.churn(1000)
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        m.churn(1_000_000)
        print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) // 1024)
    ''')
    (growth,) = memory_growth_mib(tmp_path, "pyobjects", MODULE, script)
    # Each round makes three Python ints and drops them: leaked, a million rounds hold ~100 MB.
    assert growth < 20
