"""Compile-time work is bounded: nested `comptime for` loops and generic functions that
instantiate one another end in a diagnostic naming the limit, not in minutes of compiling."""
from helpers import run_cli


def check(tmp_path, text: str):
    path = tmp_path / "prog.px"
    path.write_text(text)
    return run_cli("check", "--color=never", str(path)), path


def test_nested_comptime_for_past_the_unroll_budget_is_e0174(tmp_path):
    """1000 x 1000 copies: each loop is within the 4096 a loop may unroll, together a million."""
    result, path = check(tmp_path, "fn main():\n    var s = 0\n    comptime for i in range(1000):\n"
                                   "        comptime for j in range(1000):\n            s += i * j\n    print(s)\n")
    assert result.status == 1
    assert result.stderr.startswith(f"{path}:4:27: error[E0174]: `comptime for` unrolls too much: the loops of a "
                                    "program may make 4096 copies of their bodies in all, holding 65536 syntax "
                                    "nodes"), result.stderr
    assert result.stderr.count("error[E0174]") == 1


def test_nested_loops_of_few_nodes_are_bounded_by_copies(tmp_path):
    """100 x 100 copies of a short statement: few nodes, but 10000 list allocations in one
    function took LLVM over a minute."""
    result, path = check(tmp_path, "fn main():\n    comptime for i in range(100):\n"
                                   "        comptime for j in range(100):\n            var xs: List[Int] = []\n")
    assert result.status == 1
    assert result.stderr.startswith(f"{path}:3:27: error[E0174]"), result.stderr


def test_one_comptime_for_of_4096_copies_still_unrolls(tmp_path):
    path = tmp_path / "prog.px"
    path.write_text("fn main():\n    var s = 0\n    comptime for i in range(4096):\n        s += i\n    print(s)\n")
    result = run_cli("run", str(path))
    assert (result.status, result.stdout) == (0, f"{sum(range(4096))}\n"), result.stderr


def test_generic_functions_instantiating_each_other_stop_at_e0227(tmp_path):
    """64 functions, each calling two others one level down: about 9000 instances, each within
    the 256 one declaration may have."""
    text = "".join(f"fn g{k}[N: Int]() -> Int:\n    comptime if N > 0:\n"
                   f"        return g{(k + 1) % 64}[N - 1]() + g{(k + 7) % 64}[N - 1]()\n"
                   f"    else:\n        return 0\n\n\n" for k in range(64))
    result, _ = check(tmp_path, text + "fn main():\n    print(g0[300]())\n")
    assert result.status == 1
    assert "error[E0227]: too many function instances: a program may have 8192 in all" in result.stderr
    assert result.stderr.count("error[E0227]") == 1


def test_the_per_declaration_limit_counts_declarations_not_names(tmp_path):
    """300 structs each have their own `__init__`: one instance each, not 300 of one `def __init__`."""
    text = "".join(f"@fieldwise_init\nstruct S{i}:\n    var a: Int\n\n\n" for i in range(300))
    path = tmp_path / "prog.px"
    path.write_text(text + "fn main():\n    print(S0(1).a + S299(2).a)\n")
    result = run_cli("run", str(path))
    assert (result.status, result.stdout) == (0, "3\n"), result.stderr
