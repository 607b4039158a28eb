"""Finding, parsing and collecting the .px modules a program imports.

`from geometry import Vec, dot` looks for `geometry.px` (`pkg/geometry.px` for `pkg.geometry`;
a package `pkg/__init__.px` for `pkg` when there is no `pkg.px`) in the directory of the file
that imports it, then in the standard library (`stdlib/`, shipped as `pyx/stdlib`). Each file is
parsed and collected once, so a cycle of imports is fine: names are resolved regardless of order,
as within one module.
Every imported file's text is hashed into `dependencies`, which the caches check.
"""
from __future__ import annotations

from pathlib import Path

from ..diagnostics import DiagnosticBag
from ..runtime.cache import file_digest
from ..source import SourceFile, Span
from ..syntax import ast
from .scope import ModuleSymbols


class ModuleLoader:
    def __init__(self, diags: DiagnosticBag):
        self.diags = diags
        self.by_path: dict[Path, ModuleSymbols] = {}
        self.by_file: dict[int, ModuleSymbols] = {}  # id(SourceFile) -> the module it holds
        self.modules: list[ModuleSymbols] = []  # the main module first
        self.dependencies: list[tuple[str, str]] = []  # (path, sha256 of its text) of each imported file
        self.imports: dict[int, list[ModuleSymbols]] = {}  # id(importer) -> the modules it imports, in order
        self._directory: dict[int, Path] = {}

    def collect_program(self, module: ast.Module) -> ModuleSymbols:
        from .module import collect

        return collect(module, self.diags, self)

    def register(self, module: ast.Module, symbols: ModuleSymbols) -> None:
        file = module.span.file
        path = _path_of(file)
        self.by_path[path] = symbols
        self.by_file[id(file)] = symbols
        self._directory[id(symbols)] = path.parent
        self.modules.append(symbols)

    def home(self, node: ast.Node, default: ModuleSymbols) -> ModuleSymbols:
        """The module a declaration was written in."""
        return self.by_file.get(id(node.span.file), default)

    def is_stdlib(self, module: ast.Module, name: str) -> bool:
        """Whether `module` is the standard library's module `name` (which needs no prelude of itself)."""
        return _path_of(module.span.file) == _locate(STDLIB, name)

    def load(self, name: str, span: Span, stdlib: bool = False) -> ModuleSymbols | None:
        from .. import syntax
        from .mathlib import MODULES
        from .module import collect

        importer = self.by_file[id(span.file)]
        path = None if stdlib else _locate(self._directory[id(importer)], name)
        if path is None:
            path = _locate(STDLIB, name)
            path = path.resolve() if path is not None else None
        if path is not None and path.resolve() in self.by_path:
            found = self.by_path[path.resolve()]  # already collected (a cycle, or a second import)
            self.imports.setdefault(id(importer), []).append(found)
            return found
        if path is None:
            self.diags.error("E0129", span, module=name, available=", ".join(f"`{m}`" for m in sorted(MODULES)),
                             looked=f"{name.replace('.', '/')}.px")
            return None
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            self.diags.error("E0901", span, path=str(path), reason=reason)
            return None
        self.dependencies.append((str(path.resolve()), file_digest(text)))
        source = SourceFile(str(path), text)
        if path.resolve().parent == STDLIB:
            from ..parse_cache import parse_stdlib

            module = parse_stdlib(source, self.diags)
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


def _stdlib_directory() -> Path:
    """The pyx.stdlib package's folder (`stdlib/` in a checkout, `pyx/stdlib/` when installed)."""
    import importlib.util

    spec = importlib.util.find_spec("pyx.stdlib")
    if spec is not None and spec.origin:
        return Path(spec.origin).resolve().parent
    return Path(__file__).resolve().parent.parent / "stdlib"


STDLIB = _stdlib_directory()


def is_stdlib_struct(t, base: str) -> bool:
    """Whether t is the standard library's struct `base` (List, String, ...), and not a user's
    struct of that name, nor one in a user module that happens to be called like a stdlib one."""
    from ..types import StructType

    return (isinstance(t, StructType) and t.base == base and t.symbol is not None
            and is_stdlib_file(t.symbol.decl.span.file.name))


def is_string(t) -> bool:
    """The standard library's String (stdlib/string.px), Python's str."""
    return is_stdlib_struct(t, "String")


def is_stdlib_file(path: str) -> bool:
    """Whether a source file is part of the standard library: its frames stay out of tracebacks,
    as a Python builtin's do (an IndexError names the user's `xs[i]` line, not List's insides)."""
    try:
        return Path(path).resolve().parent == STDLIB
    except (OSError, ValueError):
        return False


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
    return path.resolve() if path.suffix == ".px" else (Path.cwd() / "<string>.px")

