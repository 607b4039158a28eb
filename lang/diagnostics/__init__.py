"""Diagnostics are data: a code, a message, a span and notes. One renderer prints them."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..source import Span
from .codes import ErrorCode, lookup


@dataclass(frozen=True)
class Note:
    message: str
    span: Span | None = None


@dataclass(frozen=True)
class Diagnostic:
    code: str
    message: str
    span: Span | None
    severity: str = "error"
    notes: tuple[Note, ...] = field(default=())


def error(code: str | ErrorCode, span: Span | None, notes: tuple[Note, ...] = (), **args: object) -> Diagnostic:
    """The diagnostic for a registered code (`codes.py`, by its string or its `ErrorCode`); the arguments
    must be exactly the template's fields (a mismatch is a compiler bug: TypeError)."""
    registered = lookup(code)
    return Diagnostic(registered.code, registered.format(**_disambiguated(args)), span, registered.severity, notes)


def _disambiguated(args: dict[str, object]) -> dict[str, object]:
    """Types that read the same but are different (`Point` of two modules, or `List` of them) are
    named with their modules, as mypy does: "expected `a.Point`, found `b.Point`"."""
    qualified: dict[str, set[str]] = {}
    for value in args.values():
        name = getattr(value, "qualified_name", None)
        if isinstance(name, str):
            qualified.setdefault(str(value), set()).add(name)
    clashing = {shown for shown, names in qualified.items() if len(names) > 1}
    if not clashing:
        return args
    return {k: v.qualified_name if str(v) in clashing and hasattr(v, "qualified_name") else v
            for k, v in args.items()}


class CompileError(Exception):
    """Raised by a stage that cannot go on; carries every diagnostic so far."""

    def __init__(self, diagnostics: list[Diagnostic]):
        super().__init__("; ".join(d.message for d in diagnostics))
        self.diagnostics = diagnostics


class InternalCompilerError(Exception):
    """A bug in pyx, never the user's fault: names the pass (`passmanager.py`) and the span of the
    statement it was at, when it knows one."""

    def __init__(self, stage: str, span: Span | None, cause: BaseException):
        super().__init__(f"{stage}: {cause!r}")
        self.stage = stage  # the pass's name
        self.span = span
        self.cause = cause

    def headline(self) -> str:
        """What the CLI prints after `error: `."""
        where = f" at {self.span}" if self.span is not None else ""
        return f"internal compiler error in pass `{self.stage}`{where}: {type(self.cause).__name__}: {self.cause}"


def note_statement(exc: BaseException, span: Span) -> None:
    """Called by a pass's statement loop as an exception escapes a statement: the innermost one
    wins, and an internal error reports it (`statement_of`)."""
    if not hasattr(exc, "pyx_statement"):
        exc.pyx_statement = span  # type: ignore[attr-defined]


def statement_of(exc: BaseException) -> Span | None:
    """The span `note_statement` left on the exception, or None."""
    return getattr(exc, "pyx_statement", None)


class DiagnosticBag:
    """Collects diagnostics so a pass can report several per run."""

    def __init__(self) -> None:
        self.items: list[Diagnostic] = []
        self._seen: set = set()

    def error(self, code: str | ErrorCode, span: Span | None, notes: tuple[Note, ...] = (), **args: object) -> None:
        self.add(error(code, span, notes, **args))

    def add(self, diag: Diagnostic) -> None:
        # A generic body is checked once per instance: the same mistake is reported once.
        key = (diag.code, diag.message, diag.span.start if diag.span else None,
               diag.span.end if diag.span else None)
        if key not in self._seen:
            self._seen.add(key)
            self.items.append(diag)

    def drop_since(self, mark: int, within) -> None:
        """Forget the diagnostics added after the first `mark` whose span `within(span)` accepts (a
        check that starts again reports them again if they still hold)."""
        kept = []
        for d in self.items[mark:]:
            if d.span is not None and within(d.span):
                self._seen.discard((d.code, d.message, d.span.start, d.span.end))
            else:
                kept.append(d)
        self.items[mark:] = kept

    def snapshot(self) -> tuple[int, frozenset]:
        """Where the bag is now, for `rewind`."""
        return len(self.items), frozenset(self._seen)

    def rewind(self, snapshot: tuple[int, frozenset]) -> None:
        """Forget everything reported since `snapshot`, those already moved elsewhere too (a check
        run again from the start reports them again if they still hold)."""
        mark, seen = snapshot
        del self.items[mark:]
        self._seen = set(seen)

    @property
    def has_errors(self) -> bool:
        return any(d.severity == "error" for d in self.items)

    def raise_if_errors(self) -> None:
        if self.has_errors:
            raise CompileError(sorted(self.items, key=_order))


def _order(d: Diagnostic) -> tuple:
    if d.span is None:
        return ("", 0)
    return (d.span.file.name, d.span.start)
