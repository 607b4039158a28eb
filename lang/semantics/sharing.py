"""Where Python would share one object and pyx holds two values (docs/semantics.md).

Python passes, binds and stores lists, dicts and objects by reference; pyx passes arguments by
borrowing and binds and stores values by copying them (Mojo's value semantics). The two print the
same as long as no value is changed in place while another name holds what Python would see as
the same object. SharingChecker finds the changes in place where they would not, and rejects them:

- a borrowed argument (the default convention: the function sees the caller's value but does not
  own it) changed in place. Beyond the difference from Python (the caller's list would change),
  the callee would be changing the caller's memory behind its back: `xs.append(9)` reallocated
  the caller's buffer and the caller then freed it a second time. Reassigning the argument is
  fine (Python rebinds too), and `s += t` on a borrowed `String` rebinds it, as Python's str does
  (E0228);
- a variable that holds a copy Python would share, changed in place after the copy was made: the
  copy side (`v = nested[0]` or `b = a` of a list or dict, written without `var`, then
  `v.append(1)`; a `for` loop variable over structs or containers, which Mojo and Python both
  bind to the element itself) (E0229), or the original side (`b = a`, `grid.append(row)`, then
  `a.append(1)` / `row.append(1)`, while the copy is still read) (E0231);
- the container a `for` loop iterates over, changed in place inside the loop body (the iterator
  holds the container's memory, which the change may reallocate) (E0230);
- an element changed in place through either side of a `.copy()` of a list of lists (Python's
  copy shares the inner lists, pyx's copies them) (E0233);
- a list a call's earlier argument names, changed by a later argument (E0234).
- a list stored into a container (`g.append(a)`), then an element of a container that can hold it
  changed in place (`g[0].append(2)`), then the list read again (E0354).

"After the copy" is decided by source position, or by both sites being in one loop (the next
iteration runs the change after the copy) unless the variable is bound afresh at the top of the
loop body first. Copies written explicitly (`var v = x`, `x.copy()`) are the program's stated
intent and are not tracked (except for the shallow `.copy()` above).

Elements are changed in place (`xs[i].append(v)`, `g[i][j] = v`, `bs[i].vx = v`) by lending
them (`lend`, TLend): the container's `__refitem__` gives the element's address, the change works
on a slot holding its bits, which go back afterwards; the container itself may not change
meanwhile (E0232).
"""
from __future__ import annotations

from dataclasses import dataclass, fields, is_dataclass, replace
from typing import TYPE_CHECKING

from .. import types as T
from ..diagnostics import Note
from ..source import Span
from ..syntax import ast
from ..types import ERROR, PtrType, StructType, Type
from .builtin_types import is_builtin
from .classes import is_class
from .dict_views import is_iterator, is_view, passed_on, viewed_sources
from .imports import is_stdlib_file, is_string
from .per_declaration import PerDeclaration
from .slicing import is_slicing
from .typed import LocalVar, TCall, TConst, TExpr, TField, TIfExp, TLend, TLocal, TRef, TStmtExpr

if TYPE_CHECKING:
    from .check import FunctionChecker
    from .expressions import ExpressionChecker
    from .messages import MessageBuilder


def python_shared(t: Type) -> bool:
    """Types whose Python spelling (list, dict, set, bytearray, collections.deque, Counter) is a mutable object
    shared by every name bound to it. (A defaultdict's copies share one table: stdlib/_collections.px.)"""
    return is_builtin(t, "List") or is_builtin(t, "Dict") or is_builtin(t, "deque") \
        or is_builtin(t, "Counter") or is_builtin(t, "Set") or is_builtin(t, "OrderedDict") \
        or is_builtin(t, "ByteArray")


def _shared_kind(t: Type) -> str:
    return "dict" if is_builtin(t, "Dict") else "list" if is_builtin(t, "List") else "object"


def repeats_shared_items(chk, left: TExpr, right: TExpr, span) -> bool:
    """`[[0] * 3] * 3`: `*` of a list whose items are lists or dicts repeats, in Python, one item
    object in every place; pyx's copies would differ at the first change (E0247). True if reported."""
    for side in (left, right):
        if is_builtin(side.type, "List"):
            item = side.type.ct_env.get("T")  # (a List's type parameter)
            if python_shared(item):
                chk.msg.error("E0247", span, item=item, kind=_shared_kind(item))
                return True
    return False


def duplicated_shared_item(chk, nodes, items: list[TExpr]) -> bool:
    """`[row, row]` of a list or dict variable: Python's list holds that one object twice, pyx's two
    copies (E0248). True if reported."""
    seen: set[str] = set()
    for node, item in zip(nodes, items, strict=True):
        if isinstance(node, ast.Name) and python_shared(item.type):
            if node.id in seen:
                chk.msg.error("E0248", node.span, name=node.id, kind=_shared_kind(item.type))
                return True
            seen.add(node.id)
    return False


def borrowed_argument(var: LocalVar) -> bool:
    """An argument the function only borrows: its slot holds the caller's value, bit for bit."""
    return var.is_param and not var.owned and not var.by_ref and isinstance(var.type, StructType)


def place_root(e: TExpr) -> LocalVar | None:
    """The variable whose memory a place expression (`v`, `v.a.b`) names."""
    while isinstance(e, TField):
        e = e.base
    return e.var if isinstance(e, TLocal) else None


@dataclass
class _Copy:
    span: Span  # where the copy is made
    loops: tuple  # the loops around it (their Loop objects)
    copy: LocalVar | None  # the variable that holds the copy (None: stored into a container or field)
    root: LocalVar | None  # the variable the copy was taken from (None: not a variable's memory)
    source: str  # the copied expression, as written
    whole: bool  # a copy of the variable or one of its fields (False: of an element)
    loop_variable: bool = False  # a `for` loop's variable, a copy of each element in turn
    shallow: bool = False  # `b = a.copy()` of a list of lists: Python's copy shares the elements
    view: bool = False  # `k = d.keys()`: Python's view shows the dict's later changes (dict_views.py)
    holder: object = None  # `p = C(xs)` keeping xs as `p.f`: the Holder (semantics/shared_holders.py)


