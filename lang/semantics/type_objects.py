"""`type(x)` as a value: printed (`<class '__main__.C'>`, `<class 'int'>`), turned into a str, and
compared: `type(x) is C`, `type(x) == C`, `type(x) is not int`, `type(x) == type(y)`.

Python's `type(x)` is the class object itself. pyx keeps what a program can do with it here: a
value of the generated struct `__pyx_TypeObject` (syntax/type_names.py) holding the text Python
prints for the class, `<class 'M.C'>` (M `__main__` when the class's module runs as the program,
its name when imported), which `==`/`!=` compare. Anything else done with it (calling it, reading
another attribute, passing it on where a class is expected) is a compile error, never another
result. The object's own class is read at run time as `type(x).__name__` is (a method each class
overrides, syntax/type_names.py), so a subclass object seen through its base shows its own class.

`type(x) is C` (and `==`, `is not`, `!=`) with C a class or a builtin type name compares the names
of the classes: for an object, True only where C is the object's own class; a class outside the
static type's hierarchy, or a value that is not an object compared with a class, is False
(x is still evaluated). `type(x) is type(y)` is `==` of the two: one class, one text.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import types as T
from ..syntax import ast
from ..syntax.type_names import TYPE_OBJECT
from ..types import ERROR
from .classes import class_name, is_class, runs_code
from .globals import main_module_flag
from .type_names import python_name
from .typed import LocalVar, TConst, TExpr, TExprStmt, TLocal, TStmtExpr

if TYPE_CHECKING:
    from .check import FunctionChecker

_BUILTIN_TYPES = ("int", "float", "str", "bool", "list", "dict", "set", "tuple")


def is_type_call(chk: FunctionChecker, e: ast.Expr) -> bool:
    """`type(x)` of Python's builtin `type` (not a name of the program's own)."""
    return (isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id == "type" and len(e.args) == 1
            and not e.keywords and chk.scopes.lookup("type") is None and "type" not in chk.module.functions
            and "type" not in chk.module.structs)


def type_value(chk: FunctionChecker, e: ast.Call) -> TExpr | None:
    """`type(x)` as a value: the class's text, in a `__pyx_TypeObject` (None in a module without
    the struct: one that never spells `type(`, whose `type(x)` comes from generated code)."""
    if TYPE_OBJECT not in chk.module.structs:
        return None
    x = e.args[0]
    value = chk.exprs.value(chk.exprs.expr(x))
    if value.type == ERROR:
        return value
    if is_class(value.type):
        module = getattr(value.type, "module", "") or chk.module.name
        flag = LocalVar('__name__ == "__main__"', T.BOOL, e.span, owned=False, global_symbol=main_module_flag(module))
        if chk.assigned is not None:
            chk.assigned.add(flag)  # (set before any code runs: codegen's `_as_main_module`)
        flag_name = f"$main{chk.next_id}"
        chk.scopes.declare(flag_name, flag)
        where = ast.IfExp(e.span, ast.Name(e.span, flag_name), ast.StrLit(e.span, "<class '__main__."),
                          ast.StrLit(e.span, f"<class '{module}."))
        name = ast.Attribute(e.span, e, "__name__")  # the object's own class (semantics/type_names.py)
        text: ast.Expr = ast.Binary(e.span, "+", ast.Binary(e.span, "+", where, name), ast.StrLit(e.span, "'>"))
        return chk.exprs.expr(ast.Call(e.span, ast.Name(e.span, TYPE_OBJECT), (text,), ()))
    shown = python_name(value.type)
    if shown is None:
        chk.msg.error("E0285", e.span, type=value.type)
        return TConst(e.span, ERROR, None)
    made = chk.exprs.expr(ast.Call(e.span, ast.Name(e.span, TYPE_OBJECT), (ast.StrLit(e.span, f"<class '{shown}'>"),),
                                   ()))
    if isinstance(value, TConst) or not runs_code(x) or made.type == ERROR:
        return made
    return TStmtExpr(e.span, made.type, [TExprStmt(x.span, value)], made)  # (x is still evaluated)


def compare(chk: FunctionChecker, e: ast.Compare) -> TExpr | None:
    """`type(x) is C` and its kin (see the module's docstring); None for any other comparison."""
    if len(e.ops) != 1 or e.ops[0] not in ("is", "is not", "==", "!="):
        return None
    left, right = e.left, e.comparators[0]
    if not is_type_call(chk, left):
        left, right = right, left
    if not is_type_call(chk, left):
        return None
    negated = e.ops[0] in ("is not", "!=")
    if is_type_call(chk, right):  # `type(x) is type(y)`: the same class, the same text
        a, b = type_value(chk, left), type_value(chk, right)  # type: ignore[arg-type]  # (type calls)
        if a is None or b is None or ERROR in (a.type, b.type):
            return None if a is None or b is None else TConst(e.span, ERROR, None)
        return chk.structs.method_call(a, "__ne__" if negated else "__eq__", [b], e.span)
    if not isinstance(right, ast.Name):
        return None
    name = right.id
    target = chk.module.structs.get(name)
    is_class_name = target is not None and target.type is not None and is_class(target.type)
    if not is_class_name and (name not in _BUILTIN_TYPES or chk.scopes.lookup(name) is not None):
        return None
    x = left.args[0]  # type: ignore[attr-defined]  # (a `type(x)` call)
    value = chk.exprs.value(chk.exprs.expr(x))
    if value.type == ERROR:
        return value
    if is_class(value.type) and is_class_name and _related(chk, value.type, target.type):  # type: ignore[union-attr]
        named = ast.Compare(e.span, ast.Attribute(left.span, left, "__name__"), ("!=" if negated else "==",),
                            (ast.StrLit(right.span, class_name(target.type)),))  # type: ignore[union-attr]
        return chk.exprs.expr(named)
    if not is_class(value.type) and not is_class_name:
        answer = (python_name(value.type) == name) != negated
    else:
        answer = negated  # an object and a builtin type, or a class of another hierarchy
    result = chk.exprs.expr(ast.BoolLit(e.span, answer))
    if isinstance(value, (TConst, TLocal)) or not runs_code(x):
        return result
    return TStmtExpr(e.span, result.type, [TExprStmt(x.span, value)], result)  # (x is still evaluated)


def _related(chk: FunctionChecker, a, b) -> bool:
    """Whether class b is a, a's base or one of a's subclasses (an object of static type a may have b
    as its own class only then): a has a cast method to each of those (syntax/inheritance.py)."""
    from ..syntax.inheritance import DOWN, UP

    methods = chk.structs.struct_of(a).methods
    return a == b or UP + class_name(b) in methods or DOWN + class_name(b) in methods
