"""Mutation campaign: random edits of real programs must get diagnostics, never crash the compiler.

Takes the `.px` programs of `examples/` and `tests/golden/`, applies random mutations (delete,
duplicate and swap lines and tokens, change operators and numbers, insert deep nesting, long
names, odd string escapes and random bytes), runs `pyx check` on each mutant and, when it
checks, `pyx run`, each with a timeout, and sorts the outcomes:

    diagnostic   exit 1 with `error[` on stderr: the compiler explained what is wrong
    success      checked (and ran to an end: exit 0, or an uncaught exception of the program)
    internal     exit 101, an "internal compiler error", or a Python traceback from the compiler
    crash        the process died of a signal (SIGSEGV, SIGFPE, SIGABRT...)
    hang         the compiler did not finish within the timeout
    slow-program the program itself ran past the timeout (not a compiler problem)
    unsafe       the program crashed, and it uses raw pointers (`Ptr`), which are unchecked as in
                 C: `--memcheck` names the bad access where it can (in GPU code); a freed pointer
                 used again, or freed twice, is not a compiler bug either
    other        anything else (reported, to be looked at)

Mutant number i of seed s is the same on every run, whatever the parallelism. Each mutant
is compiled by a long-lived worker process (so Python and the compiler are imported once per
worker, not per mutant) that is killed and replaced when it times out or dies.

    python tests/robustness/mutate.py --count 3000 --seed 1 --jobs 2 --save /tmp/mutants
    python tests/robustness/mutate.py --count 3000 --seed 1 --pythonpath /tmp/basepkg   # another pyx

`--save DIR` keeps each failing mutant (internal, crash, hang, other) as DIR/NNNNN.px.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import re
import select
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted((ROOT / "examples").glob("*.px")) + sorted((ROOT / "tests" / "golden").glob("*.px"))
CATEGORIES = ("diagnostic", "success", "internal", "crash", "hang", "slow-program", "unsafe", "other")
FAILURES = ("internal", "crash", "hang", "other")

# ---------------------------------------------------------------- mutations

TOKEN = re.compile(r"\w+|\"[^\"\n]*\"|'[^'\n]*'|\*\*|//|<<|>>|<=|>=|==|!=|->|\S")
NUMBER = re.compile(r"(?<![\w.])\d[\d_]*(\.\d+)?(?![\w.])")
OPERATORS = ["+", "-", "*", "/", "//", "%", "**", "<<", ">>", "&", "|", "^", "<", ">", "<=", ">=", "==", "!=",
             "and", "or", "not", "in", "is", "=", "+=", "-=", "@", "~", ".", ",", ":"]
INSERTS = ["(", ")", "[", "]", "{", "}", ":", ",", "=", "+", "**", "//", "var", "fn", "def", "return", "0", "1.5",
           "'s'", "x", "self", "SIMD", "Ptr", "comptime", "raise", "try", "except", "not", "and", "if", "elif",
           "else", "while", "for", "in", "\n", "    ", "\t", "...", "@", "^", "struct", "trait", "launch",
           "yield", "lambda", "None", "True", "Int", "Float32", "List[Int]", "mut", "out", "owned", "raises"]
NUMBERS = ["0", "-1", "1", "2", "255", "256", "65536", "9223372036854775807", "9223372036854775808",
           "18446744073709551616", "10**30", "2**63", "2**64", "2**4096", "2**7000", "1" * 4301, "0x" + "f" * 5000,
           "0b" + "1" * 70, "0o777", "1e308", "1e400", "0.0", "-0.0", "1_000", "00", "3.14159", "1e-400"]
ESCAPES = ["\\ud800", "\\udfff", "\\ud83d\\ude00", "\\x00", "\\0", "\\U0010ffff", "\\U00110000", "\\N{BULLET}",
           "\\N{NO SUCH NAME}", "\\u00e9", "\\", "\\\\", "\\'", '\\"', "{", "}", "{{", "%s", "%d", "\\n\\r\\t"]
BYTES = [b"\x00", b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xef\xbb\xbf", b"\r", b"\r\n", b"\x0c", b"\t", b"\x1b",
         b"\xe2\x80\xa8", b"\\", b"\xf0\x9f\x98\x80", b"#", b"'''", b'"']


def mutate(text: str, rng: random.Random) -> bytes:
    """One mutant of `text`: one to three random edits."""
    lines = text.splitlines()
    raw: list[tuple[int, bytes]] = []  # (line index, bytes) inserted after encoding
    for _ in range(rng.randint(1, 3)):
        if not lines:
            lines = [""]
        kind = rng.choice(KINDS)
        i = rng.randrange(len(lines))
        if kind == "bytes":
            raw.append((i, b"".join(rng.choice(BYTES) for _ in range(rng.randint(1, 3)))))
        else:
            KINDS_FN[kind](lines, i, rng)
    out = [line.encode("utf-8", "surrogatepass") for line in lines]
    for i, data in raw:
        if i < len(out):
            at = rng.randint(0, len(out[i]))
            out[i] = out[i][:at] + data + out[i][at:]
    if rng.random() < 0.05:  # sometimes the file is cut short, or has no final newline
        joined = b"\n".join(out)
        return joined[:rng.randint(0, len(joined))]
    return b"\n".join(out) + b"\n"


def _indent(line: str) -> str:
    return line[:len(line) - len(line.lstrip())]


def _retokenize(lines, i, tokens):
    lines[i] = _indent(lines[i]) + " ".join(tokens)


def _delete_line(lines, i, rng):
    del lines[i]


def _duplicate_line(lines, i, rng):
    lines.insert(i, lines[rng.randrange(len(lines))])


def _swap_lines(lines, i, rng):
    j = rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]


def _delete_token(lines, i, rng):
    tokens = TOKEN.findall(lines[i])
    if tokens:
        del tokens[rng.randrange(len(tokens))]
        _retokenize(lines, i, tokens)


def _insert_token(lines, i, rng):
    tokens = TOKEN.findall(lines[i])
    tokens.insert(rng.randint(0, len(tokens)), rng.choice(INSERTS))
    _retokenize(lines, i, tokens)


def _swap_tokens(lines, i, rng):
    tokens = TOKEN.findall(lines[i])
    if len(tokens) > 1:
        k = rng.randrange(len(tokens) - 1)
        tokens[k], tokens[k + 1] = tokens[k + 1], tokens[k]
        _retokenize(lines, i, tokens)


def _change_operator(lines, i, rng):
    tokens = TOKEN.findall(lines[i])
    spots = [k for k, t in enumerate(tokens) if t in OPERATORS]
    if spots:
        tokens[rng.choice(spots)] = rng.choice(OPERATORS)
        _retokenize(lines, i, tokens)


def _change_number(lines, i, rng):
    spots = list(NUMBER.finditer(lines[i]))
    if spots:
        m = rng.choice(spots)
        lines[i] = lines[i][:m.start()] + rng.choice(NUMBERS) + lines[i][m.end():]


def _deep_nesting(lines, i, rng):
    depth = rng.choice([200, 990, 1001, 3000, 10000])
    shape = rng.randrange(6)
    spots = list(re.finditer(r"\b[A-Za-z_]\w*\b|\b\d+\b", lines[i]))
    if shape == 0 and spots:  # an operand wrapped in unary minus signs / nots / parentheses
        m = rng.choice(spots)
        prefix, suffix = rng.choice([("-" * depth, ""), ("not " * depth, ""), ("-(" * depth, ")" * depth),
                                     ("(" * depth, ")" * depth), ("[" * depth, "]" * depth)])
        lines[i] = lines[i][:m.start()] + prefix + m.group() + suffix + lines[i][m.end():]
    elif shape == 1 and spots:  # a long chain: a.b.c..., f()()..., x + x + ..., 2 ** 2 ** ...
        m = rng.choice(spots)
        chain = rng.choice([".b" * depth, "()" * depth, " + 1" * depth, " ** 1" * depth, "[0]" * depth])
        lines[i] = lines[i][:m.end()] + chain + lines[i][m.end():]
    elif shape == 2:  # a long elif chain
        pad = _indent(lines[i])
        chain = [f"{pad}if 1 == 0:", f"{pad}    pass"]
        for k in range(depth):
            chain += [f"{pad}elif {k} == 0:", f"{pad}    pass"]
        lines[i:i] = chain
    elif shape == 3:  # deeply nested blocks
        pad = _indent(lines[i])
        levels = min(depth, 1200)
        lines[i:i] = [pad + "    " * k + "if True:" for k in range(levels)] + [pad + "    " * levels + "pass"]
    elif shape == 4:  # nested comptime loops
        pad = _indent(lines[i])
        n = rng.choice([10, 100, 1000, 4096, 5000])
        lines[i:i + 1] = [f"{pad}comptime for _i in range({n}):", f"{pad}    comptime for _j in range({n}):",
                          f"{pad}        {lines[i].strip() or 'pass'}"]
    else:  # a deep type
        pad = _indent(lines[i])
        lines.insert(i, pad + "var _t: " + "List[" * min(depth, 1200) + "Int" + "]" * min(depth, 1200) + " = []")


def _long_name(lines, i, rng):
    names = sorted(set(re.findall(r"\b[A-Za-z_]\w*\b", lines[i])))
    if names:
        name = rng.choice(names)
        longer = name + "_" + "x" * rng.choice([1100, 2500])
        text = "\n".join(lines)
        text = re.sub(rf"\b{re.escape(name)}\b", longer, text)
        lines[:] = text.split("\n")


def _string_escape(lines, i, rng):
    spots = list(re.finditer(r"\"[^\"\n]*\"|'[^'\n]*'", lines[i]))
    if spots:
        m = rng.choice(spots)
        at = rng.randint(m.start() + 1, m.end() - 1)
        lines[i] = lines[i][:at] + rng.choice(ESCAPES) + lines[i][at:]
    else:
        lines[i] = lines[i] + f'  # "{rng.choice(ESCAPES)}"'


KINDS_FN = {"delete_line": _delete_line, "duplicate_line": _duplicate_line, "swap_lines": _swap_lines,
            "delete_token": _delete_token, "insert_token": _insert_token, "swap_tokens": _swap_tokens,
            "change_operator": _change_operator, "change_number": _change_number, "deep_nesting": _deep_nesting,
            "long_name": _long_name, "string_escape": _string_escape}
# How often each is picked: plain edits most, the heavy ones (deep nesting, bytes) less.
KINDS = (["delete_line", "duplicate_line", "swap_lines", "delete_token", "insert_token", "swap_tokens"] * 3
         + ["change_operator", "change_number"] * 4 + ["deep_nesting", "long_name", "string_escape", "bytes"] * 2)


def mutant(i: int, seed: int, sources: list[Path] = SOURCES) -> tuple[Path, bytes]:
    rng = random.Random(f"{seed}:{i}")
    source = rng.choice(sources)
    return source, mutate(source.read_text(encoding="utf-8"), rng)


# ---------------------------------------------------------------- worker

WORKER = r"""
import json, os, resource, sys, traceback
requests, replies, errors = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
os.environ.setdefault("PYX_NO_CACHE", "1")
# A mutated program may allocate without end: it must fail in its own process, not take the
# machine's memory. (Address space, not memory: the compiler's stage threads reserve large stacks.)
resource.setrlimit(resource.RLIMIT_AS, (16 << 30, 16 << 30))
from pyx.cli import main
from pyx.syntax.parser import _parser
_parser()  # built once here, inherited by every job
inbox = os.fdopen(requests, "r")
outbox = os.fdopen(replies, "w")
null = os.open(os.devnull, os.O_WRONLY)
for line in inbox:
    argv = json.loads(line)
    with open(errors, "w+b") as err:
        # Each job in a child of its own: a program that writes past a raw `Ptr` may corrupt the
        # heap without crashing, and the next job must not die of it.
        pid = os.fork()
        if pid == 0:
            os.dup2(null, 1)  # what the program prints is not looked at (a mutated loop may print for ever)
            os.dup2(err.fileno(), 2)
            try:
                status = main(argv)
            except SystemExit as exc:
                status = exc.code if isinstance(exc.code, int) else 2
            except BaseException:
                traceback.print_exc()
                status = 102
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(status if isinstance(status, int) and 0 <= status < 256 else 102)
        _, wait = os.waitpid(pid, 0)
        size = err.seek(0, 2)
        err.seek(0)
        said = err.read(4000)  # the start (where a diagnostic's `error[` is) and the end (a traceback)
        if size > 8000:
            err.seek(size - 4000)
            said += b"\n...\n"
        said = (said + err.read()).decode("utf-8", "replace")
    if os.WIFSIGNALED(wait):
        reply = {"status": "signal", "signal": os.WTERMSIG(wait), "stderr": said}
    else:
        reply = {"status": os.WEXITSTATUS(wait), "stderr": said}
    outbox.write(json.dumps(reply) + "\n")
    outbox.flush()
