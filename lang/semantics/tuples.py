"""Tuples: literals, indexing, unpacking and their mistakes (`chk.tuples`).

A tuple is an instance of the standard library's struct for its length (stdlib/tuple.px:
`Tuple2[A, B]` holds `_0: A` and `_1: B`), typed `Tuple[A, B]` (`types.TupleType`). Comparing,
hashing, printing, `len` and `in` are that struct's methods, reached as a user struct's are, so
`List`, `Dict` and `sorted` use tuples through the traits they already ask for. What is only a
tuple's is here: `(a, b)` builds one, `t[0]` reads a field, `a, (b, c) = t` unpacks, and the
mistakes Python reports at run time whose answer is known from the types (the number of items,
a constant index) are compile errors.
"""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from .. import types as T
from ..diagnostics import DiagnosticBag, Note
from ..source import Span
from ..syntax import ast
from ..syntax.build_ast import ZIP_ROWS
from ..types import ERROR, LiteralType, TupleType, Type, default_type
from .named_tuples import as_tuple
from .typed import LocalVar, TBlock, TConst, TExpr, TField, TLocal, TStmt, TStmtExpr

if TYPE_CHECKING:
    from .check import FunctionChecker
    from .expressions import ExpressionChecker
    from .messages import MessageBuilder
    from .scope import ModuleSymbols


def resolve_tuple_type(expr: ast.Subscript, diags: DiagnosticBag, symbols: ModuleSymbols, env, lookup) -> Type:
    """`tuple[int, str]` and `Tuple[Int, String]`: the stdlib's struct for that many items."""
    from .module import MAX_TUPLE, TUPLE_STRUCTS, resolve_type, struct_instance

    items = expr.items
    if any(isinstance(i, ast.EllipsisLit) for i in items):
        diags.error("E0007", expr.span, construct="a tuple type of any length (`tuple[int, ...]`)")
        return ERROR
    if not items or (len(items) == 1 and isinstance(items[0], ast.TupleExpr) and not items[0].elts):
        diags.error("E0007", expr.span, construct="the empty tuple")
        return ERROR
    if len(items) > MAX_TUPLE:
        diags.error("E0240", expr.span, count=len(items), max=MAX_TUPLE)
        return ERROR
    types = tuple(resolve_type(i, diags, symbols, env, lookup) if isinstance(i, ast.Expr) else ERROR for i in items)
    if ERROR in types:
        return ERROR
    for item, t in zip(items, types, strict=True):
        if not storable(t):
            diags.error("E0243", item.span, type=t)
            return ERROR
    return struct_instance(symbols.structs[TUPLE_STRUCTS[len(types)]], types, expr.span, symbols, diags, lookup)


def storable(t: Type) -> bool:
    """What a tuple may hold: a value of a real type (not None, an exception or an untyped constant)."""
    return t not in (T.NONE, T.EXCEPTION, T.STRING_LITERAL, T.DTYPE) and not isinstance(t, LiteralType)


# `t[:n]` of a tuple (semantics/module.py binds it where a slice has a bound that is not a number):
# stdlib/zip_rows.px `tuple_items`, under a name no source spells.
TUPLE_ITEMS = "items of a tuple"
HIDDEN = (("tuple_items", TUPLE_ITEMS),)


def same_items(t: TupleType) -> Type | None:
    """The one type of all of a tuple's items, if they have one."""
    items = t.items
    return items[0] if all(i == items[0] for i in items) else None


def constant_index(value: TExpr) -> int | None:
    if isinstance(value, TConst) and isinstance(value.value, int) and not isinstance(value.value, bool) \
            and (isinstance(value.type, LiteralType) or (isinstance(value.type, T.ScalarType) and value.type.is_int)):
        return value.value
    return None


def _is_float_constant(e: ast.Expr) -> bool:
    return isinstance(e, ast.FloatLit) or (isinstance(e, ast.Unary) and isinstance(e.operand, ast.FloatLit))


