"""Writes stdlib/tuple.px: one struct per tuple length, with Python's tuple behaviour, and the
builtins that make tuples. Run `python tools/gen_tuple.py stdlib/tuple.px` after changing it
(tests/semantics/test_tuple_types.py checks the file is this script's output)."""
import sys

MAX = 8
P = "ABCDEFGH"


def struct(n):
    ps = P[:n]
    f = [f"_{i}" for i in range(n)]
    out = []
    params = ", ".join(f"{p}: AnyType" for p in ps)
    out.append("@fieldwise_init")
    out.append('@builtin_type("Tuple")  # one of the compiler\'s tuples (lang/semantics/builtin_types.py)')
    out.append(f"struct Tuple{n}[{params}](KeyElement, Comparable, Stringable, Sized):")
    shown = ", ".join(ps) + ("," if n == 1 else "")
    out.append(f'    """A tuple of {n} item{"s" if n > 1 else ""}, `tuple[{shown}]`."""')
    out.append("")
    for i, p in enumerate(ps):
        out.append(f"    var _{i}: {p}")
    out.append("")
    out.append("    fn __len__(self) -> Int:")
    out.append(f"        return {n}")
    out.append("")
    out.append("    fn __bool__(self) -> Bool:")
    out.append("        return True  # only the empty tuple is false")
    out.append("")
    out.append("    fn __eq__(self, other: Self) -> Bool:")
    out.append("        return " + " and ".join(f"self.{x} == other.{x}" for x in f))
    out.append("")
    out.append("    fn __ne__(self, other: Self) -> Bool:")
    out.append("        return not self.__eq__(other)")
    for op, name, last in (("<", "__lt__", "False"), ("<=", "__le__", "True")):
        out.append("")
        out.append(f"    fn {name}(self, other: Self) -> Bool:")
        if name == "__lt__":
            out.append("        # Python's order: the first items that differ decide; all equal, the lengths do.")
        for x in f:
            out.append(f"        if not (self.{x} == other.{x}):")
            out.append(f"            return self.{x} {op} other.{x}")
        out.append(f"        return {last}")
    out.append("")
    out.append("    fn __gt__(self, other: Self) -> Bool:")
    out.append("        return other.__lt__(self)")
    out.append("")
    out.append("    fn __ge__(self, other: Self) -> Bool:")
    out.append("        return other.__le__(self)")
    out.append("")
    out.append("    fn __hash__(self) -> Int:")
    out.append("        var acc: UInt64 = _XXPRIME_5")
    for x in f:
        out.append(f"        acc = _hash_lane(acc, hash(self.{x}))")
    out.append(f"        return _hash_end(acc, {n})")
    out.append("")
    out.append("    fn __str__(self) -> String:")
    out.append('        var out = String("(")')
    for i, x in enumerate(f):
        if i:
            out.append('        out += ", "')
        out.append(f"        out._append_repr(self.{x})")
    out.append('        out += ",)"' if n == 1 else '        out += ")"')
    out.append("        return out")
    out.append("")
    out.append("    fn __getitem__(self, i: Int) -> A:")
    out.append('        """`t[i]` with an index known only at run time: a tuple whose items have one type."""')
    out.append(f'        var k = normalize_index(i, {n}, "tuple index out of range")')
    for i, x in enumerate(f[:-1]):
        out.append(f"        if k == {i}:")
        out.append(f"            return self.{x}")
    out.append(f"        return self.{f[-1]}")
    out.append("")
    out.append("    fn __iter__(self) -> TupleItems[Self, A]:")
    out.append('        """`for x in t`: a tuple whose items have one type."""')
    out.append("        return TupleItems[Self, A](self, 0)")
    out.append("")
    out.append("    fn __contains__(self, value: A) -> Bool:")
    out.append("        return " + " or ".join(f"self.{x} == value" for x in f))
    out.append("")
    out.append("    fn index(self, value: A) raises -> Int:")
    out.append('        """Python\'s `t.index(x)`: where x first is, or ValueError."""')
    for k, x in enumerate(f):
        out.append(f"        if self.{x} == value:")
        out.append(f"            return {k}")
    out.append('        raise ValueError("tuple.index(x): x not in tuple")')
    out.append("")
    out.append("    fn count(self, value: A) -> Int:")
    out.append('        """Python\'s `t.count(x)`: how many items equal x."""')
    out.append("        var n = 0")
    for x in f:
        out.append(f"        if self.{x} == value:")
        out.append("            n += 1")
    out.append("        return n")
    return "\n".join(out)

