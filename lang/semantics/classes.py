"""Classes in the checker: `obj.x` reads and changes the object, through every reference.

A class `C` reaches the checker as two structs (`syntax/classes.py`): the handle `C` (one field,
the object's address) and `__pyx_data_C` (the count and the attributes). Here:

- `obj.x` (a read) is the data's field `x`, read through the handle's pointer. An attribute that
  is itself an object is read as a new reference (the count goes up, and down again when the
  temporary ends), so that it stays alive even if the attribute is replaced while it is used;
  other attributes are read in place, as a struct's fields are.
- `obj.x = v`, `obj.x += v`, `obj.items.append(v)`, `obj.pos.x = v` change the object in place:
  its data is lent to a slot (`TLend`, as an element of a `List` is) for the change and stored
  back. Anything that could run the user's code (a call in `v`, in an argument) is evaluated
  first, into a variable of its own, so no other reference to the object can see or change it
  while it is lent. Python evaluates those first too.
"""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from .. import types as T
from ..source import Span
from ..syntax import ast
from ..syntax.classes import NULL_METHOD, OBJECT_FIELD, data_name
from ..syntax.properties import is_property, setter_name
from ..types import ERROR, StructType, Type
from .typed import (
    TBlock,
    TBoolOp,
    TCall,
    TCompare,
    TConst,
    TExpr,
    TExprStmt,
    TField,
    TIf,
    TLend,
    TLocal,
    TMove,
    TPtrOp,
    TRaise,
    TStmtExpr,
)

if TYPE_CHECKING:
    from .check import FunctionChecker


def is_class(t: Type) -> bool:
    """A class's handle (what a variable of a class type holds)."""
    return (isinstance(t, StructType) and t.symbol is not None and len(t.fields) == 1
            and t.fields[0][0] == OBJECT_FIELD)


def class_name(t: Type) -> str:
    assert isinstance(t, StructType)
    return t.base or t.name


def frozen_refused(chk: FunctionChecker, t: Type, rest: list, span: Span) -> bool:
    """Whether assigning `obj.<rest>` (obj of class t) sets a frozen dataclass's field (E0153)."""
    from .frozen_dataclasses import refused

    return refused(chk, t, rest, span)


def data_type(chk: FunctionChecker, t: Type) -> StructType | None:
    """The struct holding the attributes of class t, its fields resolved."""
    from .module import resolve_fields

    if not isinstance(t, StructType) or t.symbol is None:
        return None
    home = getattr(t.symbol, "home", None) or chk.module
    sym = home.structs.get(data_name(class_name(t)))
    if sym is None:
        return None
    resolve_fields(sym, home, chk.msg.bag)
    return sym.type if sym.state == "done" else None


def _pure(e: TExpr) -> bool:
    """A variable or a field of one: reading it again runs nothing and gives the same value."""
    while isinstance(e, TField):
        e = e.base
    return isinstance(e, TLocal)


def _held(chk: FunctionChecker, handle: TExpr, span: Span, prelude: list) -> TExpr:
    """handle, to be read twice (checked, then used): as it is where that is free, else kept in a
    variable of its own (which holds a reference until it is assigned again or the function ends)."""
    if _pure(handle):
        return handle
    var = chk.new_var("$ref", handle.type, span)
    prelude.append(chk.store([var], [handle], span))
    return TLocal(span, var.type, var)


def none_check(handle: TExpr, attr: str, span: Span) -> TIf:
    """Python's error for an attribute of None: `AttributeError: 'NoneType' object has no
    attribute 'x'`, raised where the attribute is used."""
    pointer = T.ptr(T.INT)
    test = TCompare(span, T.BOOL, [TField(span, pointer, handle, 0), TConst(span, pointer, None)], ["=="], [pointer])
    return TIf(span, test, [TRaise(span, "AttributeError", f"'NoneType' object has no attribute '{attr}'")], [])