@dataclass
class _Change:
    span: Span
    loops: tuple
    var: LocalVar
    element: bool = False  # one of its elements changed (`xs[i].append(v)`), not the container itself


class SharingChecker:
    """Changes in place where Python would share what pyx copied (this module's docstring).
    Reached as `chk.sharing` from the other checkers."""

    def __init__(self, chk: FunctionChecker) -> None:
        self.chk: FunctionChecker = chk
        self.exprs: ExpressionChecker = chk.exprs
        self.msg: MessageBuilder = chk.msg

    def sharing_state(self) -> dict:
        """What the check of this function instance has seen so far: the copies, the changes in
        place, the containers `for` loops walk and the elements lent (checked at the end)."""
        state = self.__dict__.get("_sharing_state")
        if state is None:
            state = self.__dict__["_sharing_state"] = {"copies": [], "changes": [], "iterating": [], "lent": []}
        return state

    def _source_text(self, span: Span) -> str:
        return span.file.text[span.start:span.end]

    def changed_in_place(self, var: LocalVar, span: Span, element: bool = False) -> bool:
        """`var`'s value is changed in place at `span` (a `mut` method or argument, an item or a
        field stored). Reports a borrowed argument or a loop's own container now; a copy Python
        would share is judged at the end, when every copy is known. False after an error."""
        if borrowed_argument(var) and var is not self.chk.self_var \
                and not _rebound_before(self.chk.fn.decl.body, var.name, span):  # (`self`: E0123's advice)
            rebound = _rebinding(self.chk.fn.decl.body, var.name)
            advice = (Note(f"declare it `mut {var.name}: {var.type}` to change the caller's value, as Python does",
                           var.span) if rebound is None else
                      Note(f"`{self.chk.fn.name}` also assigns `{var.name}` here, which in Python rebinds only its own "
                           f"name: give that value a name of its own, then declare `mut {var.name}: {var.type}` to "
                           "change the caller's value", rebound))
            self.msg.error("E0228", span, (advice,), name=var.name, func=self.chk.fn.name, type=var.type)
            return False
        for root, loop_span in reversed(self.sharing_state()["iterating"]):
            # An item stored or changed in place leaves a List's memory where the loop's iterator
            # reads it (the next items are read as they are then, as CPython's iterator does).
            if root is var and not (element and is_builtin(var.type, "List")):
                self.msg.error("E0230", span, name=var.name, notes=(Note("the loop", loop_span),))
                return False
        for root, element_span in reversed(self.sharing_state()["lent"]):
            if root is var:
                self.msg.error("E0232", span, name=var.name, notes=(Note("the element", element_span),))
                return False
        self.sharing_state()["changes"].append(_Change(span, tuple(self.chk.loops), var, element))
        return True

    # ---- elements changed in place ----
    def element_read(self, e: TExpr) -> bool:
        """Whether `e` reads `container[i]` of a container that can lend its elements (`__refitem__`)."""
        if not (isinstance(e, TCall) and e.callee.decl.name == "__getitem__" and e.callee.owner is not None
                and e.args):
            return False
        sym = self.chk.structs.struct_of(e.callee.owner)
        return sym is not None and "__refitem__" in sym.methods

    def change_mark(self) -> int:
        """Where the changes recorded from now on start (see `lend`'s `since`)."""
        return len(self.sharing_state()["changes"])

    def lend(self, element: TCall, span: Span, use, since: int | None = None) -> TExpr | None:
        """`use(slot)` applied to the element that `element` (a `container[i]` read) names, in
        place: the element is lent to a slot and stored back (TLend). `use` returns an expression
        or a list of statements. None where the container is not a place this function may change
        (a call's result, say): the caller reports its usual error.

        Nothing may change the container itself while its element is lent (its memory could move,
        or an element be taken out twice): not `use`, and not what was checked before the lend
        but runs inside it (the value and indices of `g[i][j] = v`, from `since` on)."""
        container, index = element.args[0], element.args[1:]
        if self.element_read(container):  # `g[i][j]`: lend g[i], then its element j
            return self.lend(container, span, lambda outer: self._lend_at(outer, index, element, span, use), since)
        root = place_root(container)
        if root is None or not (root.mutable or borrowed_argument(root)) \
                or (root is self.chk.self_var and not root.mutable):
            return None
        if not self.changed_in_place(root, span, element=True):
            return TConst(span, ERROR, None)
        state = self.sharing_state()
        if since is not None:
            for change in state["changes"][since:-1]:
                if change.var is root:
                    self.msg.error("E0232", change.span, name=root.name, notes=(Note("the element", span),))
                    return TConst(span, ERROR, None)
        state["lent"].append((root, span))
        try:
            return self._lend_at(container, index, element, span, use)
        finally:
            state["lent"].pop()

    def _lend_at(self, container: TExpr, index: list, element: TCall, span: Span, use) -> TExpr:
        ptr = self.chk.structs.method_call(container, "__refitem__", list(index), span)
        if ptr is None or ptr.type == ERROR:
            return TConst(span, ERROR, None)
        slot = self.chk.new_var("$element", element.type, span)
        slot.owned = False  # the container's: the slot only holds its bits for the change
        if self.chk.assigned is not None:
            self.chk.assigned.add(slot)
        inner = use(TLocal(span, slot.type, slot))
        if isinstance(inner, list):
            return TLend(span, T.NONE, slot, ptr, None, inner)
        if inner is None or inner.type == ERROR:
            return TConst(span, ERROR, None)
        return TLend(span, inner.type, slot, ptr, inner)

    def held(self, holder) -> None:
        """`p = C(xs)` keeps a copy of `xs` inside the new object (semantics/shared_holders.py): `p`
        is a copy of `xs` for the checks of later changes, once the assignment binds it (`copied`)."""
        self.sharing_state().setdefault("holders", []).append(holder)

    def copied(self, value_ast: ast.Expr, value: TExpr, copy: LocalVar, loop_variable: bool = False) -> None:
        """`copy` was bound (Python-style, without `var`) to a copy of `value`, written `value_ast`,
        or is a `for` loop variable over `value_ast`. Remembered when Python would share instead."""
        from . import object_containers
        from .classes import shared_attribute_copied
        from .ownership import is_place

        for holder in self.sharing_state().get("holders", ()):
            if holder.call.start == value_ast.span.start and holder.call.end == value_ast.span.end \
                    and copy.name == holder.holder and not loop_variable:
                self.sharing_state()["copies"].append(_Copy(holder.call, tuple(self.chk.loops), copy, holder.root,
                                                            holder.source, True, holder=holder))
        if not loop_variable and object_containers.tracked(self.chk, value_ast, value, copy):
            return  # `last = frames[-1].rolls`: followed as a copy Python would share (object_containers.py)
        if not loop_variable and not is_place(value) and shared_attribute_copied(self.chk, value):
            return  # (reported)
        if is_view(value.type) and not loop_variable:
            self._view_kept(value_ast, copy)
            return
        if isinstance(value, TStmtExpr) and value.branches and isinstance(value_ast, (ast.IfExp, ast.BoolOp)):
            # `v = a if c else b`, `v = a or b`: v is a or b in Python (expressions.py `owning_branches`,
            # bool_values.py).
            branch_asts = value_ast.values if isinstance(value_ast, ast.BoolOp) else (value_ast.body, value_ast.orelse)
            for branch_ast, branch in zip(branch_asts, value.branches, strict=True):
                self.copied(branch_ast, branch, copy, loop_variable)
            return
        element_type = copy.type if loop_variable else value.type
        if not (python_shared(element_type) or (loop_variable and isinstance(element_type, StructType)
                                                and not is_string(element_type) and not is_class(element_type))):
            return  # (an object is shared as in Python: semantics/classes.py)
        source = None if loop_variable else _shallow_source(value_ast, value.type)
        if source is not None:
            # Python's `copy()` and slices copy the outer list only: both share the elements, pyx's copies them.
            node = attribute_root(source)
            while isinstance(node, ast.Subscript):
                node = attribute_root(node.value)
            root = self.chk.scopes.lookup(node.id) if isinstance(node, ast.Name) else None
            self.sharing_state()["copies"].append(_Copy(value_ast.span, tuple(self.chk.loops), copy,
                                                        root if isinstance(root, LocalVar) else None,
                                                        self._source_text(source.span), False,
                                                        shallow=True))
            return
        picked = None if loop_variable else picked_element(self.chk, value_ast)
        if picked is not None:  # `best = max(rows)`: Python's best is one of rows' own lists
            root, _ = _place_root_name(self.chk, picked)
            self.sharing_state()["copies"].append(_Copy(value_ast.span, tuple(self.chk.loops), copy, root,
                                                        self._source_text(value_ast.span), False))
            return
        if not loop_variable and isinstance(value_ast, ast.Call) and passed_through(value) is not None:
            # `q = quicksort(data)` of a function that may return its argument: Python's q may be data.
            root, whole = self.shared_root(value)
            if root is not None:
                self.sharing_state()["copies"].append(_Copy(value_ast.span, tuple(self.chk.loops), copy, root,
                                                            self._source_text(value_ast.span), whole))
            return
        if not loop_variable and (not isinstance(value_ast, (ast.Name, ast.Attribute, ast.Subscript))
                                  or is_slicing(value_ast)):
            return  # a fresh value (a call's result, a literal, a slice): nobody else holds it
        node, whole = value_ast, not loop_variable
        while isinstance(node, (ast.Attribute, ast.Subscript)):
            whole = whole and isinstance(node, ast.Attribute)
            node = node.value
        root = self.chk.scopes.lookup(node.id) if isinstance(node, ast.Name) else None
        self.sharing_state()["copies"].append(_Copy(value_ast.span, tuple(self.chk.loops), copy,
                                               root if isinstance(root, LocalVar) else None,
                                               self._source_text(value_ast.span), whole, loop_variable))

    def read_after(self, var: LocalVar, span: Span, loops: tuple) -> Span | None:
        """The first read of var that may run after `span`: later in the source, or in one of `loops`
        around it (the next iteration); not one after a statement that binds var afresh on every path."""
        loops = tuple(lp for lp in loops if lp.body)
        for read in _read_spans(self.chk.fn.references, var):
            if span.start <= read.start < span.end or _bound_again(self.chk.fn.decl.body, var.name, read, span):
                continue  # (the statement itself, or a read of another object bound to the name)
            if read.start > span.end or any(lp.body[0].span.start <= read.start < lp.body[-1].span.end for lp in loops):
                return read
        return None

    def follow_copy(self, span: Span, copy: LocalVar, source: str) -> None:
        """`copy` was bound to a copy of `source` (an object's list: semantics/object_containers.py),
        which Python would share: a change of it in place is E0229."""
        self.sharing_state()["copies"].append(_Copy(span, tuple(self.chk.loops), copy, None, source, True))

    def _view_kept(self, value_ast: ast.Expr, copy: LocalVar) -> None:
        """`k = d.keys()`, `m = map(f, xs)`: a view or iterator reading `d` or `xs` kept in a
        variable (E0290 if `d` or `xs` then changes while it is used: dict_views.py)."""
        if not copy.name.isidentifier():
            return  # (a loop's own snapshot: semantics/shared_iteration.py)
        if is_iterator(copy.type):
            self.sharing_state().setdefault("iterators", []).append(copy)
        for source in viewed_sources(value_ast):
            node = attribute_root(source)
            while isinstance(node, ast.Subscript):
                node = attribute_root(node.value)
            root = self.chk.scopes.lookup(node.id) if isinstance(node, ast.Name) else None
            if isinstance(root, LocalVar):
                self.sharing_state()["copies"].append(_Copy(value_ast.span, tuple(self.chk.loops), copy, root,
                                                            self._source_text(value_ast.span), True, view=True))

    def stored_copy(self, value: TExpr) -> None:
        """`value`, a variable's list or dict or an element of one, was copied into a container or
        a field (a `var` argument, a list literal, a store): Python would store the object itself."""
        if isinstance(value, TStmtExpr) and value.branches:  # `grid.append(a if c else b)`
            for branch in value.branches:
                self.stored_copy(branch)
            return
        if not python_shared(value.type):
            return
        root, whole = self.shared_root(value)
        if root is None:
            return
        self.sharing_state()["copies"].append(_Copy(value.span, tuple(self.chk.loops), None, root,
                                               self._source_text(value.span), whole))

    def in_order(self, items: list, evaluate) -> list[TExpr]:
        """A call's arguments, evaluated left to right. Python passes each list or dict itself, so a
        later argument that changes one an earlier argument names shows the change
        (`print(xs, xs.pop())` prints the shorter list); pyx's earlier argument is the value from
        before (and borrows its memory), so that is E0234."""
        named: list[tuple[LocalVar, Span]] = []
        out = []
        for item in items:
            mark = self.change_mark()
            value = evaluate(item)
            for change in self.sharing_state()["changes"][mark:]:
                earlier = next((span for root, span in named if root is change.var), None)
                if earlier is not None:
                    self.msg.error("E0234", change.span, name=change.var.name,
                                   notes=(Note("the earlier argument; compute the later one into a variable first",
                                               earlier),))
                    break
            if python_shared(value.type):
                root, _ = self.shared_root(value)
                if root is not None:
                    named.append((root, value.span))
            out.append(value)
        return out

    def returned(self, value: TExpr, span: Span, value_ast: ast.Expr | None = None) -> None:
        """`return rows[0]` of an argument's list: Python returns the caller's own object, which
        the caller may then change; pyx returns a copy. So that is E0235 (`.copy()` says a copy
        is meant, in both languages). So is `return max(rows)`: one of the argument's items."""
        from . import object_containers
        from .classes import shared_attribute_copied
        from .ownership import is_place

        if self.chk.fn.decl.name in ("max_by_key", "min_by_key") and is_stdlib_file(self.chk.fn.decl.span.file.name):
            return  # an item of the list `max(xs, key=f)` is given: judged where it is called (`picked_element`)
        picked = picked_element(self.chk, value_ast) if value_ast is not None and python_shared(value.type) else None
        root, _ = _place_root_name(self.chk, picked) if picked is not None else (None, False)
        if root is not None and root.is_param and root is not self.chk.self_var \
                and not (not root.by_ref and _rebound_before(self.chk.fn.decl.body, root.name, span)):
            text = self._source_text(value.span)
            self.msg.error("E0235", value.span, name=root.name,
                           notes=(Note(f"write `{text}.copy()` if a copy is meant"),))
            return
        branches = (value.body, value.orelse) if isinstance(value, TIfExp) else \
            value.branches if isinstance(value, TStmtExpr) and value.branches else (value,)
        for branch in branches:
            if not python_shared(branch.type):
                continue
            if not is_place(branch) and shared_attribute_copied(self.chk, branch):
                return  # `return self.rows[0]`: Python returns the object's own list (E0263, reported)
            root, whole = self.shared_root(branch)
            object_containers.returned(self.chk, root, branch.span)
            # (a closure's variable shared with its maker, `return order` in `listing`: as an argument's)
            # (only the whole variable: `key=lambda k: groups[k]` gives a copy of an item nobody changes)
            captured = whole and root is not None and not root.is_param and root.by_ref and not root.owned
            if root is None or not (root.is_param or captured) or root is self.chk.self_var \
                    or (not root.by_ref and _rebound_before(self.chk.fn.decl.body, root.name, span)):
                continue
            if whole and not captured and returned_params(self.chk.fn.decl) == {root.name}:
                # `return xs` of the argument itself: each caller treats the result as a copy of its
                # argument, which Python would share (`shared_root`, `copied`), and refuses a change.
                continue
            if captured:
                self.msg.error("E0306", branch.span, name=root.name, func=_maker_name(self.chk))
                return
            text = self._source_text(branch.span)
            self.msg.error("E0235", branch.span, name=root.name,
                           notes=(Note(f"write `{text}.copy()` if a copy is meant"),))
            return

    def shared_root(self, value: TExpr) -> tuple[LocalVar | None, bool]:
        """The variable whose list or dict `value` reads (a place, or an element of one: whole False).
        A call of a function that may return its argument itself (`return xs`) reads that argument."""
        whole = True
        while True:
            if self.element_read(value):
                value, whole = value.args[0], False
                continue
            passed = passed_through(value)
            if passed is None:
                return place_root(value), whole
            value = passed

    def iterating(self, iterable_ast: ast.Expr, loop_span: Span):
        """The variable whose container a `for` loop walks (its body must not change it in place)."""
        node = iterable_ast
        while isinstance(node, (ast.Attribute, ast.Subscript)):
            node = node.value
        root = self.chk.scopes.lookup(node.id) if isinstance(node, ast.Name) else None
        return (root, loop_span) if isinstance(root, LocalVar) else None

    def _observed(self, copy: _Copy, change: _Change) -> bool:
        """Whether the copy a change of the original would have shown (in Python) is read after the
        change: later in the source, or in a loop around the change. A copy stored into a
        container or field counts as read."""
        return self._observed_at(copy, change) is not None

    def _observed_at(self, copy: _Copy, change: _Change) -> Span | None:
        """The first read of `_observed`'s (the copy's own span for a stored copy). A holder's
        reads after a statement that binds it afresh on every path from the change are another
        object's (`_bound_again`)."""
        if copy.copy is None:
            return copy.span
        for read in _read_spans(self.chk.fn.references, copy.copy):
            if copy.holder is not None and _bound_again(self.chk.fn.decl.body, copy.copy.name, read, change.span):
                continue
            if read.start > change.span.end:
                return read
            for loop in change.loops:
                if loop.body and loop.body[0].span.start <= read.start < loop.body[-1].span.end:
                    return read
        return None

    def _rebinding_of_original(self, copy: _Copy) -> tuple[tuple, int] | None:
        """`b = a` followed, in the same block, by `a = <new value>` with no use of `a` in between
        (nor in the new value): from that rebinding on, `a` holds another object in Python too, and
        until it nobody reads `a`, so the copy in `b` is what Python's shared object was (a move).
        So for a copy stored into a container (`lines.append(current)` then `current = []`).
        The block and the rebinding's index in it, or None."""
        root = copy.root
        if root is None or copy.loop_variable or copy.shallow or copy.view or copy.holder is not None:
            return None
        found = _block_of(self.chk.fn.decl.body, copy.span)
        if found is None:
            return None
        block, i = found
        if (copy.copy is not None and not _binds(block[i], copy.copy.name)) \
                or _inside_try(self.chk.fn.decl.body, copy.span):
            return None  # (in a `try`, a handler could read `a` while the two are still one object)
        uses = [r.start for r in _read_spans(self.chk.fn.references, root)]
        for stmt in block[i + 1:]:
            if _leaves_loop(stmt):
                return None  # (a `break` or `continue` before the rebinding would skip it)
            if _binds(stmt, root.name):
                if not (isinstance(stmt, ast.Assign) and _cannot_raise(stmt.value)):
                    return None  # (an exception there would leave `a` and `b` one object in Python)
                value_end = stmt.value.span.end if isinstance(stmt, ast.Assign) else stmt.span.end
                if any(copy.span.end <= u < value_end for u in uses if not _binds_at(stmt, root.name, u)):
                    return None
                return block, block.index(stmt)
        return None

    def _original_moved(self, copy: _Copy, copies: list) -> bool:
        """A change of the copy `b` after `b = a` that Python's `a` cannot show: `a` is a local of
        this function whose object no other name, container or caller holds, and it is rebound
        before anything reads it again (`_rebinding_of_original`)."""
        root = copy.root
        if root is None or root.is_param or root.by_ref or not root.owned or root.global_symbol is not None:
            return False
        if any(c is not copy and (c.root is root or c.copy is root) for c in copies):
            return False  # `a` itself shares with something else: the change may show there
        return self._rebinding_of_original(copy) is not None

    def _changed_outside_window(self, copy: _Copy) -> bool:
        """A change of `a` after `b = a`, where `a` is rebound right after the copy with no use in
        between (`_rebinding_of_original`): Python's `a` and `b` are one object only in that
        window, where nothing uses `a`; before it `b` holds nothing from `a`, after it `a` is
        another object."""
        return self._rebinding_of_original(copy) is not None

    def report_sharing(self) -> None:
        """The changes in place that Python would have made visible through another name."""
        from .object_containers import judge

        state = self.sharing_state()
        judge(self.chk)  # (bindings of an object's list: semantics/object_containers.py)
        for var in dict.fromkeys(state.get("iterators", ())):
            passed = passed_on(self.chk.fn.decl.body, var.name)
            if passed is not None:
                self.msg.error("E0015", passed.span, name=var.name)
        self._changed_by_closures(state["copies"])
        for change in state["changes"]:
            for copy in state["copies"]:
                if not _after(copy, change):
                    continue
                if copy.view:
                    if copy.root is change.var and self._observed(copy, change):
                        self.msg.error("E0290", change.span, name=change.var.name, view=copy.copy.name,
                                       source=copy.source, notes=(Note("kept here", copy.span),))
                        break
                    continue
                if copy.shallow:
                    if change.element and (change.var is copy.copy or change.var is copy.root):
                        other = copy.source if change.var is copy.copy else copy.copy.name
                        self.msg.error("E0233", change.span, name=change.var.name, other=other,
                                       notes=(Note("copied here: to give the copy elements of its own in both "
                                                   "languages, append a `.copy()` of each element to a new list",
                                                   copy.span),))
                        break
                    continue
                if copy.holder is not None:
                    if copy.root is change.var and self._holder_observed(copy, change):
                        break
                    continue
                if copy.copy is change.var:
                    if self._original_moved(copy, state["copies"]):
                        continue
                    source = f"an element of `{copy.source}`" if copy.loop_variable else f"`{copy.source}`"
                    self.msg.error("E0229", change.span, name=change.var.name, source=source,
                                     notes=(Note(_copy_advice(copy), copy.span),))
                    break
                if copy.root is change.var and (copy.whole or change.element) and self._observed(copy, change) \
                        and not self._changed_outside_window(copy):
                    self.msg.error("E0231", change.span, name=change.var.name, source=copy.source,
                                     notes=(Note(f"copied here, where Python would share it: write "
                                                 f"`{copy.source}.copy()` here if a copy is meant", copy.span),))
                    break
                if self._stored_copy_changed(copy, change):
                    break

    def _stored_copy_changed(self, copy: _Copy, change: _Change) -> bool:
        """E0354: `grid.append(row)` (a copy stored into some container), then an element of a
        container changed in place (`grid[0].append(2)`), then `row` read: if that element is the
        stored one, Python's `row` is it and shows the change, pyx's stored copy does not. Which
        container a store went into is not followed, so any container whose items (at any depth)
        have the stored value's type counts. True if reported."""
        root = copy.root
        if not change.element or copy.copy is not None or root is None or root is change.var or not copy.whole \
                or copy.view or copy.shallow or copy.holder is not None or not python_shared(root.type) \
                or not _holds_type(change.var.type, root.type):
            return False
        read = self.read_after(root, change.span, change.loops)
        if read is None and not (root.is_param or root.global_symbol is not None):
            return False  # (nothing sees `row` afterwards: the copy cannot be told from the object)
        self.msg.error("E0354", change.span, container=change.var.name, name=root.name,
                       notes=(Note(f"`{root.name}` stored here (Python stores the list itself)", copy.span),)
                       + ((Note(f"`{root.name}` read here, after the change", read),) if read is not None else ()))
        return True

    def _changed_by_closures(self, copies: list) -> None:
        """`b = a`, then a nested function that changes `a` (or `b`) in place: a call of it changes
        the closure's variable (shared by reference, semantics/closures.py) and not the copy, where
        Python's two names are one object (E0231; E0229 for the copy). The changes inside nested
        functions are not among this function's own, so each is judged here, wherever it is called."""
        from .shared_holders import changed_in_nested

        for copy in copies:
            if copy.copy is None and copy.root is not None and not copy.view and copy.holder is None:
                # `return add, xs`, `box.items = xs`, `t = (1, xs)`: a copy of a variable that nested
                # functions change (through a heap cell, or by address while they stay in this frame),
                # where Python stores the object they change: a call of one after the store would
                # show in CPython's `t[1]` and not in pyx's.
                changed = changed_in_nested(self.chk.fn.decl.body, copy.root.name)
                if changed is not None:
                    self.msg.error("E0231", changed, name=copy.root.name, source=copy.source,
                                   notes=(Note(f"copied here, where Python would share it: write "
                                               f"`{copy.source}.copy()` here if a copy is meant", copy.span),))
                    return
            if copy.copy is None or copy.root is None or copy.view or copy.holder is not None \
                    or copy.loop_variable:
                continue
            # The original changed: seen where the copy is read afterwards. The copy changed (a
            # closure keeping it, `total = start` then `total.append(x)` in it): seen as in-frame
            # changes of a copy are (E0229), the original being the caller's or read later.
            copy_read = any(r.start > copy.span.end for r in _read_spans(self.chk.fn.references, copy.copy))
            for var, code in ((copy.root, "E0231"), (copy.copy, "E0229")):
                if (not copy_read) if code == "E0231" else self._original_moved(copy, copies):
                    continue
                changed = changed_in_nested(self.chk.fn.decl.body, var.name)
                if changed is None:
                    continue
                if code == "E0231":
                    self.msg.error("E0231", changed, name=var.name, source=copy.source,
                                   notes=(Note(f"copied here, where Python would share it: write "
                                               f"`{copy.source}.copy()` here if a copy is meant", copy.span),))
                else:
                    self.msg.error("E0229", changed, name=var.name, source=f"`{copy.source}`",
                                   notes=(Note(_copy_advice(copy), copy.span),))
                return

    def _holder_observed(self, copy: _Copy, change: _Change) -> bool:
        """E0345 for a change of `xs` after `p = C(xs)` while `p`, which keeps a copy, is still used."""
        read = self._observed_at(copy, change)
        if read is None:
            return False
        h = copy.holder
        self.msg.error("E0345", change.span, name=change.var.name, holder=h.holder, field=h.field, func=h.func,
                       notes=(Note(f"`{h.func}` keeps `{h.source}` here; pass `{h.source}.copy()` if a copy is meant",
                                   copy.span), Note(f"`{h.holder}` is used here, after the change", read)))
        return True


