"""Checking of struct values: construction, fields, methods, operator methods and iteration."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from .. import types as T
from ..diagnostics import Note
from ..source import Span
from ..syntax import ast
from ..types import ERROR, FunctionType, StructType, Type, default_type
from . import classes, everyday, function_values, int_methods, pycollections, runtime_format, text_tables
from .builtin_types import is_builtin
from .dict_views import is_iterator
from .drained_loops import iterator_method
from .generators import GeneratorType
from .imports import is_stdlib_file, is_string
from .module import dotted_name
from .named_tuples import as_tuple
from .narrowing import optional_notes
from .optional_types import none_test
from .rules import COMPARE_METHODS, field_span, unify_annotation
from .sharing import attribute_root, borrowed_argument, reroot
from .slicing import overload_name
from .typed import (
    FieldTarget,
    LocalVar,
    Reference,
    TAssign,
    TBlock,
    TBoolOp,
    TConst,
    TDictLit,
    TExpr,
    TExprStmt,
    TField,
    TListLit,
    TLocal,
    TPtrOp,
    TReturn,
    TUnary,
    TWhile,
)

if TYPE_CHECKING:
    from .check import FunctionChecker
    from .expressions import ExpressionChecker
    from .messages import MessageBuilder

# Operands that read the same value every time they are evaluated (a chained comparison's middle).
PURE_OPERANDS = (ast.Name, ast.StrLit, ast.IntLit, ast.FloatLit, ast.BoolLit)
# Python's dict methods whose other arity is another method of the stdlib's Dict (no overloads).
DICT_FORMS = {("pop", 2): "_pop_or", ("get", 1): "_get_or_none"}


def _dict_like(t) -> bool:
    """A dict or a defaultdict, whose `get(k)` is `_get_or_none` (stdlib/collections.px, _collections.px)."""
    return is_builtin(t, "Dict") or is_builtin(t, "defaultdict")


def lane_loop(s: ast.For, width: int) -> ast.For:
    """`for x in xs` of a vector of `width` lanes (a `*xs: int` parameter) as
    `for $lane in range(width): x = xs[$lane]`, then the body."""
    span = s.iter.span
    lane = ast.Name(span, f"$lane{span.start}")
    item = ast.Assign(s.target.span, (s.target,), ast.Subscript(span, s.iter, (lane,)))
    count = ast.Call(span, ast.Name(span, "range"), (ast.IntLit(span, width),), ())
    return replace(s, target=lane, iter=count, body=(item, *s.body))


@dataclass(frozen=True)
class _MethodCall:
    """`base.m(...)` being checked: m's declaration, the receiver (base, checked), the call, and the
    sharing checker's mark from before the receiver was read."""

    decl: ast.FnDef
    receiver: TExpr
    base: ast.Expr
    func: ast.Attribute
    e: ast.Call
    ct_items: object
    mark: int


