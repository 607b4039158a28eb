"""Finding, parsing and collecting the .px modules a program imports.

`from geometry import Vec, dot` looks for `geometry.px` (`pkg/geometry.px` for `pkg.geometry`;
a package `pkg/__init__.px` for `pkg` when there is no `pkg.px`) in the directory of the file
that imports it, then in the standard library (`stdlib/`, shipped as `pyx/stdlib`). Each file is
parsed and collected once, so a cycle of imports is fine: names are resolved regardless of order,
as within one module.
Every imported file's text is hashed into `dependencies`, which the caches check.
"""
from __future__ import annotations

import functools
import os
from pathlib import Path

from ..diagnostics import DiagnosticBag
from ..runtime.cache import file_digest
from ..source import SourceFile, Span
from ..stdlib_dir import STDLIB
from ..syntax import ast
from .builtin_types import is_builtin
from .scope import ModuleSymbols


class ModuleLoader:
    def __init__(self, diags: DiagnosticBag, attribute_types=None):
        self.diags = diags
        self.attribute_types = attribute_types  # given to each module collected (semantics/attribute_types.py)
        self.by_path: dict[Path, ModuleSymbols] = {}
        self.by_file: dict[int, ModuleSymbols] = {}  # id(SourceFile) -> the module it holds
        self.modules: list[ModuleSymbols] = []  # the main module first
        self.dependencies: list[tuple[str, str]] = []  # (path, sha256 of its text) of each imported file
        self.imports: dict[int, list[ModuleSymbols]] = {}  # id(importer) -> the modules it imports, in order
        self._directory: dict[int, Path] = {}
        self._summaries: dict[int, dict] = {}  # id(stdlib tree) -> module.uses_summary of it, from the parse cache
        # The files whose names this check walked (module._Uses); a stdlib tree's walk comes with
        # it from the parse cache, then from memory, so it is walked once per process at most.
        self.walked: list[str] = []
        self._stdlib_paths: dict[str, Path | None] = {}  # stdlib module name -> its file (is_stdlib)

    def collect_program(self, module: ast.Module) -> ModuleSymbols:
        from .module import collect

        return collect(module, self.diags, self)

    def register(self, module: ast.Module, symbols: ModuleSymbols) -> None:
        file = module.span.file
        path = _path_of(file)
        self.by_path[path] = symbols
        self.by_file[id(file)] = symbols
        # A class's generated code (syntax/classes.py) is parsed from files of its own: it belongs
        # to the module the class is in, and resolves names there (an imported module's class too).
        for decl in module.body:
            for node in (decl, *getattr(decl, "methods", ())):
                generated = node.span.file
                if generated is not file and generated.name.startswith("<") and id(generated) not in self.by_file:
                    self.by_file[id(generated)] = symbols
        self._directory[id(symbols)] = path.parent
        self.modules.append(symbols)

    def home(self, node: ast.Node, default: ModuleSymbols) -> ModuleSymbols:
        """The module a declaration was written in."""
        return self.by_file.get(id(node.span.file), default)

    def summary(self, module: ast.Module) -> dict | None:
        """The walk `module._Uses` makes of `module`, kept with its tree when it came from the
        parse cache; None for a module parsed here (it is walked)."""
        return self._summaries.get(id(module))

    def is_stdlib(self, module: ast.Module, name: str) -> bool:
        """Whether `module` is the standard library's module `name` (which needs no prelude of itself)."""
        if name not in self._stdlib_paths:  # asked for each prelude name of each module: looked up once
            self._stdlib_paths[name] = _locate(STDLIB, name)
        return _path_of(module.span.file) == self._stdlib_paths[name]

    def load(self, name: str, span: Span, stdlib: bool = False) -> ModuleSymbols | None:
        from .. import syntax
        from .mathlib import MODULES
        from .module import collect

        importer = self.by_file[id(span.file)]
        path = None if stdlib else _locate(self._directory[id(importer)], name)
        if path is None:
            path = _locate(STDLIB, name)
            path = _resolved(str(path)) if path is not None else None
        if path is not None and _resolved(str(path)) in self.by_path:
            found = self.by_path[_resolved(str(path))]  # already collected (a cycle, or a second import)
            self.imports.setdefault(id(importer), []).append(found)
            return found
        if path is None:
            self.diags.error("E0129", span, _python_beside(self._directory[id(importer)], name, stdlib),
                             module=name, available=", ".join(f"`{m}`" for m in sorted(MODULES)),
                             looked=f"{name.replace('.', '/')}.px")
            return None
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            self.diags.error("E0901", span, path=str(path), reason=reason)
            return None
        self.dependencies.append((str(_resolved(str(path))), file_digest(text)))
        source = SourceFile(str(path), text)
        if _resolved(str(path)).parent == STDLIB:
            from ..parse_cache import parse_stdlib
            from .module import uses_summary

            def summarize(tree: ast.Module) -> dict:
                self.walked.append(tree.span.file.name)
                return uses_summary(tree)

            module, summary = parse_stdlib(source, self.diags, summarize)
            self._summaries[id(module)] = summary
        else:
            module = syntax.parse(source, self.diags)
        taken = {m.name for m in self.modules}
        unique = name if name not in taken else next(
            f"{name}~{i}" for i in range(2, 10**6) if f"{name}~{i}" not in taken)
        self.imports.setdefault(id(importer), [])
        position = len(self.imports[id(importer)])
        collected = collect(module, self.diags, self, unique)
        self.imports[id(importer)].insert(position, collected)  # its own imports were recorded meanwhile
        return collected

    def import_order(self, main: ModuleSymbols) -> list[ModuleSymbols]:
        """The modules in the order CPython would finish running them: a module after everything it
        imports (depth first, in the order of its imports), each once, `main` last."""
        done: list[ModuleSymbols] = []
        seen: set[int] = set()
        stack: list[tuple[ModuleSymbols, int]] = [(main, 0)]
        seen.add(id(main))
        while stack:
            module, k = stack.pop()
            children = self.imports.get(id(module), [])
            if k < len(children):
                stack.append((module, k + 1))
                child = children[k]
                if id(child) not in seen:
                    seen.add(id(child))
                    stack.append((child, 0))
            else:
                done.append(module)
        return done