class TupleChecker:
    """Tuple literals, `t[i]`, unpacking into several targets (in assignments and `for`)."""

    def __init__(self, chk: FunctionChecker) -> None:
        self.chk: FunctionChecker = chk
        self.exprs: ExpressionChecker = chk.exprs
        self.msg: MessageBuilder = chk.msg
        # The literals built here, by id: their items as written, so a literal can be rebuilt for
        # the tuple type its context asks for (`-> tuple[float, int]: return 1, 2`).
        self.literals: dict[int, tuple[ast.TupleExpr, list[TExpr]]] = {}
        # Items read out of a tuple (`t[0]`): changing one in place would change a copy (E0242).
        self.item_reads: set[int] = set()

    # ---- building ----
    def literal(self, e: ast.TupleExpr, expected: Type | None = None) -> TExpr:
        """`(a, b)`, `a, b`, `(a,)`: a tuple of the items' types (untyped constants take their
        default type, or the one `expected` gives them)."""
        items = [self.exprs.expr(x) for x in e.elts]
        if any(x.type == ERROR for x in items):
            return TConst(e.span, ERROR, None)
        return self.build(e, items, expected)

    def build(self, e: ast.TupleExpr, items: list[TExpr], expected: Type | None,
              origin: Type | None = None, kept: bool = True) -> TExpr:
        from .module import MAX_TUPLE, TUPLE_STRUCTS, struct_instance

        if not items:
            self.msg.error("E0007", e.span, construct="the empty tuple `()`")
            return TConst(e.span, ERROR, None)
        if len(items) > MAX_TUPLE:
            self.msg.error("E0240", e.span, count=len(items), max=MAX_TUPLE)
            return TConst(e.span, ERROR, None)
        raw = list(items)
        if isinstance(expected, TupleType) and len(expected.items) == len(items):
            from .python_float import refuse_int_constant

            before = len(self.msg.bag.items)
            for x, t in zip(items, expected.items, strict=True):  # CPython's tuple keeps the int `1`
                refuse_int_constant(self.chk, x, t, kept, f"as an item of a `{expected}`")
            if len(self.msg.bag.items) != before:
                return TConst(e.span, ERROR, None)
            items = [self.exprs.coerce(x, t) for x, t in zip(items, expected.items, strict=True)]
        else:
            items = [self.exprs.value(x) for x in items]
            items = [self.exprs.coerce(x, self.exprs.string_or(default_type(x.type))) for x in items]
        if any(x.type == ERROR for x in items):
            return TConst(e.span, ERROR, None)
        for node, x in zip(e.elts, items, strict=True):
            if not storable(x.type):
                self.msg.error("E0243", node.span, type=x.type)
                return TConst(e.span, ERROR, None)
        sym = self.chk.module.structs.get(TUPLE_STRUCTS[len(items)])
        if sym is None:  # (the module uses tuples only through a value it was given)
            sym = self._tuple_symbol(len(items), origin if origin is not None else expected)
        t = struct_instance(sym, tuple(x.type for x in items), e.span, self.chk.module, self.msg.bag,
                            self.chk.module.lookup_constant)
        if not isinstance(t, TupleType):
            return TConst(e.span, ERROR, None)
        items = [self.chk.ownership.consume(x, "put in a tuple") for x in items]
        self.chk.ownership.need_drop(t, e.span)
        built = self.chk.calls.finish_call(sym.methods["__init__"], items, e.span, e.span, t)
        self.literals[id(built)] = (e, raw)
        return built

    def _tuple_symbol(self, n: int, origin: Type | None):
        """The stdlib's struct for n items, where the module wrote no tuple itself: stdlib/tuple.px's
        own, or the one beside the tuple `origin` (`t[1:]` of a tuple a caller passed)."""
        from .module import TUPLE_STRUCTS

        for sym in (s for s in self.chk.module.structs.values()):
            if sym.decl.name == f"Tuple{n}":
                return sym
        home = getattr(origin.symbol, "home", None) if isinstance(origin, TupleType) else None
        if home is not None and f"Tuple{n}" in home.structs:
            return home.structs[f"Tuple{n}"]
        raise LookupError(TUPLE_STRUCTS[n])

    def coerce(self, value: TExpr, target: TupleType, kept: bool = True) -> TExpr | None:
        """A tuple literal where another tuple type is wanted: built again with its items
        converted (`1` where a float is wanted); None when `value` is not one. `kept`: the tuple is
        bound or stored (where CPython's int item would print as an int), not only compared."""
        found = self.literals.get(id(value))
        if found is None or not isinstance(value.type, TupleType) or len(value.type.items) != len(target.items):
            return None
        e, items = found
        return self.build(e, items, target, kept=kept)

    def callee(self, name: str, e: ast.Call) -> tuple[ast.FnDef, ast.Call]:
        """The module function `name` names, and the call: `zip(a, b, c)` is the stdlib's `zip3`
        (Python's zip takes any number of iterables, and pyx has no overloading), and
        `divmod(7, 2.0)` divides floats, as Python's does, where one constant is written as an int."""
        from .builtin_functions import role

        decl = self.chk.module.functions[name]
        plays = role(decl)  # (semantics/builtin_functions.py)
        if plays is None:
            return decl, e
        if plays in ("enumerate", "zip") and any(isinstance(a, ast.StrLit) for a in e.args):
            # `zip(names, "xy")` walks the text as a str: a String (the module has one, module._Uses)
            e = replace(e, args=tuple(ast.Call(a.span, ast.Name(a.span, "str"), (a,), ()) if isinstance(a, ast.StrLit)
                                      else a for a in e.args))
        if plays == "zip" and len(e.args) == 3:
            return self.chk.home_of(decl).functions.get("zip3", decl), e
        if plays == "divmod" and len(e.args) == 2 and any(_is_float_constant(a) for a in e.args):
            args = tuple(ast.FloatLit(a.span, float(a.value)) if isinstance(a, ast.IntLit) else a for a in e.args)
            return decl, replace(e, args=args)
        return decl, e

    def walked(self, iterable: ast.Expr) -> list[ast.Expr]:
        """What a `for` loop over `iterable` walks, whose memory its iterator holds: the iterable,
        or the arguments of the stdlib's `enumerate` and `zip`."""
        from .builtin_functions import is_builtin_function

        if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name) \
                and self.chk.scopes.lookup(iterable.func.id) is None \
                and is_builtin_function(self.chk.module.functions.get(iterable.func.id), "enumerate", "zip"):
            return [x for a in iterable.args for x in self.walked(a)]
        return [iterable]

    # ---- reading ----
    def index(self, base: TExpr, e: ast.Subscript) -> TExpr:
        """`t[i]`: a constant i (negative from the end) reads the item; any other i, the item of a
        tuple whose items have one type, checked at run time as Python does."""
        t = base.type
        assert isinstance(t, TupleType)
        if len(e.items) != 1 or not isinstance(e.items[0], ast.Expr):
            self.msg.error("E0007", e.span, construct="this kind of tuple index")
            return TConst(e.span, ERROR, None)
        if isinstance(e.items[0], ast.Slice):
            return self.slice(base, e.items[0], e.span)
        index = self.exprs.expr(e.items[0])
        if index.type == ERROR:
            return index
        k = constant_index(index)
        n = len(t.items)
        if k is not None:
            if not -n <= k < n:
                self.msg.error("E0237", e.items[0].span, index=k, type=t, count=n)
                return TConst(e.span, ERROR, None)
            k = k + n if k < 0 else k
            item = TField(e.span, t.items[k], base, k)
            self.item_reads.add(id(item))
            return item
        if same_items(t) is None:
            self.msg.error("E0239", e.items[0].span, (Note("write a constant index, or unpack it: `a, b = t`"),),
                           type=t)
            return TConst(e.span, ERROR, None)
        result = self.chk.structs.method_call(base, "__getitem__", [index], e.span)
        return result if result is not None else TConst(e.span, ERROR, None)

    def slice(self, base: TExpr, item: ast.Slice, span: Span) -> TExpr:
        """`t[1:]`, `t[::-1]`: with constant bounds (a tuple's length is part of its type), the
        items Python's slice picks, as a new tuple. With a bound only the run knows (`t[:n]`), a
        tuple whose items have one type T gives a `tuple[T, ...]` (stdlib/zip_rows.px VarTuple) of
        the items the run picks; another tuple is E0355."""
        assert isinstance(base.type, TupleType)
        bounds: list[int | None] = []
        checked: dict[int, TExpr] = {}
        for part in (item.start, item.stop, item.step):
            value = self.exprs.expr(part) if part is not None else None
            if value is not None and value.type == ERROR:
                return value
            if part is not None and value is not None:
                checked[id(part)] = value
            bounds.append(constant_index(value) if value is not None else None)
        runtime = next((part for part, k in zip((item.start, item.stop, item.step), bounds, strict=True)
                        if part is not None and k is None), None)
        if runtime is not None:
            return self.runtime_slice(base, item, checked, runtime.span, span)
        if bounds[2] == 0 and item.step is not None:
            self.msg.error("E0007", item.step.span, construct="a slice step of 0 (Python's ValueError)")
            return TConst(span, ERROR, None)
        picked = range(*slice(*bounds).indices(len(base.type.items)))
        return self.assemble([(base, k) for k in picked], span)

    def runtime_slice(self, base: TExpr, item: ast.Slice, checked: dict[int, TExpr], bound: Span,
                      span: Span) -> TExpr:
        """`t[a:b:c]` with a bound only the run knows: `tuple_items(t)[a:b:c]`, the slice of a VarTuple
        of t's items (its length is the run's), where the items have one type."""
        from .slicing import slice_value

        t = base.type
        assert isinstance(t, TupleType)
        items_of = self.chk.module.functions.get(TUPLE_ITEMS)
        if same_items(t) is None or items_of is None:
            self.msg.error("E0355", bound, type=t)
            return TConst(span, ERROR, None)
        items = self.chk.calls.finish_call(items_of, [base], span, span)
        picked = slice_value(self.chk, item, checked)
        if items.type == ERROR or picked.type == ERROR:
            return TConst(span, ERROR, None)
        result = self.chk.structs.method_call(items, "__getitem__", [picked], span)
        return result if result is not None else TConst(span, ERROR, None)

    def binary(self, op: str, left: TExpr, right: TExpr, span: Span) -> TExpr:
        """`a + b` of two tuples and `t * n` with a constant n: the new tuple Python builds."""
        if op == "+" and isinstance(left.type, TupleType) and isinstance(right.type, TupleType):
            return self.assemble([(left, k) for k in range(len(left.type.items))]
                                 + [(right, k) for k in range(len(right.type.items))], span)
        if op == "*":
            t, n = (left, right) if isinstance(left.type, TupleType) else (right, left)
            count = constant_index(n)
            if count is not None and isinstance(t.type, TupleType):
                return self.assemble([(t, k) for _ in range(max(count, 0)) for k in range(len(t.type.items))], span)
        self.msg.error("E0202", span, op=op, left=left.type, right=right.type)
        return TConst(span, ERROR, None)

    def assemble(self, picks: list[tuple[TExpr, int]], span: Span) -> TExpr:
        """A new tuple of the given items of the given tuples, each tuple evaluated once."""
        held: dict[int, TExpr] = {}
        body: list[TStmt] = []
        for source, _ in picks:
            if id(source) in held or isinstance(source, TLocal):
                held.setdefault(id(source), source)
                continue
            var = self.chk.new_var(f"$tuple{self.chk.next_id}", source.type, source.span)
            body.append(self.chk.store([var], [source], source.span))
            held[id(source)] = TLocal(source.span, var.type, var)
        if not picks:
            self.msg.error("E0007", span, construct="the empty tuple `()`")
            return TConst(span, ERROR, None)
        items: list[TExpr] = []
        for source, k in picks:
            tuple_type = held[id(source)].type
            assert isinstance(tuple_type, TupleType)
            items.append(TField(span, tuple_type.items[k], held[id(source)], k))
        node = ast.TupleExpr(span, tuple(ast.ErrorExpr(span) for _ in items))
        built = self.build(node, items, None, picks[0][0].type)
        return TStmtExpr(span, built.type, body, built) if body and built.type != ERROR else built

    def iterable(self, t: TupleType, span: Span) -> bool:
        """`for x in t`: a loop variable has one type, so the tuple's items must share it (E0181)."""
        if same_items(t) is None:
            self.msg.error("E0181", span, type=t)
            return False
        return True

    def contains(self, left: TExpr, right: TExpr, span: Span) -> TExpr | None:
        """`x in t`: a tuple whose items have one type (None: not a tuple, the caller goes on)."""
        if not isinstance(right.type, TupleType):
            return None
        if same_items(right.type) is None:
            self.msg.error("E0241", span, what="in", type=right.type)
            return TConst(span, ERROR, None)
        return self.chk.structs.method_call(right, "__contains__", [left], span)

    def searchable(self, receiver: TExpr, method: str, span: Span) -> bool:
        """`t.index(x)`, `t.count(x)`: like `in`, only through a tuple whose items have one type."""
        if isinstance(receiver.type, TupleType) and method in ("index", "count") and same_items(receiver.type) is None:
            self.msg.error("E0241", span, what=method, type=receiver.type)
            return False
        return True

    def compared(self, left: TExpr, right: TExpr, op: str, span: Span) -> tuple[TExpr, TExpr]:
        """The operands of `left op right` of tuples: a literal rebuilt for the other's tuple type
        (`t == (1, 2)` of floats: 1 == 1.0 in Python too), or an error where an item cannot be
        compared so (reported here, not inside the stdlib's body)."""
        left_type, right_type = left.type, right.type
        if isinstance(right_type, TupleType) and isinstance(left_type, TupleType) and right_type != left_type:
            if id(right) in self.literals:
                right = self.coerce(right, left_type, kept=False) or right
            else:
                left = self.coerce(left, right_type, kept=False) or left
        if not self._comparable(left.type, op in ("==", "!=")):
            self.msg.error("E0202", span, op=op, left=left.type, right=right.type)
            return TConst(span, ERROR, None), right
        return left, right

    def _comparable(self, t: Type, equality: bool) -> bool:
        """Whether each item of a tuple compares: `==` for equality, `==` and `<`, `<=` to order."""
        from .module import type_conforms

        if not isinstance(t, TupleType):
            if type_conforms(t, "EqualityComparable" if equality else "Comparable",
                             self.chk.home_of(self.chk.fn.decl)) or t in (T.ERROR,):
                return True
            if isinstance(t, (T.ScalarType,)):
                return True
            sym = self.chk.structs.struct_of(t)
            wanted = {"__eq__"} if equality else {"__eq__", "__lt__", "__le__"}
            return sym is not None and wanted <= set(sym.methods)
        return all(self._comparable(item, equality) for item in t.items)

    def check_change(self, receiver: TExpr, method: str, span: Span) -> bool:
        """`t[0].append(x)`: Python changes the object the tuple holds (and shares); pyx's tuple
        holds a copy, so this is rejected. True when it is allowed."""
        node = receiver
        while isinstance(node, TField):
            if id(node) in self.item_reads:
                self.msg.error("E0242", span, method=method)
                return False
            node = node.base
        return True

    # ---- unpacking ----
    def unpack(self, targets: ast.TupleExpr, value_ast: ast.Expr, span: Span):
        """`a, b = v`, `(a, (b, c)) = v`, `a, b = b, a`: every value first, then the targets
        from left to right, as Python assigns them."""
        if isinstance(value_ast, ast.Call) and isinstance(value_ast.func, ast.Name) and value_ast.func.id == ZIP_ROWS:
            from .zip_rows import unzip  # `xs, ys = zip(*pairs)` (semantics/zip_rows.py)

            done, value_ast = unzip(self.chk, targets, value_ast, span)
            if done is not None:
                return done
        if isinstance(value_ast, ast.Comprehension) and value_ast.kind == "generator":
            # `y, m, d = (int(p) for p in parts)`: Python takes every item before it assigns any (and
            # then counts them), as a list comprehension makes them
            from dataclasses import replace

            value_ast = replace(value_ast, kind="list")
        if isinstance(value_ast, ast.TupleExpr):
            value = self.literal(value_ast)  # its items evaluated once, before any target is stored
        else:
            value = self.exprs.expr(value_ast)
        if value.type == ERROR:
            for target in targets.elts:
                self._bind_error(target)
            return None
        value = as_tuple(self.chk, self.exprs.value(value))  # `x, y = p` of a named tuple: its tuple
        if value.type == T.STRING_LITERAL and self.exprs.string_type() is not None:  # `a, b = "xy"`
            value = self.exprs.coerce(value, self.exprs.string_type())
        stmts: list[TStmt] = []
        if isinstance(value, TLocal):
            hold = value
        else:
            var = self.chk.new_var(f"$tuple{self.chk.next_id}", value.type, value_ast.span)
            stmts.append(self.chk.store([var], [value], value_ast.span))
            hold = TLocal(value_ast.span, var.type, var)
        if not isinstance(hold.type, TupleType) or any(isinstance(x, ast.Starred) for x in targets.elts):
            # `a, b = line.split()`, `first, *rest = xs`: checked when the program runs
            from .sequence_unpack import unpack_sequence

            done = unpack_sequence(self.chk, targets, hold, span)
            if done is None:
                for target in targets.elts:
                    self._bind_error(target.value if isinstance(target, ast.Starred) else target)
                return TBlock(span, stmts) if stmts else None
            return TBlock(span, stmts + [done])
        pairs: list[tuple[ast.Expr, TField]] = []
        if not self.flatten(targets, hold, pairs):
            for target in targets.elts:
                self._bind_error(target)
            return TBlock(span, stmts) if stmts else None
        assign = self.chk.assign_each([t for t, _ in pairs], [v for _, v in pairs], span)
        # `a, b = t` binds b to the list t holds, in Python; pyx's b is a copy: changing it is
        # judged as changing any other copy (sharing.py). A call's result is nobody else's.
        held = isinstance(value_ast, (ast.Name, ast.Attribute, ast.Subscript))
        for target, item in pairs:
            bound = self.chk.scopes.lookup(target.id) if isinstance(target, ast.Name) else None
            if isinstance(bound, LocalVar):
                source = ast.Subscript(value_ast.span, value_ast, (ast.IntLit(target.span, item.index),)) \
                    if held else value_ast
                self.chk.sharing.copied(source, item, bound)
        return TBlock(span, stmts + [assign])

    def flatten(self, targets: ast.TupleExpr, value: TExpr, out: list) -> bool:
        """Each name or place of `targets` (nested ones included) with the item it receives."""
        value = as_tuple(self.chk, value)  # a named tuple (nested too): its fields' tuple
        t = value.type
        if not isinstance(t, TupleType):
            self.msg.error("E0213", targets.span, type=t)
            return False
        n, want = len(t.items), len(targets.elts)
        if n > want:
            self.msg.error("E0212", targets.span, expected=want)
            return False
        if n < want:
            self.msg.error("E0236", targets.span, expected=want, found=n)
            return False
        for k, target in enumerate(targets.elts):
            item = TField(target.span, t.items[k], value, k)
            if isinstance(target, ast.TupleExpr):
                if not self.flatten(target, item, out):
                    return False
            else:
                out.append((target, item))
        return True

    def _bind_error(self, target: ast.Expr) -> None:
        """After a failed unpacking its names still exist (as errors), so they are not reported again."""
        if isinstance(target, ast.TupleExpr):
            for t in target.elts:
                self._bind_error(t)
        elif isinstance(target, ast.Name):
            var = self.chk.scopes.lookup(target.id)
            if var is None:
                var = self.chk.new_var(target.id, ERROR, target.span)
                self.chk.scopes.declare(target.id, var, function_wide=True)
            if isinstance(var, LocalVar) and self.chk.assigned is not None:
                self.chk.assigned.add(var)

    def loop_target(self, target: ast.TupleExpr, span: Span) -> tuple[str, list[ast.Stmt]]:
        """`for i, (a, b) in ...`: the loop binds a hidden variable, and its body starts by unpacking it.
        Gives the hidden name and the statement to put first in the body."""
        name = f"$for{self.chk.next_id}"
        return name, [ast.Assign(target.span, (target,), ast.Name(span, name))]  # (span: the iterable's)
