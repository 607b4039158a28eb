"""Host code that talks to C as C does (lang/semantics/c_functions.py): atomics with C11's
orderings, an `fn`'s address given to C, a call through a C function pointer; and the thread pool
written with them (stdlib/runtime_pool.px). The checker's refusals are in
tests/diagnostics/c_interface.px; here, what runs, and what only code generation can refuse."""
from __future__ import annotations

import re
from pathlib import Path

from helpers import build_source, run_source

THREADS = """\
fn count_up(arg: Ptr[UInt8]) -> Ptr[UInt8]:
    # A thread's start routine: its own loop polls no Ctrl-C flag, so it cannot raise.
    var counter = arg.bitcast[Int]()
    for _ in range(100000):
        _ = atomic_fetch_add(counter, 1)
    return Ptr[UInt8]()


fn by_value(a: Ptr[UInt8], b: Ptr[UInt8]) -> Int32:
    var x = a.bitcast[Int]()[0]
    var y = b.bitcast[Int]()[0]
    if x < y:
        return -1
    if x > y:
        return 1
    return 0


fn main():
    var counter = Ptr[Int].alloc(1)
    atomic_store(counter, 0)
    var tids = Ptr[UInt64].alloc(4)
    for k in range(4):
        _ = external_call["pthread_create", Int32](tids + k, Ptr[UInt8](), count_up, counter.bitcast[UInt8]())
    for k in range(4):
        _ = external_call["pthread_join", Int32](tids[k], Ptr[Ptr[UInt8]]())
    print(atomic_load(counter, ordering="acquire"))
    print(atomic_compare_exchange(counter, 400000, 7), atomic_load(counter))
    print(atomic_compare_exchange(counter, 400000, 9, ordering="acq_rel"), atomic_load(counter, ordering="relaxed"))
    print(atomic_exchange(counter, 3), atomic_fetch_sub(counter, 1, ordering="release"), atomic_load(counter))
    var slot = Ptr[Ptr[UInt8]].alloc(1)
    atomic_store(slot, counter.bitcast[UInt8]())
    var was = atomic_exchange(slot, Ptr[UInt8]())
    print(was == counter.bitcast[UInt8](), bool(atomic_load(slot)))
    var xs = Ptr[Int].alloc(5)
    for i in range(5):
        xs[i] = (i * 7) % 5
    external_call["qsort", None](xs.bitcast[UInt8](), 5, 8, by_value)
    print(xs[0], xs[1], xs[2], xs[3], xs[4])
    var c_abs = external_call["dlsym", Ptr[UInt8]](Ptr[UInt8](), "labs")
    print(external_call[c_abs, Int](-42))
    xs.free()
    slot.free()
    counter.free()
    tids.free()
"""


def test_threads_atomics_and_c_function_pointers_run_as_c_would(tmp_path: Path):
    result = run_source(THREADS, tmp_path)
    assert result.status == 0, result.stderr
    assert result.stdout == "400000\nTrue 7\nFalse 7\n7 3 2\nTrue False\n0 1 2 3 4\n42\n"


def test_a_function_that_may_raise_is_refused_as_a_c_function_pointer(tmp_path: Path):
    # Known only once compiled: a division's zero check, a recursion's RecursionError, the Ctrl-C
    # check of a loop in a function it calls (its own loops have none).
    for body in ("    return Ptr[UInt8]() + 100 // Int(arg[0])\n",
                 "    if arg:\n        return deep(arg)\n    return arg\n",
                 "    return arg + looping(3)\n"):
        text = ("fn looping(n: Int) -> Int:\n    var s = 0\n    for i in range(n):\n        s += i\n    return s\n\n\n"
                "fn deep(arg: Ptr[UInt8]) -> Ptr[UInt8]:\n" + body + "\n\nfn main():\n"
                "    var t = Ptr[UInt64].alloc(1)\n"
                "    _ = external_call[\"pthread_create\", Int32](t, Ptr[UInt8](), deep, Ptr[UInt8]())\n")
        result = run_source(text, tmp_path)
        assert result.status == 1
        assert "error[E0194]: `deep` as a C function pointer: it may raise" in result.stderr
        assert "Traceback" not in result.stderr


def test_host_atomics_are_refused_on_a_gpu_target(tmp_path: Path):
    result = build_source("@kernel\nfn k(p: Ptr[Int]):\n    _ = atomic_fetch_add(p, 1)\n\n\n"
                          "fn main():\n    var p = Ptr[Int].alloc(1)\n    launch k[grid=1, block=1](p)\n    p.free()\n",
                          tmp_path, "ptx")
    assert result.status == 1
    assert "error[E0226]" in result.stderr and "atomic_fetch_add" in result.stderr


def test_the_thread_pool_is_pyx_and_its_state_is_laid_out_as_runtime_pool_says():
    """The pool's code is stdlib/runtime_pool.px; the state the generated code allocates for it
    is as large as the pyx side's last slot says, and its first words are the facts it reads."""
    from pyx.codegen import parallel
    from pyx.codegen import runtime_source as rs
    from pyx.semantics.imports import STDLIB

    text = (STDLIB / "runtime_pool.px").read_text()
    slots = {name: int(value) for name, value in re.findall(r"^comptime (_[A-Z_]+) = (\d+)", text, re.M)}
    assert slots["_WORDS"] == parallel.STATE_WORDS
    assert [slots["_CPU_SET_BYTES"], slots["_SC_NPROCESSORS_ONLN"]] == [0, 1]
    assert parallel.FACT_WORDS == ("cpu_set_bytes", "sc_nprocessors_onln")
    assert (slots["_DONE"] + 8) * 8 <= parallel.STATE_WORDS * 8  # three 64-byte areas fit
    assert parallel.SYNC_BYTES == 64
    functions = rs.runtime_functions("pool")
    assert {rs.PREFIX + "runtime_pool." + n for n in ("core", "threads", "set_limit", "shutdown", "_worker")} \
        <= set(functions)
