"""A kernel's thread loops (ir/gpu_regions.py) are plain counted loops over the block's threads that
LLVM vectorizes across threads (codegen/thread_loops.py marks them parallel), with what lives across
a barrier kept per thread, or once for the block when every thread holds the same value (a
divergence analysis: ir/divergence.py). Each shape here must give what the coroutine scheduler
gives, and what a GPU gives: a value the analysis wrongly took for uniform would show up as the wrong thread's value."""
import re

import pytest
from test_gpu_regions import COROUTINES_ONLY

from helpers import emitted, function_text, run_cli, run_source
from pyx.ir.gpu_regions import region_symbol

SHAPES = """\
@kernel
fn divergent_store(x: Ptr[Int]):
    # Assigned on one side of a branch on the thread's index: not the same in every thread.
    var s = shared_array[Int, 16]()
    var v = 1
    var u = 7
    if thread_idx.x % 3 == 0:
        v = 5
    s[thread_idx.x] = v
    barrier()
    x[thread_idx.x] = v * 100 + s[15 - thread_idx.x] * 10 + u


@kernel
fn divergent_loop(x: Ptr[Int], n: Int):
    # Counted in a loop whose trip count depends on the thread; `step` is the block's.
    var s = shared_array[Int, 16]()
    var count = 0
    var step = 4
    var j = thread_idx.x
    while j < n:
        count += 1
        j += step
    s[thread_idx.x] = count
    barrier()
    x[thread_idx.x] = count * 100 + s[(thread_idx.x + 1) % 16] * 10 + step


@kernel
fn scan(x: Ptr[Int]):
    # Hillis-Steele, as examples/gpu_scan.px: `offset` is the block's, `partial` each thread's.
    var tile = shared_array[Int, 16]()
    var t = thread_idx.x
    tile[t] = x[t]
    barrier()
    var offset = 1
    while offset < 16:
        var partial = tile[t - offset] if t >= offset else 0
        barrier()
        tile[t] += partial
        barrier()
        offset *= 2
    x[t] = tile[t]


@kernel
fn param_per_thread(x: Ptr[Int], var base: Int, var scale: Int):
    # A parameter the kernel assigns from the thread's index, and one it assigns the same way everywhere.
    var s = shared_array[Int, 16]()
    base = base + thread_idx.x
    scale = scale * 2
    s[thread_idx.x] = base
    barrier()
    x[thread_idx.x] = s[15 - thread_idx.x] * scale + base


@kernel
fn after_break(x: Ptr[Int]):
    # A loop left by a `break` some threads take earlier than others: what it assigned differs.
    var s = shared_array[Int, 16]()
    var last = 0
    for k in range(10):
        last = k
        if k * k >= thread_idx.x:
            break
    s[thread_idx.x] = last
    barrier()
    x[thread_idx.x] = last * 10 + s[0]


@kernel
fn two_dims(x: Ptr[Int], w: Int):
    # 2-D blocks: x is the inner thread loop's counter, y the outer's.
    var s = shared_array[Int, 24]()
    var tx = thread_idx.x
    var ty = thread_idx.y
    var row = block_idx.y * 4 + ty
    s[ty * 6 + tx] = row * 1000 + tx
    barrier()
    x[row * w + block_idx.x * 6 + tx] = s[(3 - ty) * 6 + (5 - tx)] + row


fn show(name: String, x: Ptr[Int], n: Int):
    var line = name + ":"
    for i in range(n):
        line += " " + String(x[i])
    print(line)


fn main():
    var x = Ptr[Int].alloc(96)
    launch divergent_store[grid=1, block=16](x)
    show("divergent_store", x, 16)
    launch divergent_loop[grid=1, block=16](x, 13)
    show("divergent_loop", x, 16)
    for i in range(16):
        x[i] = i + 1
    launch scan[grid=1, block=16](x)
    show("scan", x, 16)
    launch param_per_thread[grid=1, block=16](x, 10, 3)
    show("param_per_thread", x, 16)
    launch after_break[grid=1, block=16](x)
    show("after_break", x, 16)
    launch two_dims[grid=(2, 2), block=(6, 4)](x, 12)
    show("two_dims", x, 96)
"""


