"""The runtime's `print` of ints, Bools and text (stdlib/runtime_print.px) and how a program ends
(stdlib/runtime_exit.px: the uncaught exception's report, SystemExit's status, the flush at exit)
are pyx code, linked into each module by lang/codegen/runtime_source.py. Each is tested here as the
pyx function it is, called with the arguments the generated entry gives it; the goldens, the CLI
tests and tests/test_sys_module.py check the whole programs' output and status."""
from __future__ import annotations

import re

from helpers import run_source
from pyx.codegen import runtime_source as rs
from pyx.options import CompileOptions
from pyx.pipeline import codegen, optimize
from pyx.source import SourceFile

# A fake exception state (stdlib/runtime_exc.px's ExcState, then its frames), the frames pushed
# innermost first, as __pyx_tb_push pushes them.
UNCAUGHT = """\
from runtime_exc import ExcState, FRAMES, frame_functions, frame_files, frame_lines
from runtime_exit import uncaught


fn report(state: Ptr[ExcState], kind: Ptr[UInt8], message: Ptr[UInt8], depth: Int) -> Int32:
    state[0] = ExcState(Ptr[UInt8](), 0, Ptr[UInt8](), kind, message, Ptr[UInt8](), Int32(1), Int32(depth))
    return uncaught(state)


fn main():
    var block = Ptr[UInt8].alloc(8192)
    var state = block.bitcast[ExcState]()
    var functions = frame_functions(state)
    var files = frame_files(state)
    var lines = frame_lines(state)
    for i in range(FRAMES):
        functions[i] = "outer".unsafe_ptr()
        files[i] = "prog.px".unsafe_ptr()
        lines[i] = Int32(10 * (i + 1))
    functions[0] = "inner".unsafe_ptr()
    functions[1] = "middle".unsafe_ptr()
    functions[2] = "main".unsafe_ptr()
    print(report(state, "ValueError".unsafe_ptr(), "bad 3".unsafe_ptr(), 3))
    print(report(state, "KeyError".unsafe_ptr(), "".unsafe_ptr(), FRAMES + 2))
    print(report(state, "KeyboardInterrupt".unsafe_ptr(), "".unsafe_ptr(), 1))
    print(report(state, "_SystemExitCode".unsafe_ptr(), "3".unsafe_ptr(), 1))
    print(report(state, "_SystemExitCode".unsafe_ptr(), "-1".unsafe_ptr(), 1))
    print(report(state, "_SystemExitCode".unsafe_ptr(), "130".unsafe_ptr(), 1))
    print(report(state, "SystemExit".unsafe_ptr(), "".unsafe_ptr(), 1))
    print(report(state, "SystemExit".unsafe_ptr(), "bye".unsafe_ptr(), 1))
    block.free()
"""


def test_uncaught_writes_python_s_report_and_gives_the_exit_status(tmp_path):
    from pyx.codegen.exc_layout import exc_layout

    frames = exc_layout().frames
    result = run_source(UNCAUGHT, tmp_path)
    assert result.status == 0, result.stderr
    # ValueError 1, KeyError 1, KeyboardInterrupt 130 (the entry then ends the process by
    # SIGINT), exit(3) 3, exit(-1) 255 (C's exit keeps the low 8 bits), exit(130) 386 (so it is not
    # taken for a KeyboardInterrupt), SystemExit without a message 0, with one 1.
    assert result.stdout.split() == ["1", "1", "130", "3", "255", "386", "0", "1"]
    kept = "".join(f'  File "prog.px", line {10 * (k + 1)}, in outer\n' for k in reversed(range(3, frames)))
    assert result.stderr == (
        "Traceback (most recent call last):\n"
        '  File "prog.px", line 30, in main\n'  # the outermost frame first, as CPython prints
        '  File "prog.px", line 20, in middle\n'
        '  File "prog.px", line 10, in inner\n'
        "ValueError: bad 3\n"
        "Traceback (most recent call last):\n" + kept +  # depth FRAMES + 2: the FRAMES kept are printed
        '  File "prog.px", line 30, in main\n'
        '  File "prog.px", line 20, in middle\n'
        '  File "prog.px", line 10, in inner\n'
        "KeyError\n"
        "Traceback (most recent call last):\n"
        '  File "prog.px", line 10, in inner\n'
        "KeyboardInterrupt\n"
        "bye\n")


