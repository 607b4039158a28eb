"""`xs = []` and `d = {}` with no annotation: the element types come from how the function uses them.

Python code builds most lists and dicts from empty: `out = []` then `out.append(x)`. The checker is
one pass, so such a variable starts *pending*: typed `<error>` (which every later use accepts
silently, so its uses before the first informative one report nothing), and remembered with its
literal. The first use that says what it holds resolves it:

- `xs.append(v)`, `xs.insert(i, v)`: a List of v's type; `xs.extend(ys)`, `xs += ys`: ys's type;
- `d[k] = v`: a Dict from k's type to v's; `d.setdefault(k, v)`, `d.get(k, v)`: the same;
  `d.setdefault(k, []).append(v)` (`d[k].append(v)`): a Dict from k's type to a List of v's;
- the variable passed where a List or Dict is expected (an argument, `return xs` of a function that
  declares its result, an assignment to a variable that has a type): that type.

A resolution aborts the check (`Retry`) and the instantiator checks the function again from the
start with the type as a *hint* for that literal (`FunctionInstance.empty_hints`, by the literal's
node), so every use, the ones before the resolving one too, is checked with the real type; each
retry resolves one more literal, so a function is checked at most once per literal plus once.
A variable nothing resolves is E0287 at its literal, saying to annotate it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, cast

from .. import types as T
from ..diagnostics import Note
from ..syntax import ast
from ..types import ERROR, StructType, Type, default_type
from .builtin_types import is_builtin
from .typed import LocalVar, TExpr, TLocal

if TYPE_CHECKING:
    from .check import FunctionChecker
    from .typed import FunctionInstance

# A check may be retried this many times in all (each retry resolves a literal; a function with
# more empty literals than this gets E0287 for the rest).
MAX_RETRIES = 32


class Retry(Exception):
    """Check the function again: a pending literal's type is known now (recorded in its hints).
    `owner`: the function whose literal it is, when another function's use resolved it (a
    module-level `moves = []` that a function appends to): every check between is abandoned
    and the owner's is started again (monomorphize/instantiate.py)."""

    def __init__(self, owner=None) -> None:
        super().__init__()
        self.owner = owner


def is_empty_literal(value: ast.Expr, module=None) -> bool:
    """`[]`, `{}`, `set()`, `deque()` or `Counter()` (collections', where `module` does not
    define the name itself)."""
    from .pycollections import empty_call
    from .sets import is_empty_set

    return ((isinstance(value, ast.ListExpr) and not value.elts) or (isinstance(value, ast.DictExpr) and not value.keys)
            or is_empty_set(value) or empty_call(value, module) is not None)


def needs_context(value: ast.Expr, module=None) -> bool:
    """A list or dict display with an empty literal among its items, at any depth (`[[]]`,
    `{"k": {}}`, `[[[]]]`): what the empty one holds is known only from a declared type (a
    variable's, a parameter's, a function's result: `FunctionChecker.empty_container`)."""
    stack = [value]
    while stack:  # (a loop: the depth is the user's)
        node = stack.pop()
        items = node.elts if isinstance(node, ast.ListExpr) else node.values if isinstance(node, ast.DictExpr) else ()
        for item in items:
            if is_empty_literal(item, module):
                return True
            stack.append(item)
    return False


def open_display(display: ast.Expr, module=None) -> bool:
    """A list or dict display whose empty items nothing around them types: all its items are empty
    (`[[]]`, `{"k": {}}`), or one holds an empty one (`[[[]], [[1]]]`). An empty item beside
    others that say its type (`[[], [1]]`) is typed by them (ExpressionChecker._items)."""
    items = display.elts if isinstance(display, ast.ListExpr) else \
        display.values if isinstance(display, ast.DictExpr) else ()
    empties = [is_empty_literal(x, module) for x in items]
    return bool(items) and (all(empties) or any(not empty and needs_context(x, module)
                                                for empty, x in zip(empties, items, strict=True)))


_SPELLED = {"List": "list[int]", "Dict": "dict[str, int]", "Set": "set[int]", "deque": "deque[int]",
            "Counter": "Counter[str]"}  # an example type for an empty literal, as an annotation spells it
_KEYS = {ast.StrLit: "str", ast.IntLit: "int", ast.FloatLit: "float", ast.BoolLit: "bool"}
_SHOWN = 40  # a display's text is quoted in E0100's example up to this length


