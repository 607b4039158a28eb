"""The one object every checker reports through.

The statement checker makes one `MessageBuilder` around the compilation's `DiagnosticBag`
and its collaborators share it (`self.msg`): a diagnostic is a registered code
(`diagnostics/codes.py`), a span and the message's named arguments.
"""
from __future__ import annotations

from ..diagnostics import DiagnosticBag, Note
from ..diagnostics.codes import ErrorCode
from ..source import Span


class MessageBuilder:
    def __init__(self, bag: DiagnosticBag) -> None:
        self.bag: DiagnosticBag = bag  # for helpers outside the checkers that take the bag itself

    def error(self, code: str | ErrorCode, span: Span | None, notes: tuple[Note, ...] = (), **args: object) -> None:
        self.bag.error(code, span, notes, **args)
