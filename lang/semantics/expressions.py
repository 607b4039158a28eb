"""Type checking of expressions: literals, names, operators, comparisons, coercion.

`ExpressionChecker` is the statement checker's collaborator (`chk.exprs`): it types one
expression at a time, reading the scopes and flow state the statement checker (`self.chk`)
owns, and hands a feature's expressions (calls, struct values, SIMD, ...) to that feature's
checker.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import types as T
from ..diagnostics import Note
from ..diagnostics.codes import NOT_IN_PYX
from ..source import Span
from ..syntax import ast
from ..syntax.build_ast import ZIP_ROWS
from ..syntax.nested_spec import NESTED_FORMAT
from ..syntax.properties import is_property
from ..types import ERROR, FunctionType, LiteralType, ScalarType, StructType, Type, default_type
from . import (
    bool_values,
    classes,
    closure_loops,
    everyday,
    exceptions,
    float_sums,
    fold,
    function_arguments,
    function_values,
    inheritance,
    python_float,
    sets,
)
from .builtin_types import is_builtin
from .c_functions import ATOMICS, atomic_call
from .closure_loops import ParameterFn
from .closures import BUILTIN_VALUES, KEYED
from .comprehensions import CONSUMERS
from .gpu import GPU_NAMES
from .imports import is_stdlib_file, is_string
from .match_patterns import SEQUENCE_TEST, sequence_test
from .messages import MessageBuilder
from .narrowing import attribute_read as narrowing_attribute_read
from .narrowing import narrowed, not_none_when, operand_guards, optional_notes
from .numbers import HELD_NUMBERS, NUMBER_TYPE, formatted, held_for_scalars, mixed_numbers
from .numbers import binary as number_binary
from .numbers import coerce as as_number
from .numbers import common as number_items
from .numbers import holds as number_holds
from .optional_types import ambiguous_truth, coerce_to_optional, python_truth
from .rules import (
    BINARY_METHODS,
    BIT_OPS,
    BUILTIN_FUNCTIONS,
    CMP_OPS,
    COMPILE_TIME_FORMS,
    FUTURE_NAMES,
    UNARY_METHODS,
    TypeParam,
    is_float,
    is_num,
)
from .sharing import duplicated_shared_item, repeats_shared_items
from .slicing import slice_value
from .strformat import FORMAT_FIELD, REPR_FIELD, Checked
from .typed import (
    LocalVar,
    Reference,
    TBinary,
    TBoolOp,
    TBuiltin,
    TCompare,
    TConst,
    TDictLit,
    TExpr,
    TIf,
    TIfExp,
    TListLit,
    TLocal,
    TMove,
    TPtrOp,
    TStmtExpr,
    TUnary,
)

if TYPE_CHECKING:
    from .check import FunctionChecker


# E0208's note where Python would give an int on one side and a float on the other.
INT_OR_FLOAT = (Note("Python gives an int on one side and a float on the other, and prints them differently "
                     "(`1` and `1.0`): write both sides as floats (`2.0`) or convert one (`float(n)`)"),)

class ExpressionChecker:
    """Turns an AST expression into a typed one (`expr`), and converts typed values (`coerce`, `value`)."""

    def __init__(self, chk: FunctionChecker) -> None:
        self.chk: FunctionChecker = chk
        self.msg: MessageBuilder = chk.msg

    def expr_Transfer(self, e: ast.Transfer) -> TExpr:
        return self.chk.ownership.expr_Transfer(e)

    # ---- expressions ----
    def expr(self, e: ast.Expr) -> TExpr:
        method = getattr(self, "expr_" + type(e).__name__)
        return method(e)

    def value(self, e: TExpr) -> TExpr:
        """An expression whose value is needed now: untyped constants take their default type."""
        if isinstance(e.type, LiteralType):
            return self.coerce(e, default_type(e.type))
        return e

    def expr_Checked(self, e: Checked) -> TExpr:
        return e.value  # an argument of a format string, checked before the string was parsed

    def expr_IntLit(self, e):
        return TConst(e.span, T.INT_LITERAL, e.value)

    def expr_FloatLit(self, e):
        return TConst(e.span, T.FLOAT_LITERAL, e.value)

    def expr_BoolLit(self, e):
        return TConst(e.span, T.BOOL, e.value)

    def expr_StrLit(self, e):
        return TConst(e.span, T.STRING_LITERAL, e.value)

    def expr_NoneLit(self, e):
        return TConst(e.span, T.NONE, None)

    def expr_EllipsisLit(self, e):
        # Permanent: `...` is a trait method's missing body, never a value (Python's Ellipsis).
        self.msg.error(NOT_IN_PYX, e.span, construct="`...` outside a trait (write `pass` for an empty body)")
        return TConst(e.span, ERROR, None)

    def expr_ErrorExpr(self, e):
        return TConst(e.span, ERROR, None)

    def string_type(self) -> StructType | None:
        """The stdlib's String, where this module uses string literals as Python's str."""
        from .module import STRING_LITERAL

        sym = self.chk.module.structs.get(STRING_LITERAL)
        return sym.type if sym is not None else None

    def string_or(self, t: Type) -> Type:
        """A string literal's type where a value is kept (in a list, a dict): String, as Python's str."""
        return (self.string_type() or t) if t == T.STRING_LITERAL else t

    def expr_Starred(self, e: ast.Starred) -> TExpr:
        # (a starred target is taken apart by semantics/sequence_unpack.py before this)
        self.msg.error("E0007", e.span, construct="`*` unpacking inside a tuple display")
        return TConst(e.span, ERROR, None)

    def expr_TupleExpr(self, e):
        return self.chk.tuples.literal(e)

    def expr_Comprehension(self, e: ast.Comprehension) -> TExpr:
        return self.chk.comprehensions.expr_Comprehension(e)

    def expr_SetExpr(self, e: ast.SetExpr) -> TExpr:
        return sets.set_display(self.chk, e)

    def expr_ListExpr(self, e: ast.ListExpr, expected: Type | None = None) -> TExpr:
        """`[a, b, c]`: a List of the elements' one type (untyped constants adapt, as in `var`).
        `expected`: the item type a declaration gives (`grid: list[list[int]] = [[]]`)."""
        from .module import LIST_LITERAL, struct_instance

        elts = self._items(e, expected)
        if any(x.type == ERROR for x in elts):
            return TConst(e.span, ERROR, None)
        if not elts:
            self.msg.error("E0007", e.span, construct="an empty list literal (write `List[Int]()`, with the "
                                                        "element type)")
            return TConst(e.span, ERROR, None)
        if duplicated_shared_item(self.chk, e.elts, elts) or self._mixed_items(elts):
            return TConst(e.span, ERROR, None)
        elem = inheritance.common_base(self.chk, elts) or function_values.common_type(self.chk, elts, e.span) \
            or number_items(elts) or (mixed_numbers(self.chk, elts) if expected is None else None) \
            or self.string_or(_element_type(elts))
        if expected is not None and all(number_holds(expected, x.type) for x in elts):
            elem = expected  # `xs: list[int | float] = [1, 2.5]` (semantics/numbers.py)
        elif any(x.type == T.NONE for x in elts) or expected is not None:  # `[2, None]` (semantics/optional_items.py)
            from .optional_items import item_type

            inner = self.string_or(_element_type([x for x in elts if x.type != T.NONE] or elts))
            elem = item_type(self.chk, elts, elem, expected, e, inner)
        if elem == ERROR:
            return TConst(e.span, ERROR, None)
        if python_float.refuse_mixed_items(self.chk, elts, elem, "as an item of a list of floats"):
            return TConst(e.span, ERROR, None)
        elts = [self.chk.ownership.consume(self.coerce(x, elem), "put in a list") for x in elts]
        sym = self.chk.module.structs.get(LIST_LITERAL)
        if any(x.type == ERROR for x in elts) or sym is None:
            return TConst(e.span, ERROR, None)
        list_type = struct_instance(sym, (elem,), e.span, self.chk.module, self.msg.bag,
                                    self.chk.module.lookup_constant)
        if list_type == ERROR:
            return TConst(e.span, ERROR, None)
        self.chk.ownership.need_drop(list_type, e.span)
        return TListLit(e.span, list_type, elts)

    def _mixed_items(self, elts: list[TExpr]) -> bool:
        """Whether a list literal's items are of two Python types that no one type holds (`[4, "-4"]`,
        `[1, [2, 3]]`): E0323 at the first item of another type. (Numbers of several kinds, None,
        objects, functions and bytes are left to the rules that unify them.)"""
        from .type_names import python_name

        numbers = {"int", "float", "bool"}
        names = [python_name(self.string_or(default_type(x.type))) for x in elts]
        if "bytes" in names:
            return False  # (bytes beside str: E0299)
        first = next((n for n in names if n is not None and n != "NoneType"), None)
        for x, name in zip(elts, names, strict=True):
            if name is not None and name not in (first, "NoneType") and not {name, first} <= numbers:
                self.msg.error("E0323", x.span, first=first, other=name)
                return True
        return False

    def _reversed_range(self, e: ast.Call) -> bool:
        """The builtin `reversed` of a range (`reversed(range(n))`, `reversed(r)`)."""
        from .module import RANGE_VALUE

        sym = self.chk.module.structs.get(RANGE_VALUE)
        return sym is not None and len(e.args) == 1 and not e.keywords and self.chk.closures.builtin("reversed") \
            and self._is_range(e.args[0], sym.type)

    def _is_range(self, e: ast.Expr, range_type: Type) -> bool:
        """`range(...)`, or a variable holding a Range (known without checking e)."""
        if isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id == "range" \
                and self.chk.scopes.lookup("range") is None:
            return True
        found = self.chk.scopes.lookup(e.id) if isinstance(e, ast.Name) else None
        return isinstance(found, LocalVar) and found.type == range_type

    def _items(self, display: ast.ListExpr | ast.DictExpr, expected: Type | None = None) -> list[TExpr]:
        """The items of a list display (or a dict display's values): an empty `[]`, `{}` or `set()`
        among items that say their type is an empty one of that type (`[[1, 2], [], [3]]`,
        `{"a": [1], "b": []}`), as it would be if declared. Where a declaration gives the item
        type (`expected`), the empty ones take it, and the others keep their own types; where
        nothing does (`[[]]`, `{"k": {}}`), E0100 says what to annotate."""
        from .empty_literals import is_empty_literal, mixed_display, open_display, report_open_display

        items = display.elts if isinstance(display, ast.ListExpr) else display.values
        if expected is not None:
            made = [self.chk.empty_container(x, expected) for x in items]
            return [m if m is not None else self.expr(x) for m, x in zip(made, items, strict=True)]
        if open_display(display, self.chk.module):
            report_open_display(self.chk, display)
            return [TConst(x.span, ERROR, None) for x in items]
        empties = [is_empty_literal(x, self.chk.module) for x in items]
        if not any(empties):
            return [self.expr(x) for x in items]
        checked = {i: self.expr(x) for i, x in enumerate(items) if not empties[i]}
        known = list(checked.values())
        if any(x.type == ERROR for x in known):
            return known
        elem = self.string_or(_element_type(known))
        for i, x in enumerate(items):
            if empties[i]:
                made = self.chk.empty_container(x, elem) if isinstance(elem, StructType) else None
                if made is None and mixed_display(self.chk, display):  # `{"n": "hall", "items": []}` (E0340)
                    return [TConst(x.span, ERROR, None) for x in items]
                if made is None:  # not a container of that kind: say so as an empty literal alone would
                    made = self.expr(x)
                checked[i] = made
        return [checked[i] for i in range(len(items))]

    def expr_DictExpr(self, e: ast.DictExpr, expected: Type | None = None) -> TExpr:
        """`{k: v, ...}`: a Dict built by inserting the pairs in order (a repeated key keeps its
        first place and its last value, as in Python). `expected`: the value type a declaration
        gives (`d: dict[str, dict[str, int]] = {"k": {}}`)."""
        from .module import DICT_LITERAL, struct_instance

        keys, values = [self.expr(k) for k in e.keys], self._items(e, expected)
        if any(x.type == ERROR for x in keys + values):
            return TConst(e.span, ERROR, None)
        if not keys:
            self.msg.error("E0007", e.span, construct="an empty dict literal (write `Dict[Int, Int]()`, with the "
                                                        "key and value types)")
            return TConst(e.span, ERROR, None)
        key_type = self.string_or(_element_type(keys))
        value_type = function_values.common_type(self.chk, values, e.span) or number_items(values) \
            or (mixed_numbers(self.chk, values) if expected is None else None) \
            or self.string_or(_element_type(values))  # (`{"a": 1, "b": 2.5}`: numbers.py)
        if expected is not None and all(number_holds(expected, x.type) for x in values):
            value_type = expected  # `d: dict[str, int | float] = {"a": 1, "b": 2.5}` (semantics/numbers.py)
        elif any(x.type == T.NONE for x in values) or expected is not None:  # `{"a": None}` (optional_items.py)
            from .optional_items import item_type

            inner = self.string_or(_element_type([x for x in values if x.type != T.NONE] or values))
            value_type = item_type(self.chk, values, value_type, expected, e, inner)
        if value_type == ERROR:
            return TConst(e.span, ERROR, None)
        keys = [self.chk.ownership.consume(self.coerce(k, key_type), "put in a dict") for k in keys]
        values = [self.chk.ownership.consume(self.coerce(v, value_type), "put in a dict") for v in values]
        sym = self.chk.module.structs.get(DICT_LITERAL)
        if any(x.type == ERROR for x in keys + values) or sym is None:
            return TConst(e.span, ERROR, None)
        dict_type = struct_instance(sym, (key_type, value_type), e.span, self.chk.module, self.msg.bag,
                                    self.chk.module.lookup_constant)
        if dict_type == ERROR:
            return TConst(e.span, ERROR, None)
        init = self.chk.calls.finish_call(dict_type.symbol.methods["__init__"], [], e.span, e.span, dict_type)
        setitem = self.chk.instantiate(dict_type.symbol.methods["__setitem__"], (dict_type, key_type, value_type),
                                   e.span, dict_type, ())
        if init.type == ERROR or setitem is None:
            return TConst(e.span, ERROR, None)
        self.chk.fn.callees.append((setitem, e.span))
        self.chk.ownership.need_drop(dict_type, e.span)
        return TDictLit(e.span, dict_type, init, setitem, keys, values)

    def expr_Lambda(self, e: ast.Lambda) -> TExpr:
        if any(p.default is not None for p in e.params):  # `lambda x, k=k:` (semantics/lambda_defaults.py)
            from .lambda_defaults import lambda_value

            return lambda_value(self.chk, e)
        return self.chk.closures.lambda_value(e)

    def expr_Name(self, e: ast.Name) -> TExpr:
        found = self.chk.scopes.lookup(e.id)
        if isinstance(found, LocalVar):
            self.chk.refer_local(e.span, found)
            if self.chk.assigned is not None and found not in self.chk.assigned \
                    and found not in self.chk.reported_unbound:
                self.chk.reported_unbound.add(found)
                if not self.chk.ownership.moved_error(found, e.span):
                    self.msg.error("E0103", e.span, name=e.id)
            if found in self.chk.narrowed:  # `... or x > best` after `best is None` (narrowing.py)
                value = self.chk.structs.method_call(TLocal(e.span, found.type, found), "value", [], e.span)
                if value is not None:
                    return value
            return TLocal(e.span, found.type, found)
        if isinstance(found, TConst):
            if isinstance(found.value, TypeParam):
                self.msg.error("E0220", e.span, name=e.id)
            if isinstance(found.value, ParameterFn):  # only a closure loop's body (closure_loops.py)
                return closure_loops.misused(self.chk, e, found.value)
            return TConst(e.span, found.type, found.value)
        if e.id in self.chk.module.comptimes:
            sym = self.chk.module.comptimes[e.id]
            value = self.chk.comptime_value(sym)
            self.chk.fn.references.append(Reference(e.span, "comptime", e.id, value.type if value else None,
                                                sym.decl.name_span, f"= {value.value!r}" if value else ""))
            return TConst(e.span, value.type, value.value) if value is not None else TConst(e.span, ERROR, None)
        if e.id == "WARP_SIZE":
            from .gpu import WARP_SIZE

            return TConst(e.span, T.INT, WARP_SIZE)
        if e.id in GPU_NAMES:
            # Permanent: the GPU index names are namespaces of intrinsics, not values.
            self.msg.error(NOT_IN_PYX, e.span, construct=f"`{e.id}` on its own (use `{e.id}.x`, or call it)")
            return TConst(e.span, ERROR, None)
        if e.id in self.chk.module.imported:
            _module, name = self.chk.module.imported[e.id]
            from .mathlib import CONSTANTS

            if name in CONSTANTS:
                return self.chk.mathlib.math_constant(name, e.span)
            self.msg.error("E0007", e.span, construct="using a function as a value")
            return TConst(e.span, ERROR, None)
        if e.id in self.chk.module.modules or any(m.split(".")[0] == e.id for m in self.chk.module.px_modules):
            # Permanent: a module is a compile-time namespace in pyx; there is no module object.
            self.msg.error(NOT_IN_PYX, e.span,
                           construct="using a module as a value (name what you need, e.g. `m.f(...)`)")
            return TConst(e.span, ERROR, None)
        if e.id in self.chk.module.functions:
            return self.chk.closures.function_value(self.chk.module.functions[e.id], e.span)
        if e.id in BUILTIN_VALUES:
            return self.chk.closures.builtin_value(e.id, e.span)
        if e.id in BUILTIN_FUNCTIONS:
            self.msg.error("E0007", e.span, construct="using a function as a value")
            return TConst(e.span, ERROR, None)
        if e.id in T.TYPE_NAMES or e.id in self.chk.module.structs:
            self.msg.error("E0220", e.span, name=e.id)
            return TConst(e.span, ERROR, None)
        self.unknown_name(e.id, e.span)
        return TConst(e.span, ERROR, None)

    def unknown_name(self, name: str, span: Span) -> None:
        if name in self.chk.module.unresolved:
            return  # its import failed, and that was reported
        if name == "super":  # (the calls it can make are rewritten with the classes: syntax/inheritance.py)
            self.msg.error("E0267", span)
            return
        if name in FUTURE_NAMES:
            self.msg.error("E0007", span, construct=f"`{name}`")
            return
        if name in COMPILE_TIME_FORMS:
            self.msg.error(NOT_IN_PYX, span, construct=f"`{name}` without its compile-time parameters (write "
                                                    f"{COMPILE_TIME_FORMS[name]})")
            return
        if name in self.chk.module.exceptions or name in exceptions.PARENT:  # `e = AppError("x")`
            self.msg.error("E0316", span, name=name)
            return
        candidates = (self.chk.scopes.all_names() + list(self.chk.module.functions) + list(self.chk.module.comptimes)
                      + list(self.chk.module.structs)
                      + sorted(BUILTIN_FUNCTIONS) + list(T.TYPE_NAMES))
        import difflib  # (a misspelled name's alone: issue 15)

        close = difflib.get_close_matches(name, [c for c in candidates if not c.startswith("__pyx")], n=1)
        why = self.chk.globals.explain_unknown(name) or self.chk.comprehensions.explain_unknown(name, span)
        notes = (why,) if why is not None else (Note(f"did you mean `{close[0]}`?"),) if close else ()
        self.msg.error("E0101", span, notes, name=name)

    def expr_Attribute(self, e: ast.Attribute):
        from .gpu import INDEX_NAMES
        from .type_names import described, type_name

        of = described(self.chk, e)  # `type(x).__name__`, `x.__class__.__name__`
        if of is not None:
            return type_name(self.chk, e, of)

        if isinstance(e.value, ast.Name) and e.value.id in INDEX_NAMES and self.chk.scopes.lookup(e.value.id) is None:
            return self.chk.gpu.gpu_index(e)
        narrowed_value = narrowing_attribute_read(self.chk, e)  # `self.best is None or n > self.best`
        if narrowed_value is not None:
            return narrowed_value
        other = self.chk.structs.px_module_of(e.value)
        if other is not None:
            return self.chk.structs.qualified_value(other, e)
        module = self.chk.structs.module_of(e.value)
        if module is not None:
            from .mathlib import CONSTANTS, MODULES

            if module not in MODULES:  # a GPU module (gpu_imports.py): its names are called, not read
                self.msg.error("E0007", e.span, construct="using a function as a value")
                return TConst(e.span, ERROR, None)
            if e.attr in CONSTANTS:
                return self.chk.mathlib.math_constant(e.attr, e.span)
            if e.attr in MODULES[module]:
                self.msg.error("E0007", e.span, construct="using a function as a value")
            else:
                self.msg.error("E0130", e.span, module=module, name=e.attr)
            return TConst(e.span, ERROR, None)
        if isinstance(e.value, ast.Name) and e.value.id == "DType" and self.chk.scopes.lookup("DType") is None:
            if e.attr in T.DTYPES:
                return TConst(e.span, T.DTYPE, T.DTYPES[e.attr])
            self.msg.error("E0223", e.span, name="DType", attr=e.attr)
            return TConst(e.span, ERROR, None)
        if isinstance(e.value, ast.Name) and e.value.id in FUTURE_NAMES and self.chk.scopes.lookup(e.value.id) is None:
            self.msg.error("E0007", e.span, construct=f"`{e.value.id}`")
            return TConst(e.span, ERROR, None)
        if isinstance(e.value, ast.Name) and e.value.id == "self" and self.chk.field_vars \
                and self.chk.scopes.lookup("self") is self.chk.self_var and self.chk.assigned is not None \
                and self.chk.self_var not in self.chk.assigned:
            # Inside `__init__(out self)`: a field may be read once it is initialized.
            fvar = self.chk.field_vars.get(e.attr)
            if fvar is not None and fvar not in self.chk.assigned:
                self.msg.error("E0117", e.span, field=e.attr, struct=self.chk.fn.owner)
            base = TLocal(e.value.span, self.chk.self_var.type, self.chk.self_var)
        else:
            bound = self.chk.scopes.lookup(e.value.id) if isinstance(e.value, ast.Name) else None
            sym = self.chk.structs.struct_of(bound.type) if isinstance(bound, LocalVar) else None
            if sym is not None and e.attr in sym.methods and bound.type.field_index(e.attr) is None \
                    and not is_property(sym.methods[e.attr]):  # (`obj.area` of an @property: a call, below)
                return self.chk.closures.bound_method(e, bound, sym.methods[e.attr])  # `d.get` as a value
            base = self.expr(e.value)
            if base.type == T.EXCEPTION and isinstance(bound, LocalVar):  # `e.needed` of a caught exception
                found = self.chk.exceptions.caught_object(bound, e.attr, e.span)
                if found is not None:
                    return found
        if base.type == ERROR:
            return TConst(e.span, ERROR, None)
        if is_builtin(base.type, "ExceptionValue") and not is_stdlib_file(e.span.file.name):  # `err.args`
            # (semantics/exception_values.py)
            from .exception_values import attribute

            return attribute(self.chk, e)
        if self.chk.structs.struct_of(base.type) is not None:
            return self.chk.structs.field_read(base, e.attr, e.span)
        self.msg.error("E0223", e.span, name=base.type, attr=e.attr)
        return TConst(e.span, ERROR, None)

    def expr_Subscript(self, e: ast.Subscript):
        if isinstance(e.value, ast.Name) and e.value.id in FUTURE_NAMES and self.chk.scopes.lookup(e.value.id) is None:
            self.msg.error("E0007", e.span, construct=f"`{e.value.id}[...]`")
            return TConst(e.span, ERROR, None)
        base = self.expr(e.value)
        if base.type == ERROR:
            return base
        if base.type == T.STRING_LITERAL and self.string_type() is not None:  # `"abc"[::-1]`, `"abc"[i]`
            base = self.coerce(base, self.string_type())
        if isinstance(base.type, T.SIMDType):
            return self.chk.simd.simd_lane(base, e.items, e.span)
        if isinstance(base.type, T.PtrType):
            index = self.chk.pointers.ptr_index(base, e.items, e.span)
            if index is None:
                return TConst(e.span, ERROR, None)
            return TPtrOp(e.span, base.type.pointee, "load", [base, index])
        if isinstance(base.type, StructType):  # `p[0]` of a named tuple: of its tuple (semantics/named_tuples.py)
            from .named_tuples import as_tuple

            base = as_tuple(self.chk, base)
        if isinstance(base.type, T.TupleType):
            return self.chk.tuples.index(base, e)
        if self.chk.structs.struct_of(base.type) is not None:
            index = [self.expr(i) for i in e.items if isinstance(i, ast.Expr)]
            result = self.chk.structs.method_call(base, "__getitem__", index, e.span)
            if result is not None:
                return result
            self.msg.error("E0118", e.span, struct=base.type, name="__getitem__")
            return TConst(e.span, ERROR, None)
        self.msg.error("E0007", e.span, construct="indexing")
        return TConst(e.span, ERROR, None)

    def expr_Slice(self, e: ast.Slice) -> TExpr:
        return slice_value(self.chk, e)

    def expr_Unary(self, e: ast.Unary) -> TExpr:
        operand = self.expr(e.operand)
        if e.op == "not":
            test = self.truth(operand, e.operand.span)
            if isinstance(test, TConst) and test.type != ERROR:
                return TConst(e.span, T.BOOL, not test.value)
            return TUnary(e.span, T.BOOL, "not", test)
        t = operand.type
        if t == ERROR:
            return operand
        if isinstance(t, T.SIMDType):
            ok = (e.op == "~" and (t.elem.is_int or t.elem.is_bool)) or (e.op in "-+" and t.elem.is_numeric)
            if not ok:
                self.msg.error("E0203", e.span, op=e.op, operand=t)
                return TConst(e.span, ERROR, None)
            return operand if e.op == "+" else TUnary(e.span, t, e.op, operand)
        if isinstance(t, StructType):
            result = self.chk.structs.method_call(operand, UNARY_METHODS[e.op], [], e.span)
            if result is None:
                self.msg.error("E0203", e.span, optional_notes(operand), op=e.op, operand=t)
                return TConst(e.span, ERROR, None)
            return result
        if t == T.BOOL:  # Python: -True == -1, ~True == -2
            operand, t = self.chk.calls.convert(operand, T.INT, e.span), T.INT
        ok = (isinstance(t, LiteralType) and (e.op != "~" or t.kind == "int")) or (
            isinstance(t, ScalarType) and t.is_numeric and (e.op != "~" or t.is_int))
        if not ok:
            self.msg.error("E0203", e.span, op=e.op, operand=t)
            return TConst(e.span, ERROR, None)
        if isinstance(operand, TConst):
            try:
                return TConst(e.span, t, fold.unary(e.op, operand.value, t))
            except fold.NoFold:
                pass
        if e.op == "+":
            return operand
        return TUnary(e.span, t, e.op, operand)

    def expr_Binary(self, e: ast.Binary) -> TExpr:
        if e.op == "%" and isinstance(e.left, ast.StrLit):  # `"%5.2f" % x`: parsed when compiling
            return self.chk.strformat.percent(e)
        floated = float_sums.rewrite(self.chk, e)  # `sum(floats) / n` (semantics/float_sums.py)
        if floated is not None:
            return self.expr(floated)
        return self.binary(e.op, self.expr(e.left), self.expr(e.right), e.span)

    def binary(self, op: str, left: TExpr, right: TExpr, span: Span) -> TExpr:
        if ERROR in (left.type, right.type):
            return TConst(span, ERROR, None)
        if isinstance(left.type, T.SIMDType) or isinstance(right.type, T.SIMDType):
            return self.chk.simd.simd_binary(op, left, right, span)
        if isinstance(left.type, T.PtrType) or isinstance(right.type, T.PtrType):
            if isinstance(left.type, T.PtrType) and op in ("+", "-") and not isinstance(right.type, T.PtrType):
                return self.chk.pointers.ptr_offset(left, right, span, negate=op == "-")
            self.msg.error("E0202", span, op=op, left=left.type, right=right.type)
            return TConst(span, ERROR, None)
        if op == "%" and (left.type == T.STRING_LITERAL or is_string(left.type)):
            return self.chk.strformat.not_constant(left.span, "`%`")
        if left.type == T.STRING_LITERAL and is_string(right.type):  # "a" + s
            left = self.coerce(left, right.type)
        elif left.type == T.STRING_LITERAL and op == "*" and self.string_type() is not None:  # "-" * n
            left = self.coerce(left, self.string_type())
        if isinstance(left.type, T.TupleType) or isinstance(right.type, T.TupleType):
            return self.chk.tuples.binary(op, left, right, span)  # `t + (x,)`, `t * 2`: a new tuple
        if op == "*" and repeats_shared_items(self.chk, left, right, span):
            return TConst(span, ERROR, None)
        if is_builtin(left.type, "Number") or is_builtin(right.type, "Number"):  # Python's `int | float`
            mixed = number_binary(self.chk, op, left, right, span)
            if mixed is not None:
                return mixed
        if isinstance(left.type, StructType) or isinstance(right.type, StructType):
            result = self.chk.structs.method_call(left, BINARY_METHODS[op], [right], span) \
                if isinstance(left.type, StructType) else None
            if result is None and isinstance(right.type, StructType):  # `3 * xs`: Python's reflected method
                result = self.chk.structs.method_call(right, "__r" + BINARY_METHODS[op][2:], [left], span)
            if result is None:
                self.msg.error("E0202", span, optional_notes(left, right), op=op, left=left.type, right=right.type)
                return TConst(span, ERROR, None)
            return result
        if op == "@":
            self.msg.error("E0202", span, op=op, left=left.type, right=right.type)
            return TConst(span, ERROR, None)
        if left.type == right.type == T.STRING_LITERAL and op == "+" and isinstance(left, TConst) \
                and isinstance(right, TConst):
            return TConst(span, T.STRING_LITERAL, left.value + right.value)
        if op in BIT_OPS and left.type == right.type == T.BOOL and op in ("&", "|", "^"):
            return self._fold_or_build(op, left, right, T.BOOL, T.BOOL, span)
        left = everyday.negative_power(self.chk, op, left, right)  # `2 ** -1` is 0.5
        operand_type = self.arith_type(op, left, right, span)
        if operand_type is None:
            return TConst(span, ERROR, None)
        left = self.promote(left, operand_type)
        right = self.promote(right, operand_type)
        if ERROR in (left.type, right.type):
            return TConst(span, ERROR, None)
        result_type = operand_type
        if op == "/" and not is_float(operand_type):
            # Python's true division of ints gives a float.
            result_type = T.FLOAT_LITERAL if isinstance(operand_type, LiteralType) else T.FLOAT64
            if isinstance(left, TConst) and isinstance(right, TConst) and right.value != 0:
                return TConst(span, result_type, fold.normalize(left.value / right.value, result_type))
            exact = self._true_division(left, right, span)
            if exact is not None:
                return exact
            left = self.coerce_or_convert(left, default_type(result_type))
            right = self.coerce_or_convert(right, default_type(result_type))
            return TBinary(span, default_type(result_type), op, left, right, ints=True)
        return self._fold_or_build(op, left, right, operand_type, result_type, span)

    def _true_division(self, left: TExpr, right: TExpr, span: Span) -> TExpr | None:
        """`a / b` of two Ints in a `def`: Python's correctly rounded quotient (stdlib/true_division.px;
        converting an int beyond 2**53 to a float first rounds twice). None in `fn` code, whose `/`
        converts as Mojo's does, or where the module has no `/` to bind the function for."""
        from .module import TRUE_DIVISION

        function = self.chk.module.functions.get(TRUE_DIVISION)
        if function is None or not python_float.python_code(self.chk):
            return None
        operands = [self.coerce(x, T.INT) for x in (left, right)]
        if any(x.type != T.INT for x in operands):
            return None
        return self.chk.calls.finish_call(function, operands, span, span)

    def _fold_or_build(self, op, left, right, operand_type, result_type, span) -> TExpr:
        if isinstance(left, TConst) and isinstance(right, TConst):
            try:
                return TConst(span, result_type, fold.binary(op, left.value, right.value, operand_type))
            except fold.TooBig:  # exact only at compile time, and too big for that: never wrap it
                self.msg.error("E0008", span, limit=f"{fold.MAX_FOLD_BITS} bits")
                return TConst(span, ERROR, None)
            except fold.NoFold:
                pass
        if isinstance(operand_type, LiteralType):
            # Cannot fold (e.g. 1 // 0): it happens at run time, at the default type.
            concrete = default_type(operand_type)
            return TBinary(span, concrete, op, self.coerce(left, concrete), self.coerce(right, concrete))
        return TBinary(span, result_type, op, left, right)

    def arith_type(self, op: str, left: TExpr, right: TExpr, span: Span) -> Type | None:
        """The type both operands of an arithmetic/bitwise operator are brought to."""
        lt, rt = left.type, right.type
        # Python computes with a Bool as the int 0 or 1.
        if lt == T.BOOL:
            lt = rt if is_num(rt) else T.INT
        if rt == T.BOOL:
            rt = lt if is_num(lt) else T.INT
        result = None
        if isinstance(lt, LiteralType) and isinstance(rt, LiteralType):
            result = T.FLOAT_LITERAL if "float" in (lt.kind, rt.kind) else T.INT_LITERAL
        elif isinstance(lt, LiteralType) and is_num(rt):
            result = rt if (lt.kind == "int" or rt.is_float) else T.FLOAT64
        elif isinstance(rt, LiteralType) and is_num(lt):
            result = lt if (rt.kind == "int" or lt.is_float) else T.FLOAT64
        elif is_num(lt) and is_num(rt):
            if lt == rt or (lt.is_float and rt.is_int):
                result = lt
            elif rt.is_float and lt.is_int:
                result = rt
        if result is None or (op in BIT_OPS and is_float(result)):
            notes = ()
            if is_num(lt) and is_num(rt):
                notes = (Note(f"convert one side explicitly, e.g. `{lt}(...)` or `{rt}(...)`"),)
            self.msg.error("E0202", span, notes, op=op, left=left.type, right=right.type)
            return None
        return result

    def expr_Compare(self, e: ast.Compare) -> TExpr:
        if isinstance(e.left, ast.Call) or isinstance(e.comparators[0], ast.Call):  # `type(x) is C`
            from .type_objects import compare

            found = compare(self.chk, e)
            if found is not None:
                return found
        operands = [self.expr(e.left)] + [self.expr(c) for c in e.comparators]
        if len(e.ops) == 1 and e.ops[0] in ("in", "not in") and operands[0].type == operands[1].type \
                == T.STRING_LITERAL and self.string_type() is not None:  # `"ab" in "cab"`: str's __contains__
            operands[1] = self.coerce(operands[1], self.string_type())
        if any(o.type == ERROR for o in operands) and any(isinstance(o.type, StructType) for o in operands):
            return TConst(e.span, ERROR, None)  # (reported where it was made: `sum(ps) == p` after sum's error)
        if any(isinstance(o.type, StructType) for o in operands):
            return self.chk.structs.struct_compare(e, operands)
        if any(isinstance(o.type, T.PtrType) for o in operands):
            if len(e.ops) == 1 and e.ops[0] in ("==", "!=") and operands[0].type == operands[1].type:
                return TCompare(e.span, T.BOOL, operands, list(e.ops), [operands[0].type])
            if all(o.type != ERROR for o in operands):
                self.msg.error("E0202", e.span, op=e.ops[0], left=operands[0].type, right=operands[-1].type)
            return TConst(e.span, ERROR, None)
        if any(isinstance(o.type, T.SIMDType) for o in operands):
            if any(o.type == ERROR for o in operands):
                return TConst(e.span, ERROR, None)
            return self.chk.simd.simd_compare(e, operands)
        link_types: list[Type] = []
        for i, op in enumerate(e.ops):
            a, b = operands[i], operands[i + 1]
            if ERROR in (a.type, b.type):  # reported where it was made (or a pending `x = None`)
                return TConst(e.span, ERROR, None)
            if op not in CMP_OPS:
                self.msg.error("E0007", e.span, construct=f"the `{op}` operator")
                return TConst(e.span, ERROR, None)
            if a.type == b.type and a.type in (T.BOOL, T.STRING_LITERAL) and (
                    a.type == T.BOOL or op in ("==", "!=") or (isinstance(a, TConst) and isinstance(b, TConst))):
                if a.type == T.STRING_LITERAL and not (isinstance(a, TConst) and isinstance(b, TConst)):
                    self.msg.error("E0202", e.span, op=op, left=a.type, right=b.type)
                    return TConst(e.span, ERROR, None)
                link_types.append(a.type)
                continue
            t = self.arith_type(op, a, b, e.span)
            if t is None:
                return TConst(e.span, ERROR, None)
            link_types.append(t)
        if all(isinstance(o, TConst) for o in operands):
            result = True
            for i, op in enumerate(e.ops):
                result = result and fold.compare(op, operands[i].value, operands[i + 1].value)
            return TConst(e.span, T.BOOL, result)
        link_types = [default_type(t) for t in link_types]
        return TCompare(e.span, T.BOOL, operands, list(e.ops), link_types)


    def expr_BoolOp(self, e: ast.BoolOp) -> TExpr:
        values: list[TExpr] = []
        for i, v in enumerate(e.values):
            # `v is None or R`: R runs only where v is not None (narrowing.py); so for `and`.
            known = operand_guards(self.chk, e.values, i, e.op == "and")
            if e.op == "or" and i == 1 == len(e.values) - 1 and is_builtin(values[0].type, "Optional"):
                made = self.chk.empty_container(v, values[0].type.ct_env.get("T"))  # `find(x) or []`: the value's type
                if made is not None:
                    values.append(made)
                    continue
            with narrowed(self.chk, known, (v,)):
                # `isinstance(x, C) and x.attr`: x is a C there (semantics/inheritance.py)
                cast = inheritance.narrowed_operand(self.chk, e.values[:i], v) if e.op == "and" and i else None
                values.append(cast if cast is not None else self.expr(v))
        if any(v.type == ERROR for v in values):
            return TConst(e.span, ERROR, None)
        if e.op == "or":  # `d.get(k) or 0`: the value where there is a true one, else the default
            chosen = bool_values.optional_or(self, values, e.span)
            if chosen is not None:
                return chosen
        types = {v.type for v in values}
        if len(types) > 1:
            concrete = {t for t in types if not isinstance(t, LiteralType) and t != T.STRING_LITERAL}
            target = concrete.pop() if len(concrete) == 1 else None
            int_or_float = T.INT_LITERAL in types and (T.FLOAT_LITERAL in types or
                                                       (isinstance(target, ScalarType) and target.is_float))
            if target is None or int_or_float:
                notes = INT_OR_FLOAT if int_or_float else ()
                self.msg.error("E0208", e.span, notes, left=values[0].type, right=values[-1].type)
                return TConst(e.span, ERROR, None)
            values = [self.coerce(v, target) for v in values]
        t = values[0].type
        if not bool_values.tested_in_place(t):  # `prefix or "0"`, `xs or [0]`, `node or default`
            return bool_values.chosen_value(self, e.op, values, self.string_or(t), e.span)
        for v in values:
            self.truth(v, v.span)
        if isinstance(t, LiteralType):
            values = [self.value(v) for v in values]
            t = values[0].type
        return TBoolOp(e.span, t, e.op, values)

    def expr_IfExp(self, e: ast.IfExp) -> TExpr:
        test = self.condition(e.test)
        with narrowed(self.chk, not_none_when(self.chk, e.test, True), (e.body,)):
            body = self.expr(e.body)
        with narrowed(self.chk, not_none_when(self.chk, e.test, False), (e.orelse,)):
            orelse = self.expr(e.orelse)
        if ERROR in (body.type, orelse.type):
            from . import recursive_returns

            known = [x for x in (body, orelse) if not recursive_returns.unknown(x.type)]
            if len(known) == 1 and known[0].type != ERROR:
                # `n if n < 2 else fib(n - 1) + fib(n - 2)` while fib's result type is pending: the
                # other side's type seeds it (semantics/recursive_returns.py; checked again after)
                return self.value(self.coerce(known[0], self.string_or(known[0].type)))
            return TConst(e.span, ERROR, None)
        if isinstance(e.test, ast.BoolLit):  # `a if False else b`: the live side, whatever the other's type
            return body if e.test.value else orelse
        general = function_values.common_type(self.chk, [body, orelse], e.span)  # `f if c else g`
        if general is not None:
            body, orelse = self.coerce(body, general), self.coerce(orelse, general)
            if ERROR in (general, body.type, orelse.type):
                return TConst(e.span, ERROR, None)
        if body.type == T.NONE and orelse.type == T.NONE:  # `xs.append(x) if c else None`
            self.msg.error("E0007", e.span, construct="a conditional expression with no value on either side "
                                                        "(write an `if` statement)")
            return TConst(e.span, ERROR, None)
        if classes.is_class(body.type) and orelse.type == T.NONE:  # `node if c else None`: the reference, or None
            orelse = self.coerce(orelse, body.type)
        elif classes.is_class(orelse.type) and body.type == T.NONE:
            body = self.coerce(body, orelse.type)
        wider = self.optional_branches(body, orelse, e.span)  # `d if d < INF else None`, `out if out else None`
        if wider is not None:
            body, orelse = self.coerce(body, wider), self.coerce(orelse, wider)
        if self.chk.ownership.owning(body.type) or self.chk.ownership.owning(orelse.type):
            return self.owning_branches(test, body, orelse, e.span)
        t = self.unify(body, orelse, e.span)
        if t is None:
            return TConst(e.span, ERROR, None)
        return TIfExp(e.span, t, test, self.coerce(body, t), self.coerce(orelse, t))

    def owning_branches(self, test: TExpr, body: TExpr, orelse: TExpr, span: Span) -> TExpr:
        """`tokens[i] if i < n else ""` of a type with a destructor (a String, a List): the branch
        taken is stored into a variable of its own, whose value is the result (moved out), so
        exactly one branch's value is made and none is dropped twice."""
        t = self.string_or(default_type(body.type)) if is_string(orelse.type) or orelse.type == T.STRING_LITERAL \
            else default_type(body.type)
        if body.type == T.STRING_LITERAL:
            t = self.string_or(default_type(orelse.type))
        if default_type(orelse.type) != t and not (orelse.type == T.STRING_LITERAL and is_string(t)):
            self.msg.error("E0208", span, left=body.type, right=orelse.type)
            return TConst(span, ERROR, None)
        if default_type(body.type) != t and not (body.type == T.STRING_LITERAL and is_string(t)):
            self.msg.error("E0208", span, left=body.type, right=orelse.type)
            return TConst(span, ERROR, None)
        var = self.chk.new_var(f"$chosen{self.chk.next_id}", t, span)
        taken = [self.chk.store([var], [self.chk.ownership.consume(self.coerce(v, t), "assigned")], v.span)
                 for v in (body, orelse)]
        self.chk.ownership.need_drop(t, span)
        return TStmtExpr(span, t, [TIf(span, test, [taken[0]], [taken[1]])], TMove(span, t, var), (body, orelse))

    def optional_branches(self, body: TExpr, orelse: TExpr, span: Span) -> Type | None:
        """`d if d < INF else None`, `out if out else None`: a number (or Bool), a str, a list, ... on
        one side and None on the other is an Optional of the value's type, which prints as Python
        prints either (`5`, `None`). Not for an object (a reference may be None already) nor a tuple
        (which has no empty value for the Optional to keep)."""
        from .module import struct_instance
        from .optional_types import OPTIONAL_TYPE

        if (body.type == T.NONE) == (orelse.type == T.NONE):
            return None
        value = self.string_or(default_type(orelse.type if body.type == T.NONE else body.type))
        sym = self.chk.module.structs.get(OPTIONAL_TYPE)
        held = isinstance(value, ScalarType) or (isinstance(value, StructType) and not isinstance(value, T.TupleType)
                                                 and not classes.is_class(value) and not is_builtin(value, "Optional"))
        if not held or sym is None:
            return None
        found = struct_instance(sym, (value,), span, self.chk.module, self.msg.bag, self.chk.module.lookup_constant)
        return found if found != ERROR else None

    def unify(self, a: TExpr, b: TExpr, span: Span) -> Type | None:
        if a.type == b.type:
            return default_type(a.type)
        if number_items([a, b]) is not None:  # `n if c else 0`, n an `int | float` (semantics/numbers.py)
            return number_items([a, b])
        if mixed_numbers(self.chk, [a, b]) is not None:  # `n if c else 0.5`: an int or a float, as Python's
            return mixed_numbers(self.chk, [a, b])
        if isinstance(a.type, LiteralType) and self._accepts(b.type, a):
            return b.type
        if isinstance(b.type, LiteralType) and self._accepts(a.type, b):
            return a.type
        numbers = all(isinstance(t, LiteralType) or (isinstance(t, ScalarType) and t.is_numeric)
                      for t in (a.type, b.type))
        self.msg.error("E0208", span, INT_OR_FLOAT if numbers else (), left=a.type, right=b.type)
        return None

    def _accepts(self, target: Type, literal: TExpr) -> bool:
        """A literal that may take the other branch's type: an int literal an int type, a float
        literal a float type. Not an int literal a float type: Python keeps that value an int, and
        `print(1 if c else x)` prints `1` where pyx would print `1.0`."""
        if not (isinstance(literal.type, LiteralType) and isinstance(target, ScalarType) and target.is_numeric):
            return False
        return target.is_float if literal.type == T.FLOAT_LITERAL else literal.type == T.INT_LITERAL and target.is_int

    # ---- calls ----
    def expr_Call(self, e: ast.Call) -> TExpr:
        if any(isinstance(a, ast.Starred) for a in e.args):  # `f(*pair)` (semantics/star_arguments.py)
            from .star_arguments import spread

            return spread(self.chk, e)
        e = function_arguments.rewrite(self.chk, e)  # `map(sum, grid)`: the builtin as a lambda
        func = e.func
        if isinstance(func, ast.Name):
            return self._named_call(func, e)
        if isinstance(func, ast.Subscript):
            return self.chk.calls.parameterized_call(func, e)
        if isinstance(func, ast.Attribute) and func.attr == "format" and isinstance(func.value, ast.StrLit):
            return self.chk.strformat.str_format(e)  # `"{}".format(x)`: parsed when compiling
        if isinstance(func, ast.Attribute):
            self.chk.empties.method_call(func, e)  # `out.append(x)` of `out = []` says what it holds
            return self.chk.structs.attribute_call(func, e)
        callee = self.expr(func)
        if isinstance(callee.type, FunctionType):  # `make_adder(2)(3)`: a function value
            return self.chk.closures.call(callee, e)
        if function_values.is_fn_value(callee.type):  # `pick(flag)(3)`: any function (function_values.py)
            return self.chk.structs.call_value(callee, e)
        if callee.type != ERROR:
            self.msg.error("E0007", func.span, construct="calling anything but a function name")
        return TConst(e.span, ERROR, None)

    def _named_call(self, func: ast.Name, e: ast.Call) -> TExpr:
        """`name(...)`: a local value's, a type parameter's, then the first of Python's built-ins pyx
        rewrites, the module's declarations and the other built-ins that knows `name`."""
        name = func.id
        if name == "type":  # `type(x)` as a value (semantics/type_objects.py)
            from .type_objects import is_type_call, type_value

            made = type_value(self.chk, e) if is_type_call(self.chk, e) else None
            if made is not None:
                return made
        if function_values.is_primitive_call(e):  # the indirect call in `Callable.__call__`
            return function_values.call_primitive(self.chk, e)
        found = self._local_call(func, e)
        if found is None:
            found = self._python_call(name, e)
        if found is None:
            found = self._declared_call(func, e)
        if found is None:
            found = self._builtin_call(name, e)
        if found is None and (name in self.chk.module.exceptions or name in exceptions.PARENT):
            from .exception_values import made as exception_value

            found = exception_value(self.chk, e)  # `errors = [AppError("x")]` (semantics/exception_values.py)
        if found is not None:
            return found
        self.unknown_name(name, func.span)
        for a in e.args:
            self.expr(a)
        return TConst(e.span, ERROR, None)

    def _local_call(self, func: ast.Name, e: ast.Call) -> TExpr | None:
        """A call of a name bound in the function: a struct value with `__call__`, a type parameter
        `T()` or `T(x)`; None where no local binds the name."""
        name = func.id
        shadow = self.chk.scopes.lookup(name)
        if isinstance(shadow, LocalVar) and self.chk.structs.struct_of(shadow.type) is not None:
            return self.chk.structs.call_value(self.expr(func), e)  # a struct value with `__call__`
        bound = self.chk.ct_env.get(name) if isinstance(shadow, TConst) and isinstance(shadow.value, TypeParam) \
            else None
        if isinstance(bound, (ScalarType, StructType)):  # `T()` or `T(x)` in a generic: what T is, made
            if isinstance(bound, ScalarType):
                return self.chk.calls.conversion(bound.name, e)
            return self.chk.structs.struct_call(self.chk.structs.struct_of(bound), e, bound)
        if shadow is None:
            return None
        if isinstance(shadow, LocalVar) and shadow.type == ERROR:  # (reported where it was bound)
            args = [self.expr(a) for a in e.args]
            self.chk.empties.nested_call(name, args)  # a nested def not made for a pending capture
        elif isinstance(shadow, TConst) and isinstance(shadow.value, ParameterFn):
            return closure_loops.misused(self.chk, func, shadow.value)
        else:
            self.msg.error("E0109", func.span, name=name)
        return TConst(e.span, ERROR, None)

    def _python_call(self, name: str, e: ast.Call) -> TExpr | None:
        """Python's built-ins pyx rewrites: set(...), tuple(...), a `key=` or a generator given to
        sorted/min/max/sum/any..., reversed(range(n)), the stdlib's pow(x, y), zip(*rows)."""
        from .builtin_functions import is_builtin_function  # (the stdlib's format, repr, pow: their markers)

        module = self.chk.module
        if name == "set" and name not in module.functions and name not in module.structs:
            return sets.set_call(self.chk, e)  # Python's set(...) (semantics/sets.py)
        if name == "tuple" and name not in module.functions and name not in module.structs:
            from . import tuple_calls

            return tuple_calls.call(self.chk, e)  # Python's tuple(x) (semantics/tuple_calls.py)
        if e.args and isinstance(e.args[0], (ast.ListExpr, ast.TupleExpr, ast.DictExpr)):
            from .empty_arguments import NAMES, answer

            answered = answer(self.chk, name, e) if name in NAMES else None
            if answered is not None:  # `any([])`, `sum([])`, `len(())` (semantics/empty_arguments.py)
                return self.expr(answered)
        if name in KEYED and any(kw.name == "key" for kw in e.keywords) and self.chk.closures.builtin(name):
            return self.chk.closures.keyed(name, e)  # sorted(xs, key=f), min(xs, key=f), max(...)
        if is_builtin_function(module.functions.get(name), "format"):
            floated = float_sums.in_format(self.chk, e)  # `f"{sum(xs):.2f}"` (semantics/float_sums.py)
            if floated is not None:
                return self.expr(floated)
        if name in ("format", FORMAT_FIELD, NESTED_FORMAT) and NUMBER_TYPE in module.structs \
                and name in module.functions and is_stdlib_file(module.functions[name].span.file.name):
            # `f"{x:.2f}"`, `f"{x:{w}}"` of an `int | float`
            number = formatted(self.chk, e)
            if number is not None:
                return number
        if len(e.args) == 1 and not e.keywords and isinstance(e.args[0], ast.NoneLit) \
                and is_builtin_function(module.functions.get(name), "repr"):
            return self.chk.calls.conversion("str", e)  # `repr(None)`, `f"{None!r}"`: "None", as str(None)
        if name in ("repr", REPR_FIELD) and len(e.args) == 1 and isinstance(e.args[0], ast.Name) \
                and isinstance(self.chk.scopes.lookup(e.args[0].id), LocalVar) \
                and self.chk.scopes.lookup(e.args[0].id).type == T.EXCEPTION:
            # (Python's shows its arguments: where pyx keeps them, semantics/raising.py)
            return self.chk.exceptions.representation(self.chk.scopes.lookup(e.args[0].id), e.span)
        if name in CONSUMERS:  # sum(x for x in xs), any(...), max(xs), list(...)
            consumed = self.chk.comprehensions.builtin_call(name, e)
            if consumed is not None:
                return consumed
        if name == "reversed" and self._reversed_range(e):
            # `reversed(range(n))`: the range's ints from the last (an iterator, as Python's)
            found = self.chk.structs.method_call(self.expr(e.args[0]), "__reversed__", [], e.span)
            return found if found is not None else TConst(e.span, ERROR, None)
        if len(e.args) == 2 and not e.keywords and is_builtin_function(module.functions.get(name), "pow"):
            return self.expr(ast.Binary(e.span, "**", e.args[0], e.args[1]))  # Python's pow(x, y) is x ** y
        if name == ZIP_ROWS:  # `zip(*rows)` (semantics/zip_rows.py)
            from . import zip_rows

            return zip_rows.call(self.chk, e)
        return None

    def _declared_call(self, func: ast.Name, e: ast.Call) -> TExpr | None:
        """A call of what the module declares or imports: a function, a struct, a `math` function,
        a GPU or atomic operation; E0109 for a compile-time constant."""
        name, module = func.id, self.chk.module
        if name in module.functions:
            return self.chk.calls.user_call(*self.chk.tuples.callee(name, e))
        if name in module.structs:
            return self.chk.structs.struct_call(module.structs[name], e)
        if name in module.imported:
            return self.chk.mathlib.math_call(module.imported[name][1], e)
        if name in GPU_NAMES and name not in ("WARP_SIZE",):
            return self.chk.gpu.gpu_call(name, e)
        if name in ATOMICS:  # host atomics (semantics/c_functions.py)
            return atomic_call(self.chk, name, e)
        if name in module.comptimes:
            self.msg.error("E0109", func.span, name=name)
            return TConst(e.span, ERROR, None)
        return None

    def _builtin_call(self, name: str, e: ast.Call) -> TExpr | None:
        """Conversions, abs/min/max, hash, isinstance, range(...) as a value, len; E0007 for a
        `print(...)` or `range(...)` pyx does not take as a value."""
        if name in T.TYPE_NAMES or name in ("int", "float", "bool"):
            return self.chk.calls.conversion(name, e)
        if name in ("abs", "min", "max"):
            return self.chk.calls.math_builtin(name, e)
        if name == "normalize_index":
            return self.chk.calls.normalize_index(e)
        if name == "hash":
            return self.chk.calls.hash_call(e)
        if name == "isinstance":
            return inheritance.isinstance_call(self.chk, e)  # (semantics/inheritance.py)
        if name == "issubclass":
            return inheritance.issubclass_call(self.chk, e)
        if name == SEQUENCE_TEST:  # a `match` statement's sequence pattern (semantics/match_patterns.py)
            return sequence_test(self.chk, e)
        if name == inheritance.CAST and inheritance.generated(self.chk):
            return inheritance.cast_call(self.chk, e)
        if name == "print":
            self.msg.error("E0007", e.span, construct="`print(...)` inside an expression")
            return TConst(e.span, ERROR, None)
        if name in ("range", "prange"):
            return self._range_value(name, e)
        if name == "len":
            return self._len_call(e)
        return None

    def _range_value(self, name: str, e: ast.Call) -> TExpr:
        from .module import RANGE_VALUE

        if name == "range" and RANGE_VALUE in self.chk.module.structs and not e.keywords and 1 <= len(e.args) <= 3:
            # `r = range(2, 10)`: the stdlib's Range (stdlib/ranges.px), bounds as Python fills them in
            span = e.span
            bounds = (ast.IntLit(span, 0), e.args[0], ast.IntLit(span, 1)) if len(e.args) == 1 \
                else (*e.args, ast.IntLit(span, 1)) if len(e.args) == 2 else e.args
            return self.chk.structs.struct_call(self.chk.module.structs[RANGE_VALUE],
                                                ast.Call(span, e.func, bounds, ()))
        self.msg.error("E0007", e.span, construct=f"`{name}` outside a `for` loop")
        return TConst(e.span, ERROR, None)

    def _len_call(self, e: ast.Call) -> TExpr:
        args = [self.expr(a) for a in e.args]
        if len(args) == 1 and self.chk.structs.struct_of(args[0].type) is not None:
            result = self.chk.structs.method_call(args[0], "__len__", [], e.span)
            if result is not None:
                return result
        if len(args) == 1 and args[0].type == ERROR:
            return args[0]
        if len(args) == 1 and isinstance(args[0], TConst) and args[0].type == T.STRING_LITERAL:
            return TConst(e.span, T.INT, len(args[0].value))  # code points, as Python counts
        if len(args) == 1 and isinstance(args[0].type, T.SIMDType):
            return TConst(e.span, T.INT, args[0].type.width)  # its lanes (of `*xs`: how many were passed)
        self.msg.error("E0007", e.span, construct="`len` of anything but a struct with `__len__` or a SIMD")
        return TConst(e.span, ERROR, None)


    # ---- structs ----


    # ---- conversions ----
    def coerce(self, e: TExpr, target: Type | None) -> TExpr:
        """Implicit conversion: only an untyped constant changes type, and only where it fits."""
        if target is None or e.type == target or ERROR in (e.type, target):
            return e
        converted = function_values.coerce(self.chk, e, target)  # a function where `Callable[...]` is wanted
        if converted is not None:
            return converted
        if e.type == T.EXCEPTION:  # a caught exception kept as a value (semantics/exception_values.py)
            from .exception_values import from_caught

            kept = from_caught(self.chk, e, target)
            if kept is not None:
                return kept
        if e.type == T.NONE and classes.is_class(target):  # `None` where an object is wanted
            return classes.none_value(self.chk, target, e.span)
        up = inheritance.upcast(self.chk, e, target)  # an object where its base class is wanted
        if up is not None:
            return up
        if is_builtin(target, "Number"):  # an int or a float where Python's `int | float` is wanted
            number = as_number(self.chk, e, target)
            if number is not None:
                return number
        if e.type == T.STRING_LITERAL and is_string(target):  # Python's str: a String of its text
            methods = self.chk.structs.struct_of(target).methods
            if isinstance(e, TConst) and "_literal" in methods:  # a constant's bytes are shared, not copied
                return self.chk.calls.finish_call(methods["_literal"], [e], e.span, e.span, target)
            return self.chk.calls.finish_call(methods["__init__"], [e], e.span, e.span, target)
        if is_builtin(target, "PythonObject") and (isinstance(e.type, (ScalarType, LiteralType))
                                                         or is_string(e.type) or e.type == T.STRING_LITERAL):
            # a pyx value where Python's is wanted (an argument of a call, an index, an operand)
            return self.chk.calls.finish_call(self.chk.structs.struct_of(target).methods["__init__"], [self.value(e)],
                                              e.span, e.span,
                                    target)
        if isinstance(e.type, LiteralType) and isinstance(e, TConst):
            if isinstance(target, LiteralType):
                return TConst(e.span, target, float(e.value) if target.kind == "float" else e.value)
            if isinstance(target, T.SIMDType) and target.elem.is_numeric:
                return self.chk.simd.broadcast(e, target)
            if isinstance(target, ScalarType) and target.is_numeric:
                if e.type.kind == "int" and target.is_int:
                    if not target.min <= e.value <= target.max:
                        if target == T.INT and python_float.python_code(self.chk):  # `print(2 ** 70)`
                            self.msg.error("E0300", e.span, value=e.value, approx=_float_text(e.value))
                        else:
                            self.msg.error("E0206", e.span, value=e.value, type=target)
                        return TConst(e.span, ERROR, None)
                    return TConst(e.span, target, e.value)
                if target.is_float:
                    return TConst(e.span, target, fold.round_float(float(e.value), target))
        if isinstance(e.type, LiteralType) and not isinstance(e, TConst) and isinstance(target, ScalarType):
            # An untyped expression that could not fold (`1 // 0`) already has its default type.
            pass
        if isinstance(target, T.TupleType):  # `(1, 2)` where a tuple of floats is wanted: built again
            rebuilt = self.chk.tuples.coerce(e, target)
            if rebuilt is not None:
                return rebuilt
        wrapped = coerce_to_optional(self, e, target)  # `None` or a T where `T | None` is wanted
        if wrapped is not None:
            return wrapped
        if is_builtin(e.type, "Number") and isinstance(target, ScalarType) and target.is_numeric:
            fix = "float(...)" if target.is_float else "int(...)"  # (`int | float` where one is wanted: numbers.py)
            self.msg.error("E0304", e.span, expected=target, fix=fix)
            return TConst(e.span, ERROR, None)
        notes: tuple[Note, ...] = ()
        if isinstance(e.type, ScalarType) and e.type.is_int and target == T.FLOAT64 \
                and python_float.python_code(self.chk):  # `p(n)` of `def p(x: float)`: Python keeps the int
            notes = (Note("Python keeps an int where `float` is annotated (`p(3)` of `def p(x: float)` gets 3, "
                          "printed `3`): write `float(...)` where a float is meant, or annotate `int | float` "
                          "to keep either"), *python_float.int_parameters_note(self.chk))
        elif (python_float.is_float(e.type) or e.type == T.FLOAT_LITERAL) and target == T.INT \
                and python_float.python_code(self.chk):  # `x -= 0.5` in `def f(x: float)`'s copy for an int
            notes = python_float.int_parameters_note(self.chk)
        if held_for_scalars(e.type, target):  # `mean([1, 2.5])` of a `def mean(xs: list[float])`
            notes = (Note(HELD_NUMBERS),)
        self.msg.error("E0201", e.span, notes, expected=target, found=e.type)
        return TConst(e.span, ERROR, None)

    def promote(self, e: TExpr, target: Type) -> TExpr:
        """Bring an operand to its operator's type: constants adapt, ints and Bools widen to floats."""
        if e.type == target or isinstance(e.type, LiteralType) or not isinstance(target, ScalarType):
            return self.coerce(e, target)
        return self.chk.calls.convert(e, target, e.span)

    def coerce_or_convert(self, e: TExpr, target: ScalarType) -> TExpr:
        """Python's numeric promotion inside one operator: int operands become float."""
        if isinstance(e.type, LiteralType):
            return self.coerce(e, target)
        return self.chk.calls.convert(e, target, e.span)

    def condition(self, e: ast.Expr) -> TExpr:
        if isinstance(e, ast.BoolOp):
            # Only truth matters here, so operands need no common type (`if 3.5 and n:` is fine,
            # where the value of `3.5 and n` would be an int or a float: E0208).
            values = []
            for i, v in enumerate(e.values):
                known = operand_guards(self.chk, e.values, i, e.op == "and")
                with narrowed(self.chk, known, (v,)):  # `if best is None or x > best:` (narrowing.py)
                    # `isinstance(x, C) and x.attr`: x is a C there (semantics/inheritance.py)
                    cast = inheritance.narrowed_operand(self.chk, e.values[:i], v) \
                        if e.op == "and" and i and not isinstance(v, ast.BoolOp) else None
                    values.append(self.truth(cast, v.span) if cast is not None else self.condition(v))
            if any(v.type == ERROR for v in values):
                return TConst(e.span, ERROR, None)
            return TBoolOp(e.span, T.BOOL, e.op, values)
        return self.truth(self.expr(e), e.span)

    def truth(self, v: TExpr, span: Span) -> TExpr:
        """Python truthiness as a Bool: nonzero numbers, non-empty strings."""
        if v.type in (T.BOOL, ERROR):
            return v
        if isinstance(v.type, T.PtrType):
            return TBuiltin(span, T.BOOL, "truth", [v])
        if isinstance(v.type, StructType):
            tested = python_truth(self, v, span)  # `if opt:` in a `def`: None or a false value (optional_types.py)
            if tested is not None:
                return tested
            if ambiguous_truth(self, v, span):  # `if opt:`, an Optional[Int] in a `fn`
                return TConst(span, ERROR, None)
            if classes.is_class(v.type):  # None, else `__bool__`, else `__len__`, else true
                return classes.object_truth(self.chk, v, span)
            result = self.chk.structs.method_call(v, "__bool__", [], span)
            if result is None:
                result = self.chk.structs.method_call(v, "__len__", [], span)
            if result is not None:
                return self.truth(result, span)
        if isinstance(v, TConst) and v.type in (T.INT_LITERAL, T.FLOAT_LITERAL, T.STRING_LITERAL, T.NONE):
            return TConst(span, T.BOOL, bool(v.value))
        if isinstance(v.type, ScalarType):
            if isinstance(v, TConst):
                return TConst(span, T.BOOL, bool(v.value))
            return TBuiltin(span, T.BOOL, "truth", [v])
        self.msg.error("E0218", span, type=v.type)
        return TConst(span, ERROR, None)


def _element_type(values: list[TExpr]) -> Type:
    """The one type of a literal's elements: the first typed one's, else Int (Float64 if any
    constant is a float)."""
    typed = [x.type for x in values if not isinstance(x.type, LiteralType)]
    if typed:
        return typed[0]
    if any(x.type == T.FLOAT_LITERAL for x in values):
        return T.FLOAT64
    return default_type(values[0].type)


def _float_text(value: int) -> str:
    """The float nearest an int too big for an Int, as Python writes it (E0300's suggestion)."""
    try:
        return repr(float(value))
    except OverflowError:  # beyond every float
        return "float('inf')"
