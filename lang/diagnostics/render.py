"""The one renderer: `file.px:L:C: error[CODE]: message`, the source line, a caret."""
from __future__ import annotations

import os
import re
import sys

from . import Diagnostic


def use_color(stream, choice: str = "auto") -> bool:
    if choice == "always":
        return True
    # A terminal that says it is dumb (Emacs' shell, some CI logs) shows escapes as text.
    if choice == "never" or os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    return hasattr(stream, "isatty") and stream.isatty()


_RED, _BLUE, _BOLD, _RESET, _CYAN = "\x1b[31m", "\x1b[34m", "\x1b[1m", "\x1b[0m", "\x1b[36m"


def render(diag: Diagnostic, color: bool = False) -> str:
    def paint(code: str, text: str) -> str:
        return f"{code}{text}{_RESET}" if color else text

    label = diag.severity if diag.code.startswith("E") or diag.severity != "error" else "error"
    head = f"{label}[{diag.code}]: {diag.message}"
    head = paint(_BOLD + (_RED if diag.severity == "error" else _CYAN), head) if color else head
    lines = []
    if diag.span is not None:
        lines.append(f"{paint(_BOLD, str(diag.span)) if color else diag.span}: {head}")
        lines.extend(_excerpt(diag.span, color, paint))
    else:
        lines.append(head)
    for note in diag.notes:
        where = f"{note.span}: " if note.span is not None else ""
        lines.append(f"{where}note: {note.message}")
        if note.span is not None:
            lines.extend(_excerpt(note.span, color, paint))
    return "\n".join(lines)


# A source line longer than this is shown as a window around the span, marked with `...`: a
# generated file can have a line of megabytes, and each diagnostic would print all of it.
MAX_EXCERPT = 200
_CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029]")


def _excerpt(span, color, paint) -> list[str]:
    line, col = span.file.line_col(span.start)
    end_line, end_col = span.file.line_col(max(span.start, span.end - 1))
    # Control characters would move the cursor or vanish on a terminal: each shows as one `?`.
    text = _CONTROL.sub("?", span.file.line_text(line).expandtabs(1))
    width = max(1, (end_col - col + 1) if end_line == line else len(text) - col + 1)
    if len(text) > MAX_EXCERPT:
        first = max(0, col - 1 - MAX_EXCERPT // 4)  # a quarter of the window before the span
        last = min(len(text), first + MAX_EXCERPT)
        before = "..." if first > 0 else ""
        text = before + text[first:last] + ("..." if last < len(text) else "")
        width = max(1, min(width, last - (col - 1)))
        col = col - first + len(before)
    gutter = f"{line:>4} | "
    source = _highlight(text) if color else text
    marker = "^" + "~" * (width - 1)
    return [gutter + source, " " * (len(gutter) + col - 1) + (paint(_RED, marker) if color else marker)]


def _highlight(text: str) -> str:
    try:
        from pygments import highlight
        from pygments.formatters import TerminalFormatter

        from ..pygments_lexer import PyxLexer
    except ImportError:
        return text
    return highlight(text, PyxLexer(), TerminalFormatter()).rstrip("\n")


def render_all(diags: list[Diagnostic], stream=None, color: str = "auto") -> str:
    stream = stream or sys.stderr
    on = use_color(stream, color)
    parts = [render(d, on) for d in diags]
    errors = sum(1 for d in diags if d.severity == "error")
    if errors > 1:
        parts.append(f"{errors} errors")
    return "\n".join(parts)
