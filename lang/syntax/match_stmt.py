"""`match` (PEP 634), as Python runs it, rewritten by the builder into statements the later stages
already know: the subject evaluated once into a variable no source can name (`match@L:C`), then
an if/elif chain with one arm per `case`, tried in order; the first whose pattern matches (and
whose guard holds) runs, none falls through, and a subject no case matches runs nothing.

    match command.split():           var <subject> = command.split()
        case ["look"]:               if <sequence>(<subject>) and len(<subject>) == 1 \
            ...                              and <subject>[0] == "look":
        case [verb, obj]:                ...
            ...                      elif <sequence>(<subject>) and len(<subject>) == 2:
                                         verb = <subject>[0]; obj = <subject>[1]; ...

A pattern becomes tests on the subject (all of them, joined by `and`) and the names it binds,
bound after every test passed, as Python binds them: a capture binds in the enclosing scope, like
any assignment. A guard reads the names its pattern bound: Python binds them before it tries the
guard and keeps them when the guard fails, so a guarded case is two statements, `if <tests>:
<binds>` and `if <tests> and <guard>: <binds>; <body> else: <the next cases>`, the guard reading
the values the names are bound to (the subject's items and attributes, read again). What each
pattern tests:

- literals: `==`, except `None` (`is None`) and `True`/`False` (a `bool` equal to it: `1` is not
  `True` to `match`);
- `a.b` (a value pattern): `==`; a bare name captures, `_` matches anything;
- `p | q`: either; names bound by the alternatives take the value of the one that matched;
- `[a, b]`, `(a, *rest)`, `a, b`: a list, tuple or deque (never a str, as in Python: the test
  `<sequence>` is a constant, semantics/match_patterns.py) of that length
  (at least, with a star), each item matching; `*rest` binds a list of the items it stands for;
- `{"k": p}`: a dict with the key, its value matching `p`;
- `C(x=p)`, `C(p)`: an object of class `C` (`isinstance`) whose attribute `x` matches `p`; `int(p)`,
  `str(p)`, ... (Python's own classes): the subject itself matches `p`;
- `p as name`: `p`, and the subject bound to `name`.

A class pattern's positional sub-patterns read the attributes the class's `__match_args__` names
(a dataclass's: its fields), known once the module's classes are (`resolve_positional`). What
pyx cannot do yet is a diagnostic naming the pattern (E0021: positional sub-patterns for a class
without `__match_args__`, `**rest` in a mapping pattern).
"""
from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from ..diagnostics import DiagnosticBag
from ..source import Span
from . import ast


# ---- patterns: what the builder makes of the `pat_*` rules (they never leave this module's lowering) ----
@dataclass(frozen=True)
class Pattern:
    span: Span


@dataclass(frozen=True)
class Literal(Pattern):
    value: ast.Expr  # a number, a string, None, True or False


@dataclass(frozen=True)
class Capture(Pattern):
    name: str  # "_": the wildcard


@dataclass(frozen=True)
class Value(Pattern):
    value: ast.Expr  # a dotted name: `Color.RED`


@dataclass(frozen=True)
class Or(Pattern):
    alternatives: tuple[Pattern, ...]


@dataclass(frozen=True)
class As(Pattern):
    pattern: Pattern
    name: str


@dataclass(frozen=True)
class Star(Pattern):
    name: str  # "_": `*_`


@dataclass(frozen=True)
class Sequence(Pattern):
    items: tuple[Pattern, ...]  # at most one Star


@dataclass(frozen=True)
class Mapping(Pattern):
    keys: tuple[ast.Expr, ...]
    values: tuple[Pattern, ...]
    rest: str | None = None  # `**rest` (E0021: bound to nothing, quietly)


@dataclass(frozen=True)
class ClassPattern(Pattern):
    cls: ast.Expr
    positional: tuple[Pattern, ...]
    keywords: tuple[tuple[str, Pattern], ...]


