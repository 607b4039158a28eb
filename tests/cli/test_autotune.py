"""`@autotune` and `pyx tune` (syntax/autotune.py, codegen/autotune_hook.py, runtime/autotune.py):
the choice follows the measured timings by a fixed rule, is kept per machine beside the compiled
code, and is made again on another machine; `pyx tune` prints every candidate's time.

Timings come from a fake clock: each run of candidate i takes COSTS[i] seconds. The program
counts how often its tuned function ran, so a test sees whether it was timed again."""
import os
import shutil
import subprocess

import pytest

from helpers import import_source, run_cli
from pyx.runtime import autotune, cache

PROGRAM = """
@autotune(W=[4, 8, 16])
fn fill[W: Int](out: Ptr[Int], calls: Ptr[Int], n: Int):
    calls[0] += 1
    out[0] = n * W


fn main():
    var out = Ptr[Int].alloc(1)
    var calls = Ptr[Int].alloc(1)
    calls[0] = 0
    fill(out, calls, 1000)
    print("result", out[0], "runs", calls[0])
    calls[0] = 0
    fill(out, calls, 1001)  # the same size bucket: the choice is made
    print("again", out[0], "runs", calls[0])
    fill[16](out, calls, 1000)  # one instance, named: never tuned
    print("named", out[0])
"""


class FakeClock:
    """A clock whose time moves only while a candidate runs: by COSTS[i] for candidate i (or, for
    a list, by its k-th item for the candidate's k-th run, the last item from then on)."""

    def __init__(self, costs):
        self.costs = costs
        self.now = 0.0
        self.runs = [0] * len(costs)

    def __call__(self):
        reading = self.now
        running = autotune._attached[-1].running  # the candidate whose run this reading starts
        if running is not None:
            cost = self.costs[running]
            if isinstance(cost, list):
                cost = cost[min(self.runs[running], len(cost) - 1)]
            self.runs[running] += 1
            self.now += cost
        return reading