def object_of(chk: FunctionChecker, handle: TExpr, data: StructType, span: Span, attr: str) -> TExpr:
    """The address of the object `handle` refers to, as a pointer to its data (AttributeError
    where the handle is None)."""
    prelude: list = []
    handle = _held(chk, handle, span, prelude)
    prelude.append(none_check(handle, attr, span))
    address = TField(span, T.ptr(T.INT), handle, 0)
    return TStmtExpr(span, T.ptr(data), prelude, TPtrOp(span, T.ptr(data), "bitcast", [address]))


def through_object(e: TExpr) -> bool:
    """Whether e reads memory inside an object (an attribute, or a field of one)."""
    while isinstance(e, TField):
        e = e.base
    if not (isinstance(e, TPtrOp) and e.op == "load" and isinstance(e.args[0], TStmtExpr)):
        return False
    address = e.args[0].result  # what `object_of` made: the handle's address, cast to the data
    return isinstance(address, TPtrOp) and address.op == "bitcast" and isinstance(address.args[0], TField) \
        and is_class(address.args[0].base.type)


def reaches_object(e: TExpr) -> bool:
    """Whether e is read from inside an object: an attribute, a field or element of one
    (`o.items`, `o.pos.items`, `o.grid[0]`)."""
    while True:
        if isinstance(e, TField):
            e = e.base
        elif isinstance(e, TCall) and e.args and e.callee.decl.name == "__getitem__":
            e = e.args[0]  # an element of it
        else:
            return through_object(e)


def shared_attribute_copied(chk: FunctionChecker, value: TExpr) -> bool:
    """A list or dict inside an object, bound, stored or returned where Python would share it
    (E0263, reported here): pyx would copy it, and a change made later through any reference to
    the object, or to the copy, would show in Python's other name and not in pyx's."""
    from .sharing import python_shared

    if not (python_shared(value.type) and reaches_object(value)):
        return False
    source = value.span.file.text[value.span.start:value.span.end]
    chk.msg.error("E0263", value.span, source=source, type=value.type)
    return True


def borrowed_argument(chk: FunctionChecker, value: TExpr, others: list) -> TExpr:
    """An object's list, dict or string attribute passed to a borrowed parameter of a call that
    also gets an object (`self.process(self.items)`): a copy. The callee could replace the
    attribute through that object, and Python's argument would still be the old list; a borrow
    of the attribute would then point at freed memory."""
    from .ownership import owning

    if not (owning(value.type) and not is_class(value.type) and through_object(value)):
        return value
    if not any(o is not None and o is not value and is_class(o.type) for o in others):
        return value
    copied = chk.ownership.copy_of(value)
    if copied is None or copied.type == ERROR:
        return value
    chk.ownership.need_drop(value.type, value.span)
    return copied


def checked_receiver(chk: FunctionChecker, receiver: TExpr, method: str, span: Span) -> TExpr:
    """The receiver of `obj.method(...)`, checked not to be None first (Python's AttributeError
    names the method), as a new reference for the call."""
    prelude: list = []
    handle = _held(chk, receiver, span, prelude)
    prelude.append(none_check(handle, method, span))
    copied = chk.ownership.copy_of(handle)
    if copied is None or copied.type == ERROR:
        return receiver
    chk.ownership.need_drop(handle.type, span)
    return TStmtExpr(span, receiver.type, prelude, copied)


def none_value(chk: FunctionChecker, t: StructType, span: Span) -> TExpr:
    """`None` where an object of class t is wanted: the null handle."""
    return chk.calls.finish_call(chk.structs.struct_of(t).methods[NULL_METHOD], [], span, span, t)


