"""Ctrl-C for compiled code in this process.

Compiled loops poll a flag at their back-edges and raise KeyboardInterrupt when it is set
(`interrupt_poll` in the code generator). Each module reads the flag through its pointer
`__pyx_interrupt_flag`; every module loaded here is pointed at one flag of the process, and
the SIGINT handler of one of them, installed in front of Python's own, sets it and then calls
Python's handler, so Python sees the signal as well (the bridge runs Python's handler when a
call ends in KeyboardInterrupt: see bridge.interrupted_by_ctrl_c).

The installed handler is code of the module that installed it, which is therefore kept alive
for the rest of the process. A later `signal.signal(SIGINT, ...)` replaces it; the next module
loaded puts it back in front.

A launch on a device target waits for its kernel in `wait`, which asks the runtime and the flag
in turn, so that Ctrl-C stops the wait as it stops a loop.
"""
from __future__ import annotations

import ctypes
import threading

# [0]: a SIGINT is pending; [1]: standalone (a second SIGINT before the first is noticed ends
# the process, see stdlib/runtime_signal.px's handler): set while `pyx run` runs a program. The bridge clears [0]
# inline as each call from Python starts (a SIGINT from before the call is not the call's).
FLAG = (ctypes.c_int32 * 2)()
_lock = threading.Lock()
_installed_by = None  # the program whose handler is installed: its code must outlive the process


def attach(program) -> None:
    """Point a freshly loaded program at the process's flag, and see that a handler is installed.
    `program` is a JitModule, JitObject or SharedProgram (anything with address/global_address)."""
    global _installed_by
    where = program.global_address("__pyx_interrupt_flag")
    if not where:
        return  # compiled before pyx polled for Ctrl-C, or not for the host
    ctypes.c_void_p.from_address(where).value = ctypes.addressof(FLAG)
    with _lock:
        installer = _installed_by if _installed_by is not None else program
        install = installer.address("__pyx_sigint_install")
        if install and ctypes.CFUNCTYPE(ctypes.c_int32)(install)() and _installed_by is None:
            _installed_by = installer


def standalone(on: bool) -> None:
    """`pyx run`: while on, a second SIGINT that arrives before the first was noticed ends the
    process by SIGINT (a program blocked, or recursing without a loop to poll, still stops)."""
    FLAG[1] = 1 if on else 0


def wait(finished) -> bool:
    """Wait for a device's work (a kernel launch): True once `finished()` says it is done, False as
    soon as Ctrl-C is pending: the flag the handler sets, or Python's KeyboardInterrupt raised
    while waiting. The interrupt is then taken (the flag cleared, as a loop's poll takes it), for
    the caller to report once. A runtime's own wait (clFinish, cuCtxSynchronize) waits in C for
    the whole kernel, and a long one ignored Ctrl-C. Asked at least every millisecond: between
    yields of the core for the first 0.3 ms (sleeping at once cost 2,000 short launches about
    0.1 ms each), then between sleeps."""
    import os
    import time

    pause = 0.0
    spin_until = time.perf_counter() + 0.0003  # a short kernel: asking is cheaper than a sleep's wakeup
    try:
        while not finished():
            if FLAG[0]:
                break
            if time.perf_counter() > spin_until:
                pause = min(max(pause * 2, 0.00005), 0.001)
            if pause == 0.0:
                os.sched_yield()  # a CPU device's threads may need this core
            else:
                time.sleep(pause)
        else:
            return True
    except KeyboardInterrupt:
        pass  # Python's handler ran while waiting: the same Ctrl-C
    FLAG[0] = 0
    return False


def launch_interrupted(kernel: str, device: str) -> BaseException:
    """The KeyboardInterrupt a launch from Python raises when Ctrl-C stopped its wait for the
    kernel, naming the kernel (the CPU target's names it as the innermost frame). Python's own
    handler, if it has not run yet, runs now (bridge.interrupted_by_ctrl_c), so that no second
    KeyboardInterrupt follows."""
    from .bridge import interrupted_by_ctrl_c

    exc = KeyboardInterrupt()
    exc.add_note(f"pyx: Ctrl-C while waiting for kernel {kernel} on {device}; the kernel itself cannot be stopped "
                 "and runs on to its end there (its arrays are not copied back)")
    return interrupted_by_ctrl_c(exc)