HEAD = '''# Python's tuples, written in pyx: `Tuple1` ... `Tuple{MAX}` are the tuples of 1 to {MAX} items. The
# compiler builds them for `(a, b)`, `tuple[int, str]` and `Tuple[Int, String]`, names them
# `Tuple[...]` in messages, and reads and unpacks their items by field (semantics/tuples.py). A
# tuple is a value: its items are copied with it and never change (docs/semantics.md).
#
# A tuple type conforms to KeyElement, Comparable, Stringable exactly when every item type does
# (semantics/module.py, `type_conforms`), so a tuple is a dict key, sorts and prints when its items
# do. `__getitem__` and `__contains__` are for tuples whose items have one type; the compiler
# reads a constant index as the field and rejects the rest before they reach these bodies.
#
# The structs differ only in their length; tools/gen_tuple.py writes this file.

# CPython's tuple hash (xxHash's round, Objects/tupleobject.c), so hash((1, 2)) is Python's.
comptime _XXPRIME_1 = 11400714785074694791
comptime _XXPRIME_2 = 14029467366897019727
comptime _XXPRIME_5 = 2870177450012600261


fn _hash_lane(acc: UInt64, lane: Int) -> UInt64:
    var a = acc + UInt64(lane) * _XXPRIME_2
    a = (a << 31) | (a >> 33)
    return a * _XXPRIME_1


fn _hash_end(acc: UInt64, length: Int) -> Int:
    var a = acc + (UInt64(length) ^ (_XXPRIME_5 ^ 3527539))
    if a == 18446744073709551615:  # -1 is no hash: CPython's substitute
        return 1546275796
    return Int(a)
'''.replace("{MAX}", str(MAX))

TAIL = r'''

@builtin_function("divmod")  # what the compiler does with its calls (lang/semantics/builtin_functions.py)
fn divmod[T: AnyType](a: T, b: T) raises -> Tuple2[T, T]:
    """Python's `divmod(a, b)`: `(a // b, a % b)`, floored as Python floors (the remainder takes
    the divisor's sign), with Python's ZeroDivisionError messages."""
    comptime if T == Float64 or T == Float32 or T == Float16 or T == BFloat16:
        if b == 0:
            raise ZeroDivisionError("float divmod()")
    return Tuple2[T, T](a // b, a % b)


@builtin_function("enumerate")  # what the compiler does with its calls (lang/semantics/builtin_functions.py)
def enumerate(xs, start: Int = 0):
    """Python's `enumerate(xs, start)`: `(count, item)` for each item of xs, counting from start.
    It walks xs as `for` does (xs must not change meanwhile)."""
    return Enumerate(xs.__iter__(), start)


@fieldwise_init
@builtin_type("Enumerate")  # the compiler's Enumerate (lang/semantics/builtin_types.py)
struct Enumerate[I: AnyType]:
    """What `enumerate` gives: an iterator's items, each beside its count."""

    var items: I
    var count: Int

    def __iter__(self):
        return self

    def __has_next__(self) -> Bool:
        return self.items.__has_next__()

    def __next__(mut self):
        var count = self.count
        self.count += 1
        return Tuple2(count, self.items.__next__())


@fieldwise_init
struct TupleItems[T: AnyType, Item: AnyType]:
    """A tuple's items in order, for `for x in t` (a tuple whose items have one type)."""

    var items: T
    var index: Int

    fn __iter__(self) -> TupleItems[T, Item]:
        return self

    fn __has_next__(self) -> Bool:
        return self.index < self.items.__len__()

    fn __next__(mut self) -> Item:
        self.index += 1
        return self.items.__getitem__(self.index - 1)


@builtin_function("zip")  # what the compiler does with its calls (lang/semantics/builtin_functions.py)
def zip(a, b):
    """Python's `zip(a, b)`: the items at the same place, paired, as long as the shorter goes
    (`zip(a, b, c)` is `zip3`). It walks its arguments as `for` does."""
    return Zip2(a.__iter__(), b.__iter__())


def zip3(a, b, c):
    """Python's `zip(a, b, c)`, which the compiler calls for `zip` with three arguments."""
    return Zip3(a.__iter__(), b.__iter__(), c.__iter__())


@fieldwise_init
@builtin_type("Zip2")  # the compiler's Zip2 (lang/semantics/builtin_types.py)
struct Zip2[I: AnyType, J: AnyType]:
    var a: I
    var b: J

    def __iter__(self):
        return self

    def __has_next__(self) -> Bool:
        return self.a.__has_next__() and self.b.__has_next__()

    def __next__(mut self):
        return Tuple2(self.a.__next__(), self.b.__next__())


@fieldwise_init
@builtin_type("Zip3")  # the compiler's Zip3 (lang/semantics/builtin_types.py)
struct Zip3[I: AnyType, J: AnyType, K: AnyType]:
    var a: I
    var b: J
    var c: K

    def __iter__(self):
        return self

    def __has_next__(self) -> Bool:
        return self.a.__has_next__() and self.b.__has_next__() and self.c.__has_next__()

    def __next__(mut self):
        return Tuple3(self.a.__next__(), self.b.__next__(), self.c.__next__())
'''

if __name__ == "__main__":
    text = HEAD + TAIL + "".join("\n\n" + struct(n) + "\n" for n in range(1, MAX + 1))
    with open(sys.argv[1], "w") as out:
        out.write(text)
