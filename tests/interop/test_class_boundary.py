"""Class instances at the boundary: an object of a pyx class that a function returns comes to
Python as a wrapper holding one reference to it (runtime/objects.py); its attributes read and
write the shared object, repr/str run the class's own methods, passing it back lends that same
object, and the reference is given back exactly once when the wrapper goes. The accessors are
pyx functions compiled with the module (lang/class_exports.py)."""
import gc
import pickle
import re
import subprocess
import sys
import textwrap
import weakref

import pytest

from helpers import compiled_module, import_source, memory_growth_mib

SOURCE = textwrap.dedent('''
    from python import PythonObject


    class Point:
        def __init__(self, x: float, y: float):
            self.x = x
            self.y = y
            self.label = "p"
            self.seen: list[int] = [1, 2]
            self.index: dict[str, int] = {}

        def norm2(self) -> float:
            return self.x * self.x + self.y * self.y

        def __repr__(self) -> str:
            return f"Point({self.x}, {self.y})"


    class Pair:
        def __init__(self, a: Point, b: Point | None):
            self.a = a
            self.b = b


    class Box:
        def __init__(self, o: PythonObject, n: int):
            self.o = o
            self.n = n


    def make(x: float, y: float) -> Point:
        return Point(x, y)


    def norm(p: Point) -> float:
        return p.norm2()


    def same(p: Point) -> Point:
        return p


    def pair(a: Point) -> Pair:
        return Pair(a, None)


    def move(p: Point, dx: float):
        p.x += dx


    def boxed(o: PythonObject, n: int) -> Box:
        return Box(o, n)


    def count(b: Box) -> int:
        return b.n


    def same_box(b: Box) -> Box:
        return b


    def make_any(x, y):
        return Point(x, y)


    def norm_of(x: float, y: float) -> float:
        return norm(make(x, y))
''')


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    with compiled_module("class_boundary", SOURCE, tmp_path_factory) as module:
        yield module


def test_a_class_result_is_a_python_object_with_the_attributes(m):
    p = m.make(3.0, 4.0)
    assert type(p) is m.Point
    assert (type(p).__module__, type(p).__qualname__) == ("class_boundary", "Point")
    assert (p.x, p.y, p.label) == (3.0, 4.0, "p")
    assert list(p.seen) == [1, 2]  # a List attribute reads as a NumPy array (a copy), as List results do
    assert m.norm(p) == 25.0
    assert m.norm_of(3.0, 4.0) == 25.0


def test_attribute_writes_change_the_shared_object(m):
    p = m.make(3.0, 4.0)
    p.x = 1.0
    assert m.norm(p) == 17.0  # pyx sees Python's write
    m.move(p, 2.0)
    assert p.x == 3.0  # Python sees pyx's
    p.label = "moved"
    assert p.label == "moved"
    with pytest.raises(TypeError, match=r"^Point\.x must be Float64 \(a float\), not str$"):
        p.x = "a"
    with pytest.raises(AttributeError, match="'Point' object has no attribute 'z'"):
        p.z = 1.0


def test_attributes_that_cannot_cross_say_why(m):
    p = m.make(1.0, 2.0)
    with pytest.raises(AttributeError, match=r"'Point' object attribute 'index' cannot be read from Python: "
                                             r"attribute 'index' is a Dict\[String, Int\], which cannot cross"):
        p.index  # noqa: B018 - the read is what raises
    with pytest.raises(AttributeError, match=r"'Point' object attribute 'seen' cannot be set from Python: "
                                             r"attribute 'seen' is a List\[Int\], which Python reads as a copy"):
        p.seen = [3]


def test_repr_and_str_run_the_class_methods_or_default_as_python_does(m):
    p = m.make(1.5, 2.0)
    assert repr(p) == str(p) == "Point(1.5, 2.0)"
    q = m.pair(p)
    assert re.fullmatch(r"<class_boundary\.Pair object at 0x[0-9a-f]+>", repr(q)), repr(q)
    assert str(q) == repr(q)


def test_passing_an_object_back_keeps_its_identity(m):
    p = m.make(1.0, 2.0)
    assert m.same(p) is p
    q = m.pair(p)
    assert q.a is p and q.b is None
    q.b = p
    assert q.b is p
    q.b = None
    assert q.b is None
    with pytest.raises(TypeError, match=r"norm\(\) argument 'p' must be a Point object \(of this module\), not Pair"):
        m.norm(q)
    with pytest.raises(AttributeError, match="'NoneType' object has no attribute"):
        m.norm(None)  # as CPython's p.norm2() of None


def test_the_class_makes_objects_through_its_init(m):
    p = m.Point(5.0, 12.0)
    assert type(p) is m.Point and m.norm(p) == 169.0
    with pytest.raises(TypeError, match=r"^Point\(\) argument 'y' must be Float64 \(a float\), not str$"):
        m.Point(1.0, "y")


def test_the_wrapper_gives_its_reference_back_exactly_once(m):
    class Token:
        pass

    token = Token()
    alive = weakref.ref(token)
    before = sys.getrefcount(token)
    b = m.boxed(token, 7)
    assert sys.getrefcount(token) == before + 1  # the pyx object holds it
    assert b.o is token and m.count(b) == 7
    assert m.count(m.boxed(token, 1)) == 1  # a temporary: freed at once
    assert sys.getrefcount(token) == before + 1
    del token
    assert alive() is not None  # kept by the pyx object, which the wrapper keeps
    del b
    gc.collect()
    assert alive() is None  # the wrapper gave its reference back and the pyx object was freed


