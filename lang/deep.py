"""Running a stage where deep recursion fits: a thread of its own with a large stack."""
from __future__ import annotations

import contextvars
import sys
import threading
from collections.abc import Callable
from typing import Any, TypeVar

R = TypeVar("R")

# The passes after parsing recurse over the tree, whose depth syntax.validate bounds
# (MAX_NESTING levels, up to ~10 Python frames each). That needs more frames than Python's
# default limit of 1000 and more C stack than a default thread has, and importing or using pyx
# must not change the host's recursion limit for good. So each stage runs on a thread of its own
# with a large stack, and the limit is raised only while such a thread runs, then put back.
STAGE_STACK_BYTES = 512 << 20  # address space reserved, not memory used: pages are touched as needed
STAGE_RECURSION_LIMIT = 30_000
_deep = threading.local()
_limit_lock = threading.Lock()
_stack_lock = threading.Lock()
_limit_users = 0
_limit_saved = 0


def _raise_limit() -> None:
    global _limit_users, _limit_saved
    with _limit_lock:
        if _limit_users == 0:
            _limit_saved = sys.getrecursionlimit()
            sys.setrecursionlimit(max(_limit_saved, STAGE_RECURSION_LIMIT))
        _limit_users += 1


def _restore_limit() -> None:
    global _limit_users
    with _limit_lock:
        _limit_users -= 1
        if _limit_users == 0:  # the last deep thread out puts back what the first one found
            sys.setrecursionlimit(_limit_saved)


def run_deep(fn: Callable[..., R], *args: object) -> R:
    """`fn(*args)` on a thread with a large stack and room for deep recursion, as if called here:
    its result is returned and its exception raised in the caller. Nested calls run inline."""
    if getattr(_deep, "active", False):
        return fn(*args)
    box: dict[str, Any] = {}
    context = contextvars.copy_context()

    def body() -> None:
        _deep.active = True
        _raise_limit()
        try:
            box["result"] = context.run(fn, *args)
        except BaseException as exc:  # noqa: BLE001 - handed to the caller, which raises it
            box["error"] = exc
        finally:
            _restore_limit()

    worker = threading.Thread(target=body, name="pyx-compile", daemon=True)
    started = False
    with _stack_lock:  # threading.stack_size is process-wide: set it for this one thread only
        previous = threading.stack_size()
        try:
            threading.stack_size(STAGE_STACK_BYTES)
            worker.start()
            started = True
        except (RuntimeError, ValueError, MemoryError):
            pass  # no thread to be had (a tight address-space limit): run here instead, below
        finally:
            threading.stack_size(previous)
    if not started:
        return fn(*args)
    worker.join()
    if "error" in box:
        raise box["error"]
    return box["result"]
