"""Structs against Python classes: random sequences of operations written once as a pyx program
and once as a Python program, which must print the same. A value struct with operators,
comparisons, a `mut` method and field assignment, and a struct owning a List with `__getitem__`,
`__setitem__` and `__len__`. pyx structs are values, so the Python twin copies where pyx
assigns (`copy.deepcopy`): the two must agree on what each assignment leaves independent."""
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import prints_as_python

PYX_TYPES = '''
@fieldwise_init
struct Vec:
    var x: Int
    var y: Int

    fn __add__(self, other: Vec) -> Vec:
        return Vec(self.x + other.x, self.y + other.y)

    fn __sub__(self, other: Vec) -> Vec:
        return Vec(self.x - other.x, self.y - other.y)

    fn __mul__(self, k: Int) -> Vec:
        return Vec(self.x * k % 10007, self.y * k % 10007)

    fn __neg__(self) -> Vec:
        return Vec(-self.x, -self.y)

    fn __eq__(self, other: Vec) -> Bool:
        return self.x == other.x and self.y == other.y

    fn __lt__(self, other: Vec) -> Bool:
        return self.x < other.x or (self.x == other.x and self.y < other.y)

    fn norm1(self) -> Int:
        return abs(self.x) + abs(self.y)

    fn scale(mut self, k: Int):
        self.x = self.x * k // 3
        self.y = self.y * k // 3


struct Bag:
    var items: List[Int]

    fn __init__(out self):
        self.items = List[Int]()

    fn push(mut self, value: Int):
        self.items.append(value)

    fn __getitem__(self, i: Int) -> Int:
        return self.items[i]

    fn __setitem__(mut self, i: Int, value: Int):
        self.items[i] = value

    fn __len__(self) -> Int:
        return len(self.items)


'''

PY_TYPES = '''
import copy


class Vec:
    def __init__(self, x, y):
        self.x, self.y = x, y

    def __add__(self, other):
        return Vec(self.x + other.x, self.y + other.y)

    def __sub__(self, other):
        return Vec(self.x - other.x, self.y - other.y)

    def __mul__(self, k):
        return Vec(self.x * k % 10007, self.y * k % 10007)

    def __neg__(self):
        return Vec(-self.x, -self.y)

    def __eq__(self, other):
        return self.x == other.x and self.y == other.y

    def __lt__(self, other):
        return self.x < other.x or (self.x == other.x and self.y < other.y)

    def norm1(self):
        return abs(self.x) + abs(self.y)

    def scale(self, k):
        self.x = self.x * k // 3
        self.y = self.y * k // 3


class Bag:
    def __init__(self):
        self.items = []

    def push(self, value):
        self.items.append(value)

    def __getitem__(self, i):
        return self.items[i]

    def __setitem__(self, i, value):
        self.items[i] = value

    def __len__(self):
        return len(self.items)


'''

small = st.integers(min_value=-50, max_value=50)
vec = st.integers(min_value=0, max_value=2)
bag = st.integers(min_value=0, max_value=1)
index = st.integers(min_value=-4, max_value=4)
operation = st.one_of(
    st.tuples(st.just("new"), vec, small, small),
    st.tuples(st.just("add"), vec, vec, vec),
    st.tuples(st.just("sub"), vec, vec, vec),
    st.tuples(st.just("mul"), vec, vec, st.integers(-5, 5)),
    st.tuples(st.just("neg"), vec, vec),
    st.tuples(st.just("scale"), vec, st.integers(-4, 4)),
    st.tuples(st.just("copy"), vec, vec),
    st.tuples(st.just("field"), vec, small),
    st.tuples(st.just("compare"), vec, vec),
    st.tuples(st.just("show"), vec),
    st.tuples(st.just("push"), bag, small),
    st.tuples(st.just("get"), bag, index),
    st.tuples(st.just("set"), bag, index, small),
    st.tuples(st.just("copy_bag"), bag, bag),
    st.tuples(st.just("len"), bag),
)


def guarded(statement: str) -> list[str]:
    return ["    try:", f"        {statement}", "    except IndexError as e:", "        print('IndexError', e)"]


def render(ops, pyx: bool) -> str:
    assign = (lambda a, b: f"{a} = {b}") if pyx else (lambda a, b: f"{a} = copy.deepcopy({b})")
    lines = ["def main():", "    v0 = Vec(1, 2)", "    v1 = Vec(-3, 4)", "    v2 = Vec(0, 0)",
             "    b0 = Bag()", "    b1 = Bag()"]
    for op in ops:
        kind, args = op[0], op[1:]
        if kind == "new":
            lines.append(f"    v{args[0]} = Vec({args[1]}, {args[2]})")
        elif kind in ("add", "sub"):
            sign = "+" if kind == "add" else "-"
            lines.append(f"    v{args[0]} = v{args[1]} {sign} v{args[2]}")
        elif kind == "mul":
            lines.append(f"    v{args[0]} = v{args[1]} * {args[2]}")
        elif kind == "neg":
            lines.append(f"    v{args[0]} = -v{args[1]}")
        elif kind == "scale":
            lines.append(f"    v{args[0]}.scale({args[1]})")
        elif kind == "copy":  # then change the source: the copy must not follow
            lines += ["    " + assign(f"v{args[0]}", f"v{args[1]}"), f"    v{args[1]}.scale(2)",
                      f"    print(v{args[0]}.x, v{args[0]}.y, v{args[1]}.x, v{args[1]}.y)"]
        elif kind == "field":
            lines.append(f"    v{args[0]}.x = {args[1]}")
        elif kind == "compare":
            a, b = args
            lines.append(f"    print(v{a} == v{b}, v{a} != v{b}, v{a} < v{b}, v{b} < v{a})")
        elif kind == "show":
            lines.append(f"    print(v{args[0]}.x, v{args[0]}.y, v{args[0]}.norm1())")
        elif kind == "push":
            lines.append(f"    b{args[0]}.push({args[1]})")
        elif kind == "get":
            lines += guarded(f"print(b{args[0]}[{args[1]}])")
        elif kind == "set":
            lines += guarded(f"b{args[0]}[{args[1]}] = {args[2]}")
        elif kind == "copy_bag":
            lines += ["    " + assign(f"b{args[0]}", f"b{args[1]}"), f"    b{args[1]}.push(99)",
                      f"    print(len(b{args[0]}), len(b{args[1]}))"]
        elif kind == "len":
            lines.append(f"    print(len(b{args[0]}))")
    lines += ["    print(v0.x, v0.y, v1.x, v1.y, v2.x, v2.y, len(b0), len(b1))", "", ""]
    body = "\n".join(lines) + "\n"
    return (PYX_TYPES + body) if pyx else (PY_TYPES + body + "main()\n")


def same_as_python(ops, tmp_path) -> None:
    prints_as_python(render(ops, pyx=True), render(ops, pyx=False), tmp_path)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(operation, min_size=1, max_size=25))
def test_struct_operations_match_python(tmp_path, ops):
    same_as_python(ops, tmp_path)


def test_every_operation_once_matches_python(tmp_path):
    same_as_python([("new", 0, 5, -7), ("add", 1, 0, 2), ("sub", 2, 1, 0), ("mul", 0, 1, -3), ("neg", 1, 0),
                    ("scale", 2, -4), ("copy", 0, 1), ("field", 1, -9), ("compare", 0, 1), ("compare", 2, 2),
                    ("show", 1), ("push", 0, 4), ("push", 0, -5), ("get", 0, -1), ("get", 1, 0),
                    ("set", 0, 1, 8), ("set", 1, 3, 1), ("copy_bag", 1, 0), ("len", 1)], tmp_path)
