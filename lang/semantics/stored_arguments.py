"""A list, dict or set passed to a program's function that stores it (issue 16):
`self.items = items` in `__init__`, `self.children.append(child)`, `registry[k] = xs`.

Python stores the object itself, so the caller's variable and the stored one are one object: a
change through either shows through the other. pyx passes the argument by borrowing and the
store copies it. The two print the same only if the caller never uses its variable again, so
a call that hands such a variable to a function storing it, followed by any use of the
variable (or inside a loop, which hands the same object over again), is E0298: pass
`xs.copy()` (a copy in both languages) or stop using `xs` after the call. A variable bound
afresh before its next use (`xs = []`) holds another object, so that use does not count.

Which parameters a function stores is read from its syntax, so it is known at every call,
before or after the function is checked. The stdlib's containers (`rows.append(row)`) are
judged by semantics/sharing.py instead, which follows their copies through the function.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..diagnostics import Note
from ..source import Span
from ..syntax import ast
from ..syntax.classes import INIT_VAR
from ..syntax.generator_objects import PREFIX as GENERATOR_CLASS
from .imports import is_stdlib_file
from .per_declaration import PerDeclaration
from .sharing import python_shared
from .typed import LocalVar, TCall, TExpr, TLocal

if TYPE_CHECKING:
    from .check import FunctionChecker

# Methods of Python's containers that keep their argument itself (not its items)
_KEEPING_METHODS = {"append": 0, "add": 0, "insert": 1, "appendleft": 0, "setdefault": 1}

_STORED: PerDeclaration[frozenset[str]] = PerDeclaration()


def stored_params(decl: ast.FnDef) -> frozenset[str]:
    """The parameters `decl` may store as they are: assigned to an attribute or an item, or kept
    by a container's `append`/`add`/`insert`/`setdefault` (by the syntax; nested functions are
    their own)."""
    found = _STORED.get(decl)
    if found is not None:
        return found
    params = {p.name for p in decl.params if p.name != "self"}
    names: set[str] = set()
    stack: list[ast.Node] = list(decl.body)
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.FnDef, ast.Lambda)):
            continue
        if isinstance(n, ast.Assign) and isinstance(n.value, ast.Name) and n.value.id in params \
                and any(isinstance(t, (ast.Attribute, ast.Subscript)) for t in n.targets):
            names.add(n.value.id)
        if isinstance(n, ast.VarDecl) and n.name.startswith(INIT_VAR) and isinstance(n.value, ast.Name) \
                and n.value.id in params:
            names.add(n.value.id)  # a class's `self.xs = xs`, as syntax/classes.py spells it in `__init__`
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in _KEEPING_METHODS:
            at = _KEEPING_METHODS[n.func.attr]
            kept = n.args[at] if at < len(n.args) else None
            if isinstance(kept, ast.Name) and kept.id in params:
                names.add(kept.id)
        stack.extend(ast.children(n))
    return _STORED.put(decl, frozenset(names))


def check_stored_arguments(chk: FunctionChecker, decl: ast.FnDef, params, bound: list[TExpr], span: Span,
                           owner=None) -> bool:
    """E0298 for a variable passed to a parameter `decl` stores and used again after the call.
    False if reported."""
    if is_stdlib_file(decl.span.file.name):
        return True
    stored = stored_params(decl)
    if not stored:
        return True
    for p, b in zip(params, bound, strict=False):
        if p.name not in stored or not python_shared(b.type):
            continue
        shown = str(owner) if decl.name == "__init__" and owner is not None else decl.name  # `C(xs)`: C
        why = _kept_by_object(chk, decl, p.name, b, span, shown, owner)
        if why is True:
            continue  # `obj = C(xs)` whose copy nothing tells from Python's shared object (shared_holders.py)
        notes = (why,) if why is not None else ()
        if not shown.startswith(GENERATOR_CLASS):  # (a generator object's own arguments: E0298 only)
            _held_only_here(chk, b, shown, p.name, notes)  # reported, and the call checked on (its type is right)
        if not isinstance(b, TLocal):
            continue
        var = b.var
        if not isinstance(var, LocalVar) or var.name.startswith("$"):
            continue
        used = _used_after(chk, var.name, span)
        if used is not None:
            chk.msg.error("E0298", used, name=var.name, func=shown, param=p.name, notes=(_note(span), *notes))
            return False
    return True


def _kept_by_object(chk: FunctionChecker, decl: ast.FnDef, param: str, arg: TExpr, span: Span, func: str,
                    owner) -> bool | Note | None:
    """True where `C(arg)` makes an object whose kept copy of `arg` behaves as Python's shared one
    (semantics/shared_holders.py: remembered for the checks of later changes); else the note saying
    why not, or None."""
    from .classes import is_class
    from .shared_holders import Holder, accept

    if decl.name != "__init__" or owner is None or not is_class(owner) or func.startswith(GENERATOR_CLASS):
        return None
    sym = chk.structs.struct_of(owner)
    found = accept(chk, decl, param, arg, span, func, sym) if sym is not None else None
    if isinstance(found, Holder):
        chk.sharing.held(found)
        return True
    return found


def _held_only_here(chk: FunctionChecker, arg: TExpr, func: str, param: str, notes: tuple = ()) -> bool:
    """Whether the object `arg` names is this function's own, so that the callee's copy of it is the
    only one the program goes on using (E0298 checks the uses after the call). Not so, and E0190 or
    E0263 reported, for an argument the function borrows from its caller (`def f(xs): Box(xs)`: the
    caller still holds `xs`), a module-level variable, an element of a container (`Box(rows[0])`) or
    an attribute of an object (`Box(h.data)`, E0263): Python's stored object is also theirs."""
    from ..syntax.mutable_defaults import PREFIX as DEFAULT_PREFIX
    from .classes import shared_attribute_copied

    if isinstance(arg, TLocal):
        var = arg.var
        if not isinstance(var, LocalVar) or var.name.startswith("$"):
            return True
        if var.global_symbol is not None and var.name.startswith(DEFAULT_PREFIX):
            holder = f"every call that leaves `{param}` out also"  # a shared default (syntax/mutable_defaults.py)
        elif var.global_symbol is not None:
            holder = f"the module-level `{var.name}` also"
        elif var.is_param and not var.owned:
            holder = f"`{chk.fn.decl.name}`'s caller also"
        else:
            return True
    elif shared_attribute_copied(chk, arg):
        return False
    elif _element_of_container(arg):
        holder = "the container it was read from also"
    else:
        return True
    source = arg.span.file.text[arg.span.start:arg.span.end]
    chk.msg.error("E0190", arg.span, notes, source=source, func=func, param=param, holder=holder)
    return False