def _first_open(display: ast.Expr, module) -> int:
    """The index of a display's first item that is empty or holds an empty one (0 where none is)."""
    items = display.elts if isinstance(display, ast.ListExpr) else display.values  # type: ignore[attr-defined]
    return next((i for i, x in enumerate(items) if is_empty_literal(x, module) or needs_context(x, module)), 0)


def _spelled(display: ast.Expr, module) -> str:
    """An annotation for a display whose type its empty items leave open (`list[list[int]]` for
    `[[]]`, `dict[str, dict[str, int]]` for `{"k": {}}`), down its first open item."""
    opened: list[str] = []
    node = display
    for _ in range(8):  # (deeper than that, the example ends in `...`)
        if is_empty_literal(node, module):
            return "".join(opened) + _SPELLED.get(_kind(node), "...") + "]" * len(opened)
        if isinstance(node, ast.ListExpr) and node.elts:
            opened.append("list[")
            node = node.elts[_first_open(node, module)]
        elif isinstance(node, ast.DictExpr) and node.keys:
            at = _first_open(node, module)
            opened.append(f"dict[{_KEYS.get(type(node.keys[at]), 'str')}, ")
            node = node.values[at]
        else:
            break
    return "".join(opened) + "..." + "]" * len(opened)


def report_open_display(chk: FunctionChecker, display: ast.Expr, name: str = "x") -> None:
    """E0100 at the first empty literal of a display nothing gives a type (`grid = [[]]`,
    `print({"k": {}})`), with the annotation that would."""
    module = chk.module
    literal = display
    while not is_empty_literal(literal, module) and isinstance(literal, (ast.ListExpr, ast.DictExpr)):
        items = literal.elts if isinstance(literal, ast.ListExpr) else literal.values
        if not items:
            break
        if mixed_display(chk, literal):  # `[1, [2, []]]`: no annotation would type it
            return
        literal = items[_first_open(literal, module)]
    span = display.span
    text = span.file.text[span.start:span.end]
    if len(text) > _SHOWN or "\n" in text:
        text = "[...]" if isinstance(display, ast.ListExpr) else "{...}"
    chk.msg.error("E0100", literal.span, kind=_kind(literal).lower(),
                  literal=literal.span.file.text[literal.span.start:literal.span.end],
                  display="list" if isinstance(display, ast.ListExpr) else "dict",
                  example=f"{name}: {_spelled(display, module)} = {text}")


_SCALARS = (ast.IntLit, ast.FloatLit, ast.StrLit, ast.BoolLit, ast.NoneLit)


def mixed_display(chk: FunctionChecker, display: ast.Expr) -> bool:
    """E0340 where a display's items mix containers (`[...]`, `{...}`) with constants (`[1, [2]]`,
    `{"desc": "hall", "items": []}`): the empty literal among them has no type to be given."""
    items = display.elts if isinstance(display, ast.ListExpr) else \
        display.values if isinstance(display, ast.DictExpr) else ()
    containers = [x for x in items if isinstance(x, (ast.ListExpr, ast.DictExpr)) or is_empty_literal(x, chk.module)]
    others = [x for x in items if isinstance(x, _SCALARS)
              or (isinstance(x, ast.Unary) and isinstance(x.operand, _SCALARS))]
    if not containers or not others:
        return False
    first, second = sorted((containers[0], others[0]), key=lambda x: x.span.start)
    what = "list" if isinstance(containers[0], ast.ListExpr) else "dict"

    def shown(x: ast.Expr) -> str:
        text = x.span.file.text[x.span.start:x.span.end]
        if len(text) <= _SHOWN and "\n" not in text:
            return f"`{text}`"
        return f"a {what}" if x is containers[0] else "a value"

    chk.msg.error("E0340", display.span, display="list" if isinstance(display, ast.ListExpr) else "dict",
                  first=shown(first), second=shown(second), what=what)
    return True


def _kind(literal: ast.Expr) -> str:
    """The stdlib struct an empty literal makes."""
    from .pycollections import empty_call

    return "List" if isinstance(literal, ast.ListExpr) else "Dict" if isinstance(literal, ast.DictExpr) \
        else empty_call(literal) or "Set"


