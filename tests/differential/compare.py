"""Run one program under CPython and under pyx and compare what they print.

As a script, for minimizing a failure by hand:

    python tests/differential/compare.py prog.px [-O0]

prints both outcomes and says whether they agree (exit status 0) or not (1); 2 when
CPython's run falls outside the common subset (the case would be discarded).

pyx runs in this process by default (fast: no interpreter start-up). With
PYX_DIFF_ISOLATE=1 it runs in a subprocess with a timeout instead, so a program that
crashes or hangs the compiled code cannot take the test process down with it.
"""
from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))      # tests/, for helpers
sys.path.insert(0, str(HERE))

from cpython import INT_MAX, INT_MIN, Discard, Outcome, run_cpython  # noqa: E402

PYX_TIMEOUT_S = 20


@dataclass
class PyxOutcome:
    status: int
    stdout: str
    stderr: str

    @property
    def exception(self) -> str | None:
        """The exception class named on the traceback's last line, if there is a traceback."""
        if self.status == 0 or not self.stderr.startswith("Traceback (most recent call last):"):
            return None
        last = self.stderr.rstrip("\n").splitlines()[-1]
        return last.split(":", 1)[0].strip()

    @property
    def frames(self) -> list[tuple[str, int]]:
        """(function, line) of each traceback entry in the program, outermost first."""
        found = re.findall(r'^  File "([^"]*)", line (\d+), in (\S+)$', self.stderr, re.MULTILINE)
        return [(name, int(line)) for path, line, name in found if path != "<builtin>"]

    @property
    def message(self) -> str:
        if self.exception is None:
            return ""
        last = self.stderr.rstrip("\n").splitlines()[-1]
        return last.split(":", 1)[1].strip() if ":" in last else ""


def run_pyx_source(source: str, opt_level: str = "3") -> PyxOutcome:
    with tempfile.TemporaryDirectory(prefix="pyx-diff-") as tmp:
        path = Path(tmp) / "prog.px"
        path.write_text(source)
        if os.environ.get("PYX_DIFF_ISOLATE"):
            try:
                proc = subprocess.run([sys.executable, "-m", "pyx", "run", f"-O{opt_level}", str(path)],
                                      capture_output=True, text=True, timeout=PYX_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                return PyxOutcome(-1, "", f"pyx run timed out after {PYX_TIMEOUT_S} s")
            return PyxOutcome(proc.returncode, proc.stdout, proc.stderr)
        from helpers import run_pyx

        result = run_pyx(path, f"-O{opt_level}")
        return PyxOutcome(result.status, result.stdout, result.stderr)


@dataclass
class Verdict:
    agree: bool
    python: Outcome
    pyx: PyxOutcome
    why: str = ""

    def report(self) -> str:
        py_exc = (f"{self.python.exception}: {self.python.message} at {self.python.frames}"
                  if self.python.exception else "none")
        return "\n".join([
            f"verdict: {'agree' if self.agree else 'DISAGREE: ' + self.why}",
            f"--- CPython stdout ---\n{self.python.stdout}--- CPython exception: {py_exc}",
            f"--- pyx status {self.pyx.status} ---",
            f"--- pyx stdout ---\n{self.pyx.stdout}--- pyx stderr ---\n{self.pyx.stderr}",
        ])


# E0206 in `fn` code, E0300 in Python code (a `def` or a script)
_TOO_BIG = re.compile(r"^[^\n]*?:(\d+):(\d+): error\[(?:E0206\]: integer literal (-?\d+) does not fit in `[^`]+`"
                      r"|E0300\]: `(-?\d+)` does not fit pyx's 64-bit `Int`)", re.MULTILINE)


def check_constant_overflow(source: str, stderr: str) -> None:
    """pyx folds constant expressions exactly and rejects one whose value is beyond 64 bits,
    even where it never runs (a documented difference). Raise Discard when that is what
    happened: the expression at the reported place must evaluate, in Python, to the value
    pyx names, and that value must really be out of range. Anything else is a real rejection."""
    errors = list(_TOO_BIG.finditer(stderr))
    if not errors or stderr.count("error[") != len(errors):
        return
    lines = source.splitlines()
    for m in errors:
        line, col, value = int(m[1]), int(m[2]), int(m[3] or m[4])
        if INT_MIN <= value <= INT_MAX:
            return
        text = lines[line - 1][col - 1:]
        if not any(_constant_value(text[:end]) == value for end in range(len(text), 0, -1)):
            return
    raise Discard("constant expression beyond 64 bits, rejected at compile time")


def _constant_value(text: str):
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError:
        return None
    allowed = {"abs": abs, "min": min, "max": max, "int": int, "float": float, "bool": bool}
    if any(isinstance(node, ast.Name) and node.id not in allowed for node in ast.walk(tree)):
        return None
    try:
        return eval(compile(tree, "<constant>", "eval"), {"__builtins__": allowed})
    except Exception:  # noqa: BLE001
        return None


def compare(source: str, opt_level: str = "3") -> Verdict:
    """Raises Discard when the CPython run leaves the common subset."""
    expected = run_cpython(source)
    actual = run_pyx_source(source, opt_level)
    if actual.status == 1 and actual.exception is None:
        check_constant_overflow(source, actual.stderr)
    if actual.status not in (0, 1) or (actual.status == 1 and actual.exception is None):
        why = "pyx rejected the program" if actual.status == 1 else f"pyx exited with status {actual.status}"
        return Verdict(False, expected, actual, why)
    if expected.exception != actual.exception:
        return Verdict(False, expected, actual,
                       f"exception: CPython {expected.exception}, pyx {actual.exception}")
    if expected.stdout != actual.stdout:
        return Verdict(False, expected, actual, "stdout differs")
    if expected.exception and expected.frames != actual.frames:
        return Verdict(False, expected, actual,
                       f"traceback: CPython {expected.frames}, pyx {actual.frames} (function, line)")
    return Verdict(True, expected, actual)


def main(argv: list[str]) -> int:
    path = Path(argv[0])
    opt = argv[1].removeprefix("-O") if len(argv) > 1 else "3"
    source = path.read_text()
    try:
        verdict = compare(source, opt)
    except Discard as exc:
        print(f"discarded: {exc.reason}")
        return 2
    print(verdict.report())
    return 0 if verdict.agree else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