def _element_of_container(e: TExpr) -> bool:
    """`rows[0]`, `table[k][1]`: an item read out of a list or dict (the container still holds it)."""
    return isinstance(e, TCall) and bool(e.args) and e.callee.decl.name == "__getitem__" \
        and python_shared(e.args[0].type)


def _note(span: Span):
    from ..diagnostics import Note

    return Note("passed here, where Python hands over the object itself", span)


def _used_after(chk: FunctionChecker, name: str, call: Span) -> Span | None:
    """Where `name` is used after the call at `call` (or anywhere in a loop around the call, which
    runs again), unless it is bound afresh first."""
    body = list(chk.fn.decl.body)
    loop_body = chk.loops[0].body if chk.loops else None
    mentions = sorted(_mentions(body, name), key=lambda m: m[0].start)
    if loop_body and not _bound_first(loop_body, name, call):
        # The next iteration runs the loop again on the same variable: it uses it before the
        # call, or hands the same object over a second time (two stores of one list, in Python).
        inside = [m for stmt in loop_body for m in _mentions([stmt], name)]
        for where, _ in sorted(inside, key=lambda m: m[0].start):
            if not (call.start <= where.start < call.end):
                return where
        return call
    for where, rebinding in mentions:
        if where.start < call.end:
            continue
        return None if rebinding else where
    return None


def _bound_first(stmts: list, name: str, call: Span) -> bool:
    """Whether a statement at the top of a loop body binds `name` afresh (`parts = line.split()`)
    before the statement holding the call: each iteration then passes a new object. Where the call
    is in an `if`'s block, a binding at the top of that block counts too (`else: pair = rolls[i:i + 2]`
    ... `Frame(pair)`) when the loop mentions `name` nowhere outside it."""
    for stmt in stmts:
        if stmt.span.start <= call.start < _end(stmt):
            if not isinstance(stmt, ast.If):
                return False
            block = next((b for b in (stmt.body, stmt.orelse) if b and b[0].span.start <= call.start < _end(b[-1])),
                         None)
            if block is None or not _bound_first(list(block), name, call):
                return False
            inside = (block[0].span.start, _end(block[-1]))
            return all(inside[0] <= where.start < inside[1] for where, _ in _mentions(list(stmts), name))
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
                and stmt.targets[0].id == name and not ast.mentions([stmt.value], name):
            return True
    return False


def _end(stmt: ast.Stmt) -> int:
    """Where a statement's text ends, its blocks included (an `elif`'s span ends with its own block)."""
    while isinstance(stmt, ast.If) and (stmt.orelse or stmt.body):
        stmt = (stmt.orelse or stmt.body)[-1]
    return stmt.span.end


def _mentions(stmts: list, name: str) -> list[tuple[Span, bool]]:
    """Each place `name` appears in `stmts` (nested functions included: they may read it), with
    whether it is the target of a plain `name = value` whose value does not mention it."""
    out: list[tuple[Span, bool]] = []
    stack: list[ast.Node] = list(stmts)
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) \
                and n.targets[0].id == name and not ast.mentions([n.value], name):
            out.append((n.targets[0].span, True))
            stack.append(n.value)
            continue
        if isinstance(n, ast.Name) and n.id == name:
            out.append((n.span, False))
        stack.extend(ast.children(n))
    return out