@dataclass(frozen=True)
class Case:
    span: Span
    pattern: Pattern
    guard: ast.Expr | None
    body: tuple[ast.Stmt, ...]


# `C(p, q)`: the attribute a positional sub-pattern reads, `match@positional:C:0`, named by C's
# `__match_args__` once the module's classes are known (resolve_positional)
POSITIONAL = "match@positional"

# Python's classes whose pattern `C(p)` matches the subject itself against p (PEP 634's "self").
_SELF_MATCHING = ("bool", "bytes", "dict", "float", "frozenset", "int", "list", "set", "str", "tuple")


def expand_match(span: Span, subject: ast.Expr, cases: list[Case], diags: DiagnosticBag) -> list[ast.Stmt]:
    held = f"match@{span.line}:{span.col}"
    lowering = _Lowering(diags)
    arms = [(case, lowering.lower(case.pattern, ast.Name(case.pattern.span, held))) for case in cases]
    for case, (tests, _) in arms[:-1]:
        if not tests and case.guard is None:  # Python's SyntaxError
            what = "wildcard" if isinstance(case.pattern, Capture) and case.pattern.name == "_" else \
                f"name capture '{_name_of(case.pattern)}'" if isinstance(case.pattern, Capture) else "pattern"
            diags.error("E0001", case.pattern.span, detail=f"{what} makes remaining patterns unreachable")
    chain = _chain(arms)
    return [ast.VarDecl(span, held, span, None, subject, True), *chain]


def _name_of(p: Pattern) -> str:
    return p.name if isinstance(p, Capture) else ""


def _chain(arms: list) -> list[ast.Stmt]:
    """The statements that try the arms in order: an if/elif chain."""
    orelse: tuple[ast.Stmt, ...] = ()
    for case, (tests, binds) in reversed(arms):
        bind_stmts = tuple(ast.Assign(value.span, (ast.Name(value.span, name),), value) for name, value in binds)
        if case.guard is None or not binds:
            test = _all(case.span, [*tests, *([case.guard] if case.guard is not None else [])])
            if test is None:  # matches whatever the subject is: the rest is never tried
                orelse = (*bind_stmts, *case.body)
            else:
                orelse = (ast.If(case.span, test, (*bind_stmts, *case.body), orelse),)
        elif not tests:  # `case x if x > 0`: x is bound whether the guard holds or not
            orelse = (*bind_stmts, ast.If(case.span, case.guard, case.body, orelse))
        else:
            # Python binds the names before it tries the guard, and keeps them when it fails: bound
            # once the pattern matched, and the guard reads the values they were bound to (the
            # subject's items and attributes: reading them again changes nothing).
            values = dict(binds)
            guard = _substitute(case.guard, values)
            matched = ast.BoolOp(case.span, "and", tuple(tests)) if len(tests) > 1 else tests[0]
            holds = ast.BoolOp(case.span, "and", (*tests, guard))
            orelse = (ast.If(case.span, matched, bind_stmts, ()),
                      ast.If(case.span, holds, (*bind_stmts, *case.body), orelse))
    return list(orelse)


def _substitute(e: ast.Expr, values: dict[str, ast.Expr]) -> ast.Expr:
    """e with each name of `values` read replaced by its value (not inside a lambda or a
    comprehension, which may bind the name for themselves: there the variable is read)."""
    if isinstance(e, ast.Name):
        return values.get(e.id, e)
    if isinstance(e, (ast.Lambda, ast.Comprehension)):
        return e
    changes: dict[str, Any] = {}
    for f in fields(e):
        value = getattr(e, f.name)
        if isinstance(value, ast.Expr):
            changes[f.name] = _substitute(value, values)
        elif isinstance(value, tuple) and value and all(isinstance(v, ast.Node) for v in value):
            changes[f.name] = tuple(_substitute(v, values) if isinstance(v, ast.Expr) else
                                    replace(v, value=_substitute(v.value, values)) if isinstance(v, ast.Keyword) else v
                                    for v in value)
    return replace(e, **changes) if changes else e


