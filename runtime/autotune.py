"""The loader's half of `@autotune`: which candidate runs, timed how, and what is remembered.

An `@autotune` dispatcher (syntax/autotune.py) asks `__pyx_autotune_step(descriptor, bucket, ran)`
before and after each run (codegen/autotune_hook.py), and a `Tuner` attached to the program
answers through the exported `__pyx_autotune_hook`:

- a choice known for this function and size bucket (in this process, or in the tuning cache
  for this machine) is answered at once: `-1 - choice`, the call's own run, nothing timed;
- otherwise the call's own arguments are the benchmark: the candidates run in rounds, in their
  declaration order (every candidate once per round, so a drift in the machine's speed is
  shared), each run timed from the answer that started it to the question that ended it. The
  rounds stop once half the `budget` (seconds) is spent after `MIN_ROUNDS`, or the whole budget
  after one round (every candidate runs at least once), or after `MAX_ROUNDS`; a candidate whose
  best run is over `PRUNE` times the best one's leaves after the second round (the first runs
  may meet cold caches). Where another candidate than the default leads at the end (and the
  budget is not spent), the two run alternately `CONFIRM` more times each before the choice. A
  candidate's time is its fastest run (noise only adds to a time);
- `choose` is the rule: the first candidate in declaration order whose time is within
  `tolerance` of the fastest: 3%, or the machine's noise in this timing where that is more
  (`noise`: the median gap between a candidate's two fastest runs). Ties go to the hand-picked
  default (candidate 0, the first value of every list), so a loaded machine does not move the
  choice off it on noise alone, and the same timings always give the same choice;
- the winner then runs once more as the call itself, so what the call leaves in its outputs is
  the chosen candidate's.

Choices are kept in one file per program and machine, beside the compiled code
(`<stem>.<key>.pyxtune` in the module's cache folder), sealed with this user's key and read
through the cache's trusted reads like every entry (runtime/cache.py): a file planted by
anyone else never verifies, and is a miss. The key hashes the program's path and text, the
compiler, and the machine (what the OS says about the CPU: model and feature flags, as
runtime/native.py's host fingerprint; and the threads the pool runs): another machine, an
edited kernel or a new compiler tunes again.

The timer is `clock` (`time.perf_counter`) unless one is given; a fake one may read `running`,
the candidate whose run the reading being taken starts (None for the reading that ends a run),
to say how long each candidate takes (tests/cli/test_autotune.py).
"""
from __future__ import annotations

import ctypes
import json
import os
import sys
import threading
import time
from pathlib import Path

from . import cache

HOOK_GLOBAL = "__pyx_autotune_hook"  # codegen/autotune_hook.py
MEMO_GLOBAL, MEMO_BYTES = "__pyx_autotune_memo", 64 * 16  # the answers it remembers (64 slots of 2 words)
KIND = "autotune 1"  # what the tuning file's keyed checksum binds
SUFFIX = ".pyxtune"
TOLERANCE = 0.03
MIN_ROUNDS = 3
MAX_ROUNDS = 9
PRUNE = 1.5
CONFIRM = 5
DEFAULT_BUDGET = 2.0  # seconds of timed runs per function and size bucket (PYX_AUTOTUNE_BUDGET)

clock = time.perf_counter
STEP = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_char_p, ctypes.c_int64, ctypes.c_int64)


def choose(times: list[float | None], tolerance: float = TOLERANCE) -> int:
    """The first candidate (declaration order) whose time is within `tolerance` of the fastest;
    None is a candidate never timed."""
    timed = [t for t in times if t is not None]
    if not timed:
        return 0
    best = min(timed)
    return next(i for i, t in enumerate(times) if t is not None and t <= best * (1 + tolerance))