def identity(chk: FunctionChecker, op: str, left: TExpr, right: TExpr, span: Span) -> TExpr | None:
    """`a is b`, `x is None`, `x is not None` with an object on one side (None otherwise)."""
    sides = [left, right]
    if not any(is_class(x.type) for x in sides):
        return None
    pointer = T.ptr(T.INT)
    addresses: list[TExpr] = []
    for x in sides:
        if x.type == T.NONE:
            addresses.append(TConst(x.span, pointer, None))
        elif is_class(x.type):
            if isinstance(x, TCall) and x.callee.decl.name == "__copyinit__":
                x = x.args[0]  # `o.next is None` compares the attribute itself: no new reference needed
            addresses.append(TField(x.span, pointer, x, 0))
        else:
            chk.msg.error("E0261", span, op=op, left=left.type, right=right.type)
            return TConst(span, ERROR, None)
    if all(is_class(x.type) for x in sides) and left.type != right.type and not related(chk, left.type, right.type):
        chk.msg.error("E0261", span, op=op, left=left.type, right=right.type)
        return TConst(span, ERROR, None)
    return TCompare(span, T.BOOL, addresses, ["==" if op == "is" else "!="], [pointer])


def object_truth(chk: FunctionChecker, v: TExpr, span: Span) -> TExpr:
    """`if obj:` of an object reference: None is false; else its class's `__bool__`, else its
    `__len__`, else true (Python's order), the method called only on an object."""
    prelude: list = []
    handle = _held(chk, v, span, prelude)
    present = identity(chk, "is not", handle, TConst(span, T.NONE, None), span)
    if present is None or present.type == ERROR:
        return TConst(span, ERROR, None)
    dunder = chk.structs.method_call(handle, "__bool__", [], span)
    if dunder is None:
        dunder = chk.structs.method_call(handle, "__len__", [], span)
    test = present if dunder is None else TBoolOp(span, T.BOOL, "and", [present, chk.exprs.truth(dunder, span)])
    return TStmtExpr(span, T.BOOL, prelude, test) if prelude else test


def related(chk: FunctionChecker, a: Type, b: Type) -> bool:
    """Whether one class derives from the other: their objects' blocks are compared as they are
    (a subclass object seen as its base is the same block: syntax/inheritance.py `cast_methods`)."""
    from ..syntax.inheritance import DOWN, UP

    methods = chk.structs.struct_of(a).methods
    return UP + class_name(b) in methods or DOWN + class_name(b) in methods


def read_attribute(chk: FunctionChecker, base: TExpr, attr: str, span: Span) -> TExpr | None:
    """`obj.attr` of a class value; None where attr is not an attribute (a method, say)."""
    data = data_type(chk, base.type)
    if data is None:
        return TConst(span, ERROR, None)
    index = data.field_index(attr)
    if index is None or index == 0:
        from .inheritance import class_attribute

        getter = chk.structs.struct_of(base.type).methods.get(attr)
        if getter is not None and is_property(getter):  # `obj.area` of an `@property` (syntax/properties.py)
            return chk.structs.method_call(base, attr, [], span)

        return class_attribute(chk, base, attr, span)  # `obj.count` of `class C: count = 0`
    element = TPtrOp(span, data, "load", [object_of(chk, base, data, span, attr), TConst(span, T.INT, 0)])
    value = chk.structs.field_read(element, attr, span)
    if is_class(value.type):
        # A new reference: the object stays alive while it is used, whatever happens to the attribute.
        copied = chk.ownership.copy_of(value)
        if copied is not None and copied.type != ERROR:
            chk.ownership.need_drop(value.type, span)
            return copied
    return value


def print_advice(t: Type) -> tuple:
    """Why an object cannot be printed, and what to write (E0215's note): Python would print
    its address (`<__main__.C object at 0x...>`), which no compiled program can reproduce."""
    from ..diagnostics import Note

    if not is_class(t):
        return ()
    return (Note(f"Python would print the object's address (`<__main__.{class_name(t)} object at 0x...>`), which "
                 f"differs from run to run: give class `{class_name(t)}` a `__str__` or `__repr__` method"),)


def in_repr(chk: FunctionChecker) -> bool:
    """Whether chk checks the standard library's `repr` (or the List's and Dict's way of showing
    their items): there `String(x)` of an object means Python's repr(x), not str(x)."""
    from .builtin_functions import is_builtin_function

    return is_builtin_function(chk.fn.decl, "repr", "append_repr")


