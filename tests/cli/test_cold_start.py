"""A program's first compile into an empty cache folder does not compile the compiler's own parts
again: the pyx runtime's units (codegen/runtime_source.py) depend on the compiler alone and are
kept in the user cache directory, shared by every project and every PYX_CACHE_DIR. (They were
kept in the program's cache folder: each empty one paid about 170 ms of CPU for `core` before
the program's first line ran, a third of a cold `pyx run` of a small program.)"""
import ast
import os
import subprocess
import sys

HELLO = 'fn main():\n    print("hello", 42)\n'


def run(tmp_path, cache: str, **extra: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYX_CACHE_DIR": str(tmp_path / cache), "XDG_CACHE_HOME": str(tmp_path / "xdg"), **extra}
    return subprocess.run([sys.executable, "-m", "pyx", "run", str(tmp_path / "hello.px")], env=env,
                          capture_output=True, text=True)


def units(tmp_path) -> list[str]:
    return sorted(p.name.split(".")[1] for p in (tmp_path / "xdg" / "pyx").glob("pyx_runtime.*.pyxrt"))


def test_an_empty_cache_folder_reuses_the_runtime_units_another_one_made(tmp_path):
    (tmp_path / "hello.px").write_text(HELLO)
    first = run(tmp_path, "one")
    assert (first.returncode, first.stdout) == (0, "hello 42\n"), first.stderr
    assert units(tmp_path) == ["core"]
    second = run(tmp_path, "two")  # a fresh, empty cache folder: the program is compiled again...
    assert (second.returncode, second.stdout) == (0, "hello 42\n"), second.stderr
    assert len(list((tmp_path / "two").glob("hello.*.pyxc"))) == 1
    # ...but not the runtime: its stdlib files (runtime_print.px, ...) were not even parsed for it.
    assert not list((tmp_path / "two").glob("runtime_*.pyxast"))
    assert units(tmp_path) == ["core"]


def test_a_unit_made_without_the_ir_verifier_is_not_one_the_verifier_checked(tmp_path):
    """The tests run the IR verifier over everything they compile (PYX_VERIFY=1, tests/conftest.py);
    a unit a plain run made must not spare them that, so whether it was verified is part of its key."""
    (tmp_path / "hello.px").write_text(HELLO)
    plain = run(tmp_path, "one", PYX_VERIFY="0")
    assert (plain.returncode, plain.stdout) == (0, "hello 42\n"), plain.stderr
    verified = run(tmp_path, "two", PYX_VERIFY="1")
    assert (verified.returncode, verified.stdout) == (0, "hello 42\n"), verified.stderr
    assert units(tmp_path) == ["core", "core"]


# The compiler's parts for what a plain CPU program does not use: other targets' code generation
# (SPIR-V, PTX, GPU-on-CPU, threads, the CPython entry points), the language server, the
# highlighter, numpy, and difflib (the "did you mean" of a misspelled name). Each is imported where
# its feature is compiled (issue 15: every module a compile imports is paid for by every cold start).
NOT_FOR_A_CPU_RUN = ("pyx.codegen.spirv_emit", "pyx.codegen.spirv_vectors", "pyx.codegen.spirv",
                     "pyx.codegen.gpu_ops", "pyx.codegen.warp_ops", "pyx.codegen.gpu_cpu",
                     "pyx.codegen.libdevice", "pyx.codegen.pyentry", "pyx.codegen.exports",
                     "pyx.codegen.kernel_raised", "pyx.codegen.parallel", "pyx.codegen.thread_loops",
                     "pyx.lsp", "pyx.pygments_lexer", "pygments", "numpy", "difflib")


def imported_by_a_cold_run(tmp_path) -> set[str]:
    (tmp_path / "hello.px").write_text(HELLO)
    code = ("import sys, runpy; sys.argv = ['pyx', 'run', sys.argv[1]]\n"
            "try:\n    runpy.run_module('pyx', run_name='__main__')\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.startswith('pyx.') or m in ('pygments', 'numpy', 'difflib')))")
    env = {**os.environ, "PYX_CACHE_DIR": str(tmp_path / "one"), "XDG_CACHE_HOME": str(tmp_path / "xdg")}
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path / "hello.px")], env=env, capture_output=True,
                          text=True)
    lines = done.stdout.splitlines()
    assert (done.returncode, lines[0]) == (0, "hello 42"), done.stderr
    imported = set(ast.literal_eval(lines[-1]))
    assert "pyx.codegen.llvm_gen" in imported  # it compiled
    return imported


