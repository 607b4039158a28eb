"""Module-level names: functions and compile-time constants, resolved regardless of order."""
from __future__ import annotations

import functools
import string
from collections.abc import Callable
from dataclasses import replace

from .. import types as T
from ..diagnostics import DiagnosticBag, Note
from ..diagnostics.codes import NOT_IN_PYX
from ..syntax import ast
from ..syntax.build_ast import VAR_TUPLE, ZIP_ROWS
from ..syntax.bytes_literals import BYTES_LITERAL
from ..syntax.inheritance import DOWN, UP
from ..syntax.nested_spec import NESTED_FORMAT
from ..syntax.pending_attributes import is_pending_annotation
from ..types import ERROR, Type
from . import implicit_mut, int_methods, runtime_format
from .attribute_types import resolve_pending
from .closures import callable_params, is_callable_annotation
from .everyday import ITERTOOLS_REWRITTEN, STR_REWRITTEN, TUPLE_ITERTOOLS
from .generators import iterable_params
from .optional_types import OPTIONAL_NAMES, OPTIONAL_TYPE, filter_typing_import, typing_type, uses_optional_spelling
from .rules import FUTURE_NAMES
from .scope import ComptimeSymbol, ModuleSymbols, StructSymbol
from .slicing import SLICE_SUFFIX, is_slice_overload
from .strformat import FORMAT_FIELD, PERCENT_FIELD, REPR_FIELD
from .text_tables import MAKETRANS


def collect(module: ast.Module, diags: DiagnosticBag, loader, name: str | None = None) -> ModuleSymbols:
    """The module's own declarations, then its imports: `math`, or .px modules the loader (imports.py)
    finds and collects first, once each, even in a cycle."""
    from .closure_loops import collect_algorithm_import, is_algorithm_import
    from .gpu_imports import collect_gpu_import, is_gpu_import
    from .mathlib import MODULES

    symbols = ModuleSymbols(name or module.name, attribute_types=loader.attribute_types)
    seen: dict[str, ast.Node] = {}
    pending: list[ast.Import] = []
    for item in module.body:
        if isinstance(item, ast.Import):
            if item.module in MODULES:
                _collect_import(item, symbols, seen, diags)
                if item.module == "math":
                    pending.append(item)  # its integer functions: _bind_math_integers, once registered
            elif is_gpu_import(item.module):  # Mojo's `from gpu import thread_idx, ...`
                collect_gpu_import(item, symbols, seen, diags)
            elif is_algorithm_import(item.module):  # Mojo's `from algorithm import parallelize, vectorize`
                collect_algorithm_import(item, diags)
            else:
                pending.append(item)
            continue
        if isinstance(item, ast.TraitDef):
            if item.name in seen or item.name in T.TYPE_NAMES or item.name in MARKER_TRAITS:
                diags.error("E0102", item.name_span, name=item.name)
                continue
            seen[item.name] = item
            symbols.traits[item.name] = item
            continue
        if type(item).__name__ == "ExceptionClassDef":  # `class E(Exception): pass` (syntax/inheritance.py)
            if item.name in seen:
                diags.error("E0102", item.name_span, name=item.name)
                continue
            seen[item.name] = item
            symbols.exceptions[item.name] = item.base
            continue
        if isinstance(item, ast.StructDef):
            if item.name in seen or item.name in T.TYPE_NAMES:
                diags.error("E0102", item.name_span, name=item.name)
                continue
            seen[item.name] = item
            symbols.structs[item.name] = _struct_symbol(item, symbols.name, diags)
            symbols.structs[item.name].home = symbols
        if isinstance(item, (ast.FnDef, ast.Comptime)):
            if item.name in seen:
                first = seen[item.name]
                diags.error("E0102", item.name_span,
                            (Note("first defined here", getattr(first, "name_span", first.span)),), name=item.name)
                continue
            seen[item.name] = item
            if isinstance(item, ast.FnDef):
                item = callable_params(item)  # `f: Callable[[int], int]`: one instance per function passed
                item = iterable_params(item)  # `xs: Iterable[int]`: one instance per kind of iterable passed
                symbols.functions[item.name] = item
                _check_fn_params(item, diags)
            else:
                symbols.comptimes[item.name] = ComptimeSymbol(item)
    # A `def` parameter the body changes in place is taken by reference, as Python shares it.
    symbols.functions = implicit_mut.infer(symbols.functions, {n: s.decl for n, s in symbols.structs.items()})
    loader.register(module, symbols)
    for item in pending:
        if item.module == "math":
            _bind_math_integers(item, symbols, seen, diags, loader)
            continue
        wanted = filter_typing_import(item, symbols, seen, diags)  # `from typing import Any`: E0012
        if wanted is not None:
            _bind_import(wanted, symbols, seen, diags, loader)
    _bind_prelude(module, symbols, seen, diags, loader)
    return symbols


@functools.cache
def prelude() -> dict[str, str]:
    """The standard library names every module sees without an import (Mojo's prelude), name ->
    stdlib module: the `from M import a, b` lines of stdlib/prelude.px, which the stdlib owns."""
    from ..runtime import cache
    from ..source import SourceFile
    from ..syntax.parser import parse
    from .imports import STDLIB

    def read(source: SourceFile) -> dict[str, str]:
        names: dict[str, str] = {}
        for item in parse(source).body:
            if not (isinstance(item, ast.Import) and item.from_import):
                raise RuntimeError(f"stdlib/prelude.px:{item.span.line}: only `from M import ...` lines belong here")
            names.update((alias, item.module) for _, alias in item.names)
        return names

    # Remembered in the user cache directory, not the build's (`pyx cache info` counts builds): a
    # first parse in the process costs 4 to 5 ms of CPU (Lark builds the lexers it needs).
    source = SourceFile.read(str(STDLIB / "prelude.px"))
    remembered = cache.remembered("prelude", source.text, lambda: read(source))
    return {str(name): str(home) for name, home in remembered.items()}


def _bind_prelude(module: ast.Module, symbols: ModuleSymbols, seen: dict, diags: DiagnosticBag, loader) -> None:
    """`from collections import List`, implied where the module uses `List` and defines no `List`
    of its own. Only modules that use a prelude name (in code, not in a comment) load its
    stdlib module."""
    summary = loader.summary(module)  # a stdlib module's walk, kept with its cached tree (parse_cache.py)
    if summary is None:
        loader.walked.append(module.span.file.name)
    uses = _Uses.restore(summary) if summary is not None else _Uses(module)
    for name, home in prelude().items():
        if name in seen or name not in uses.names or loader.is_stdlib(module, home):
            continue
        _bind_import(ast.Import(module.span, home, None, ((name, name),), True), symbols, seen, diags, loader,
                     stdlib=True)
    for wanted, home, names in _HIDDEN:
        if not loader.is_stdlib(module, home) and wanted(uses, module):
            _bind_import(ast.Import(module.span, home, None, names(), True), symbols, seen, diags, loader, stdlib=True)


def _semantics(name: str):
    """semantics/<name>.py, imported when a hidden binding first needs its names (a module that
    needs none does not pay for the import at its cold start)."""
    import importlib

    return importlib.import_module(f".{name}", __package__)


def _names_an_exception(uses: _Uses, module: ast.Module) -> bool:
    """`errors: list[Exception] = [AppError("x")]`: an exception class named in code (semantics/exception_values.py)."""
    from .exceptions import PARENT

    classes = {str(getattr(d, "name", "")) for d in module.body if type(d).__name__ == "ExceptionClassDef"}
    return bool(uses.names & (PARENT.keys() | classes))