def noise(runs: list[list[float]]) -> float:
    """How much the machine's timings wander: the median, over the candidates run twice or more, of
    the gap between a candidate's two fastest runs relative to its fastest (0 with fewer runs).
    Two candidates closer than this are a tie: a loaded machine widens the tie to its noise."""
    gaps = []
    for r in runs:
        if len(r) >= 2:
            first, second = sorted(r)[:2]
            gaps.append((second - first) / first if first > 0 else 0.0)
    if not gaps:
        return 0.0
    gaps.sort()
    return gaps[len(gaps) // 2]


class Descriptor:
    """What a dispatcher says about itself: `name|P,Q|p0,q0;p1,q1;...|m,n,k`."""

    def __init__(self, name: str, params: list[str], candidates: list[list[int]], sizes: list[str]):
        self.name, self.params, self.candidates, self.sizes = name, params, candidates, sizes

    @staticmethod
    def parse(text: str) -> Descriptor:
        name, params, candidates, sizes = text.split("|")
        return Descriptor(name, params.split(","), [[int(v) for v in c.split(",")] for c in candidates.split(";")],
                          sizes.split(",") if sizes else [])

    def label(self, i: int) -> str:
        return ", ".join(f"{p}={v}" for p, v in zip(self.params, self.candidates[i], strict=True))

    def bucket_text(self, bucket: int) -> str:
        """The sizes a bucket holds: `m in [512, 1024)` for each Int argument (bit length b: [2^(b-1), 2^b))."""
        parts = []
        for i, name in enumerate(self.sizes):
            bits = (bucket >> (6 * i)) & 63
            parts.append(f"{name} = 0" if bits == 0 else f"{name} in [{1 << (bits - 1)}, {1 << bits})")
        return ", ".join(parts) or "any size"


class Session:
    """The timing of one function at one size bucket."""

    def __init__(self, count: int):
        self.count = count
        self.runs: list[list[float]] = [[] for _ in range(count)]  # each candidate's run times
        self.alive = list(range(count))  # the candidates still timed
        self.order: list[int] = []  # what is left of the current round
        self.rounds = 0
        self.spent = 0.0
        self.started_at = 0.0
        self.confirming = False  # the head-to-head of the default and the provisional winner

    def best(self) -> list[float | None]:
        return [min(r) if r else None for r in self.runs]


class Result:
    """A choice: the candidate, every candidate's time (None: not timed), how many runs each had,
    whether it came from the cache, and what counted as a tie."""

    def __init__(self, descriptor: str, bucket: int, choice: int, times: list[float | None], runs: list[int],
                 cached: bool = False, tolerance: float = TOLERANCE):
        self.descriptor, self.bucket, self.choice, self.times = descriptor, bucket, choice, times
        self.runs, self.cached, self.tolerance = runs, cached, tolerance


def machine_key() -> str:
    """This machine as a tuning result depends on it: the CPU (model, features) and the threads."""
    import llvmlite

    from .native import machine_fingerprint
    from .pool import available_threads

    return f"{machine_fingerprint(llvmlite.__version__) or os.uname().machine}/threads={available_threads()}"


class Tuner:
    """Answers the dispatchers of one loaded program (see the module's docstring)."""

    def __init__(self, source: Path | None, text: str = "", *, timer=None, machine: str | None = None,
                 budget: float | None = None, force: bool = False, tolerance: float = TOLERANCE,
                 target: str = "cpu"):
        self.source = Path(source).resolve() if source is not None else None
        self.text = text
        self.timer = timer if timer is not None else clock
        self.running: int | None = None  # the candidate whose run the clock reading being taken starts
        self.machine = machine if machine is not None else machine_key()
        if budget is None:
            try:
                budget = float(os.environ.get("PYX_AUTOTUNE_BUDGET", DEFAULT_BUDGET))
            except ValueError:
                budget = DEFAULT_BUDGET
        self.budget = budget
        self.force = force  # `pyx tune`: time again whatever is cached
        self.target = target  # where kernels run ("cpu", "cuda", "opencl"): a choice holds for one
        self.tolerance = tolerance
        self.known: dict[tuple[str, int], Result] = {}
        self.sessions: dict[tuple[str, int], Session] = {}
        self.results: list[Result] = []  # in the order they were settled (`pyx tune` prints them)
        self.asked = 0
        self._stored: dict | None = None
        self.saved_to: Path | None = None  # where the last choice was written
        self._lock = threading.Lock()
        self._callback = STEP(self._step)  # kept alive as long as the tuner

    # ---- the cache file ----
    def _key(self) -> str:
        return cache.cache_key("autotune", str(self.source), cache.file_digest(self.text), self.machine, self.target)

    def path(self) -> Path | None:
        if self.source is None:
            return None
        return cache.cache_dir_for(self.source) / f"{self.source.stem}.{self._key()[:20]}{SUFFIX}"

    def _load(self) -> dict:
        if self._stored is None:
            self._stored = {}
            path = self.path()
            if path is not None and not os.environ.get("PYX_NO_CACHE"):
                payload = cache.unseal(cache.read_trusted(path), KIND, self._key(), path)
                try:
                    data = json.loads(payload) if payload is not None else {}
                except ValueError:
                    data = {}
                self._stored = data if isinstance(data, dict) else {}
        return self._stored

    def _save(self, result: Result) -> None:
        path = self.path()
        if path is None or os.environ.get("PYX_NO_CACHE"):
            return
        stored = self._load()
        stored.setdefault(result.descriptor, {})[str(result.bucket)] = {"choice": result.choice,
                                                                       "times": result.times}
        payload = json.dumps(stored, sort_keys=True).encode()
        try:
            cache.write_atomic(path, cache.seal(KIND, self._key(), payload))
            self.saved_to = path
        except OSError:
            pass  # an unwritable cache only means tuning again next time

    def _cached(self, descriptor: str, bucket: int, count: int) -> Result | None:
        if self.force:
            return None
        entry = self._load().get(descriptor, {}).get(str(bucket))
        if not isinstance(entry, dict):
            return None
        choice = entry.get("choice")
        if not isinstance(choice, int) or not 0 <= choice < count:
            return None
        saved = entry.get("times")
        times: list[float | None] = list(saved) if isinstance(saved, list) else []
        return Result(descriptor, bucket, choice, times, [], cached=True)

    # ---- the step ----
    def _step(self, descriptor: bytes, bucket: int, ran: int) -> int:
        try:
            return self.step(descriptor.decode(), bucket, ran)
        except BaseException as exc:  # noqa: BLE001 - an exception cannot cross into compiled code
            print(f"pyx: autotune: {type(exc).__name__}: {exc}; running the first candidate", file=sys.stderr)
            return -1

    def step(self, descriptor: str, bucket: int, ran: int) -> int:
        """The answer to a dispatcher (codegen/autotune_hook.py): a candidate to time (>= 0), or
        `-1 - c` to run candidate c as the call itself."""
        self.running = None  # (this reading ends a run; a fake timer advances on the reading that starts one)
        now = self.timer()
        with self._lock:
            self.asked += 1
            key = (descriptor, bucket)
            known = self.known.get(key)
            if known is not None:
                return -1 - known.choice
            parsed = Descriptor.parse(descriptor)
            count = len(parsed.candidates)
            session = self.sessions.get(key)
            if session is None or ran < 0:
                cached = self._cached(descriptor, bucket, count)
                if cached is not None:
                    self.known[key] = cached
                    self.results.append(cached)
                    return -1 - cached.choice
                session = self.sessions[key] = Session(count)
            else:
                elapsed = now - session.started_at
                session.runs[ran].append(elapsed)
                session.spent += elapsed
            nxt = self._next(session)
            if nxt is None:
                del self.sessions[key]
                times = session.best()
                tolerance = max(self.tolerance, noise(session.runs))
                result = Result(descriptor, bucket, choose(times, tolerance), times,
                                [len(r) for r in session.runs], tolerance=tolerance)
                self.known[key] = result
                self.results.append(result)
                self._save(result)
                return -1 - result.choice
            self.running = nxt
            session.started_at = self.timer()
            return nxt

    def _next(self, s: Session) -> int | None:
        """The next candidate to run, or None when the timing is done."""
        if not s.order:
            if s.confirming:
                return None
            if s.rounds > 0:
                best = [t for t in s.best() if t is not None]
                if s.rounds == 2 and best:  # far slower than the best after two rounds (the first may be cold)
                    fastest = min(best)
                    s.alive = [i for i in s.alive if s.runs[i] and min(s.runs[i]) <= fastest * PRUNE]
                if s.rounds >= MAX_ROUNDS or (s.rounds >= MIN_ROUNDS and s.spent >= self.budget / 2) \
                        or s.spent >= self.budget or (len(s.alive) == 1 and s.rounds >= 2):
                    # Before the default loses its place, it and the provisional winner run
                    # alternately `CONFIRM` more times each (a loaded machine's noise fools a few
                    # rounds of many candidates more easily than a longer head-to-head).
                    winner = choose(s.best(), max(self.tolerance, noise(s.runs)))
                    if winner == 0 or 0 not in s.alive or s.spent >= self.budget:
                        return None
                    s.confirming = True
                    s.order = [0, winner] * CONFIRM
                    return s.order.pop(0)
            s.rounds += 1
            s.order = list(s.alive)
        return s.order.pop(0)

    # ---- the program ----
    def attach(self, program) -> bool:
        """Answer `program`'s dispatchers; False when it has none."""
        address = program.global_address(HOOK_GLOBAL)
        if not address:
            return False
        memo = program.global_address(MEMO_GLOBAL)
        if memo:  # answers another tuner gave (this library loaded before, in this process)
            ctypes.memset(memo, 0, MEMO_BYTES)
        ctypes.c_void_p.from_address(address).value = ctypes.cast(self._callback, ctypes.c_void_p).value
        return True

    def table(self) -> str:
        """What `pyx tune` prints: for each function and size bucket, every candidate's time."""
        lines = []
        for r in self.results:
            d = Descriptor.parse(r.descriptor)
            lines.append(f"{d.name} for {d.bucket_text(r.bucket)}:" + (" (cached)" if r.cached else
                                                                        f" (ties within {r.tolerance:.0%})"))
            width = max(len(d.label(i)) for i in range(len(d.candidates)))
            for i in range(len(d.candidates)):
                t = r.times[i] if i < len(r.times) else None
                runs = r.runs[i] if i < len(r.runs) else 0
                shown = f"{t * 1000:10.3f} ms  best of {runs}" if t is not None else f"{'-':>10}     not timed"
                if t is not None and runs == 0:
                    shown = f"{t * 1000:10.3f} ms"
                mark = "  <- chosen" if i == r.choice else ""
                lines.append(f"  {d.label(i):<{width}}  {shown}{mark}")
        return "\n".join(lines)


_attached: list[Tuner] = []  # tuners of programs this process loaded (their callbacks must live)


def attach(program, source: Path | str | None, text: str | None = None, tuner: Tuner | None = None,
           target: str = "cpu") -> Tuner | None:
    """Give a loaded program with `@autotune` dispatchers a tuner (a new one unless given), for
    kernels launched on `target`."""
    if not program.global_address(HOOK_GLOBAL):
        return None
    if tuner is None:
        if text is None and source is not None:
            try:  # the text the compile cache's key hashes (quick_run.source_text)
                text = Path(source).read_bytes().decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
            except (OSError, ValueError):
                text = ""
            text = text.removeprefix("\ufeff")
        tuner = Tuner(Path(source) if source is not None else None, text or "", target=target)
    tuner.target = target
    tuner.attach(program)
    _attached.append(tuner)
    return tuner
