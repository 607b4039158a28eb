"""Python's `int | float`: a value that is an int or a float as the run decides (stdlib/number.px's
`Number`, which owns its layout, its text and its arithmetic).

Python mixes them where a class's `area` is an int for a rectangle of ints and a float for a
circle, or a function returns `0` on one path and `total / n` on another. pyx gives a value one
type, so such a value is a `Number`:

- an annotation `int | float` (or `float | int`, `Union[int, float]`) names it, and so does an
  unannotated `__init__` parameter one call passes an int and another a float (syntax/init_params.py);
- a `def` without a result annotation (a method's dispatcher among them: syntax/inheritance.py)
  whose `return`s give an Int on one path and a Float64 on another returns one (`widen`): the first
  such `return` records it as the function's result (`FunctionInstance.empty_hints`, as
  semantics/optional_returns.py does for None) and the function is checked again;
- an attribute the checker types (semantics/attribute_types.py) given an int and a float
  (`widen_attribute`), and a local variable first an int and then given a Number (`widen_variable`),
  become one, for the next check;
- a display or conditional that mixes ints and floats (`[1, 2.5]`, `n if c else 0.5`, `max(x, 0)`),
  in a `def`, where the module binds Number (`mixed_numbers`; `mixes_numbers` binds it for int and
  float constants side by side), and a `def`'s `float` parameter given an int that the body assigns
  (semantics/python_float.py `passed_for_float`);
- an Int, a Bool or a Float64 (or a constant) converts to one where one is wanted (`coerce`); a
  Number where an Int or a Float64 is wanted is E0304 (`int(x)` or `float(x)` says which);
- in an operator beside a Float64 it is read as a float (Python's result is a float whatever it
  holds); beside an Int or another Number both are Numbers, and number.px's methods compute.

The module binds stdlib/number.px under a name no source spells (`NUMBER_TYPE`) when its code may
need it (semantics/module.py, `_UsesWalk`: a `|` of `int` or `float`, a method some subclass
overrides, a `def` with two `return`s of a value, an `__init__` with an unannotated parameter, an int
constant beside a float one in a display or conditional).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import types as T
from ..source import Span
from ..syntax import ast
from ..types import ERROR, LiteralType, StructType, Type
from .builtin_types import is_builtin
from .typed import TConst, TExpr

if TYPE_CHECKING:
    from .check import FunctionChecker

NUMBER_TYPE = "Number type"  # stdlib/number.px's Number, as a module binds it


def is_number(t: Type | None) -> bool:
    return t is not None and is_builtin(t, "Number")


def number_type(chk: FunctionChecker) -> StructType | None:
    """The Number type where the module binds it; None where it does not."""
    sym = chk.module.structs.get(NUMBER_TYPE)
    return sym.type if sym is not None else None


def _kind(t: Type) -> str | None:
    """"int" or "float" for a value a Number holds (a Bool is an int, as in Python); else None (Mojo's
    other widths, `UInt8`, `Float32`, ..., are no Python number)."""
    if t in (T.INT, T.BOOL, T.INT_LITERAL):
        return "int"
    if t in (T.FLOAT64, T.FLOAT_LITERAL):
        return "float"
    return None


def holds(target: Type, t: Type) -> bool:
    """Whether target is a Number and a value of type t converts to it (an int, a Bool, a float)."""
    return is_number(target) and (_kind(t) is not None or is_number(t))


def common(values: list[TExpr]) -> Type | None:
    """The Number type where some of values are Numbers and the others ints, Bools or floats (the
    items of `[n, 1, 0.5]`, the arguments of `max(n, 0)`); None otherwise."""
    number = next((v.type for v in values if is_number(v.type)), None)
    if number is None or not all(holds(number, v.type) for v in values):
        return None
    return number


def holds_numbers(container: Type, param: str) -> bool:
    """Whether a container type's item (`param`: "T" of a List, "V" of a Dict) is a Number."""
    item = getattr(container, "ct_env", {}).get(param)
    return isinstance(item, Type) and is_number(item)