def first_use(decl: ast.FnDef, name: str, literal: ast.Expr) -> tuple[Note, ...]:
    """A note at the first use of `name` after its empty literal, saying why that use could not
    tell what it holds (nothing where the name is not used again), and one at its first use in a
    nested function, if that is another."""
    uses: list[tuple[ast.Name, ast.Node | None, ast.FnDef]] = []
    stack: list[tuple[ast.Node, ast.Node | None, ast.FnDef]] = [(s, None, decl) for s in decl.body]
    while stack:  # (a loop: the depth is the user's)
        node, parent, within = stack.pop()
        if isinstance(node, ast.Name) and node.id == name and node.span.start >= literal.span.end:
            uses.append((node, parent, within))
        inner = node if isinstance(node, ast.FnDef) else within
        stack.extend((child, node, inner) for child in ast.children(node))
    uses.sort(key=lambda use: use[0].span.start)
    nested = next((use for use in uses if use[2] is not decl), None)
    shown = uses[:1] + ([nested] if nested is not None and nested is not uses[0] else [])
    return tuple(Note(_why(name, *use, decl), use[0].span) for use in shown)


def _why(name: str, node: ast.Name, parent: ast.Node | None, within: ast.FnDef, decl: ast.FnDef) -> str:
    if within is not decl and not _calls(decl, within.name) and any(p.annotation is None for p in within.params):
        return f"`{name}` is used here, in the nested function `{within.name}`, which `{decl.name}` does not " \
               f"call: nothing says what its parameters hold (annotate them, or `{name}`)"
    if within is not decl:
        return f"`{name}` is used here, in the nested function `{within.name}`, which said nothing of it where " \
               f"the function calls `{within.name}`"
    if isinstance(parent, ast.Call) and node in parent.args:
        callee = parent.func.id if isinstance(parent.func, ast.Name) else \
            parent.func.attr if isinstance(parent.func, ast.Attribute) else "a function"
        return f"`{name}` is first used here, passed to `{callee}`: what the function it is passed to does " \
               f"with it does not type it yet"
    if isinstance(parent, ast.Return):
        return f"`{name}` is first used here, returned by a function that does not say what it returns"
    return f"`{name}` is first used here, which does not say what it holds"