def _holds_type(container: Type, item: Type) -> bool:
    """Whether `container`'s items, at any depth (a List's T, a Dict's values, a list of lists of
    them), can be of type `item` (types.mentions, the container itself left out)."""
    return container != item and T.mentions(container, lambda t: t == item)


def _bound_again(body, name: str, read: Span, change: Span) -> bool:
    """Whether every path from `change` to `read` binds `name` afresh (or `read` is such a binding's
    target): a statement list holds `read`
    in its statement i and a plain binding of `name` in a statement j < i, and the change is not in
    the statements j+1..i (a path from it then enters the list from the top, or runs on from j)."""
    for block, i in _blocks_around(body, read):
        if _binds_at(block[i], name, read.start):
            return True  # (the binding's own target: no read)
        for j in range(i):
            if _binds(block[j], name) and not any(st.span.start <= change.start < st.span.end
                                                  for st in block[j + 1:i + 1]):
                return True
    return False


def _shallow_source(value_ast: ast.Expr, t: Type) -> ast.Expr | None:
    """`x` of `x.copy()` or `x[a:b]`, a list or dict whose elements are lists or dicts: Python's
    copy shares those elements, pyx's copies them."""
    source: ast.Expr | None
    if isinstance(value_ast, ast.Call) and isinstance(value_ast.func, ast.Attribute) \
            and value_ast.func.attr == "copy" and not value_ast.args:
        source = value_ast.func.value
    elif isinstance(value_ast, ast.Call) and isinstance(value_ast.func, ast.Name) and len(value_ast.args) == 1 \
            and value_ast.func.id in ("list", "dict", "sorted") \
            and not isinstance(value_ast.args[0], ast.Comprehension):
        source = value_ast.args[0]  # `list(g)`, `dict(d)`, `sorted(g)`: shallow copies too
    elif isinstance(value_ast, ast.Call) and isinstance(value_ast.func, ast.Name) and len(value_ast.args) == 1 \
            and value_ast.func.id in ("list", "sorted") and isinstance(value_ast.args[0], ast.Comprehension):
        source = comprehension_source(value_ast.args[0])  # `sorted(r for r in rows)`
    elif isinstance(value_ast, ast.Comprehension):
        source = comprehension_source(value_ast)
    elif is_slicing(value_ast):
        source = value_ast.value
    else:
        return None
    if not python_shared(t) or not any(isinstance(ft, PtrType) and python_shared(ft.pointee) for _, ft in t.fields):
        return None
    return source


