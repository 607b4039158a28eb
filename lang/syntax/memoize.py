"""`@functools.cache` and `@functools.lru_cache(maxsize=None)` on a module-level `def`.

Python keeps each result under the call's arguments and returns it again, calling the function
only for arguments not seen before. pyx writes that out (docs/python-subset.md, "Memoized
functions"): a module-level dict `__pyx_cache_<name>` from the arguments (the one parameter's
value, or a tuple of them) to the result, a test at the top of the function, and each `return v`
storing `v` first. The function keeps its name (tracebacks show it as Python's do); a recursive
call goes through the cache, as it does in Python; an exception leaves nothing stored.

Refused (E0286), where pyx would not do what Python does: a bounded cache (`@lru_cache`,
`maxsize=N`: Python forgets results and calls again, which shows if the function prints or
changes anything; write `@cache`), `typed=True`, a parameter or result without an annotation (the
cache's types), a result that is a list, dict or set (Python returns the one cached object, which
a caller may change), a generator, a method or nested function, `*args`, and the cache's own
functions (`cache_info`, `cache_clear`: no such attribute in pyx).
"""
from __future__ import annotations

from dataclasses import replace

from ..diagnostics import DiagnosticBag
from ..source import SourceFile
from . import ast
from .written_modules import WrittenImport

MODULE = "functools"
DECORATORS = ("cache", "lru_cache")
KEY = "__pyx_key"
RESULT = "__pyx_result"
MUTABLE_RESULTS = ("list", "dict", "set", "List", "Dict", "Set")


def cache_name(fn: str) -> str:
    return f"__pyx_cache_{fn}"


def _text(node: ast.Node | None) -> str:
    assert node is not None  # (checked by `_shape_ok`)
    return node.span.file.text[node.span.start:node.span.end]


def _parse(text: str, diags: DiagnosticBag) -> tuple:
    from .parser import parse  # (the parser imports the builder, which imports this module)

    return parse(SourceFile("<cache>", text), diags).body


def _parse_body(text: str, diags: DiagnosticBag) -> tuple:
    """Statements of a function body (`return` is only one there)."""
    indented = "".join("    " + line + "\n" for line in text.splitlines())
    fn = _parse("def __pyx_cached():\n" + indented, diags)
    return fn[0].body if fn and isinstance(fn[0], ast.FnDef) else ()


