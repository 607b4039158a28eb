"""Mojo's closure loops compile to the loops they stand for (semantics/closure_loops.py):
`parallelize[body](n)` with a nested `@parameter fn` is the same code as the `prange` loop
written by hand, and `vectorize[body, W](n)` the same as `for i, w in vectorize[W](n)`."""
import re
import textwrap
from pathlib import Path

from helpers import run_cli

# Each pair puts the loop statement on the same line (the line is part of the code: where the loop
# is, for a traceback), and the body's statements before or after it.
PARALLELIZE = textwrap.dedent('''\
    from algorithm import parallelize


    fn fill(out: Ptr[Float64], n: Int, k: Float64):
        @parameter
        fn body(i: Int):
            out[i] = Float64(i) * k + 1.0
        parallelize[body](n)
''')
PRANGE = textwrap.dedent('''\
    # the same loop, written as a prange




    fn fill(out: Ptr[Float64], n: Int, k: Float64):

        for i in prange(n):
            out[i] = Float64(i) * k + 1.0
''')
VECTORIZE = textwrap.dedent('''\
    from algorithm import vectorize


    fn scale(x: Ptr[Float32], n: Int, k: Float32):
        @parameter
        fn body[w: Int](i: Int):
            x.store(i, x.load[w](i) * k)
        vectorize[body, 8](n)
''')
VECTORIZE_LOOP = textwrap.dedent('''\
    # the same loop, written as a vectorize loop




    fn scale(x: Ptr[Float32], n: Int, k: Float32):

        for i, w in vectorize[8](n):
            x.store(i, x.load[w](i) * k)
''')


def _emit(tmp_path: Path, where: str, text: str, stage: str) -> str:
    src = tmp_path / where / "m.px"
    src.parent.mkdir()
    src.write_text(text)
    result = run_cli("build", f"--emit={stage}", str(src))
    assert result.status == 0, result.stderr
    # The body's own names are renamed apart from the frame's (`i@body:6`); the file's path differs.
    return re.sub(r"@body:\d+", "", result.stdout).replace(str(src), "m.px")


def test_parallelize_is_the_prange_loop(tmp_path: Path):
    for stage in ("ir", "asm"):
        closure = _emit(tmp_path, f"{stage}_1", PARALLELIZE, stage)
        loop = _emit(tmp_path, f"{stage}_2", PRANGE, stage)
        assert "parallel_for @m.fill.prange1" in closure or stage == "asm"
        assert closure == loop


def test_vectorize_is_the_vectorize_loop(tmp_path: Path):
    for stage in ("ir", "asm"):
        closure = _emit(tmp_path, f"{stage}_1", VECTORIZE, stage)
        loop = _emit(tmp_path, f"{stage}_2", VECTORIZE_LOOP, stage)
        assert closure == loop
