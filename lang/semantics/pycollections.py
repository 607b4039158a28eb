"""Constructing Python's `collections.deque` and `collections.Counter` (stdlib/_collections.px).

Both structs have an `__init__` that takes no items (`deque(maxlen=N)`, `Counter()`), typed by
where the value goes (an annotation, `xs: deque[int] = deque()`) or by its first use
(semantics/empty_literals.py). Given items, the checker builds the empty container of the items'
type and adds them, as CPython's constructors do (`deque(xs)` is `d = deque(); d.extend(xs)`,
`Counter(xs)` is `c = Counter(); c.update(xs)`):

- a List is added as it is; any other iterable (a string's characters, a range, a dict's keys, a
  generator expression) is first walked into a list, as `list(x)` walks it;
- `deque(xs, maxlen)` / `deque(xs, maxlen=N)` bounds the deque (`_bound`) before the items go in.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .. import types as T
from ..syntax import ast
from ..types import ERROR, StructType, Type
from .builtin_types import is_builtin
from .imports import is_string
from .strformat import Checked
from .typed import TConst, TExpr, TExprStmt, TLocal, TMove, TStmt, TStmtExpr

if TYPE_CHECKING:
    from .check import FunctionChecker

# The struct -> the method that adds an iterable's items.
ADDS = {"deque": "extend", "Counter": "update"}


# defaultdict's factories: the Python name -> whether a value type is what it makes.
FACTORIES: dict[str, Callable[[Type], bool]] = {
    "int": lambda t: t == T.INT, "float": lambda t: t == T.FLOAT64, "bool": lambda t: t == T.BOOL,
    "str": is_string, "list": lambda t: is_builtin(t, "List"), "set": lambda t: is_builtin(t, "Set"),
    "dict": lambda t: is_builtin(t, "Dict"),
    # (collections' containers, made empty by their no-argument constructor: `defaultdict(Counter)`)
    "Counter": lambda t: is_builtin(t, "Counter"), "deque": lambda t: is_builtin(t, "deque")}
# What a defaultdict prints for a factory that is no builtin name (`<class 'collections.Counter'>`).
_FACTORY_MODULE = {"Counter": "collections", "deque": "collections"}
SCALAR_FACTORIES = {"int": T.INT, "float": T.FLOAT64, "bool": T.BOOL}  # (str: the String type)
# `defaultdict(lambda: defaultdict(int))`: a defaultdict of those (its own factory's name comes
# from its value type: stdlib/_collections.px `defaultdict.__init__`).
def _defaultdict_of(inner: str) -> Callable[[Type], bool]:
    def makes(t: Type) -> bool:
        held = t.ct_env.get("V") if isinstance(t, StructType) and is_builtin(t, "defaultdict") else None
        return isinstance(held, Type) and FACTORIES[inner](held)

    return makes


for _inner in ("int", "float", "str", "bool"):
    FACTORIES[f"defaultdict({_inner})"] = _defaultdict_of(_inner)


def _zero_value(body: ast.Expr) -> str | None:
    """The factory whose value `body` always is, for a lambda's body: `0` is int's, `[]` list's,
    `defaultdict(int)` a defaultdict of ints (each call of the lambda makes a new one, as `V()` does)."""
    if isinstance(body, ast.IntLit) and not isinstance(body, ast.BoolLit) and body.value == 0:
        return "int"
    if isinstance(body, ast.FloatLit) and body.value == 0.0:
        return "float"
    if isinstance(body, ast.StrLit) and body.value == "":
        return "str"
    if isinstance(body, ast.BoolLit) and body.value is False:
        return "bool"
    if isinstance(body, ast.ListExpr) and not body.elts:
        return "list"
    if isinstance(body, ast.DictExpr) and not body.keys:
        return "dict"
    if isinstance(body, ast.Call) and isinstance(body.func, ast.Name) and not body.keywords:
        if not body.args and body.func.id in FACTORIES:
            return body.func.id  # `lambda: list()`
        if body.func.id == "defaultdict" and len(body.args) == 1 and isinstance(body.args[0], ast.Name) \
                and body.args[0].id in ("int", "float", "str", "bool"):
            return f"defaultdict({body.args[0].id})"
    return None


def factory_of(call: ast.Call, module=None) -> str | None:
    """The factory of `defaultdict(F)` as a key of FACTORIES: F's name, or for `lambda: v` the
    factory whose value v is (`lambda: 0` is int's), or the name of one of the module's classes made
    without arguments (`defaultdict(Node)`; without the module, any name: the call was judged with it
    before); None for any other argument."""
    if len(call.args) != 1 or call.keywords:
        return None
    arg = call.args[0]
    if isinstance(arg, ast.Name) and (arg.id in FACTORIES or module is None or _class_factory(module, arg.id)):
        return arg.id
    if isinstance(arg, ast.Lambda) and not arg.params:
        return _zero_value(arg.body)
    return None


def _class_factory(module, name: str) -> bool:
    """Whether name is a class of the program whose `__init__` takes no argument (or none is needed)."""
    from ..syntax.classes import OBJECT_FIELD

    sym = module.structs.get(name)
    decl = getattr(sym, "decl", None)
    if not isinstance(decl, ast.StructDef) or not _defined_by_program(module, name) \
            or [f.name for f in decl.fields] != [OBJECT_FIELD]:
        return False
    init = sym.methods.get("__init__")
    return init is None or all(p.default is not None or p.variadic for p in init.params[1:])


def _makes(factory: str, held: Type) -> bool:
    """Whether the factory makes values of type held (a class factory: objects of that class)."""
    from .classes import class_name, is_class

    made = FACTORIES.get(factory)
    return made(held) if made is not None else is_class(held) and class_name(held) == factory


def _class_text(chk: FunctionChecker, held: StructType, span) -> TExpr:
    """What a defaultdict prints for a class factory: `<class '__main__.Node'>` (the class's module's
    name where it is imported), as semantics/type_objects.py prints `type(x)`."""
    from .globals import main_module_flag
    from .typed import LocalVar

    module = getattr(held, "module", "") or chk.module.name
    flag = LocalVar('__name__ == "__main__"', T.BOOL, span, owned=False, global_symbol=main_module_flag(module))
    if chk.assigned is not None:
        chk.assigned.add(flag)  # (set before any code runs)
    flag_name = f"$main{chk.next_id}"
    chk.scopes.declare(flag_name, flag)
    where = ast.IfExp(span, ast.Name(span, flag_name), ast.StrLit(span, "<class '__main__."),
                      ast.StrLit(span, f"<class '{module}."))
    opened = ast.Call(span, ast.Name(span, "str"), (where,), ())  # (a str, which `+` joins)
    text = ast.Binary(span, "+", ast.Binary(span, "+", opened, ast.StrLit(span, held.base or held.name)),
                      ast.StrLit(span, "'>"))
    return chk.exprs.expr(text)


def factory_text(call: ast.Call) -> str:
    """What a defaultdict prints for its factory: `<class 'int'>`, or a lambda's `<function <lambda>>`
    (CPython's adds where the lambda is and its address, which no program can print the same)."""
    arg = call.args[0]
    if isinstance(arg, ast.Lambda):
        return "<function <lambda>>"
    name = factory_of(call)
    return f"<class '{_FACTORY_MODULE[name]}.{name}'>" if name in _FACTORY_MODULE else f"<class '{name}'>"


def empty_call(value: ast.Expr, module=None) -> str | None:
    """"deque", "Counter" or "defaultdict" for `deque()`, `Counter()`, `defaultdict(int)` (one of
    FACTORIES): containers typed later, as `[]` is (semantics/empty_literals.py); None otherwise,
    and None where the program's `module` (its ModuleSymbols) defines the name itself (a user's
    `class Counter:`)."""
    if not isinstance(value, ast.Call) or value.keywords:
        return None
    # `deque()` after `from collections import deque`, or `collections.deque()` after `import collections`
    if isinstance(value.func, ast.Name):
        called = value.func.id
        if module is not None and _defined_by_program(module, called):
            return None
    elif isinstance(value.func, ast.Attribute) and isinstance(value.func.value, ast.Name) \
            and value.func.value.id == "collections":
        called = value.func.attr
    else:
        return None
    if (called in ADDS or called == "OrderedDict") and not value.args:
        return called  # (an OrderedDict is typed as `{}` is: semantics/empty_literals.py)
    if called == "defaultdict" and factory_of(value, module) is not None:
        return "defaultdict"
    return None


def _defined_by_program(module, name: str) -> bool:
    """Whether `name` is a struct, class or function the program declares (not the stdlib's)."""
    from .imports import is_stdlib_file

    for table in ("structs", "functions"):
        sym = getattr(module, table, {}).get(name)
        span = getattr(getattr(sym, "decl", sym), "span", None)
        if span is not None and not is_stdlib_file(span.file.name):
            return True
    return False


def factory_value(chk: FunctionChecker, literal: ast.Call) -> Type | None:
    """What `defaultdict(int)`'s factory makes, where that alone says it (int, float, bool, str)."""
    name = factory_of(literal)
    return made_by(chk, name) if name is not None else None


def made_by(chk: FunctionChecker, factory: str) -> Type | None:
    """The value type of the factory int, float, bool or str; None for the others."""
    if factory == "str":
        return chk.exprs.string_type()
    return SCALAR_FACTORIES.get(factory)


def declared_as_made(chk: FunctionChecker, s: ast.VarDecl, declared: Type | None) -> Type | None:
    """`d: dict[K, V] = defaultdict(f)` (what mypy wants written: a defaultdict is a dict): Python's
    `d` is the defaultdict whatever the annotation says, so it is typed `defaultdict[K, V]`, and a
    missing key calls `f()` as in Python. Other declarations are returned as they are."""
    if declared is None or s.value is None or empty_call(s.value, chk.module) != "defaultdict" \
            or not is_builtin(declared, "Dict") or not isinstance(s.annotation, ast.Subscript):
        return declared
    made = chk.resolve_type(ast.Subscript(s.annotation.span, s.value.func, s.annotation.items))  # type: ignore[attr-defined]
    return made if made != ERROR else declared


def empty_value(chk: FunctionChecker, value: ast.Call, declared: Type | None) -> TExpr | None:
    """`deque()`, `Counter()` or `defaultdict(f)` as a value of the declared (or inferred) type; None
    where that type is not the container the call makes."""
    kind = empty_call(value, chk.module)
    if kind == "defaultdict" and isinstance(declared, StructType) and is_builtin(declared, "Dict"):
        factory_name = factory_of(value, chk.module)
        chk.msg.error("E0200", value.span, call=value.span.file.text[value.span.start:value.span.end],
                      declared=declared, factory=factory_name)
        return TConst(value.span, ERROR, None)
    if kind is None or not isinstance(declared, StructType) or not is_builtin(declared, kind):
        return None
    sym: Any = declared.symbol
    made = chk.calls.finish_call(sym.methods["__init__"], [], value.span, value.span, declared)
    if kind != "defaultdict" or made.type == ERROR:
        return made
    factory = factory_of(value, chk.module)
    assert factory is not None  # (empty_call checked it)
    held: Any = declared.ct_env["V"]
    if not _makes(factory, held):
        chk.msg.error("E0283", value.span, factory=factory, type=held)
        return TConst(value.span, ERROR, None)
    var = chk.new_var("$defaultdict", declared, value.span)
    chk.ownership.need_drop(declared, value.span)
    text = chk.exprs.expr(ast.StrLit(value.span, factory_text(value))) if factory in FACTORIES \
        else _class_text(chk, held, value.span)
    named = chk.structs.method_call(TLocal(value.span, declared, var), "_made_by", [text], value.span)
    if named is None or named.type == ERROR:
        return TConst(value.span, ERROR, None)
    return TStmtExpr(value.span, declared, [chk.store([var], [made], value.span), TExprStmt(value.span, named)],
                     TMove(value.span, declared, var))


def returned_defaultdict(decl: ast.FnDef) -> ast.Expr | None:
    """`def f() -> dict[K, V]:` whose every `return` is `return d`, d declared `d: dict[K, V] =
    defaultdict(F)` in it: Python's result is that defaultdict, so its type is `defaultdict[K, V]`
    (returned, as `declared_as_made` types d). None for any other function."""
    returns = decl.returns
    if decl.kind != "def" or not (isinstance(returns, ast.Subscript) and isinstance(returns.value, ast.Name)
                                  and returns.value.id in ("dict", "Dict")):
        return None
    text = returns.span.file.text

    def shown(n: ast.Node) -> str:
        return text[n.span.start:n.span.end]

    names: set[str] = set()
    made: set[str] = set()
    stack: list[ast.Node] = list(decl.body)
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.FnDef, ast.Lambda)):
            continue  # (their returns are their own)
        if isinstance(n, ast.Return):
            if not isinstance(n.value, ast.Name):
                return None
            names.add(n.value.id)
        if isinstance(n, ast.VarDecl) and n.annotation is not None and n.value is not None \
                and shown(n.annotation) == shown(returns) and empty_call(n.value) == "defaultdict":
            made.add(n.name)
        stack.extend(ast.children(n))
    if len(names) != 1 or not names <= made:
        return None
    return ast.Subscript(returns.span, ast.Name(returns.value.span, "defaultdict"), returns.items)


