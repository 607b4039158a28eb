"""`import sys` (stdlib/sys.px): `sys.exit` and `sys.argv` end and start a program as CPython's do.

Each case runs the same file under CPython and as `pyx run` (and as an `--emit=exe` binary) in
a subprocess and compares exit status, stdout and stderr: the status is what the process
reports, which an in-process run cannot show (an uncaught SystemExit(130) must not look like a
Ctrl-C, which ends the process by SIGINT)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

HAVE_CC = any(shutil.which(c) for c in (os.environ.get("CC"), "cc", "gcc", "clang") if c)


def _script(body: str) -> str:
    lines = "\n".join("    " + line for line in body.splitlines())
    return (f'import sys\n\n\ndef main() -> None:\n    print("start")\n{lines}\n\n\n'
            'if __name__ == "__main__":\n    main()\n')


def _both(tmp_path, body: str, *args: str):
    path = tmp_path / "prog.py"
    path.write_text(_script(body))
    python = subprocess.run([sys.executable, "prog.py", *args], cwd=tmp_path, capture_output=True, text=True)
    pyx = subprocess.run([sys.executable, "-m", "pyx", "run", "prog.py", *args], cwd=tmp_path,
                         capture_output=True, text=True)
    return python, pyx


def _same(python, pyx) -> None:
    assert (pyx.returncode, pyx.stdout, pyx.stderr) == (python.returncode, python.stdout, python.stderr)


@pytest.mark.parametrize("call", ["sys.exit()", "sys.exit(0)", "sys.exit(3)", "sys.exit(256)", "sys.exit(-1)",
                                  "sys.exit(130)", "sys.exit(True)", 'sys.exit("bad input")', 'sys.exit("3")',
                                  "sys.exit(2.5)", 'raise SystemExit("bad")', "raise SystemExit"])
def test_uncaught_exit_ends_the_program_as_cpython(tmp_path, call):
    python, pyx = _both(tmp_path, f'{call}\nprint("not reached")')
    _same(python, pyx)


def test_exit_runs_finally_blocks_and_is_no_exception(tmp_path):
    python, pyx = _both(tmp_path, 'try:\n    try:\n        sys.exit(7)\n    except Exception:\n'
                                  '        print("wrong")\nfinally:\n    print("finally")')
    assert python.returncode == 7
    _same(python, pyx)


def test_argv_is_the_file_then_the_arguments_after_it(tmp_path):
    # Options after the file are the program's, not pyx run's own (-O, --time).
    python, pyx = _both(tmp_path, 'print(sys.argv)\nprint(len(sys.argv), sys.argv[1:])',
                        "a", "b c", "-O", "--time", "é", "")
    assert python.stdout.startswith("start\n['prog.py', 'a', 'b c', '-O', '--time', 'é', '']")
    _same(python, pyx)


def test_stderr_write_goes_to_stderr(tmp_path):
    python, pyx = _both(tmp_path, 'n = sys.stderr.write("warning: héllo\\n")\nprint(n)\nsys.stdout.write("out\\n")')
    assert python.stderr == "warning: héllo\n"
    _same(python, pyx)


@pytest.mark.slow
@pytest.mark.skipif(not HAVE_CC, reason="needs a C compiler to link an executable")
def test_executable_gets_its_c_argv_and_exit_status(tmp_path):
    path = tmp_path / "prog.py"
    path.write_text(_script('print(sys.argv[1:])\nsys.exit(int(sys.argv[1]))'))
    exe = tmp_path / "prog"
    subprocess.run([sys.executable, "-m", "pyx", "build", "--emit=exe", "-o", str(exe), str(path)], check=True)
    done = subprocess.run([str(exe), "5", "x y"], capture_output=True, text=True)
    assert (done.returncode, done.stdout, done.stderr) == (5, "start\n['5', 'x y']\n", "")
    done = subprocess.run([str(exe), "130"], capture_output=True, text=True)
    assert done.returncode == 130  # an exit status, not death by SIGINT (-2)


def test_exit_called_from_python_raises_pythons_system_exit(tmp_path, monkeypatch):
    from helpers import import_source

    source = ("import sys\n\n\ndef stop(code: Int) raises:\n    sys.exit(code)\n\n\n"
              "def stop_text(text: String) raises:\n    sys.exit(text)\n")
    module = import_source("quitter", source, tmp_path, monkeypatch)
    with pytest.raises(SystemExit) as caught:
        module.stop(3)
    assert caught.value.code == 3
    with pytest.raises(SystemExit) as caught:
        module.stop_text("bye")
    assert caught.value.code == "bye"