def _expected() -> dict[str, str]:
    def line(values):
        return " ".join(str(v) for v in values)

    store = [5 if i % 3 == 0 else 1 for i in range(16)]
    counts = [len(range(i, 13, 4)) for i in range(16)]
    last = [next(k for k in range(10) if k * k >= i) if i <= 81 else 9 for i in range(16)]
    grid = [0] * 96
    for by in range(2):
        for bx in range(2):
            for ty in range(4):
                for tx in range(6):
                    row = by * 4 + ty
                    grid[row * 12 + bx * 6 + tx] = (by * 4 + 3 - ty) * 1000 + (5 - tx) + row
    return {
        "divergent_store": line(store[i] * 100 + store[15 - i] * 10 + 7 for i in range(16)),
        "divergent_loop": line(counts[i] * 100 + counts[(i + 1) % 16] * 10 + 4 for i in range(16)),
        "scan": line(sum(range(1, i + 2)) for i in range(16)),
        "param_per_thread": line((10 + 15 - i) * 6 + 10 + i for i in range(16)),
        "after_break": line(last[i] * 10 + last[0] for i in range(16)),
        "two_dims": line(grid),
    }


def test_values_kept_across_barriers_are_each_threads_own_unless_the_same_for_all(tmp_path, monkeypatch):
    monkeypatch.setenv("PYX_NO_CACHE", "1")
    loops = run_source(SHAPES, tmp_path)
    assert loops.status == 0, loops.stderr
    lines = dict(line.split(": ", 1) for line in loops.stdout.splitlines())
    assert lines == _expected()
    assert run_source(SHAPES, tmp_path, "prog.px", COROUTINES_ONLY).stdout == loops.stdout


TILED = """\
comptime TILE = 16


@kernel
fn matmul(a: Ptr[Float32], b: Ptr[Float32], c: Ptr[Float32], n: Int):
    var a_tile = shared_array[Float32, TILE * TILE]()
    var b_tile = shared_array[Float32, TILE * TILE]()
    var tx = thread_idx.x
    var ty = thread_idx.y
    var row = block_idx.y * TILE + ty
    var col = block_idx.x * TILE + tx
    var acc: Float32 = 0.0
    var t = 0
    while t < n:
        a_tile[ty * TILE + tx] = a[row * n + t + tx]
        b_tile[ty * TILE + tx] = b[(t + ty) * n + col]
        barrier()
        for p in range(TILE):
            acc += a_tile[ty * TILE + p] * b_tile[p * TILE + tx]
        barrier()
        t += TILE
    c[row * n + col] = acc


fn main():
    var n = 32
    var a = Ptr[Float32].alloc(n * n)
    var b = Ptr[Float32].alloc(n * n)
    var c = Ptr[Float32].alloc(n * n)
    for i in range(n * n):
        a[i] = Float32(i % 7)
        b[i] = Float32(i % 5)
    launch matmul[grid=(2, 2), block=(TILE, TILE)](a, b, c, n)
    print(c[0], c[n * n - 1])
"""


def _companion(text: str, kernel: str, thunk: bool = False) -> str:
    """The function that runs a block of `kernel` of k.px (its `$regions` companion; in optimized
    LLVM, inlined into the thunk the launch calls)."""
    symbol = region_symbol(f"k.{kernel}")
    return function_text(text, symbol + ".thunk" if thunk else symbol)


