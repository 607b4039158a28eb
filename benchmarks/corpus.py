#!/usr/bin/env python3
"""Run the corpus of everyday Python programs under CPython and under pyx, unmodified, and sort each
into what pyx did with it.

    python benchmarks/corpus.py [--json] [NAME ...]

The corpus (`benchmarks/corpus/*.py`, plus every example with a Python twin) is programs written as a
Python user writes them: the Benchmarks Game, algorithm collections, small scripts. Each lands in one of:

    same       pyx ran it and printed exactly what CPython printed
    rejected   pyx refused it at compile time with diagnostics (their codes are counted)
    runtime    pyx compiled it but it failed at run time where CPython did not
    different  pyx ran it and printed something else (the worst bug pyx can have)
    crash      pyx itself failed: a traceback, a signal, or no diagnostic

The share that runs unmodified is the measure of how much of Python pyx covers; `different` and
`crash` must stay at zero (tests/test_corpus.py holds that).
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import re
import subprocess
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "benchmarks" / "corpus"
CODE = re.compile(r"error\[(E\d{4})\]")
TIMEOUT_S = 120


@dataclass
class Outcome:
    name: str
    verdict: str  # same | rejected | runtime | different | crash
    codes: list[str] = field(default_factory=list)  # the diagnostics' codes, for `rejected`
    detail: str = ""  # the first lines that explain a verdict other than `same`


def programs() -> list[Path]:
    twins = [p.with_suffix(".py") for p in sorted((ROOT / "examples").glob("*.px")) if p.with_suffix(".py").exists()]
    return sorted(CORPUS.glob("*.py")) + twins


def _pyx(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONHASHSEED="0")
    return subprocess.run([sys.executable, "-m", "pyx", *args], capture_output=True, text=True,
                          timeout=TIMEOUT_S, env=env, cwd=ROOT)


def classify(path: Path) -> Outcome:
    name = path.stem if path.parent == CORPUS else f"examples/{path.stem}"
    try:
        return _classified(name, path)
    except subprocess.TimeoutExpired as e:  # one slow program is that program's verdict, not the run's end
        return Outcome(name, "crash", detail=f"`{' '.join(map(str, e.cmd))}` did not finish in {TIMEOUT_S} s")


def _classified(name: str, path: Path) -> Outcome:
    python = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=TIMEOUT_S,
                            env=dict(os.environ, PYTHONHASHSEED="0"))  # pyx's str hashes are CPython's with it
    if python.returncode != 0:
        return Outcome(name, "crash", detail=f"CPython itself failed: {python.stderr[-300:]}")
    checked = _pyx("check", str(path))
    if "Traceback (most recent call last)" in checked.stderr and "error[" not in checked.stderr:
        return Outcome(name, "crash", detail=checked.stderr[-600:])
    if checked.returncode != 0:
        codes = CODE.findall(checked.stderr)
        if not codes:
            return Outcome(name, "crash", detail=checked.stderr[-600:])
        return Outcome(name, "rejected", codes=codes, detail=checked.stderr.splitlines()[0] if checked.stderr else "")
    ran = _pyx("run", str(path))
    if ran.returncode < 0:
        return Outcome(name, "crash", detail=f"signal {-ran.returncode}: {ran.stderr[-400:]}")
    if ran.returncode != 0:
        if CODE.search(ran.stderr):  # `check` passed but `run` rejected (code generation's own checks)
            return Outcome(name, "rejected", codes=CODE.findall(ran.stderr), detail=ran.stderr.splitlines()[0])
        pyx_traceback = "Traceback (most recent call last)" in ran.stderr and "pyx/" in ran.stderr
        if "internal error" in ran.stderr or pyx_traceback:
            return Outcome(name, "crash", detail=ran.stderr[-600:])
        return Outcome(name, "runtime", detail=ran.stderr[-400:])
    if ran.stdout != python.stdout:
        return Outcome(name, "different", detail=_first_difference(python.stdout, ran.stdout))
    return Outcome(name, "same")


# A program that can be timed marks its size: `N = 7  # benchmark size: 10` runs with N = 10 in the
# whole-program table (benchmarks/run.py), and as written everywhere else.
SIZE = re.compile(r"^(?P<name>\w+) = (?P<small>[\w.]+)  # benchmark size: (?P<big>[\w.]+)$", re.M)


def sized_programs() -> list[Path]:
    return [p for p in programs() if SIZE.search(p.read_text())]


def at_benchmark_size(path: Path, directory: Path) -> Path:
    """A copy of the program with its marked size set to the benchmark's."""
    text = SIZE.sub(lambda m: f"{m['name']} = {m['big']}", path.read_text(), count=1)
    copy = directory / path.name
    copy.write_text(text)
    return copy


