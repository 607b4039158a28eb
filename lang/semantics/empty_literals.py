"""`xs = []` and `d = {}` with no annotation: the element types come from how the function uses them.

Python code builds most lists and dicts from empty: `out = []` then `out.append(x)`. The checker is
one pass, so such a variable starts *pending*: typed `<error>` (which every later use accepts
silently, so its uses before the first informative one report nothing), and remembered with its
literal. The first use that says what it holds resolves it:

- `xs.append(v)`, `xs.insert(i, v)`: a List of v's type; `xs.extend(ys)`, `xs += ys`: ys's type;
- `d[k] = v`: a Dict from k's type to v's; `d.setdefault(k, v)`, `d.get(k, v)`: the same;
- the variable passed where a List or Dict is expected (an argument, `return xs` of a function that
  declares its result, an assignment to a variable that has a type): that type.

A resolution aborts the check (`Retry`) and the instantiator checks the function again from the
start with the type as a *hint* for that literal (`FunctionInstance.empty_hints`, by the literal's
node), so every use, the ones before the resolving one too, is checked with the real type; each
retry resolves one more literal, so a function is checked at most once per literal plus once.
A variable nothing resolves is E0287 at its literal, saying to annotate it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import types as T
from ..syntax import ast
from ..types import ERROR, Type, default_type
from .imports import is_stdlib_struct
from .typed import LocalVar, TExpr, TLocal

if TYPE_CHECKING:
    from .check import FunctionChecker

# A check may be retried this many times in all (each retry resolves a literal; a function with
# more empty literals than this gets E0287 for the rest).
MAX_RETRIES = 32


class Retry(Exception):
    """Check the function again: a pending literal's type is known now (recorded in its hints)."""


def is_empty_literal(value: ast.Expr) -> bool:
    """`[]`, `{}` or `set()`."""
    from .sets import is_empty_set

    return ((isinstance(value, ast.ListExpr) and not value.elts) or (isinstance(value, ast.DictExpr) and not value.keys)
            or is_empty_set(value))


def _kind(literal: ast.Expr) -> str:
    """The stdlib struct an empty literal makes."""
    return "List" if isinstance(literal, ast.ListExpr) else "Dict" if isinstance(literal, ast.DictExpr) else "Set"


class EmptyLiterals:
    """The checker's collaborator for empty literals with no annotation (`FunctionChecker.empties`)."""

    def __init__(self, chk: FunctionChecker) -> None:
        self.chk: FunctionChecker = chk
        self.pending: dict[LocalVar, ast.Expr] = {}

    @property
    def hints(self) -> dict[int, Type]:
        return self.chk.fn.empty_hints

    def value_for(self, literal: ast.Expr) -> TExpr | None:
        """The value of `name = []` (a new variable, no annotation): the empty container of its hinted
        type, or None while it is pending (the caller binds the name to `<error>` and calls `bound`)."""
        hint = self.hints.get(id(literal))
        if hint is None:
            return None
        return self.chk.empty_container(literal, hint)

    def bound(self, name: str, literal: ast.Expr) -> None:
        found = self.chk.scopes.lookup(name)
        if isinstance(found, LocalVar) and found.type == ERROR:
            self.pending[found] = literal

    def _pending_var(self, node: ast.Expr) -> LocalVar | None:
        if not self.pending or not isinstance(node, ast.Name):
            return None
        found = self.chk.scopes.lookup(node.id)
        return found if isinstance(found, LocalVar) and found in self.pending else None

    def _resolve(self, var: LocalVar, t: Type) -> None:
        """Record the type for var's literal and start the check again (if the type fits the literal)."""
        literal = self.pending[var]
        if t == ERROR or not is_stdlib_struct(t, _kind(literal)) or id(literal) in self.hints:
            return
        if self.chk.fn.retries >= MAX_RETRIES:
            return
        self.hints[id(literal)] = t
        raise Retry()

    # ---- the uses that say what a pending variable holds ----
    def method_call(self, func: ast.Attribute, e: ast.Call) -> None:
        var = self._pending_var(func.value)
        if var is None:
            return
        args = [self.chk.exprs.expr(a) for a in e.args]
        if any(a.type == ERROR for a in args):
            return
        literal = self.pending[var]
        if _kind(literal) == "Set":
            if func.attr == "add" and len(args) == 1:
                self._resolve(var, self._set_of(args[0].type, literal))
            elif func.attr == "update" and len(args) == 1:
                self._resolve(var, args[0].type)
        elif isinstance(literal, ast.ListExpr):
            if func.attr == "append" and len(args) == 1:
                self._resolve(var, self._list_of(args[0].type, literal))
            elif func.attr == "insert" and len(args) == 2:
                self._resolve(var, self._list_of(args[1].type, literal))
            elif func.attr == "extend" and len(args) == 1:
                self._resolve(var, args[0].type)
        elif func.attr in ("setdefault", "get") and len(args) == 2:
            self._resolve(var, self._dict_of(args[0].type, args[1].type, literal))

    def setitem(self, target: ast.Subscript, value: TExpr) -> None:
        """`d[k] = v` on a pending dict."""
        var = self._pending_var(target.value)
        if var is None or len(target.items) != 1 or not isinstance(target.items[0], ast.Expr) \
                or isinstance(target.items[0], ast.Slice) or value.type == ERROR:
            return
        key = self.chk.exprs.expr(target.items[0])
        if key.type != ERROR:
            self._resolve(var, self._dict_of(key.type, value.type, self.pending[var]))

    def augmented(self, target: ast.Expr, value: ast.Expr) -> None:
        """`xs += ys` on a pending list."""
        var = self._pending_var(target)
        if var is not None:
            self._resolve(var, self.chk.exprs.expr(value).type)

    def flows_into(self, value: TExpr, t: Type | None) -> None:
        """A pending variable used where a value of type t is expected."""
        if t is not None and isinstance(value, TLocal) and value.var in self.pending:
            self._resolve(value.var, t)

    def report_unresolved(self) -> None:
        for var, literal in self.pending.items():
            kind = _kind(literal).lower()
            example = {"list": f"{var.name}: list[int] = []", "dict": f"{var.name}: dict[str, int] = {{}}",
                       "set": f"{var.name}: set[int] = set()"}[kind]
            self.chk.msg.error("E0287", literal.span, kind=kind, name=var.name, example=example)

    # ---- types ----
    def _instance(self, hidden: str, items: tuple[Type, ...], literal: ast.Expr) -> Type:
        """The stdlib's List/Dict/Set (bound under `hidden`) of these item types, as a literal of
        them would be typed (a string constant's type is String)."""
        from .module import struct_instance

        sym = self.chk.module.structs.get(hidden)
        if sym is None or ERROR in items:
            return ERROR
        items = tuple(self.chk.exprs.string_or(default_type(t)) for t in items)
        return struct_instance(sym, items, literal.span, self.chk.module, self.chk.msg.bag,
                               self.chk.module.lookup_constant) or ERROR

    def _list_of(self, elem: Type, literal: ast.Expr) -> Type:
        from .module import LIST_LITERAL

        return self._instance(LIST_LITERAL, (elem,), literal)

    def _set_of(self, elem: Type, literal: ast.Expr) -> Type:
        from .sets import SET_LITERAL

        return self._instance(SET_LITERAL, (elem,), literal)

    def _dict_of(self, key: Type, value: Type, literal: ast.Expr) -> Type:
        from .module import DICT_LITERAL

        return self._instance(DICT_LITERAL, (key, value), literal)


__all__ = ["EmptyLiterals", "Retry", "T", "is_empty_literal"]