def _nested_spec(text: str) -> bool:
    """Whether a `str.format` string has a field whose spec holds a `{...}`."""
    try:
        return any(spec and "{" in spec for _text, _name, spec, _conv in string.Formatter().parse(text))
    except ValueError:
        return False  # (reported when the call is checked)


def _parses(name: str, text: str) -> bool:
    """Whether Python's int() or float() reads this text (a constant folded when compiling)."""
    try:
        (int if name == "int" else float)(text)
    except ValueError:
        return False
    return True


def _unpacking_sides(node: ast.Assign | ast.For) -> list[ast.Expr]:
    """The tuples of `a, b = ...` and `for a, b in ...` that build no tuple: the targets (nested
    ones too), and the values of a swap `a, b = b, a` (assigned item by item)."""
    targets = [t for t in (node.targets if isinstance(node, ast.Assign) else (node.target,))
               if isinstance(t, ast.TupleExpr)]
    sides: list[ast.Expr] = []
    while targets:
        t = targets.pop()
        sides.append(t)
        targets.extend(x for x in t.elts if isinstance(x, ast.TupleExpr))
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.TupleExpr) \
            and isinstance(node.value, ast.TupleExpr) and len(node.value.elts) == len(node.targets[0].elts) \
            and not any(isinstance(x, ast.TupleExpr) for x in node.targets[0].elts):
        sides.append(node.value)
    return sides


def _mixes_numbers(values) -> bool:
    from .numbers import mixes_numbers  # (`[1, 2.5]`, `n if c else 0.5`)

    return mixes_numbers(values)


def _value_returns(body) -> int:
    """How many `return <value>` a function's body holds (nested functions left out)."""
    count, stack = 0, list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Return):
            count += node.value is not None
        elif isinstance(node, ast.Stmt) and not isinstance(node, ast.FnDef):
            stack.extend(c for c in ast.children(node) if isinstance(c, ast.Stmt))
    return count


def _called_name(func: ast.Expr) -> str:
    """`f` of `f(...)` or of `m.f(...)` ("" for any other callee)."""
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


class _Uses:
    """What a module's code uses, in one walk: the names it mentions, the kinds of literal it
    writes, and whether it treats string literals as Python's str (a method called on one,
    `"-" * 3`, one in a list or dict literal or kept in a variable, or `str`): only then is the
    stdlib's String loaded for them."""

    def __init__(self, module: ast.Module):
        self.names: set[str] = set()
        self.kinds: set[type] = set()
        self.text = False
        self.formatting = False  # `%` on a string literal, or its `.format(...)`
        self.maketrans = False  # `str.maketrans(...)` (semantics/text_tables.py)
        self.optional = False  # `X | None`, `x if c else None` (optional_types.py)
        self.tuples = False  # a tuple built (not only `a, b = b, a`, nor a target unpacking one)
        self.range_values = False  # `range(...)` anywhere but as a `for` loop's (or clause's) iterable
        self.numbers = False  # Python's `int | float` may be needed (semantics/numbers.py)
        self.true_division = False  # `a / b` (no float literal in it): of two ints in a `def`, stdlib/true_division.px
        self.runtime_slices = False  # `x[a:b]` with a bound not written as a number (`t[:n]` of a tuple: tuples.py)
        walk = _UsesWalk(self, {d.name for d in module.body if isinstance(d, ast.FnDef) and d.kind == "def"
                                and any(p.annotation is None and p.name != "self" for p in d.params)},
                         {d.name for d in module.body if isinstance(d, ast.FnDef) and d.kind == "fn"})
        stack: list[ast.Node] = [module]
        while stack:  # (a parent is visited before its children)
            node = stack.pop()
            kind = type(node)
            self.kinds.add(kind)
            visit = getattr(walk, "visit_" + kind.__name__, None)
            if visit is not None:
                visit(node)
            stack.extend(ast.children(node))

    def summary(self) -> dict:
        """What the walk found, as JSON: kept beside a stdlib module's tree in the parse cache, so
        that a module read from there is not walked again (`restore` gives this object back)."""
        return {k: sorted(c.__name__ for c in v) if k == "kinds" else sorted(v) if isinstance(v, set) else v
                for k, v in vars(self).items()}

    @classmethod
    def restore(cls, summary: dict) -> _Uses:
        uses = cls.__new__(cls)
        for k, v in summary.items():
            setattr(uses, k, {getattr(ast, n) for n in v} if k == "kinds" else set(v) if isinstance(v, list) else v)
        return uses


def _number_literal(e: ast.Expr) -> bool:
    """`3` or `-3`."""
    return isinstance(e.operand if isinstance(e, ast.Unary) and e.op == "-" else e, ast.IntLit)


def _has_str(nodes: list) -> bool:
    return any(isinstance(x, ast.StrLit) for x in nodes)


