""".px modules importing .px modules: where names resolve, errors in the imported file, the caches.

The golden tests/golden/modules.px covers a working program (private helpers, a cycle, generic
defs); these cover what needs several files written per case.
"""
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from helpers import run_cli, run_pyx


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))


def test_an_error_in_an_imported_module_points_into_that_file(tmp_path):
    write(tmp_path, {
        "main.px": """
            from lib.shapes import area

            fn main():
                print(area(2.0))
            """,
        "lib/shapes.px": """
            fn area(r: Float64) -> Float64:
                var x: Int = r
                return x * 3.14
            """,
    })
    result = run_cli("check", "--color=never", str(tmp_path / "main.px"))
    assert result.status == 1
    assert f"{tmp_path / 'lib' / 'shapes.px'}:3:18: error[E0201]" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_syntax_error_in_an_imported_module_points_into_that_file(tmp_path):
    write(tmp_path, {"main.px": "from broken import f\n\nfn main():\n    f()\n",
                     "broken.px": "fn f(:\n    pass\n"})
    result = run_cli("check", "--color=never", str(tmp_path / "main.px"))
    assert result.status == 1 and f"{tmp_path / 'broken.px'}:1:" in result.stderr


def test_import_errors_are_diagnostics(tmp_path):
    write(tmp_path, {
        "main.px": """
            from geometry import dot, cross
            from nowhere import thing
            import geometry

            fn dot() -> Int:
                return 0

            fn main():
                pass
            """,
        "geometry.px": "def dot(a, b):\n    return a * b\n",
    })
    result = run_cli("check", "--color=never", str(tmp_path / "main.px"))
    assert result.status == 1
    codes = sorted(line.split("error[")[1][:5] for line in result.stderr.splitlines() if "error[" in line)
    assert codes == ["E0102", "E0129", "E0130"], result.stderr
    assert "no `nowhere.px` beside this file" in result.stderr


def test_a_module_name_that_cannot_be_a_file_is_not_found(tmp_path):
    write(tmp_path, {"main.px": f"from {'a' * 300} import x\n\nfn main():\n    pass\n"})
    result = run_cli("check", "--color=never", str(tmp_path / "main.px"))
    assert result.status == 1 and "main.px:1:1: error[E0129]" in result.stderr
    assert "internal compiler error" not in result.stderr


def test_same_names_in_different_modules_stay_apart(tmp_path):
    """Two structs called Vec, two functions called helper, and two modules both called `helpers`
    (./helpers.px and lib/helpers.px) in one program."""
    write(tmp_path, {
        "main.px": """
            from lib.tools import make, Vec as LibVec
            from helpers import helper

            @fieldwise_init
            struct Vec:
                var a: Int

                fn describe(self) -> Int:
                    return self.a

            fn main():
                var mine = Vec(1)
                var theirs: LibVec = make()
                print(mine.a, theirs.x, theirs.y, helper(), mine.describe(), theirs.describe())
            """,
        "helpers.px": "fn helper() -> Int:\n    return 1\n",
        "lib/tools.px": """
            from helpers import helper

            @fieldwise_init
            struct Vec:
                var x: Float32
                var y: Int8

                fn describe(self) -> Int:
                    return 100 + Int(self.y)

            fn make() -> Vec:
                return Vec(2.5, helper())
            """,
        "lib/helpers.px": "fn helper() -> Int8:\n    return 7\n",
    })
    result = run_pyx(tmp_path / "main.px")
    assert (result.status, result.stderr) == (0, "")
    assert result.stdout == "1 2.5 7 1 1 107\n"


def test_an_unreadable_module_is_a_diagnostic(tmp_path):
    write(tmp_path, {"main.px": "from latin import f\n\nfn main():\n    f()\n"})
    (tmp_path / "latin.px").write_bytes(b"# caf\xe9\nfn f():\n    pass\n")
    result = run_cli("check", "--color=never", str(tmp_path / "main.px"))
    assert result.status == 1 and "error[E0901]" in result.stderr and "main.px:1:1" in result.stderr
    assert "internal compiler error" not in result.stderr


def test_a_package_s_init_is_a_module(tmp_path):
    write(tmp_path, {"main.px": "from shapes import unit\nimport shapes.round as r\n\nfn main():\n"
                                "    print(unit(), r.pi3())\n",
                     "shapes/__init__.px": "fn unit() -> Int:\n    return 1\n",
                     "shapes/round.px": "fn pi3() -> Float64:\n    return 3.0\n"})
    result = run_pyx(tmp_path / "main.px")
    assert (result.status, result.stdout, result.stderr) == (0, "1 3.0\n", "")


def test_pyx_run_recompiles_when_an_imported_module_changes(tmp_path):
    write(tmp_path, {"main.px": "from consts import value\n\nfn main():\n    print(value())\n",
                     "consts.px": "fn value() -> Int:\n    return 1\n"})
    assert run_pyx(tmp_path / "main.px").stdout == "1\n"
    assert run_pyx(tmp_path / "main.px").stdout == "1\n"  # from the cache
    (tmp_path / "consts.px").write_text("fn value() -> Int:\n    return 2\n")
    assert run_pyx(tmp_path / "main.px").stdout == "2\n"


IMPORT_FROM_PYTHON = """
import sys, pyx
m = pyx.import_module("app", path=[sys.argv[1]])
print(m.total(3), hasattr(m, "weight"))
"""


def test_python_sees_the_module_s_own_functions_and_fresh_dependencies(tmp_path):
    write(tmp_path, {"app.px": "from weights import weight\n\nfn total(n: Int) -> Int:\n    return n * weight()\n",
                     "weights.px": "fn weight() -> Int:\n    return 10\n"})
    env = {**os.environ, "PYX_CACHE_DIR": str(tmp_path / "cache")}

    def run() -> str:
        done = subprocess.run([sys.executable, "-c", IMPORT_FROM_PYTHON, str(tmp_path)], capture_output=True,
                              text=True, env=env)
        assert done.returncode == 0, done.stderr
        return done.stdout

    assert run() == "30 False\n"
    assert run() == "30 False\n"
    (tmp_path / "weights.px").write_text("fn weight() -> Int:\n    return 100\n")
    assert run() == "300 False\n"


def test_the_editor_shows_an_imported_module_s_error_at_the_import(tmp_path):
    from pyx.analysis import analyze

    write(tmp_path, {"lib/shapes.px": "fn area(r: Float64) -> Float64:\n    return r * missing\n"})
    text = "from math import pi\nfrom lib.shapes import area\n\nfn main():\n    print(area(1.0))\n"
    result = analyze(text, str(tmp_path / "main.px"))
    [d] = result.diagnostics
    assert d.code == "E0101" and d.span.line == 2
    assert d.message.startswith(f"in {tmp_path / 'lib' / 'shapes.px'}:2:16: ")
