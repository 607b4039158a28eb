"""Ctrl-C for compiled code in this process.

Compiled loops poll a flag at their back-edges and raise KeyboardInterrupt when it is set
(`interrupt_poll` in the code generator). Each module reads the flag through its pointer
`__pyx_interrupt_flag`; every module loaded here is pointed at one flag of the process, and
the SIGINT handler of one of them, installed in front of Python's own, sets it and then calls
Python's handler, so Python sees the signal as well (the bridge runs Python's handler when a
call ends in KeyboardInterrupt: see bridge._interrupted).

The installed handler is code of the module that installed it, which is therefore kept alive
for the rest of the process. A later `signal.signal(SIGINT, ...)` replaces it; the next module
loaded puts it back in front.
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
