"""`if best is None or x > best`: Python code reads an Optional as its value where a test has
just shown it is not None. In a `def`, the checker does the same for the stdlib's `Optional[T]` (a
variable of a number, str, ... type that may be None): in the region a test guards, a read of
the variable is its value (`.value()`, typed T), as if the user had written that.

The regions, each guarded by `v is not None` (or by `v is None` being false; or by `v` being true,
Python's truth of an Optional: None or a false value is false):
- the right operands of `v is None or ...` and of `v is not None and ...`;
- the body of `if v is not None:` / `while v is not None:` and the `else` of `if v is None:`
  (with `and` in a positive test, every `is not None` in it), and likewise for `x if test else y`;
- the statements after a guard, in the same block: `if v is None: return` (a body that always
  leaves the block: return, raise, break, continue), the `if` whose `else` always leaves it
  for `if v is not None:`, and `assert v is not None` (`after_statement`).
A region that assigns the variable again is not narrowed: the value read there might be None
(the test said nothing about it). Class references need none of this (they are nullable).

An object's attribute (`if self.best is None or n > self.best:`, `obj.name is not None and
len(obj.name) > 3`; obj a variable of a class type) is narrowed the same way (an `AttributePlace`),
where the region assigns no attribute of that name and calls nothing that could (only the
built-in functions and the attribute's own methods: a method of the object could set it to None,
and CPython would then raise where pyx read a value). Operators, truth tests and built-in calls
run an object's own methods too (`b == c` is `b.__eq__(c)`, `len(b)` is `b.__len__()`), so the
region's operators, operands and built-in calls must be of values that hold no object (numbers,
strings, literals: `_plain`); otherwise it is not narrowed and the read stays an Optional
(a compile-time error, never a value CPython would not have read).
"""
from __future__ import annotations

import re
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from ..diagnostics import Note
from ..source import Span
from ..syntax import ast
from ..types import StructType, Type
from .builtin_types import is_builtin
from .globals import bound_names
from .typed import LocalVar, TExpr

if TYPE_CHECKING:
    from .check import FunctionChecker


@dataclass(frozen=True)
class AttributePlace:
    """`obj.attr`, obj a variable holding an object, the attribute an Optional."""

    var: LocalVar
    attr: str
    read: Span | None = None  # one read of it (where it is written), narrowed where the others are not

    @property
    def name(self) -> str:
        return self.var.name


def _field(chk: FunctionChecker, e: ast.Expr) -> tuple[LocalVar, Type] | None:
    """For `obj.attr`, obj a variable of a class type and attr one of its data fields (not a
    property): the variable and the field's type."""
    from .classes import data_type, is_class

    if not (isinstance(e, ast.Attribute) and isinstance(e.value, ast.Name)):
        return None
    var = chk.scopes.lookup(e.value.id)
    if not isinstance(var, LocalVar) or not is_class(var.type):
        return None
    data = data_type(chk, var.type)
    index = data.field_index(e.attr) if data is not None else None
    return None if data is None or index is None else (var, data.fields[index][1])


def _attribute_place(chk: FunctionChecker, e: ast.Expr) -> AttributePlace | None:
    """`obj.attr` as an AttributePlace, when obj is a variable of a class type whose attribute
    `attr` is an Optional (None otherwise)."""
    found = _field(chk, e)
    if found is None or not isinstance(e, ast.Attribute) or not is_builtin(found[1], "Optional"):
        return None
    return AttributePlace(found[0], e.attr)


_PURE_BUILTINS = frozenset({"len", "str", "int", "float", "abs", "min", "max", "repr", "bool", "round", "print",
                            "ord", "chr", "hash", "isinstance", "format"})


_LITERALS = (ast.IntLit, ast.FloatLit, ast.StrLit, ast.BoolLit, ast.NoneLit)


def _plain(chk: FunctionChecker, e: ast.Node, place: AttributePlace) -> bool:
    """Whether evaluating e (or testing its truth, or comparing it) can run no method of the
    program: a literal, the narrowed attribute itself, a variable whose type holds no object, or
    operators and built-in calls of those."""
    from .print_order import mentions_object

    if isinstance(e, _LITERALS):
        return True
    if isinstance(e, ast.Attribute):
        if e.attr == place.attr and isinstance(e.value, ast.Name) and e.value.id == place.var.name:
            return True
        return _plain_field(chk, e)
    if isinstance(e, ast.Subscript):  # a list's or dict's item (an object's own __getitem__: not plain)
        return _plain(chk, e.value, place) and all(_plain(chk, i, place) for i in e.items)
    if isinstance(e, ast.Name):
        var = chk.scopes.lookup(e.id)
        return isinstance(var, LocalVar) and not mentions_object(var.type)
    if isinstance(e, ast.Unary):
        return _plain(chk, e.operand, place)
    if isinstance(e, ast.Binary):
        return _plain(chk, e.left, place) and _plain(chk, e.right, place)
    if isinstance(e, ast.Compare):
        return all(_plain(chk, x, place) for x in (e.left, *e.comparators))
    if isinstance(e, ast.BoolOp):
        return all(_plain(chk, x, place) for x in e.values)
    if isinstance(e, ast.Call):
        f = e.func
        own = isinstance(f, ast.Attribute) and _plain(chk, f.value, place) and isinstance(f.value, ast.Attribute)
        builtin = isinstance(f, ast.Name) and f.id in _PURE_BUILTINS
        return (own or builtin) and not e.keywords and all(_plain(chk, a, place) for a in e.args)
    return False