def passed_as_dict(declared: Type, found: Type) -> Type:
    """The type a `def`'s parameter annotated `dict[K, V]` takes for an argument of type found: a
    `defaultdict[K, V]`, `OrderedDict[K, V]` or (V an int) `Counter[K]` as it is, the object Python
    passes (a missing key read through the parameter is the defaultdict's, and it prints as itself),
    the function made once for it as for an unannotated parameter; declared for anything else."""
    if not (isinstance(declared, StructType) and is_builtin(declared, "Dict") and isinstance(found, StructType)):
        return declared
    key, value = declared.ct_env.get("K"), declared.ct_env.get("V")
    if any(is_builtin(found, kind) for kind in ("defaultdict", "OrderedDict")):
        same = found.ct_env.get("K") == key and found.ct_env.get("V") == value
    else:
        same = is_builtin(found, "Counter") and found.ct_env.get("K") == key and value == T.INT
    return found if same else declared


def unsupported_defaultdict(chk: FunctionChecker, e: ast.Call) -> TExpr:
    """`defaultdict(...)` that is not `defaultdict(F)` for a factory of FACTORIES (E0282)."""
    shown = ", ".join(x.span.file.text[x.span.start:x.span.end] for x in (*e.args, *e.keywords))
    chk.msg.error("E0282", e.span, call=f"defaultdict({shown})")
    return TConst(e.span, ERROR, None)