class _UsesWalk:
    """The walk that fills a `_Uses`: `visit_<node class>` for each kind of node it looks into
    (the walk's own state is kept here, off `_Uses`, whose fields are its summary)."""

    def __init__(self, uses: _Uses, untyped_defs: set[str], fns: set[str]):
        self.uses = uses
        self.untyped_defs = untyped_defs  # the module's `def`s with an unannotated parameter
        self.fns = fns  # the module's `fn`s: their parameters are typed, a literal passed there stays one
        self.loop_ranges: set[int] = set()  # ids of `for` loops' (and clauses') iterables
        self.unpacking: set[int] = set()  # ids of the tuples that build none (_unpacking_sides)

    def visit_TupleExpr(self, node: ast.TupleExpr) -> None:
        self.uses.tuples = self.uses.tuples or id(node) not in self.unpacking
        self.uses.text = self.uses.text or _has_str(node.elts)

    def visit_ListExpr(self, node: ast.ListExpr) -> None:
        self.uses.text = self.uses.text or _has_str(node.elts)
        self.uses.numbers = self.uses.numbers or _mixes_numbers(node.elts)  # `[1, 2.5]` (semantics/numbers.py)

    def visit_Assert(self, node: ast.Assert) -> None:
        # `assert n > 0, n`: the message made at run time is str(n), a String (check.py stmt_Assert)
        self.uses.text = self.uses.text or (node.msg is not None and not isinstance(node.msg, ast.StrLit))

    def visit_Compare(self, node: ast.Compare) -> None:
        # `"ab" in "cab"`: a substring test, String's `__contains__` (expressions.expr_Compare)
        self.uses.text = self.uses.text or any(op in ("in", "not in") and isinstance(c, ast.StrLit)
                                               for op, c in zip(node.ops, node.comparators))

    def visit_Assign(self, node: ast.Assign) -> None:
        uses = self.uses
        self.unpacking.update(id(t) for t in _unpacking_sides(node))
        # `prev = None`, later a value: an Optional of it (semantics/empty_literals.py)
        uses.optional = uses.optional or isinstance(node.value, ast.NoneLit)
        if any(isinstance(t, ast.TupleExpr) for t in node.targets) and not isinstance(node.value, ast.TupleExpr):
            # `a, b = line.split()` may unpack a list: its length error's message is built
            # with str(); `first, *rest = xs` slices it, or lists a tuple's items
            # (semantics/sequence_unpack.py)
            uses.text = True
            uses.kinds.update((ast.Slice, ast.ListExpr))
        uses.text = uses.text or isinstance(node.value, ast.StrLit)

    def visit_Return(self, node: ast.Return) -> None:
        # `return None` beside `return 1`: the result is an Optional (semantics/optional_returns.py)
        self.uses.optional = self.uses.optional or isinstance(node.value, ast.NoneLit)
        self.uses.text = self.uses.text or isinstance(node.value, ast.StrLit)  # (an Optional of it holds a str)

    def visit_For(self, node: ast.For) -> None:
        self.unpacking.update(id(t) for t in _unpacking_sides(node))
        self.visit_CompFor(node)

    def visit_CompFor(self, node: ast.For | ast.CompFor) -> None:
        if isinstance(node.iter, ast.StrLit):
            self.uses.text = True  # `for ch in "abc"` walks a str
        self.loop_ranges.add(id(node.iter))  # (a parent is walked before its children)

    def visit_Call(self, node: ast.Call) -> None:
        callee = node.func.id if isinstance(node.func, ast.Name) else None
        if callee is not None:
            self.builtin_call(node, callee)
        self.collecting_call(node, callee)
        # `Shape("name")`, `greet("ann")` (a `def`, or a name a decorator bound), `obj.set("x")`: a parameter, or
        # an attribute it is stored in, holds a str. Not a module `fn`'s (`_same(kind, "SystemExit")`), nor a C
        # function's (`external_call["puts", Int32]("hi")`): the runtime units do both and must not load String
        if (callee is not None and callee != "print" and callee not in self.fns) \
                or isinstance(node.func, ast.Attribute):
            self.uses.text = self.uses.text or _has_str(node.args)

    def builtin_call(self, node: ast.Call, callee: str) -> None:
        """`tuple(...)`, `range(...)`, `int(...)` and `float(...)`."""
        uses = self.uses
        if callee == "tuple":
            # `tuple("abc")`, `tuple([a, b])`: a tuple display (semantics/tuple_calls.py)
            uses.tuples = True
            uses.text = uses.text or _has_str(node.args)
        if callee == "range" and id(node) not in self.loop_ranges:
            uses.range_values = True
        if callee == "int" and (len(node.args) == 2 or node.keywords):
            uses.text = True  # `int("ff", 16)`: String's `_int_base` (semantics/everyday.py)
        if callee in ("int", "float") and len(node.args) == 1 and isinstance(node.args[0], ast.StrLit) \
                and not _parses(callee, node.args[0].value):
            uses.text = True  # `int("abc")` raises its ValueError at run time: String's `__int__`

    def collecting_call(self, node: ast.Call, callee: str | None) -> None:
        """Calls that walk a str given them, or collect items into a List."""
        uses = self.uses
        if callee in ("enumerate", "zip"):
            uses.text = uses.text or _has_str(node.args)  # walks a str
        elif callee in self.untyped_defs:
            # `collect("ab")` of a `def collect(xs)`: the parameter is a str (calls.py: string_or)
            uses.text = uses.text or _has_str(node.args)
        elif callee in ("sorted", "set", "Counter", "deque") or (callee in ("min", "max") and node.keywords):
            # they may collect the items into a List (comprehensions.py, closures.py, pycollections.py)
            uses.kinds.add(ast.ListExpr)
            if callee in ("Counter", "deque"):  # `Counter("abc")` walks a str
                uses.text = uses.text or _has_str(node.args)
        elif _called_name(node.func) in ITERTOOLS_REWRITTEN or (
                isinstance(node.func, ast.Attribute) and node.func.attr in STR_REWRITTEN):
            # `permutations("abc", 2)`: tuples of a list's items; `"".join(reversed(s))`, `s.endswith((a, b))`:
            # a list of the items (semantics/everyday.py)
            uses.tuples = uses.tuples or _called_name(node.func) in TUPLE_ITERTOOLS
            uses.kinds.add(ast.ListExpr)
            uses.text = uses.text or _has_str(node.args)

    def visit_Name(self, node: ast.Name) -> None:
        self.uses.names.add(node.id)
        self.uses.text = self.uses.text or node.id == "str"

    def visit_Subscript(self, node: ast.Subscript) -> None:
        # `"abc"[::-1]`; `d["k"] = v` keys a dict by str (not `external_call["printf", Int32]`: a C
        # function's name, no str; the runtime's pyx code calls C this way, and would otherwise load
        # the whole String library)
        self.uses.text = self.uses.text or isinstance(node.value, ast.StrLit) \
            or (_has_str(node.items) and not (isinstance(node.value, ast.Name) and node.value.id == "external_call"))
        self.uses.runtime_slices = self.uses.runtime_slices or any(
            isinstance(i, ast.Slice) and not all(b is None or _number_literal(b) for b in (i.start, i.stop, i.step))
            for i in node.items)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        uses = self.uses
        # `type(e).__name__` is a str (semantics/type_names.py), a caught exception's too
        uses.text = uses.text or isinstance(node.value, ast.StrLit) or node.attr == "__name__"
        uses.formatting = uses.formatting or (node.attr == "format" and isinstance(node.value, ast.StrLit))
        if node.attr == "maketrans" and isinstance(node.value, ast.Name) and node.value.id == "str":
            uses.maketrans = uses.text = True  # (semantics/text_tables.py)
        if node.attr == "format" and isinstance(node.value, ast.StrLit) and _nested_spec(node.value.value):
            uses.names.add(NESTED_FORMAT)  # `"{:>{}}".format(s, w)` (syntax/nested_spec.py)
        if runtime_format.written(node):  # `fmt.format(x)` of a str variable (semantics/runtime_format.py)
            uses.names.add(runtime_format.USED)
            uses.text = True
            uses.kinds.add(ast.ListExpr)  # (its arguments go to the stdlib as a list of FormatArg)
        if int_methods.written(node):  # `x.bit_length()`, `int.from_bytes(b, "big")` (semantics/int_methods.py)
            uses.names.add(int_methods.USED)
            uses.text = True
        # a method overridden in a subclass (syntax/inheritance.py): its definitions may return an int and a float
        uses.numbers = uses.numbers or node.attr.startswith(DOWN)
        # `e.args` of a caught exception: a tuple of its message (semantics/raising.py `arguments`)
        uses.tuples = uses.tuples or (node.attr == "args" and isinstance(node.value, ast.Name))

    def visit_FnDef(self, node: ast.FnDef) -> None:
        # a `def` whose result is inferred and that returns in two places: one may be an int, one a float
        if node.kind == "def" and node.returns is None and not self.uses.numbers:
            self.uses.numbers = _value_returns(node.body) > 1
        # an `__init__` storing an unannotated parameter: one call may pass an int, another a float
        if node.name == "__init__" and not self.uses.numbers:
            self.uses.numbers = any(p.annotation is None for p in node.params[1:])

    def visit_Keyword(self, node: ast.Keyword) -> None:
        if node.name == "key":
            self.uses.names.add(KEY_ARGUMENT)
        elif node.name == "file":
            self.uses.text = True  # print(..., file=f) writes str(x) of each argument (semantics/print_file.py)

    def visit_Binary(self, node: ast.Binary) -> None:
        uses = self.uses
        if node.op == "%" and isinstance(node.left, ast.StrLit):
            uses.text = uses.formatting = True
        elif node.op == "|":
            uses.optional = uses.optional or uses_optional_spelling(node)
            uses.numbers = uses.numbers or any(isinstance(x, ast.Name) and x.id in ("int", "float")
                                               for x in (node.left, node.right))  # `int | float`
        elif node.op == "*":
            uses.text = uses.text or isinstance(node.left, ast.StrLit) or isinstance(node.right, ast.StrLit)
        elif node.op == "/":
            # `x / 2.0` divides floats: only a `/` that may be of two ints needs stdlib/true_division.px
            uses.true_division = uses.true_division or not any(isinstance(x, ast.FloatLit)
                                                               for x in (node.left, node.right))

    def visit_IfExp(self, node: ast.IfExp) -> None:
        self.uses.optional = self.uses.optional or uses_optional_spelling(node)
        self.uses.numbers = self.uses.numbers or _mixes_numbers((node.body, node.orelse))  # `1 if c else 0.5`

    def visit_SetExpr(self, node: ast.SetExpr) -> None:
        self.uses.kinds.add(ast.ListExpr)  # a set is built from a list of its items (semantics/sets.py)
        self.uses.text = self.uses.text or _has_str(node.elts)
        self.uses.numbers = self.uses.numbers or _mixes_numbers(node.elts)  # `{1, 2.5}` (semantics/numbers.py)

    def visit_DictExpr(self, node: ast.DictExpr) -> None:
        self.uses.text = self.uses.text or _has_str(node.keys + node.values)
        self.uses.numbers = self.uses.numbers or _mixes_numbers(node.values)  # `{"a": 1, "b": 2.5}`

    def visit_Comprehension(self, node: ast.Comprehension) -> None:
        # it builds a List (sorted and join of a generator too) or a Dict
        self.uses.kinds.add(ast.DictExpr if node.kind == "dict" else ast.ListExpr)
        self.uses.text = self.uses.text or isinstance(node.elt, ast.StrLit) or isinstance(node.value, ast.StrLit)

    def visit_VarDecl(self, node: ast.VarDecl) -> None:
        self.uses.text = self.uses.text or isinstance(node.value, ast.StrLit)


