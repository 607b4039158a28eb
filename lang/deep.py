"""Running a stage where deep recursion fits: a thread of its own with a large stack."""
from __future__ import annotations

import contextlib
import contextvars
import gc
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

R = TypeVar("R")

# The passes after parsing recurse over the tree, whose depth syntax.validate bounds
# (MAX_NESTING levels, up to ~10 Python frames each). That needs more frames than Python's
# default limit of 1000 and more C stack than a default thread has, and importing or using pyx
# must not change the host's recursion limit for good. So each stage runs on a thread of its own
# with a large stack, and the limit is raised only while such a thread runs, then put back.
STAGE_STACK_BYTES = 512 << 20  # address space reserved, not memory used: pages are touched as needed
STAGE_RECURSION_LIMIT = 30_000
# A compile allocates some 10^5 objects that live as long as it does (syntax trees of the program and
# of the stdlib modules it imports, types, typed trees, IR) and makes little cyclic garbage. With
# Python's default first-generation threshold (700 allocations) the collector ran hundreds of
# times and traversed the whole growing heap again at each full collection: a third of a small
# program's check pass (measured: docs/compiler.md, "Compile time"). While a stage runs the
# threshold is at least this; the other two are left alone, and all three are put back after.
STAGE_GC_THRESHOLD = 20_000
_deep = threading.local()
_limit_lock = threading.Lock()
_stack_lock = threading.Lock()
_limit_users = 0
_limit_saved = 0
_gc_saved: tuple[int, ...] = ()


def _raise_limit() -> None:
    global _limit_users, _limit_saved, _gc_saved
    with _limit_lock:
        if _limit_users == 0:
            _limit_saved = sys.getrecursionlimit()
            sys.setrecursionlimit(max(_limit_saved, STAGE_RECURSION_LIMIT))
            _gc_saved = gc.get_threshold()
            gc.set_threshold(max(_gc_saved[0], STAGE_GC_THRESHOLD), *_gc_saved[1:])
        _limit_users += 1


def _restore_limit() -> None:
    global _limit_users
    with _limit_lock:
        _limit_users -= 1
        if _limit_users == 0:  # the last deep thread out puts back what the first one found
            sys.setrecursionlimit(_limit_saved)
            gc.set_threshold(*_gc_saved)


@contextlib.contextmanager
def compiling() -> Iterator[None]:
    """The settings a stage runs with (recursion limit, collector threshold) for work of a compile
    done outside a stage's thread: importing the modules of the pass about to run."""
    _raise_limit()
    try:
        yield
    finally:
        _restore_limit()


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
