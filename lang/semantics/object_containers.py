"""Lists and dicts inside objects, shared as Python shares them (docs/semantics.md, "Objects").

An object's attribute lives in the object's heap block; pyx reads it in place (classes.py). Three
Python shapes give the attribute's list or dict itself another name, where pyx would copy:

- `last = frames[-1].rolls`: Python's `last` is the object's own list, pyx's a copy (E0263). The
  two cannot be told apart while nothing changes that list in place during the copy's life. So
  the binding of a plain local name is accepted (`deferred`, `tracked`) when
  - the local is never changed in place: the sharing checker records it as a copy of the
    attribute and reports a change of it as E0229, as for `b = a` of a list;
  - the local (or a copy of it) is not stored into a container, a field or an object, nor
    returned, nor changed by a nested function, where the copy could be changed later by another
    name (E0263 at the end of the function, `judge`);
  - no function of the program changes an attribute of that name in place (`o.rolls.append(x)`,
    `o.rolls[i] = v`, `o.rolls += [...]`, passing `o.rolls` to a function that changes it), of
    any class: `changed` records each such change as the checker lends the object (classes.py
    `lend`), and `report` refuses the binding (E0263, with a note at the change) once every
    function has been checked (`attribute_types.check_with_attribute_types`).
  `print(o.items, f())` holds `o.items` until printed (semantics/print_order.py): judged by the
  last rule alone (`printed`).
- `o.items = xs` of a local list (`stored`): Python's `xs` is the attribute from then on. A change
  of `xs` is E0231 (sharing.py); a read of `xs` after something that may change the attribute (a
  change in place here, or a call of the program's code) is E0353 where the program changes an
  attribute of that name in place.
- `make_change(amount, self.bank)` of a top-level `def` that changes its parameter in place
  (implicit `mut`, semantics/implicit_mut.py), or of a library function (`heappush(self.heap, x)`):
  Python's function changes the object's own dict. The call is checked with the object lent
  (classes.py `lend`, as `self.bank.clear()` is), so the attribute is passed as a field of a
  variable (`calls.field_place`), changed by the callee and stored back (`passed_attribute`).
  While it is lent the object's block holds the attribute's old bits, so nothing the callee can
  reach may lead to the same object: no other argument, no module-level variable and no item of
  the attribute itself may hold an object of that class (or a class derived from it or that it
  derives from), and the callee is a top-level function (E0351 otherwise). The other arguments
  that run code are computed first; one written after the attribute that runs the program's code,
  which Python runs after reading the attribute, is E0352; two such attributes in one call, or
  one passed to a method, stay E0317.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ..diagnostics import Note
from ..source import Span
from ..syntax import ast
from ..types import ERROR, PtrType, StructType, Type
from .typed import LocalVar, TConst, TExpr, TField

if TYPE_CHECKING:
    from .check import FunctionChecker


@dataclass
class _Binding:
    """`last = o.rolls`, a local bound to a list or dict inside an object, judged at the end."""

    var: LocalVar
    span: Span  # the attribute expression
    attr: str  # the object's attribute it reads
    type: Type
    tracked: bool = False  # the sharing checker follows the local's changes (sharing.copied)
    shown: str = ""  # who would see a change in Python (the local's name, or `print`)
    loops: tuple = ()  # the loops around it (`stored`)


def _program(chk: FunctionChecker):
    """The record of one check of the whole program (attribute_types.AttributeTypes), or None."""
    return getattr(chk.module, "attribute_types", None)


def attribute_read(e: TExpr) -> str | None:
    """The object's attribute that `e` reads, itself or inside it (`o.rolls`, `o.grid[0]`,
    `o.pos.items`: `rolls`, `grid`, `pos`), or None if it reads none."""
    from .classes import is_class, through_object
    from .typed import TCall

    while True:
        if isinstance(e, TField) and through_object(e):
            while isinstance(e.base, TField):
                e = e.base
            data = e.base.type
            return data.fields[e.index][0] if isinstance(data, StructType) else None
        if isinstance(e, TField):
            e = e.base
        elif isinstance(e, TCall) and e.args and e.callee.decl.name == "__getitem__" \
                and not is_class(e.args[0].type):
            e = e.args[0]
        else:
            return None


def changed(chk: FunctionChecker, attr: str, span: Span) -> None:
    """An attribute named `attr` of some object is changed in place at `span`."""
    program = _program(chk)
    if program is not None:
        program.changed.setdefault(attr, span)
        chk.sharing.sharing_state().setdefault("attribute_changes", []).append(span)


def _bindings(chk: FunctionChecker) -> list[_Binding]:
    return chk.sharing.sharing_state().setdefault("attribute_bindings", [])


def _binding(chk: FunctionChecker, value: TExpr, var: LocalVar) -> _Binding | None:
    """A binding `deferred` or `tracked` of value to var, made or found (None: not one)."""
    from .classes import reaches_object
    from .sharing import python_shared

    if not (python_shared(value.type) and reaches_object(value)) or _program(chk) is None:
        return None
    for b in _bindings(chk):
        if b.var is var and b.span.start == value.span.start and b.span.end == value.span.end:
            return b
    if not var.name.isidentifier() or var.global_symbol is not None or var.by_ref:
        return None  # (a hidden variable, a module-level one other functions change, a closure's)
    attr = attribute_read(value)
    if attr is None:
        return None
    found = _Binding(var, value.span, attr, value.type)
    _bindings(chk).append(found)
    return found


def printed(chk: FunctionChecker, value: TExpr, var: LocalVar) -> None:
    """`print(o.items, f())`: `o.items` held in `var` until printed (semantics/print_order.py), a
    copy nothing but the printing reads; judged by the attribute's changes in place alone."""
    from .classes import reaches_object
    from .sharing import python_shared

    attr = attribute_read(value) if python_shared(value.type) and reaches_object(value) else None
    if attr is not None and _program(chk) is not None:
        _bindings(chk).append(_Binding(var, value.span, attr, value.type, tracked=True, shown="`print`"))


