"""Module-level variables and scripts, as Python has them.

A module's statements that are not declarations (`syntax/validate.py`) become the body of one
function, its *script* (`SCRIPT`, named `<module>` as CPython names it in tracebacks). `pyx run`
runs the main module's script as CPython runs a file: in order, top to bottom, and `fn main()`
only if the script calls it (the `if __name__ == "__main__":` guard's body runs in the main
module only). A module whose only statement is `if __name__ == "__main__": main()` has no script:
`main` is its entry, as before.

Every variable the script binds is a *module-level variable*: its storage is one global of the
program (codegen's `global_slot`), not a slot in a frame, so every function sees the same one.
In any other function, Python's rule decides what a name means: a name the function binds
anywhere in its body (an assignment, a `for` target, `except ... as`, a nested `def`, an import)
is local to the whole function unless the function declares it `global`; any other name that
is a module-level variable means that variable. The checker declares the module-level variables
a function may use as *aliases* in its outermost scope before its parameters (which shadow them):
an alias is a LocalVar with the variable's `global_symbol`, not owned by the function (it is
never destroyed or moved there) but mutable in place, as Python's shared module objects are.

When a function runs before the script has assigned a variable it reads, CPython raises
`NameError: name 'X' is not defined`; so does pyx: each module-level variable has a `.defined`
flag (a second global, set by every store to it: `ir/globals.py`), and a function's read of an
alias checks it. The script itself needs no check: definite assignment (E0103) covers it.

Types come from the script, checked before every other function: a variable's type is the one
its first assignment gives it. A function checked while the script is being checked (a `def`
whose return type its caller needs) sees the variables assigned so far: reading one assigned
later is E0101 with a note saying where it is assigned.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import types as T
from ..diagnostics import Note
from ..script import SCRIPT
from ..source import Span
from ..syntax import ast
from .typed import LocalVar, TIf, TLocal, TStmt

if TYPE_CHECKING:
    from .check import FunctionChecker

__all__ = ["SCRIPT", "ModuleVariables", "bound_names", "is_script"]


def is_script(decl: ast.FnDef) -> bool:
    return decl.name == SCRIPT


def foreign_variable_notes(module, name: str) -> tuple[Note, ...]:
    """Why another module's module-level variable cannot be named (yet): a note, if that is what it is."""
    script = module.functions.get(SCRIPT)
    if script is None or name not in bound_names(script.body)[0]:
        return ()
    return (Note(f"`{name}` is a module-level variable of that module; reading another module's variables "
                 f"is not supported yet: call a function of that module that returns it"),)


MAIN_FLAG_PREFIX = "pyx.main."


def main_module_flag(module: str) -> str:
    """The global Bool a module's `if __name__ == "__main__":` reads: set by `pyx run`'s entry for the
    program's main module (codegen's `_as_main_module`), false in a module Python imports. A
    function may read it too (semantics/type_objects.py): it holds a value before any code runs."""
    return f"{MAIN_FLAG_PREFIX}{module}"


def bound_names(body: tuple[ast.Stmt, ...]) -> tuple[set[str], dict[str, Span]]:
    """The names a function body binds (Python's rule: local to the whole function), and those it
    declares `global` (with where). Nested functions' and comprehensions' bodies are their own scopes."""
    bound: set[str] = set()
    declared: dict[str, Span] = {}
    stack: list[ast.Node] = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Global):
            for name in node.names:
                declared.setdefault(name, node.span)
            continue
        if isinstance(node, ast.FnDef) or type(node).__name__.endswith("Def"):
            bound.add(getattr(node, "name", ""))
            continue  # its body is its own scope
        if isinstance(node, (ast.Lambda, ast.Comprehension)):
            continue
        if isinstance(node, ast.Assign):
            for target in node.targets:
                _target_names(target, bound)
        elif isinstance(node, (ast.AugAssign, ast.For)):
            _target_names(node.target, bound)
        elif isinstance(node, (ast.VarDecl, ast.Handler)) and node.name:
            bound.add(node.name)
        elif isinstance(node, ast.Import):
            if node.from_import:
                bound.update(local for _, local in node.names)
            else:
                bound.add((node.alias or node.module).split(".")[0])
        # A `with ... as` target, once the syntax has one.
        with_target = getattr(node, "target", None) if type(node).__name__ == "With" else None
        if isinstance(with_target, ast.Expr):
            _target_names(with_target, bound)
        stack.extend(ast.children(node))
    return bound, declared


def _target_names(target: ast.Node, out: set[str]) -> None:
    if isinstance(target, ast.Name):
        out.add(target.id)
    elif isinstance(target, (ast.TupleExpr, ast.ListExpr)):
        for elt in target.elts:
            _target_names(elt, out)