def comprehension_source(comp: ast.Comprehension) -> ast.Expr | None:
    """The container whose items a comprehension of one `for` holds themselves, which Python
    shares: `rows` of `[r for r in rows]` and of `[rows[i] for i in picks]` (`d` of
    `{k: v for k, v in d.items()}`); None for another comprehension."""
    if _passes_items_through(comp):
        source = comp.clauses[0].iter
        if isinstance(source, ast.Call) and isinstance(source.func, ast.Attribute) \
                and source.func.attr in ("items", "values") and not source.args:
            source = source.func.value
        return source
    fors = [c for c in comp.clauses if isinstance(c, ast.CompFor)]
    item = comp.value if comp.kind == "dict" else comp.elt
    if len(fors) != 1 or not (isinstance(item, ast.Subscript) and isinstance(item.value, ast.Name)) \
            or is_slicing(item) or ast.mentions([fors[0].target], item.value.id):
        return None
    return item.value  # `[rows[i] for i in picks]`: items of rows


def _passes_items_through(comp: ast.Comprehension) -> bool:
    """A comprehension of one `for` whose items are its loop variables themselves (`if` filters
    allowed): what it builds holds the source's items, which Python shares."""
    fors = [c for c in comp.clauses if isinstance(c, ast.CompFor)]
    if len(fors) != 1:
        return False
    target = fors[0].target
    names = {target.id} if isinstance(target, ast.Name) else \
        {t.id for t in target.elts if isinstance(t, ast.Name)} if isinstance(target, ast.TupleExpr) else set()
    item = comp.value if comp.kind == "dict" else comp.elt  # (a dict's keys cannot be lists or dicts)
    return isinstance(item, ast.Name) and item.id in names