def uses_summary(module: ast.Module) -> dict:
    """`_Uses(module)` as JSON: what the loader asks the parse cache to keep with a stdlib tree."""
    return _Uses(module).summary()


# The names (no source can spell them) under which a module sees the stdlib's List, Dict and String.
LIST_LITERAL, DICT_LITERAL, STRING_LITERAL = "List literal", "Dict literal", "String literal"
MAX_OF_STRUCTS, MIN_OF_STRUCTS = "max of structs", "min of structs"
SLICE_LITERAL = "Slice literal"
RANGE_VALUE = "Range value"
TRUE_DIVISION = "int true division"  # stdlib/true_division.px `_true_division`, bound for a module with `/`
KEY_ARGUMENT = "key="  # (in _Uses.names: a call passes `key=...`; no name is spelled so)
# stdlib/functional.px's functions behind `key=`, by their names there -> the names a module sees them by.
KEY_FUNCTIONS = {"sorted_by_key": "sorted by key", "sort_by_key": "sort by key", "min_by_key": "min by key",
                 "max_by_key": "max by key"}
LITERALS = (("List", LIST_LITERAL, ast.ListExpr), ("Dict", DICT_LITERAL, ast.DictExpr))
PYTHON_GENERICS = {"list": LIST_LITERAL, "dict": DICT_LITERAL, "set": "Set literal"}  # (sets.SET_LITERAL)
# The stdlib's struct for a tuple of n items (stdlib/tuple.px), by length, under a name no source can spell.
MAX_TUPLE = 8
TUPLE_STRUCTS = {n: f"tuple of {n}" for n in range(1, MAX_TUPLE + 1)}

# The stdlib bindings a module gets without an import, under names no source spells: (whether the module
# needs them, given what its code uses; the stdlib module; its names -> the names bound). In this order.
_HIDDEN: tuple[tuple[Callable[[_Uses, ast.Module], bool], str, Callable[[], tuple[tuple[str, str], ...]]], ...] = (
    # `[a, b]` and `{k: v}` build the stdlib's List and Dict whatever the module calls them, and so do
    # Python's `list[int]` and `dict[str, float]`.
    *((lambda uses, _, node=node, name=name: node in uses.kinds or name.lower() in uses.names, "collections",
       lambda name=name, hidden=hidden: ((name, hidden),)) for name, hidden, node in LITERALS),
    # `{a, b}`, `set(...)`, `set[int]` and set comprehensions build the stdlib's Set (semantics/sets.py).
    (lambda uses, _: ast.SetExpr in uses.kinds or "set" in uses.names, "set", lambda: _semantics("sets").HIDDEN),
    # `(a, b)`, `return a, b` and Python's `tuple[int, str]` build the stdlib's tuple structs.
    (lambda uses, _: uses.tuples or bool(uses.names & {"tuple", "Tuple"}), "tuple",
     lambda: tuple((f"Tuple{n}", TUPLE_STRUCTS[n]) for n in TUPLE_STRUCTS)),
    # max and min of structs fold through the stdlib's (the builtins take numbers and SIMD).
    (lambda uses, _: bool(uses.names & {"max", "min"}), "traits",
     lambda: (("max", MAX_OF_STRUCTS), ("min", MIN_OF_STRUCTS))),
    # `sorted(xs, key=f)`, `xs.sort(key=f)`, `min`/`max(..., key=f)` call these (semantics/closures.py).
    (lambda uses, _: KEY_ARGUMENT in uses.names, "functional", lambda: tuple(KEY_FUNCTIONS.items())),
    # `xs[a:b]` passes the stdlib's Slice to `__getitem__`, whatever the module calls `Slice`.
    (lambda uses, _: ast.Slice in uses.kinds, "slicing", lambda: (("Slice", SLICE_LITERAL),)),
    # `int | None`, `Union[int, None]`, `typing.Optional[int]` name the stdlib's Optional.
    (lambda uses, _: uses.optional or bool(uses.names & OPTIONAL_NAMES), "optional",
     lambda: (("Optional", OPTIONAL_TYPE),)),
    # Python's `int | float` (semantics/numbers.py)
    (lambda uses, _: uses.numbers or "Union" in uses.names, "number",
     lambda: (("Number", _semantics("numbers").NUMBER_TYPE),)),
    (_names_an_exception, "exception_value",
     lambda: tuple(zip(("ExceptionValue", "_exception_value_of", "_exception_value_raised"),
                       (getattr(_semantics("exception_values"), n)
                        for n in ("EXCEPTION_VALUE", "CAUGHT_VALUE", "RAISED_VALUE"))))),
    # `/` of two ints, correctly rounded where an int is beyond 2**53 (semantics/expressions.py)
    (lambda uses, _: uses.true_division, "true_division",
     lambda: (("_true_division", TRUE_DIVISION),)),
    # `r = range(n)`, `zip(range(3), xs)`: the stdlib's Range (a `for` over range(...) needs none)
    (lambda uses, _: uses.range_values, "ranges", lambda: (("Range", RANGE_VALUE),)),
    (lambda uses, _: uses.text, "string", lambda: (("String", STRING_LITERAL),)),
    # `"%d" % n` and `"{}".format(x)` become calls of these (semantics/strformat.py).
    (lambda uses, _: uses.formatting, "formatting", lambda: (("percent_field", PERCENT_FIELD),)),
    (lambda uses, _: uses.formatting, "string", lambda: (("format", FORMAT_FIELD), ("repr", REPR_FIELD))),
    # `str.maketrans(x, y)` (semantics/text_tables.py)
    (lambda uses, _: uses.maketrans, "translate", lambda: (("maketrans", MAKETRANS),)),
    # `b"..."` (syntax/bytes_literals.py)
    (lambda uses, _: BYTES_LITERAL in uses.names, "pybytes", lambda: (("_bytes_literal", BYTES_LITERAL),)),
    # `f"{x:<{w}}"`: a spec only the run knows (syntax/nested_spec.py)
    (lambda uses, _: NESTED_FORMAT in uses.names, "format_spec", lambda: (("format_at_run_time", NESTED_FORMAT),)),
    # `fmt.format(x)` of a str made at run time (semantics/runtime_format.py)
    (lambda uses, _: runtime_format.USED in uses.names, "str_format", lambda: tuple(runtime_format.BOUND.items())),
    # `x.bit_length()`, `x.to_bytes(...)`, `int.from_bytes(...)` (semantics/int_methods.py)
    (lambda uses, _: int_methods.USED in uses.names, "pyint", lambda: tuple(int_methods.BOUND.items())),
    # `zip(*rows)` (syntax/build_ast.py, semantics/zip_rows.py)
    (lambda uses, _: ZIP_ROWS in uses.names, "zip_rows", lambda: (("zip_rows", ZIP_ROWS), ("VarTuple", VAR_TUPLE))),
    # `t[:n]` of a tuple whose items have one type: a VarTuple of its items, sliced (semantics/tuples.py)
    (lambda uses, _: uses.runtime_slices, "zip_rows", lambda: _semantics("tuples").HIDDEN),
)


