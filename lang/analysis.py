"""Questions an editor asks about one file, answered by the real parser and checker.

`analyze(text, path)` runs the front end (never code generation) and keeps whatever it
got, errors included, so hover and completion keep working in a file that does not
compile yet. Lines and columns are 1-based, as in diagnostics.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from . import types as T
from .diagnostics import CompileError, Diagnostic, DiagnosticBag, InternalCompilerError
from .source import SourceFile, Span
from .syntax import ast

KEYWORDS = ["fn", "def", "var", "comptime", "if", "elif", "else", "while", "for", "in", "break", "continue",
            "pass", "return", "assert", "and", "or", "not", "True", "False", "None", "raises"]
BUILTINS = {"print": "print(*values, sep=\" \", end=\"\\n\")", "range": "range(start, stop, step)",
            "abs": "abs(x)", "min": "min(a, b, ...)", "max": "max(a, b, ...)", "int": "int(x) -> Int",
            "float": "float(x) -> Float64", "bool": "bool(x) -> Bool"}


@dataclass
class Symbol:
    name: str
    kind: str  # "function" | "constant" | "struct" | "trait" | "method" | "field"
    span: Span
    name_span: Span
    detail: str
    children: list[Symbol] = field(default_factory=list)


@dataclass
class Completion:
    label: str
    kind: str  # "variable" | "function" | "constant" | "type" | "keyword"
    detail: str = ""


@dataclass
class Analysis:
    source: SourceFile
    diagnostics: list[Diagnostic] = field(default_factory=list)
    module: ast.Module | None = None
    program: object = None

    # ---- positions ----
    def offset(self, line: int, col: int) -> int:
        return self.source.offset(line, col)

    def _references(self):
        if self.program is None:
            return []
        return [r for inst in self.program.instances for r in inst.references]

    def references_at(self, line: int, col: int):
        """Every resolution of the name at this position (a generic `def` has one per instance)."""
        at = self.offset(line, col)
        hits = [r for r in self._references() if r.span.file is self.source  # not a name in an imported module
                and r.span.start <= at < max(r.span.end, r.span.start + 1)]
        if not hits:
            return []
        narrowest = min(r.span.end - r.span.start for r in hits)
        return [r for r in hits if r.span.end - r.span.start == narrowest]

    # ---- queries ----
    def hover(self, line: int, col: int) -> str | None:
        refs = self.references_at(line, col)
        if not refs:
            return None
        lines: list[str] = []
        for r in refs:
            if r.kind == "function":
                text = r.detail
            elif r.kind == "comptime":
                text = f"comptime {r.name}: {r.type} {r.detail}".rstrip()
            elif r.kind == "param":
                text = f"(parameter) {r.name}: {r.type}"
            elif r.kind == "field":
                text = f"(field) {r.name}: {r.type}"
            else:
                text = f"(variable) {r.name}: {r.type}"
            if text not in lines:
                lines.append(text)
        return "\n".join(lines)

    def definition(self, line: int, col: int) -> Span | None:
        refs = self.references_at(line, col)
        return refs[0].target_span if refs else None

    def symbols(self) -> list[Symbol]:
        if self.module is None:
            return []
        out = []
        for item in self.module.body:
            if isinstance(item, ast.FnDef):
                out.append(self._function_symbol(item, "function"))
            elif isinstance(item, (ast.StructDef, ast.TraitDef)):
                kind = "struct" if isinstance(item, ast.StructDef) else "trait"
                children = [Symbol(f.name, "field", f.span, f.name_span, _text(self.source, f.annotation))
                            for f in getattr(item, "fields", ())]
                children += [self._function_symbol(m, "method") for m in item.methods]
                out.append(Symbol(item.name, kind, item.span, item.name_span, f"{kind} {item.name}", children))
            elif isinstance(item, ast.Comptime):
                out.append(Symbol(item.name, "constant", item.span, item.name_span,
                                  f"comptime {item.name} = {_text(self.source, item.value)}"))
        return out

    def member_completions(self, line: int, col: int, prefix_text: str,
                           fallback: Analysis | None = None) -> list[Completion] | None:
        """After `name.`: the fields and methods of name's struct, SIMD/Ptr methods, or a module's names.
        `prefix_text` is the line up to the cursor; `fallback` is an older analysis that parsed."""
        m = re.search(r"([A-Za-z_][A-Za-z_0-9]*)\.([A-Za-z_0-9]*)$", prefix_text)
        if m is None:
            return None
        base = m.group(1)
        source = self if self.program is not None else fallback
        if source is None:
            return []
        if source.module is not None:
            for item in source.module.body:
                if isinstance(item, ast.Import) and not item.from_import and (item.alias or item.module) == base:
                    from .semantics.mathlib import CONSTANTS, MODULES

                    return [Completion(n, "constant" if n in CONSTANTS else "function", f"{item.module}.{n}")
                            for n in sorted(MODULES[item.module])]
        t = None
        for inst in source.program.instances:
            for r in inst.references:
                if r.name == base and r.kind in ("local", "param") and r.type is not None:
                    t = r.type
        if t is None:
            return []
        if isinstance(t, T.StructType):
            decl = getattr(t.symbol, "decl", None)  # the struct's declaration, in whichever module it is
            out = [Completion(n, "variable", str(ft)) for n, ft in t.fields]
            if decl is not None:
                out += [Completion(f.name, "function", f"{f.kind} {f.name}(...)") for f in decl.methods
                        if not f.name.startswith("__")]
            return out
        if isinstance(t, T.SIMDType):
            return [Completion(n, "function", "SIMD method") for n in
                    ("reduce_add", "reduce_mul", "reduce_min", "reduce_max", "fma", "select", "cast", "shuffle",
                     "slice")]
        if isinstance(t, T.PtrType):
            return [Completion(n, "function", "Ptr method") for n in ("load", "store", "offset", "free", "bitcast")]
        return []

    def _function_symbol(self, item: ast.FnDef, kind: str) -> Symbol:
        params = ", ".join(p.name + (f": {_text(self.source, p.annotation)}" if p.annotation else "")
                           for p in item.params)
        ret = f" -> {_text(self.source, item.returns)}" if item.returns is not None else ""
        return Symbol(item.name, kind, item.span, item.name_span, f"{item.kind} {item.name}({params}){ret}")

    def completions(self, line: int, col: int) -> list[Completion]:
        at = self.offset(line, col)
        items: dict[str, Completion] = {}
        if self.program is not None:
            for inst in self.program.instances:
                if inst.decl.span.start <= at <= inst.decl.span.end:
                    for var in inst.locals:
                        if var.span.start < at and var.name not in items:
                            items[var.name] = Completion(var.name, "variable", str(var.type))
        for sym in self.symbols():
            kind = {"struct": "type", "trait": "type"}.get(sym.kind, sym.kind)
            items.setdefault(sym.name, Completion(sym.name, kind, sym.detail))
        for name, detail in BUILTINS.items():
            items.setdefault(name, Completion(name, "function", detail))
        for name in T.TYPE_NAMES:
            items.setdefault(name, Completion(name, "type", "type"))
        for kw in KEYWORDS:
            items.setdefault(kw, Completion(kw, "keyword"))
        return list(items.values())


def _text(source: SourceFile, node) -> str:
    return source.text[node.span.start:node.span.end] if node is not None else ""


def analyze(text: str, path: str = "<editor>") -> Analysis:
    from .cancel import Cancelled
    from .deep import run_deep
    from .monomorphize import instantiate_program
    from .syntax import parse

    result = Analysis(SourceFile(path, text))
    diags = DiagnosticBag()

    def front_end() -> None:
        result.module = parse(result.source, diags)
        result.program = instantiate_program(result.module, diags)

    try:
        run_deep(front_end)  # the checker recurses as deep as the code nests: give it the room
    except Cancelled:
        raise  # nobody wants this analysis any more (a BaseException: the handlers below let it by)
    except CompileError as exc:
        diags.items.extend(d for d in exc.diagnostics if d not in diags.items)
    except (InternalCompilerError, RecursionError, Exception) as exc:  # noqa: BLE001 - an editor must not crash
        from .diagnostics import error

        diags.add(error("E0905", None, detail=f"{type(exc).__name__}: {exc}"))
    items = [_in_this_file(d, result) for d in diags.items]
    result.diagnostics = sorted(items, key=lambda d: (d.span.start if d.span else 0))
    return result


def _in_this_file(d, result: Analysis):
    """An editor shows a file's diagnostics in that file: one inside an imported module is shown at
    the import that leads to it (or the first import), naming where it is."""
    from .semantics.mathlib import MODULES

    if d.span is None or d.span.file is result.source or result.module is None:
        return d
    imports = [item for item in result.module.body if isinstance(item, ast.Import) and item.module not in MODULES]
    target = Path(d.span.file.name).with_suffix("").as_posix()
    direct = [item for item in imports if target.endswith(item.module.replace(".", "/"))]
    anchor = (direct or imports or [None])[0]
    return Diagnostic(d.code, f"in {d.span}: {d.message}", anchor.span if anchor else None, d.severity)
