"""One thread pool per process, whichever modules it loads (lang/codegen/parallel.py).

Every compiled module with a parallel loop (`prange`, or GPU blocks run on the CPU) carries a
copy of the pool's code. Left alone, each module would start its own pool of one thread per
core on first use, and two modules' loops plus a BLAS library would oversubscribe the cores.
So the loader hands each module one pool: the first shared library loaded that has a pool
becomes the provider, and every module loaded after it adopts the provider's
`__pyx_pool_core` (`__pyx_pool_adopt`) before any of its code runs. A shared library is never
unloaded, so the provider's code outlives every module that uses it; a module loaded through
MCJIT (whose code is freed with it) adopts a provider but never becomes one.

`set_num_threads(n)` caps the threads each parallel loop uses (the pool itself keeps the size
it started with: `PYX_NUM_THREADS`, else the cores this process may run on), as Numba's
`numba.set_num_threads` does.
"""
from __future__ import annotations

import ctypes
import os
import threading

_CORE = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64)

_lock = threading.Lock()
_provider = None  # the program whose pool every module uses
_programs: list = []  # every loaded program with a pool, to apply set_num_threads to
_limit = 0  # 0: every thread of the pool


def share(program) -> None:
    """Give `program` (a SharedProgram or JitModule just loaded) the process's pool."""
    global _provider
    if not program.address("__pyx_pool_core"):
        return  # no parallel loop in it
    with _lock:
        _programs.append(program)
        _set_limit(program, _limit)
        from .native import SharedProgram

        if _provider is None and isinstance(program, SharedProgram):
            _provider = program
            return
        if _provider is None or _provider is program:
            return  # a JIT module before any shared library: it runs its own pool
        adopt = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p)(program.address("__pyx_pool_adopt"))
        adopt(_provider.address("__pyx_pool_core"), _provider.address("__pyx_pool_own_threads"))


def _set_limit(program, n: int) -> None:
    ctypes.CFUNCTYPE(None, ctypes.c_int64)(program.address("__pyx_pool_set_limit"))(n)


def available_threads() -> int:
    """The pool's size: what `PYX_NUM_THREADS` says, else the cores this process may run on."""
    configured = os.environ.get("PYX_NUM_THREADS", "")
    try:
        n = int(configured)
    except ValueError:
        n = 0
    if n < 1:
        n = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, min(n, 1024))


def set_num_threads(n: int) -> None:
    """Use at most `n` threads (the caller's included) in each parallel loop from now on."""
    global _limit
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"set_num_threads() takes an int, not {type(n).__name__}")
    most = available_threads()
    if not 1 <= n <= most:
        raise ValueError(f"the number of threads must be between 1 and {most} (PYX_NUM_THREADS, else the "
                         f"cores this process may use), not {n}")
    with _lock:
        _limit = n
        for program in _programs:
            _set_limit(program, n)


def get_num_threads() -> int:
    """The threads a parallel loop uses now: `set_num_threads`'s cap, else the whole pool."""
    return _limit or available_threads()