# Where an imported name is looked for in the module that defines it.
_IMPORTABLE = ("functions", "structs", "traits", "comptimes", "imported")


def _bind_import(item: ast.Import, symbols: ModuleSymbols, seen: dict, diags: DiagnosticBag, loader,
                 stdlib: bool = False) -> None:
    other = loader.load(item.module, item.span, stdlib)
    if other is None:
        symbols.unresolved.update([(item.alias or item.module).split(".")[0]] if not item.from_import
                                  else [local for _, local in item.names])
        return
    if not item.from_import:
        local = item.alias or item.module
        if local.split(".")[0] in seen:
            first = seen[local.split(".")[0]]
            diags.error("E0102", item.span, (Note("first defined here", getattr(first, "name_span", first.span)),),
                        name=local)
            return
        symbols.px_modules[local] = other
        seen[local.split(".")[0]] = item
        return
    for name, local in item.names:
        table = next((t for t in _IMPORTABLE if name in getattr(other, t)), None)
        if table is None:
            from .globals import foreign_variable_notes

            diags.error("E0130", item.span, foreign_variable_notes(other, name), module=item.module, name=name)
            symbols.unresolved.add(local)
        elif local in seen:
            first = seen[local]
            diags.error("E0102", item.span, (Note("first defined here", getattr(first, "name_span", first.span)),),
                        name=local)
        else:
            getattr(symbols, table)[local] = getattr(other, table)[name]
            if table == "traits":
                symbols.trait_homes[local] = other.trait_homes.get(name, other)
            seen[local] = item


FUNCTION_DECORATORS = {"staticmethod", "always_inline", "noinline", "kernel", "fastmath", "noalias", "no_bounds_check"}
STRUCT_DECORATORS = {"fieldwise_init"}
FUTURE_DECORATORS = {"parameter": "`@parameter`"}
# The markers a standard library function may carry, each telling the compiler one thing about
# it, so the compiler need not find it by its name and file: `@builtin_function`
# (semantics/builtin_functions.py), `@iterable_arguments` (semantics/iterable_arguments.py),
# `@takes_generators` (semantics/lazy_itertools.py), `@python_ints` (ir/int_overflow.py). In a program's
# file each is E0134.
STDLIB_FUNCTION_MARKERS = frozenset({"builtin_function", "iterable_arguments", "takes_generators", "python_ints"})


def _stdlib_struct_decorators(decl: ast.StructDef) -> set:
    """`@python_layout("list")` and its kind (interop.py) promise the bridge a field layout, and
    `@builtin_type("List")` (builtin_types.py) gives a struct a meaning in the compiler: only the
    standard library may make those promises; in a user's file each is an unknown decorator."""
    from .imports import is_stdlib_file

    return {"python_layout", "builtin_type"} if is_stdlib_file(decl.span.file.name) else set()


def check_decorators(decorators, known: set, diags: DiagnosticBag) -> None:
    for d in decorators:
        if d.name in FUTURE_DECORATORS:
            diags.error("E0007", d.span, construct=FUTURE_DECORATORS[d.name])
        elif d.name not in known:
            diags.error("E0134", d.span, name=d.name, known=", ".join(f"@{k}" for k in sorted(known)))


def _check_fn_params(decl: ast.FnDef, diags: DiagnosticBag, method: bool = False) -> None:
    from .imports import is_stdlib_file

    # the standard library's own markers (STDLIB_FUNCTION_MARKERS); `@property` is a method's
    # (syntax/properties.py)
    own = (STDLIB_FUNCTION_MARKERS if is_stdlib_file(decl.span.file.name) else frozenset()) \
        | ({"property"} if method else set())
    decorators = decl.decorators
    if method and any(d.name == "classmethod" for d in decorators):
        # left by syntax/classmethods.py on a method with no parameter for the class: E0319, not E0134
        diags.error("E0319", decl.name_span, func=decl.name)
        decorators = tuple(d for d in decorators if d.name != "classmethod")
    check_decorators(decorators, FUNCTION_DECORATORS | own, diags)
    """A `fn` is fully typed; only `def` may leave parameter types to its call sites."""
    if decl.kind != "fn":
        return
    for i, p in enumerate(decl.params):
        if p.annotation is None and not (i == 0 and p.name == "self"):
            diags.error("E0106", p.span, name=p.name, func=decl.name)


def _collect_import(item: ast.Import, symbols: ModuleSymbols, seen: dict, diags: DiagnosticBag) -> None:
    """`import math [as m]` and `from math import ...` (.px modules are bound by _bind_import)."""
    from .mathlib import MODULES

    if not item.from_import:
        local = item.alias or item.module
        symbols.modules[local] = item.module
        seen[local] = item
        return
    for name, local in item.names:
        if name not in MODULES[item.module]:
            diags.error("E0130", item.span, module=item.module, name=name)
            continue
        symbols.imported[local] = (item.module, name)
        seen[local] = item


def _bind_math_integers(item: ast.Import, symbols: ModuleSymbols, seen: dict, diags: DiagnosticBag, loader) -> None:
    """`import math` / `from math import gcd`: math's integer functions, pyx code in stdlib/_mathint.px,
    bound as `math.gcd`, ... (names no source spells), which MathChecker.math_call calls."""
    from .mathlib import INTEGER_FUNCTIONS

    wanted = INTEGER_FUNCTIONS if not item.from_import else INTEGER_FUNCTIONS & {n for n, _ in item.names}
    wanted = frozenset(n for n in wanted if f"math.{n}" not in seen)
    if not wanted:
        return
    names = tuple((n, f"math.{n}") for n in sorted(wanted))
    _bind_import(ast.Import(item.span, "_mathint", None, names, True), symbols, seen, diags, loader, stdlib=True)


# Traits every type conforms to (Mojo's marker traits).
MARKER_TRAITS = {"AnyType", "Copyable", "Movable", "ImplicitlyCopyable", "Defaultable"}