def repr_text(chk: FunctionChecker, value: TExpr, span: Span) -> TExpr:
    """Python's repr(x) of an object: its class's `__repr__`. Without one Python shows the
    object's address, which no compiled program can match (E0264)."""
    shown = chk.structs.method_call(value, "__repr__", [], span)
    if shown is not None:
        return shown
    chk.msg.error("E0264", span, cls=class_name(value.type))
    return TConst(span, ERROR, None)


def _chain(target: ast.Expr) -> tuple[ast.Expr, list[ast.Attribute]]:
    """`a.b.c` -> (a, [a.b, a.b.c])."""
    attrs = []
    node = target
    while isinstance(node, ast.Attribute):
        attrs.append(node)
        node = node.value
    attrs.reverse()
    return node, attrs


def split(chk: FunctionChecker, target: ast.Expr, root: TExpr | None = None):
    """For an attribute target whose chain goes through an object (`p.x`, `self.pos.x`,
    `a.child.items`): (the innermost object as a checked handle, the attribute names after it,
    the type the target has). None when no object is on the way (a struct variable's field)."""
    root_ast, attrs = _chain(target)
    if not attrs:
        return None
    if root is None and isinstance(root_ast, (ast.Subscript, ast.Call)):
        # `ps[i].x = v`, `make().items.append(v)`: the element or result is checked here (if no
        # object is on the way, the usual path checks it again, and reports nothing new).
        root = chk.exprs.expr(root_ast)
        if root.type == ERROR:
            return root, [], ERROR
    if root is None:
        if not isinstance(root_ast, ast.Name):
            return None
        var = chk.scopes.lookup(root_ast.id)
        if var is None or isinstance(var, TConst) or not isinstance(getattr(var, "type", None), StructType):
            return None
        t: Type = var.type
    else:
        t = root.type
    last = None
    for k, node in enumerate(attrs):
        if is_class(t):
            data = data_type(chk, t)
            if data is None:
                return None
            last = k
            t = data
        if not isinstance(t, StructType):
            return None
        index = t.field_index(node.attr)
        if index is None or (last == k and index == 0):
            return None  # reported by the usual path (E0122)
        t = t.fields[index][1]
    if last is None:
        return None
    handle = root if root is not None else chk.exprs.expr(root_ast)
    for node in attrs[:last]:
        handle = chk.structs.field_read(handle, node.attr, node.span)
        if handle.type == ERROR:
            return handle, [], ERROR
    return handle, [(a.attr, a.span) for a in attrs[last:]], t


def iterated(chk: FunctionChecker, source: TExpr) -> tuple[TExpr, tuple | None]:
    """What `for x in source` walks, when source is inside an object (`for x in o.items`): a copy,
    since the loop's body may replace the attribute (Python's loop goes on over the old list,
    and so does the copy); and the attribute's key, `(class, attribute)`, under which the body
    may not change it in place (E0265: Python's loop would see the change). Else (source, None)."""
    from .ownership import is_place, owning

    if not (isinstance(source, TField) and through_object(source)) or is_class(source.type) \
            or not owning(source.type) or not is_place(source):
        return source, None
    key = _attribute_key(source)
    copied = chk.ownership.copy_of(source)
    if copied is None or copied.type == ERROR:
        return source, key
    chk.ownership.need_drop(source.type, source.span)
    return copied, key


def _attribute_key(e: TField) -> tuple:
    """(class name, attribute name) of `o.attr` (e: its read, through the object's data)."""
    load = e
    while isinstance(load.base, TField):
        load = load.base
    data = load.base.type
    assert isinstance(data, StructType)
    return data.name.removeprefix("__pyx_data_"), data.fields[load.index][0]


