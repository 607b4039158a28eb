"""Exception objects as values, in a `def` or a `fn` (docs/python-subset.md, "Exceptions as values").

Python code keeps exceptions: `errors: list[Exception] = [ValidationError("v"), StockError("s")]`,
a validator returning one, a caught `e` appended to a list or passed to a function annotated
`err: Exception`, then `raise errors[0]`, `isinstance(err, StockError)`, `type(err).__name__`,
`str(err)`. Every exception class without data (builtin or the program's, `class E(Exception):
pass`) names one type, the stdlib's `ExceptionValue` (stdlib/exception_value.px): its class's name
(a constant the compiler writes), its message, and how its arguments show in `repr`. Its class is
known at run time only, so what depends on it is decided there, as Python's dispatch decides:

- `E(...)` outside `raise` makes one: its message is what `raise E(...)` would give (the str
  argument; the repr of a KeyError's; "" for none), the argument's type checked as there (E0302);
- an annotation naming an exception class (`Exception`, `OrderError`) is the type (module.py);
- a caught exception (`except E as e`, typed `T.EXCEPTION`, a view of the exception state) becomes
  one where one is wanted (`errors.append(e)`, `log(e)` of `def log(err: Exception)`), its message
  copied, and how its arguments show (`repr`) as the program's raises tell, else (a builtin class,
  which pyx's runtime raises too) as its raise recorded them (the exception state's `shown`,
  stdlib/runtime_exc.px: `as_raised`); E0308 for a class that may carry data, and in a `fn` that
  does not raise where the record would be needed;
- `raise v` raises v's class with its message (`TRaise.kind`, lowered as `raise_text` with that
  name); `except C` then matches it by name as any raise;
- `isinstance(v, C)`: v's class among those `except C` catches; `type(v).__name__`; `str(v)` and
  `print(v)` its message; `repr(v)` Python's `C('message')`, `C()`, `KeyError('k')`.

Not yet: an exception class with data (an `__init__` storing attributes: syntax/exception_data.py)
as a value (E0316): its object's attributes would have no place in the value; identity (`v is w`);
`v.args` (E0303: the value keeps the message, not the arguments).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import types as T
from ..source import Span
from ..syntax import ast
from ..syntax.exception_data import DATA
from ..types import ERROR, StructType, Type
from .builtin_types import is_builtin
from .typed import LocalVar, TBlock, TBuiltin, TConst, TExpr, TLocal, TRaise

if TYPE_CHECKING:
    from .check import FunctionChecker
    from .scope import ModuleSymbols

EXCEPTION_VALUE = "ExceptionValue type"  # (a space: no program names it; bound by semantics/module.py)
CAUGHT_VALUE = "exception value of"  # stdlib/exception_value.px `_exception_value_of`
RAISED_VALUE = "exception value as raised"  # stdlib/exception_value.px `_exception_value_raised`

# How a value's arguments show in `repr` (ExceptionValue.shown): none, one str (the message), a KeyError's.
NONE, TEXT, KEY = 0, 1, 2


def exception_class(name: str, symbols: ModuleSymbols) -> bool:
    """Whether name is an exception class a program can name (a builtin, or one of the module's)."""
    from .exceptions import PARENT

    return (name in symbols.exceptions or name in PARENT) and not name.startswith("_")


def is_value(t: Type) -> bool:
    return is_builtin(t, "ExceptionValue")


def value_type(chk: FunctionChecker) -> StructType | None:
    """The exception value's type (its fields resolved), where the module has it (semantics/module.py)."""
    if EXCEPTION_VALUE not in chk.module.structs:
        return None
    found = chk.resolve_type(ast.Name(chk.fn.decl.span, EXCEPTION_VALUE))
    return found if isinstance(found, StructType) else None


def kept_type(chk: FunctionChecker, t: Type) -> Type:
    """t, or for a caught exception's type the exception value's (what `errs = []` ... `errs.append(e)`
    and `saved = None` ... `saved = e` keep), where the module has it."""
    found = value_type(chk) if t == T.EXCEPTION else None
    return found if found is not None else t


def made(chk: FunctionChecker, e: ast.Call) -> TExpr | None:
    """`E(...)` of an exception class E outside `raise`: the value; None where E is no exception
    class this applies to (a class with data stays E0316)."""
    from .exceptions import covered

    func = e.func
    module = chk.module
    if not isinstance(func, ast.Name) or not exception_class(func.id, module) \
            or chk.scopes.lookup(func.id) is not None or func.id in module.functions or func.id in module.structs \
            or DATA + func.id in module.structs or EXCEPTION_VALUE not in module.structs:
        return None
    name = func.id
    if e.keywords or len(e.args) > 1:
        chk.msg.error("E0204", e.span, func=name, expected="0 or 1", s="s", found=len(e.args) + len(e.keywords))
        return TConst(e.span, ERROR, None)
    message: TExpr = chk.exprs.expr(ast.StrLit(e.span, ""))
    shown = NONE
    if e.args:
        value = chk.exprs.value(chk.exprs.expr(e.args[0]))
        if value.type == ERROR:
            return value
        key_error = chk.fn.decl.kind == "def" and name in covered("KeyError", module.exceptions)
        string = chk.exprs.string_type()
        if string is None or not (value.type == T.STRING_LITERAL or value.type == string):
            from .rules import source_text

            chk.exceptions.message_type(name, value.type, source_text(e.args[0]), e.args[0].span, key_error)
            return TConst(e.span, ERROR, None)
        value = chk.exprs.coerce(value, string)
        if key_error:  # (Python's str() of a KeyError is the repr of its argument, as raise_ gives it)
            quoted = chk.structs.method_call(value, "_quoted_repr", [], e.args[0].span)
            if quoted is None:
                return TConst(e.span, ERROR, None)
            value, shown = quoted, KEY
        else:
            shown = TEXT
        message = value
    made_type = value_type(chk)
    if made_type is None:
        return TConst(e.span, ERROR, None)
    kind = TConst(func.span, T.STRING_LITERAL, name)
    return chk.calls.finish_call(module.structs[EXCEPTION_VALUE].methods["__init__"],
                                 [kind, message, TConst(e.span, T.INT, shown)], e.span, func.span, made_type)


def from_caught(chk: FunctionChecker, value: TExpr, target: Type) -> TExpr | None:
    """A caught exception (`except E as e`) where an exception value is wanted: its class and a copy
    of its message (E0308 where pyx does not know how its arguments show, or its class may carry
    data); None where this is not that conversion."""
    inner = target.ct_env.get("T") if isinstance(target, StructType) and is_builtin(target, "Optional") \
        else target  # (`saved = None` first)
    if value.type != T.EXCEPTION or not isinstance(inner, Type) or not is_value(inner) \
            or CAUGHT_VALUE not in chk.module.functions:
        return None
    var = value.var if isinstance(value, TLocal) else None
    span = value.span
    shown = shown_arguments(chk, var) if var is not None else "pyx does not know which exception it holds"
    kind = TBuiltin(span, T.STRING_LITERAL, "exc_kind", [value])
    message = TBuiltin(span, T.STRING_LITERAL, "exc_message", [value])
    if isinstance(shown, str) and var is not None and as_raised(chk, var):  # (its raise says)
        from .exceptions import covered

        keys = "|" + "|".join(sorted(covered("KeyError", chk.module.exceptions))) + "|"
        arguments = [kind, message, TBuiltin(span, T.INT, "exc_shown", [value]), TConst(span, T.STRING_LITERAL, keys)]
        kept = chk.calls.finish_call(chk.module.functions[RAISED_VALUE], arguments, span, span)
        return kept if inner is target else chk.exprs.coerce(kept, target)
    if isinstance(shown, str):
        name = var.name if var is not None else "e"
        chk.msg.error("E0308", span, name=name, why=shown + unraising(chk, var))
        return TConst(span, ERROR, None)
    arguments = [kind, message, TConst(span, T.INT, shown[0]), TConst(span, T.STRING_LITERAL, shown[1])]
    kept = chk.calls.finish_call(chk.module.functions[CAUGHT_VALUE], arguments, span, span)
    return kept if inner is target else chk.exprs.coerce(kept, target)


def as_raised(chk: FunctionChecker, var: LocalVar) -> bool:
    """Whether caught exception var, whose arguments the program's raises do not tell (a builtin
    class: pyx's runtime raises those too), is kept as its raise recorded them (the exception state's
    `shown`, stdlib/runtime_exc.px): in a `def` or a `fn` that `raises` (a raise the record cannot
    follow stops the program), where none of the classes it may hold has data."""
    return raising(chk) and recordable(chk, var)


def recordable(chk: FunctionChecker, var: LocalVar) -> bool:
    if RAISED_VALUE not in chk.module.functions or var in chk.exceptions.caught:
        return False
    classes = chk.exceptions.caught_any.get(var)
    return not any(DATA + c in chk.module.structs for c in (classes if classes is not None else chk.module.exceptions))


def raising(chk: FunctionChecker) -> bool:
    return chk.fn.decl.kind == "def" or bool(chk.fn.decl.raises)


def unraising(chk: FunctionChecker, var: LocalVar | None) -> str:
    """What E0308 and E0325 add in a `fn` that does not raise, where its raise would tell."""
    return " (a `fn` that `raises` keeps it as its raise recorded it)" \
        if var is not None and not raising(chk) and recordable(chk, var) else ""


def with_data(chk: FunctionChecker, classes: set[str] | None) -> str | None:
    """Why a caught exception of one of `classes` is not kept exactly: the first of them with data (its
    `__init__` stores attributes); None where none has."""
    data = sorted(c for c in classes or () if DATA + c in chk.module.structs)
    return f"`{data[0]}` has data (its `__init__` stores attributes), which an exception value does not keep" \
        if data else None


def shown_arguments(chk: FunctionChecker, var: LocalVar) -> tuple[int, str] | str:
    """How caught exception var's arguments show (NONE, TEXT, KEY), with the classes raised with none
    where that depends on its class (`|A|B|`, else ""); or why pyx cannot tell (a class that may carry
    data, whose object a value has no place for, is such a reason too)."""
    from .exceptions import covered

    exceptions = chk.exceptions
    classes = exceptions.caught_any.get(var)
    data = with_data(chk, classes)
    if data is not None:
        return data
    how = exceptions.kept_exactly(var, var.span)
    if isinstance(how, str):
        return how
    if how[0] == "key":
        return (KEY, "")
    if how[0] == "mixed":
        return (TEXT, how[1])
    return (NONE if how[0] == "none" else TEXT if classes is None or not classes <= covered("KeyError") else KEY, "")


def raised(chk: FunctionChecker, s: ast.Raise, value: TExpr):
    """`raise v` of an exception value: its class, with its message (copied by the raise, before v
    is dropped)."""
    span = s.span
    held = chk.new_var("$raised", value.type, span)
    chk.ownership.need_drop(value.type, span)
    store = chk.store([held], [chk.ownership.consume(value, "raised")], span)
    local = TLocal(span, value.type, held)
    text = chk.structs.field_read(local, "message", span)
    kind = chk.structs.field_read(local, "kind", span)
    shown = chk.structs.field_read(local, "shown", span)
    chk.fn.raises_text = True
    chk.exceptions.check_may_raise("an exception value", span)
    chk.assigned = None
    return TBlock(span, [store, TRaise(span, "", "", text=text, kind=kind, shown=shown)])


def attribute(chk: FunctionChecker, e: ast.Attribute) -> TExpr:
    """`v.attr` of an exception value: none a program can read (its fields are the value's own; Python's
    exception has no `message` or `kind`); `v.args` is E0303, as the value keeps no arguments."""
    from .rules import source_text

    name = source_text(e.value)
    if e.attr == "args":
        chk.msg.error("E0303", e.span, what="args", name=name, fix=f"str({name})",
                      why="an exception value keeps its class and its message, not the arguments")
    else:
        chk.msg.error("E0223", e.span, name="Exception", attr=e.attr)
    return TConst(e.span, ERROR, None)


def type_name(chk: FunctionChecker, value: TExpr, span: Span) -> TExpr | None:
    """`type(v).__name__` of an exception value."""
    return chk.structs.method_call(value, "_name", [], span) if is_value(value.type) else None


def isinstance_test(chk: FunctionChecker, value: TExpr, name: ast.Name) -> TExpr | None:
    """`isinstance(v, C)` of an exception value: its class among those `except C` catches."""
    from .exceptions import covered

    if not is_value(value.type):
        return None
    names = "|" + "|".join(sorted(covered(name.id, chk.module.exceptions))) + "|"
    return chk.structs.method_call(value, "_kind_in", [TConst(name.span, T.STRING_LITERAL, names)], name.span)


def module_arguments(chk: FunctionChecker, classes: set[str]) -> tuple[str, str] | None:
    """How the arguments of an exception of one of classes (all the module's own, without data) show,
    from every `raise C(...)` and `C(...)` of the module: ("str", "") where each passes one argument
    (a str: E0302 otherwise), ("none", "") where each passes none, ("mixed", "|A|B|") where each class
    is raised alike but A and B with none; None where that is not known (a builtin class, which pyx's
    runtime raises too, or a class raised both ways)."""
    from .imports import is_stdlib_file

    if not classes or any(c not in chk.module.exceptions or DATA + c in chk.module.structs for c in classes):
        return None
    file = chk.fn.decl.span.file
    counts: dict[str, set[int]] = {c: set() for c in classes}
    stack: list[ast.Node] = [f for f in chk.module.functions.values() if f.span.file is file]
    stack += [s.decl for s in chk.module.structs.values()
              if s.decl.span.file is file and not is_stdlib_file(s.decl.span.file.name)]
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Raise) and isinstance(n.exc, ast.Name) and n.exc.id in classes:
            counts[n.exc.id].add(0)  # `raise C`: C()
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in classes:
            counts[n.func.id].add(len(n.args) + len(n.keywords))
        stack.extend(ast.children(n))
    if any(len(found) > 1 for found in counts.values()):
        return None
    bare = sorted(c for c, found in counts.items() if found == {0})
    if not bare:
        return ("str", "")
    if len(bare) == sum(bool(found) for found in counts.values()):
        return ("none", "")
    return ("mixed", "|" + "|".join(bare) + "|")