def reroot(target: ast.Expr, name: str) -> ast.Expr:
    """`xs[i].a.b` with `xs[i]` replaced by the variable `name` (the lent element)."""
    if isinstance(target, ast.Attribute):
        return replace(target, value=reroot(target.value, name))
    return ast.Name(target.span, name)


def attribute_root(target: ast.Expr) -> ast.Expr:
    while isinstance(target, ast.Attribute):
        target = target.value
    return target


def _maker_name(chk: FunctionChecker) -> str:
    """The function that made the closure being checked (`make` of `<function make.<locals>.f ...>`)."""
    owner = chk.fn.owner
    shown = owner.name if owner is not None else chk.fn.name
    if shown.startswith("<lambda") and " in " in shown:  # `<lambda at 3:9 in make>`
        return shown.split(" in ", 1)[1].split(" ")[0].rstrip(">").split("[")[0]
    return shown.split(".<locals>.")[0].removeprefix("<function ").split("[")[0] if ".<locals>." in shown else shown


def _read_spans(references, var: LocalVar) -> list[Span]:
    return [r.span for r in references if r.target_span is var.span and r.name == var.name]


def _after(copy: _Copy, change: _Change) -> bool:
    """Whether the change may run after the copy was made: later in the source, or in a loop
    around both (in the next iteration), unless the changed variable is bound afresh at the top
    level of that loop's body before the statement that changes it (`row = []` ...
    `row.append(i)` ... `grid.append(row)`): that statement runs on every iteration that reaches
    the change, so the variable no longer holds what was copied."""
    if copy.span.start <= change.span.start and change.span.end <= copy.span.end:
        return False  # `r = add(1, xs)` changes xs before r is bound (in a loop too: then r is bound again)
    if change.span.start > copy.span.start:
        return True
    common = [lp for lp in copy.loops if any(lp is m for m in change.loops)]
    if not common:
        return False
    name = change.var.name
    for stmt in common[-1].body:
        if stmt.span.start <= change.span.start < stmt.span.end:
            return True  # reached the statement with the change without a rebinding before it
        if _binds(stmt, name):
            return False
    return True