class Memoize:
    def __init__(self, items: tuple, diags: DiagnosticBag):
        self.items = items
        self.diags = diags
        self.names = WrittenImport(MODULE, DECORATORS)  # (syntax/written_modules.py)

    def run(self) -> tuple:
        out: list = []
        for item in self.items:
            if isinstance(item, ast.Import) and item.module == MODULE:
                item = self._import(item)
                if item is None:
                    continue
            out.append(item)
        if not self.names.bound():
            return tuple(out)
        result: list = []
        for item in out:
            if isinstance(item, ast.FnDef) and any(self._kind(d) for d in item.decorators):
                result.extend(self._memoized(item))
            else:
                result.append(item)
        return tuple(result)

    def _import(self, item: ast.Import):
        """The import without `cache`/`lru_cache` (written out here); None when nothing is left."""
        others = self.names.record(item)
        if others is None or not item.from_import:
            return item
        return replace(item, names=tuple(others)) if others else None

    def _kind(self, d: ast.Decorator) -> str | None:
        return next((k for k in DECORATORS if self.names.means(d.name, k)), None)

    def _refuse(self, node: ast.Node, what: str, advice: str) -> None:
        self.diags.error("E0286", node.span, what=what, advice=advice)

    def _memoized(self, fn: ast.FnDef) -> list:
        cached = [d for d in fn.decorators if self._kind(d)]
        decorator = cached[0]
        kept = tuple(d for d in fn.decorators if d is not decorator)
        fn = replace(fn, decorators=kept)
        if not self._bounded_ok(decorator) or not self._shape_ok(fn, decorator):
            return [fn]
        params = fn.params
        key = params[0].name if len(params) == 1 else "(" + ", ".join(p.name for p in params) + ")"
        key_type = _text(params[0].annotation) if len(params) == 1 else \
            "tuple[" + ", ".join(_text(p.annotation) for p in params) + "]"
        table = cache_name(fn.name)
        # a module-level statement where the `def` is: the script makes the dict before any call can run
        declared = _parse_body(f"{table}: dict[{key_type}, {_text(fn.returns)}] = {{}}\n", self.diags)
        prologue = _parse_body(f"{KEY} = {key}\nif {KEY} in {table}:\n    return {table}[{KEY}]\n", self.diags)
        body = prologue + _returns_stored(fn.body, table, self.diags)
        return [*declared, replace(fn, body=body)]

    def _bounded_ok(self, d: ast.Decorator) -> bool:
        kind = self._kind(d)
        if kind == "cache":
            if d.args:
                self._refuse(d, "arguments to `@cache`", "write `@cache` alone")
                return False
            return True
        unbounded = False
        for a in d.args:
            if (isinstance(a, ast.Keyword) and a.name == "maxsize") or not isinstance(a, ast.Keyword):
                value = a.value if isinstance(a, ast.Keyword) else a
                unbounded = isinstance(value, ast.NoneLit)
            elif isinstance(a, ast.Keyword) and a.name == "typed":
                if not (isinstance(a.value, ast.BoolLit) and not a.value.value):
                    self._refuse(a, "`typed=True`", "pyx's parameters have one type each: leave it out")
                    return False
            else:
                self._refuse(a, f"`{a.name}=`", "`@lru_cache` takes `maxsize` and `typed`")
                return False
        if not unbounded:
            self._refuse(d, "a bounded `@lru_cache`",
                         "Python forgets old results and calls the function again for them, which shows "
                         "if it prints or changes anything; pyx keeps every result: write `@cache` (or "
                         "`@lru_cache(maxsize=None)`)")
        return unbounded

    def _shape_ok(self, fn: ast.FnDef, d: ast.Decorator) -> bool:
        if fn.kind != "def" or fn.ct_params:
            self._refuse(d, f"`{fn.name}`, a `fn` or generic function", "cache a `def` with annotated parameters")
            return False
        if not fn.params or any(p.annotation is None or p.variadic or p.default is not None for p in fn.params):
            self._refuse(d, f"`{fn.name}` without annotated parameters",
                         "annotate every parameter (the cache's key types), without defaults or `*args`")
            return False
        if fn.returns is None:
            self._refuse(d, f"`{fn.name}` without a result annotation", "annotate the result (the cache's value type)")
            return False
        head = fn.returns.value if isinstance(fn.returns, ast.Subscript) else fn.returns
        if getattr(head, "id", None) in MUTABLE_RESULTS:
            self._refuse(fn.returns, f"`{fn.name}` returning a `{_text(fn.returns)}`",
                         "Python returns the one cached object, which a caller may change; return a tuple")
            return False
        if ast.yields(fn.body):
            self._refuse(d, f"`{fn.name}`, a generator", "Python would cache one generator object and return it "
                         "exhausted; cache a function that returns a value")
            return False
        return True


def _returns_stored(stmts: tuple, table: str, diags: DiagnosticBag) -> tuple:
    """stmts with each `return v` (outside nested functions) storing v under the key first."""
    out: list = []
    for s in stmts:
        if isinstance(s, ast.Return) and s.value is not None:
            first, second, ret = _parse_body(f"{RESULT} = 0\n{table}[{KEY}] = {RESULT}\nreturn {RESULT}\n", diags)
            out += [replace(first, value=s.value), second, replace(ret, span=s.span)]
            continue
        if isinstance(s, ast.FnDef):
            out.append(s)
            continue
        changes = {}
        for name in ("body", "orelse", "finalbody"):
            inner = getattr(s, name, None)
            if isinstance(inner, tuple) and inner and all(isinstance(x, ast.Stmt) for x in inner):
                changes[name] = _returns_stored(inner, table, diags)
        handlers = getattr(s, "handlers", None)
        if isinstance(handlers, tuple):
            changes["handlers"] = tuple(replace(h, body=_returns_stored(h.body, table, diags)) for h in handlers)
        out.append(replace(s, **changes) if changes else s)
    return tuple(out)


def expand_memoized(items: tuple, diags: DiagnosticBag) -> tuple:
    """The module's statements with each `@cache` function written out (see above)."""
    return Memoize(items, diags).run()
