"""The runtime written in pyx (lang/codegen/runtime_source.py): Python's float repr is the pyx code
of stdlib/float_repr.px, compiled by pyx once, kept as LLVM IR and linked into the modules that
print floats; the C functions it calls are declared in stdlib/libc.px, and a variadic one is
called as C calls it. (tests/codegen/test_float_repr.py checks the text against CPython on random
and exhaustive inputs.)"""
from __future__ import annotations

import os
import subprocess
import sys

from helpers import run_source
from pyx.codegen import runtime_source as rs
from pyx.codegen.llvm_gen import llvm_type
from pyx.codegen.target import host_target
from pyx.options import CompileOptions
from pyx.pipeline import codegen, lower, optimize
from pyx.source import SourceFile

PRINTS_FLOATS = """\
fn main():
    print(0.1, Float32(0.1), Float16(0.1), BFloat16(0.1), 1e16, -0.0, 5e-324)
"""
PRINTED = "0.1 0.1 0.1 0.1 1e+16 -0.0 5e-324\n"


def test_each_helper_s_c_signature_is_its_pyx_function_s():
    functions = rs.runtime_functions()
    for name, (symbol, result, params) in rs.SOURCE_HELPERS.items():
        f = functions[rs.PREFIX + symbol]
        assert not f.raises, name
        assert llvm_type(f.return_type, False) == result, name
        assert tuple(llvm_type(p.type, False) for p in f.params) == params, name


def test_a_module_declares_the_pyx_runtime_and_the_llvm_pass_links_it_in(tmp_path):
    source = SourceFile(str(tmp_path / "floats.px"), PRINTS_FLOATS)
    text = codegen(source, CompileOptions()).llvm_ir
    assert f'declare i64 @"{rs.PREFIX}runtime_float.format_f64"(double' in text  # no code of its own for it
    linked = str(optimize(source, CompileOptions()).llvm_module)
    assert "define internal" in linked
    assert f"{rs.PREFIX}float_repr." in linked and f"{rs.PREFIX}runtime_float." in linked
    assert f'declare i64 @"{rs.PREFIX}' not in linked


def test_floats_print_as_python_through_the_pyx_runtime(tmp_path):
    result = run_source(PRINTS_FLOATS, tmp_path)
    assert (result.status, result.stdout) == (0, PRINTED), result.stderr


def test_a_program_may_use_float_repr_itself_beside_the_runtime_s_copy(tmp_path):
    result = run_source(
        "from float_repr import repr_f64\n\n\n"
        "fn main():\n"
        "    var out = Ptr[UInt8].alloc(40)\n"
        "    var n = repr_f64(2.5e-7, out)\n"
        "    _ = external_call[\"puts\", Int32](out)\n"
        "    print(n, 1.25)\n"
        "    out.free()\n", tmp_path)
    assert (result.status, result.stdout) == (0, "2.5e-07\n7 1.25\n"), result.stderr


def test_a_variadic_c_function_gets_c_s_promotions(tmp_path):
    """A Float32 reaches printf's `%f` as a double and an Int8 `%d` as an int, and the call sets
    what a variadic call must (before: an internal error, `snprintf` having been declared)."""
    result = run_source(
        "fn main():\n"
        "    var buf = Ptr[UInt8].alloc(64)\n"
        "    var n = external_call[\"snprintf\", Int32](buf, 64, \"%.2f %.1f %d %s\", Float32(1.5), 2.5, Int8(-3),"
        " \"ok\")\n"
        "    _ = external_call[\"puts\", Int32](buf)\n"
        "    print(n)\n"
        "    buf.free()\n", tmp_path)
    assert (result.status, result.stdout) == (0, "1.50 2.5 -3 ok\n14\n"), result.stderr


def test_the_runtime_s_llvm_ir_is_cached_and_a_damaged_entry_is_a_miss(tmp_path):
    (tmp_path / "floats.px").write_text(PRINTS_FLOATS)
    env = {**os.environ, "PYX_CACHE_DIR": str(tmp_path / "cache"), "PYX_NO_CACHE": "1",
           "XDG_CACHE_HOME": str(tmp_path / "xdg")}

    def run():
        return subprocess.run([sys.executable, "-m", "pyx", "run", str(tmp_path / "floats.px")], env=env,
                              capture_output=True, text=True)

    first = run()
    assert (first.returncode, first.stdout) == (0, PRINTED), first.stderr
    # (in the user cache directory: a unit is the compiler's, not the program's)
    [entry] = (tmp_path / "xdg" / "pyx").glob("pyx_runtime.float_repr.*.pyxrt")  # (the separators' print_str: core)
    entry.write_bytes(entry.read_bytes()[:-200] + b"!" * 200)
    again = run()
    assert (again.returncode, again.stdout) == (0, PRINTED), again.stderr


def test_the_generated_runtime_declares_c_functions_as_the_table_does(tmp_path):
    """Every C library function a module's generated runtime declares (a GPU kernel run on the CPU,
    a prange loop, recursion, Ctrl-C, an executable's main, --memcheck) has the signature
    c_library.PROTOTYPES gives it: the declarations are in one place."""
    from pyx.codegen.c_library import PROTOTYPES
    from pyx.codegen.llvm_gen import generate

    programs = {
        "kernel.px": "@kernel\nfn k(p: Ptr[Float32]):\n    p[thread_idx.x] = 1.0\n    barrier()\n\n\n"
                     "fn main():\n    var p = Ptr[Float32].alloc(4)\n    launch k[grid=1, block=4](p)\n"
                     "    print(p[3])\n    p.free()\n",
        "loops.px": "fn depth(n: Int) -> Int:\n    if n == 0:\n        return 0\n    return depth(n - 1) + 1\n\n\n"
                    "fn main():\n    var total = 0\n    for i in prange(100):\n        total += i\n"
                    "    print(total, depth(5), 0.5)\n",
    }
    seen = set()
    for name, text in programs.items():
        source = SourceFile(str(tmp_path / name), text)
        for options in (CompileOptions(), CompileOptions(memcheck=True)):
            module = generate(lower(source, options).ir, host_target(), entry=True, c_main=True)
            for f in module.functions:
                if f.name in PROTOTYPES:
                    seen.add(f.name)
                    assert str(f.function_type) == str(PROTOTYPES[f.name].function_type), f.name
    # (pthread_create is the pyx thread pool's now: stdlib/runtime_pool.px; sigaction the pyx
    # Ctrl-C handler's: stdlib/runtime_signal.px)
    assert {"pthread_mutex_lock", "_setjmp", "longjmp", "makecontext", "snprintf"} <= seen
