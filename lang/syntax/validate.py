"""Checks on the shape of a parsed module: what may appear at top level, and how deep."""
from __future__ import annotations

from ..diagnostics import DiagnosticBag, Note
from ..script import SCRIPT
from ..source import Span
from . import ast

# The passes after parsing recurse over the tree; at this depth they need up to ~10,000 Python
# frames, which deep.run_deep gives them (on a thread with a large stack).
MAX_NESTING = 1000


def check_module_shape(module: ast.Module, diags: DiagnosticBag) -> bool:
    """Nesting depth (E0003), and the module's statements sorted: declarations stay, the rest (a
    script's statements, the `if __name__ == "__main__":` guard) become the body of one function,
    `SCRIPT` (semantics/globals.py), placed first. False when the tree is too deep for the later
    passes and must go no further."""
    if not _check_depth(module, diags):
        return False
    body: list[ast.Stmt] = []
    script: list[ast.Stmt] = []
    for stmt in module.body:
        if _is_declaration(stmt):
            body.append(stmt)
        elif isinstance(stmt, ast.ExprStmt) and isinstance(stmt.expr, ast.StrLit) and not body and not script:
            continue  # the module's docstring
        elif isinstance(stmt, ast.If) and _is_main_guard(stmt.test):
            script.append(ast.MainGuard(stmt.span, stmt.body, stmt.orelse))
        elif isinstance(stmt, (ast.Return, ast.Nonlocal)):
            diags.error("E0006", stmt.span, construct="`return`" if isinstance(stmt, ast.Return) else "`nonlocal`")
        else:
            script.append(stmt)
    if len(script) == 1 and _calls_main_only(script[0]):
        # `if __name__ == "__main__": main()`, the common subset's ending: `fn main()` is the entry, as in a
        # module with no guard (pyx's own convention), so such a program has no script function.
        body.append(ast.MainGuard(script[0].span))
    elif script:
        _check_main_runs(body, script, diags)
        first = script[0].span
        # Its span runs from the first statement to the last (what its diagnostics lie within).
        whole = Span(first.file, first.start, max(s.span.end for s in script))
        body.insert(0, ast.FnDef(whole, "def", SCRIPT, first, (), (), False, None, tuple(script)))
    object.__setattr__(module, "body", tuple(body))
    return True




def _check_main_runs(declarations: list[ast.Stmt], script: list[ast.Stmt], diags: DiagnosticBag) -> None:
    """E0020: an `fn main` in a module that runs as a script, where nothing calls it. Mojo runs `fn main`
    as the entry; here the script runs instead, so `main` would silently never run. (A `def main()` nothing
    calls is Python's business: CPython does not run it either.)"""
    main = next((d for d in declarations if isinstance(d, ast.FnDef) and d.name == "main"), None)
    if main is not None and main.kind == "fn" and not ast.mentions(declarations + script, "main"):
        diags.error("E0020", main.name_span)


def _is_declaration(stmt: ast.Stmt) -> bool:
    # By name as well: declarations added later (a `class`) are declarations too.
    return (isinstance(stmt, (ast.FnDef, ast.Comptime, ast.Pass, ast.StructDef, ast.Import, ast.TraitDef))
            or type(stmt).__name__.endswith("Def"))


def _calls_main_only(stmt: ast.Stmt) -> bool:
    return (isinstance(stmt, ast.MainGuard) and not stmt.orelse and len(stmt.body) == 1
            and isinstance(stmt.body[0], ast.ExprStmt) and isinstance(stmt.body[0].expr, ast.Call)
            and isinstance(stmt.body[0].expr.func, ast.Name) and stmt.body[0].expr.func.id == "main"
            and not stmt.body[0].expr.args and not stmt.body[0].expr.keywords)


def _is_main_guard(test: ast.Expr) -> bool:
    return (isinstance(test, ast.Compare) and isinstance(test.left, ast.Name)
            and test.left.id == "__name__" and test.ops == ("==",)
            and isinstance(test.comparators[0], ast.StrLit) and test.comparators[0].value == "__main__")


def _check_depth(module: ast.Module, diags: DiagnosticBag) -> bool:
    """False (after an E0003) when the tree is deeper than MAX_NESTING: the passes after this one
    recurse over it, so such a tree must not reach them."""
    # Explicit stack: the tree may be as deep as the user cares to nest it. `elifs` counts the
    # `elif`s on the way down: a chain of them is flat in the source but nested in the tree.
    stack: list[tuple[ast.Node, int, int]] = [(module, 0, 0)]
    while stack:
        node, depth, elifs = stack.pop()
        if depth > MAX_NESTING:
            notes: tuple[Note, ...] = ()
            if elifs > MAX_NESTING // 2:
                # The limit is crossed at an `elif` (the rest of its chain follows) or inside one.
                total = f"{elifs + _chain_length(node)}" if isinstance(node, _IFS) else f"at least {elifs}"
                notes = (Note(f"each `elif` is nested inside the `if` before it, and this chain has {total} of "
                              f"them; split it, e.g. into functions that each test a range of cases"),)
            diags.error("E0003", node.span, notes, limit=MAX_NESTING)
            return False
        chained = node.orelse[0] if isinstance(node, _IFS) and len(node.orelse) == 1 else None
        for child in ast.children(node):
            stack.append((child, depth + 1, elifs + 1 if child is chained and isinstance(child, _IFS) else elifs))
    return True


def _chain_length(node: ast.Node) -> int:
    """How many `elif`s follow this node in its chain (0 for anything but an `if`)."""
    count = 0
    while isinstance(node, _IFS) and len(node.orelse) == 1 and isinstance(node.orelse[0], _IFS):
        node, count = node.orelse[0], count + 1
    return count


_IFS = (ast.If, ast.ComptimeIf)  # an `elif` is an `if` in the `else` of the one before