"""


class Worker:
    """A Python process running pyx's CLI on request; replaced when it dies or times out."""

    def __init__(self, pythonpath: str | None):
        self.pythonpath = pythonpath
        self.proc = None

    def _start(self):
        to_worker, self._write = os.pipe()
        self._read, from_worker = os.pipe()
        env = dict(os.environ)
        if self.pythonpath:
            env["PYTHONPATH"] = self.pythonpath + os.pathsep + env.get("PYTHONPATH", "")
        handle, self.errors = tempfile.mkstemp(prefix="pyx-mutate-worker-", suffix=".stderr")
        os.close(handle)
        self.proc = subprocess.Popen([sys.executable, "-c", WORKER, str(to_worker), str(from_worker), self.errors],
                                     pass_fds=(to_worker, from_worker), env=env, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                     start_new_session=True)  # its own process group, with its jobs
        os.close(to_worker)
        os.close(from_worker)
        self._buffer = b""

    def stop(self):
        if self.proc is not None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)  # the worker and the job it forked
            except OSError:
                pass
            self.proc.wait()
            os.close(self._write)
            os.close(self._read)
            self.proc = None
            try:
                os.unlink(self.errors)
            except OSError:
                pass

    def call(self, argv: list[str], timeout: float) -> dict:
        """{"status", "stderr"}, or {"status": "hang"} / {"status": "signal", "signal": n}."""
        if self.proc is None or self.proc.poll() is not None:
            self.stop()
            self._start()
        os.write(self._write, (json.dumps(argv) + "\n").encode())
        deadline = time.monotonic() + timeout
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            ready = select.select([self._read], [], [], max(0.0, left))[0] if left > 0 else []
            if not ready:
                self.stop()
                return {"status": "hang"}
            chunk = os.read(self._read, 1 << 16)
            if not chunk:  # the worker died
                code = self.proc.wait()
                try:
                    with open(self.errors, "rb") as f:
                        said = f.read()[-4000:].decode("utf-8", "replace")
                except OSError:
                    said = ""
                self.stop()
                return {"status": "signal", "signal": -code if code < 0 else code, "stderr": said}
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        return json.loads(line)


