"""Python's `float` annotation converts nothing: after `x: float = 0`, CPython's `x` is the int 0 (it
prints `0`, and `x + 1` is the int 1), where pyx's Float64 would print `0.0`. So an int constant bound
where Python keeps it an int in a float's place is refused (E0288) with the fix, `0.0`:

- a `return` in a function returning `float` (an argument or a default for a parameter annotated
  `float` keeps its int: the `def` gets an instance for it, `passed_for_float`);
- the value of a variable annotated `float`, or of one whose type came from a float value (`x = 1.5`
  then `x = 2`), on its declaration or any later assignment.

Mojo's spellings convert the constant, as in Mojo (`var x: Float64 = 0`, a parameter `x: Float64`), and
so does all code in an `fn` (no Python program has one: Mojo's rules hold there). Arithmetic is not
binding: `x + 1` of a float `x` is a float in CPython too.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, TypeGuard

from .. import types as T
from ..diagnostics import Note
from ..syntax import ast
from .typed import FunctionInstance, TConst, TExpr

if TYPE_CHECKING:
    from .check import FunctionChecker


def spelled_float(annotation: ast.Node | None) -> bool:
    """Whether an annotation is Python's `float` (not Mojo's `Float64`)."""
    return isinstance(annotation, ast.Name) and annotation.id == "float"


def is_float(t: T.Type) -> bool:
    return isinstance(t, T.ScalarType) and t.is_float


def passed_for_float(chk: FunctionChecker, decl: ast.FnDef, param: ast.Param, declared: T.Type,
                     passed: T.Type) -> T.Type:
    """The type a `def`'s parameter annotated `float` is instantiated with: Python keeps an int (or an
    `int | float`, semantics/numbers.py) passed there as it is (PEP 484's numeric tower: `p(3)` of
    `def p(x: float): return x * 2` gets 3 and returns the int 6), so that `def` gets an instance of its
    own for it, its body checked with the int, as an unannotated parameter's would be; a Number where
    the body assigns the parameter (`x -= step` may make it a float) and the module has Numbers (else
    the int, and a float assigned is E0201 with `int_parameters_note`). A list (dict, set) of them
    (`[1, 2.5]`, numbers.py `mixed_numbers`) where one of floats or ints is annotated: the instance takes
    it as it is. A Bool, a Float32, ...: the declared Float64 (the call converts, or reports)."""
    from .element_loops import rebinds
    from .numbers import held_for_scalars, is_number, number_type

    if decl.kind != "def" or not python_code(chk):  # (an `fn`'s call converts a constant, as Mojo's)
        return declared
    if held_for_scalars(passed, declared, ints=True):
        return passed  # `mean([1, 2.5])` of `def mean(xs: list[float])`: the list of `int | float` it is
    if declared != T.FLOAT64 or not spelled_float(param.annotation):
        return declared
    if passed in (T.INT, T.INT_LITERAL):
        number = number_type(chk) if rebinds(decl.body, param.name) else None
        return number if number is not None else T.INT
    return passed if is_number(passed) else declared


def int_parameters_note(chk: FunctionChecker) -> tuple[Note, ...]:
    """Where the function being checked is a `def`'s instance for an int passed to a parameter
    annotated `float` (`passed_for_float`): a note naming it, at the call that first needed it."""
    decl = chk.fn.decl
    names = [p.name for p, t in zip(decl.params, chk.fn.param_types, strict=False)
             if decl.kind == "def" and _kept_in(p.annotation, t)]
    if not names:
        return ()
    listed = ", ".join(f"`{n}`" for n in names)
    called = chk.fn.called_at[0] if chk.fn.called_at is not None else None
    return (Note(f"`{decl.name}` is checked here for the ints a call passes in {listed}, where `float` is "
                 "annotated (Python keeps them as they are): pass floats (`1.0`, `float(n)`), or annotate "
                 "`int | float`", called),)


def _kept_in(annotation: ast.Node | None, t: object) -> bool:
    """Whether t holds an int or a Number where the annotation spells `float` (`x: float` given 3,
    `xs: list[float]` given `[2, 4]`: `passed_for_float`), walking the annotation's items beside the
    type's compile-time arguments."""
    if spelled_float(annotation):
        return t != T.FLOAT64
    if isinstance(annotation, ast.Subscript) and isinstance(t, T.StructType):
        args = list(t.ct_env.values())
        return len(args) == len(annotation.items) \
            and any(_kept_in(a, x) for a, x in zip(annotation.items, args, strict=True))
    return False