def test_a_plain_cpu_run_does_not_import_the_compiler_s_parts_it_does_not_use(tmp_path):
    assert sorted(imported_by_a_cold_run(tmp_path) & set(NOT_FOR_A_CPU_RUN)) == []


# The passes of constructs a program (hello here, and the stdlib code it uses) does not contain: the
# syntax expanders of `match`, `enum`, `@dataclass`, `@functools.cache` and `@autotune`
# (syntax/build_ast.py `file_input` runs each only where its import or decorator is), and the
# checker's collaborators for `raise`/`try` and `prange` (semantics/check.py builds them on first use),
# and the pass that turns kernels with barriers into loops (ir/passes.py `split_kernels`).
NOT_FOR_HELLO = ("pyx.syntax.match_stmt", "pyx.syntax.enums", "pyx.syntax.dataclass_methods", "pyx.syntax.memoize",
                 "pyx.syntax.autotune", "pyx.semantics.raising", "pyx.semantics.parallel", "pyx.ir.gpu_regions")


def test_a_cold_run_imports_no_pass_of_a_construct_the_program_does_not_contain(tmp_path):
    assert sorted(imported_by_a_cold_run(tmp_path) & set(NOT_FOR_HELLO)) == []


# A second cold compile (an empty PYX_CACHE_DIR, the user cache directory kept) parses the program
# and nothing else: the stdlib files the compiler reads for itself (prelude.px's names,
# runtime_exc.px's layout) are remembered per compiler in the user cache directory
# (`cache.remembered`), and the lexer's regular expressions come compiled with the parser's tables
# (syntax/parser.py `_Regexes`). Each was a first parse or a regex compile of 5 to 20 ms of CPU.
COUNT_PARSES = """
import re._compiler, runpy, sys
compiled, real_compile = [], re._compiler.compile
def counting_compile(p, flags=0):
    compiled.append(p)
    return real_compile(p, flags)
re._compiler.compile = counting_compile
from pyx.syntax import parser
parsed, real_parse = [], parser.parse
def counting_parse(source, *args, **kwargs):
    parsed.append(source.name)
    return real_parse(source, *args, **kwargs)
parser.parse = counting_parse  # what the compiler's own reads call (the program's goes through syntax.parse)
sys.argv = ["pyx", "run", sys.argv[1]]
try:
    runpy.run_module("pyx", run_name="__main__")
except SystemExit:
    pass
print(parsed)
print(len([p for p in compiled if isinstance(p, str) and p.startswith("(?P<")]))  # a lexer's scanner
"""


def test_a_second_cold_compile_parses_only_the_program(tmp_path):
    (tmp_path / "hello.px").write_text(HELLO)
    for cache in ("one", "two"):
        env = {**os.environ, "PYX_CACHE_DIR": str(tmp_path / cache), "XDG_CACHE_HOME": str(tmp_path / "xdg")}
        done = subprocess.run([sys.executable, "-c", COUNT_PARSES, str(tmp_path / "hello.px")], env=env,
                              capture_output=True, text=True)
        lines = done.stdout.splitlines()
        assert (done.returncode, lines[0]) == (0, "hello 42"), done.stderr
    assert ast.literal_eval(lines[1]) == []  # no stdlib file parsed for the compiler itself
    assert lines[2] == "0"  # no lexer scanner compiled by `re`