def _plain_field(chk: FunctionChecker, e: ast.Attribute) -> bool:
    """`obj.attr`, a data field (see `_field`) whose type holds no object."""
    from .print_order import mentions_object

    found = _field(chk, e)
    return found is not None and not mentions_object(found[1])


def _runs_object_code(chk: FunctionChecker, n: ast.Node, place: AttributePlace) -> bool:
    """Whether n is an operator or built-in call that may run a method of an object (`b == c`,
    `-b`, `len(b)`): see `_plain`."""
    if isinstance(n, ast.Compare) and any(op not in ("is", "is not") for op in n.ops):
        return not _plain(chk, n, place)
    if isinstance(n, (ast.Binary, ast.Unary)):
        return not _plain(chk, n, place)
    if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in _PURE_BUILTINS:
        return not all(_plain(chk, a, place) for a in n.args)
    return False


def _may_change(chk: FunctionChecker, region: tuple[ast.Node, ...], place: AttributePlace,
                tested: bool = False) -> bool:
    """Whether the region may set `place` (see the module's docstring). `tested`: the region's
    nodes are operands of `and`/`or`, whose truth is tested (an object's `__bool__`/`__len__`)."""
    if tested and any(isinstance(n, ast.Expr) and not isinstance(n, (ast.Compare, ast.Call, ast.BoolOp))
                      and not _plain(chk, n, place) for n in region):
        return True
    stack: list[ast.Node] = list(region)
    while stack:
        n = stack.pop()
        if _changes_here(chk, n, place):
            return True
        stack.extend(ast.children(n))
    return place.var.name in bound_names(cast("tuple[ast.Stmt, ...]", region))[0]


def _changes_here(chk: FunctionChecker, n: ast.Node, place: AttributePlace) -> bool:
    """Whether n itself (its operands aside) may set `place`: an assignment to an attribute of that
    name, a call of the program's code, an operator that may run an object's method."""
    if _runs_object_code(chk, n, place):
        return True
    if isinstance(n, (ast.Subscript, ast.Attribute)) and _runs_accessor(chk, n):
        return True
    if isinstance(n, (ast.Assign, ast.AugAssign, ast.Delete)):
        targets = (n.target,) if isinstance(n, ast.AugAssign) else n.targets
        if any(isinstance(t, ast.Attribute) and t.attr == place.attr for t in targets):
            return True
    if isinstance(n, ast.Call):
        f = n.func
        own = isinstance(f, ast.Attribute) and isinstance(f.value, ast.Attribute) and f.value.attr == place.attr \
            and isinstance(f.value.value, ast.Name) and f.value.value.id == place.var.name
        if not own and not (isinstance(f, ast.Name) and f.id in _PURE_BUILTINS) and not _library_method(chk, n, place):
            return True
    return False


def _runs_accessor(chk: FunctionChecker, n: ast.Subscript | ast.Attribute) -> bool:
    """Whether reading n may run the program's code: an object's `__getitem__` (or one of an
    unknown type), an object's property."""
    from .classes import data_type, is_class

    owner = _static_type(chk, n.value)
    if isinstance(n, ast.Subscript):
        return owner is None or is_class(owner)
    data = data_type(chk, owner) if owner is not None and is_class(owner) else None
    return data is not None and data.field_index(n.attr) is None


def _library_method(chk: FunctionChecker, call: ast.Call, place: AttributePlace) -> bool:
    """`self.log.append(text)`, `member.borrowed.remove(isbn)`: a method of the standard library's
    (a list, dict, set, str) on a value holding no object, given values holding none: it runs no
    code of the program."""
    from .imports import is_stdlib_file
    from .print_order import mentions_object

    f = call.func
    if not isinstance(f, ast.Attribute) or call.keywords or not all(_plain(chk, a, place) for a in call.args):
        return False
    t = _static_type(chk, f.value)
    sym = chk.structs.struct_of(t) if isinstance(t, StructType) else None
    return sym is not None and is_stdlib_file(sym.decl.span.file.name) and not mentions_object(t)