_RETURNED: PerDeclaration[frozenset[str]] = PerDeclaration()


def returned_params(decl: ast.FnDef) -> frozenset[str]:
    """The parameters a function's `return name` statements may return themselves (not rebound
    first at the top of the body): by the syntax, so known before the function is checked."""
    found = _RETURNED.get(decl)
    if found is None:
        params = {p.name for p in decl.params}
        names = set()
        stack: list[ast.Node] = list(decl.body)
        while stack:
            n = stack.pop()
            if isinstance(n, (ast.FnDef, ast.Lambda)):
                continue
            if isinstance(n, ast.Return) and isinstance(n.value, ast.Name) and n.value.id in params \
                    and not _rebound_before(list(decl.body), n.value.id, n.span):
                names.add(n.value.id)
            stack.extend(ast.children(n))
        found = _RETURNED.put(decl, frozenset(names))
    return found


def picked_element(chk, value_ast: ast.Expr) -> ast.Expr | None:
    """`max(rows)`, `min(rows, key=len)`: Python's result is one of the items of `rows` itself (a
    variable's, or an object's, container of lists, dicts or sets): that container, else None."""
    if not (isinstance(value_ast, ast.Call) and isinstance(value_ast.func, ast.Name)
            and value_ast.func.id in ("max", "min") and len(value_ast.args) == 1
            and all(k.name in ("key", "default") for k in value_ast.keywords)
            and chk.closures.builtin(value_ast.func.id)):
        return None
    source: ast.Expr | None = value_ast.args[0]
    if isinstance(source, ast.Comprehension):  # `max(r for r in rows)`, `max(rows[i] for i in picks)`
        source = comprehension_source(source)
    if not isinstance(source, (ast.Name, ast.Attribute, ast.Subscript)) or is_slicing(source):
        return None
    var = chk.scopes.lookup(attribute_root(source).id) if isinstance(attribute_root(source), ast.Name) else None
    t = var.type if isinstance(var, LocalVar) and source is attribute_root(source) else None
    item = t.ct_env.get("T") if t is not None and is_builtin(t, "List") else None
    return source if item is None or python_shared(item) else None


