"""Python's two ways of formatting text besides f-strings, compiled from a constant format string.

`"%5.2f items" % x` (printf style) and `"{:>8} {name!r}".format(a, name=b)` are parsed here, when
compiling, with CPython's own rules, and become ordinary expressions the checker then checks:

- a `%` field becomes a call of the stdlib's `percent_field(value, flags, width, precision, kind)`
  (stdlib/formatting.px), with `str(x)` or `repr(x)` as the value of `%s` and `%r`;
- a `str.format` field becomes `format(value, "spec")`, `str(value)` or `repr(value)`: exactly
  what an f-string's field becomes (syntax/build_ast.py), so the spec mini-language has one
  implementation (`format` in stdlib/string.px) and one compile-time check (`format_spec.py`).

The pieces are joined with `+`. An error CPython would raise for any values of the arguments'
types (a bad format character, too few or too many arguments, `%d` of a str, `{}` with no
argument) is found by running CPython's own formatting on a sample value of each argument's
type, and reported with CPython's message (E0250, E0251). What depends on the values (`%c` of a
long string, `%d` of a NaN) raises at run time, as in Python.

Python evaluates every argument once, left to right, before formatting anything. The pieces
evaluate each argument where its field is; so an argument that is used out of that order, more
than once or not at all must be a name or a constant (E0254), and an argument whose `__str__`
would run before a later argument's call is rejected the same way.
"""
from __future__ import annotations

import string
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .. import types as T
from ..node_methods import syntax_node
from ..source import Span
from ..syntax import ast, nested_spec
from ..types import ERROR, LiteralType, ScalarType, StructType
from .builtin_types import is_builtin
from .imports import is_string
from .typed import TConst, TExpr

if TYPE_CHECKING:
    from .check import FunctionChecker
    from .expressions import ExpressionChecker
    from .messages import MessageBuilder

# The names (no source can spell them) under which a module that formats sees the stdlib's helpers
# (semantics/module.py binds them).
PERCENT_FIELD, FORMAT_FIELD, REPR_FIELD = "percent field", "format field", "repr field"

# The flag bits of `percent_field` (stdlib/formatting.px declares the same numbers).
FLAGS = {"-": 1, "+": 2, " ": 4, "0": 8, "#": 16}
_TUPLE = getattr(T, "TupleType", ())  # the stdlib's tuples, where they are values


@syntax_node
class Checked(ast.Expr):
    """An argument already checked, placed in the expression a format string became (so it is
    checked, and evaluated, once)."""

    value: TExpr


@dataclass(frozen=True)
class _Field:
    flags: int
    width: int | None  # None: `*`
    precision: int | str | None  # None: none given; "*": from the arguments
    conversion: str


def parse_percent(fmt: str) -> list[str | _Field]:
    """The text and fields of a `%` format string that CPython accepts (checked first)."""
    pieces: list[str | _Field] = []
    i, n = 0, len(fmt)
    while i < n:
        j = fmt.find("%", i)
        if j < 0:
            pieces.append(fmt[i:])
            break
        if j > i:
            pieces.append(fmt[i:j])
        k = j + 1
        flags = 0
        while fmt[k] in FLAGS:
            flags |= FLAGS[fmt[k]]
            k += 1
        width: int | None = 0
        if fmt[k] == "*":
            width, k = None, k + 1
        else:
            start = k
            while fmt[k].isdigit():
                k += 1
            width = int(fmt[start:k] or "0")
        precision: int | str | None = None
        if fmt[k] == ".":
            k += 1
            if fmt[k] == "*":
                precision, k = "*", k + 1
            else:
                start = k
                while fmt[k].isdigit():
                    k += 1
                precision = int(fmt[start:k] or "0")
        while fmt[k] in "hlL":  # C's length modifiers: Python accepts and ignores them
            k += 1
        if fmt[k] == "%":
            pieces.append("%")
        else:
            pieces.append(_Field(flags, width, precision, fmt[k]))
        i = k + 1
    return pieces


def conversions(pieces: list[str | _Field]) -> list[str]:
    """The conversion that reads each argument of a `%` format, in order (a `*` width or precision: `d`)."""
    return [c for p in pieces if isinstance(p, _Field)
            for c in ["d"] * (p.width is None) + ["d"] * (p.precision == "*") + [p.conversion]]


class _Sample:
    """A stand-in for a value of a pyx struct type, named as Python would name its class."""


