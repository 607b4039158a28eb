"""Kernels with barriers run on the CPU as loops over the block's threads (ir/gpu_regions.py): each
barrier-free region of the kernel is a loop over the threads, what lives across a barrier is kept
per thread. They must give what the coroutine scheduler gives (the same program compiled without
the `gpu_regions` pass) for every shape of region: a barrier at the top level, in a loop whose trip
count is the block's, in nested loops, after an early return, and with shared memory, indices,
parameters, exceptions and --memcheck."""
import pytest

from helpers import run_source

SHAPES = """\
@kernel
fn reverse(x: Ptr[Int], n: Int):
    # One barrier at the top level: each thread reads what another wrote.
    var s = shared_array[Int, 64]()
    var i = thread_idx.x
    s[i] = x[block_idx.x * 64 + i]
    barrier()
    x[block_idx.x * 64 + i] = s[63 - i] * 10 + block_idx.x


@kernel
fn tiled(a: Ptr[Int], b: Ptr[Int], c: Ptr[Int], m: Int, n: Int, k: Int):
    # Barriers in a loop whose trip count is the same for the whole block (2-D blocks, ragged edges).
    var at = shared_array[Int, 16]()
    var bt = shared_array[Int, 16]()
    var tx = thread_idx.x
    var ty = thread_idx.y
    var row = block_idx.y * 4 + ty
    var col = block_idx.x * 4 + tx
    var acc = 0
    var t = 0
    while t < k:
        at[ty * 4 + tx] = a[row * k + t + tx] if row < m and t + tx < k else 0
        bt[ty * 4 + tx] = b[(t + ty) * n + col] if t + ty < k and col < n else 0
        barrier()
        for p in range(4):
            acc += at[ty * 4 + p] * bt[p * 4 + tx]
        barrier()
        t += 4
    if row < m and col < n:
        c[row * n + col] = acc


@kernel
fn nested(x: Ptr[Int], out: Ptr[Int], rounds: Int):
    # A tree reduction (a barrier in the inner loop) repeated in an outer loop, with a barrier between.
    var s = shared_array[Int, 32]()
    var i = thread_idx.x
    var total = 0
    for r in range(rounds):
        s[i] = x[i] * (r + 1)
        barrier()
        var stride = 16
        while stride > 0:
            if i < stride:
                s[i] += s[i + stride]
            barrier()
            stride //= 2
        total += s[0]
        barrier()
    out[i] = total


@kernel
fn early(x: Ptr[Int], n: Int):
    # Threads past the end return before the barrier: the others do not wait for them.
    var s = shared_array[Int, 32]()
    var i = thread_idx.x
    if i >= n:
        return
    s[i] = i * i
    barrier()
    x[i] = s[n - 1 - i]


@kernel
fn fresh_shared(out: Ptr[Int]):
    # Shared memory starts zeroed in every block (on the CPU), whatever the last block left there.
    var s = shared_array[Int, 8]()
    var i = thread_idx.x
    var before = s[(i + 1) % 8]
    barrier()
    s[i] = block_idx.x + 100
    barrier()
    out[block_idx.x * 8 + i] = before * 1000 + s[(i + 1) % 8]


@kernel
fn indices(out: Ptr[Int], n: Int):
    # Each thread's indices after a barrier are its own (a 3-D block of odd sizes).
    var before = thread_idx.x + 10 * thread_idx.y + 100 * thread_idx.z
    barrier()
    var linear = (thread_idx.z * block_dim.y + thread_idx.y) * block_dim.x + thread_idx.x
    var at = block_idx.x * block_dim.x * block_dim.y * block_dim.z + linear
    if at < n:
        out[at] = before * 1000 + thread_idx.x + 10 * thread_idx.y + 100 * thread_idx.z


fn twice(v: Int) -> Int:
    return v * 2


@kernel
fn param_changes(x: Ptr[Int], var k: Int):
    # A parameter each thread changes, kept across the barrier per thread; a device function call.
    var s = shared_array[Int, 16]()
    k += thread_idx.x
    s[thread_idx.x] = twice(k)
    barrier()
    x[thread_idx.x] = s[15 - thread_idx.x] + k


@kernel
fn fails(x: Ptr[Int], d: Int):
    var s = shared_array[Int, 16]()
    s[thread_idx.x] = thread_idx.x
    barrier()
    x[thread_idx.x] = 100 // (s[thread_idx.x] - d)


fn show(name: String, x: Ptr[Int], n: Int):
    var line = name + ":"
    for i in range(n):
        line += " " + String(x[i])
    print(line)


fn main():
    var x = Ptr[Int].alloc(4096)
    for i in range(128):
        x[i] = i
    launch reverse[grid=2, block=64](x, 128)
    show("reverse", x, 128)

    var m = 7
    var n = 9
    var k = 11
    var a = Ptr[Int].alloc(m * k)
    var b = Ptr[Int].alloc(k * n)
    var c = Ptr[Int].alloc(m * n)
    for i in range(m * k):
        a[i] = i % 7 - 3
    for i in range(k * n):
        b[i] = i % 5 - 2
    launch tiled[grid=((n + 3) // 4, (m + 3) // 4), block=(4, 4)](a, b, c, m, n, k)
    var wrong = 0
    for i in range(m):
        for j in range(n):
            var expected = 0
            for p in range(k):
                expected += a[i * k + p] * b[p * n + j]
            if c[i * n + j] != expected:
                wrong += 1
    print("tiled wrong:", wrong)
    show("tiled", c, m * n)

    var out = Ptr[Int].alloc(64)
    for i in range(32):
        x[i] = i
    launch nested[grid=1, block=32](x, out, 3)
    show("nested", out, 32)

    for i in range(32):
        x[i] = -1
    launch early[grid=1, block=32](x, 20)
    show("early", x, 32)

    var fs = Ptr[Int].alloc(32)
    launch fresh_shared[grid=4, block=8](fs)
    show("fresh_shared", fs, 32)

    var ids = Ptr[Int].alloc(200)
    launch indices[grid=2, block=(3, 5, 7)](ids, 200)
    show("indices", ids, 200)

    launch param_changes[grid=1, block=16](x, 5)
    show("param_changes", x, 16)

    try:
        launch fails[grid=1, block=16](x, 7)
    except ZeroDivisionError as e:
        print("fails:", e)
    show("after fails", x, 16)
"""

