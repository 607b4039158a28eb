"""Usage as a command-line user expects it: a GPU architecture LLVM cannot take is a usage error
(exit 2) naming the ones it can, each of those gives PTX (LLVM aborted the process for an
architecture newer than the PTX version pyx asked for), and `TERM=dumb` turns colour off."""
import os
import subprocess
import sys

import pytest

from helpers import run_cli

KERNEL = "@kernel\nfn k(x: Ptr[Float32]):\n    x[0] = 1.0\n"


def test_an_unknown_gpu_architecture_is_a_usage_error(tmp_path):
    (tmp_path / "k.px").write_text(KERNEL)
    result = run_cli("build", "--emit=ptx", "--gpu-arch=banana", str(tmp_path / "k.px"))
    assert result.status == 2
    assert "argument --gpu-arch: unknown GPU architecture 'banana' (one of sm_60," in result.stderr
    assert "internal compiler error" not in result.stderr


@pytest.mark.parametrize("arch", ["sm_75", "sm_90a", "sm_100", "sm_120", "sm_121a"])
def test_each_known_architecture_gives_ptx(tmp_path, arch):
    (tmp_path / "k.px").write_text(KERNEL)
    # A subprocess: LLVM's own errors end the process, which must not be pytest's.
    done = subprocess.run([sys.executable, "-m", "pyx", "build", "--emit=ptx", f"--gpu-arch={arch}",
                           str(tmp_path / "k.px")], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYX_NO_CACHE": "1"})
    assert done.returncode == 0, done.stderr
    assert f".target {arch}" in done.stdout and "not a recognized processor" not in done.stderr


class _Terminal:
    def isatty(self) -> bool:
        return True


def test_term_dumb_turns_colour_off(monkeypatch):
    from pyx.diagnostics.render import use_color

    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    assert use_color(_Terminal())
    monkeypatch.setenv("TERM", "dumb")
    assert not use_color(_Terminal())
    assert use_color(_Terminal(), "always")  # asked for by name: as with NO_COLOR


def test_lsp_check_says_whether_the_server_can_start():
    pytest.importorskip("pygls")
    ready = subprocess.run([sys.executable, "-m", "pyx", "lsp", "--check"], capture_output=True, text=True, timeout=120)
    assert ready.returncode == 0 and ready.stdout.startswith("pyx lsp: ready (pygls 2."), ready.stderr
    # Without pygls `pyx lsp --help` still answers; `--check` is what fails.
    blocked = "import sys; sys.modules['pygls'] = None; from pyx.cli import main; sys.exit(main(sys.argv[1:]))"
    helped = subprocess.run([sys.executable, "-c", blocked, "lsp", "--help"], capture_output=True, text=True,
                            timeout=120)
    assert helped.returncode == 0
    missing = subprocess.run([sys.executable, "-c", blocked, "lsp", "--check"], capture_output=True, text=True,
                             timeout=120)
    assert missing.returncode == 1
    assert "the language server needs pygls (pygls" in missing.stderr and "is not installed" in missing.stderr


def test_an_executable_of_a_program_using_python_is_one_clear_error(tmp_path):
    src = tmp_path / "usepy.px"
    src.write_text('fn main() raises:\n    var m = Python.import_module("math")\n    print(m.sqrt(4.0))\n')
    result = run_cli("build", "--color=never", str(src), "-o", str(tmp_path / "usepy"))
    assert result.status == 1
    assert result.stderr.count("error[") == 1 and "undefined reference" not in result.stderr
    assert "usepy.px:2:13: error[E0187]: `--emit=exe` makes a program that runs without Python, and this one " \
           "uses Python objects (`Python.import_module`)" in result.stderr
    assert not (tmp_path / "usepy").exists()
    assert run_cli("build", "--emit=obj", str(src), "-o", str(tmp_path / "usepy.o")).status == 0  # other stages


def test_importing_a_python_module_beside_the_file_says_what_it_is(tmp_path):
    (tmp_path / "kw.py").write_text("def f() -> int:\n    return 1\n")
    (tmp_path / "main.px").write_text("from kw import f\n\n\ndef main():\n    print(f())\n")
    result = run_cli("check", "--color=never", str(tmp_path / "main.px"))
    assert result.status == 1
    assert "error[E0129]: no module `kw`" in result.stderr
    assert "note: `kw.py` beside it is a Python module: pyx imports `.px` modules; call Python's through " \
           '`Python.import_module("kw")`' in result.stderr
    (tmp_path / "kw.py").unlink()
    assert "kw.py" not in run_cli("check", "--color=never", str(tmp_path / "main.px")).stderr
