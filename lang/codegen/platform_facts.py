"""Platform facts: what the generated runtime must know of the C library it calls into.

The runtime that every host module carries (`runtime_lib.py`, `parallel.py`, `gpu_cpu.py`,
`memcheck.py`, the recursion guard in `llvm_gen.py`) is LLVM IR that calls the C library
directly, with no C compiler in between: `pyx run` works where only llvmlite is installed.
So the sizes, offsets and numbers a C compiler would take from the headers (`sizeof(ucontext_t)`,
`offsetof(struct sigaction, sa_flags)`, `EPIPE`, ...) are written down here, once, per target,
as typed fields of `PlatformFacts`. Each field names the C expression it stands for
(`c=...` in its metadata): `tests/codegen/test_platform_facts.py` compiles exactly those
expressions with the platform's C compiler (and with a cross compiler for each other target
it finds, such as `aarch64-linux-gnu-gcc`) and checks every value.

A host target with no entry here is refused with E0906 (`NoPlatformFacts`, turned into the
diagnostic by the pass manager) instead of running code built from another C library's layouts.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields


def _c(expression: str, header: str):
    """A fact that is the value of a C expression, after `#include <header>`."""
    return field(metadata={"c": expression, "header": header})


@dataclass(frozen=True)
class PlatformFacts:
    """The C library's layouts and numbers on one target, as its headers give them."""

    key: str  # the target, as `arch-os-env` (the vendor of the LLVM triple left out)
    # <ucontext.h>: the GPU-on-CPU scheduler's coroutines (gpu_cpu.py)
    ucontext_bytes: int = _c("sizeof(ucontext_t)", "ucontext.h")
    ucontext_align: int = _c("_Alignof(ucontext_t)", "ucontext.h")
    uc_link_offset: int = _c("offsetof(ucontext_t, uc_link)", "ucontext.h")
    uc_stack_sp_offset: int = _c("offsetof(ucontext_t, uc_stack.ss_sp)", "ucontext.h")
    uc_stack_size_offset: int = _c("offsetof(ucontext_t, uc_stack.ss_size)", "ucontext.h")
    # <setjmp.h>: the recursion guard's jmp_buf (llvm_gen.py, ir/recursion.py)
    jmp_buf_bytes: int = _c("sizeof(jmp_buf)", "setjmp.h")
    jmp_buf_align: int = _c("_Alignof(jmp_buf)", "setjmp.h")
    # <signal.h>: the SIGINT handler and an executable's main (runtime_lib.py)
    sigaction_bytes: int = _c("sizeof(struct sigaction)", "signal.h")
    sa_flags_offset: int = _c("offsetof(struct sigaction, sa_flags)", "signal.h")
    sa_siginfo: int = _c("SA_SIGINFO", "signal.h")
    sa_onstack: int = _c("SA_ONSTACK", "signal.h")
    sa_restart: int = _c("SA_RESTART", "signal.h")
    sig_dfl: int = _c("(long)SIG_DFL", "signal.h")
    sig_ign: int = _c("(long)SIG_IGN", "signal.h")
    sigint: int = _c("SIGINT", "signal.h")
    sigpipe: int = _c("SIGPIPE", "signal.h")
    # <pthread.h>, <sched.h>: the thread pool (parallel.py), --memcheck's table lock, the keys
    pthread_attr_bytes: int = _c("sizeof(pthread_attr_t)", "pthread.h")
    pthread_mutex_bytes: int = _c("sizeof(pthread_mutex_t)", "pthread.h")
    pthread_cond_bytes: int = _c("sizeof(pthread_cond_t)", "pthread.h")
    pthread_key_bytes: int = _c("sizeof(pthread_key_t)", "pthread.h")
    pthread_once_bytes: int = _c("sizeof(pthread_once_t)", "pthread.h")
    pthread_t_bytes: int = _c("sizeof(pthread_t)", "pthread.h")
    cpu_set_bytes: int = _c("sizeof(cpu_set_t)", "sched.h")
    size_t_bytes: int = _c("sizeof(size_t)", "stddef.h")  # c_library.PROTOTYPES declares size_t as i64
    # <errno.h>, <unistd.h>, <locale.h>
    epipe: int = _c("EPIPE", "errno.h")
    sc_nprocessors_onln: int = _c("_SC_NPROCESSORS_ONLN", "unistd.h")
    lc_all_mask: int = _c("LC_ALL_MASK", "locale.h")
    # Symbols the runtime names: C's `stdout` (a FILE * variable) and where errno lives.
    stdout_symbol: str = "stdout"
    errno_location: str = "__errno_location"
    # The stack pointer's name for llvm.read_register (the recursion guard's check).
    stack_pointer_register: str = "rsp"