def lend(chk: FunctionChecker, handle: TExpr, span: Span, use, attr: str, in_place: bool = True) -> TExpr:
    """`use(name)` (statements, or an expression) on the data of the object `handle` refers to,
    lent to a slot declared as `name` and stored back afterwards. A change in place of an
    attribute a `for` loop walks is E0265."""
    data = data_type(chk, handle.type)
    if data is None:
        return TConst(span, ERROR, None)
    key = (class_name(handle.type), attr)
    walked = next((s for k, s in chk.sharing.sharing_state()["iterating"] if k == key), None)
    if in_place and walked is not None:
        from ..diagnostics import Note

        chk.msg.error("E0265", span, cls=key[0], attr=attr, notes=(Note("the loop", walked),))
        return TConst(span, ERROR, None)
    if in_place:  # (a local bound to such an attribute is judged by it: semantics/object_containers.py)
        from .object_containers import changed

        changed(chk, attr, span)
    slot = chk.new_var("$object", data, span)
    slot.owned = False  # the object's: the slot only holds its bits for the change
    if chk.assigned is not None:
        chk.assigned.add(slot)
    name = f"$object{chk.next_id}"
    chk.scopes.declare(name, slot)
    inner = use(name)
    ptr = object_of(chk, handle, data, span, attr)
    if isinstance(inner, list):
        return TLend(span, T.NONE, slot, ptr, None, [s for s in inner if s is not None])
    if inner is None or inner.type == ERROR:
        return TConst(span, ERROR, None)
    return TLend(span, inner.type, slot, ptr, inner)


def reroot(name: str, rest: list, span: Span) -> ast.Expr:
    node: ast.Expr = ast.Name(span, name)
    for attr, attr_span in rest:
        node = ast.Attribute(attr_span, node, attr)
    return node


def runs_code(e: ast.Node) -> bool:
    """Whether evaluating e may run user code (a call, an operator on structs): then it is
    evaluated before the object is lent."""
    stack = [e]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Call, ast.Binary, ast.Unary, ast.Compare, ast.Subscript)):
            return True
        stack.extend(ast.children(node))
    return False


def evaluated_first(chk: FunctionChecker, value: TExpr, span: Span, prelude: list) -> TExpr:
    """value, stored into a variable of its own first (the store goes to `prelude`) unless it is
    a constant or a variable, so nothing it runs happens while an object is lent."""
    if isinstance(value, (TConst, TLocal)) or value.type == ERROR:
        return value
    var = chk.new_var("$value", value.type, span)
    prelude.append(chk.store([var], [value], span))
    return TMove(span, var.type, var) if chk.ownership.owning(var.type) else TLocal(span, var.type, var)


def named_first(chk: FunctionChecker, e: ast.Expr, prelude: list) -> ast.Expr | None:
    """e, or (where it may run code) a name for a variable holding its value, computed first
    (the store goes to `prelude`); None where checking it failed."""
    if not runs_code(e):
        return e
    value = evaluated_first(chk, chk.exprs.value(chk.exprs.expr(e)), e.span, prelude)
    if value.type == ERROR:
        return None
    if not isinstance(value, (TLocal, TMove)):
        return e  # a constant (it folded): nothing runs
    name = f"$value{chk.next_id}"
    chk.scopes.declare(name, value.var)
    return ast.Name(e.span, name)


def assign(chk: FunctionChecker, targets: list[ast.Expr], values: list[TExpr], span: Span):
    """`obj.x = v` (and `a, obj.x = ...`): None when no target goes through an object."""
    splits = [split(chk, t) if isinstance(t, ast.Attribute) else None for t in targets]
    if all(s is None for s in splits):
        return None
    prelude: list = []
    values = [evaluated_first(chk, v, span, prelude) for v in values]  # Python: every value, then the targets
    stmts = list(prelude)
    for target, found, value in zip(targets, splits, values, strict=True):
        if found is None:
            stmts.append(chk._assign_targets([target], [value], span))
            continue
        handle, rest, _ = found
        if handle.type == ERROR or frozen_refused(chk, handle.type, rest, target.span):
            continue
        chk.sharing.stored_copy(value)

        def use(name, rest=rest, value=value):
            return [chk._assign_targets([reroot(name, rest, span)], [value], span)]

        stmts.append(TExprStmt(span, lend(chk, handle, span, use, rest[0][0])))
    return TBlock(span, [s for s in stmts if s is not None])


