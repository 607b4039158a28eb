"""Scripts and module-level variables across modules (docs/reference.md, "Scripts and module-level
variables"): imported modules' statements run before the importer's, in the order CPython runs them,
and a module Python imports runs its statements once, at import, with `__name__` not "__main__"."""
import subprocess
import sys
import textwrap

import pyx
from helpers import captured_fds, run_pyx

MODULES = {
    "helpers2": """
        BASE = 100
        print("helpers2 runs")


        def base_plus(k: int) -> int:
            return BASE + k
        """,
    "consts": """
        import helpers2

        SCALE = 3
        print("consts runs")


        def scaled(x: int) -> int:
            return x * SCALE + helpers2.base_plus(1)
        """,
    "other": """
        import helpers2

        print("other runs")


        def twice(x: int) -> int:
            return 2 * helpers2.base_plus(x)
        """,
    "prog": """
        from consts import scaled
        from other import twice

        print("prog runs", scaled(5), twice(1))
        if __name__ == "__main__":
            print("prog is main")
        """,
}


def _write(directory, suffix: str) -> None:
    for name, text in MODULES.items():
        (directory / f"{name}{suffix}").write_text(textwrap.dedent(text))


def test_imported_modules_statements_run_first_in_cpython_order(tmp_path):
    (tmp_path / "px").mkdir()
    (tmp_path / "py").mkdir()
    _write(tmp_path / "px", ".px")
    _write(tmp_path / "py", ".py")
    python = subprocess.run([sys.executable, str(tmp_path / "py" / "prog.py")], capture_output=True, text=True)
    assert python.returncode == 0, python.stderr
    result = run_pyx(tmp_path / "px" / "prog.px")
    assert result.status == 0, result.stderr
    assert result.stdout == python.stdout == "helpers2 runs\nconsts runs\nother runs\nprog runs 116 202\nprog is main\n"


def test_python_import_runs_the_statements_once_and_not_the_main_guard(tmp_path):
    (tmp_path / "scripted_module.px").write_text(textwrap.dedent("""
        SCALE = 3
        print("importing scripted")


        def scaled(x: int) -> int:
            return x * SCALE


        if __name__ == "__main__":
            print("as main")
        else:
            print("as module")
        """))
    with captured_fds() as box:
        m = pyx.import_module("scripted_module", path=[str(tmp_path)])
        value = m.scaled(4)
    assert box["stdout"] == "importing scripted\nas module\n"
    assert value == 12
    assert "<module>" not in dir(m)
    assert run_pyx(tmp_path / "scripted_module.px").stdout == "importing scripted\nas main\n"