def _sample(t, value: TExpr):
    """A Python value of pyx type `t` for trying a format on (a constant's own value)."""
    if isinstance(value, TConst) and isinstance(value.value, (str, int, float, bool)) and value.type != ERROR:
        return value.value
    if t == T.STRING_LITERAL or is_string(t):
        return "t"  # one character: `%c` of a String is checked when it runs
    if isinstance(t, LiteralType):
        return 0.5 if t.kind == "float" else 5
    if isinstance(t, ScalarType):
        return True if t.is_bool else 0.5 if t.is_float else 65
    if isinstance(t, StructType):
        from .type_names import python_name

        name = python_name(t) or t.base  # (the stdlib's List is Python's list; a class called List is not)
        return type(name, (_Sample,), {"__str__": lambda self: "x", "__repr__": lambda self: "x"})()
    return object()


class _FormatFields:
    """The fields of one `str.format` call: each field's value, numbered as CPython numbers them
    (automatically or by hand, never both), and the arguments formatted, in order (`uses`)."""

    def __init__(self, e: ast.Call, span: Span):
        self.e, self.span = e, span
        self.keywords = {kw.name: kw.value for kw in e.keywords}
        self.uses: list[ast.Expr] = []
        self.automatic: bool | None = None  # automatic or manual field numbering (None: not yet known)
        self.next = 0  # the next automatic index

    def field(self, name: str, conversion: str | None) -> ast.Expr | str:
        """A field's value (its conversion applied), or the problem CPython reports."""
        try:
            first, rest = _split_field(name)
        except ValueError as exc:
            return str(exc)
        if first == "":
            if self.automatic is False:
                return "cannot switch from manual field specification to automatic field numbering"
            self.automatic, first = True, str(self.next)
            self.next += 1
        elif first.isdigit():
            if self.automatic is True:
                return "cannot switch from automatic field numbering to manual field specification"
            self.automatic = False
        args = self.e.args
        if first.isdigit():
            if int(first) >= len(args):
                return f"Replacement index {int(first)} out of range for positional args tuple"
            arg = args[int(first)]
        elif first in self.keywords:
            arg = self.keywords[first]
        else:
            return f"KeyError: {first!r}"
        if conversion not in (None, "r", "s"):
            return f"Unknown conversion specifier {conversion}"
        self.uses.append(arg)
        value: ast.Expr = arg
        for kind, key in rest:
            if kind == ".":
                value = ast.Attribute(arg.span, value, key)
            else:
                index: ast.Expr = ast.IntLit(arg.span, int(key)) if key.isdigit() else ast.StrLit(arg.span, key)
                value = ast.Subscript(arg.span, value, (index,))
        if conversion is not None:
            value = ast.Call(value.span, ast.Name(self.span, "str" if conversion == "s" else REPR_FIELD), (value,), ())
        return value


def _run_time_spec(values: _FormatFields, value: ast.Expr, spec: str, span: Span) -> ast.Expr | str:
    """`value` formatted with a spec that has fields of its own (`{:>{}}`), built when the program
    runs; or the problem CPython reports."""
    try:
        nested = list(string.Formatter().parse(spec))
    except ValueError as exc:
        return str(exc)
    pieces: list[ast.Expr] = []
    for text2, name2, spec2, conversion2 in nested:
        if text2:
            pieces.append(ast.StrLit(span, text2))
        if name2 is None:
            continue
        if spec2 and ("{" in spec2 or "}" in spec2):
            return "Max string recursion exceeded"
        inner = values.field(name2, conversion2)
        if isinstance(inner, str):
            return inner
        pieces.append(ast.Call(inner.span, ast.Name(span, FORMAT_FIELD), (inner, ast.StrLit(span, spec2)), ())
                      if spec2 else ast.Call(inner.span, ast.Name(span, "str"), (inner,), ()))
    return nested_spec.formatted(value, nested_spec.spec_text(pieces, span), span)