class StructChecker:
    """Struct values: construction, fields, methods, operator methods, iteration, modules' names.
    Reached as `chk.structs` from the other checkers."""

    def __init__(self, chk: FunctionChecker) -> None:
        self.chk: FunctionChecker = chk
        self.exprs: ExpressionChecker = chk.exprs
        self.msg: MessageBuilder = chk.msg

    def struct_of(self, t: Type):
        if not isinstance(t, StructType):
            return None
        return t.symbol if t.symbol is not None else self.chk.module.structs.get(t.base or t.name)

    def method_call(self, receiver: TExpr, method: str, args: list[TExpr], span: Span) -> TExpr | None:
        """`receiver.method(args)` with checked arguments (operators); None if there is no such method."""
        sym = self.struct_of(receiver.type)
        decl = sym.methods.get(overload_name(method, args, sym.methods)) if sym is not None else None
        if decl is None or decl.self_convention is None:
            return None
        params = decl.params[1:]
        if decl.variadic is not None:  # `b[i, j]`: `__getitem__(self, *index: Int)`
            after = len(params) - decl.variadic
            args = self.chk.calls.pack_variadic(decl, params, args, span, f"{receiver.type}.{method}", receiver.type,
                                      trailing=after)
            if args is None:
                return TConst(span, ERROR, None)
        if len(params) != len(args):
            self.msg.error("E0204", span, func=f"{receiver.type}.{method}", expected=len(params),
                             s="s" if len(params) != 1 else "", found=len(args))
            return TConst(span, ERROR, None)
        return self.chk.calls.finish_call(decl, args, span, span, receiver.type, receiver)

    def struct_call(self, sym, e: ast.Call, t: Type | None = None) -> TExpr:
        init = sym.methods.get("__init__")
        if t is None and e.args and pycollections.is_python_collection(sym.type):
            built = pycollections.construct(self.chk, sym, e)  # `deque(xs)`, `Counter(s)` (semantics/pycollections.py)
            if built is not None:
                return built
        if is_string(sym.type) and len(e.args) == 1 and not e.keywords:
            value = self.exprs.expr(e.args[0])
            other = self.struct_of(value.type)
            if classes.is_class(value.type) and classes.in_repr(self.chk):  # an object in a list: its repr
                return classes.repr_text(self.chk, value, e.span)
            if other is not None and other is not sym and "__repr__" in other.methods and classes.in_repr(self.chk):
                return self.method_call(value, "__repr__", [], e.span)  # a struct in a list (an Optional): its repr
            if other is not None and other is not sym and "__str__" in other.methods:
                return self.method_call(value, "__str__", [], e.span)  # `String(obj)` is Python's str(obj)
            return self.chk.calls.finish_call(init, [value], e.span, e.func.span, sym.type)
        if t is None and sym.generic and init is not None:
            t = self.infer_struct(sym, init, e)
            if t is None:
                return TConst(e.span, ERROR, None)
        if t == ERROR:
            return TConst(e.span, ERROR, None)
        owner = t if t is not None else sym.type
        if init is None:
            self.msg.error("E0118", e.func.span, struct=sym.type, name="__init__",
                             notes=(Note("add `fn __init__(out self, ...)` or the `@fieldwise_init` decorator"),))
            for a in e.args:
                self.exprs.expr(a)
            return TConst(e.span, ERROR, None)
        if not sym.generic and sym.state == "new":  # not named in a type yet: resolve its fields now
            self.chk.type_resolver(ast.Name(sym.decl.name_span, sym.decl.name), {}, sym.decl)
        if not sym.generic and sym.state != "done":
            return TConst(e.span, ERROR, None)
        return self.chk.calls.user_call(init, e, owner)

    def infer_struct(self, sym, init: ast.FnDef, e: ast.Call):
        """`Pair(1, 2.5)`: bind the struct's parameters from the constructor's argument types."""
        from .module import struct_instance

        names = {p.name for p in sym.decl.ct_params}
        values: dict = {}
        params = init.params[1:]
        for p, a in zip(params, e.args):
            if p.annotation is not None:
                unify_annotation(p.annotation, default_type(self.exprs.expr(a).type), names, values)
        for p in sym.decl.ct_params:
            if p.name not in values and p.default is not None:
                values[p.name] = self.chk.calls.ct_value(p.default)
        missing = [p.name for p in sym.decl.ct_params if p.name not in values]
        if missing:
            self.msg.error("E0124", e.span, name=missing[0], func=sym.decl.name)
            return None
        return struct_instance(sym, tuple(values[p.name] for p in sym.decl.ct_params), e.span, self.chk.module,
                               self.msg.bag, self._lookup_constant)

    def _lookup_constant(self, name, span):
        if name in self.chk.module.comptimes:
            value = self.chk.comptime_value(self.chk.module.comptimes[name])
            return value.value if value is not None else ERROR
        return None

    def attribute_call(self, func: ast.Attribute, e: ast.Call, ct_items=None) -> TExpr:
        """`x.m(...)`: a call Python's library spells so that pyx rewrites, a module's function, a
        static method, or a method of a value."""
        if func.attr == "join":  # `", ".join(x for x in xs)`: join builds a list, the generator fills it
            e = self.chk.comprehensions.joined(e)
        found = self._rewritten_call(func, e)
        if found is None:
            found = self._module_call(func, e, ct_items)
        if found is None:
            found = self._static_call(func, e, ct_items)
        if found is not None:
            return found
        if func.attr == "sort" and any(kw.name == "key" for kw in e.keywords):  # `xs.sort(key=f)`
            return self.chk.closures.keyed("sort", e)
        return self._value_method_call(func, e, ct_items)

    def _rewritten_call(self, func: ast.Attribute, e: ast.Call) -> TExpr | None:
        flattened = everyday.from_iterable(self.chk, func, e)  # `chain.from_iterable(xss)` (semantics/everyday.py)
        if flattened is not None:
            return self.exprs.expr(flattened)
        found = int_methods.from_bytes_call(self.chk, func, e)  # `int.from_bytes(b, "big")` (semantics/int_methods.py)
        if found is not None:
            return found
        return text_tables.maketrans_call(self.chk, func, e)  # `str.maketrans(x, y)` (semantics/text_tables.py)

    def _module_call(self, func: ast.Attribute, e: ast.Call, ct_items) -> TExpr | None:
        """`m.f(...)` of an imported .px module, of `math` and the like, of a GPU module (Mojo's `warp.sum(v)`)."""
        other = self.px_module_of(func.value)
        if other is not None:
            return self.qualified_call(other, func, e, ct_items)
        module = self.module_of(func.value)
        if module is None:
            return None
        from .gpu_imports import GPU_MODULES, intrinsic
        from .mathlib import MODULES

        if module in GPU_MODULES:  # Mojo's `warp.sum(v)`
            name = intrinsic(module, func.attr)
            if name is None:
                self.msg.error("E0130", func.span, module=module, name=func.attr)
                return TConst(e.span, ERROR, None)
            return self.chk.gpu.gpu_call(name, e)
        if func.attr not in MODULES[module]:
            self.msg.error("E0130", func.span, module=module, name=func.attr)
            return TConst(e.span, ERROR, None)
        return self.chk.mathlib.math_call(func.attr, e)

    def _static_call(self, func: ast.Attribute, e: ast.Call, ct_items) -> TExpr | None:
        """A static method: `Ptr[T].alloc(n)`, `Pair[Int].make()`, `Point.origin()`, `geometry.Point.origin()`."""
        base = func.value
        if isinstance(base, ast.Subscript) and isinstance(base.value, ast.Name) and base.value.id == "Ptr" \
                and self.chk.scopes.lookup("Ptr") is None:
            return self.chk.pointers.ptr_static(self.chk.resolve_type(base), func, e)
        if isinstance(base, ast.Subscript) and isinstance(base.value, ast.Name) \
                and base.value.id in self.chk.module.structs and self.chk.scopes.lookup(base.value.id) is None:
            t = self.chk.resolve_type(base)  # `Pair[Int].make()`: a static method of one instance
            sym = self.chk.module.structs[base.value.id]
            decl = sym.methods.get(func.attr)
            if t == ERROR:
                return TConst(e.span, ERROR, None)
            if decl is None or decl.self_convention is not None:
                self.msg.error("E0118", func.span, struct=t, name=func.attr)
                return TConst(e.span, ERROR, None)
            return self.chk.calls.user_call(decl, e, t, ct_items=ct_items)
        qualified = self.px_module_of(base.value) if isinstance(base, ast.Attribute) else None
        if (qualified is not None and base.attr in qualified.structs) or (
                isinstance(base, ast.Name) and self.chk.scopes.lookup(base.id) is None
                and base.id in self.chk.module.structs):
            # `Point.origin()` (or `geometry.Point.origin()`): a static method
            sym = qualified.structs[base.attr] if qualified is not None else self.chk.module.structs[base.id]
            if sym.generic:
                self.msg.error("E0126", base.span, name=sym.decl.name, example=f"{sym.decl.name}[...]")
                return TConst(e.span, ERROR, None)
            decl = sym.methods.get(func.attr)
            if decl is None or decl.self_convention is not None:
                self.msg.error("E0118", func.span, struct=sym.type, name=func.attr)
                return TConst(e.span, ERROR, None)
            return self.chk.calls.user_call(decl, e, sym.type)
        return None

    def _value_method_call(self, func: ast.Attribute, e: ast.Call, ct_items) -> TExpr:
        """`x.m(...)` of a value x: a SIMD's, a pointer's, a struct's or class's method, or a function
        kept in a field."""
        base = func.value
        mark = self.chk.sharing.change_mark()
        receiver = self.exprs.expr(base)
        if receiver.type == ERROR:
            return receiver
        if receiver.type == T.STRING_LITERAL and self.exprs.string_type() is not None:  # `",".join(parts)`
            receiver = self.exprs.coerce(receiver, self.exprs.string_type())
        if isinstance(receiver.type, T.SIMDType):
            return self.chk.simd.simd_method(receiver, func, e, ct_items)
        if isinstance(receiver.type, T.PtrType):
            return self.chk.pointers.ptr_method(receiver, func, e, ct_items)
        sym = self.struct_of(receiver.type)
        if sym is None:
            found = int_methods.method_call(self.chk, receiver, func, e)  # `x.bit_length()` (semantics/int_methods.py)
            if found is not None:
                return found
            self.msg.error("E0223", func.span, name=receiver.type, attr=func.attr)
            return TConst(e.span, ERROR, None)
        if is_string(receiver.type) and func.attr == "format" and "format" not in sym.methods:
            found = runtime_format.call(self.chk, receiver, e)  # `fmt.format(x)` (semantics/runtime_format.py)
            if found is not None:
                return found
        if is_string(receiver.type):  # `s.endswith((a, b))`, `sep.join("abc")` (semantics/everyday.py)
            e = everyday.method_call(self.chk, func, e)
            if isinstance(e.func, ast.Attribute):  # (`s.m[4](...)`: e.func is the subscript; keep `s.m`)
                func = e.func
        elif _dict_like(receiver.type) and not e.keywords and func.attr == "get" and len(e.args) == 1 \
                and classes.is_class(receiver.type.ct_env.get("V")):
            # `d.get(k)` of objects: the class's own reference, None when absent (`d.get(k, None)`)
            e = ast.Call(e.span, func, (*e.args, ast.NoneLit(e.span)), e.keywords)
        elif not e.keywords and (((func.attr, len(e.args)) in DICT_FORMS and is_builtin(receiver.type, "Dict"))
                                 or ((func.attr, len(e.args)) == ("get", 1) and _dict_like(receiver.type))):
            # `d.pop(k, default)`, `d.get(k)`: the stdlib's methods for those arities
            func = ast.Attribute(func.span, func.value, DICT_FORMS[(func.attr, len(e.args))])
            e = ast.Call(e.span, func, e.args, e.keywords)
        decl = sym.methods.get(func.attr)
        if not self.chk.tuples.searchable(receiver, func.attr, func.span):
            return TConst(e.span, ERROR, None)
        if decl is None:
            return self._attribute_value_call(receiver, sym, func, e)
        if decl.self_convention is None:  # a static method called on a value
            overriding = classes.is_class(receiver.type) and self._static_overridden(receiver.type, decl)
            if overriding:  # Python picks the object's class's: pyx's call would be the declared class's
                self.msg.error("E0342", func.span, method=func.attr, cls=classes.class_name(receiver.type),
                               sub=overriding)
                return TConst(e.span, ERROR, None)
            return self.chk.calls.user_call(decl, e, receiver.type, ct_items=ct_items)
        if decl.self_convention == "mut":
            found = self._in_place_call(_MethodCall(decl, receiver, base, func, e, ct_items, mark))
            if found is not None:
                return found
        if classes.is_class(receiver.type):  # None has no methods: AttributeError, as in Python
            receiver = classes.checked_receiver(self.chk, receiver, func.attr, func.span)
        return self.chk.calls.user_call(decl, e, receiver.type, receiver, ct_items)

    def _static_overridden(self, t: Type, decl: ast.FnDef) -> str | None:
        """The first subclass of class t (its handle has `__pyx_up_<t>`) with a static method of its
        own named as decl; None where none overrides it."""
        from ..syntax.inheritance import UP

        up = UP + classes.class_name(t)
        for name, sym in self.chk.module.structs.items():
            own = sym.methods.get(decl.name)
            if up in sym.methods and own is not None and own is not decl and own.self_convention is None:
                return name
        return None

    def _attribute_value_call(self, receiver: TExpr, sym, func: ast.Attribute, e: ast.Call) -> TExpr:
        """`x.f(...)` where x's type has no method f: a function kept in its field f, an attribute
        `__getattr__` gives; else E0118."""
        if classes.is_class(receiver.type):  # `self.callback(x)`: any function (function_values.py)
            data = classes.data_type(self.chk, receiver.type)
            index = data.field_index(func.attr) if data is not None else None
            if index and function_values.is_fn_value(data.fields[index][1]):
                return self.call_value(classes.read_attribute(self.chk, receiver, func.attr, func.span), e)
        at = receiver.type.field_index(func.attr)
        if at is not None and function_values.is_fn_value(receiver.type.fields[at][1]):  # `hs[i].cb(x)`
            return self.call_value(TField(func.span, receiver.type.fields[at][1], receiver, at), e)
        if at is not None and isinstance(receiver.type.fields[at][1], T.FunctionType):  # `self.f(x)`: a field
            return self.chk.closures.call(TField(func.span, receiver.type.fields[at][1], receiver, at), e)
        if "__getattr__" in sym.methods and receiver.type.field_index(func.attr) is None:
            # `obj.method(args)` of a struct with `__getattr__`: get the attribute, then call it
            attribute = self.method_call(receiver, "__getattr__", [TConst(func.span, T.STRING_LITERAL, func.attr)],
                                         func.span)
            return self.call_value(attribute, e) if attribute.type != ERROR else attribute
        self.msg.error("E0118", func.span, struct=receiver.type, name=func.attr)
        return TConst(e.span, ERROR, None)

    def _in_place_call(self, c: _MethodCall) -> TExpr | None:
        """A `mut self` method of a value inside another (an object's attribute, a list's element):
        called on that value in place. None where the receiver is a value of its own."""
        if not self.chk.tuples.check_change(c.receiver, c.func.attr, c.e.span):
            return TConst(c.e.span, ERROR, None)
        if isinstance(c.base, ast.Attribute):  # `obj.items.append(v)`: the object's
            found = classes.method_call(self.chk, c.base, c.func, c.e, c.ct_items)
            if found is not None:
                return found
        if isinstance(c.base, ast.Subscript):  # `obj.groups[0].append(v)`
            from . import element_methods

            found = element_methods.method_call(self.chk, c.base, c.func, c.e, c.ct_items)
            if found is not None:
                return found
        if self.chk.sharing.element_read(c.receiver):  # `xs[i].append(v)`: in place
            lent = self.chk.sharing.lend(
                c.receiver, c.e.span,
                lambda slot: self.chk.calls.user_call(c.decl, c.e, c.receiver.type, slot, c.ct_items), c.mark)
            if lent is not None:
                return lent
        element = c.receiver
        while isinstance(element, TField):
            element = element.base
        if element is not c.receiver and self.chk.sharing.element_read(element) \
                and isinstance(attribute_root(c.base), ast.Subscript):  # `bs[i].tags.append(v)`: in place
            name = f"$element{self.chk.next_id}"

            def use(slot):
                self.chk.scopes.declare(name, slot.var)
                return self.attribute_call(replace(c.func, value=reroot(c.base, name)), c.e, c.ct_items)

            return self.chk.sharing.lend(element, c.e.span, use, c.mark)
        return None

    def call_value(self, callee: TExpr, e: ast.Call) -> TExpr:
        """`f(args)` of a struct value with `__call__`. A `__call__(self, args: List[T], kwargs:
        Dict[String, T])` (a PythonObject's) gets the positional arguments as a List and the
        keyword ones as a Dict, each converted to T; any other `__call__` is called as written."""
        if isinstance(callee.type, T.FunctionType):  # a function as a value (closures.py)
            return self.chk.closures.call(callee, e)
        sym = self.struct_of(callee.type)
        decl = sym.methods.get("__call__") if sym is not None else None
        if decl is None or decl.self_convention is None:
            self.msg.error("E0118", e.func.span, struct=callee.type, name="__call__")
            return TConst(e.span, ERROR, None)
        params = decl.params[1:]
        if [p.name for p in params] != ["args", "kwargs"]:
            return self.chk.calls.user_call(decl, e, callee.type, callee)
        env = {**callee.type.ct_env, "Self": callee.type}
        list_type, dict_type = (self.chk.type_resolver(p.annotation, env, decl) for p in params)
        if ERROR in (list_type, dict_type):
            return TConst(e.span, ERROR, None)
        elem = list_type.ct_env["T"]
        consume, coerce, expr = self.chk.ownership.consume, self.exprs.coerce, self.exprs.expr
        items = [consume(coerce(expr(a), elem), "passed to a call") for a in e.args]
        keys = [coerce(TConst(kw.span, T.STRING_LITERAL, kw.name), dict_type.ct_env["K"]) for kw in e.keywords]
        values = [consume(coerce(expr(kw.value), elem), "passed to a call") for kw in e.keywords]
        if any(x.type == ERROR for x in items + keys + values):
            return TConst(e.span, ERROR, None)
        self.chk.ownership.need_drop(list_type, e.span)
        positional = TListLit(e.span, list_type, items)
        init = self.chk.calls.finish_call(dict_type.symbol.methods["__init__"], [], e.span, e.span, dict_type)
        setitem = self.chk.instantiate(dict_type.symbol.methods["__setitem__"], (dict_type, keys[0].type if keys else
                                   dict_type.ct_env["K"], elem), e.span, dict_type, ())
        if init.type == ERROR or setitem is None:
            return TConst(e.span, ERROR, None)
        self.chk.fn.callees.append((setitem, e.span))
        self.chk.ownership.need_drop(dict_type, e.span)
        named = TDictLit(e.span, dict_type, init, setitem, keys, values)
        return self.chk.calls.finish_call(decl, [positional, named], e.span, e.func.span, callee.type, callee)

    def field_read(self, base: TExpr, attr: str, span: Span) -> TExpr:
        if attr == "__name__" and isinstance(base.type, FunctionType):  # `fn.__name__` in a decorator
            name = function_values.python_name(base.type)
            if name is not None:
                return TConst(span, T.STRING_LITERAL, name)
        if classes.is_class(base.type):  # `obj.x`: the object's attribute (semantics/classes.py)
            found = classes.read_attribute(self.chk, base, attr, span)
            if found is not None:
                return found
        sym = self.struct_of(base.type)
        index = base.type.field_index(attr)
        if index is None and attr not in sym.methods and "__getattr__" in sym.methods:
            # `obj.name` of a struct with `__getattr__` (a PythonObject): the name as a literal
            return self.method_call(base, "__getattr__", [TConst(span, T.STRING_LITERAL, attr)], span)
        if index is None:
            if attr in sym.methods:
                self.msg.error("E0120", span, name=attr)
            else:
                self.msg.error("E0122", span, struct=base.type, name=attr)
            return TConst(span, ERROR, None)
        ftype = base.type.fields[index][1]
        self.chk.fn.references.append(Reference(span, "field", attr, ftype, field_span(sym, attr)))
        return TField(span, ftype, base, index)

    def field_target(self, target: ast.Attribute) -> FieldTarget | None:
        """`v.a.b = x`: the variable v and the path of field indices, checked for mutability."""
        names = []
        node = target
        while isinstance(node, ast.Attribute):
            names.append((node.attr, node.span))
            node = node.value
        if not isinstance(node, ast.Name):
            self.msg.error("E0108", target.span)
            return None
        var = self.chk.scopes.lookup(node.id)
        if not isinstance(var, LocalVar):
            if var is None:
                self.exprs.unknown_name(node.id, node.span)
            else:
                self.msg.error("E0108", target.span)
            return None
        self.chk.refer_local(node.span, var)
        if not self.chk.sharing.changed_in_place(var, node.span):
            return None
        if not var.mutable:
            self.msg.error("E0113", node.span, name=node.id, func=self.chk.fn.name)
            return None
        initializing = var is self.chk.self_var and self.chk.field_vars and len(names) == 1
        if not initializing and self.chk.assigned is not None and var not in self.chk.assigned \
                and var not in self.chk.reported_unbound:
            self.chk.reported_unbound.add(var)
            self.msg.error("E0103", node.span, name=node.id)
        t, path = var.type, []
        for attr, span in reversed(names):
            if t == ERROR:  # its mistake was reported where it was made
                return None
            sym = self.struct_of(t)
            index = t.field_index(attr) if sym is not None else None
            if index is None:
                if sym is None:
                    self.msg.error("E0223", span, name=t, attr=attr)
                else:
                    self.msg.error("E0122", span, struct=t, name=attr)
                return None
            path.append(index)
            self.chk.fn.references.append(Reference(span, "field", attr, t.fields[index][1], field_span(sym, attr)))
            t = t.fields[index][1]
        return FieldTarget(var, path, t)

    def chained_compare(self, e: ast.Compare) -> TExpr:
        """`"a" <= ch <= "z"` on strings (or other structs): Python's `"a" <= ch and ch <= "z"`
        with `ch` evaluated once. A middle operand that is a name or a literal reads the same
        twice, so each link is checked as its own comparison; any other middle operand could
        run code twice, and is an error that says to name it first."""
        from .strformat import Checked
        from .typed import TStmtExpr

        operands = (e.left, *e.comparators)
        # Each link's operands: a middle operand that could run code (`board[a] == board[b] ==
        # board[c]`) is evaluated once, into a variable, as the right operand of its first link
        # (so in Python's order, and only when the chain gets that far); its second link reads it.
        lefts: list[ast.Expr] = list(operands[:-1])
        rights: list[ast.Expr] = list(operands[1:])
        for k in range(1, len(operands) - 1):
            middle = operands[k]
            if isinstance(middle, PURE_OPERANDS):
                continue
            value = self.exprs.value(self.exprs.expr(middle))
            if value.type == ERROR:
                return TConst(e.span, ERROR, None)
            if value.type == T.STRING_LITERAL and self.exprs.string_type() is not None:
                value = self.exprs.coerce(value, self.exprs.string_type())
            var = self.chk.new_var(f"$middle{self.chk.next_id}", value.type, middle.span)
            self.chk.next_id += 1
            held = TLocal(middle.span, var.type, var)
            rights[k - 1] = Checked(middle.span, TStmtExpr(middle.span, var.type,
                                                           [self.chk.store([var], [value], middle.span)], held))
            lefts[k] = Checked(middle.span, held)
        links = [self.exprs.expr(ast.Compare(e.span, lefts[i], (op,), (rights[i],)))
                 for i, op in enumerate(e.ops)]
        if any(link.type == ERROR for link in links):
            return TConst(e.span, ERROR, None)
        return TBoolOp(e.span, T.BOOL, "and", [self.exprs.truth(link, link.span) for link in links])

    def struct_compare(self, e: ast.Compare, operands: list[TExpr]) -> TExpr:
        if len(e.ops) != 1:
            return self.chained_compare(e)
        op, (left, right) = e.ops[0], operands
        if op in ("is", "is not"):  # `x is None`, `a is b`: objects (semantics/classes.py)
            found = classes.identity(self.chk, op, left, right, e.span)
            if found is not None:
                return found
            from .sharing import python_shared

            if python_shared(left.type) and python_shared(right.type):  # lists, dicts, sets (semantics/identity.py)
                from .identity import identity

                return identity(self.chk, e, left, right)
        if op in ("in", "not in") and right.type == T.STRING_LITERAL and self.exprs.string_type() is not None:
            right = self.exprs.coerce(right, self.exprs.string_type())  # `c in "aeiou"`: a str
        if op in ("in", "not in"):
            right = as_tuple(self.chk, right)  # `x in p` of a named tuple: its tuple (semantics/named_tuples.py)
        if op in ("in", "not in") and isinstance(right.type, StructType):
            found = self.chk.tuples.contains(left, right, e.span) if isinstance(right.type, T.TupleType) \
                else self.method_call(right, "__contains__", [left], e.span)
            if found is None:
                self.msg.error("E0118", e.span, struct=right.type, name="__contains__")
                return TConst(e.span, ERROR, None)
            return found if op == "in" else TUnary(e.span, T.BOOL, "not", self.exprs.truth(found, e.span))
        tested = none_test(self, e, left, right)  # `opt is None` on the stdlib's Optional
        if tested is not None:
            return tested
        if op not in COMPARE_METHODS:
            self.msg.error("E0007", e.span, construct=f"the `{op}` operator")
            return TConst(e.span, ERROR, None)
        result = None
        if left.type == T.STRING_LITERAL and right.type != T.STRING_LITERAL:  # "a" < s
            left = self.exprs.coerce(left, right.type)
        if isinstance(left.type, T.TupleType):  # `(1, 2) == t` of floats; items that cannot compare
            left, right = self.chk.tuples.compared(left, right, op, e.span)
            if left.type == ERROR:
                return left
        if is_builtin(right.type, "Number"):  # `3 < n` of Python's `int | float` (semantics/numbers.py)
            from .numbers import compared

            left = compared(self.chk, left, right)
        if op in ("==", "!=") and is_builtin(right.type, "Optional") and not isinstance(left.type, StructType) \
                and (isinstance(left, TConst) or (isinstance(left, TLocal) and isinstance(right, (TConst, TLocal)))):
            # `4 == opt`: Python's reflected `opt == 4` (swapped only where neither order runs code)
            left, right = right, left
        if op in ("==", "!=") and is_builtin(left.type, "Bytes") and is_builtin(right.type, "ByteArray"):
            from .reflected_compare import swapped  # `b == ba`: the bytearray's `ba == b`

            result = swapped(self.chk, COMPARE_METHODS[op], left, right, e.span)
        elif isinstance(left.type, StructType):
            result = self.method_call(left, COMPARE_METHODS[op], [right], e.span)
            if result is None and op == "!=":  # Python falls back to `not __eq__`
                equal = self.method_call(left, "__eq__", [right], e.span)
                if equal is not None:
                    result = TUnary(e.span, T.BOOL, "not", self.exprs.truth(equal, e.span))
            if result is None:  # `a > b` of objects with only `__lt__`: Python's reflected `b < a`
                from .reflected_compare import reflected

                result = reflected(self.chk, op, left, right, e.span)
        if result is None:
            self.msg.error("E0202", e.span, optional_notes(left, right), op=op, left=left.type, right=right.type)
            return TConst(e.span, ERROR, None)
        return result

    def declare_self(self, param: ast.Param, owner: StructType, convention: str) -> None:
        var = self.chk.new_var("self", owner, param.span, is_param=convention != "out",
                            mutable=convention in ("mut", "out", "var", "owned"))
        var.by_ref = convention == "mut"
        var.owned = convention == "out"  # a constructor's own value; any other method borrows self
        self.chk.scopes.declare("self", var)
        self.chk.self_var = var
        if convention == "out":
            # Each field is tracked like a variable, so definite assignment covers initialization.
            for name, ftype in owner.fields:
                self.chk.field_vars[name] = LocalVar(f"self.{name}", ftype, param.span, id=-1)
            if not owner.fields:
                self.chk.assigned.add(var)
        else:
            self.chk.fn.params.append(var)
            self.chk.assigned.add(var)

    def return_self(self, span: Span) -> TReturn:
        missing = [n for n, v in self.chk.field_vars.items() if v not in (self.chk.assigned or set())]
        for name in missing:
            self.msg.error("E0117", span, field=name, struct=self.chk.fn.owner)
        return TReturn(span, TLocal(span, self.chk.self_var.type, self.chk.self_var))

    def setitem(self, target: ast.Subscript, value: TExpr, span: Span, mark: int | None = None):
        mark = self.chk.sharing.change_mark() if mark is None else mark
        base = self.exprs.expr(target.value)
        if base.type == ERROR:
            return None
        if isinstance(base.type, T.PtrType):
            index = self.chk.pointers.ptr_index(base, target.items, target.span)
            value = self.chk.ownership.consume(self.exprs.coerce(value, base.type.pointee), "stored")
            if index is None or value.type == ERROR:
                return None
            return TExprStmt(span, TPtrOp(span, T.NONE, "store", [base, index, value]))
        if isinstance(base.type, T.SIMDType):
            if not (isinstance(base, TLocal) and base.var.mutable):
                self.msg.error("E0108", target.span)
                return None
            lane = self.chk.simd.lane_target(base.var, target.items, target.span)
            if lane is None:
                return None
            return self.chk.store([lane], [self.exprs.coerce(value, lane.type)], span)
        if self.struct_of(base.type) is None:
            self.msg.error("E0007", target.span, construct="indexing")
            return None
        if isinstance(base.type, T.TupleType):  # Python's TypeError, known from the type
            self.msg.error("E0238", target.span)
            return None
        if not self.chk.tuples.check_change(base, "item assignment", target.span):  # `t[0][i] = v`
            return None
        index = [self.exprs.expr(i) for i in target.items if isinstance(i, ast.Expr)]
        if self.chk.sharing.element_read(base):  # `g[i][j] = v`: g[i] changed in place
            lent = self.chk.sharing.lend(
                base, span, lambda slot: self.method_call(slot, "__setitem__", index + [value], span), mark)
            if lent is not None:
                return TExprStmt(span, lent) if lent.type != ERROR else None
        if is_builtin(base.type, "List") and any(isinstance(i, ast.Slice) for i in target.items) \
                and is_builtin(value.type, "List") and isinstance(base.type, StructType) \
                and isinstance(value.type, StructType) and value.type.ct_env.get("T") != base.type.ct_env.get("T"):
            # `nums[2:5] = ["a", "b"]`: CPython's list then mixes ints and strs
            self.msg.error("E0301", value.span, found=value.type.ct_env.get("T"), expected=base.type.ct_env.get("T"))
            return None
        result = self.method_call(base, "__setitem__", index + [value], span)
        if result is None:
            self.msg.error("E0118", target.span, struct=base.type, name="__setitem__")
            return None
        return TExprStmt(span, result)

    def aug_subscript(self, s: ast.AugAssign):
        """`x[i] op= v`: x and i are evaluated once, as in Python."""
        target = s.target
        mark = self.chk.sharing.change_mark()
        base = self.exprs.expr(target.value)
        if base.type == ERROR:
            self.chk.empties.counted(target)  # `c[k] += 1` of `c = Counter()` says what it counts
            return None
        if self.chk.sharing.element_read(base):  # `g[i][j] += v`: g[i] changed in place
            name = f"$element{self.chk.next_id}"

            def use(slot):
                self.chk.scopes.declare(name, slot.var)
                inner = self.aug_subscript(replace(s, target=replace(target, value=ast.Name(target.value.span, name))))
                return [inner] if inner is not None else [TExprStmt(s.span, TConst(s.span, ERROR, None))]

            lent = self.chk.sharing.lend(base, s.span, use, mark)
            if lent is not None:
                return TExprStmt(s.span, lent) if lent.type != ERROR else None
        prelude: list = []

        def once(value: TExpr) -> TExpr:
            if isinstance(value, (TConst, TLocal)):
                return value
            var = self.chk.new_var(f"${len(prelude)}", value.type, value.span)
            prelude.append(self.chk.store([var], [value], value.span))
            return TLocal(value.span, var.type, var)

        if not isinstance(base, TLocal) and not isinstance(base.type, T.PtrType):
            self.msg.error("E0108", target.span)
            return None
        base = once(base)
        items = [once(self.exprs.value(self.exprs.expr(i))) for i in target.items if isinstance(i, ast.Expr)]
        names = [ast.Name(i.span, f"$item{n}") for n, i in enumerate(items)]
        for name, item in zip(names, items):
            self.chk.scopes.declare(name.id, item.var if isinstance(item, TLocal) else item)
        self.chk.scopes.declare("$base", base.var)
        subscript = ast.Subscript(target.span, ast.Name(target.value.span, "$base"), tuple(names))
        current = self.exprs.expr(subscript)
        if current.type == ERROR:
            return None
        result = self.exprs.binary(s.op, current, self.exprs.expr(s.value), s.span)
        store = self.setitem(subscript, result, s.span)
        if store is None:
            return None
        return TBlock(s.span, prelude + [store])

    def for_iterable(self, s: ast.For):
        """`for x in v`: v.__iter__() (or v itself) gives an iterator with __has_next__ and __next__."""
        from .element_loops import walk_in_place
        from .shared_iteration import walk_shared

        in_place = walk_in_place(self.chk, s)  # `for p in xs: p.change()`: p is the element itself
        if in_place is not False:
            return in_place
        shared = walk_shared(self.chk, s)  # a module-level variable's or an object's container
        if shared is not False:
            return shared
        counted = self.chk.generators.enumerated(s) or self.chk.generators.zipped(s)  # of a generator
        if counted is not None:
            return counted
        self.chk.generators.direct = s.iter  # `for x in gen(n)`: gen's body runs here (semantics/generators.py)
        source = self.exprs.expr(s.iter)
        self.chk.generators.direct = None
        if source.type == ERROR:
            return None
        if isinstance(source.type, GeneratorType):
            return self.chk.generators.iterate(s, source)
        if isinstance(source.type, T.SIMDType) and isinstance(s.iter, ast.Name):  # `for x in xs` of a `*xs`
            return self.chk.stmt_For(lane_loop(s, source.type.width))
        source, attribute = classes.iterated(self.chk, source)  # `for x in o.items` (semantics/classes.py)
        source = as_tuple(self.chk, source)  # `for v in p` of a named tuple: its tuple (semantics/named_tuples.py)
        if source.type == T.STRING_LITERAL and self.exprs.string_type() is not None:  # `for c in "abc"`
            source = self.exprs.coerce(source, self.exprs.string_type())
        sym = self.struct_of(source.type)
        if isinstance(source.type, T.TupleType) and not self.chk.tuples.iterable(source.type, s.iter.span):
            return None
        if sym is None:
            self.msg.error("E0145", s.iter.span, type=source.type)
            return None
        # A variable holding one of Python's iterators (`m = map(f, xs)`) is used up by the walk, as
        # CPython's is: the loop steps the variable itself, not a copy (semantics/dict_views.py).
        in_place = isinstance(source, TLocal) and source.var.mutable and not borrowed_argument(source.var) \
            and is_iterator(source.type)
        iterator = source if in_place or "__iter__" not in sym.methods \
            else self.method_call(source, iterator_method(source, sym.methods), [], s.iter.span)
        if iterator is None or iterator.type == ERROR:
            return None
        if isinstance(iterator.type, GeneratorType):  # `def __iter__(self): ... yield x`: its body runs here
            return self.chk.generators.iterate(s, iterator)
        isym = self.struct_of(iterator.type)
        if isym is None or "__has_next__" not in isym.methods or "__next__" not in isym.methods:
            self.msg.error("E0145", s.iter.span, type=iterator.type)
            return None
        target, body_ast = s.target, list(s.body)
        if isinstance(target, ast.TupleExpr):  # `for i, (a, b) in ...`: a hidden item, unpacked first
            name, unpack = self.chk.tuples.loop_target(target, s.iter.span)
            target, body_ast = ast.Name(target.span, name), unpack + body_ast
        if not isinstance(target, ast.Name):
            self.msg.error("E0007", s.target.span, construct="this kind of `for` target")
            return None
        hidden = source.var if in_place else self.chk.new_var("$iter", iterator.type, s.iter.span)
        start = None if in_place else self.chk.store([hidden], [iterator], s.iter.span)
        current = TLocal(s.iter.span, hidden.type, hidden)
        more = self.exprs.truth(self.method_call(current, "__has_next__", [], s.iter.span), s.iter.span)
        item = self.method_call(current, "__next__", [], s.iter.span)
        if ERROR in (more.type, item.type):
            return None
        var = self.chk.assign_target(target, item)
        if var is None:
            return None
        if var.type != item.type and ERROR not in (var.type, item.type):
            self.msg.error("E0201", s.target.span, expected=var.type, found=item.type)
            return None
        self.chk.sharing.copied(s.iter, source, var, loop_variable=True)
        walked = [w for w in (self.chk.sharing.iterating(x, s.iter.span) for x in self.chk.tuples.walked(s.iter))
                  if w is not None]  # (`enumerate(xs)` and `zip(xs, ys)` walk their arguments)
        self.chk.sharing.sharing_state()["iterating"].extend(walked)
        if attribute is not None:
            self.chk.sharing.sharing_state()["iterating"].append((attribute, s.iter.span))
        body = self.chk.loop_body(var, body_ast)
        if attribute is not None:
            self.chk.sharing.sharing_state()["iterating"].pop()
        for _ in walked:
            self.chk.sharing.sharing_state()["iterating"].pop()
        step = TAssign(s.target.span, [var], [item])
        return TBlock(s.span, ([start] if start is not None else []) + [TWhile(s.span, more, [step] + body)])

    def px_module_of(self, node: ast.Expr):
        """The .px module `geometry` (after `import geometry`) names, unless a local shadows it."""
        from .module import px_module_named

        root = node
        while isinstance(root, ast.Attribute):
            root = root.value
        if isinstance(root, ast.Name) and self.chk.scopes.lookup(root.id) is None:
            return px_module_named(node, self.chk.module)
        return None

    def qualified_call(self, other, func: ast.Attribute, e: ast.Call, ct_items=None) -> TExpr:
        """`geometry.dot(a, b)`, `geometry.Vec2(1.0, 2.0)`, `geometry.Vec2.origin()`."""
        name = func.attr
        if name in other.functions:
            return self.chk.calls.user_call(other.functions[name], e, ct_items=ct_items)
        if name in other.structs:
            return self.struct_call(other.structs[name], e)
        if name in other.imported:
            return self.chk.mathlib.math_call(other.imported[name][1], e)
        self.msg.error("E0130", func.span, module=dotted_name(func.value), name=name)
        return TConst(e.span, ERROR, None)

    def qualified_value(self, other, e: ast.Attribute) -> TExpr:
        """`geometry.SCALE`: a module's constant (its functions and structs are not values)."""
        from .mathlib import CONSTANTS

        name = e.attr
        if name in other.comptimes:
            value = self.chk.comptime_value(other.comptimes[name])
            return TConst(e.span, value.type, value.value) if value is not None else TConst(e.span, ERROR, None)
        if name in other.imported and other.imported[name][1] in CONSTANTS:
            return self.chk.mathlib.math_constant(other.imported[name][1], e.span)
        if name in other.globals and is_stdlib_file(other.globals[name].span.file.name):
            return self._foreign_variable(other.globals[name], e.span)
        if name in other.functions or name in other.imported:
            self.msg.error("E0007", e.span, construct="using a function as a value")
        elif name in other.structs:
            self.msg.error("E0220", e.span, name=name)
        else:
            from .globals import foreign_variable_notes

            self.msg.error("E0130", e.span, foreign_variable_notes(other, name), module=dotted_name(e.value),
                           name=name)
        return TConst(e.span, ERROR, None)

    def _foreign_variable(self, var, span) -> TExpr:
        """`sys.argv`: a standard module's module-level variable, read as that module's own
        functions read it (an alias of its global, semantics/globals.py). Imported modules' scripts
        run before the program's, so it is assigned. Only the stdlib's for now: a user module's
        may be read before its script assigns it (a check of its `.defined` flag is not wired here)."""
        from .typed import LocalVar, TLocal

        self.chk.next_id += 1
        alias = LocalVar(var.name, var.type, span, id=self.chk.next_id, owned=False,
                         global_symbol=var.global_symbol)
        return TLocal(span, var.type, alias)

    def module_of(self, node: ast.Expr) -> str | None:
        """The module a name refers to (`math` after `import math`), unless a local shadows it."""
        if isinstance(node, ast.Name) and node.id in self.chk.module.modules \
                and self.chk.scopes.lookup(node.id) is None:
            return self.chk.module.modules[node.id]
        return None