def assign_statement(chk: FunctionChecker, s: ast.Assign):
    """`obj.x = v` as a statement: v is checked knowing the attribute's type, so `obj.items = []`
    and `obj.counts = {}` get the declared element types. None when the target does not go
    through an object."""
    if len(s.targets) != 1:
        return None
    if isinstance(s.targets[0], ast.Subscript):
        return _item_assign(chk, s)
    if not isinstance(s.targets[0], ast.Attribute):
        return None
    setter = _property_setter(chk, s)
    if setter is not None:
        return setter
    found = split(chk, s.targets[0])
    if found is None:
        return None
    handle, rest, t = found
    if handle.type == ERROR:
        return TBlock(s.span, [])  # (reported)
    if frozen_refused(chk, handle.type, rest, s.targets[0].span):
        return TBlock(s.span, [])
    if t == ERROR and len(rest) == 1:
        from .attribute_types import assigned, is_empty_first, is_first, pending_of

        pending = pending_of(chk, handle.type, rest[0][0])
        if pending is not None:  # an attribute the checker types: this value may say its type
            if not (is_first(pending, s.value) and is_empty_first(pending)):
                assigned(chk, pending, s.value, chk.exprs.expr(s.value))
            return TBlock(s.span, [])  # (this run ends in a new check, or in E0256)
    value = chk.empty_container(s.value, t)
    if value is None:
        value = chk.exprs.expr(s.value)
    if len(rest) == 1 and value.type != t:
        from .numbers import widen_attribute

        if widen_attribute(chk, handle.type, rest[0][0], value.type, t):
            return TBlock(s.span, [])  # (an int where a float was stored: the next check keeps either, numbers.py)
    if _stored_parameter_differs(chk, s, value, t):
        return TBlock(s.span, [])
    value = chk.exprs.coerce(value, t)
    if value.type == ERROR:
        return None
    prelude: list = []
    value = evaluated_first(chk, value, s.span, prelude)
    chk.sharing.stored_copy(value)
    if len(rest) == 1:  # `o.items = xs`: Python's xs is the attribute from here on (object_containers.py)
        from .object_containers import stored

        stored(chk, value, rest[0][0], s.span)

    def use(name):
        return [chk._assign_targets([reroot(name, rest, s.span)], [value], s.span)]

    return TBlock(s.span, prelude + [TExprStmt(s.span, lend(chk, handle, s.span, use, rest[0][0], len(rest) > 1))])


def _stored_parameter_differs(chk: FunctionChecker, s: ast.Assign, value: TExpr, t: Type) -> bool:
    """`self.r = r` in an `__init__` whose `r` has no annotation, where this call passes another
    type than the one the attribute has (from an earlier call: `Circle(1.5)`, then `Circle(2)`):
    Python stores either, pyx's attribute has one type. E0312 at the call; True if reported."""
    from .builtin_types import is_builtin

    decl, called = chk.fn.decl, chk.fn.called_at
    target = s.targets[0]
    if decl.name != "__init__" or called is None or not isinstance(s.value, ast.Name) \
            or not isinstance(target, ast.Attribute) or ERROR in (value.type, t) or value.type == t \
            or isinstance(value.type, T.LiteralType) or (is_class(value.type) and is_class(t)) \
            or value.type == T.NONE or is_builtin(t, "Optional"):  # (None where an object or Optional is kept)
        return False
    param = next((p for p in decl.params[1:] if p.name == s.value.id and p.annotation is None), None)
    if param is None or chk.fn.owner is None:
        return False
    from .numbers import holds, is_number

    if holds(t, value.type):
        return False  # an int or a float kept in an attribute of Python's `int | float`
    call = called[0]
    if any(d.code == "E0177" and d.span is not None and d.span.file is call.file
           and call.start <= d.span.start < call.end for d in chk.msg.bag.items):
        return False  # (syntax/init_params.py said so at this call already: the store's E0201 follows)
    from ..diagnostics import Note

    fix = "write the argument as a float (`2.0` for `2`)" if value.type == T.INT and t == T.FLOAT64 \
        else "pass an int or a float (Python's `int | float`)" if is_number(t) else f"pass a `{t}`"
    chk.msg.error("E0312", called[0], (Note(f"stored as `self.{target.attr}` here", s.span),),
                  cls=class_name(chk.fn.owner), param=param.name, found=value.type, attr=target.attr, expected=t,
                  fix=fix)
    return True