class ModuleVariables:
    """The checker's collaborator for module-level variables (`FunctionChecker.globals`)."""

    def __init__(self, chk: FunctionChecker) -> None:
        self.chk: FunctionChecker = chk
        self.script: bool = is_script(chk.fn.decl)
        self.declared_global: dict[str, Span] = {}
        self.bound: set[str] = set()  # what this function binds (local to it, as in Python)

    def declare_script_variable(self, var: LocalVar) -> None:
        """In the script, a variable it binds is the module's (hidden temporaries excepted)."""
        if not self.script or not var.name.isidentifier():
            return
        module = self.chk.module
        taken = module.globals.get(var.name)
        var.global_symbol = f"pyx.global.{module.name}.{var.name}" if taken is None \
            else f"pyx.global.{module.name}.{var.name}.{var.id}"
        if taken is None:
            module.globals[var.name] = var

    def bind_aliases(self) -> None:
        """Before a function's parameters: the module-level variables its body may mean."""
        if self.script:
            return
        bound, self.declared_global = bound_names(self.chk.fn.decl.body)
        self.bound = bound
        module = self.chk.module
        for name, span in self.declared_global.items():
            if name not in module.globals:
                self.chk.msg.error("E0101", span, (Note(f"`global {name}` names a module-level variable: assign "
                                                        f"`{name}` at the top of the module first (its first "
                                                        f"assignment gives its type)"),), name=name)
        for name, var in module.globals.items():
            if name in bound and name not in self.declared_global:
                continue  # local to this function, as in Python
            self.chk.next_id += 1
            alias = LocalVar(name, var.type, var.span, id=self.chk.next_id, owned=False,
                             global_symbol=var.global_symbol)
            self.chk.scopes.declare(name, alias)
            if var.pending_origin is not None and var.type == T.ERROR:  # `moves = []` the script left untyped
                self.chk.empties.pending_alias(alias, var.pending_origin)
            if self.chk.assigned is not None:
                self.chk.assigned.add(alias)

    def stmt_Global(self, s: ast.Global) -> None:
        """`global x`: its effect is on the whole function (bind_aliases); in the script it changes nothing."""
        return None

    def stmt_MainGuard(self, s: ast.MainGuard) -> TStmt | None:
        """`if __name__ == "__main__":` in the script: its body in the main module, its `else:` in an
        imported one; in the scope of the script, so what it binds is module-level."""
        if not self.script:
            self.chk.msg.error("E0007", s.span, construct='`if __name__ == "__main__":` inside a function')
            return None
        flag = LocalVar('__name__ == "__main__"', T.BOOL, s.span, owned=False,
                        global_symbol=main_module_flag(self.chk.module.name))
        return TIf(s.span, TLocal(s.span, T.BOOL, flag), self.chk.block(s.body), self.chk.block(s.orelse))

    def explain_unknown(self, name: str) -> Note | None:
        """Why a module-level variable's name is not defined here, if that is what it is."""
        if self.script:
            return None
        if name in self.chk.module.globals and name in self.bound:
            return Note(f"`{name}` is assigned in this function, so here it is a local variable read before "
                        f"its assignment (CPython's UnboundLocalError); write `global {name}` at the top of the "
                        f"function to mean the module-level `{name}`")
        later = self.assigned_later(name)
        if later is not None:
            return Note(f"`{name}` is a module-level variable, but the script calls this function before "
                        f"assigning it (CPython's NameError); assign it before that call", later)
        return None

    def assigned_later(self, name: str) -> Span | None:
        """Where the script binds `name`, when it is a module-level variable not declared yet (a
        function checked before the script got there)."""
        if self.chk.module.globals.get(name) is not None:
            return None
        script = next((d for d in self.chk.module.functions.values() if is_script(d)), None)
        if script is None:
            return None
        bound, _ = bound_names(script.body)
        if name not in bound:
            return None
        return next((n.span for n in _walk(script.body) if _binds(n, name)), None)


def _walk(body: tuple[ast.Stmt, ...]):
    stack: list[ast.Node] = list(reversed(body))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, ast.FnDef):
            stack.extend(reversed(list(ast.children(node))))


def _binds(node: ast.Node, name: str) -> bool:
    names: set[str] = set()
    if isinstance(node, ast.Assign):
        for target in node.targets:
            _target_names(target, names)
    elif isinstance(node, (ast.AugAssign, ast.For)):
        _target_names(node.target, names)
    elif isinstance(node, ast.VarDecl):
        names.add(node.name)
    return name in names