def _calls(decl: ast.FnDef, name: str) -> bool:
    """Whether decl's body calls `name` (a nested function) by that name."""
    stack: list[ast.Node] = list(decl.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name:
            return True
        stack.extend(ast.children(node))
    return False


class EmptyLiterals:
    """The checker's collaborator for empty literals with no annotation (`FunctionChecker.empties`)."""

    def __init__(self, chk: FunctionChecker) -> None:
        self.chk: FunctionChecker = chk
        self.pending: dict[LocalVar, ast.Expr] = {}
        self.owners: dict[LocalVar, FunctionInstance] = {}  # a pending alias of the script's variable: the script
        self.returns: list[ast.Expr] = []  # `return []` of a `def` whose result nothing typed yet
        # `f(xs)` of a `def` with an unannotated parameter: the container type a call passed there (by
        # the declaration's id and the parameter's index), and the `f([])` waiting for one: (literal, decl, param)
        self.passed: dict[tuple[int, int], Type] = {}
        # nested defs whose closure could not be made while a variable they capture was pending, by
        # name; and, in a probe of one (`nested_call`), the checker it was made in
        self.unmade: dict[str, ast.FnDef] = {}
        self.probed_from: FunctionChecker | None = None
        self.passed_open: dict[tuple[int, int], list[tuple[ast.Expr, ast.FnDef, ast.Param]]] = {}

    @property
    def hints(self) -> dict[int, Type]:
        return self.chk.fn.empty_hints

    def passed_empty(self, literal: ast.Expr, decl: ast.FnDef, param: ast.Param, index: int) -> TExpr:
        """`merge([])`, the parameter unannotated: the container type another call of this function
        passes there (in this function: earlier, or later and then checked again), Python's empty list
        being empty whatever it would hold; pending (`<error>`, quietly) until one does."""
        found = self.hints.get(id(literal)) or self.passed.get((id(decl), index))
        if found is not None and is_builtin(found, _kind(literal)):
            made = self.chk.empty_container(literal, found)
            if made is not None:
                return made
        self.passed_open.setdefault((id(decl), index), []).append((literal, decl, param))
        from .typed import TConst

        return TConst(literal.span, ERROR, None)

    def passing(self, decl: ast.FnDef, params, types: list) -> None:
        """A call of `decl` passes these types: a container passed to an unannotated parameter types
        the `f([])` of this function waiting for one (check again: raises Retry)."""
        from .builtin_types import builtin_role

        for index, (p, t) in enumerate(zip(params, types, strict=False)):
            if p.annotation is not None or builtin_role(t) not in ("List", "Dict", "Set"):
                continue
            key = (id(decl), index)
            self.passed.setdefault(key, t)
            waiting = [lit for lit, _, _ in self.passed_open.get(key, ()) if is_builtin(t, _kind(lit))
                       and id(lit) not in self.hints]
            if waiting and self.chk.fn.retries < MAX_RETRIES:
                for lit in waiting:
                    self.hints[id(lit)] = t
                raise Retry()

    def unmade_closure(self, decl: ast.FnDef, var: LocalVar) -> None:
        """The nested def `decl` captures `var`, still pending: its closure is not made this time."""
        if var in self.pending and not isinstance(self.pending[var], ast.NoneLit):
            self.unmade[decl.name] = decl

    def nested_call(self, name: str, args: list[TExpr]) -> None:
        """`walk(node, prefix)` of a nested def not made for a pending capture (`out = []`, appended
        to in `walk`): check its body once, quietly, with these argument types and the pending
        variable an alias of this function's; a use there that says what it holds types the
        literal (raises Retry for this function), as a use here would."""
        decl = self.unmade.get(name)
        if decl is None or len(args) != len(decl.params) or any(a.type == ERROR for a in args) \
                or any(p.annotation is not None or p.default is not None for p in decl.params):
            return
        self._probe(decl, tuple(self.chk.exprs.string_or(default_type(a.type)) for a in args))

    def _probe_unmade(self) -> None:
        """Before E0287: the nested defs not made for a pending capture and never called here
        (a closure returned, `def add(x: int): items.append(x)`) whose parameters are all annotated
        (or none): their bodies checked quietly with those types, as `nested_call` does."""
        for decl in list(self.unmade.values()):
            if decl.variadic is not None or decl.ct_params \
                    or any(p.annotation is None or p.variadic for p in decl.params):
                continue
            types = tuple(self.chk.type_resolver(cast(ast.Expr, p.annotation), dict(self.chk.ct_env), decl)
                          for p in decl.params)
            if ERROR not in types:
                self._probe(decl, types)

    def _probe(self, decl: ast.FnDef, types: tuple[Type, ...]) -> None:
        from ..diagnostics import DiagnosticBag
        from .check import FunctionChecker
        from .typed import FunctionInstance

        chk = self.chk
        probe = FunctionInstance(decl, chk.fn.module, types, f"{chk.fn.symbol}.<probe {decl.name}>")
        checker = FunctionChecker(chk.module, probe, DiagnosticBag(), chk.instantiate, chk.type_resolver,
                                  chk.comptime_value, chk.home_of)
        checker.empties.probed_from = chk
        try:
            checker.check()
        except Retry as retry:
            if retry.owner is None or retry.owner is probe:
                return  # the probe's own literal: nothing for this function
            raise

    def enter_probe(self) -> None:
        """At the start of a probe's body (`nested_call`): the names it reads from the function it
        is nested in, as there: the pending ones aliases of their literal, the rest their types."""
        outer = self.probed_from
        if outer is None:
            return
        from .closures import scope_of

        decl = self.chk.fn.decl
        for name in scope_of(decl.params, decl.body)[2]:
            found = outer.scopes.lookup(name)
            if not isinstance(found, LocalVar):
                continue
            alias = self.chk.new_var(name, found.type, found.span)
            self.chk.scopes.declare(name, alias)
            if self.chk.assigned is not None:
                self.chk.assigned.add(alias)
            if found in outer.empties.pending:
                owner = outer.empties.owners.get(found, outer.fn)
                self.pending_alias(alias, (outer.empties.pending[found], owner))

    def returned_empty(self, literal: ast.Expr) -> bool:
        """`return []` in a `def` whose result type no `return` fixed yet: True when an earlier
        check learned it (from a later `return`: the function's hint, as optional_returns.py keeps
        "T or None"), now the result type; else False, and the literal waits for `returned`."""
        from .optional_returns import hinted

        found = hinted(self.chk)
        if found is not None:
            self.chk.fn.return_type = found
            return True
        self.returns.append(literal)
        return False

    def returned(self, t: Type) -> None:
        """A `return` fixed the result type t after a `return []`: check the function again with t
        as its result (raises Retry) when t is a container of the literal's kind."""
        if self.returns and t != ERROR and is_builtin(t, _kind(self.returns[0])) \
                and self.chk.fn.retries < MAX_RETRIES and id(self.chk.fn.decl) not in self.hints:
            self.hints[id(self.chk.fn.decl)] = t
            raise Retry()

    def pending_alias(self, alias: LocalVar, origin: tuple) -> None:
        """In a function, a module-level variable the script left pending (semantics/globals.py):
        a use here that says what it holds resolves the script's literal."""
        literal, owner = origin
        self.pending[alias] = literal
        self.owners[alias] = owner

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
            if found.global_symbol is not None and self.chk.globals.script:
                found.pending_origin = (literal, self.chk.fn)

    def _pending_var(self, node: ast.Expr) -> LocalVar | None:
        """The pending container variable `node` names (not a pending `x = None`: no method of a
        container says what it holds)."""
        if isinstance(node, ast.Attribute):
            return self._pending_attribute(node)
        if not self.pending or not isinstance(node, ast.Name):
            return None
        found = self.chk.scopes.lookup(node.id)
        return found if isinstance(found, LocalVar) and found in self.pending \
            and not isinstance(self.pending[found], ast.NoneLit) else None

    def _pending_attribute(self, node: ast.Attribute):
        """`obj.x` (obj a variable), x an attribute of obj's class still pending with an empty
        container as its first value (semantics/attribute_types.py): its uses say what it holds as
        a variable's do, and a resolution checks the program again."""
        from .attribute_types import is_empty_first, pending_of

        if not isinstance(node.value, ast.Name):
            return None
        found = self.chk.scopes.lookup(node.value.id)
        t = getattr(found, "type", None)
        if t is None or t == ERROR:
            return None
        pending = pending_of(self.chk, t, node.attr)
        if pending is None or not is_empty_first(pending):
            return None
        self.pending[pending] = pending.first  # type: ignore[index]  # (an attribute, not a LocalVar)
        return pending

    def assigned(self, var: LocalVar, value: TExpr) -> None:
        """`prev = cur` to a pending `prev = None`: an Optional of what is assigned."""
        if var in self.pending and isinstance(self.pending[var], ast.NoneLit) and value.type != T.NONE:
            self._resolve(var, value.type)

    def optional_of(self, t: Type, literal: ast.Expr) -> Type:
        """An Optional of t (t itself when it is one): what a variable first bound to None holds."""
        from .classes import is_class
        from .module import struct_instance
        from .optional_types import OPTIONAL_TYPE

        if is_builtin(t, "Optional") or is_class(t):  # an object reference may be None already
            return t
        if t == ERROR or (isinstance(t, T.LiteralType) and t not in (T.INT_LITERAL, T.FLOAT_LITERAL)):
            return ERROR
        sym = self.chk.module.structs.get(OPTIONAL_TYPE)
        if sym is None:
            return ERROR
        return struct_instance(sym, (self.chk.exprs.string_or(default_type(t)),), literal.span, self.chk.module,
                               self.chk.msg.bag, self.chk.module.lookup_constant) or ERROR

    def _resolve(self, var: LocalVar, t: Type) -> None:
        """Record the type for var's literal and start the check again (if the type fits the literal)."""
        from .exception_values import kept_type
        literal = self.pending[var]
        if isinstance(literal, ast.NoneLit):  # `prev = None`, later a Node: an Optional[Node]
            t = self.optional_of(kept_type(self.chk, t), literal)
            if t == ERROR or id(literal) in self.hints:
                return
        elif t == ERROR or not is_builtin(t, _kind(literal)) or id(literal) in self.hints:
            return
        from .attribute_types import PendingAttribute, resolve

        if isinstance(var, PendingAttribute):
            resolve(var, t)  # (for the next check of the whole program)
            return
        owner = self.owners.get(var)
        if owner is not None:  # the script's literal: its check starts again, this one is abandoned
            if owner.retries >= MAX_RETRIES or id(literal) in owner.empty_hints:
                return
            if not owner.in_progress:  # (checked already, its E0287 reported: a function it left for later)
                return
            owner.empty_hints[id(literal)] = t
            raise Retry(owner)
        if self.chk.fn.retries >= MAX_RETRIES:
            return
        self.hints[id(literal)] = t
        raise Retry()

    # ---- the uses that say what a pending variable holds ----
    def method_call(self, func: ast.Attribute, e: ast.Call) -> None:
        if isinstance(func.value, ast.Subscript):
            self._element_call(func, e)
            return
        var = self._pending_var(func.value)
        if var is None:
            return
        args = [self.chk.exprs.expr(a) for a in e.args]
        if any(a.type == ERROR for a in args):
            return
        literal = self.pending[var]
        if _kind(literal) in ("deque", "Counter"):  # `q.append(x)`, `c.update(xs)` (semantics/pycollections.py)
            if func.attr in ("append", "appendleft") and len(args) == 1 and _kind(literal) == "deque":
                self._resolve(var, self._collection_of(args[0].type, literal))
            elif func.attr in ("extend", "update") and len(args) == 1 and isinstance(args[0].type, StructType) \
                    and is_builtin(args[0].type, "List"):
                items: Type = args[0].type.ct_env["T"]  # type: ignore[assignment]  # (a type parameter)
                self._resolve(var, self._collection_of(items, literal))
        elif _kind(literal) == "Set":
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
        elif func.attr in ("setdefault", "get") and len(args) == 2 and _kind(literal) == "OrderedDict":
            self._resolve(var, self._defaultdict_of(args[0].type, args[1].type, literal, "OrderedDict"))
        elif func.attr in ("setdefault", "get") and len(args) == 2:
            self._resolve(var, self._dict_of(args[0].type, args[1].type, literal))

    def _element_call(self, func: ast.Attribute, e: ast.Call) -> None:
        """`d[k].append(v)` (`.add(v)`, `.extend(vs)`) on a pending `defaultdict(list)` (`(set)`),
        and on a pending `{}` (`d.setdefault(k, []).append(v)`, spelled so by check.py's
        `setdefault_then_method`): a dict of lists (of sets) of v's type."""
        from .pycollections import factory_of

        target = func.value
        assert isinstance(target, ast.Subscript)
        plain = self._pending_key(target, "Dict")
        if plain is not None:
            args = [self.chk.exprs.expr(a) for a in e.args]
            if len(args) == 1 and args[0].type != ERROR and func.attr in ("append", "add", "extend"):
                element = self._list_of(args[0].type, target) if func.attr == "append" \
                    else self._set_of(args[0].type, target) if func.attr == "add" else args[0].type
                var = self._pending_var(target.value)
                assert var is not None
                self._resolve(var, self._dict_of(plain, element, self.pending[var]))
            return
        key = self._pending_key(target, "defaultdict")
        if key is None:
            return
        factory = factory_of(self.pending[self._pending_var(target.value)])  # type: ignore[arg-type, index]
        args = [self.chk.exprs.expr(a) for a in e.args]
        if len(args) != 1 or args[0].type == ERROR:
            return
        held = None
        if factory == "list" and func.attr == "append":
            held = self._list_of(args[0].type, target)
        elif factory == "set" and func.attr == "add":
            held = self._set_of(args[0].type, target)
        elif factory == "list" and func.attr == "extend":
            held = args[0].type
        elif factory == "deque" and func.attr in ("append", "appendleft"):  # `defaultdict(deque)`
            held = self._collection_of(args[0].type, target, "deque")
        if held is not None:
            var = self._pending_var(target.value)
            assert var is not None
            self._resolve(var, self._defaultdict_of(key, held, self.pending[var]))

    def _pending_key(self, target: ast.Subscript, kind: str) -> Type | None:
        """The key's type of `x[k]`, x a pending variable of this kind (None otherwise)."""
        var = self._pending_var(target.value)
        if var is None or _kind(self.pending[var]) != kind or len(target.items) != 1 \
                or not isinstance(target.items[0], ast.Expr) or isinstance(target.items[0], ast.Slice):
            return None
        key = self.chk.exprs.expr(target.items[0])
        return key.type if key.type != ERROR else None

    def setitem(self, target: ast.Subscript, value: TExpr) -> None:
        """`d[k] = v` on a pending dict."""
        var = self._pending_var(target.value)
        if var is None or len(target.items) != 1 or not isinstance(target.items[0], ast.Expr) \
                or isinstance(target.items[0], ast.Slice) or value.type == ERROR:
            return
        key = self.chk.exprs.expr(target.items[0])
        if key.type != ERROR:
            literal = self.pending[var]
            self._resolve(var, self._collection_of(key.type, literal) if _kind(literal) == "Counter"
                          else self._defaultdict_of(key.type, value.type, literal) if _kind(literal) == "defaultdict"
                          else self._defaultdict_of(key.type, value.type, literal, "OrderedDict")
                          if _kind(literal) == "OrderedDict"
                          else self._dict_of(key.type, value.type, literal))

    def counted(self, target: ast.Subscript) -> None:
        """`c[k] += n` on a pending Counter: a Counter of k's type; on a pending `defaultdict(int)`
        (float, str, bool): from k's type to what the factory makes."""
        from .pycollections import factory_value

        if isinstance(target.value, ast.Subscript):  # `d[k][j] += 1` of `defaultdict(lambda: defaultdict(int))`
            self._nested_counted(target.value, target)
            return
        var = self._pending_var(target.value)
        if var is None:
            return
        literal = self.pending[var]
        key = self._pending_key(target, _kind(literal))
        if key is None:
            return
        if _kind(literal) == "Counter":
            self._resolve(var, self._collection_of(key, literal))
        elif _kind(literal) == "defaultdict":
            held = factory_value(self.chk, literal)  # type: ignore[arg-type]  # (a defaultdict(...) call)
            if held is not None:
                self._resolve(var, self._defaultdict_of(key, held, literal))

    def _nested_counted(self, outer: ast.Subscript, target: ast.Subscript) -> None:
        """`d[k][j] += n` on a pending `defaultdict(lambda: defaultdict(int))`: from k's type to
        defaultdicts from j's type to what the inner factory makes."""
        from .pycollections import factory_of, made_by

        key = self._pending_key(outer, "defaultdict")
        var = self._pending_var(outer.value)
        if key is None or var is None:
            return
        literal = self.pending[var]
        factory = factory_of(literal) if isinstance(literal, ast.Call) else None
        if factory is None or not (factory.startswith("defaultdict(") or factory == "Counter") \
                or len(target.items) != 1 or not isinstance(target.items[0], ast.Expr) \
                or isinstance(target.items[0], ast.Slice):
            return
        inner_key = self.chk.exprs.expr(target.items[0])
        if inner_key.type == ERROR:
            return
        if factory == "Counter":  # `d[k][j] += 1` of `defaultdict(Counter)`: Counters of j's type
            inner = self._collection_of(inner_key.type, literal, "Counter")
        else:
            held = made_by(self.chk, factory[len("defaultdict("):-1])
            if held is None:
                return
            inner = self._defaultdict_of(inner_key.type, held, literal)
        if inner != ERROR:
            self._resolve(var, self._defaultdict_of(key, inner, literal))

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
        if self.chk.globals.script:
            self._ask_functions()
        if self.pending and self.chk.fn.retries < MAX_RETRIES:
            self._probe_unmade()  # (raises Retry where a returned closure's body says what one holds)
        from .attribute_types import PendingAttribute

        for var, literal in self.pending.items():
            if var in self.owners or isinstance(var, PendingAttribute):
                continue  # the script's: reported there; an attribute's: semantics/attribute_types.py
            if isinstance(literal, ast.NoneLit):  # nothing else is ever assigned to it
                self.chk.msg.error("E0132", literal.span, name=var.name)
                continue
            kind = _kind(literal).lower()
            example = {"list": f"{var.name}: list[int] = []", "dict": f"{var.name}: dict[str, int] = {{}}",
                       "set": f"{var.name}: set[int] = set()", "deque": f"{var.name}: deque[int] = deque()",
                       "counter": f"{var.name}: Counter[str] = Counter()",
                       "defaultdict": f"{var.name}: defaultdict[str, int] = defaultdict(int)",
                       "ordereddict": f"{var.name}: OrderedDict[str, int] = OrderedDict()"}[kind]
            self.chk.msg.error("E0287", literal.span, first_use(self.chk.fn.decl, var.name, literal), kind=kind,
                               name=var.name, example=example)
        for waiting in self.passed_open.values():  # `f([])` and no call of f that says what it holds
            for literal, callee, param in waiting:
                kind = _kind(literal).lower()
                text = literal.span.file.text[literal.span.start:literal.span.end]
                spelled = _SPELLED.get(_kind(literal), kind)
                self.chk.msg.error("E0287", literal.span, kind=kind, name=text,
                                   example=f"def {callee.name}(..., {param.name}: {spelled}, ...)")
        decl = self.chk.fn.decl
        if self.returns and self.chk.fn.return_type is None:
            self.chk.fn.return_type = ERROR  # (reported below: its callers say nothing more)
        for literal in self.returns:  # `return []` and no `return` after it that says what it holds
            kind = _kind(literal).lower()
            text = literal.span.file.text[literal.span.start:literal.span.end]
            self.chk.msg.error("E0287", literal.span, kind=kind, name=text,
                               example=f"def {decl.name}(...) -> {_SPELLED.get(_kind(literal), kind)}:")

    def _ask_functions(self) -> None:
        """Before the script reports a module-level variable nothing typed: check the module's
        functions that use it (those with no parameter left to infer), where an `append` may say
        what it holds; one that does restarts the script's check (Retry)."""
        from .globals import bound_names

        names = {var.name for var in self.pending if var.global_symbol is not None}
        if not names:
            return
        for decl in list(self.chk.module.functions.values()):
            if decl is self.chk.fn.decl or decl.ct_params or decl.kind != "def" \
                    or any(p.annotation is None for p in decl.params):
                continue
            local, declared = bound_names(decl.body)
            if not any(ast.mentions(decl.body, n) and (n not in local or n in declared) for n in names):
                continue
            params = tuple(self.chk.type_resolver(p.annotation, {}, decl) for p in decl.params if p.annotation)
            if ERROR not in params:
                self.chk.check_now(decl, params)

    # ---- types ----
    def _instance(self, hidden: str, items: tuple[Type, ...], literal: ast.Expr) -> Type:
        """The stdlib's List/Dict/Set (bound under `hidden`) of these item types, as a literal of
        them would be typed (a string constant's type is String, a caught exception's an exception value)."""
        from .exception_values import kept_type
        from .module import struct_instance

        sym = self.chk.module.structs.get(hidden)
        if sym is None or ERROR in items:
            return ERROR
        items = tuple(self.chk.exprs.string_or(default_type(kept_type(self.chk, t))) for t in items)
        return struct_instance(sym, items, literal.span, self.chk.module, self.chk.msg.bag,
                               self.chk.module.lookup_constant) or ERROR

    def _list_of(self, elem: Type, literal: ast.Expr) -> Type:
        from .module import LIST_LITERAL

        return self._instance(LIST_LITERAL, (elem,), literal)

    def _set_of(self, elem: Type, literal: ast.Expr) -> Type:
        from .sets import SET_LITERAL

        return self._instance(SET_LITERAL, (elem,), literal)

    def _collections_struct(self, name: str, literal: ast.Expr):
        """The struct `deque()` / `collections.deque()` names: imported by name, or read through
        the module (`import collections`)."""
        func = getattr(literal, "func", None)
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            home = self.chk.module.px_modules.get(func.value.id)
            return home.structs.get(name) if home is not None else None
        return self.chk.module.structs.get(name)

    def _collection_of(self, elem: Type, literal: ast.Expr, kind: str | None = None) -> Type:
        """The deque or Counter of `elem` an empty `deque()` / `Counter()` call makes (or a
        `defaultdict(deque)`'s values: kind)."""
        from .module import struct_instance

        sym = self._collections_struct(_kind(literal), literal) if kind is None else self.chk.module.structs.get(kind)
        if sym is None or elem == ERROR:
            return ERROR
        return struct_instance(sym, (self.chk.exprs.string_or(default_type(elem)),), literal.span, self.chk.module,
                               self.chk.msg.bag, self.chk.module.lookup_constant) or ERROR

    def _defaultdict_of(self, key: Type, value: Type, literal: ast.Expr, name: str = "defaultdict") -> Type:
        """The defaultdict (or OrderedDict) from key to value an empty call makes."""
        from .module import struct_instance

        sym = self._collections_struct(name, literal)
        if sym is None or ERROR in (key, value):
            return ERROR
        items = tuple(self.chk.exprs.string_or(default_type(t)) for t in (key, value))
        return struct_instance(sym, items, literal.span, self.chk.module, self.chk.msg.bag,
                               self.chk.module.lookup_constant) or ERROR

    def _dict_of(self, key: Type, value: Type, literal: ast.Expr) -> Type:
        from .module import DICT_LITERAL

        return self._instance(DICT_LITERAL, (key, value), literal)


__all__ = ["EmptyLiterals", "Retry", "T", "is_empty_literal"]
