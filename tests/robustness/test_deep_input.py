"""Input nested deeper than pyx allows is E0003, whatever builds the depth; input just inside
the limit compiles, however deep the caller already is; and compiling leaves the host's
recursion limit alone."""
import subprocess
import sys
import textwrap

import pytest

from helpers import run_cli

N = 10_000  # ten times the limit (syntax.validate.MAX_NESTING)


def elif_chain(n: int, comptime: bool = False) -> str:
    if comptime:
        text = "fn main():\n    comptime if 0 == 5:\n        print(0)\n"
        text += "".join(f"    elif {i} == 5:\n        print({i})\n" for i in range(1, n))
        return text + "    else:\n        print(-1)\n"
    text = "fn main():\n    var x = 5\n    if x == 0:\n        print(0)\n"
    text += "".join(f"    elif x == {i}:\n        print({i})\n" for i in range(1, n))
    return text + "    else:\n        print(-1)\n"


DEEP = {
    "unary_minus": "fn main():\n    var x = " + "- " * N + "1\n    print(x)\n",
    "not": "fn main():\n    var y = True\n    var x = " + "not " * N + "y\n    print(x)\n",
    "power": "fn main():\n    var x = " + "2 ** " * N + "2\n    print(x)\n",
    "attributes": "fn main():\n    var a = 1\n    var x = a" + ".b" * N + "\n    print(x)\n",
    "calls": "fn f() -> Int:\n    return 1\n\n\nfn main():\n    var x = f" + "()" * N + "\n    print(x)\n",
    "sum": "fn main():\n    print(" + " + ".join(["1"] * N) + ")\n",
    "elif_chain": elif_chain(N),
    "comptime_elif_chain": elif_chain(N, comptime=True),
}


@pytest.mark.parametrize("shape,command", [(shape, "check") for shape in sorted(DEEP)]
                         + [("unary_minus", "run"), ("elif_chain", "run")])
def test_too_deep_is_a_diagnostic(shape, command, tmp_path):
    """Each once ended in RecursionError (exit 101): the parser found the E0003, and the checker
    went on with the tree anyway."""
    path = tmp_path / f"{shape}.px"
    path.write_text(DEEP[shape])
    result = run_cli(command, "--color=never", str(path))
    assert result.status == 1, result.stderr
    assert "error[E0003]: expression or block nested too deeply (more than 1000 levels)" in result.stderr
    assert "internal compiler error" not in result.stderr and "RecursionError" not in result.stderr


@pytest.mark.parametrize("comptime", [False, True])
def test_a_long_elif_chain_says_how_long_it_is(tmp_path, comptime):
    path = tmp_path / "chain.px"
    path.write_text(elif_chain(N, comptime))
    result = run_cli("check", "--color=never", str(path))
    line = 2000 if comptime else 2001  # the `elif` that passes the limit (the plain chain has a `var` first)
    assert f"{path}:{line}:5: error[E0003]" in result.stderr
    assert "each `elif` is nested inside the `if` before it, and this chain has 9999 of them" in result.stderr


ALLOWED = {  # each about 990 levels deep: the most the limit lets through
    "unary_minus": "fn main():\n    var x = 1\n    print(" + "-" * 990 + "x)\n",
    "nested_calls": "fn f(x: Int) -> Int:\n    return x + 1\n\n\nfn main():\n    print(" + "f(" * 990 + "0"
                    + ")" * 990 + ")\n",
    "nested_ifs": "fn main():\n    var x = 0\n" + "".join("    " * (k + 1) + "if x == 0:\n" for k in range(330))
                  + "    " * 331 + "print(x)\n",
    "elif_chain": elif_chain(990),
    "comptime_elif_chain": elif_chain(990, comptime=True),
}
EXPECTED = {"unary_minus": "1\n", "nested_calls": "990\n", "nested_ifs": "0\n", "elif_chain": "5\n",
            "comptime_elif_chain": "5\n"}


def _recurse(depth: int, then):
    return then() if depth == 0 else _recurse(depth - 1, then)


@pytest.mark.parametrize("shape", sorted(ALLOWED))
def test_deep_but_allowed_programs_compile_in_a_caller_near_its_recursion_limit(shape, tmp_path):
    """Compiling runs on a stack of its own: a caller 100 frames short of Python's limit can
    still compile and run a program nested 990 levels deep (its passes need thousands)."""
    path = tmp_path / f"{shape}.px"
    path.write_text(ALLOWED[shape])
    (tmp_path / "warm.px").write_text("fn main():\n    print(1)\n")
    for command in (("run",), ("build", "--emit=ast")):  # first imports happen here, at the top
        assert run_cli(*command, str(tmp_path / "warm.px")).status == 0
    room = sys.getrecursionlimit() - len(_frames()) - 200  # what the driver itself needs, no more
    result = _recurse(room, lambda: run_cli("run", str(path)))
    assert (result.status, result.stdout) == (0, EXPECTED[shape]), result.stderr
    ast = _recurse(room, lambda: run_cli("build", "--emit=ast", str(path)))
    assert ast.status == 0 and ast.stdout.startswith("Module(name="), ast.stderr


def _frames() -> list:
    frame, frames = sys._getframe(), []
    while frame is not None:
        frames.append(frame)
        frame = frame.f_back
    return frames


def test_using_pyx_leaves_the_hosts_recursion_limit_and_stack_size_alone():
    """Importing pyx once raised the process's recursion limit to 20000 for good."""
    program = "fn main():\n    var x = 1\n    print(" + "-(" * 600 + "x" + ")" * 600 + ")\n"
    script = textwrap.dedent(f"""
        import sys, threading
        limit, stack = sys.getrecursionlimit(), threading.stack_size()
        import pyx
        from pyx import pipeline
        from pyx.source import SourceFile
        from pyx.analysis import analyze
        assert sys.getrecursionlimit() == limit, ("import", sys.getrecursionlimit())
        pipeline.optimize(SourceFile("deep.px", {program!r}))
        assert not analyze({program!r}, "deep.px").diagnostics
        assert (sys.getrecursionlimit(), threading.stack_size()) == (limit, stack), sys.getrecursionlimit()
        print("unchanged", limit)
    """)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("unchanged")