def _all(span: Span, tests: list[ast.Expr]) -> ast.Expr | None:
    if not tests:
        return None
    return tests[0] if len(tests) == 1 else ast.BoolOp(span, "and", tuple(tests))


def _call(span: Span, func: str, *args: ast.Expr) -> ast.Call:
    return ast.Call(span, ast.Name(span, func), args, ())


def _compare(span: Span, left: ast.Expr, op: str, right: ast.Expr) -> ast.Compare:
    return ast.Compare(span, left, (op,), (right,))


class _Lowering:
    def __init__(self, diags: DiagnosticBag):
        self.diags = diags

    def lower(self, p: Pattern, subject: ast.Expr) -> tuple[list[ast.Expr], list[tuple[str, ast.Expr]]]:
        """The tests `subject` must pass to match p (in order, each evaluated only if those before
        it passed) and the names p binds, with their values."""
        s = p.span
        if isinstance(p, Capture):
            return [], ([] if p.name == "_" else [(p.name, subject)])
        if isinstance(p, Literal):
            v = p.value
            if isinstance(v, ast.NoneLit):
                return [_compare(s, subject, "is", v)], []
            if isinstance(v, ast.BoolLit):
                return [_call(s, "isinstance", subject, ast.Name(s, "bool")), _compare(s, subject, "==", v)], []
            return [_compare(s, subject, "==", v)], []
        if isinstance(p, Value):
            return [_compare(s, subject, "==", p.value)], []
        if isinstance(p, As):
            tests, binds = self.lower(p.pattern, subject)
            return tests, [*binds, (p.name, subject)]
        if isinstance(p, Or):
            return self._or(p, subject)
        if isinstance(p, Sequence):
            return self._sequence(p, subject)
        if isinstance(p, Mapping):
            return self._mapping(p, subject)
        if isinstance(p, ClassPattern):
            return self._class(p, subject)
        raise AssertionError(p)

    def _mapping(self, p: Mapping, subject: ast.Expr) -> tuple[list[ast.Expr], list[tuple[str, ast.Expr]]]:
        tests: list[ast.Expr] = [_call(p.span, "isinstance", subject, ast.Name(p.span, "dict"))]
        binds: list[tuple[str, ast.Expr]] = []
        for key, value in zip(p.keys, p.values, strict=True):
            tests.append(_compare(key.span, key, "in", subject))
            more, named = self.lower(value, ast.Subscript(value.span, subject, (key,)))
            tests += more
            binds += named
        if p.rest is not None:
            binds.append((p.rest, ast.ErrorExpr(p.span)))
        return tests, binds

    def _or(self, p: Or, subject: ast.Expr) -> tuple[list[ast.Expr], list[tuple[str, ast.Expr]]]:
        lowered = [self.lower(alt, subject) for alt in p.alternatives]
        names = [name for name, _ in lowered[0][1]]
        for alt, (_, alt_binds) in zip(p.alternatives[1:], lowered[1:], strict=True):
            if sorted(n for n, _ in alt_binds) != sorted(names):  # Python's SyntaxError
                self.diags.error("E0001", alt.span, detail="alternative patterns bind different names")
                return [ast.ErrorExpr(p.span)], _refused(p)
        tests = [_all(alt.span, t) for alt, (t, _) in zip(p.alternatives, lowered, strict=True)]
        if any(t is None for t in tests):  # an alternative that always matches
            test = None
        else:
            test = ast.BoolOp(p.span, "or", tuple(t for t in tests if t is not None))
        binds: list[tuple[str, ast.Expr]] = []
        for name in names:
            # the value of the first alternative that matched: `a if <alt 1> else b if ... else z`
            values = [dict(b)[name] for _, b in lowered]
            value = values[-1]
            for alt_test, alt_value in zip(reversed(tests[:-1]), reversed(values[:-1]), strict=True):
                value = alt_value if alt_test is None else ast.IfExp(p.span, alt_test, alt_value, value)
            binds.append((name, value))
        return ([test] if test is not None else []), binds

    def _sequence(self, p: Sequence, subject: ast.Expr) -> tuple[list[ast.Expr], list[tuple[str, ast.Expr]]]:
        s = p.span
        stars = [i for i, item in enumerate(p.items) if isinstance(item, Star)]
        if len(stars) > 1:  # Python's SyntaxError
            self.diags.error("E0001", p.items[stars[1]].span, detail="multiple starred names in sequence pattern")
            return [ast.ErrorExpr(p.span)], _refused(p)
        length = _call(s, "len", subject)
        fixed = len(p.items) - len(stars)
        tests: list[ast.Expr] = [_call(s, ast.SEQUENCE_TEST, subject),
                                 _compare(s, length, ">=" if stars else "==", ast.IntLit(s, fixed))]
        binds: list[tuple[str, ast.Expr]] = []
        star = stars[0] if stars else len(p.items)
        for i, item in enumerate(p.items):
            if i == star:
                assert isinstance(item, Star)
                if item.name != "_":
                    after = len(p.items) - i - 1
                    stop = ast.Binary(item.span, "-", length, ast.IntLit(item.span, after)) if after else None
                    cut = ast.Slice(item.span, ast.IntLit(item.span, i), stop, None)
                    part = ast.Subscript(item.span, subject, (cut,))
                    binds.append((item.name, _call(item.span, "list", part)))
                continue
            from_end = ast.Unary(item.span, "-", ast.IntLit(item.span, len(p.items) - i))
            index = ast.IntLit(item.span, i) if i < star else from_end
            more, named = self.lower(item, ast.Subscript(item.span, subject, (index,)))
            tests += more
            binds += named
        return tests, binds

    def _class(self, p: ClassPattern, subject: ast.Expr) -> tuple[list[ast.Expr], list[tuple[str, ast.Expr]]]:
        s = p.span
        tests: list[ast.Expr] = [_call(s, "isinstance", subject, p.cls)]
        binds: list[tuple[str, ast.Expr]] = []
        builtin = isinstance(p.cls, ast.Name) and p.cls.id in _SELF_MATCHING
        if builtin and len(p.positional) > 1:  # Python's TypeError, when the case is tried
            self.diags.error("E0001", p.positional[1].span,
                             detail=f"`{_text(p.cls)}(...)` accepts 1 positional sub-pattern")
            return [ast.ErrorExpr(p.span)], _refused(p)
        if p.positional and not isinstance(p.cls, ast.Name):
            self.diags.error("E0021", p.positional[0].span, pattern="a positional sub-pattern of a class pattern",
                             advice=f"name the attribute it matches (`{_text(p.cls)}(x=...)`)")
            return [ast.ErrorExpr(p.span)], _refused(p)
        for i, item in enumerate(p.positional):  # `int(n)`: the subject itself; `Point(0, y)`: its __match_args__
            assert isinstance(p.cls, ast.Name)
            read = subject if builtin else ast.Attribute(item.span, subject, f"{POSITIONAL}:{p.cls.id}:{i}")
            more, named = self.lower(item, read)
            tests += more
            binds += named
        for name, item in p.keywords:
            more, named = self.lower(item, ast.Attribute(item.span, subject, name))
            tests += more
            binds += named
        return tests, binds


