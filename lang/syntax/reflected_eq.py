"""`==` and `!=` between objects of a class and of its subclass, as CPython compares them.

CPython's `x == y` first tries the right operand's method when `type(y)` is a strict subclass of
`type(x)` (the reflected try of the data model: `y.__eq__(x)`, resolved on `type(y)`, whether or
not that class overrides it), and `x.__eq__(y)` otherwise; `!=` the same with `__ne__`. A `def
__eq__` returns a `bool` in pyx's subset (never `NotImplemented`), so the first method tried gives
the result. pyx's `x == y` called `x`'s method (dispatched on `x`'s class), which printed something
else whenever the two methods differ or are not symmetric.

So in a class hierarchy, each class's own `__eq__` (and `__ne__`) is renamed `__eq_pyx` (`__ne_pyx`),
which the usual dispatch on the object's class resolves (syntax/inheritance.py), and the topmost
class that has one gets an `__eq__` of its own, inherited by its subclasses, that chooses the
operand as CPython does, by the two objects' class ids at run time:

    def __eq__(self, other: A) -> bool:
        if <other's class strictly derives from self's>:
            return other.__eq_pyx(self)
        return self.__eq_pyx(other)

Where no class defines `__ne__`, pyx's default `__ne__` (`not (self == other)`) is what
`object.__ne__` gives through the reflected `==` above. A subclass that defines `__ne__` when the
hierarchy's root does not is E0175 (CPython's `base != sub` calls the subclass's; the wrapper
must be the root's); for `__eq__` the root always has one, Python's identity if none is written
(`_identity_eq_roots`, syntax/classes.py, which runs first).
"""
from __future__ import annotations

from dataclasses import replace

from . import ast

# (not `__pyx_...`: a class may not define those, and these are methods of the class like any other)
EQ_IMPL = {"__eq__": "__eq_pyx", "__ne__": "__ne_pyx"}


def reflect_comparisons(items: tuple, h, parse, diags) -> tuple:
    """items with the `__eq__`/`__ne__` of each class hierarchy rewritten (this module's docstring)."""
    wrappers: dict[str, list[ast.FnDef]] = {}  # class -> the wrappers it gets
    renamed: set[tuple[str, str]] = set()  # (class, special) renamed to the implementation's name
    dropped: set[tuple[str, str]] = set()  # (class, special) reported (E0175) and left out
    for special, impl in EQ_IMPL.items():
        owners = [n for n in h.order if n in h.ids and special in h.own[n]]
        for top in [n for n in owners if not any(a in owners for a in h.ancestors(n))]:
            if h.ancestors(top):
                # CPython's `base != sub` calls the subclass's method, which the base's objects
                # cannot reach: the base must define it too (an `__eq__` a base always has).
                diags.error("E0175", h.own[top][special].name_span, cls=top, base=h.ancestors(top)[-1],
                            method=special)
                dropped.add((top, special))  # (reported once, not again as a mismatch with the trait)
                del h.own[top][special]
                continue
            wrapper = _wrapper(h, top, special, impl, [top] + h.descendants(top), parse)
            if wrapper is None:
                continue
            wrappers.setdefault(top, []).append(wrapper)
            renamed.update((n, special) for n in [top] + h.descendants(top) if special in h.own[n])
    if not wrappers and not dropped:
        return items
    out = []
    for item in items:
        name = getattr(item, "name", None)
        if type(item).__name__ != "ClassDef" or name is None or (
                name not in wrappers and not any(c == name for c, _ in renamed)
                and not any(c == name for c, _ in dropped)):
            out.append(item)
            continue
        body = []
        for stmt in item.body:
            if isinstance(stmt, ast.FnDef) and (name, stmt.name) in dropped:
                continue
            if isinstance(stmt, ast.FnDef) and (name, stmt.name) in renamed:
                new = replace(stmt, name=EQ_IMPL[stmt.name])
                del h.own[name][stmt.name]
                h.own[name][new.name] = new
                stmt = new
            body.append(stmt)
        for wrapper in wrappers.get(name, ()):
            body.append(wrapper)
            h.own[name][wrapper.name] = wrapper
        item = replace(item, body=tuple(body))
        h.defs[name] = item
        out.append(item)
    return tuple(out)


def _wrapper(h, top: str, special: str, impl: str, family: list[str], parse) -> ast.FnDef | None:
    method = h.own[top][special]
    if len(method.params) != 2:
        return None
    # Whether `other`'s class strictly derives from `self`'s: for each class of the family that has
    # subclasses, self of that class and other of one of them.
    links = []
    for n in family:
        below = h.descendants(n)
        if below:
            ids = " or ".join(f"__pyx_d == {h.ids[d]}" for d in below)
            links.append(f"(__pyx_c == {h.ids[n]} and ({ids}))")
    if not links:
        return None
    text = (f"def {special}(self, other: {top}) -> bool:\n"
            f"    if self.__pyx_obj and other.__pyx_obj:\n"
            f"        __pyx_c = self.__pyx_obj[1]\n"
            f"        __pyx_d = other.__pyx_obj[1]\n"
            f"        if {' or '.join(links)}:\n"
            f"            return other.{impl}(self)\n"
            f"    return self.{impl}(other)\n")
    generated = parse(text)
    if len(generated) != 1:
        return None
    return replace(generated[0], span=method.span, name_span=method.name_span)