class StringFormatChecker:
    """`%` on a string literal and `"...".format(...)`. Reached as `chk.strformat`."""

    def __init__(self, chk: FunctionChecker) -> None:
        self.chk: FunctionChecker = chk
        self.exprs: ExpressionChecker = chk.exprs
        self.msg: MessageBuilder = chk.msg

    # ---- `%` ----
    def percent(self, e: ast.Binary) -> TExpr:
        """`"format" % value` or `"format" % (a, b)`."""
        fmt = e.left
        assert isinstance(fmt, ast.StrLit)
        items = list(e.right.elts) if isinstance(e.right, ast.TupleExpr) else [e.right]
        if "%(" in fmt.value.replace("%%", ""):
            for item in items:
                self.exprs.expr(item)
            self.msg.error("E0253", fmt.span, what="`%(name)s` (formatting from a mapping)")
            return TConst(e.span, ERROR, None)
        values = [self.exprs.value(self.exprs.expr(item)) for item in items]
        if any(v.type == ERROR for v in values):
            return TConst(e.span, ERROR, None)
        if len(values) == 1 and not isinstance(e.right, ast.TupleExpr) and isinstance(values[0].type, _TUPLE):
            if not isinstance(e.right, ast.Name):  # its items are read one by one: from a variable
                self.msg.error("E0253", e.right.span, what="a tuple after `%` that is not a variable or written out "
                                                           "(`fmt % (a, b)`)")
                return TConst(e.span, ERROR, None)
            items = [ast.Subscript(e.right.span, e.right, (ast.IntLit(e.right.span, k),))
                     for k in range(len(values[0].type.items))]
            values = [self.exprs.value(self.exprs.expr(item)) for item in items]
        if any(is_builtin(v.type, "Number") for v in values):  # `"%d" % n` of an `int | float` (numbers.py)
            from .numbers import percent_values

            try:
                values = percent_values(self.chk, values, conversions(parse_percent(fmt.value)))
            except (ValueError, IndexError):
                pass  # (reported below)
            if any(v.type == ERROR for v in values):
                return TConst(e.span, ERROR, None)
        samples = tuple(_sample(v.type, v) for v in values)
        try:
            fmt.value % samples
        except (TypeError, ValueError, OverflowError) as exc:
            self.msg.error("E0250", fmt.span, problem=str(exc))
            return TConst(e.span, ERROR, None)
        pieces = parse_percent(fmt.value)
        if any(isinstance(p, _Field) and p.conversion == "a" for p in pieces):
            self.msg.error("E0253", fmt.span, what="`%a` (ascii())")
            return TConst(e.span, ERROR, None)
        consumed = conversions(pieces)
        if not self._in_order(values, consumed, items):
            return TConst(e.span, ERROR, None)
        args = iter(Checked(v.span, v) for v in values)
        parts: list[ast.Expr] = []
        span = fmt.span
        for piece in pieces:
            if isinstance(piece, str):
                parts.append(ast.StrLit(span, piece))
                continue
            width: ast.Expr = next(args) if piece.width is None else ast.IntLit(span, piece.width)
            precision: ast.Expr = next(args) if piece.precision == "*" else \
                ast.IntLit(span, -1 if piece.precision is None else int(piece.precision))
            value: ast.Expr = next(args)
            kind = piece.conversion
            if kind in "sr":
                value = ast.Call(value.span, ast.Name(span, "str" if kind == "s" else REPR_FIELD), (value,), ())
                kind = "s"
            parts.append(ast.Call(span, ast.Name(span, PERCENT_FIELD),
                                  (value, ast.IntLit(span, piece.flags), width, precision, ast.IntLit(span, ord(kind))),
                                  ()))
        return self._joined(parts, e.span)

    def _in_order(self, values: list[TExpr], uses: list[str], items: list[ast.Expr]) -> bool:
        """Each argument is used once, in order (the `%` operator's rule); but a struct's `__str__`
        must not run before a later argument's call (Python evaluates all arguments first)."""
        for k, (v, conversion) in enumerate(zip(values, uses, strict=False)):
            if conversion in "sr" and isinstance(v.type, StructType) and not is_string(v.type):
                later = next((x for x in items[k + 1:] if not _pure(x)), None)
                if later is not None:
                    self.msg.error("E0254", later.span, what="`%`")
                    return False
        return True

    # ---- str.format ----
    def str_format(self, e: ast.Call) -> TExpr:
        """`"text {} {name:>8}".format(a, name=b)`."""
        func = e.func
        assert isinstance(func, ast.Attribute) and isinstance(func.value, ast.StrLit)
        fmt = func.value
        try:
            fields = list(string.Formatter().parse(fmt.value))
        except ValueError as exc:
            self._check_all(e)
            self.msg.error("E0251", fmt.span, problem=str(exc))
            return TConst(e.span, ERROR, None)
        parts: list[ast.Expr] = []
        span = fmt.span
        values = _FormatFields(e, span)
        for text, name, spec, conversion in fields:
            if text:
                parts.append(ast.StrLit(span, text))
            if name is None:
                continue
            if conversion == "a" or (spec and "!a" in spec):
                self._check_all(e)
                self.msg.error("E0253", span, what="`!a` (ascii())")
                return TConst(e.span, ERROR, None)
            value = values.field(name, conversion)
            if isinstance(value, str):
                return self._fail(e, value)
            if spec and ("{" in spec or "}" in spec):
                # `"{:>{}}".format(s, w)`: a spec only the run knows, its fields numbered after
                # the outer one's, as CPython numbers them (syntax/nested_spec.py)
                formatted = _run_time_spec(values, value, spec, span)
                if isinstance(formatted, str):
                    return self._fail(e, formatted)
                parts.append(formatted)
            elif spec:
                parts.append(ast.Call(value.span, ast.Name(span, FORMAT_FIELD), (value, ast.StrLit(span, spec)), ()))
            else:
                parts.append(ast.Call(value.span, ast.Name(span, "str"), (value,), ()))
        if not self._evaluate_unused(e, values.uses):
            return TConst(e.span, ERROR, None)
        return self._joined(parts, e.span)

    def _evaluate_unused(self, e: ast.Call, uses: list[ast.Expr]) -> bool:
        """The arguments no field formats (or not in the order written) are evaluated all the same, as
        Python does: E0254 (False) where one of them is not pure."""
        written = list(e.args) + [kw.value for kw in e.keywords]
        if [id(u) for u in uses] != [id(a) for a in written]:
            impure = next((a for a in written if not _pure(a)), None)
            if impure is not None:
                self._check_all(e)
                self.msg.error("E0254", impure.span, what="`str.format`")
                return False
            for a in written:
                if not any(a is u for u in uses):
                    self.exprs.expr(a)  # never formatted, but Python evaluates it (and its mistakes)
        return True

    def _fail(self, e: ast.Call, problem: str) -> TExpr:
        self._check_all(e)
        fmt = e.func.value if isinstance(e.func, ast.Attribute) else e.func
        self.msg.error("E0251", fmt.span, problem=problem)
        return TConst(e.span, ERROR, None)

    def _check_all(self, e: ast.Call) -> None:
        """The arguments' own mistakes, reported beside the format string's."""
        for a in list(e.args) + [kw.value for kw in e.keywords]:
            self.exprs.expr(a)

    def _joined(self, parts: list[ast.Expr], span: Span) -> TExpr:
        """The pieces joined with `+`, as a String (Python's result is a str even with no fields)."""
        if not parts or isinstance(parts[0], ast.StrLit):
            first = parts[0] if parts else ast.StrLit(span, "")
            parts = [ast.Call(span, ast.Name(span, "str"), (first,), ())] + parts[1:]
        joined = parts[0]
        for p in parts[1:]:
            joined = ast.Binary(span, "+", joined, p)
        result = self.exprs.expr(joined)
        if result.type == ERROR:
            return result
        return result if result.type != T.STRING_LITERAL else self.exprs.coerce(result, self.exprs.string_type())

    def not_constant(self, span: Span, what: str) -> TExpr:
        self.msg.error("E0252", span, what=what)
        return TConst(span, ERROR, None)


