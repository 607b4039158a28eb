"""Inheritance in the checker (docs/semantics.md, "Inheritance"; syntax/inheritance.py builds the
classes): an object where its base class is wanted, and Python's `isinstance`.

- A `B` where an `A` is wanted (an argument, an element of a `list[A]`, an assignment) is the same
  object seen as an `A`: the handle's `__pyx_up_A()`, which adds a reference.
- `isinstance(x, C)` is decided when compiling where the types decide it (`isinstance(n, int)` of
  an int, an object of a class unrelated to C), and otherwise asks the object: its class id, or,
  for C its own class or a base, whether it is not None (Python's `isinstance(None, C)` is False).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import types as T
from ..source import Span
from ..syntax import ast
from ..syntax.inheritance import CAST, DOWN, ISA, UP, binding_count
from ..types import ERROR, StructType, Type
from . import classes
from .builtin_types import is_builtin
from .typed import TBinary, TCompare, TConst, TCopy, TExpr, TExprStmt, TField, TIf, TLocal, TPtrOp, TStmtExpr

if TYPE_CHECKING:
    from .check import FunctionChecker


def upcast(chk: FunctionChecker, e: TExpr, target: Type) -> TExpr | None:
    """e (an object of a subclass of target's class) as a target; None where target is no base of it."""
    if not (classes.is_class(e.type) and classes.is_class(target)):
        return upcast_list(chk, e, target)
    method = UP + classes.class_name(target)
    sym = chk.structs.struct_of(e.type)
    if sym is None or method not in sym.methods:
        return None
    result = chk.structs.method_call(e, method, [], e.span)
    if result is None or result.type != target:
        return None
    return result


# Python's builtin types by name, and the pyx types an `isinstance` of each is true of.
_BUILTIN_TYPES = {
    "int": lambda t: isinstance(t, T.ScalarType) and (t.is_int or t == T.BOOL),
    "bool": lambda t: t == T.BOOL,
    "float": lambda t: isinstance(t, T.ScalarType) and t.is_float,
    "tuple": lambda t: isinstance(t, T.TupleType),
}


def _struct_named(t: Type, *names: str) -> bool:
    """Whether t is one of the standard library's structs `names` (a user's `class Set` is not a set)."""
    from .builtin_types import is_builtin

    if t == T.STRING_LITERAL:
        return "String" in names
    return any(is_builtin(t, name) for name in names)


_BUILTIN_STRUCTS = {"str": ("String",), "list": ("List",), "dict": ("Dict",), "set": ("Set",), "bytes": ("Bytes",),
                    "bytearray": ("ByteArray",)}


def isinstance_call(chk: FunctionChecker, e: ast.Call) -> TExpr:
    """`isinstance(x, C)` and `isinstance(x, (C, D))`."""
    if len(e.args) != 2 or e.keywords:
        chk.msg.error("E0204", e.span, func="isinstance", expected=2, s="s", found=len(e.args) + len(e.keywords))
        return TConst(e.span, ERROR, None)
    value = chk.exprs.value(chk.exprs.expr(e.args[0]))  # (an untyped constant: its default type)
    if value.type == ERROR:
        return value
    spec = e.args[1]
    names = spec.elts if isinstance(spec, ast.TupleExpr) else (spec,)
    tests: list[TExpr] = []
    held = value
    prelude: list = []
    if (classes.is_class(value.type) or is_builtin(value.type, "Number")) and not isinstance(e.args[0], ast.Name):
        var = chk.new_var("$isinstance", value.type, e.span)  # evaluated once, whatever the names
        prelude.append(chk.store([var], [value], e.span))
        from .typed import TLocal

        held = TLocal(e.span, var.type, var)
    for name in names:
        test = _one(chk, held, name, e)
        if test is None:
            return TConst(e.span, ERROR, None)
        tests.append(test)
    result = tests[0]
    for test in tests[1:]:
        result = _or(e.span, result, test)
    if prelude:
        return TStmtExpr(e.span, T.BOOL, prelude, result)
    return result


def issubclass_call(chk: FunctionChecker, e: ast.Call) -> TExpr:
    """`issubclass(C, D)` and `issubclass(C, (D, E))` of the program's classes: known when
    compiling (the hierarchy is the module's), a constant Bool."""
    if len(e.args) != 2 or e.keywords:
        chk.msg.error("E0204", e.span, func="issubclass", expected=2, s="s", found=len(e.args) + len(e.keywords))
        return TConst(e.span, ERROR, None)
    spec = e.args[1]
    names = spec.elts if isinstance(spec, ast.TupleExpr) else (spec,)
    classes_named = []
    for name in (e.args[0], *names):
        sym = chk.module.structs.get(name.id) if isinstance(name, ast.Name) and chk.scopes.lookup(name.id) is None \
            else None
        if sym is None or not classes.is_class(sym.type):
            chk.msg.error("E0310", name.span, what=_text(name))
            return TConst(e.span, ERROR, None)
        classes_named.append(sym.type)
    mine = _bases(classes_named[0]) | {classes.class_name(classes_named[0])}
    return TConst(e.span, T.BOOL, any(classes.class_name(t) in mine for t in classes_named[1:]))


def _or(span: Span, a: TExpr, b: TExpr) -> TExpr:
    from .typed import TBoolOp

    if isinstance(a, TConst) and a.value is False:
        return b
    if isinstance(b, TConst) and b.value is False:
        return a
    return TBoolOp(span, T.BOOL, "or", [a, b])


def _one(chk: FunctionChecker, value: TExpr, name: ast.Expr, e: ast.Call) -> TExpr | None:
    """Whether value is an instance of the class name (None after an error)."""
    if not isinstance(name, ast.Name):
        chk.msg.error("E0268", name.span, what=_text(name))
        return None
    t = value.type
    exception = exception_test(chk, value, name)
    if exception is not None:
        return exception
    if name.id in ("int", "float") and is_builtin(t, "Number") and chk.scopes.lookup(name.id) is None:
        test = chk.structs.method_call(value, "_is_float", [], name.span)  # Python's `int | float` (numbers.py)
        if test is None or name.id == "float":
            return test
        from .typed import TUnary

        return TUnary(name.span, T.BOOL, "not", test)
    if name.id in _BUILTIN_TYPES:
        return TConst(name.span, T.BOOL, bool(_BUILTIN_TYPES[name.id](t)))
    if name.id in _BUILTIN_STRUCTS:
        return TConst(name.span, T.BOOL, _struct_named(t, *_BUILTIN_STRUCTS[name.id]))
    sym = chk.module.structs.get(name.id)
    if sym is None or not classes.is_class(sym.type):
        chk.msg.error("E0268", name.span, what=name.id)
        return None
    if not classes.is_class(t):
        return TConst(name.span, T.BOOL, False)  # a number, a string, a struct: never an object of a class
    mine = chk.structs.struct_of(t)
    method = ISA + name.id
    if mine is not None and method in mine.methods:
        return chk.structs.method_call(value, method, [], name.span)
    if classes.class_name(t) == name.id:  # a class without subclasses: an object unless None
        return classes.identity(chk, "is not", value, TConst(name.span, T.NONE, None), name.span)
    return TConst(name.span, T.BOOL, False)  # an unrelated class


def exception_test(chk: FunctionChecker, value: TExpr, name: ast.Name) -> TExpr | None:
    """`isinstance(e, C)` with C an exception class: whether caught exception e's class is C or
    derives from it (its class name among those `except C` catches); None when C is no exception class."""
    from .exceptions import PARENT, covered
    from .typed import TBuiltin

    user = chk.module.exceptions
    if (name.id not in PARENT and name.id not in user) or chk.scopes.lookup(name.id) is not None \
            or name.id in chk.module.structs:
        return None
    if value.type != T.EXCEPTION:
        from .exception_values import isinstance_test

        kept = isinstance_test(chk, value, name)  # an exception value (semantics/exception_values.py)
        return kept if kept is not None else TConst(name.span, T.BOOL, False)  # a number, a str: never one
    names = [TConst(name.span, T.STRING_LITERAL, c) for c in sorted(covered(name.id, user))]
    return TBuiltin(name.span, T.BOOL, "exc_is", [value, *names])


def _text(node: ast.Node) -> str:
    return node.span.file.text[node.span.start:node.span.end]


def _bases(t: Type) -> set[str]:
    """The names of the base classes of class t (its `__pyx_up_` conversions)."""
    sym = getattr(t, "symbol", None)
    return {m.removeprefix(UP) for m in getattr(sym, "methods", {}) if m.startswith(UP)}


def common_base(chk: FunctionChecker, values: list[TExpr]) -> Type | None:
    """The type of a literal's items that are objects of several classes of one hierarchy: their
    nearest common base (Python's list holds them all). None where that is not the case."""
    types = [v.type for v in values]
    if len(types) < 2 or not all(classes.is_class(t) for t in types) or len(set(types)) == 1:
        return None
    shared: set[str] | None = None
    for t in types:
        mine = _bases(t) | {classes.class_name(t)}
        shared = mine if shared is None else shared & mine
    if not shared:
        return None
    # The nearest common base has the most bases of its own.
    best = max(shared, key=lambda n: (len(_bases(chk.module.structs[n].type)) if n in chk.module.structs else -1, n))
    sym = chk.module.structs.get(best)
    return sym.type if sym is not None else None


def upcast_list(chk: FunctionChecker, e: TExpr, target: Type) -> TExpr | None:
    """A list literal of objects of subclasses where a list of their base is wanted
    (`shapes: list[Shape] = [Circle(1.0)]`): the literal with each item seen as the base."""
    from .typed import TListLit

    if not (isinstance(e, TListLit) and isinstance(target, StructType) and isinstance(e.type, StructType)
            and (target.base or target.name) == (e.type.base or e.type.name)):
        return None
    elem = target.ct_env.get("T")
    if not isinstance(elem, StructType) or not classes.is_class(elem):
        return None
    items = []
    for x in e.elts:
        up = x if x.type == elem else upcast(chk, x, elem)
        if up is None:
            return None
        items.append(up)
    chk.ownership.need_drop(target, e.span)
    return TListLit(e.span, target, items)


def _kept(fn: ast.FnDef, s: ast.Assert, name: str, var) -> bool:
    """Whether local x (name) keeps its object from the assert s to the end of s's block (where the
    narrowed variable is seen): no statement after s in that block binds it, no nested function
    of fn binds it (a call could run one), and it is not a module-level variable (a call could
    assign that). Bindings elsewhere (other loops over the same name) do not matter."""
    if getattr(var, "global_symbol", None) is not None:
        return False
    stack: list = list(fn.body)
    region = None
    while stack:
        node = stack.pop()
        if isinstance(node, ast.FnDef) and binding_count(node, name):
            return False  # a nested function binding it (`nonlocal x`): a call could change x
        for value in (getattr(node, f, None) for f in ("body", "orelse", "finalbody")):
            if isinstance(value, tuple) and any(x is s for x in value):
                region = value[next(i for i, x in enumerate(value) if x is s) + 1:]
        stack.extend(ast.children(node))
    if region is None:
        return False
    return binding_count(ast.FnDef(s.span, "def", "", s.span, (), (), False, None, tuple(region)), name) == 0


def narrowed(chk: FunctionChecker, s: ast.Assert):
    """After `assert isinstance(x, C)` (and at the top of `if isinstance(x, C):`, which
    syntax/inheritance.py opens with that assert), x is seen as a C where C is a subclass of x's
    class: a new variable of type C, bound to the same object, shadows x for the rest of the
    block. Only where no assignment can leave the two apart: x bound once in the function, or a
    local x (a loop variable, say, its name reused by other loops) that nothing binds in the rest
    of the block and no nested function binds (`_kept`)."""
    from .typed import LocalVar

    test = _isinstance_test(s.test)
    if test is None:
        return None
    name, cls = test
    var = chk.scopes.lookup(name)
    if isinstance(var, LocalVar) and var.type == T.EXCEPTION:  # a caught exception (semantics/raising.py)
        return chk.exceptions.narrowed(var, cls, s.span)
    if not isinstance(var, LocalVar) or not classes.is_class(var.type):
        return None
    if binding_count(chk.fn.decl, name) > 1 and not _kept(chk.fn.decl, s, name, var):
        return None
    return _narrowing(chk, name, cls, s.span)


def _isinstance_test(test: ast.Expr) -> tuple[str, str] | None:
    """`isinstance(x, C)` with names x and C: (x, C)."""
    if not (isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.func.id == "isinstance"
            and len(test.args) == 2 and isinstance(test.args[0], ast.Name) and isinstance(test.args[1], ast.Name)):
        return None
    return test.args[0].id, test.args[1].id


def narrowed_operand(chk: FunctionChecker, before: tuple, operand: ast.Expr) -> TExpr | None:
    """An operand of `and` after `isinstance(x, C)` operands (`isinstance(other, Circle) and
    self.r == other.r`): checked with x seen as a C (a new variable bound to the same object, as
    after `assert isinstance(x, C)`), where C is a subclass of x's class; it runs only where the
    tests held. None where no earlier operand narrows anything (nothing in an expression can
    bind x again; a nested function that binds it, through `nonlocal`, could, and keeps x as it is)."""
    from .typed import LocalVar

    tests = [t for t in (_isinstance_test(b) for b in before) if t is not None]
    nested: list[ast.FnDef] = []
    stack: list[ast.Node] = list(chk.fn.decl.body) if tests else []
    while stack:
        node = stack.pop()
        if isinstance(node, ast.FnDef):
            nested.append(node)
        stack.extend(ast.children(node))
    chk.scopes.push()
    stores = []
    for name, cls in tests:
        var = chk.scopes.lookup(name)
        if isinstance(var, LocalVar) and var.type == T.EXCEPTION:  # a caught exception (semantics/raising.py)
            store = chk.exceptions.narrowed(var, cls, operand.span)
        elif isinstance(var, LocalVar) and classes.is_class(var.type) \
                and not any(binding_count(n, name) for n in nested):
            store = _narrowing(chk, name, cls, operand.span)
        else:
            store = None
        if store is not None:
            stores.append(store)
    value = chk.exprs.expr(operand) if stores else None
    chk.scopes.pop()
    if value is None:
        return None
    return TStmtExpr(operand.span, value.type, stores, value)


def _narrowing(chk: FunctionChecker, name: str, cls: str, span: Span):
    """The store binding a new variable `name`, the object local `name` refers to as a C (a
    subclass of its class), for the rest of the scope; None where C is no subclass of it."""
    from .typed import LocalVar, TLocal

    var = chk.scopes.lookup(name)
    if not isinstance(var, LocalVar):
        return None
    sym = chk.structs.struct_of(var.type)
    target = chk.module.structs.get(cls)
    if sym is None or target is None or DOWN + cls not in sym.methods:
        return None
    value = chk.structs.method_call(TLocal(span, var.type, var), DOWN + cls, [], span)
    if value is None or value.type == ERROR:
        return None
    new = chk.new_var(name, value.type, span)
    store = chk.store([new], [value], span)
    chk.scopes.declare(name, new)
    if chk.assigned is not None:
        chk.assigned.add(new)
    return store


def cast_call(chk: FunctionChecker, e: ast.Call) -> TExpr:
    """`__pyx_cast(h, C)`, the body of the generated `__pyx_up_C`/`__pyx_down_C`: the object handle h
    refers to, as a C handle (one more reference). Handles of every class are one address, so
    this is the same bits under another type, with no allocation."""
    if len(e.args) != 2 or not isinstance(e.args[1], ast.Name) or e.args[1].id not in chk.module.structs:
        chk.msg.error("E0204", e.span, func=CAST, expected=2, s="s", found=len(e.args))
        return TConst(e.span, ERROR, None)
    target = chk.module.structs[e.args[1].id].type
    if isinstance(e.args[0], ast.NoneLit):  # the null handle (`None` as an object), with no allocation
        chk.ownership.need_drop(target, e.span)
        return TCopy(e.span, target, TConst(e.span, target, None), {})
    value = chk.exprs.expr(e.args[0])
    if value.type == ERROR or not (classes.is_class(value.type) and classes.is_class(target)):
        return TConst(e.span, ERROR, None)
    return handle_at(chk, TField(e.span, T.ptr(T.INT), value, 0), target, e.span)


def held_address(chk: FunctionChecker, address: TExpr, span: Span) -> tuple[list, TExpr]:
    """address (a Ptr[Int] to an object's block, or null) kept in a variable, and a statement adding
    one reference to the object: (the statements, the variable)."""
    pointer = T.ptr(T.INT)
    var = chk.new_var("$address", pointer, span)
    p = TLocal(span, pointer, var)
    zero, one = TConst(span, T.INT, 0), TConst(span, T.INT, 1)
    count = TPtrOp(span, T.INT, "load", [p, zero])
    bump = TExprStmt(span, TPtrOp(span, T.NONE, "store", [p, zero, TBinary(span, T.INT, "+", count, one)]))
    live = TCompare(span, T.BOOL, [p, TConst(span, pointer, None)], ["!="], [pointer])
    return [chk.store([var], [address], span), TIf(span, live, [bump], [])], p


def handle_at(chk: FunctionChecker, address: TExpr, target: Type, span: Span) -> TExpr:
    """A target handle to the object at address (a Ptr[Int] to its block): one more reference."""
    prelude, p = held_address(chk, address, span)
    chk.ownership.need_drop(target, span)
    return TStmtExpr(span, target, prelude, TCopy(span, target, TConst(span, target, None), {0: p}))


def generated(chk: FunctionChecker) -> bool:
    """Whether chk checks code that syntax/classes.py generated (no user can write `__pyx_cast`)."""
    return chk.fn.decl.span.file.name.startswith("<class ")


def class_attribute(chk: FunctionChecker, receiver: TExpr, attr: str, span: Span) -> TExpr | None:
    """`obj.attr` where attr is a class attribute (syntax/class_attributes.py made it a module-level
    variable): that of obj's class or its nearest base defining it, or, where a subclass defines
    its own, the one of the class the object is (Python looks it up on the object's class).
    None where there is none."""
    from ..syntax.class_attributes import global_name

    def depth(n: str) -> int:
        return len(_bases(chk.module.structs[n].type)) if n in chk.module.structs else 0

    t = receiver.type
    order = [classes.class_name(t)] + sorted(_bases(t), key=lambda n: -depth(n))
    found = next((global_name(c, attr) for c in order if global_name(c, attr) in chk.module.globals), None)
    if found is None:
        return None
    value = chk.exprs.expr(ast.Name(span, found))
    sym = chk.structs.struct_of(t)
    subclasses = sorted((m.removeprefix(DOWN) for m in (sym.methods if sym is not None else ())
                         if m.startswith(DOWN) and global_name(m.removeprefix(DOWN), attr) in chk.module.globals),
                        key=depth)
    if not subclasses or value.type == ERROR:
        return value
    prelude: list = []
    held = classes._held(chk, receiver, span, prelude)
    result = chk.new_var("$class_attribute", value.type, span)
    prelude.append(chk.store([result], [value], span))
    for sub in subclasses:  # the most derived definition is stored last
        test = chk.structs.method_call(held, ISA + sub, [], span)
        own = chk.exprs.coerce(chk.exprs.expr(ast.Name(span, global_name(sub, attr))), value.type)
        if test is None or own.type == ERROR:
            return TConst(span, ERROR, None)
        prelude.append(TIf(span, test, [chk.store([result], [own], span)], []))
    from .typed import TMove

    out = TMove(span, result.type, result) if chk.ownership.owning(result.type) else TLocal(span, result.type, result)
    return TStmtExpr(span, value.type, prelude, out)


def override_result(chk: FunctionChecker, s: ast.Return, value: TExpr, expected: Type) -> bool:
    """A `return` of a method's dispatcher (syntax/inheritance.py `dispatcher`) whose definition
    returns another type than the one an earlier definition fixed (`Rectangle.area` an int,
    `Circle.area` a float): Python returns each as it is, pyx gives a call through the base one
    type (E0311, at the definition); True if reported."""
    from .numbers import holds

    found_cls = dispatched_class(chk, s.value)
    if found_cls is None or ERROR in (value.type, expected) or value.type == expected \
            or (classes.is_class(value.type) and classes.is_class(expected)) or holds(expected, value.type):
        return False  # (a Number holds an int or a float: semantics/numbers.py)
    first = next((r for r in _returns(chk.fn.decl.body) if dispatched_class(chk, r.value) is not None), None)
    if first is None or first is s:
        return False
    from ..diagnostics import Note

    method, base = chk.fn.decl.name, classes.class_name(chk.fn.owner) if chk.fn.owner is not None else "?"
    other = dispatched_class(chk, first.value)
    note = Note(f"`{other}.{method}` returns `{expected}`", first.span)
    chk.msg.error("E0311", s.span, (note,), cls=found_cls, method=method, found=value.type, other=other,
                  expected=expected, base=base)
    return True


def _returns(body) -> list:
    out, stack = [], list(reversed(body))
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Return):
            out.append(node)
        elif isinstance(node, ast.Stmt) and not isinstance(node, ast.FnDef):
            stack.extend(reversed([c for c in ast.children(node) if isinstance(c, ast.Stmt)]))
    return out


def dispatched_class(chk: FunctionChecker, value: ast.Expr | None) -> str | None:
    """The class whose definition a dispatcher's returned call runs: `self.__pyx_down_C().m()`
    (C), `self.__pyx_impl_m()` (the dispatcher's own class); None for any other expression."""
    from ..syntax.inheritance import IMPL

    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)):
        return None
    receiver = value.func.value
    if isinstance(receiver, ast.Call) and isinstance(receiver.func, ast.Attribute) \
            and receiver.func.attr.startswith(DOWN):
        return receiver.func.attr.removeprefix(DOWN)
    if value.func.attr == IMPL + chk.fn.decl.name and chk.fn.owner is not None:
        return classes.class_name(chk.fn.owner)
    return None
