"""Imports of the standard modules whose names the compiler writes out itself (`dataclasses`,
`enum`, functools' `cache`/`lru_cache`): what such an import binds, for the pass that writes
them (syntax/dataclass_methods.py, enums.py, memoize.py). One reading of `import m [as a]` and
`from m import x [as y], ...` for all three."""
from __future__ import annotations

from dataclasses import dataclass, field

from . import ast


@dataclass
class WrittenImport:
    """What the imports of `module` bound so far: each known name's local names, and the
    module's own local names (`import enum as e`)."""

    module: str
    known: tuple[str, ...]
    locals: dict[str, set[str]] = field(default_factory=dict)  # known name -> its local names
    aliases: set[str] = field(default_factory=set)

    def record(self, item: ast.Stmt) -> list[tuple[str, str]] | None:
        """For an import of the module: record what it binds and give the (name, local) pairs it
        imports that are not known (the pass refuses or keeps them); None for any other statement."""
        if not isinstance(item, ast.Import) or item.module != self.module:
            return None
        if not item.from_import:
            self.aliases.add(item.alias or self.module)
            return []
        others = []
        for name, local in item.names:
            if name in self.known:
                self.locals.setdefault(name, set()).add(local)
            else:
                others.append((name, local))
        return others

    def names(self, name: str) -> set[str]:
        """The local names `name` of the module is bound to (empty if never imported)."""
        return self.locals.get(name, set())

    def refers(self, e: ast.Expr, name: str) -> bool:
        """Whether the expression `e` (`field`, `dc.field`) names the module's `name`."""
        if isinstance(e, ast.Name):
            return e.id in self.names(name)
        return isinstance(e, ast.Attribute) and e.attr == name and isinstance(e.value, ast.Name) \
            and e.value.id in self.aliases

    def bound(self) -> bool:
        return bool(self.locals or self.aliases)

    def means(self, written: str, name: str) -> bool:
        """Whether `written` (`cache`, `functools.cache`) names the module's `name`."""
        return written in self.names(name) or any(written == f"{a}.{name}" for a in self.aliases)