FLUSH = """\
from runtime_exit import flush_at_exit


fn main():
    var fine = external_call["fdopen", Ptr[UInt8]](Int32(1), "w")
    print(flush_at_exit(7, fine, 32))
    var full = external_call["fopen", Ptr[UInt8]]("/dev/full", "w")
    _ = external_call["fputs", Int32]("lost", full)
    print(flush_at_exit(7, full, 32))
"""


def test_flush_at_exit_keeps_the_status_or_says_what_cpython_says_and_gives_120(tmp_path):
    result = run_source(FLUSH, tmp_path)
    assert (result.status, result.stdout.split()) == (0, ["7", "120"]), result.stderr
    assert result.stderr == ("Exception ignored in: <_io.TextIOWrapper name='<stdout>' mode='w' encoding='utf-8'>\n"
                             "BrokenPipeError: [Errno 32] Broken pipe\n")


def test_print_of_ints_bools_and_text_is_the_pyx_runtime_s(tmp_path):
    result = run_source(
        "from runtime_print import print_i64, print_u64, print_bool, print_str\n\n\n"
        "fn main():\n"
        "    print_i64(-9223372036854775807 - 1)\n"
        "    print_str(\" \".unsafe_ptr())\n"
        "    print_u64(UInt64(18446744073709551615))\n"
        "    print_bool(True)\n"
        "    print_bool(False)\n"
        "    print_str(\"|\\n\".unsafe_ptr())\n", tmp_path)
    assert (result.status, result.stdout) == (0, "-9223372036854775808 18446744073709551615TrueFalse|\n"), \
        result.stderr


RAISES = """\
def main():
    print("n", 1, True)
    raise ValueError("bad")
"""


def test_a_module_declares_print_and_exit_helpers_and_the_llvm_pass_links_them_in(tmp_path):
    source = SourceFile(str(tmp_path / "raises.px"), RAISES)
    text = codegen(source, CompileOptions()).llvm_ir
    for name in ("print_i64", "print_bool", "print_str", "uncaught", "flush_at_exit"):
        assert f'@"{rs.PREFIX}{rs.SOURCE_HELPERS[name][0]}"(' in text, name
        assert f"@__pyx_{name}(" not in text, name  # no generated copy of its own
    linked = str(optimize(source, CompileOptions()).llvm_module)
    assert not [line for line in linked.splitlines() if line.startswith("declare") and rs.PREFIX in line]
    # The print helpers are inlined and folded as the generated ones were (the separator is a
    # putchar); the report of an uncaught exception stays one call, kept as it was optimized.
    assert "call i32 @putchar(i32 32)" in linked
    assert re.search(rf"call .*i32 @\"?{re.escape(rs.PREFIX)}runtime_exit\.uncaught\"?\(", linked)


def test_an_uncaught_exception_prints_the_innermost_64_frames(tmp_path):
    result = run_source(
        "def down(n: int) -> int:\n"
        "    if n == 0:\n"
        "        raise ValueError(\"deep\")\n"
        "    return down(n - 1) + 1\n\n\n"
        "def main():\n"
        "    print(down(100))\n", tmp_path)
    assert (result.status, result.stdout) == (1, "")
    file = tmp_path / "prog.px"
    assert result.stderr.splitlines() == ["Traceback (most recent call last):",
                                          *[f'  File "{file}", line 4, in down'] * 63,
                                          f'  File "{file}", line 3, in down', "ValueError: deep"]


def test_a_c_function_s_name_in_external_call_loads_no_string_library(tmp_path):
    """`external_call["puts", Int32]` names a C function: no str is made, so the stdlib's String
    (and what it imports) is not loaded for it. The runtime's `core` unit calls C this way; loading
    String made compiling it, with an empty cache, cost about 0.9 s instead of about 50 ms."""
    from pyx.pipeline import check

    calls_c = check(SourceFile(str(tmp_path / "c.px"), 'fn main():\n    _ = external_call["puts", Int32]("hi")\n'))
    assert calls_c.program.dependencies == []
    keys_by_str = check(SourceFile(str(tmp_path / "d.px"), 'def main():\n    d = {"k": 1}\n    d["k"] = 2\n'))
    assert any(path.endswith("/string.px") for path, _ in keys_by_str.program.dependencies)