def _split_field(name: str) -> tuple[str, list[tuple[str, str]]]:
    """`0.x[1]` -> ("0", [(".", "x"), ("[", "1")]), with the errors of CPython's formatter."""
    i = 0
    while i < len(name) and name[i] not in ".[":
        i += 1
    head, rest = name[:i], []
    while i < len(name):
        if name[i] == ".":
            j = i + 1
            while j < len(name) and name[j] not in ".[":
                j += 1
            if j == i + 1:
                raise ValueError("Empty attribute in format string")
            rest.append((".", name[i + 1:j]))
            i = j
        else:
            j = name.find("]", i)
            if j < 0:
                raise ValueError("Missing ']' in format string")
            if j == i + 1:
                raise ValueError("Empty attribute in format string")
            rest.append(("[", name[i + 1:j]))
            i = j + 1
            if i < len(name) and name[i] not in ".[":
                raise ValueError("Only '.' or '[' may follow ']' in format field specifier")
    return head, rest


def _pure(e: ast.Expr) -> bool:
    """Evaluating e has no effect and always gives the same value: a name, a constant, a field of one."""
    if isinstance(e, (ast.Name, ast.IntLit, ast.FloatLit, ast.StrLit, ast.BoolLit)):
        return True
    if isinstance(e, ast.Attribute):
        return _pure(e.value)
    if isinstance(e, ast.Unary):
        return _pure(e.operand)
    return False