# ---------------------------------------------------------------- the campaign

@dataclass
class Outcome:
    index: int
    source: str
    category: str
    step: str  # check or run
    detail: str = ""


def classify(reply: dict, step: str) -> tuple[str, str]:
    status = reply["status"]
    if status == "hang":
        return ("hang" if step == "check" else "slow-program"), ""
    if status == "signal":
        said = [line for line in reply.get("stderr", "").splitlines() if line.strip()]
        return "crash", f"signal {reply['signal']}" + (f": {said[-1][:300]}" if said else "")
    err = reply.get("stderr", "")
    first = next((line for line in err.splitlines() if line.strip()), "")
    if status in (101, 102) or "internal compiler error" in err or re.search(r'File ".*/(lang|pyx)/[^"]*\.py"', err):
        return "internal", first[:300]
    if status == 0:
        return "success", ""
    if status == 1 and "error[" in err:
        return "diagnostic", ""
    if status == 1 and step == "run" and err.startswith("Traceback") and ".px\"" in err:
        return "success", "the program raised"  # an uncaught exception of the program, printed as Python does
    return "other", f"exit {status}: {first[:300]}"


def run_one(i: int, seed: int, worker: Worker, workdir: Path, timeouts: tuple[float, float],
            run_sources: set[str], sources: list[Path]) -> Outcome:
    source, data = mutant(i, seed, sources)
    path = workdir / f"m{i:05d}.px"
    path.write_bytes(data)
    try:
        category, detail = classify(worker.call(["check", "--color=never", str(path)], timeouts[0]), "check")
        if category != "success" or source.name not in run_sources:
            return Outcome(i, source.name, category, "check", detail)
        category, detail = classify(worker.call(["run", "--color=never", str(path)], timeouts[1]), "run")
        if category == "crash" and b"Ptr[" in data:
            # A raw `Ptr` misused crashes as in C; --memcheck turns an access out of bounds in GPU
            # code into IndexError, and says where.
            checked = worker.call(["run", "--memcheck", "--color=never", str(path)], timeouts[1])
            said = checked.get("stderr", "").strip().splitlines()
            category, detail = "unsafe", (said[-1] if checked["status"] == 1 and said else detail)
        if category == "slow-program":
            # Was it the compiler or the program? Compiling alone must finish in time.
            compiled, _ = classify(worker.call(["build", "--emit=obj", "-o", str(path.with_suffix(".o")),
                                                str(path)], timeouts[0]), "check")
            if compiled == "hang":
                category = "hang"
        return Outcome(i, source.name, category, "run", detail)
    finally:
        path.unlink(missing_ok=True)
        path.with_suffix(".o").unlink(missing_ok=True)