def mixes_numbers(values) -> bool:
    """`[1, 2.5]`, `1 if c else 0.5`: an int constant beside a float constant, read off the syntax
    (semantics/module.py binds Number for it, and `mixed_numbers` makes the value one). Not `[n, 2.5]`:
    n may be a float, and binding Number costs every compile of the module about 0.4 s (the values of
    a module that binds it for another reason are Numbers all the same)."""
    def constant(v: ast.Expr, kind: type) -> bool:
        return isinstance(v, kind) or (isinstance(v, ast.Unary) and isinstance(v.operand, kind))

    return any(constant(v, ast.FloatLit) for v in values) and any(constant(v, ast.IntLit) for v in values)


def mixed_numbers(chk: FunctionChecker, values: list[TExpr]) -> Type | None:
    """The Number type where Python code mixes ints and floats in one value (the items of `[1, 2.5]`,
    the sides of `n if c else 0.5`, the arguments of `max(x, 0)`), which CPython keeps as each is (`[1,
    2.5]`, not `[1.0, 2.5]`); None where the values are not all ints and floats of both kinds (a Bool
    stays a Bool), in an `fn`, or where the module binds no Number (semantics/module.py `_UsesWalk`:
    E0208, E0288 then)."""
    from .python_float import python_code

    kinds = {None if v.type == T.BOOL else _kind(v.type) for v in values}
    if kinds != {"int", "float"} or not python_code(chk):
        return None
    return number_type(chk)


def held_for_scalars(found: Type, target: Type, ints: bool = False) -> bool:
    """Whether found is target but for Numbers where target holds Float64s or Ints (a `List[Number]`,
    made of `[1, 2.5]`, where a `list[float]` is wanted: E0201's note says why and what to write); with
    `ints`, Ints where it holds Float64s too (`[2, 4]` for a `def`'s `list[float]`: python_float.py)."""
    if not (isinstance(found, StructType) and isinstance(target, StructType)) \
            or found.declaration() is not target.declaration() or found.ct_env.keys() != target.ct_env.keys():
        return False

    def kept(a: object, b: object) -> bool:
        number = isinstance(a, Type) and is_number(a)
        return (number and b in (T.FLOAT64, T.INT)) or (ints and a == T.INT and b == T.FLOAT64)

    pairs = [(found.ct_env[k], target.ct_env[k]) for k in found.ct_env]
    return any(kept(a, b) for a, b in pairs) and all(a == b or kept(a, b) for a, b in pairs)


HELD_NUMBERS = ("Python keeps each int beside a float as an int (`[1, 2.5]` prints `[1, 2.5]`), so these "
                "values are `int | float`: write the ints as floats (`1.0`, `float(n)`) where floats are meant, "
                "or annotate `int | float` in the wanted type")


def coerce(chk: FunctionChecker, e: TExpr, target: Type) -> TExpr | None:
    """e (an int, a Bool or a float) as a Number, where target is one; None otherwise."""
    kind = _kind(e.type) if is_number(target) else None
    if kind is None or not isinstance(target, StructType):
        return None
    plain = T.INT if kind == "int" else T.FLOAT64
    value = chk.exprs.coerce(e, plain) if isinstance(e.type, LiteralType) else chk.calls.convert(e, plain, e.span)
    if value.type == ERROR:
        return value
    sym = chk.structs.struct_of(target)
    return chk.calls.finish_call(sym.methods["of_int" if kind == "int" else "of_float"], [value], e.span, e.span,
                                 target)


def as_float(chk: FunctionChecker, e: TExpr) -> TExpr:
    """A Number read as Python's `float(x)`."""
    found = chk.structs.method_call(e, "__float__", [], e.span)
    return found if found is not None else TConst(e.span, ERROR, None)