def is_string(t) -> bool:
    """The standard library's String (stdlib/string.px), Python's str: the struct marked
    `@builtin_type("String")` (builtin_types.py)."""
    return is_builtin(t, "String")


def is_stdlib_file(path: str) -> bool:
    """Whether a source file is part of the standard library: its frames stay out of tracebacks,
    as a Python builtin's do (an IndexError names the user's `xs[i]` line, not List's insides)."""
    try:
        return _resolved(path).parent == STDLIB
    except (OSError, ValueError):
        return False


def _resolved(path: str) -> Path:
    """`Path(path).resolve()`, once per absolute path a process meets: a compile asks about the
    same few files hundreds of times (is_stdlib_file for each stdlib struct a message or traceback
    names), and each resolve is a system call per path component. A relative path depends on the
    working directory, which may change between compiles: it is resolved every time."""
    return _resolved_absolute(path) if os.path.isabs(path) else Path(path).resolve()


@functools.lru_cache(maxsize=4096)
def _resolved_absolute(path: str) -> Path:
    return Path(path).resolve()


def _python_beside(directory: Path, name: str, stdlib: bool) -> tuple:
    """A note for E0129 when a Python module of that name is beside the file: pyx imports only
    `.px` modules, and Python ones through `Python.import_module`."""
    from ..diagnostics import Note

    python = directory.joinpath(*name.split(".")).with_suffix(".py")
    try:
        if stdlib or not python.is_file():
            return ()
    except OSError:
        return ()
    return (Note(f"`{python.name}` beside it is a Python module: pyx imports `.px` modules; call Python's "
                 f"through `Python.import_module(\"{name}\")`, or run this program with Python"),)


def _locate(directory: Path, name: str) -> Path | None:
    """`a/b.px` for `a.b`, else the package `a/b/__init__.px`; None when neither exists or the name
    cannot be a path on this system (too long, for one)."""
    base = directory.joinpath(*name.split("."))
    try:
        for path in (base.with_suffix(".px"), base / "__init__.px"):
            if path.is_file():
                return path
    except OSError:
        return None
    return None


def _path_of(file: SourceFile) -> Path:
    """A file's location; source given as a string (no file) imports from the working directory."""
    path = Path(file.name)
    return _resolved(file.name) if path.suffix == ".px" else (Path.cwd() / "<string>.px")