def is_python_collection(t) -> bool:
    return any(is_builtin(t, name) for name in (*ADDS, "defaultdict", "OrderedDict"))


def _as_list(chk: FunctionChecker, items: ast.Expr) -> TExpr:
    """The items of any iterable, as a List (a List itself as it is)."""
    item = ast.Name(items.span, "$item")
    if isinstance(items, ast.Comprehension) and items.kind == "generator":
        return chk.exprs.expr(ast.Comprehension(items.span, "list", items.elt, items.value, items.clauses))
    if isinstance(items, ast.Call) and isinstance(items.func, ast.Name) and items.func.id == "range":
        # a range is only walked by a loop (no range value exists)
        walk = ast.CompFor(items.span, item, items)
        return chk.exprs.expr(ast.Comprehension(items.span, "list", item, None, (walk,)))
    value = chk.exprs.value(chk.exprs.expr(items))
    if value.type == ERROR or is_builtin(value.type, "List"):
        return value
    walk = ast.CompFor(items.span, item, Checked(items.span, value))
    return chk.exprs.expr(ast.Comprehension(items.span, "list", item, None, (walk,)))


def construct(chk: FunctionChecker, sym, e: ast.Call) -> TExpr | None:
    """`deque(xs[, maxlen])` / `Counter(xs)`; None for the ordinary constructor (no items)."""
    from .module import struct_instance

    name = sym.decl.name
    if name == "defaultdict":  # a factory of FACTORIES is typed by its uses: empty_literals.py, empty_value
        return unsupported_defaultdict(chk, e)
    if name == "OrderedDict" and e.args:
        return _ordered_dict(chk, sym, e)
    if not e.args or name not in ADDS:
        return None
    bound = [kw.value for kw in e.keywords if kw.name == "maxlen" and name == "deque"] + list(e.args[1:])
    unknown = [kw for kw in e.keywords if not (kw.name == "maxlen" and name == "deque")]
    for kw in unknown:
        chk.msg.error("E0207", kw.span, func=name, name=kw.name)
    if len(bound) > (1 if name == "deque" else 0):
        chk.msg.error("E0204", e.span, func=name, expected="at most 2" if name == "deque" else "at most 1",
                      s="s", found=len(e.args) + len(e.keywords))
        return TConst(e.span, ERROR, None)
    if unknown:
        return TConst(e.span, ERROR, None)
    items = _as_list(chk, e.args[0])
    if items.type == ERROR:
        return items
    if not isinstance(items.type, StructType) or not is_builtin(items.type, "List"):
        chk.msg.error("E0205", e.args[0].span, found=items.type, expected=f"the items of a {name}")
        return TConst(e.span, ERROR, None)
    element = items.type.ct_env["T"]
    t = struct_instance(sym, (element,), e.span, chk.module, chk.msg.bag, chk.module.lookup_constant)
    if t == ERROR or not isinstance(t, StructType):
        return TConst(e.span, ERROR, None)
    made = chk.calls.finish_call(sym.methods["__init__"], [], e.span, e.func.span, t)
    if made.type == ERROR:
        return made
    var = chk.new_var(f"${name}", t, e.span)
    chk.ownership.need_drop(t, e.span)
    body: list[TStmt] = [chk.store([var], [made], e.span)]
    calls = [("_bound", [chk.exprs.value(chk.exprs.expr(b))]) for b in bound] + [(ADDS[name], [items])]
    for method, args in calls:
        done = chk.structs.method_call(TLocal(e.span, t, var), method, args, e.span)
        if done is None or done.type == ERROR:
            return TConst(e.span, ERROR, None)
        body.append(TExprStmt(e.span, done))
    return TStmtExpr(e.span, t, body, TMove(e.span, t, var))