def probed_fields() -> list[tuple[str, str, str]]:
    """(field, C expression, header) of every fact a C compiler can check."""
    return [(f.name, f.metadata["c"], f.metadata["header"]) for f in fields(PlatformFacts) if "c" in f.metadata]


def _glibc(key: str, **arch) -> PlatformFacts:
    """glibc's values shared by x86-64 and aarch64 Linux, with `arch` the ones that differ."""
    common = dict(uc_link_offset=8, uc_stack_sp_offset=16, uc_stack_size_offset=32, jmp_buf_align=8,
                  sigaction_bytes=152, sa_flags_offset=136, sa_siginfo=4, sa_onstack=0x08000000,
                  sa_restart=0x10000000, sig_dfl=0, sig_ign=1, sigint=2, sigpipe=13, pthread_cond_bytes=48,
                  pthread_key_bytes=4, pthread_once_bytes=4, pthread_t_bytes=8, cpu_set_bytes=128, size_t_bytes=8,
                  epipe=32, sc_nprocessors_onln=84, lc_all_mask=0x1FBF)
    return PlatformFacts(key=key, **{**common, **arch})


# From the headers of glibc 2.36 (Debian 12), checked by tests/codegen/test_platform_facts.py.
FACTS: dict[str, PlatformFacts] = {f.key: f for f in (
    _glibc("x86_64-linux-gnu", ucontext_bytes=968, ucontext_align=8, jmp_buf_bytes=200, pthread_attr_bytes=56,
           pthread_mutex_bytes=40, stack_pointer_register="rsp"),
    # aarch64's mcontext_t reserves 4 KiB for the vector registers, aligned to 16.
    _glibc("aarch64-linux-gnu", ucontext_bytes=4560, ucontext_align=16, jmp_buf_bytes=312, pthread_attr_bytes=64,
           pthread_mutex_bytes=48, stack_pointer_register="sp"),
)}


class NoPlatformFacts(Exception):
    """A host target this module has no facts for (the pass manager reports E0906)."""

    def __init__(self, triple: str):
        super().__init__(triple)
        self.triple = triple


def target_key(triple: str) -> str:
    """`x86_64-unknown-linux-gnu` -> `x86_64-linux-gnu`: the architecture, OS and environment of
    an LLVM triple, without its vendor."""
    parts = triple.split("-")
    if len(parts) >= 4:
        parts = [parts[0], *parts[2:4]]
    elif len(parts) == 3 and parts[1] not in ("linux",):
        parts = [parts[0], parts[2]]  # arch-vendor-os (`x86_64-apple-darwin23.0`): no environment
    return "-".join(parts)


def facts_for_triple(triple: str) -> PlatformFacts:
    found = FACTS.get(target_key(triple))
    if found is None:
        raise NoPlatformFacts(triple)
    return found


def facts_for(target) -> PlatformFacts | None:
    """The facts of a host target (None for a GPU, whose code calls no C library)."""
    return facts_for_triple(target.triple) if target.host else None


def known_targets() -> str:
    return ", ".join(sorted(FACTS))