def test_threads_sharing_an_object_keep_its_count(m):
    from concurrent.futures import ThreadPoolExecutor

    class Token:
        pass

    token = Token()
    alive = weakref.ref(token)
    held = [m.boxed(token, 3)]

    def work(_):
        return sum(m.count(m.same_box(held[0])) for _ in range(5000))

    with ThreadPoolExecutor(4) as pool:
        assert list(pool.map(work, range(4))) == [15000] * 4
    del token
    held.clear()
    gc.collect()
    assert alive() is None  # every copy the calls made was released, and no more than those


def test_objects_do_not_pickle_and_say_why(m):
    with pytest.raises(TypeError, match=r"cannot pickle 'Point' object: it is an object of a pyx class, a reference "
                                        r"shared with pyx code in this process's memory"):
        pickle.dumps(m.make(1.0, 2.0))


def test_a_generic_instance_returning_a_class_says_why(m):
    with pytest.raises(TypeError, match=r"make_any\(Float64, Float64\): its result is a Point object: objects of a "
                                        r"class cross only to and from the functions of the module declaring the "
                                        r"class that Python calls directly"):
        m.make_any(1.0, 2.0)


def test_check_exports_lists_the_functions_and_the_classes(tmp_path):
    (tmp_path / "cls.px").write_text(SOURCE)
    done = subprocess.run([sys.executable, "-m", "pyx", "check", "--exports", "cls.px"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "cls.px:32: make: exported (Float64, Float64)" in lines
    assert "cls.px:36: norm: exported (Point)" in lines
    assert ("cls.px:6: class Point: objects cross by reference (made from Python; attributes x, y, label; "
            "read only seen; not reachable index)") in lines, lines
    assert not any("__pyx_" in line for line in lines), lines


def test_a_class_whose_accessors_do_not_compile_stays_in_pyx(tmp_path, monkeypatch):
    # A Span attribute cannot be returned (its memory may be gone), nor copied into a
    # function's result here: the module still imports, its class staying in pyx.
    source = textwrap.dedent('''
        class Holder:
            def __init__(self, n: int):
                self.n = n

        def make(n: int) -> Holder:
            return Holder(n)

        def twice(n: int) -> int:
            return make(n).n * 2
    ''')
    from pyx import class_exports

    monkeypatch.setattr(class_exports, "accessor_text",
                        lambda module: "def __pyx_release_Holder(var o: Holder):\n    return undefined_name\n")
    m = import_source("broken_accessors", source, tmp_path, monkeypatch)
    assert m.twice(4) == 8
    with pytest.raises(AttributeError, match="its result is a Holder object"):
        m.make  # noqa: B018


LINKED = textwrap.dedent('''
    from typing import Optional


    class Node:
        def __init__(self, value: int, next: "Node | None" = None):
            self.value = value
            self.next = next


    def push(head: Node | None, value: int) -> Node:
        return Node(value, head)


    def total(head: Optional[Node]) -> int:
        s = 0
        while head is not None:
            s += head.value
            head = head.next
        return s
''')


def test_optional_objects_cross_as_none_or_the_object(tmp_path, monkeypatch):
    m = import_source("linked_nodes", LINKED, tmp_path, monkeypatch)
    head = None
    for v in range(5):
        head = m.push(head, v)
    assert m.total(head) == 10 and (head.value, head.next.value) == (4, 3)
    assert m.Node(7).next is None  # the default of `__init__`
    assert m.total(m.Node(1, m.Node(2))) == 3


def test_classes_used_only_inside_compile_no_accessors(m, tmp_path, monkeypatch):
    # Pair is named by `pair`'s result and Box by `boxed`: both cross. A class no top-level
    # function's annotations reach costs nothing more to compile.
    assert {c["name"] for c in m.__pyx__["meta"]["classes"]} == {"Point", "Pair", "Box"}
    inner = import_source("inner_class", "class Acc:\n    def __init__(self):\n        self.n = 0\n\n\n"
                          "def count(k: int) -> int:\n    a = Acc()\n    for i in range(k):\n        a.n += i\n"
                          "    return a.n\n", tmp_path, monkeypatch)
    assert inner.count(4) == 6
    assert inner.__pyx__["meta"]["classes"] == []
    assert not any(f["name"].startswith("__pyx_") for f in inner.__pyx__["meta"]["functions"])


@pytest.mark.slow
def test_a_million_round_trips_keep_memory_flat(tmp_path):
    script = textwrap.dedent('''
        import resource, sys
        import pyx
        m = pyx.import_module("roundtrip", path=[sys.argv[1]])
        token = object()
        for i in range(20_000):
            m.count(m.same_box(m.boxed(token, i)))
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        for i in range(1_000_000):
            m.count(m.same_box(m.boxed(token, i)))
        print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) // 1024)
        print(sys.getrefcount(token))
    ''')
    growth, refs = memory_growth_mib(tmp_path, "roundtrip", SOURCE, script)
    # Leaked, a million pyx objects and their wrappers would hold over 100 MB.
    assert growth < 20
    assert refs == 2  # every object that held the token let it go