def binary(chk: FunctionChecker, op: str, left: TExpr, right: TExpr, span: Span) -> TExpr | None:
    """`a op b` where a or b is a Number; None where neither is (or the other is no number: the
    caller reports). Beside a float the Number is a float (so is Python's result); else both are
    Numbers and number.px computes."""
    if not (is_number(left.type) or is_number(right.type)):
        return None
    other = right if is_number(left.type) else left
    kind = _kind(other.type)
    if kind is None and not is_number(other.type):
        return None
    if op in ("&", "|", "^", "<<", ">>", "@"):
        return None  # (a float has none of these: E0202)
    if kind == "float":
        left = as_float(chk, left) if is_number(left.type) else left
        right = as_float(chk, right) if is_number(right.type) else right
        return chk.exprs.binary(op, left, right, span)
    number = left.type if is_number(left.type) else right.type
    left, right = chk.exprs.coerce(left, number), chk.exprs.coerce(right, number)
    if ERROR in (left.type, right.type):
        return TConst(span, ERROR, None)
    from .expressions import BINARY_METHODS

    return chk.structs.method_call(left, BINARY_METHODS[op], [right], span)


def compared(chk: FunctionChecker, left: TExpr, right: TExpr) -> TExpr:
    """The left operand of a comparison with a Number on the right: `3 < n` compares as Numbers."""
    if is_number(right.type) and not is_number(left.type) and _kind(left.type) is not None:
        return chk.exprs.coerce(left, right.type)
    return left


def widen(chk: FunctionChecker, expected: Type, value: TExpr) -> None:
    """A `return` of an inferred result that gives an int where an earlier one gave a float (or the
    reverse, or a Number where one gave either): record Number as the result and check the function
    again (raises Retry); else nothing."""
    from .empty_literals import MAX_RETRIES, Retry

    if not chk.infer_return or chk.fn.retries >= MAX_RETRIES or id(chk.fn.decl) in chk.fn.empty_hints \
            or T.BOOL in (expected, value.type):
        return
    kinds = {_kind(expected), _kind(value.type)}
    if kinds != {"int", "float"} and not (is_number(value.type) and _kind(expected) is not None):
        return
    wider = number_type(chk)
    if wider is None:
        return
    chk.fn.empty_hints[id(chk.fn.decl)] = wider
    raise Retry()


def formatted(chk: FunctionChecker, e: ast.Call) -> TExpr | None:
    """`format(x, "spec")` (what `f"{x:spec}"` calls, and `f"{x:{w}}"` with a spec made at run time) of
    a Number: its `__format__`, which formats the int or the float it holds. A constant spec is checked
    when compiling: E0172 where neither an int nor a float takes it (one that only one of them takes
    raises CPython's ValueError for the other, at run time). None where x is no Number."""
    from .format_spec import spec_problem
    from .imports import is_string
    from .strformat import Checked

    if len(e.args) != 2 or e.keywords or isinstance(e.args[0], Checked):
        return None
    value = chk.exprs.expr(e.args[0])
    if not is_number(value.type):
        return chk.exprs.expr(ast.Call(e.span, e.func, (Checked(value.span, value), e.args[1]), ()))
    if isinstance(e.args[1], ast.StrLit):
        spec = e.args[1].value
        problems = [spec_problem(t, spec, is_string) for t in (T.INT, T.FLOAT64)]
        if None not in problems:
            chk.msg.error("E0172", e.args[1].span, spec=spec, problem=problems[1])
            return TConst(e.span, ERROR, None)
    text = chk.exprs.coerce(chk.exprs.expr(e.args[1]), chk.exprs.string_type())  # (`f"{x:{w}}"`: made at run time)
    found = chk.structs.method_call(value, "__format__", [text], e.span)
    return found if found is not None else TConst(e.span, ERROR, None)