def _static_type(chk: FunctionChecker, e: ast.Expr) -> Type | None:
    """The type of a variable, an object's data field (`self.members`, `book.tags`) or a dict's or
    list's item (`self.members[k].borrowed`), known without checking e; None for anything else."""
    from .classes import data_type, is_class

    if isinstance(e, ast.Name):
        var = chk.scopes.lookup(e.id)
        return var.type if isinstance(var, LocalVar) else None
    if isinstance(e, ast.Attribute):
        owner = _static_type(chk, e.value)
        data = data_type(chk, owner) if owner is not None and is_class(owner) else None
        index = data.field_index(e.attr) if data is not None else None
        return None if data is None or index is None else data.fields[index][1]
    if isinstance(e, ast.Subscript) and len(e.items) == 1:
        held = _static_type(chk, e.value)
        if not isinstance(held, StructType):
            return None
        item = held.ct_env.get("V") if is_builtin(held, "Dict") else held.ct_env.get("T") if is_builtin(held, "List") \
            else None
        return item if isinstance(item, Type) else None
    return None


def reads_before_change(chk: FunctionChecker, region: tuple[ast.Node, ...], place: AttributePlace) -> list[Span]:
    """Where a region that may set `place` reads it before anything that may (in Python's order of
    evaluation): `raise NotAvailable(book.title, book.holder)` reads `book.holder` before the call
    runs. A loop, a nested function and what pyx does not follow here end the search where they start
    if they may set it."""
    reads: list[Span] = []

    def visit(n: ast.Node) -> bool:  # True once something may have set `place`
        if isinstance(n, (ast.Lambda, ast.FnDef)) or (isinstance(n, ast.Comprehension) and n.kind == "generator"):
            return False  # (its reads run later, when it is called or iterated: not narrowed here)
        if isinstance(n, ast.Attribute) and n.attr == place.attr and isinstance(n.value, ast.Name) \
                and n.value.id == place.var.name:
            reads.append(n.span)
            return False
        if isinstance(n, ast.If):
            if visit(n.test):
                return True
            body, orelse = block(n.body), block(n.orelse)
            return body or orelse
        if isinstance(n, ast.Assign):  # the value first, then each target's parts (a target is no read)
            return visit(n.value) or any(any(visit(c) for c in ast.children(t)) for t in n.targets) \
                or _changes_here(chk, n, place)
        if isinstance(n, (ast.ExprStmt, ast.Return, ast.Raise, ast.Call, ast.Attribute, ast.Subscript, ast.Binary,
                          ast.Unary, ast.Compare, ast.BoolOp, ast.TupleExpr, ast.ListExpr, ast.Keyword)):
            return any(visit(c) for c in ast.children(n)) or _changes_here(chk, n, place)
        if _may_change(chk, (n,), place):  # (a loop, an `x if c else y`, a comprehension, ...: as a whole)
            return True
        return any(visit(c) for c in ast.children(n))

    def block(stmts: tuple[ast.Stmt, ...]) -> bool:
        return any(visit(s) for s in stmts)

    if place.var.name not in bound_names(cast("tuple[ast.Stmt, ...]", region))[0]:
        block(cast("tuple[ast.Stmt, ...]", region))
    return reads


_NAME = re.compile(r"[A-Za-z_]\w*")
_ATTRIBUTE = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)+")


def optional_notes(*operands: TExpr) -> tuple[Note, ...]:
    """For E0202/E0203 on an Optional operand (`o.x + 1` where nothing narrowed `o.x`): what Python
    code writes to use the value. An attribute is best copied into a local first, as CPython users
    do: a test of the attribute holds only until code that may change the object runs."""
    for v in operands:
        if not is_builtin(v.type, "Optional"):
            continue
        text = v.span.file.text[v.span.start:v.span.end]
        if _ATTRIBUTE.fullmatch(text):
            local = text.rsplit(".", 1)[1]
            return (Note(f"`{text}` may be None here (a test of it is forgotten where code that may change the "
                         f"object runs): copy it to a variable and test that, `{local} = {text}` then "
                         f"`if {local} is not None:`, and use `{local}`", v.span),)
        if _NAME.fullmatch(text):
            return (Note(f"`{text}` may be None here: test it first (`if {text} is not None:`)", v.span),)
    return ()


def attribute_read(chk: FunctionChecker, e: ast.Attribute):
    """`obj.attr` read where a test has shown it is not None: its value (`.value()`); else None."""
    if not chk.narrowed or not isinstance(e.value, ast.Name):
        return None
    var = chk.scopes.lookup(e.value.id)
    place = AttributePlace(var, e.attr) if isinstance(var, LocalVar) else None
    if place is not None and place not in chk.narrowed:  # this read alone (`reads_before_change`)
        place = AttributePlace(place.var, place.attr, e.span)
    if place is None or place not in chk.narrowed:
        return None
    chk.narrowed.discard(place)
    try:
        read = chk.exprs.expr(e)
    finally:
        chk.narrowed.add(place)
    return chk.structs.method_call(read, "value", [], e.span)