def _struct_symbol(decl: ast.StructDef, module: str, diags: DiagnosticBag) -> StructSymbol:
    sym = StructSymbol(decl, None)
    sym.type = T.StructType(decl.name, module, base=decl.name, symbol=sym)
    markers = _stdlib_struct_decorators(decl)
    check_decorators(decl.decorators, STRUCT_DECORATORS | markers, diags)
    if markers:  # a stdlib struct: the role it declares, read once (builtin_types.is_builtin asks it)
        from .builtin_types import declared_role

        sym.role = declared_role(decl)
    for method in decl.methods:
        _check_fn_params(method, diags, method=True)
        if is_slice_overload(method):  # `__getitem__(self, s: Slice)` beside `__getitem__(self, i: Int)`
            method = replace(method, name=method.name + SLICE_SUFFIX)
        if method.name in sym.methods:
            diags.error("E0102", method.name_span, name=method.name)
            continue
        if method.name == "__init__" and method.self_convention != "out":
            diags.error("E0119", method.name_span)
        if method.name == "__del__" and not destructor_signature_ok(method):
            diags.error("E0164", method.name_span, struct=decl.name)
            continue
        sym.methods[method.name] = method
    if any(d.name == "fieldwise_init" for d in decl.decorators) and "__init__" not in sym.methods:
        sym.methods["__init__"] = fieldwise_init(decl)
    return sym


def _generic_struct(expr: ast.Subscript, sym, diags, symbols, env, lookup) -> Type:
    from .comptime import CtError, evaluate

    if not sym.generic:
        diags.error("E0224", expr.span, func=sym.decl.name)
        return ERROR
    try:
        args = tuple(evaluate(item, env, lookup or (lambda n, s: None),
                              lambda e: resolve_type(e, diags, symbols, env, lookup))
                     for item in expr.items if isinstance(item, ast.Expr))
    except CtError as exc:
        diags.error("E0219", exc.span, detail=exc.detail)
        return ERROR
    return struct_instance(sym, args, expr.span, symbols, diags, lookup)


def _parametric(expr: ast.Subscript, diags, symbols, env, lookup) -> Type:
    from .comptime import CtError, evaluate, kind_of, show

    name = expr.value.id
    args = []
    try:
        for item in expr.items:
            if not isinstance(item, ast.Expr):
                raise CtError(item.span, "keyword parameters are not accepted here")
            args.append(evaluate(item, env, lookup or (lambda n, s: None),
                                 lambda e: resolve_type(e, diags, symbols, env, lookup)))
    except CtError as exc:
        diags.error("E0219", exc.span, detail=exc.detail)
        return ERROR
    if any(a is ERROR for a in args):
        return ERROR
    if name == "Ptr":
        if not 1 <= len(args) <= 2:
            diags.error("E0128", expr.span, func=name, expected="1 or 2", s="s", found=len(args))
            return ERROR
        if not isinstance(args[0], T.Type) or args[0] in (T.NONE, T.STRING_LITERAL):
            diags.error("E0125", expr.items[0].span, name="T", expected="a type", found=f"`{show(args[0])}`")
            return ERROR
        space = args[1] if len(args) > 1 else 0
        if isinstance(space, bool) or not isinstance(space, int) or not 0 <= space < 8:
            diags.error("E0125", expr.items[-1].span, name="address_space", expected="an `Int` from 0 to 7",
                        found=f"`{show(space)}`")
            return ERROR
        return T.ptr(args[0], space)
    expected = 2 if name == "SIMD" else 1
    if len(args) != expected:
        diags.error("E0128", expr.span, func=name, expected=expected, s="s" if expected > 1 else "",
                    found=len(args))
        return ERROR
    if not isinstance(args[0], T.DTypeValue):
        diags.error("E0125", expr.items[0].span, name="dtype", expected="a `DType` such as `DType.float32`",
                    found=f"{kind_of(args[0])} `{show(args[0])}`")
        return ERROR
    if name == "Scalar":
        return args[0].scalar
    width = args[1]
    if isinstance(width, bool) or not isinstance(width, int):
        diags.error("E0125", expr.items[1].span, name="width", expected="an `Int`",
                    found=f"{kind_of(width)} `{show(width)}`")
        return ERROR
    if width < 1 or width > T.MAX_SIMD_WIDTH or width & (width - 1):
        diags.error("E0127", expr.items[1].span, width=width)
        return ERROR
    return T.simd(args[0].scalar, width)


def destructor_signature_ok(decl: ast.FnDef) -> bool:
    """`fn __del__(var self)` (or plain `self`): nothing else, no result, not `raises`, no parameters."""
    return (decl.self_convention in ("", "var", "owned") and len(decl.params) == 1 and not decl.raises
            and decl.returns is None and not decl.ct_params)


def fieldwise_init(decl: ast.StructDef) -> ast.FnDef:
    """`@fieldwise_init`: an `__init__(out self, <each field>)` that stores them in order."""
    span = decl.name_span
    params = [ast.Param(span, "self", None, None, "out")]
    body = []
    for f in decl.fields:
        # Owned arguments moved into the fields: a field with a destructor is never copied.
        params.append(ast.Param(f.span, f.name, f.annotation, None, "var"))
        target = ast.Attribute(f.span, ast.Name(f.name_span, "self"), f.name)
        body.append(ast.Assign(f.span, (target,), ast.Transfer(f.name_span, ast.Name(f.name_span, f.name))))
    return ast.FnDef(span, "fn", "__init__", span, (), tuple(params), False, None, tuple(body))


def resolve_fields(sym: StructSymbol, symbols: ModuleSymbols, diags: DiagnosticBag, lookup=None) -> None:
    if sym.generic:
        return  # each instance is resolved when it is made
    if sym.state == "done":
        return
    if sym.state == "resolving":
        diags.error("E0121", sym.decl.name_span, name=sym.decl.name)
        return
    sym.state = "resolving"
    symbols, lookup = _home_of(sym, symbols, lookup)
    _fill_fields(sym, sym.type, symbols, diags, {}, lookup)
    sym.state = "done"
    check_conformance(sym, sym.type, symbols, diags, lookup)


def _home_of(sym: StructSymbol, symbols: ModuleSymbols, lookup):
    """A struct's field types are written in its own module and resolve there, wherever it is used."""
    if sym.home is None or sym.home is symbols:
        return symbols, lookup
    return sym.home, sym.home.lookup_constant or lookup


def _fill_fields(sym, t, symbols, diags, env, lookup) -> None:
    names = set()
    for f in sym.decl.fields:
        if f.name in names:
            diags.error("E0102", f.name_span, name=f.name)
            continue
        names.add(f.name)
        t.fields.append((f.name, resolve_type(f.annotation, diags, symbols, env, lookup)))


def struct_instance(sym: StructSymbol, args: tuple, span, symbols, diags, lookup=None) -> Type:
    """`Pair[Int]`: the StructType for one binding of a generic struct's parameters."""
    from .comptime import show

    symbols, lookup = _home_of(sym, symbols, lookup)
    params = sym.decl.ct_params
    if len(args) != len(params):
        diags.error("E0128", span, func=sym.decl.name, expected=len(params), s="s" if len(params) != 1 else "",
                    found=len(args))
        return ERROR
    for p, value in zip(params, args):
        if not conforms_kind(p, value, symbols, diags, span, sym.decl.name):
            return ERROR
    found = sym.instances.get(args)
    if found is not None:
        if sym.states.get(args) == "resolving":
            diags.error("E0121", sym.decl.name_span, name=found.name)
            return ERROR
        return found
    env = {p.name: v for p, v in zip(params, args)}
    module = sym.type.module  # (`List[T]` of two generics' stand-ins for T: two types, by their ct_env)
    t: T.StructType
    if is_tuple_struct(sym):  # named as its items' types, whatever length its struct has
        t = T.TupleType(f"Tuple[{', '.join(show(a) for a in args)}]", module, base=sym.decl.name, symbol=sym,
                        ct_env=env)
    else:
        t = T.StructType(f"{sym.decl.name}[{', '.join(show(a) for a in args)}]", module, base=sym.decl.name,
                         symbol=sym,
                         ct_env=env)
    sym.instances[args] = t
    sym.states[args] = "resolving"
    _fill_fields(sym, t, symbols, diags, env, lookup)
    sym.states[args] = "done"
    check_conformance(sym, t, symbols, diags, lookup)
    return t