def deferred(chk: FunctionChecker, value: TExpr, into: LocalVar | None) -> bool:
    """Whether the copy of an object's list or dict bound to `into` is judged later (`judge`)
    instead of refused at once (E0263)."""
    return into is not None and _binding(chk, value, into) is not None


def tracked(chk: FunctionChecker, value_ast: ast.Expr, value: TExpr, var: LocalVar) -> bool:
    """`var = value` binds a plain local Python-style to an object's list or dict: the sharing
    checker follows var as a copy of it (E0229 for a change). True if so (nothing else to note)."""
    found = _binding(chk, value, var)
    if found is None:
        return False
    if not found.tracked:
        found.tracked = True
        text = value_ast.span.file.text[value_ast.span.start:value_ast.span.end]
        chk.sharing.follow_copy(value_ast.span, var, text)
    return True


def stored(chk: FunctionChecker, value: TExpr, attr: str, span: Span) -> None:
    """`o.items = xs` of a local list: Python's `o.items` is `xs` itself from here on. A change of
    `xs` is E0231 (sharing.py, a stored copy); a change of the attribute shows in Python's `xs`, so
    a read of `xs` after something that may change it (a change in place of an attribute here, or a
    call of the program's code) waits for the end of the check (E0353 where the program changes an
    attribute of that name in place)."""
    from .sharing import python_shared
    from .typed import TLocal

    if isinstance(value, TLocal) and python_shared(value.type) and value.var.name.isidentifier() \
            and value.var.global_symbol is None and _program(chk) is not None:
        chk.sharing.sharing_state().setdefault("attribute_stores", []).append(
            _Binding(value.var, span, attr, value.type, tracked=True, loops=tuple(chk.loops)))


def _store_read_later(chk: FunctionChecker, store: _Binding, state: dict) -> Span | None:
    """A read of the stored local that may run after the store with a possible change of the
    attribute in between (a change in place here, or a call of the program's code), or None."""
    from .imports import is_stdlib_file

    changes = list(state.get("attribute_changes", ())) + [
        span for inst, span in chk.fn.callees if not is_stdlib_file(inst.decl.span.file.name)]
    read = chk.sharing.read_after(store.var, store.span, store.loops)
    if read is None:
        return None
    if read.start > store.span.end:
        between = any(store.span.end <= c.start < read.start for c in changes)
    else:  # (read again in the loop around the store: anything in that loop may run in between)
        between = bool(changes)
    return read if between else None


