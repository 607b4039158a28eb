"""Allocation sizes: what tests/golden/memory_alloc_sizes.px cannot show from inside a program.

C lets malloc(0) return NULL (AIX does, and so can a debugging allocator); `Ptr.alloc(0)` must
still be a pointer to no elements rather than a MemoryError. glibc never returns NULL there, so
the program runs with a malloc that does.
"""
import shutil
import subprocess
import textwrap

import pytest

from helpers import run_cli

CC = shutil.which("cc") or shutil.which("gcc")

ZERO_SIZED = textwrap.dedent('''
    fn main():
        var p = Ptr[Float64].alloc(0)
        print(Bool(p))
        p.free()
        var xs: List[Int] = []
        var ys = List[Int].with_capacity(0)
        for i in range(3):
            xs.append(i)
            ys.append(-i)
        print(xs, ys, List[Int].filled(0, 1))
''')

NULL_FOR_ZERO = textwrap.dedent('''
    #include <stddef.h>
    extern void *__libc_malloc(size_t);
    /* What C allows and glibc does not do: no block at all for a request of 0 bytes. */
    void *malloc(size_t n) { return n == 0 ? NULL : __libc_malloc(n); }
''')


@pytest.mark.skipif(CC is None, reason="needs a C compiler for the malloc stand-in")
def test_allocating_nothing_is_not_a_memory_error_where_malloc_0_is_null(tmp_path):
    (tmp_path / "shim.c").write_text(NULL_FOR_ZERO)
    done = subprocess.run([CC, "-shared", "-fPIC", "-o", str(tmp_path / "shim.so"), str(tmp_path / "shim.c")],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    (tmp_path / "zero.px").write_text(ZERO_SIZED)
    built = run_cli("build", "--emit=exe", str(tmp_path / "zero.px"), "-o", str(tmp_path / "zero"))
    assert built.status == 0, built.stderr
    for preload in ("", str(tmp_path / "shim.so")):
        ran = subprocess.run([str(tmp_path / "zero")], capture_output=True, text=True,
                             env={"LD_PRELOAD": preload, "PATH": "/usr/bin:/bin"})
        assert (ran.returncode, ran.stderr) == (0, ""), preload
        assert ran.stdout == "True\n[0, 1, 2] [0, -1, -2] []\n", preload