def _property_setter(chk: FunctionChecker, s: ast.Assign):
    """`obj.name = v` of a property with a setter (syntax/properties.py): the setter called with v
    (obj evaluated first, then v, as Python does). None for any other attribute."""
    target = s.targets[0]
    assert isinstance(target, ast.Attribute)  # (assign_statement's caller checked)
    if not any(setter_name(target.attr) in getattr(sym, "methods", {}) for sym in chk.module.structs.values()):
        return None  # (no class has such a setter: the target is checked once, by the usual path)
    root = target.value
    while isinstance(root, ast.Attribute):
        root = root.value
    if not isinstance(root, ast.Name):
        return None
    var = chk.scopes.lookup(root.id)
    if var is None or isinstance(var, TConst) or not isinstance(getattr(var, "type", None), StructType):
        return None
    base = chk.exprs.expr(target.value)
    if not is_class(base.type) or setter_name(target.attr) not in chk.structs.struct_of(base.type).methods:
        return None
    value = chk.exprs.expr(s.value)
    call = chk.structs.method_call(base, setter_name(target.attr), [value], s.span)
    return TExprStmt(s.span, call) if call is not None else None


def items_of(target: ast.Expr) -> tuple[ast.Expr, list[ast.Subscript]]:
    """`o.grid[i][j]` -> (o.grid, [the two subscripts, outermost first])."""
    subs = []
    while isinstance(target, ast.Subscript):
        subs.append(target)
        target = target.value
    return target, subs


def rewrap(inner: ast.Expr, subs: list[ast.Subscript]) -> ast.Expr:
    for sub in reversed(subs):
        inner = replace(sub, value=inner)
    return inner


def indices_first(chk: FunctionChecker, subs: list[ast.Subscript], prelude: list) -> list[ast.Subscript] | None:
    """The subscripts, each index that may run code computed first (into a variable of its own)."""
    out = []
    for sub in subs:
        items = []
        for item in sub.items:
            named = named_first(chk, item, prelude) if isinstance(item, ast.Expr) else item
            if named is None:
                return None
            items.append(named)
        out.append(replace(sub, items=tuple(items)))
    return out


def _empty_item(chk: FunctionChecker, container: Type, s: ast.Assign) -> TExpr:
    """`self.groups[k] = []`: the empty literal takes the item type of the object's dict (list),
    as `groups[k] = []` of a variable does (check.py `empty_item`); while the attribute's own
    type is pending (`self.groups = {}`, semantics/attribute_types.py), nothing yet (ERROR,
    quietly: `.append(v)` of the item says what it holds)."""
    from .builtin_types import is_builtin

    if container == ERROR:
        return TConst(s.span, ERROR, None)
    item = None
    target = s.targets[0]
    if isinstance(container, StructType) and isinstance(target, ast.Subscript) and len(target.items) == 1:
        item = container.ct_env.get("V") if is_builtin(container, "Dict") else \
            container.ct_env.get("T") if is_builtin(container, "List") else None
    value = chk.empty_container(s.value, item) if isinstance(item, StructType) else None
    return value if value is not None else chk.exprs.expr(s.value)