def returned(chk: FunctionChecker, root: LocalVar | None, span: Span) -> None:
    """`return root` (or an item of it): a local bound to an object's list may not leave."""
    if root is not None:
        chk.sharing.sharing_state().setdefault("returned_roots", []).append((root, span))


def judge(chk: FunctionChecker) -> None:
    """At the end of the function: each binding the sharing checker did not follow (`var x =
    o.items`), or whose local went on to a place where it could change unseen, is E0263; the others
    wait for the end of the check (`report`)."""
    from .shared_holders import changed_in_nested

    state = chk.sharing.sharing_state()
    for b in _bindings(chk):
        where = None if b.tracked else b.span
        if where is None:
            where = _escape(state, b.var) or changed_in_nested(chk.fn.decl.body, b.var.name)
        if where is not None:
            source = b.span.file.text[b.span.start:b.span.end]
            notes = (Note(f"`{b.var.name}` goes on (or is changed) here, where a change of it would not show "
                          f"in `{source}`", where),) if where is not b.span else ()
            chk.msg.error("E0263", b.span, notes, source=source, type=b.type)
            continue
        program = _program(chk)
        if program is not None and all(c.span != b.span for c in program.copies):
            program.copies.append(b)
    for store in state.get("attribute_stores", ()):
        read = _store_read_later(chk, store, state)
        program = _program(chk)
        if read is not None and program is not None and all(c.span != store.span for c, _ in program.stores):
            program.stores.append((store, read))


def _escape(state: dict, var: LocalVar) -> Span | None:
    """Where var, or a variable bound to a copy of it, is stored, kept by an object or returned."""
    names = {var}
    grew = True
    while grew:
        grew = False
        for c in state["copies"]:
            if c.root in names and c.copy is not None and c.copy not in names and c.holder is None:
                names.add(c.copy)
                grew = True
    for c in state["copies"]:
        if c.root in names and (c.copy is None or c.holder is not None):
            return c.span
    return next((span for root, span in state.get("returned_roots", ()) if root in names), None)


def report(program, diags) -> None:
    """At the end of the check: a binding of an attribute some function changes in place."""
    for b in program.copies:
        change = program.changed.get(b.attr)
        if change is None:
            continue
        source = b.span.file.text[b.span.start:b.span.end]
        shown = b.shown or f"`{b.var.name}`"
        diags.error("E0263", b.span, (Note(f"an attribute `{b.attr}` is changed in place here, which Python's "
                                           f"{shown} would show and pyx's copy would not", change),),
                    source=source, type=b.type)


    for store, read in program.stores:
        change = program.changed.get(store.attr)
        if change is not None:
            target = store.span.file.text[store.span.start:store.span.end].split("=")[0].strip()
            diags.error("E0353", store.span, (Note(f"an attribute `{store.attr}` is changed in place here", change),
                                              Note(f"`{store.var.name}` is read here", read)),
                        name=store.var.name, target=target)


# ---- an attribute passed to a function that changes it ----

def _reaches(chk: FunctionChecker, t: Type, cls: StructType) -> bool:
    """Whether a value of type t may lead to an object of class `cls` (or a class related to it):
    t is such a class, or holds one in a field, an item or an attribute at any depth. A function,
    a closure or a generator may hold anything."""
    from ..types import FunctionType
    from .classes import data_type, is_class, related
    from .function_values import CellType, FnValueType
    from .generators import GeneratorType

    stack, seen = [t], set()
    while stack:
        t = stack.pop()
        if isinstance(t, PtrType):
            stack.append(t.pointee)
            continue
        if not isinstance(t, StructType) or t in seen:
            continue
        seen.add(t)
        if isinstance(t, (FunctionType, FnValueType, GeneratorType, CellType)):
            return True
        if is_class(t):
            if t == cls or related(chk, t, cls):
                return True
            data = data_type(chk, t)
            if data is None:
                return True
            stack.extend(ft for _, ft in data.fields)
            continue
        stack.extend(ft for _, ft in t.fields)
        stack.extend(v for v in t.ct_env.values() if isinstance(v, Type))
    return False


def _modules(chk: FunctionChecker) -> list:
    """This module and every module it imports, at any depth."""
    out: list = []
    stack = [chk.module]
    while stack:
        m = stack.pop()
        if any(m is o for o in out):
            continue
        out.append(m)
        stack.extend(m.px_modules.values())
    return out