def conforms_kind(p: ast.CtParam, value, symbols, diags, span, owner: str) -> bool:
    """A compile-time argument has the kind its parameter declares, and meets its trait bound."""
    from .comptime import kind_of, show

    ann = p.annotation
    expected = ann.id if isinstance(ann, ast.Name) and ann.id in ("Int", "Bool", "DType") else "type"
    if value is ERROR:
        return False
    if kind_of(value) != expected and not (expected == "type" and isinstance(value, T.Type)):
        wanted = {"type": "a type", "DType": "a `DType`"}.get(expected, f"an `{expected}`")
        diags.error("E0125", span, name=p.name, expected=wanted, found=f"{kind_of(value)} `{show(value)}`")
        return False
    if expected == "type" and isinstance(ann, ast.Name) and ann.id not in MARKER_TRAITS:
        if ann.id not in symbols.traits:
            diags.error("E0142", ann.span, name=ann.id)
            return False
        if not type_conforms(value, ann.id, symbols):
            diags.error("E0140", span, type=value, trait=ann.id, param=p.name, func=owner)
            return False
    return True


def trait_ancestry(name: str, symbols: ModuleSymbols) -> dict[str, tuple[ast.TraitDef, ModuleSymbols]]:
    """The trait `name` and every trait it refines, each with the module it was declared in (a
    parent is named in the module of the trait that names it)."""
    found: dict[str, tuple[ast.TraitDef, ModuleSymbols]] = {}
    stack = [(name, symbols)]
    while stack:
        current, where = stack.pop()
        if current in found or current not in where.traits:
            continue
        home = where.trait_homes.get(current, where)
        found[current] = (where.traits[current], home)
        stack.extend((p.id, home) for p in where.traits[current].parents if isinstance(p, ast.Name))
    return found


# The standard library's traits (stdlib/traits.px, Stringable in string.px) that the scalar types
# conform to without declaring it (floats hash as Python's do, so they are dict keys too).
_SCALAR_TRAITS = {"EqualityComparable", "Comparable", "Stringable", "Hashable", "KeyElement"}


def _builtin_conforms(t: Type, trait: str) -> bool:
    return isinstance(t, T.ScalarType) and trait in _SCALAR_TRAITS


def type_conforms(t: Type, trait: str, symbols: ModuleSymbols) -> bool:
    """Conformance is declared, as in Mojo: `struct Rect(Shape)` (or a trait that refines Shape).
    The scalar types conform to the standard library's traits that fit them."""
    from .imports import is_stdlib_file

    if trait in symbols.traits and is_stdlib_file(symbols.traits[trait].span.file.name) and _builtin_conforms(t, trait):
        return True
    if not isinstance(t, T.StructType):
        return False
    if isinstance(t, T.TupleType):  # a tuple is a key, ordered, printable when each of its items is
        return trait in _tuple_traits(t) and all(_builtin_conforms(item, trait) or type_conforms(item, trait, symbols)
                                                 for item in t.items)
    sym = t.symbol if t.symbol is not None else symbols.structs.get(t.base or t.name)
    if sym is None:
        return False
    home = sym.home or symbols  # the struct's traits are named in its own module
    declared = set()
    for base in sym.decl.traits:
        if isinstance(base, ast.Name):
            declared |= set(trait_ancestry(base.id, home))
    return trait in declared


def is_tuple_struct(sym: StructSymbol) -> bool:
    """The stdlib's struct for tuples of some length (stdlib/tuple.px): marked `@builtin_type("Tuple")`."""
    return sym.role == "Tuple"


def _tuple_traits(t: T.TupleType) -> set[str]:
    """The traits a tuple struct declares, with their parents (KeyElement brings Hashable)."""
    home = t.symbol.home
    declared: set[str] = set()
    for base in t.symbol.decl.traits:
        if isinstance(base, ast.Name) and home is not None:
            declared |= set(trait_ancestry(base.id, home))
    return declared


def dotted_name(node: ast.Expr) -> str | None:
    """`a.b.c` as text when it is names and attributes only."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = dotted_name(node.value)
        return f"{base}.{node.attr}" if base is not None else None
    return None


def px_module_named(node: ast.Expr, symbols: ModuleSymbols | None):
    """The .px module an expression such as `geometry` or `shapes.geometry` names, if any."""
    if symbols is None or not symbols.px_modules:
        return None
    name = dotted_name(node)
    return symbols.px_modules.get(name) if name is not None else None


def _qualified_struct(expr: ast.Expr, symbols: ModuleSymbols | None):
    """`geometry.Vec2`: (the module, the struct symbol), when expr names a struct of an imported module."""
    if not isinstance(expr, ast.Attribute):
        return None
    other = px_module_named(expr.value, symbols)
    if other is None or expr.attr not in other.structs:
        return None
    return other, other.structs[expr.attr]


def check_conformance(sym: StructSymbol, t: Type, symbols: ModuleSymbols, diags: DiagnosticBag, lookup=None) -> None:
    """Every method the struct's traits require exists with the same signature (Self = this struct)."""
    for base in sym.decl.traits:
        if not isinstance(base, ast.Name) or base.id in MARKER_TRAITS:
            continue
        if base.id not in symbols.traits:
            diags.error("E0142", base.span, name=base.id)
            continue
        for trait_name, (trait, home) in sorted(trait_ancestry(base.id, symbols).items()):
            for required in trait.methods:
                method = sym.methods.get(required.name)
                if method is None:
                    diags.error("E0138", sym.decl.name_span, (Note("required here", required.name_span),),
                                struct=t, method=required.name, trait=trait_name)
                    continue
                # The trait's types are written in its module, the struct's in the struct's.
                want = _signature_text(required, {"Self": t}, home, home.lookup_constant or lookup)
                # A subclass's inherited `__eq__(self, other: Base)` takes Self (a subclass object is
                # a Base): its bases read as Self here (syntax/classes.py `_traits`).
                bases = {name[len(UP):]: t for name in sym.methods if name.startswith(UP)}
                have = _signature_text(method, {**t.ct_env, **bases, "Self": t}, symbols, lookup)
                if want != have:
                    diags.error("E0139", method.name_span, (Note("required here", required.name_span),),
                                struct=t, method=required.name, trait=trait_name, expected=want, found=have)


def _signature_text(decl: ast.FnDef, env: dict, symbols, lookup) -> str:
    quiet = DiagnosticBag()  # a bad annotation is reported where it is checked, not twice here
    params = [resolve_type(p.annotation, quiet, symbols, env, lookup).name
              for i, p in enumerate(decl.params) if not (i == 0 and p.name == "self")]
    mode = decl.self_convention
    head = f"({'mut ' if mode == 'mut' else ''}self" if mode is not None else "("
    sep = ", " if mode is not None and params else ""
    ret = resolve_type(decl.returns, quiet, symbols, env, lookup).name if decl.returns is not None else "None"
    return f"{head}{sep}{', '.join(params)}) -> {ret}"


PARAMETRIC = {"SIMD": "SIMD[DType.float32, 8]", "Scalar": "Scalar[DType.float32]", "Ptr": "Ptr[Float32]"}