def _tested(chk: FunctionChecker, test: ast.Expr) -> tuple[LocalVar | AttributePlace, bool] | None:
    """(v, True) for `v is not None`, (v, False) for `v is None`, v an Optional variable (or an
    object's Optional attribute)."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and test.ops[0] in ("is", "is not")):
        return None
    left, right = test.left, test.comparators[0]
    name = left if isinstance(right, ast.NoneLit) else right if isinstance(left, ast.NoneLit) else None
    place = _attribute_place(chk, name) if isinstance(name, ast.Attribute) else None
    if place is not None:
        return place, test.ops[0] == "is not"
    if not isinstance(name, ast.Name):
        return None
    var = chk.scopes.lookup(name.id)
    if not isinstance(var, LocalVar) or not is_builtin(var.type, "Optional"):
        return None
    return var, test.ops[0] == "is not"


def not_none_when(chk: FunctionChecker, test: ast.Expr, outcome: bool) -> list[LocalVar | AttributePlace]:
    """The Optional variables known not to be None where `test` evaluated to `outcome`. Only in
    Python's `def`s: in a Mojo-style `fn`, `opt.value()` is written out, as Mojo has it."""
    if chk.fn.decl.kind != "def":
        return []
    found = _tested(chk, test)
    if found is not None:
        return [found[0]] if found[1] == outcome else []
    if isinstance(test, ast.BoolOp) and (test.op == "and") == outcome:
        return operand_guards(chk, test.values, len(test.values), outcome)
    if isinstance(test, ast.Unary) and test.op == "not":
        return not_none_when(chk, test.operand, not outcome)
    if outcome and isinstance(test, ast.Name):  # `if opt:` true (Python's truth: optional_types.py python_truth)
        var = chk.scopes.lookup(test.id)
        return [var] if isinstance(var, LocalVar) and is_builtin(var.type, "Optional") else []
    return []


def operand_guards(chk: FunctionChecker, values: tuple[ast.Expr, ...], i: int, outcome: bool) -> list:
    """What `v is None or R` (outcome False; `v is not None and R`, True) shows about operand i
    of a chain of `or` (`and`): the variables its earlier operands tested; an attribute only
    where the operands between cannot set it (`o.v is not None and o.reset() and o.v > 3`)."""
    known = []
    for k, before in enumerate(values[:i]):
        known += [v for v in not_none_when(chk, before, outcome)
                  if not (isinstance(v, AttributePlace) and _may_change(chk, tuple(values[k + 1:i]), v, tested=True))]
    return known


def _assigns(chk: FunctionChecker, region: tuple[ast.Node, ...], var: LocalVar | AttributePlace) -> bool:
    if isinstance(var, AttributePlace):
        return _may_change(chk, region, var)
    # (bound_names walks any nodes; an expression region binds nothing but through a nested one)
    return var.name in bound_names(cast("tuple[ast.Stmt, ...]", region))[0]


@contextmanager
def narrowed(chk: FunctionChecker, variables: list[LocalVar | AttributePlace], region: tuple[ast.Node, ...]):
    """Check `region` with reads of these variables as their values (unless it assigns them)."""
    added = [v for v in variables if v not in chk.narrowed and not _assigns(chk, region, v)]
    added += [AttributePlace(v.var, v.attr, at) for v in variables if isinstance(v, AttributePlace)
              and v not in chk.narrowed and v not in added for at in reads_before_change(chk, region, v)]
    chk.narrowed.update(added)
    try:
        yield
    finally:
        chk.narrowed.difference_update(added)


def always_leaves(stmts) -> bool:
    """Whether running `stmts` never reaches the statement after them (it returns, raises, breaks
    or continues on every path)."""
    if not stmts:
        return False
    last = stmts[-1]
    if isinstance(last, (ast.Return, ast.Raise, ast.Break, ast.Continue)):
        return True
    return isinstance(last, ast.If) and always_leaves(last.body) and always_leaves(last.orelse)


def after_statement(chk: FunctionChecker, s: ast.Stmt) -> list[LocalVar | AttributePlace]:
    """The Optional variables known not to be None after `s` (a guard; see the docstring)."""
    if isinstance(s, ast.Assert):
        return not_none_when(chk, s.test, True)
    if not isinstance(s, ast.If):
        return []
    if always_leaves(s.body):  # past it only when the test was false (and the else, if any, ran)
        return [v for v in not_none_when(chk, s.test, False) if not _assigns(chk, tuple(s.orelse), v)]
    if always_leaves(s.orelse):
        return [v for v in not_none_when(chk, s.test, True) if not _assigns(chk, tuple(s.body), v)]
    return []