def quick_sources(pythonpath: str | None, limit: float, sources: list[Path] = SOURCES) -> set[str]:
    """The sources whose own `main` runs within `limit` seconds: mutants of the others are only
    checked (a matrix multiplication of 1024^3 emulated on the CPU takes minutes, mutated or not)."""
    worker, quick = Worker(pythonpath), set()
    try:
        for source in sources:
            reply = worker.call(["run", str(source)], limit)
            if reply["status"] not in ("hang", "signal"):
                quick.add(source.name)
    finally:
        worker.stop()
    return quick


def campaign(count: int, seed: int, jobs: int = 2, pythonpath: str | None = None, check_timeout: float = 30.0,
             run_timeout: float = 10.0, save: Path | None = None, run_sources: set[str] | None = None,
             progress=None, start: int = 0, sources: list[Path] = SOURCES) -> list[Outcome]:
    if run_sources is None:
        run_sources = quick_sources(pythonpath, run_timeout, sources)
    workers = [Worker(pythonpath) for _ in range(jobs)]
    free = list(workers)
    lock = threading.Lock()
    outcomes: list[Outcome] = []
    with tempfile.TemporaryDirectory(prefix="pyx-mutants-") as tmp:
        def task(i):
            with lock:
                worker = free.pop()
            try:
                outcome = run_one(i, seed, worker, Path(tmp), (check_timeout, run_timeout), run_sources, sources)
            finally:
                with lock:
                    free.append(worker)
            if save is not None and outcome.category in FAILURES:
                save.mkdir(parents=True, exist_ok=True)
                (save / f"{i:05d}.px").write_bytes(mutant(i, seed, sources)[1])
            with lock:
                outcomes.append(outcome)
                if progress:
                    progress(outcome, len(outcomes))
            return outcome

        try:
            with ThreadPoolExecutor(jobs) as pool:
                list(pool.map(task, range(start, start + count)))
        finally:
            for w in workers:
                w.stop()
    return sorted(outcomes, key=lambda o: o.index)