def _other_path(chk: FunctionChecker, decl: ast.FnDef, param_types, k: int, cls: StructType) -> str | None:
    """How the callee could reach the lent object other than through its argument k, or None."""
    modules = _modules(chk)
    if not any(f is decl for m in modules for f in m.functions.values()):
        return f"`{decl.name}` is a nested function, whose variables could hold it"
    for i, (p, t) in enumerate(zip(decl.params, param_types, strict=False)):
        if i != k and _reaches(chk, t, cls):
            return f"its argument `{p.name}` could hold the object itself"
    if _reaches(chk, param_types[k], cls):
        return f"the items of `{decl.params[k].name}` could hold the object itself"
    for m in modules:
        for name, var in m.globals.items():
            if _reaches(chk, var.type, cls):
                return f"the module-level variable `{name}` could hold the object itself"
    return None


def passed_attribute(chk: FunctionChecker, decl: ast.FnDef, e: ast.Call) -> TExpr | None:
    """`f(x, self.bank)` of a top-level `def` whose parameter changes in place: the call made with
    the object lent (this module's docstring); None where no argument is such an attribute."""
    from .classes import lend, named_first, reroot, split
    from .generators import is_generator
    from .imports import is_stdlib_file
    from .print_order import runs_user_code

    if not (decl.kind == "def" or is_stdlib_file(decl.span.file.name)) or decl.self_convention is not None \
            or is_generator(decl) or decl.variadic is not None:
        return None  # (a program's `fn` says `mut` itself: E0114 as before)
    params = decl.params
    by_name = {p.name: i for i, p in enumerate(params)}
    slots = [(i, a) for i, a in enumerate(e.args[:len(params)])] + \
        [(by_name[kw.name], kw.value) for kw in e.keywords if kw.name in by_name]
    picked = [(i, a) for i, a in slots if params[i].convention == "mut" and isinstance(a, ast.Attribute)]
    found = [(i, a, s) for i, a in picked if (s := split(chk, a)) is not None]
    if not found:
        return None
    k, node, (handle, rest, _) = found[0]
    if handle.type == ERROR:
        return handle
    name = params[k].name
    source = node.span.file.text[node.span.start:node.span.end]
    if len(found) > 1:
        chk.msg.error("E0317", found[1][1].span, func=decl.name, name=params[found[1][0]].name,
                      source=found[1][1].span.file.text[found[1][1].span.start:found[1][1].span.end])
        return TConst(e.span, ERROR, None)
    prelude: list = []

    def first(a: ast.Expr) -> ast.Expr | None:
        """a, or a name for its value computed before the object is lent (E0352 where that would
        run the program's code Python runs after reading the attribute)."""
        if a is node:
            return a
        mark = len(prelude)
        named = named_first(chk, a, prelude)
        if named is not None and a.span.start > node.span.end and any(runs_user_code(s) for s in prelude[mark:]):
            chk.msg.error("E0352", node.span, func=decl.name, name=name, source=source)
            return None
        return named

    args = []
    for a in e.args:
        named = first(a)
        if named is None:
            return TConst(a.span, ERROR, None)
        args.append(named)
    keywords = []
    for kw in e.keywords:
        named = first(kw.value)
        if named is None:
            return TConst(kw.span, ERROR, None)
        keywords.append(replace(kw, value=named))
    calls_before = len(chk.fn.callees)

    def use(slot: str) -> TExpr:
        moved = reroot(slot, rest, node.span)
        call = replace(e, args=tuple(moved if a is node else a for a in args),
                       keywords=tuple(replace(kw, value=moved) if kw.value is node else kw for kw in keywords))
        value = chk.exprs.expr(call)
        if value.type == ERROR:
            return value
        instance = next((inst for inst, _ in chk.fn.callees[calls_before:] if inst.decl is decl), None)
        why = _other_path(chk, decl, instance.param_types, k, handle.type) if instance is not None else None
        if why is not None:
            chk.msg.error("E0351", node.span, source=source, func=decl.name, name=name, why=why)
            return TConst(e.span, ERROR, None)
        return value

    lent = lend(chk, handle, e.span, use, rest[0][0])
    if not prelude or lent.type == ERROR:
        return lent
    from .typed import TStmtExpr

    return TStmtExpr(e.span, lent.type, prelude, lent)