def resolve_type(expr: ast.Expr | None, diags: DiagnosticBag, symbols: ModuleSymbols | None = None,
                 env: dict | None = None, lookup=None) -> Type:
    """The type an annotation names. `env` binds compile-time parameters; `lookup(name, span)`
    gives module constants for type arguments like `SIMD[DType.float32, WIDTH]`."""
    env = env or {}
    if expr is None:
        return T.NONE
    if is_callable_annotation(expr):  # (a parameter's is a type parameter: closures.callable_params)
        from .function_values import callable_type

        return callable_type(expr, diags, lambda x: resolve_type(x, diags, symbols, env, lookup))
    if is_pending_annotation(expr):  # an attribute the checker types (semantics/attribute_types.py)
        return resolve_pending(expr, symbols)
    if isinstance(expr, ast.Name) and expr.id in env:
        value = env[expr.id]
        if isinstance(value, T.Type):
            return value
        diags.error("E0104", expr.span, name=expr.id)
        return ERROR
    spelled = typing_type(expr, diags, symbols, lambda x: resolve_type(x, diags, symbols, env, lookup))
    if spelled is not None:  # `int | None`, `Optional[int]`, `Union[...]`, `typing.X`
        return spelled
    annotation = _Annotation(diags, symbols, env, lookup)
    if isinstance(expr, ast.Name):
        return annotation.named(expr)
    if isinstance(expr, ast.Subscript) and isinstance(expr.value, ast.Name):
        found = annotation.parameterized(expr, expr.value.id)
        if found is not None:
            return found
    if isinstance(expr, ast.NoneLit):
        return T.NONE
    if isinstance(expr, ast.ErrorExpr):
        return ERROR
    return annotation.other(expr)


class _Annotation:
    """`resolve_type` of a name, a subscript or anything else, with what it was given: where errors
    go, the module's symbols, the compile-time parameters' values, the module's constants."""

    def __init__(self, diags: DiagnosticBag, symbols: ModuleSymbols | None, env: dict, lookup):
        self.diags, self.symbols, self.env, self.lookup = diags, symbols, env, lookup

    def resolve(self, expr: ast.Expr) -> Type:
        return resolve_type(expr, self.diags, self.symbols, self.env, self.lookup)

    def named(self, expr: ast.Name) -> Type:
        """`Int`, `str`, a struct's name; E0126 for a generic's name without its parameters, E0105
        for an unknown name."""
        diags, symbols, name = self.diags, self.symbols, expr.id
        if name in ("tuple", "Tuple") and symbols is not None and TUPLE_STRUCTS[1] in symbols.structs:
            diags.error("E0126", expr.span, name=name, example=f"{name}[int, str]")  # a tuple's items have types
            return ERROR
        if name in PARAMETRIC:
            diags.error("E0126", expr.span, name=name, example=PARAMETRIC[name])
            return ERROR
        if symbols is not None and name in symbols.structs:
            sym = symbols.structs[name]
            if sym.generic:
                diags.error("E0126", expr.span, name=name, example=f"{name}[...]")
                return ERROR
            resolve_fields(sym, symbols, diags, self.lookup)
            return ERROR if sym.state != "done" else sym.type
        if name == "str" and symbols is not None and STRING_LITERAL in symbols.structs:
            return self.resolve(ast.Name(expr.span, STRING_LITERAL))  # Python's str
        from .exception_values import EXCEPTION_VALUE, exception_class

        if symbols is not None and exception_class(name, symbols) and EXCEPTION_VALUE in symbols.structs:
            return self.resolve(ast.Name(expr.span, EXCEPTION_VALUE))  # `errors: list[Exception]`
        if name in T.TYPE_NAMES:
            return T.TYPE_NAMES[name]
        if name in FUTURE_NAMES:
            diags.error("E0007", expr.span, construct=f"the type `{name}`")
            return ERROR
        if symbols is not None and name in symbols.unresolved:
            return ERROR  # its import failed, and that was reported
        if name == "object":  # `other: object`: Python's type of everything, which pyx has not
            diags.error("E0360", expr.span)
            return ERROR
        known = list(T.TYPE_NAMES) + (list(symbols.structs) if symbols is not None else [])
        import difflib  # (a misspelled type's alone: issue 15)

        close = difflib.get_close_matches(name, known, n=1)
        notes = (Note(f"did you mean `{close[0]}`?"),) if close else ()
        diags.error("E0105", expr.span, notes, name=name)
        return ERROR

    def parameterized(self, expr: ast.Subscript, name: str) -> Type | None:
        """`SIMD[...]` and the like, a generic struct's instance, `tuple[...]`, Python's `list[int]` and
        `dict[str, float]`; None for other subscripts."""
        symbols, env = self.symbols, self.env
        if name in PARAMETRIC:
            return _parametric(expr, self.diags, symbols, env, self.lookup)
        if symbols is None:
            return None
        if name in symbols.structs and name not in env:
            return _generic_struct(expr, symbols.structs[name], self.diags, symbols, env, self.lookup)
        if name in ("tuple", "Tuple") and TUPLE_STRUCTS[1] in symbols.structs:
            from .tuples import resolve_tuple_type

            return resolve_tuple_type(expr, self.diags, symbols, env, self.lookup)
        if name in PYTHON_GENERICS and PYTHON_GENERICS[name] in symbols.structs:
            # Python's `list[int]` and `dict[str, float]` are the stdlib's List and Dict.
            assert isinstance(expr.value, ast.Name)
            return self.resolve(ast.Subscript(expr.span, ast.Name(expr.value.span, PYTHON_GENERICS[name]),
                                              expr.items))
        return None

    def other(self, expr: ast.Expr) -> Type:
        """Another module's struct (`geometry.Point`, `geometry.Pair[Int]`); else what pyx has no type
        for (E0105, E0007, E0104)."""
        diags, symbols = self.diags, self.symbols
        qualified = _qualified_struct(expr.value if isinstance(expr, ast.Subscript) else expr, symbols)
        if qualified is not None:
            other, sym = qualified
            if isinstance(expr, ast.Subscript):
                return _generic_struct(expr, sym, diags, symbols, self.env, self.lookup)
            if sym.generic:
                diags.error("E0126", expr.span, name=sym.decl.name, example=f"{sym.decl.name}[...]")
                return ERROR
            resolve_fields(sym, other, diags, other.lookup_constant)
            return ERROR if sym.state != "done" else sym.type
        if isinstance(expr, ast.Attribute) and px_module_named(expr.value, symbols) is not None:
            diags.error("E0105", expr.span, name=dotted_name(expr))
            return ERROR
        if isinstance(expr, (ast.Subscript, ast.Attribute)):
            base = expr.value
            while isinstance(base, (ast.Subscript, ast.Attribute)):
                base = base.value
            name = base.id if isinstance(base, ast.Name) else "this"
            diags.error("E0007", expr.span, construct=f"the type `{name}[...]`" if isinstance(expr, ast.Subscript)
                        else f"the type `{name}`")
            return ERROR
        if isinstance(expr, ast.StrLit):
            # A plain `"Node"` was read as the type it spells (syntax/string_annotations.py): this one has a
            # prefix or escapes, or is no type.
            diags.error(NOT_IN_PYX, expr.span, construct="a string annotation other than a type written plainly "
                        "inside quotes (write the type itself, or `\"Node\"`)")
            return ERROR
        text = expr.span.file.text[expr.span.start:expr.span.end]
        diags.error("E0104", expr.span, name=text if len(text) <= 40 else text[:37] + "...")
        return ERROR
