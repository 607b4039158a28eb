"""Cooperative cancellation of a compile whose result nobody wants any more.

`pyx lsp` analyses a document on a worker thread; when the editor sends a newer version, the
analysis of the older one is told to stop. It cannot be killed from outside, so the front end
asks at points it passes often (every few thousand tokens while parsing, every function
instance while checking) and raises `Cancelled` there. Outside `cancellable(...)` the checks
cost one context-variable read and never fire.
"""
from __future__ import annotations

import contextlib
import contextvars
import threading


class Cancelled(BaseException):
    """The compile was cancelled. A BaseException, like KeyboardInterrupt: no stage's `except
    Exception` turns it into a diagnostic or an internal compiler error."""


# A context variable, not a thread-local: deep.run_deep runs stages on threads of their own,
# in a copy of the caller's context, so the request to stop follows the work there.
_token: contextvars.ContextVar[threading.Event | None] = contextvars.ContextVar("pyx_cancel", default=None)


@contextlib.contextmanager
def cancellable(event: threading.Event):
    """Within the block, `check()` raises Cancelled once `event` is set."""
    reset = _token.set(event)
    try:
        yield
    finally:
        _token.reset(reset)


def check() -> None:
    event = _token.get()
    if event is not None and event.is_set():
        raise Cancelled