def _text(e: ast.Expr) -> str:
    return f"{_text(e.value)}.{e.attr}" if isinstance(e, ast.Attribute) else e.id if isinstance(e, ast.Name) else "C"


def _refused(p: Pattern) -> list[tuple[str, ast.Expr]]:
    """The names a refused pattern binds, bound to an error (already reported): no second message."""
    names: list[str] = []
    todo = [p]
    while todo:
        q = todo.pop()
        if isinstance(q, (Capture, Star)) and q.name != "_":
            names.append(q.name)
        if isinstance(q, As):
            names.append(q.name)
        if isinstance(q, Mapping) and q.rest is not None:
            names.append(q.rest)
        if isinstance(q, As):
            todo.append(q.pattern)
        elif isinstance(q, Or):
            todo += q.alternatives
        elif isinstance(q, Sequence):
            todo += q.items
        elif isinstance(q, Mapping):
            todo += q.values
        elif isinstance(q, ClassPattern):
            todo += [*q.positional, *(v for _, v in q.keywords)]
    return [(name, ast.ErrorExpr(p.span)) for name in dict.fromkeys(names)]


def resolve_positional(items: tuple, diags: DiagnosticBag) -> tuple:
    """The module's statements with each positional class sub-pattern's attribute named: by the
    class's `__match_args__` (a tuple of strings in its body), or a dataclass's fields in order
    (its base dataclass's first; Python's `__match_args__` is its `__init__`'s parameters). E0021
    for a class that has none, E0001 for more sub-patterns than it has (Python's TypeError)."""
    from .classes import ClassDef

    classes = {c.name: c for c in items if isinstance(c, ClassDef)}
    known: dict[str, tuple[str, ...] | None] = {}

    def match_args(name: str) -> tuple[str, ...] | None:
        if name not in known:
            known[name] = None  # (a class deriving from itself stays without)
            known[name] = _match_args(classes[name], match_args) if name in classes else None
        return known[name]

    reported: set = set()  # (class, subject's span): one error for the sub-patterns of one class pattern

    def named(node: ast.Node) -> ast.Node | None:
        if not (isinstance(node, ast.Attribute) and node.attr.startswith(POSITIONAL + ":")):
            return None
        _, cls, index = node.attr.split(":")
        names = match_args(cls)
        if (names is None or int(index) >= len(names)) and (cls, node.value.span) in reported:
            return ast.ErrorExpr(node.span)
        if names is None or int(index) >= len(names):
            reported.add((cls, node.value.span))
        if names is None:
            diags.error("E0021", node.span, pattern=f"a positional sub-pattern of `{cls}(...)`, a class without "
                        "`__match_args__`", advice=f"name the attribute it matches (`{cls}(x=...)`)")
            return ast.ErrorExpr(node.span)
        if int(index) >= len(names):
            diags.error("E0001", node.span, detail=f"{cls}() accepts {len(names)} positional sub-pattern"
                        f"{'' if len(names) == 1 else 's'} ({int(index) + 1} given)")
            return ast.ErrorExpr(node.span)
        return ast.Attribute(node.span, node.value, names[int(index)])

    return ast.transform(items, named)


