"""The `%%pyx` cell magic under IPython's InteractiveShell, and `pyx.compile_string` behind it."""
import pickle

import pytest

pytest.importorskip("IPython")
np = pytest.importorskip("numpy")

import pyx  # noqa: E402


@pytest.fixture()
def shell(tmp_path, monkeypatch):
    from IPython.core.interactiveshell import InteractiveShell

    monkeypatch.setenv("PYX_CACHE_DIR", str(tmp_path / "cache"))
    ip = InteractiveShell.instance()
    ip.run_line_magic("load_ext", "pyx")
    yield ip
    InteractiveShell.clear_instance()


def test_a_cell_is_compiled_and_its_functions_bound_in_the_notebook(shell):
    shell.run_cell("%%pyx\nfn area(w: Float64, h: Float64) -> Float64:\n    return w * h\n\n\n"
                   "def total(xs):\n    s = 0.0\n    for x in xs:\n        s += x\n    return s\n")
    shell.run_cell("import numpy as np")
    result = shell.run_cell("area(2.0, 3.5), total([1.0, 2.5]), total(np.arange(3.0))", store_history=False)
    assert result.error_in_exec is None
    assert result.result == (7.0, 3.5, 3.0)


def test_a_cell_that_does_not_compile_shows_the_diagnostic_not_a_traceback(shell, capsys):
    result = shell.run_cell("%%pyx\nfn bad() -> Int:\n    return 1.5\n")
    assert result.error_in_exec is None  # no Python exception reached the notebook
    err = capsys.readouterr().err
    assert "<pyx cell>:2:12: error[E0201]: mismatched types" in err and "^" in err and "Traceback" not in err
    assert "bad" not in shell.user_ns


def test_compile_string_makes_a_module_whose_functions_pickle(tmp_path, monkeypatch):
    monkeypatch.setenv("PYX_CACHE_DIR", str(tmp_path / "cache"))
    m = pyx.compile_string("fn twice(x: Int) -> Int:\n    return 2 * x\n", name="strmod")
    assert m.twice(21) == 42 and m.__name__ == "strmod"
    assert pickle.loads(pickle.dumps(m.twice)) is m.twice
    with pytest.raises(ValueError, match="must be an identifier"):
        pyx.compile_string("", name="not a name")


def test_pyx_print_lands_in_order_in_python_stdout_when_it_is_not_the_terminal(tmp_path, monkeypatch):
    import contextlib
    import io

    monkeypatch.setenv("PYX_CACHE_DIR", str(tmp_path / "cache"))
    m = pyx.compile_string('fn hello(n: Int):\n    print("pyx says", n)\n', name="printer")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        print("before")
        m.hello(1)
        print("between")
        m.hello(2)
    assert out.getvalue() == "before\npyx says 1\nbetween\npyx says 2\n"


def test_pyx_print_in_a_notebook_cell_comes_in_order(shell, capsys):
    shell.run_cell('%%pyx\nfn hello(n: Int):\n    print("pyx", n)\n')
    capsys.readouterr()
    shell.run_cell('print("python 1"); hello(1); print("python 2")')
    assert capsys.readouterr().out == "python 1\npyx 1\npython 2\n"