def _place_root_name(chk, source: ast.Expr) -> tuple[LocalVar | None, bool]:
    """The variable at the root of `rows`, `self.rows`, `groups[k]` (and False: an element of it)."""
    node = attribute_root(source)
    while isinstance(node, ast.Subscript):
        node = attribute_root(node.value)
    root = chk.scopes.lookup(node.id) if isinstance(node, ast.Name) else None
    return (root if isinstance(root, LocalVar) else None), False


def passed_through(value: TExpr) -> TExpr | None:
    """The argument a call of a program's function returns itself (`def f(xs): ... return xs`):
    the one the call's result is, in Python."""
    from .imports import is_stdlib_file

    if not isinstance(value, TCall) or is_stdlib_file(value.callee.decl.span.file.name):
        return None
    names = returned_params(value.callee.decl)
    if len(names) != 1:
        return None
    (name,) = names
    index = next((i for i, p in enumerate(value.callee.decl.params) if p.name == name), None)
    if index is None or index >= len(value.args) or not python_shared(value.args[index].type):
        return None
    passed = value.args[index]
    if isinstance(passed, TRef):  # (a `mut` parameter, implicit for a list the callee changes: the variable)
        if passed.var.name.startswith("__pyx_default_"):
            return None  # a default's own list: its kept results are E0326 (syntax/mutable_defaults.py)
        return TLocal(passed.span, passed.type, passed.var)
    return passed