def test_the_tiled_matmul_thread_loops_are_vectorized_across_threads(tmp_path):
    llvm = emitted(TILED, tmp_path, "llvm", name="k.px")
    body = _companion(llvm, "matmul", thunk=True)
    # The multiply-add of a tile runs on vectors of threads: `b_tile[p * TILE + tx]` a contiguous load
    # (tx is the loop's counter), `a_tile[ty * TILE + p]` one value for the whole row of threads.
    assert re.search(r"fmul <\d+ x float>", body)
    assert re.search(r"load <\d+ x float>", body)
    # At this small size LLVM vectorizes even unmarked loops (it checks the overlaps itself), so the
    # marks codegen/thread_loops.py puts on the thread loops are looked for too: a loop of the
    # companion whose loop ID lists an access group as parallel.
    metadata = dict(re.findall(r"^(![0-9]+) = (.*)$", llvm, re.M))
    loop_ids = set(re.findall(r"!llvm\.loop (![0-9]+)", body))
    assert any("llvm.loop.parallel_accesses" in metadata.get(operand, "")
               for loop in loop_ids for operand in re.findall(r"![0-9]+", metadata[loop]))
    ran = run_cli("run", str(tmp_path / "k.px"))
    assert ran.stdout == "171.0 188.0\n", ran.stderr


def _polls(ir: str, kernel: str) -> int:
    return _companion(ir, kernel).count("interrupt_poll()")


def test_a_round_polls_for_ctrl_c_once_and_a_spinning_thread_still_polls(tmp_path):
    ir = emitted("""\
@kernel
fn rounds(x: Ptr[Int], n: Int):
    # Loops that pass a barrier, and a range loop: each round polls once, before its thread loop.
    var s = shared_array[Int, 8]()
    var t = 0
    while t < n:
        for k in range(4):
            s[thread_idx.x] += k
        barrier()
        t += 1


@kernel
fn spins(x: Ptr[Int]):
    # A `while` loop without a barrier may never end: it keeps its own poll.
    var s = shared_array[Int, 8]()
    s[thread_idx.x] = 1
    barrier()
    while x[0] != 0:
        x[1] += 1
""", tmp_path, "ir", name="k.px")
    assert _polls(ir, "rounds") == 1
    assert _polls(ir, "spins") > 1


def test_loops_with_prints_or_calls_keep_the_threads_order(tmp_path):
    ir = emitted("""\
fn twice(v: Int) -> Int:
    return 2 * v


@kernel
fn quiet(x: Ptr[Int]):
    var s = shared_array[Int, 8]()
    s[thread_idx.x] = thread_idx.x
    barrier()
    x[thread_idx.x] = s[7 - thread_idx.x]


@kernel
fn prints(x: Ptr[Int]):
    var s = shared_array[Int, 8]()
    s[thread_idx.x] = thread_idx.x
    barrier()
    print("thread", thread_idx.x, s[7 - thread_idx.x])


@kernel
fn calls(x: Ptr[Int]):
    var s = shared_array[Int, 8]()
    s[thread_idx.x] = twice(thread_idx.x)
    barrier()
    x[thread_idx.x] = s[7 - thread_idx.x]


fn main():
    var x = Ptr[Int].alloc(8)
    launch prints[grid=1, block=8](x)
""", tmp_path, "ir", name="k.px")
    # Only loops whose threads may run in any order are marked parallel (and so vectorized).
    assert "gpu.region_parallel" in _companion(ir, "quiet")
    assert "gpu.region_parallel" not in _companion(ir, "prints")
    assert "gpu.region_parallel" not in _companion(ir, "calls")
    ran = run_cli("run", str(tmp_path / "k.px"))
    assert ran.stdout == "".join(f"thread {t} {7 - t}\n" for t in range(8)), ran.stderr