def _match_args(c, match_args) -> tuple[str, ...] | None:
    for s in c.body:  # `__match_args__ = ("x", "y")`
        if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name) \
                and s.targets[0].id == "__match_args__" and isinstance(s.value, ast.TupleExpr) \
                and all(isinstance(x, ast.StrLit) for x in s.value.elts):
            return tuple(x.value for x in s.value.elts)  # type: ignore[attr-defined]
    if not any(d.name in ("dataclass", "dataclasses.dataclass") for d in c.decorators):
        return None
    base = c.bases[0].id if len(c.bases) == 1 and isinstance(c.bases[0], ast.Name) else None
    inherited = (match_args(base) or ()) if base is not None else ()
    own = []
    for s in c.body:
        if not (isinstance(s, ast.VarDecl) and not s.explicit and s.annotation is not None):
            continue
        head = s.annotation.value if isinstance(s.annotation, ast.Subscript) else s.annotation
        if getattr(head, "attr", getattr(head, "id", "")) in ("ClassVar", "InitVar"):
            continue
        if isinstance(s.value, ast.Call) and any(k.name == "init" and isinstance(k.value, ast.BoolLit)
                                                 and not k.value.value for k in s.value.keywords):
            continue  # `field(init=False)`: not an `__init__` parameter
        own.append(s.name)
    return tuple(n for n in inherited if n not in own) + tuple(own)