def _ordered_dict(chk: FunctionChecker, sym, e: ast.Call) -> TExpr:
    """`OrderedDict(pairs)` (a list or other iterable of 2-tuples) or `OrderedDict(d)` (a dict's
    items): an empty OrderedDict of the pairs' types, the pairs stored in order."""
    from .module import struct_instance

    if len(e.args) != 1 or e.keywords:
        chk.msg.error("E0204", e.span, func="OrderedDict", expected="at most 1", s="",
                      found=len(e.args) + len(e.keywords))
        return TConst(e.span, ERROR, None)
    source = chk.exprs.value(chk.exprs.expr(e.args[0]))
    if source.type == ERROR:
        return source
    walked: ast.Expr
    if is_builtin(source.type, "Dict") or is_builtin(source.type, "OrderedDict"):
        walked = ast.Call(e.span, ast.Attribute(e.span, Checked(e.span, source), "items"), (), ())
    else:
        walked = Checked(e.span, source)
    item = ast.Name(e.span, "$item")
    items = chk.exprs.expr(ast.Comprehension(e.span, "list", item, None, (ast.CompFor(e.span, item, walked),)))
    if items.type == ERROR:
        return items
    pair = items.type.ct_env.get("T") if isinstance(items.type, StructType) and is_builtin(items.type, "List") else None
    if not isinstance(pair, T.TupleType) or len(pair.items) != 2:
        chk.msg.error("E0205", e.args[0].span, found=source.type, expected="the (key, value) pairs of an OrderedDict")
        return TConst(e.span, ERROR, None)
    t = struct_instance(sym, tuple(pair.items), e.span, chk.module, chk.msg.bag, chk.module.lookup_constant)
    if t == ERROR or not isinstance(t, StructType):
        return TConst(e.span, ERROR, None)
    made = chk.calls.finish_call(sym.methods["__init__"], [], e.span, e.func.span, t)
    if made.type == ERROR:
        return made
    var = chk.new_var("$OrderedDict", t, e.span)
    chk.ownership.need_drop(t, e.span)
    added = chk.structs.method_call(TLocal(e.span, t, var), "_add_pairs", [items], e.span)
    if added is None or added.type == ERROR:
        return TConst(e.span, ERROR, None)
    return TStmtExpr(e.span, t, [chk.store([var], [made], e.span), TExprStmt(e.span, added)], TMove(e.span, t, var))