EXPECTED = {
    "reverse": " ".join(str((64 * (i // 64) + 63 - i % 64) * 10 + i // 64) for i in range(128)),
    "tiled wrong": "0",
    "nested": " ".join(["2976"] * 32),  # (0 + ... + 31) * (1 + 2 + 3)
    "early": " ".join([str((19 - i) ** 2) for i in range(20)] + ["-1"] * 12),
    "fresh_shared": " ".join(str(100 + b) for b in range(4) for _ in range(8)),
    "indices": " ".join([str((x + 10 * y + 100 * z) * 1001) for _ in range(2) for z in range(7) for y in range(5)
                         for x in range(3)][:200]),
    "param_changes": " ".join(str(45 - i) for i in range(16)),  # k = 5 + i; 2 * (5 + 15 - i) + k
    "fails": "integer division or modulo by zero",
}

MORE_SHAPES = """\
@fieldwise_init
struct Pair:
    var a: Int
    var b: Float64


@kernel
fn both_arms(x: Ptr[Int], flag: Int):
    # A barrier in each arm of a branch the whole block takes the same way.
    var s = shared_array[Int, 8]()
    var i = thread_idx.x
    if flag > 0:
        s[i] = i + 100
        barrier()
        x[i] = s[7 - i]
    else:
        s[i] = i + 200
        barrier()
        x[i] = s[(i + 1) % 8]


@kernel
fn breaks(x: Ptr[Int], limit: Int):
    # `break` and `continue` around a barrier in a loop: every thread leaves at the same step.
    var s = shared_array[Int, 8]()
    var i = thread_idx.x
    var step = 0
    var seen = 0
    while True:
        step += 1
        if step % 2 == 0:
            continue
        s[i] = step * 10 + i
        barrier()
        seen += s[(i + step) % 8]
        barrier()
        if step >= limit:
            break
    x[i] = seen


@kernel
fn structs(x: Ptr[Float64]):
    # A struct value kept across a barrier.
    var s = shared_array[Float64, 8]()
    var p = Pair(thread_idx.x, Float64(thread_idx.x) * 0.5)
    s[p.a] = p.b
    barrier()
    x[p.a] = s[7 - p.a] + Float64(p.a) * 1000.0


@kernel
fn guarded(x: Ptr[Int], d: Int):
    # A barrier inside `try`; the handler runs after it, in the thread that raised.
    var s = shared_array[Int, 8]()
    var i = thread_idx.x
    try:
        s[i] = i
        barrier()
        x[i] = 100 // (s[7 - i] - d)
    except ZeroDivisionError:
        x[i] = -1


@kernel
fn lanes(x: Ptr[Float32]):
    # A SIMD value (aligned to 64 bytes) kept across a barrier.
    var s = shared_array[Float32, 64]()
    var v = SIMD[DType.float32, 16](Float32(thread_idx.x))
    s[thread_idx.x] = Float32(thread_idx.x)
    barrier()
    v = v + SIMD[DType.float32, 16](s[63 - thread_idx.x])
    x[thread_idx.x] = v.reduce_add()


fn main():
    var x = Ptr[Int].alloc(8)
    launch both_arms[grid=1, block=8](x, 1)
    print("both_arms 1:", x[0], x[1], x[6], x[7])
    launch both_arms[grid=1, block=8](x, 0)
    print("both_arms 0:", x[0], x[1], x[6], x[7])
    launch breaks[grid=1, block=8](x, 5)
    print("breaks:", x[0], x[1], x[7])
    var f = Ptr[Float64].alloc(8)
    launch structs[grid=1, block=8](f)
    print("structs:", f[0], f[1], f[7])
    launch guarded[grid=1, block=8](x, 3)
    print("guarded:", x[0], x[3], x[4], x[7])
    var v = Ptr[Float32].alloc(64)
    launch lanes[grid=3, block=64](v)
    print("lanes:", v[0], v[1], v[63])
"""


def test_branches_loop_exits_structs_and_handlers_around_barriers(tmp_path, monkeypatch):
    monkeypatch.setenv("PYX_NO_CACHE", "1")
    regions = run_source(MORE_SHAPES, tmp_path)
    assert regions.status == 0, regions.stderr
    assert regions.stdout == ("both_arms 1: 107 106 101 100\n"
                              "both_arms 0: 201 202 207 200\n"
                              "breaks: 99 102 96\n"  # steps 1, 3, 5: (10 + 1) + (30 + 3) + (50 + 5) for thread 0
                              "structs: 3.5 1003.0 7000.0\n"
                              "guarded: 25 100 -1 -34\n"  # 100 // (4 - i); thread 4 divides by zero
                              "lanes: 1008.0 1008.0 1008.0\n")  # 16 lanes of t + (63 - t)
    assert run_source(MORE_SHAPES, tmp_path, "prog.px", COROUTINES_ONLY).stdout == regions.stdout


FAILING = """\
@kernel
fn fails(x: Ptr[Int], d: Int):
    var s = shared_array[Int, 16]()
    s[thread_idx.x] = thread_idx.x
    barrier()
    x[thread_idx.x] = 100 // (s[thread_idx.x] - d)


@kernel
fn oob(x: Ptr[Int]):
    var s = shared_array[Int, 16]()
    s[thread_idx.x] = thread_idx.x
    barrier()
    x[thread_idx.x] = s[thread_idx.x + 9]


fn main():
    var x = Ptr[Int].alloc(16)
    launch oob[grid=2, block=16](x)
    print(x[0])
    launch fails[grid=3, block=16](x, 7)
"""


# Compile without the pass (every kernel with barriers then runs as coroutines): CompileOptions.gpu_regions.
COROUTINES_ONLY = "--no-gpu-regions"


def test_each_region_shape_gives_what_the_coroutines_give(tmp_path, monkeypatch):
    monkeypatch.setenv("PYX_NO_CACHE", "1")
    regions = run_source(SHAPES, tmp_path)
    assert regions.status == 0, regions.stderr
    lines = dict(line.split(": ", 1) for line in regions.stdout.splitlines())
    for name, expected in EXPECTED.items():
        assert lines[name] == expected, name
    assert run_source(SHAPES, tmp_path, "prog.px", COROUTINES_ONLY).stdout == regions.stdout


@pytest.mark.parametrize("options", [(), ("--memcheck",)], ids=["plain", "memcheck"])
def test_a_failing_thread_is_reported_as_the_coroutines_report_it(tmp_path, monkeypatch, options):
    monkeypatch.setenv("PYX_NO_CACHE", "1")
    regions = run_source(FAILING, tmp_path, "unc.px", *options)
    coroutines = run_source(FAILING, tmp_path, "unc.px", *options, COROUTINES_ONLY)
    assert (regions.status, regions.stdout, regions.stderr) == (coroutines.status, coroutines.stdout,
                                                                coroutines.stderr)
    assert regions.status == 1
    last = regions.stderr.splitlines()[-1]
    if options:
        assert last == ("IndexError: index 16 is out of bounds of the block's shared memory (128 bytes from this "
                        "pointer), in block (0, 0, 0), thread (7, 0, 0)")
    else:
        assert last == "ZeroDivisionError: integer division or modulo by zero"
        assert 'unc.px", line 6, in fails' in regions.stderr


def _ir(tmp_path, text):
    from helpers import run_cli

    (tmp_path / "k.px").write_text(text)
    result = run_cli("build", "--emit=ir", str(tmp_path / "k.px"))
    assert result.status == 0, result.stderr
    return result.stdout


def test_kernels_with_barriers_get_thread_loops_and_the_others_keep_their_path(tmp_path):
    ir = _ir(tmp_path, SHAPES + """
fn sync_helper(v: Int) -> Int:
    barrier()
    return v


@kernel
fn calls_a_barrier(x: Ptr[Int]):
    x[thread_idx.x] = sync_helper(x[thread_idx.x])


@kernel
fn shuffles(x: Ptr[Int]):
    barrier()
    x[thread_idx.x] = shuffle_xor(x[thread_idx.x], 1)


@kernel
fn divergent_shuffle(x: Ptr[Int]):
    if thread_idx.x < 16:
        x[thread_idx.x] = shuffle_xor(x[thread_idx.x], 1)


@kernel
fn reduces(x: Ptr[Int]):
    x[thread_idx.x] = warp_sum(x[thread_idx.x])


@kernel
fn no_barrier(x: Ptr[Int]):
    x[thread_idx.x] = 1
""")
    # A barrier inside a called function (taken into the kernel) and a shuffle every thread reaches
    # run as thread loops too (test_gpu_thread_loops.py).
    for kernel in ("reverse", "tiled", "nested", "early", "fresh_shared", "indices", "param_changes", "fails",
                   "calls_a_barrier", "shuffles"):
        assert f"fn @k.{kernel}$regions(" in ir, kernel
    # A shuffle under a branch on the thread, another warp operation, no barrier at all: no thread loops.
    for kernel in ("divergent_shuffle", "reduces", "no_barrier"):
        assert f"fn @k.{kernel}(" in ir and f"{kernel}$regions" not in ir, kernel
    more = _ir(tmp_path, MORE_SHAPES)
    for kernel in ("both_arms", "breaks", "structs", "guarded", "lanes"):
        assert f"fn @k.{kernel}$regions(" in more, kernel