def _item_assign(chk: FunctionChecker, s: ast.Assign):
    """`o.items[i] = v`, `o.grid[i][j] = v`, `o.counts[k] = v`: the item of the object's own
    container. None when the container is not inside an object."""
    inner, subs = items_of(s.targets[0])
    found = split(chk, inner) if isinstance(inner, ast.Attribute) else None
    if found is None:
        return None
    handle, rest, container = found
    if handle.type == ERROR:
        return TBlock(s.span, [])  # (reported)
    prelude: list = []
    from .empty_literals import is_empty_literal

    value = _empty_item(chk, container, s) if is_empty_literal(s.value, chk.module) else chk.exprs.expr(s.value)
    if value.type == ERROR:
        return TBlock(s.span, [])
    if len(subs) == 1 and isinstance(s.targets[0], ast.Subscript):
        chk.empties.setitem(s.targets[0], value)  # `self.d[k] = v` of a pending `self.d = {}`
    value = evaluated_first(chk, chk.exprs.value(value), s.span, prelude)
    named = indices_first(chk, subs, prelude)
    if named is None:
        return TBlock(s.span, [])

    def use(name):
        return [chk.structs.setitem(rewrap(reroot(name, rest, inner.span), named), value, s.span)]

    return TBlock(s.span, prelude + [TExprStmt(s.span, lend(chk, handle, s.span, use, rest[0][0]))])


def aug_assign(chk: FunctionChecker, s: ast.AugAssign, root: TExpr | None = None):
    """`obj.x += v`, `obj.items[i] += v`: None when the target does not go through an object."""
    inner, subs = items_of(s.target)
    prelude: list = []
    if subs:
        if not isinstance(inner, ast.Attribute):
            return None
        found = split(chk, inner)
        if found is None:
            return None
        handle, rest, _ = found
        if handle.type == ERROR:
            return TBlock(s.span, [])  # (reported)
        value_ast = named_first(chk, s.value, prelude)
        named = indices_first(chk, subs, prelude)
        if value_ast is None or named is None:
            return TBlock(s.span, [])

        def use_item(name):
            # `x[i] = x[i] op v`, with i computed once (above): what Python's `x[i] op= v` does
            target = rewrap(reroot(name, rest, inner.span), named)
            current = chk.exprs.expr(target)
            if current.type == ERROR:
                return []
            result = chk.exprs.binary(s.op, current, chk.exprs.expr(value_ast), s.span)
            return [chk.structs.setitem(target, result, s.span)]

        return TBlock(s.span, prelude + [TExprStmt(s.span, lend(chk, handle, s.span, use_item, rest[0][0]))])
    found = split(chk, s.target, root)
    if found is None:
        return None
    handle, rest, _ = found
    if handle.type == ERROR or frozen_refused(chk, handle.type, rest, s.target.span):
        return TBlock(s.span, [])  # (reported)
    value_ast = named_first(chk, s.value, prelude)
    if value_ast is None:
        return TBlock(s.span, [])  # (reported)

    def use(name):
        return [chk.stmt_AugAssign(replace(s, target=reroot(name, rest, s.span), value=value_ast))]

    return TBlock(s.span, prelude + [TExprStmt(s.span, lend(chk, handle, s.span, use, rest[0][0]))])


def method_call(chk: FunctionChecker, base: ast.Expr, func: ast.Attribute, e: ast.Call, ct_items,
                root: TExpr | None = None, subs: list[ast.Subscript] | None = None):
    """`obj.items.append(v)`, a `mut` method of an attribute: on the object's own attribute; with
    `subs`, the indices of `obj.items[i].m(v)`, on that item (semantics/element_methods.py). None when
    `base` does not go through an object."""
    found = split(chk, base, root)
    if found is None:
        return None
    handle, rest, _ = found
    if handle.type == ERROR:
        return handle
    prelude: list = []
    indices = indices_first(chk, subs, prelude) if subs else ()  # (Python's order: the indices, then the arguments)
    if indices is None:
        return TConst(e.span, ERROR, None)
    args = []
    for a in e.args:
        named = named_first(chk, a, prelude)
        if named is None:
            return TConst(a.span, ERROR, None)  # (reported)
        args.append(named)
    call = replace(e, args=tuple(args))

    def use(name):
        receiver = reroot(name, rest, base.span)
        return chk.structs.attribute_call(replace(func, value=rewrap(receiver, indices) if subs else receiver),
                                          call, ct_items)

    lent = lend(chk, handle, e.span, use, rest[0][0])
    if not prelude or lent.type == ERROR:
        return lent
    return TStmtExpr(e.span, lent.type, prelude, lent)