def keeps_int(instance: FunctionInstance) -> bool:
    """Whether an instance of a `def` got an int or a Number for a parameter annotated `float`
    (`passed_for_float`; or in a `list[float]`, ...): its `-> float` (`-> list[float]`, ...) result is
    then what the body returns, inferred, as Python's (`return x * 2` of the int 3 is the int 6)."""
    return _mentions_float(instance.decl.returns) and kept_parameters(instance)


def _mentions_float(annotation: ast.Node | None) -> bool:
    """Whether an annotation spells `float` (`float`, `list[float]`, `tuple[float, str]`)."""
    if spelled_float(annotation):
        return True
    return isinstance(annotation, ast.Subscript) and any(_mentions_float(a) for a in annotation.items)


def kept_parameters(instance: FunctionInstance) -> bool:
    """Whether an instance of a `def` got an int or a Number where a parameter's annotation spells
    `float` (`passed_for_float`)."""
    decl = instance.decl
    return decl.kind == "def" and any(
        _kept_in(p.annotation, t) for p, t in zip(decl.params, instance.param_types, strict=False))


def refuse_int_constant(chk: FunctionChecker, value: TExpr | None, target: T.Type | None, python: bool,
                        where: str) -> None:
    """E0288 when `value` is an int constant bound to a float in Python's sense; `where` says where
    ("as the argument `x` of `f`")."""
    if python and python_code(chk) and target is not None and is_float(target) and is_int_constant(value):
        chk.msg.error("E0288", value.span, value=value.value, where=where)


ANNOTATION = " (a `float` annotation converts nothing)"
INFERRED = " (its type came from a float value, which converts nothing)"


def python_code(chk: FunctionChecker) -> bool:
    """Whether the function being checked follows Python's rules: a `def` (or a module's script),
    not an `fn`."""
    return chk.fn.decl.kind == "def"


def is_int_constant(value: TExpr | None) -> TypeGuard[TConst]:
    return isinstance(value, TConst) and value.type == T.INT_LITERAL and isinstance(value.value, int)


def refuse_mixed_extreme(chk: FunctionChecker, name: str, args: list[TExpr], result: T.Type) -> bool:
    """`max(x, 0)` of a float x: CPython returns the winner as it is (the int 0, printed `0`), where
    pyx's one result type would make it `0.0`. E0288 at the int constant; True if reported."""
    if not (is_float(result) or result == T.FLOAT_LITERAL) or not python_code(chk):
        return False
    found = False
    for a in args:
        if is_int_constant(a):
            chk.msg.error("E0288", a.span, value=a.value,
                          where=f"as an argument of `{name}`, which returns the winner as it is")
            found = True
    return found


def refuse_mixed_items(chk: FunctionChecker, items: list[TExpr], elem: T.Type, where: str) -> bool:
    """`[1, 2.5]`: CPython's list keeps the int 1 (printed `[1, 2.5]`), where a List[Float64] holds
    1.0. E0288 at each int constant among float items; True if reported."""
    if not (is_float(elem) or elem == T.FLOAT_LITERAL) or not any(not is_int_constant(x) for x in items) \
            or not python_code(chk):
        return False
    found = False
    for x in items:
        if is_int_constant(x):
            chk.msg.error("E0288", x.span, value=x.value, where=where)
            found = True
    return found