def run_timed(command, env=None, cwd=ROOT) -> tuple[float, float, str, int]:
    """Runs a command to its end: (wall seconds, CPU seconds (user + sys of the process and its
    children: the fairer figure on a loaded machine), stdout, exit status)."""
    import resource
    import time

    def cpu() -> float:
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        return usage.ru_utime + usage.ru_stime

    start, cpu_start = time.perf_counter(), cpu()
    done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=cwd)
    return time.perf_counter() - start, cpu() - cpu_start, done.stdout, done.returncode


def time_program(path: Path, directory: Path, repeat: int = 3) -> dict:
    """Whole-process wall and CPU time of CPython and of `pyx run` (cache warmed first, so it is the
    cost of a run, not of compiling) on the program at its benchmark size, and whether they print the
    same. `output` is what CPython printed (the peers' twins are checked against it)."""
    import statistics

    program = at_benchmark_size(path, directory)
    env = dict(os.environ, PYTHONHASHSEED="0", PYX_CACHE_DIR=str(directory / "cache"))
    pyx_cmd = (sys.executable, "-m", "pyx", "run", str(program))
    _, _, pyx_out, pyx_status = run_timed(pyx_cmd, env)  # compiles and caches
    py_runs, pyx_runs, py_out = [], [], ""
    for _ in range(repeat):
        wall, cpu, py_out, _ = run_timed((sys.executable, str(program)), env)
        py_runs.append((wall, cpu))
        pyx_runs.append(run_timed(pyx_cmd, env)[:2])
    return {"program": path.stem, "cpython": statistics.median(w for w, _ in py_runs),
            "pyx": statistics.median(w for w, _ in pyx_runs), "cpython_cpu": statistics.median(c for _, c in py_runs),
            "pyx_cpu": statistics.median(c for _, c in pyx_runs),
            "agree": pyx_status == 0 and pyx_out == py_out, "output": py_out}


def _first_difference(expected: str, got: str) -> str:
    for i, (e, g) in enumerate(zip(expected.splitlines(), got.splitlines(), strict=False)):
        if e != g:
            return f"line {i + 1}: CPython {e!r}, pyx {g!r}"
    return f"CPython printed {len(expected.splitlines())} lines, pyx {len(got.splitlines())}"


def report(outcomes: list[Outcome]) -> str:
    lines = [f"{'program':<26} verdict    detail"]
    for o in outcomes:
        detail = " ".join(sorted(set(o.codes))) if o.verdict == "rejected" else o.detail.replace("\n", " ")[:90]
        lines.append(f"{o.name:<26} {o.verdict:<10} {detail}")
    verdicts = collections.Counter(o.verdict for o in outcomes)
    lines.append("")
    lines.append(", ".join(f"{v}: {verdicts.get(v, 0)}" for v in ("same", "rejected", "runtime", "different", "crash"))
                 + f" (of {len(outcomes)})")
    blocking = collections.Counter(c for o in outcomes for c in set(o.codes))
    if blocking:
        lines.append("programs blocked by each code: "
                     + ", ".join(f"{c} {n}" for c, n in blocking.most_common()))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="only these programs (file stems)")
    parser.add_argument("--json", action="store_true", help="print the outcomes as JSON")
    args = parser.parse_args(argv)
    chosen = [p for p in programs() if not args.names or p.stem in args.names]
    outcomes = [classify(p) for p in chosen]
    print(json.dumps([asdict(o) for o in outcomes], indent=1) if args.json else report(outcomes))
    return 1 if any(o.verdict in ("different", "crash") for o in outcomes) else 0


if __name__ == "__main__":
    sys.exit(main())
