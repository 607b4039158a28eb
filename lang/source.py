"""Source files and spans: the coordinates every diagnostic points at."""
from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Span:
    """A half-open character range [start, end) in one source file."""

    file: "SourceFile" = field(repr=False, compare=False, hash=False)
    start: int
    end: int

    @property
    def line(self) -> int:
        return self.file.line_col(self.start)[0]

    @property
    def col(self) -> int:
        return self.file.line_col(self.start)[1]

    def to(self, other: "Span") -> "Span":
        return Span(self.file, min(self.start, other.start), max(self.end, other.end))

    def __str__(self) -> str:
        line, col = self.file.line_col(self.start)
        return f"{self.file.name}:{line}:{col}"


class SourceFile:
    def __init__(self, name: str, text: str):
        self.name = name
        self.text = text
        self._line_starts = [0]
        for i, ch in enumerate(text):
            if ch == "\n":
                self._line_starts.append(i + 1)

    @classmethod
    def read(cls, path: str | Path) -> "SourceFile":
        path = Path(path)
        return cls(str(path), path.read_text(encoding="utf-8"))

    def line_col(self, offset: int) -> tuple[int, int]:
        """1-based line and column of a character offset."""
        index = bisect.bisect_right(self._line_starts, offset) - 1
        return index + 1, offset - self._line_starts[index] + 1

    def line_text(self, line: int) -> str:
        start = self._line_starts[line - 1]
        end = self.text.find("\n", start)
        return self.text[start:] if end < 0 else self.text[start:end]

    def span(self, start: int, end: int) -> Span:
        return Span(self, start, end)

    def offset(self, line: int, col: int) -> int:
        return self._line_starts[line - 1] + col - 1