def _rebound_before(body: list, name: str, span: Span) -> bool:
    """Whether a statement at the top level of the function binds `name` afresh before the one
    that holds `span`: every path to `span` runs it, so the argument then holds a value of the
    function's own (`xs = list_of_mine` ... `xs.append(1)`)."""
    for stmt in body:
        if stmt.span.start <= span.start < stmt.span.end:
            return False
        if _binds(stmt, name):
            return True
    return False


def _rebinding(body: list, name: str) -> Span | None:
    """Where a function body first assigns a new value to `name` (nested statements included)."""
    stack = list(reversed(body))
    found = None
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Stmt) and _binds(node, name) and (found is None or node.span.start < found.start):
            found = node.span
        for f in fields(node) if is_dataclass(node) else ():
            child = getattr(node, f.name)
            for item in (child if isinstance(child, (list, tuple)) else (child,)):
                if isinstance(item, ast.Stmt):
                    stack.append(item)
    return found


def _block_of(body, span: Span) -> tuple[tuple, int] | None:
    """The innermost statement list holding a statement that contains `span`, and its index."""
    around = _blocks_around(body, span)
    return around[-1] if around else None


def _blocks_around(body, span: Span) -> list[tuple[tuple, int]]:
    """Each statement list holding a statement that contains `span`, outermost first, with its index."""
    found: list[tuple[tuple, int]] = []
    stmts = tuple(body)
    while True:
        hit = next((i for i, st in enumerate(stmts) if st.span.start <= span.start < st.span.end), None)
        if hit is None:
            return found
        found.append((stmts, hit))
        inner = None
        for child in ast.children(stmts[hit]):
            block = child.body if isinstance(child, ast.Handler) else None
            for candidate in ([block] if block else []) + [getattr(stmts[hit], n, None)
                                                          for n in ("body", "orelse", "finalbody")]:
                if isinstance(candidate, tuple) and any(st.span.start <= span.start < st.span.end for st in candidate):
                    inner = candidate
        if inner is None:
            return found
        stmts = inner


def _inside_try(body, span: Span) -> bool:
    """Whether the statement holding `span` is inside a `try` statement of the function."""
    stack = list(body)
    while stack:
        n = stack.pop()
        if not (n.span.start <= span.start < n.span.end) or isinstance(n, (ast.FnDef, ast.Lambda)):
            continue
        if isinstance(n, ast.Try):
            return True
        stack.extend(c for c in ast.children(n) if isinstance(c, (ast.Stmt, ast.Handler)))
    return False


def _leaves_loop(stmt: ast.Stmt) -> bool:
    """Whether `stmt` holds a `break` or `continue` of a loop around it (not of a loop inside it)."""
    stack: list = [stmt]
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.Break, ast.Continue)):
            return True
        if isinstance(n, (ast.For, ast.While, ast.FnDef, ast.Lambda)) and n is not stmt:
            continue
        if isinstance(n, (ast.For, ast.While)):
            continue  # (stmt itself a loop: its breaks are its own)
        stack.extend(c for c in ast.children(n) if isinstance(c, (ast.Stmt, ast.Handler)))
    return False


def _cannot_raise(value: ast.Expr) -> bool:
    """A new empty or literal container, `list()`/`dict()`/`set()`, or a constant."""
    if isinstance(value, (ast.IntLit, ast.FloatLit, ast.StrLit, ast.BoolLit, ast.NoneLit, ast.Name)):
        return True
    if isinstance(value, ast.Call):
        return isinstance(value.func, ast.Name) and value.func.id in ("list", "dict", "set") \
            and not value.args and not value.keywords
    if isinstance(value, (ast.ListExpr, ast.TupleExpr)):
        return all(_cannot_raise(x) for x in value.elts)
    if isinstance(value, ast.DictExpr):
        return all(_cannot_raise(x) for x in value.keys + value.values)
    return isinstance(value, ast.SetExpr) and getattr(value, "comprehension", None) is None \
        and all(_cannot_raise(x) for x in value.elts)


def _binds_at(stmt: ast.Stmt, name: str, start: int) -> bool:
    """Whether the reference at `start` is the statement's own target `name` (its store)."""
    targets = stmt.targets if isinstance(stmt, ast.Assign) else ()
    return any(isinstance(t, ast.Name) and t.id == name and t.span.start == start for t in targets) \
        or (isinstance(stmt, ast.VarDecl) and stmt.name == name and stmt.name_span.start == start)


def _binds(stmt: ast.Stmt, name: str) -> bool:
    """Whether a statement binds `name` to a new value (`name = ...`, `name: T = ...`)."""
    if isinstance(stmt, ast.Assign):
        targets = [e for t in stmt.targets for e in (t.elts if isinstance(t, ast.TupleExpr) else (t,))]
        return any(isinstance(t, ast.Name) and t.id == name for t in targets)
    return isinstance(stmt, ast.VarDecl) and stmt.name == name and stmt.value is not None


def _copy_advice(copy: _Copy) -> str:
    name, source = copy.copy.name, copy.source
    if copy.loop_variable:
        return (f"Python (and Mojo) would give the element itself: to change the elements, loop over "
                f"`range(len({source}))` and change `{source}[i]` itself")
    return (f"`{name}` got a copy of `{source}` here, where Python would share it: change `{source}` itself, "
            f"or write `{name} = {source}.copy()` if a copy is meant")
