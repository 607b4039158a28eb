"""The SIGINT handler, its installation and an executable's set-up around the program are pyx code
(stdlib/runtime_signal.px), linked into every host module; the module keeps only its side: the
Ctrl-C state (the target's platform facts, the flag's address, the previous `struct sigaction`)
that the handler finds through `__pyx_sigint_state()`. tests/security/test_runtime_interrupt.py
checks Ctrl-C end to end (`pyx run`, executables, calls from Python); these check what the
installation itself decides."""
from __future__ import annotations

import re
import select
import signal
import subprocess
import sys
import time

from helpers import emitted
from pyx.codegen.runtime_source import MODULE_SIDE, PREFIX
from runtime_helpers import child_env

RT = re.escape(PREFIX)  # the pyx runtime's functions in a module
SIGINT_STATE, LOCALE_STATE = MODULE_SIDE  # the state a module keeps beside them

HELLO = '''
fn main():
    print("hi")
'''


def test_the_handler_is_the_pyx_runtime_s_and_the_module_keeps_only_its_state(tmp_path):
    text = emitted(HELLO, tmp_path, "llvm")
    handler = re.search(rf'^define internal void @"?{RT}runtime_signal\._handler"?\(i32', text, re.MULTILINE)
    assert handler, "no pyx SIGINT handler in the module"
    assert re.search(rf'^define internal [^@]*i32 @"?{RT}runtime_signal\.install"?\(\)', text, re.MULTILINE)
    # The loader's way in stays external; the state's accessor is internal once the runtime is linked.
    assert re.search(r"^define [^@]*i32 @__pyx_sigint_install\(\)", text, re.MULTILINE)
    assert re.search(rf"^define internal [^@]*@{SIGINT_STATE}\(\)", text, re.MULTILINE)
    assert "__pyx_sigint_handler" not in text  # (the generated handler it replaces)


# Two modules in one Python process: the first one's handler is installed once, in front of
# Python's; loading the second must not put it in front of itself (it would then pass every
# SIGINT on to itself, for ever). After the program puts Python's own handler back, loading a
# third module puts pyx's in front again. Each time one SIGINT is one KeyboardInterrupt.
LOOP = '''
fn forever(n: Int) -> Int:
    var x = n
    while x >= 0:
        x += 1
    return x
'''

CALLER = r'''
import signal
import sys
import time
import pyx
a = pyx.import_module("first", path=[sys.argv[1]])
b = pyx.import_module("second", path=[sys.argv[1]])
for round in range(2):
    if round == 1:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        c = pyx.import_module("third", path=[sys.argv[1]])
    print("ready", flush=True)
    time.sleep(0.3)
    try:
        (b if round == 0 else c).forever(1)
    except KeyboardInterrupt:
        print("caught", flush=True)
    sys.stdin.readline()
print("done", flush=True)
'''


def test_installing_again_keeps_one_handler_in_front_of_python_s(tmp_path):
    for name in ("first", "second", "third"):
        (tmp_path / f"{name}.px").write_text(LOOP)
    child = subprocess.Popen([sys.executable, "-c", CALLER, str(tmp_path)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=child_env(tmp_path, PYTHONUNBUFFERED="1"))
    try:
        lines = []
        for _ in range(2):
            ready, _, _ = select.select([child.stdout], [], [], 300)
            assert ready and child.stdout.readline() == "ready\n", child.stderr.read() if child.poll() else ""
            time.sleep(0.6)  # into the call: a SIGINT before it is Python's own
            child.send_signal(signal.SIGINT)
            ready, _, _ = select.select([child.stdout], [], [], 60)
            assert ready, "the call did not stop"
            lines.append(child.stdout.readline())
            child.stdin.write("\n")
            child.stdin.flush()
        out, err = child.communicate(timeout=60)
        assert lines == ["caught\n", "caught\n"] and out == "done\n" and child.returncode == 0, err
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate()


# A program started with SIGINT ignored (a background job of a shell without job control) leaves
# it ignored: the SIGINT does nothing, and the program ends as it would have.
WAITS = '''
fn main() raises:
    print("started")
    var line = input()
    print("done", line)
'''


def test_an_ignored_sigint_stays_ignored(tmp_path):
    (tmp_path / "prog.px").write_text(WAITS)
    child = subprocess.Popen([sys.executable, "-m", "pyx", "run", str(tmp_path / "prog.px")], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=child_env(tmp_path, PYTHONUNBUFFERED="1"),
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    try:
        ready, _, _ = select.select([child.stdout], [], [], 300)
        assert ready and child.stdout.readline() == "started\n", child.stderr.read() if child.poll() else ""
        child.send_signal(signal.SIGINT)
        time.sleep(0.3)
        out, err = child.communicate("x\n", timeout=60)
        assert (child.returncode, out) == (0, "done x\n"), err
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate()


# The rest of what each module carried as generated code and is pyx now: numbers in the "C"
# locale (stdlib/runtime_locale.px, runtime_float.px), the stack limit of recursive code
# (runtime_stack.px) and the check after a print (runtime_output.px). Their behaviour is checked
# end to end by test_runtime_locale.py, test_runtime_recursion.py and test_runtime_pipe.py.
USES_ALL = '''
def depth(n: int) -> int:
    if n == 0:
        return 0
    return depth(n - 1) + 1


def main() -> None:
    x = float("2.5")
    print(x, f"{x:.3f}", depth(3))


if __name__ == "__main__":
    main()
'''


def test_locale_stack_and_output_helpers_are_the_pyx_runtime_s(tmp_path):
    text = emitted(USES_ALL, tmp_path, "llvm")
    for symbol in ("runtime_locale.format_fixed", "runtime_float.format_f64", "runtime_stack.stack_limit",
                   "runtime_output.stdout_check"):
        assert re.search(rf'^define internal [^@]*@"?{RT}{re.escape(symbol)}"?\(', text, re.MULTILINE), symbol
    assert re.search(rf"^define internal [^@]*@{LOCALE_STATE}\(\)", text, re.MULTILINE)
    for generated in ("__pyx_c_locale", "__pyx_strtod.any_locale", "__pyx_stack_limit"):
        assert f"@{generated}(" not in text and f'@"{generated}"(' not in text, generated


STACK_LIMIT = '''
from runtime_stack import stack_limit


fn main():
    var kept = Ptr[Int].alloc(1)
    kept[0] = 0
    var limit = stack_limit(kept, 64)  # (64: sizeof(pthread_attr_t) or more)
    # the stack's low end plus a margin, kept for the next call, which finds it there
    print(limit > 1, kept[0] == limit, stack_limit(kept, 64) == limit)
    kept[0] = 12345
    print(stack_limit(kept, 64))
    kept.free()
'''


def test_stack_limit_is_found_once_and_kept(tmp_path):
    from helpers import run_source

    result = run_source(STACK_LIMIT, tmp_path)
    assert (result.status, result.stdout) == (0, "True True True\n12345\n"), result.stderr