def summary(outcomes: list[Outcome]) -> dict:
    counts = Counter(o.category for o in outcomes)
    return {c: counts.get(c, 0) for c in CATEGORIES}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--count", type=int, default=1000)
    p.add_argument("--start", type=int, default=0, help="number of the first mutant (to resume a campaign)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--pythonpath", default=None, help="import pyx from here (e.g. an older checkout)")
    p.add_argument("--check-timeout", type=float, default=30.0)
    p.add_argument("--run-timeout", type=float, default=10.0)
    p.add_argument("--save", type=Path, default=None, help="keep the failing mutants here")
    p.add_argument("--json", type=Path, default=None, help="write every outcome here")
    p.add_argument("--quick-sources", type=Path, default=None,
                   help="a JSON list of the sources whose mutants are also run: read if it exists, else "
                        "found (by running each source) and written, so that two campaigns run the same ones")
    args = p.parse_args(argv)
    run_sources = None
    if args.quick_sources is not None and args.quick_sources.exists():
        run_sources = set(json.loads(args.quick_sources.read_text()))
    elif args.quick_sources is not None:
        run_sources = quick_sources(args.pythonpath, args.run_timeout)
        args.quick_sources.write_text(json.dumps(sorted(run_sources), indent=1))

    def progress(outcome, done):
        if outcome.category in FAILURES:
            print(f"  #{outcome.index} ({outcome.source}, {outcome.step}): {outcome.category} {outcome.detail}",
                  flush=True)
        if done % 100 == 0:
            print(f"{done}/{args.count} done", flush=True)

    started = time.monotonic()
    outcomes = campaign(args.count, args.seed, args.jobs, args.pythonpath, args.check_timeout, args.run_timeout,
                        args.save, run_sources, progress=progress, start=args.start)
    counts = summary(outcomes)
    print(json.dumps({"seed": args.seed, "start": args.start, "count": args.count, "counts": counts,
                      "seconds": round(time.monotonic() - started)}, indent=1))
    if args.json:
        args.json.write_text(json.dumps([asdict(o) for o in outcomes], indent=1))
    return 1 if any(counts[c] for c in FAILURES) else 0


if __name__ == "__main__":
    sys.exit(main())