@pytest.fixture()
def program(tmp_path, monkeypatch):
    monkeypatch.setenv("PYX_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(autotune, "machine_key", lambda: "machine A")
    path = tmp_path / "tuned.px"
    path.write_text(PROGRAM)

    def run(costs, *command):
        monkeypatch.setattr(autotune, "clock", FakeClock(costs))
        result = run_cli(*(command or ("run",)), str(path))
        assert result.status == 0, result.stderr
        return result.stdout
    return run


def runs(stdout: str) -> int:
    return int(stdout.splitlines()[0].split()[-1])


def test_the_rule_is_the_first_candidate_within_three_percent_of_the_fastest():
    assert autotune.choose([1.0, 0.5, 0.7]) == 1
    assert autotune.choose([1.02, 1.0, 3.0]) == 0  # a tie within noise: the hand-picked default
    assert autotune.choose([2.0, 1.0, 1.01]) == 1  # ... and otherwise the first listed of those tied
    assert autotune.choose([None, 2.0, 1.0]) == 2  # (None: a candidate never timed)
    assert autotune.choose([None, None]) == 0


def test_a_noisy_machine_widens_the_tie():
    # Each candidate's two fastest runs 20% apart: a 10% lead is within the noise, a 30% one is not.
    assert autotune.noise([[1.0, 1.2, 1.5], [0.9, 1.08], [2.0]]) == pytest.approx(0.2)
    assert autotune.noise([[1.0], [2.0]]) == 0.0
    assert autotune.choose([1.0, 0.9], autotune.noise([[1.0, 1.2], [0.9, 1.08]])) == 0
    assert autotune.choose([1.0, 0.7], autotune.noise([[1.0, 1.2], [0.7, 0.84]])) == 1


def test_the_choice_follows_the_timings_and_the_calls_after_it_run_it_at_once(program):
    out = program([3e-3, 1e-3, 2e-3])
    assert out.splitlines()[0].startswith("result 8000 runs ")  # W=8, the fastest
    assert runs(out) > 3  # every candidate ran on the call's arguments, the winner last
    assert out.splitlines()[1:] == ["again 8008 runs 1", "named 16000"]


def test_a_tie_within_noise_keeps_the_default(program):
    assert program([1.02e-3, 1e-3, 5e-3]).startswith("result 4000 ")


def test_the_default_loses_its_place_only_after_a_head_to_head(program):
    # The default is slowed (1.2 ms) through the rounds, then runs at its real 1.0 ms: the
    # head-to-head with the provisional winner (0.98 ms) finds them tied, and the default stays.
    assert program([[1.2e-3] * 9 + [1.0e-3], 0.98e-3, 5e-3]).startswith("result 4000 ")
    # A lead that holds in the head-to-head wins.
    assert program([[1.2e-3] * 9 + [1.1e-3], 0.98e-3, 5e-3], "tune").startswith("result 8000 ")


def test_the_same_timings_make_the_same_choice(program):
    first = program([2e-3, 2.5e-3, 1.5e-3], "tune")
    second = program([2e-3, 2.5e-3, 1.5e-3], "tune")
    assert first == second
    assert first.startswith("result 16000 ")


def test_the_choice_is_cached_and_reused_by_the_next_run(program, tmp_path):
    first = program([3e-3, 1e-3, 2e-3])
    assert runs(first) > 1
    (saved,) = (tmp_path / "cache").glob("tuned.*.pyxtune")
    assert saved in cache.entries(tmp_path / "cache")  # `pyx cache info` counts it, `clear` removes it
    # The next run (a new tuner, as a new process has) finds the choice: one run, no timing,
    # even though the clock now says another candidate would be faster.
    assert program([1e-3, 3e-3, 2e-3]).splitlines()[0] == "result 8000 runs 1"


def test_another_machine_tunes_again(program, tmp_path, monkeypatch):
    assert program([3e-3, 1e-3, 2e-3]).startswith("result 8000 ")
    monkeypatch.setattr(autotune, "machine_key", lambda: "machine B")
    out = program([1e-3, 3e-3, 2e-3])
    assert out.startswith("result 4000 ") and runs(out) > 1
    assert len(list((tmp_path / "cache").glob("tuned.*.pyxtune"))) == 2  # one per machine
    monkeypatch.setattr(autotune, "machine_key", lambda: "machine A")
    assert program([1e-3, 3e-3, 2e-3]).splitlines()[0] == "result 8000 runs 1"  # A's choice, kept


def test_a_tuning_file_someone_changed_is_not_believed(program, tmp_path):
    program([3e-3, 1e-3, 2e-3])
    (saved,) = (tmp_path / "cache").glob("tuned.*.pyxtune")
    saved.write_bytes(saved.read_bytes().replace(b'"choice": 1', b'"choice": 2'))  # the checksum no longer holds
    out = program([3e-3, 1e-3, 2e-3])
    assert out.startswith("result 8000 ") and runs(out) > 1  # timed again, not W=16


def test_the_timing_stops_when_the_budget_is_spent(program):
    # Each run takes 10 s of the 2 s budget: every candidate runs once, then the call itself.
    assert program([10.0, 10.0, 10.0]).splitlines()[0] == "result 4000 runs 4"


def test_pyx_tune_times_again_and_prints_the_table(program, tmp_path):
    program([3e-3, 1e-3, 2e-3])  # cached: W=8
    out = program([1e-3, 5e-3, 4e-3], "tune")  # `pyx tune` does not use what is cached
    lines = out.splitlines()
    assert lines[0].startswith("result 4000 runs ")
    assert lines[1:3] == ["again 4004 runs 1", "named 16000"]
    assert lines[3:7] == [
        "fill for n in [512, 1024): (ties within 3%)",
        "  W=4        1.000 ms  best of 2  <- chosen",
        "  W=8        5.000 ms  best of 2",
        "  W=16       4.000 ms  best of 2",
    ]
    assert lines[7].startswith(f"saved for this machine in {tmp_path / 'cache'}")
    assert program([5e-3, 1e-3, 1e-3]).splitlines()[0] == "result 4000 runs 1"  # what `pyx tune` chose


def test_pyx_tune_of_a_file_without_autotune_is_E0907(tmp_path):
    path = tmp_path / "plain.px"
    path.write_text("fn main():\n    print(1)\n")
    result = run_cli("tune", "--color=never", str(path))
    assert result.status == 1
    assert "error[E0907]" in result.stderr and result.stdout == ""


def test_pyx_tune_of_a_program_that_calls_no_tuned_function_is_E0908(tmp_path, monkeypatch):
    monkeypatch.setenv("PYX_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "untuned.px"
    path.write_text(PROGRAM.split("fn main():")[0] + "fn main():\n    print(1)\n")
    result = run_cli("tune", "--color=never", str(path))
    assert result.status == 1
    assert "error[E0908]" in result.stderr and result.stdout == "1\n"


def test_python_callers_get_the_tuned_choice(tmp_path, monkeypatch):
    np = pytest.importorskip("numpy")
    monkeypatch.setattr(autotune, "machine_key", lambda: "machine A")
    monkeypatch.setattr(autotune, "clock", FakeClock([3e-3, 2e-3, 1e-3]))
    m = import_source("tuned_for_python", PROGRAM.split("fn main():")[0] + (
        "fn fill_tuned(out: Ptr[Int], calls: Ptr[Int], n: Int):\n    fill(out, calls, n)\n"), tmp_path, monkeypatch)
    out, calls = np.zeros(1, np.int64), np.zeros(1, np.int64)
    m.fill_tuned(out, calls, 1000)
    assert out[0] == 16000 and calls[0] > 3
    calls[0] = 0
    m.fill_tuned(out, calls, 1000)
    assert out[0] == 16000 and calls[0] == 1
    # The module remembers the answer (codegen/autotune_hook.py): later calls ask Python nothing.
    asked = autotune._attached[-1].asked
    for _ in range(10):
        m.fill_tuned(out, calls, 1000)
    assert autotune._attached[-1].asked == asked


@pytest.mark.skipif(shutil.which("cc") is None and shutil.which("gcc") is None, reason="no C compiler to link")
def test_an_executable_runs_the_default_untimed(tmp_path):
    path = tmp_path / "tuned.px"
    path.write_text(PROGRAM)
    exe = tmp_path / "tuned"
    built = run_cli("build", "--emit=exe", str(path), "-o", str(exe))
    assert built.status == 0, built.stderr
    done = subprocess.run([str(exe)], capture_output=True, text=True, env={**os.environ})
    # No loader answers its dispatcher: candidate 0 (the first of each list), run once.
    assert done.stdout.splitlines()[:2] == ["result 4000 runs 1", "again 4004 runs 1"]


@pytest.mark.gpu
def test_pyx_tune_times_the_tiled_kernel_on_the_gpu(tmp_path, monkeypatch):
    from helpers import ROOT
    from pyx.runtime import cuda

    if not cuda.available():
        pytest.skip("no NVIDIA GPU, driver or cuda-python here")
    monkeypatch.setenv("PYX_CACHE_DIR", str(tmp_path / "cache"))
    result = run_cli("tune", "--target=cuda", str(ROOT / "examples" / "autotune_matmul.px"))
    assert result.status == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[:3] == ["serial: 0 wrong of 5025", "parallel: 0 wrong of 5025", "tiled kernel: 0 wrong of 5025"]
    at = next(i for i, line in enumerate(lines) if line.startswith("gpu_matmul_tuned for m in [64, 128), "))
    assert [line.split()[0] for line in lines[at + 1:at + 4]] == ["TILE=16", "TILE=8", "TILE=32"]
    assert sum("<- chosen" in line for line in lines[at + 1:at + 4]) == 1
