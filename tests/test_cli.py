"""The command line: exit statuses 0/1/2/101, help and version, no Python tracebacks."""
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import ROOT, run_cli


def test_version():
    from pyx import __version__

    result = run_cli("--version")
    assert result.status == 0 and result.stdout.strip() == f"pyx {__version__}"


@pytest.mark.parametrize("argv", [["--help"], ["run", "--help"], ["build", "--help"], ["check", "--help"]])
def test_help_everywhere(argv):
    result = run_cli(*argv)
    assert result.status == 0 and "usage: pyx" in result.stdout


@pytest.mark.parametrize("argv", [[], ["frobnicate"], ["build", "--emit=wat", "x.px"], ["run", "-O7", "x.px"]])
def test_usage_errors_exit_2(argv):
    assert run_cli(*argv).status == 2


def test_check_ok_is_silent(tmp_path: Path):
    result = run_cli("check", str(ROOT / "examples" / "fib.px"))
    assert (result.status, result.stdout, result.stderr) == (0, "", "")


def test_missing_file(tmp_path: Path):
    result = run_cli("check", "--color=never", str(tmp_path / "nope.px"))
    assert result.status == 1
    assert "error[E0901]: cannot read" in result.stderr and "No such file" in result.stderr


def test_several_errors_in_one_run(tmp_path: Path):
    src = tmp_path / "bad.px"
    src.write_text("fn main():\n    var a: Int = 1.5\n    print(b)\n    a = True\n")
    result = run_cli("check", "--color=never", str(src))
    assert result.status == 1
    assert result.stderr.count("error[") == 3 and result.stderr.rstrip().endswith("3 errors")
    assert "bad.px:2:18: error[E0201]" in result.stderr
    assert "    var a: Int = 1.5\n" in result.stderr and "                 ^~~" in result.stderr


def test_run_without_main(tmp_path: Path):
    src = tmp_path / "lib.px"
    src.write_text("fn f() -> Int:\n    return 1\n")
    result = run_cli("run", "--color=never", str(src))
    assert result.status == 1 and "error[E0111]: no `fn main()` to run" in result.stderr


def test_internal_error_is_reported_plainly(monkeypatch, tmp_path: Path):
    from pyx.ir import lower as lower_module

    def broken(*args, **kwargs):
        raise KeyError("boom")

    monkeypatch.setattr(lower_module.FunctionLowering, "lower", broken)
    monkeypatch.delenv("PYX_DEBUG", raising=False)
    monkeypatch.setenv("PYX_NO_CACHE", "1")
    result = run_cli("run", str(ROOT / "examples" / "hello.px"))
    assert result.status == 101
    assert "internal compiler error in pass `lower`" in result.stderr
    assert "please report it" in result.stderr
    assert "Traceback" not in result.stderr
    monkeypatch.setenv("PYX_DEBUG", "1")
    assert "Traceback" in run_cli("run", str(ROOT / "examples" / "hello.px")).stderr


def test_color_follows_flag_and_no_color(tmp_path: Path, monkeypatch):
    src = tmp_path / "bad.px"
    src.write_text("fn main():\n    print(x)\n")
    assert "\x1b[" in run_cli("check", "--color=always", str(src)).stderr
    assert "\x1b[" not in run_cli("check", "--color=never", str(src)).stderr
    monkeypatch.setenv("NO_COLOR", "1")
    assert "\x1b[" not in run_cli("check", str(src)).stderr


def test_time_flag_reports_every_stage(monkeypatch):
    monkeypatch.setenv("PYX_NO_CACHE", "1")
    result = run_cli("run", "--time", str(ROOT / "examples" / "hello.px"))
    for stage in ("parse", "check", "lower", "codegen", "llvm", "object", "load", "run"):
        assert f"{stage} " in result.stderr


def test_run_uses_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("PYX_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("PYX_NO_CACHE", raising=False)
    first = run_cli("run", "--time", str(ROOT / "examples" / "hello.px"))
    second = run_cli("run", "--time", str(ROOT / "examples" / "hello.px"))
    assert first.stdout == second.stdout == "Hello, pyx!\n"
    assert "parse " in first.stderr and "cache " in second.stderr and "parse " not in second.stderr


def test_console_script_and_module_entry_point():
    """The installed `pyx` command and `python -m pyx` both work in a fresh process."""
    done = subprocess.run([sys.executable, "-m", "pyx", "run", str(ROOT / "examples" / "hello.px")],
                          capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout == "Hello, pyx!\n"


def test_deeply_nested_input_is_a_diagnostic(tmp_path: Path):
    src = tmp_path / "deep.px"
    src.write_text("fn main():\n    print(" + "-(" * 3000 + "1" + ")" * 3000 + ")\n")
    result = run_cli("check", "--color=never", str(src))
    assert result.status == 1
    assert "error[E0003]" in result.stderr and "RecursionError" not in result.stderr
