"""Source files and spans: the coordinates every diagnostic points at."""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Span:
    """A half-open character range [start, end) in one source file."""

    file: SourceFile = field(repr=False, compare=False, hash=False)
    start: int
    end: int

    @property
    def line(self) -> int:
        return self.file.line_col(self.start)[0]

    @property
    def col(self) -> int:
        return self.file.line_col(self.start)[1]

    def to(self, other: Span) -> Span:
        return Span(self.file, min(self.start, other.start), max(self.end, other.end))

    def __str__(self) -> str:
        line, col = self.file.line_col(self.start)
        return f"{self.file.name}:{line}:{col}"


_LONE_CR = re.compile(r"\r(?!\n)")


def _lines(text: str) -> str:
    """Python's universal newlines, as text-mode reading gives them: `\r\n` and `\r` are `\n`."""
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


class SourceFile:
    def __init__(self, name: str, text: str):
        self.name = name
        # A UTF-8 byte order mark opening a file is not part of the program: Python skips it too.
        text = text[1:] if text.startswith("\ufeff") else text
        # A carriage return alone ends a line, as in Python (old Mac files); replacing it keeps
        # every offset where it was.
        self.text = _LONE_CR.sub("\n", text) if "\r" in text else text
        self._line_starts = [0]
        start = self.text.find("\n")
        while start >= 0:  # str.find rather than a loop over every character: files can be large
            self._line_starts.append(start + 1)
            start = self.text.find("\n", start + 1)

    @classmethod
    def read(cls, path: str | Path) -> SourceFile:
        """The file as UTF-8; raises InvalidUtf8 (a UnicodeDecodeError) pointing at the first bad byte."""
        path = Path(path)
        data = path.read_bytes()
        try:
            return cls(str(path), _lines(data.decode("utf-8")))
        except UnicodeDecodeError as exc:
            raise InvalidUtf8(cls(str(path), _lines(data.decode("utf-8", "replace"))), data, exc) from None

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


class InvalidUtf8(UnicodeDecodeError):
    """A source file that is not UTF-8. `span` is its first bad byte, in `file`, the text with
    each bad byte replaced (so lines and columns before it are the file's own)."""

    def __init__(self, file: SourceFile, data: bytes, cause: UnicodeDecodeError):
        super().__init__(cause.encoding, cause.object, cause.start, cause.end, cause.reason)
        good = _lines(data[:cause.start].decode("utf-8"))  # valid up to the first bad byte, by definition
        offset = len(good) - (1 if good.startswith("\ufeff") else 0)  # the file's text has no BOM
        self.file = file
        self.span = file.span(offset, offset + 1)
