"""`if best is None or x > best`: Python code reads an Optional as its value where a test has
just shown it is not None. In a `def`, the checker does the same for the stdlib's `Optional[T]` (a
variable of a number, str, ... type that may be None): in the region a test guards, a read of
the variable is its value (`.value()`, typed T), as if the user had written that.

The regions, each guarded by `v is not None` (or by `v is None` being false):
- the right operands of `v is None or ...` and of `v is not None and ...`;
- the body of `if v is not None:` / `while v is not None:` and the `else` of `if v is None:`
  (with `and` in a positive test, every `is not None` in it), and likewise for `x if test else y`;
- the statements after a guard, in the same block: `if v is None: return` (a body that always
  leaves the block: return, raise, break, continue), the `if` whose `else` always leaves it
  for `if v is not None:`, and `assert v is not None` (`after_statement`).
A region that assigns the variable again is not narrowed: the value read there might be None
(the test said nothing about it). Class references need none of this (they are nullable).
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import TYPE_CHECKING, cast

from ..syntax import ast
from .builtin_types import is_builtin
from .globals import bound_names
from .typed import LocalVar

if TYPE_CHECKING:
    from .check import FunctionChecker


def _tested(chk: FunctionChecker, test: ast.Expr) -> tuple[LocalVar, bool] | None:
    """(v, True) for `v is not None`, (v, False) for `v is None`, v an Optional variable."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and test.ops[0] in ("is", "is not")):
        return None
    left, right = test.left, test.comparators[0]
    name = left if isinstance(right, ast.NoneLit) else right if isinstance(left, ast.NoneLit) else None
    if not isinstance(name, ast.Name):
        return None
    var = chk.scopes.lookup(name.id)
    if not isinstance(var, LocalVar) or not is_builtin(var.type, "Optional"):
        return None
    return var, test.ops[0] == "is not"


def not_none_when(chk: FunctionChecker, test: ast.Expr, outcome: bool) -> list[LocalVar]:
    """The Optional variables known not to be None where `test` evaluated to `outcome`. Only in
    Python's `def`s: in a Mojo-style `fn`, `opt.value()` is written out, as Mojo has it."""
    if chk.fn.decl.kind != "def":
        return []
    found = _tested(chk, test)
    if found is not None:
        return [found[0]] if found[1] == outcome else []
    if isinstance(test, ast.BoolOp) and (test.op == "and") == outcome:
        return [v for value in test.values for v in not_none_when(chk, value, outcome)]
    if isinstance(test, ast.Unary) and test.op == "not":
        return not_none_when(chk, test.operand, not outcome)
    return []


def _assigns(region: tuple[ast.Node, ...], var: LocalVar) -> bool:
    # (bound_names walks any nodes; an expression region binds nothing but through a nested one)
    return var.name in bound_names(cast("tuple[ast.Stmt, ...]", region))[0]


@contextmanager
def narrowed(chk: FunctionChecker, variables: list[LocalVar], region: tuple[ast.Node, ...]):
    """Check `region` with reads of these variables as their values (unless it assigns them)."""
    added = [v for v in variables if v not in chk.narrowed and not _assigns(region, v)]
    chk.narrowed.update(added)
    try:
        yield
    finally:
        chk.narrowed.difference_update(added)


def always_leaves(stmts) -> bool:
    """Whether running `stmts` never reaches the statement after them (it returns, raises, breaks
    or continues on every path)."""
    if not stmts:
        return False
    last = stmts[-1]
    if isinstance(last, (ast.Return, ast.Raise, ast.Break, ast.Continue)):
        return True
    return isinstance(last, ast.If) and always_leaves(last.body) and always_leaves(last.orelse)


def after_statement(chk: FunctionChecker, s: ast.Stmt) -> list[LocalVar]:
    """The Optional variables known not to be None after `s` (a guard; see the docstring)."""
    if isinstance(s, ast.Assert):
        return not_none_when(chk, s.test, True)
    if not isinstance(s, ast.If):
        return []
    if always_leaves(s.body):  # past it only when the test was false (and the else, if any, ran)
        return [v for v in not_none_when(chk, s.test, False) if not _assigns(tuple(s.orelse), v)]
    if always_leaves(s.orelse):
        return [v for v in not_none_when(chk, s.test, True) if not _assigns(tuple(s.body), v)]
    return []