def widen_attribute(chk: FunctionChecker, owner: Type, attr: str, found: Type, expected: Type) -> bool:
    """`self.r = v` where v is an int and an earlier store (`self.r = r` of an `__init__` whose unannotated
    `r` an earlier call passed a float) typed the attribute a float, or the reverse, or v is a Number; the
    attribute typed by the checker (semantics/attribute_types.py): it becomes a Number, for the program's
    next check; True if so (the store is dropped from this check, which the next replaces)."""
    from ..syntax.pending_attributes import is_pending_annotation
    from .attribute_types import AttributeTypes
    from .classes import data_type

    state, number = chk.module.attribute_types, number_type(chk)
    if not isinstance(state, AttributeTypes) or number is None or T.BOOL in (found, expected) \
            or ({_kind(found), _kind(expected)} != {"int", "float"} and not (is_number(found) and _kind(expected))):
        return False
    data = data_type(chk, owner)
    decl = getattr(getattr(data, "symbol", None), "decl", None)
    annotation = next((f.annotation for f in getattr(decl, "fields", ()) if f.name == attr), None)
    if not is_pending_annotation(annotation):
        return False
    assert isinstance(annotation, ast.Name)
    state.new[annotation.id] = number
    return True


def math_arguments(chk: FunctionChecker, name: str, args: list[TExpr]) -> list[TExpr] | TExpr:
    """The arguments of `math.NAME(...)` with each Number read as Python's math reads it, a float;
    or, for `math.floor(x)` (ceil, trunc) of one, the call itself: an int, the int it holds kept
    exactly (stdlib/number.px)."""
    from .mathlib import TO_INT

    if name in TO_INT and len(args) == 1:
        found = chk.structs.method_call(args[0], f"_{name}", [], args[0].span)
        return found if found is not None else TConst(args[0].span, ERROR, None)
    return [as_float(chk, a) if is_number(a.type) else a for a in args]


def _variable_key(name: str, span: Span) -> tuple:
    return ("int | float variable", name, span.file.name, span.start)


def variable_type(chk: FunctionChecker, name: str, span: Span, t: Type) -> Type:
    """The type of a new local variable first bound at span: a Number where a later value made it one
    (`total = 0`, then `total += s.area()` of an `int | float`), else t."""
    return chk.fn.empty_hints.get(_variable_key(name, span), t) if chk.fn.empty_hints else t


def widen_variable(chk: FunctionChecker, var, value: TExpr) -> None:
    """A local variable first bound to an int or a float, now given a Number (Python's variable
    holds whatever it is given): record Number as its type and check the function again (raises
    Retry); else nothing."""
    from .empty_literals import MAX_RETRIES, Retry

    key = _variable_key(var.name, var.span)
    if not is_number(value.type) or _kind(var.type) is None or var.type == T.BOOL or var.is_param \
            or var.global_symbol is not None or key in chk.fn.empty_hints or chk.fn.retries >= MAX_RETRIES:
        return
    chk.fn.empty_hints[key] = value.type
    raise Retry()


def percent_values(chk: FunctionChecker, values: list[TExpr], kinds: list[str]) -> list[TExpr]:
    """The values of `fmt % (...)` with each Number read as its field (`kinds`, strformat.py
    `conversions`) reads it: `%d` (`%i`, `%u`) as `int(x)`, `%f` (`%e`, `%g`, ...) as `float(x)`, `%s`
    and `%r` as it is. `%x`, `%o` and `%c`, which take an int only, are E0304 (a float would raise
    CPython's TypeError)."""
    out = []
    for value, kind in zip(values, kinds + [""] * (len(values) - len(kinds)), strict=False):
        if is_number(value.type) and kind and kind in "diu":
            found = chk.structs.method_call(value, "__int__", [], value.span)
            value = found if found is not None else TConst(value.span, ERROR, None)
        elif is_number(value.type) and kind and kind in "eEfFgG":
            value = as_float(chk, value)
        elif is_number(value.type) and kind and kind in "xXoc":
            chk.msg.error("E0304", value.span, expected=T.INT, fix="int(...)")
            value = TConst(value.span, ERROR, None)
        out.append(value)
    return out
