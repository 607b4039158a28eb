"""A warm `pyx run` loads the program's shared library without LLVM; whatever is missing or
damaged falls back to the LLVM path, and `pyx cache clear` removes both files."""
import os
import shutil
import subprocess
import sys
import textwrap

import pytest

from helpers import run_cli

PROGRAM = textwrap.dedent('''
    fn main() raises:
        var total = 0
        for i in prange(1000):
            total += i
        print("total", total)
        print(1 // (total - total))
''')

CHECK = textwrap.dedent('''
    import sys
    from pyx.cli import main
    status = main(["run", sys.argv[1]])
    print("llvm:", "llvmlite.binding" in sys.modules, "status:", status)
''')


def run_fresh(path, env):
    done = subprocess.run([sys.executable, "-c", CHECK, str(path)], capture_output=True, text=True, env=env)
    return done.stdout, done.stderr


@pytest.fixture()
def program(tmp_path):
    path = tmp_path / "prog.px"
    path.write_text(PROGRAM)
    env = {**os.environ, "PYX_CACHE_DIR": str(tmp_path / "cache"), "XDG_CACHE_HOME": str(tmp_path / "xdg")}
    env.pop("PYX_NO_CACHE", None)
    return path, env


needs_cc = pytest.mark.skipif(not (shutil.which("cc") or shutil.which("gcc")), reason="no C compiler to link with")


@needs_cc
def test_a_warm_run_needs_no_llvm(program):
    path, env = program
    first_out, first_err = run_fresh(path, env)
    second_out, second_err = run_fresh(path, env)
    assert first_out.startswith("total 499500\n") and "llvm: True" in first_out
    assert second_out.startswith("total 499500\n") and "llvm: False status: 1" in second_out
    assert second_err == first_err and second_err.endswith("ZeroDivisionError: integer division or modulo by zero\n")
    assert list((path.parent / "cache").glob("prog.*.so"))


@needs_cc
def test_a_damaged_library_falls_back_to_llvm(program):
    path, env = program
    run_fresh(path, env)
    library = next((path.parent / "cache").glob("prog.*.so"))
    library.write_bytes(library.read_bytes()[:100])  # truncated: must not be loaded
    out, _ = run_fresh(path, env)
    assert out.startswith("total 499500\n") and "llvm: True status: 1" in out


def test_without_a_c_compiler_runs_through_llvm(program):
    path, env = program
    env = {**env, "CC": "/nonexistent/cc"}
    for _ in range(2):
        out, _ = run_fresh(path, env)
        assert out.startswith("total 499500\n") and "llvm: True status: 1" in out
    assert not list((path.parent / "cache").glob("*.so"))


@needs_cc
def test_cache_clear_removes_the_libraries_too(program, monkeypatch):
    path, env = program
    run_fresh(path, env)
    cache = path.parent / "cache"
    assert list(cache.glob("*.pyxc")) and list(cache.glob("*.so"))
    monkeypatch.setenv("PYX_CACHE_DIR", str(cache))
    monkeypatch.setenv("XDG_CACHE_HOME", str(path.parent / "xdg"))
    result = run_cli("cache", "clear", str(path.parent))
    assert result.status == 0
    assert not list(cache.glob("*.pyxc")) and not list(cache.glob("*.so"))


@needs_cc
def test_a_cached_import_needs_no_llvm(tmp_path):
    (tmp_path / "lib.px").write_text("fn twice(x: Ptr[Float64], n: Int):\n"
                                     "    for i in range(n):\n        x[i] *= 2.0\n")
    script = textwrap.dedent(f'''
        import sys
        import numpy as np
        import pyx
        m = pyx.import_module("lib", path=[{str(tmp_path)!r}])
        x = np.arange(3.0)
        m.twice(x, 3)
        print(x.tolist(), "llvm:", "llvmlite.binding" in sys.modules)
    ''')
    env = {**os.environ, "PYX_CACHE_DIR": str(tmp_path / "cache"), "XDG_CACHE_HOME": str(tmp_path / "xdg")}
    outputs = [subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env).stdout
               for _ in range(2)]
    assert outputs == ["[0.0, 2.0, 4.0] llvm: True\n", "[0.0, 2.0, 4.0] llvm: False\n"]


def test_a_warm_run_loads_no_front_end(program):
    """A cached program runs without importing the parser (lark) or the checker: a warm `pyx run`
    of examples/mandelbrot.px took 131 ms instead of 65 when passing sys.argv imported them."""
    path, env = program
    check = CHECK.replace('print("llvm:"', 'print("front end:", "lark" in sys.modules or "pyx.semantics.check" '
                                           'in sys.modules, "llvm:"')
    outs = [subprocess.run([sys.executable, "-c", check, str(path)], capture_output=True, text=True,
                           env=env).stdout for _ in range(2)]
    assert "front end: True" in outs[0]
    assert "front end: False" in outs[1], outs[1]