WARPS = """\
fn warp_total(v: Float32) -> Float32:
    # A butterfly in a function the kernel calls: taken into the kernel, each shuffle a wait.
    var s = v
    var offset = 16
    while offset > 0:
        s += shuffle_xor(s, offset)
        offset //= 2
    return s


@kernel
fn kinds(x: Ptr[Int], out: Ptr[Int], k: Int):
    # Every shuffle, by a constant and by a parameter; 40 threads: the second warp has 8 lanes.
    var v = x[thread_idx.x]
    var a = shuffle_xor(v, 1) + shuffle_down(v, k) * 100
    var b = shuffle_up(v, 3) + shuffle_idx(v, k + 33) * 100
    out[thread_idx.x] = a * 100000 + b


@kernel
fn rows(x: Ptr[Float32], out: Ptr[Float32], n: Int):
    # A row sum per warp after a barrier over shared memory (two warps a block).
    var s = shared_array[Float32, 64]()
    var t = thread_idx.x
    s[t] = x[block_idx.x * 64 + t]
    barrier()
    var total = warp_total(s[63 - t])
    out[block_idx.x * 64 + t] = total + Float32(n)


@kernel
fn early(x: Ptr[Int], out: Ptr[Int]):
    # Threads that returned before a shuffle: the coroutines keep this one.
    if thread_idx.x >= 20:
        return
    out[thread_idx.x] = shuffle_up(x[thread_idx.x], 1)


fn show(name: String, x: Ptr[Int], n: Int):
    var line = name + ":"
    for i in range(n):
        line += " " + String(x[i])
    print(line)


fn main():
    var x = Ptr[Int].alloc(40)
    var out = Ptr[Int].alloc(40)
    for i in range(40):
        x[i] = i + 1
    launch kinds[grid=1, block=40](x, out, 2)
    show("kinds", out, 40)
    var f = Ptr[Float32].alloc(128)
    var g = Ptr[Float32].alloc(128)
    for i in range(128):
        f[i] = Float32(i % 9)
    launch rows[grid=2, block=64](f, g, 5)
    var line = String("rows:")
    for i in range(0, 128, 16):
        line += " " + String(g[i])
    print(line)
    for i in range(32):
        out[i] = 0
    launch early[grid=1, block=32](x, out)
    show("early", out, 32)
"""


def _warps_expected() -> dict[str, str]:
    def shuffled(values, lane_of, n):
        out = []
        for t in range(n):
            lane, base = t % 32, t - t % 32
            src = lane_of(lane)
            out.append(values[base + src] if 0 <= src < 32 and base + src < n else values[t])
        return out

    v = [i + 1 for i in range(40)]
    xor1 = shuffled(v, lambda lane: lane ^ 1, 40)
    down = shuffled(v, lambda lane: lane + 2, 40)
    up = shuffled(v, lambda lane: lane - 3, 40)
    idx = shuffled(v, lambda lane: 35 % 32, 40)
    kinds = [(xor1[t] + down[t] * 100) * 100000 + up[t] + idx[t] * 100 for t in range(40)]
    f = [i % 9 for i in range(128)]
    rows = []
    for block in range(2):
        s = [f[block * 64 + t] for t in range(64)]
        for t in range(0, 64, 16):  # every lane of a warp ends with the warp's sum
            warp = t // 32
            rows.append(float(sum(s[63 - u] for u in range(warp * 32, warp * 32 + 32)) + 5))
    early = shuffled(v[:32], lambda lane: lane - 1, 20) + [0] * 12  # (reads no lane that returned)
    return {"kinds": " ".join(map(str, kinds)), "rows": " ".join(map(str, rows)), "early": " ".join(map(str, early))}


def test_shuffles_every_thread_reaches_run_in_the_thread_loops(tmp_path, monkeypatch):
    monkeypatch.setenv("PYX_NO_CACHE", "1")
    ir = emitted(WARPS, tmp_path, "ir", name="k.px")
    for kernel in ("kinds", "rows"):
        assert _companion(ir, kernel)
    with pytest.raises(AssertionError, match="no definition"):
        _companion(ir, "early")
    coroutines_ir = emitted(WARPS, tmp_path, "ir", COROUTINES_ONLY, name="k.px")
    with pytest.raises(AssertionError, match="no definition"):  # (what the run below is compared with)
        _companion(coroutines_ir, "kinds")
    loops = run_source(WARPS, tmp_path)
    assert loops.status == 0, loops.stderr
    assert dict(line.split(": ", 1) for line in loops.stdout.splitlines()) == _warps_expected()
    assert run_source(WARPS, tmp_path, "prog.px", COROUTINES_ONLY).stdout == loops.stdout
