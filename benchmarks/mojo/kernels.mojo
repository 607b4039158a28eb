# The Mojo twins of benchmarks/kernels.px for benchmarks/run.py's Mojo column, written as a Mojo
# user writes them. `kernels NAME SIZE REPEAT [INPUT OUTPUT]` runs one kernel REPEAT times and prints
# its result and the median time of one run in nanoseconds (timed inside the process, as the other
# columns). The array kernels read their float32 inputs from INPUT (raw bytes, written by run.py from
# the same NumPy arrays pyx is given) and write their float32 output array to OUTPUT, which run.py
# checks against pyx's.
# No parallel twins: `parallelize` lives in the MAX `algorithm` package, which the `mojo` wheel lacks.
from std.time import perf_counter_ns
from std.sys import argv, simd_width_of
from std.math import sqrt, exp
from std.collections import Dict
from std.algorithm import vectorize

comptime F32 = simd_width_of[DType.float32]()  # float32 lanes of this machine's widest register


def mandelbrot(width: Int, height: Int, max_iter: Int) -> Int:
    var total = 0
    var dx = 3.0 / Float64(width)
    var dy = 3.0 / Float64(height)
    for row in range(height):
        var cy = -1.5 + Float64(row) * dy
        for col in range(width):
            var cx = -2.0 + Float64(col) * dx
            var x = 0.0
            var y = 0.0
            var i = 0
            while i < max_iter and x * x + y * y <= 4.0:
                var nx = x * x - y * y + cx
                y = 2.0 * x * y + cy
                x = nx
                i += 1
            total += i
    return total


def mandelbrot_simd(width: Int, height: Int, max_iter: Int) -> Int:
    """The same count, 8 pixels per step (one AVX-512 register of Float64), as kernels.px's."""
    comptime L = 8
    var total = 0
    var dx = 3.0 / Float64(width)
    var dy = 3.0 / Float64(height)
    var lanes = SIMD[DType.float64, L](0, 1, 2, 3, 4, 5, 6, 7)
    for row in range(height):
        var cy = -1.5 + Float64(row) * dy
        for col in range(0, width, L):
            var cols = lanes + Float64(col)
            var cx = -2.0 + cols * dx
            var x = SIMD[DType.float64, L](0)
            var y = SIMD[DType.float64, L](0)
            var counts = SIMD[DType.int64, L](0)
            var active = cols.lt(Float64(width))
            for _ in range(max_iter):
                active = active & (x * x + y * y).le(4.0)
                if not active.reduce_or():
                    break
                counts = active.select(counts + 1, counts)
                var nx = x * x - y * y + cx
                y = 2.0 * x * y + cy
                x = nx
            total += Int(counts.reduce_add())
    return total


def triad(mut a: List[Float32], b: List[Float32], c: List[Float32], s: Float32):
    """Sets `a = b + s * c`."""
    var pa = a.unsafe_ptr()
    var pb = b.unsafe_ptr()
    var pc = c.unsafe_ptr()

    def step[width: Int](i: Int) {pa, pb, pc, s}:
        pa.unsafe_store[width=width](i, pb.unsafe_load[width=width](i) + s * pc.unsafe_load[width=width](i))

    vectorize[F32](len(a), step)


def total(x: List[Float32]) -> Float32:
    # Four registers of partial sums (one accumulator would wait on each add's latency).
    comptime W = 4 * F32
    var p = x.unsafe_ptr()
    var acc = SIMD[DType.float32, W](0)
    var i = 0
    while i + W <= len(x):
        acc += p.unsafe_load[width=W](i)
        i += W
    var s = acc.reduce_add()
    while i < len(x):
        s += x[i]
        i += 1
    return s


def softmax_rows(mut y: List[Float32], x: List[Float32], rows: Int, cols: Int):
    var px = x.unsafe_ptr()
    var py = y.unsafe_ptr()
    for r in range(rows):
        var base = r * cols
        var m = SIMD[DType.float32, F32](-Float32.MAX)
        var tail = -Float32.MAX

        def biggest[width: Int](j: Int) {mut m, mut tail, px, base}:
            comptime if width == F32:
                m = max(m, px.unsafe_load[width=F32](base + j))
            else:
                tail = max(tail, px.unsafe_load[width=width](base + j).reduce_max())

        vectorize[F32](cols, biggest)
        var largest = max(m.reduce_max(), tail)
        var sums = SIMD[DType.float32, F32](0)
        var rest: Float32 = 0

        def exps[width: Int](j: Int) {mut sums, mut rest, px, py, base, largest}:
            var e = exp(px.unsafe_load[width=width](base + j) - largest)
            py.unsafe_store[width=width](base + j, e)
            comptime if width == F32:
                sums += rebind[SIMD[DType.float32, F32]](e)
            else:
                rest += e.reduce_add()

        vectorize[F32](cols, exps)
        var inv = 1.0 / (sums.reduce_add() + rest)

        def scale[width: Int](j: Int) {py, base, inv}:
            py.unsafe_store[width=width](base + j, py.unsafe_load[width=width](base + j) * inv)

        vectorize[F32](cols, scale)


def matmul(mut c: List[Float32], a: List[Float32], b: List[Float32], n: Int):
    """Sets `c = a @ b` for n x n row-major matrices: the i-k-j loop order, each row of b streamed
    into a row of c with vectorize (the form Mojo's matmul tutorial starts from)."""
    var pb = b.unsafe_ptr()
    var pc = c.unsafe_ptr()
    for i in range(n):
        var row = i * n

        def clear[width: Int](j: Int) {pc, row}:
            pc.unsafe_store[width=width](row + j, SIMD[DType.float32, width](0))

        vectorize[F32](n, clear)
        for k in range(n):
            var aik = a[row + k]
            var brow = k * n

            def step[width: Int](j: Int) {pb, pc, aik, row, brow}:
                pc.unsafe_store[width=width](row + j, pb.unsafe_load[width=width](brow + j).fma(
                    SIMD[DType.float32, width](aik), pc.unsafe_load[width=width](row + j)))

            vectorize[F32](n, step)


def word_count(n: Int) raises -> Int:
    """Word frequencies of n generated words, as kernels.px's word_count: String's join, split,
    strip, replace and lower, and a Dict[String, Int]. Returns sum(len(word) * count)."""
    var words = ["the", "quick", "Brown", "fox", "jumps", "over", "lazy", "dog", "and", "runs", "far", "away"]
    var parts = List[String]()
    var state = 12345
    for _ in range(n):
        state = (state * 1103515245 + 12345) % 2147483648
        var word = String(words[state % 12])
        if state % 7 == 0:
            word += ","
        parts.append(word^)
    var text = String(" ").join(parts)
    var counts = Dict[String, Int]()
    for raw in text.split():
        var word = String(raw).strip().replace(",", "").lower()
        counts[word] = counts.get(word, 0) + 1
    var total = 0
    for word in counts.keys():
        total += word.byte_length() * counts.get(word, 0)  # ASCII words: bytes = characters
    return total


def fib(n: Int) -> Int:
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


@fieldwise_init
struct Vec3(Copyable, Movable):
    var x: Float64
    var y: Float64
    var z: Float64

    def __add__(self, o: Vec3) -> Vec3:
        return Vec3(self.x + o.x, self.y + o.y, self.z + o.z)

    def __sub__(self, o: Vec3) -> Vec3:
        return Vec3(self.x - o.x, self.y - o.y, self.z - o.z)

    def __mul__(self, k: Float64) -> Vec3:
        return Vec3(self.x * k, self.y * k, self.z * k)

    def dot(self, o: Vec3) -> Float64:
        return self.x * o.x + self.y * o.y + self.z * o.z


@fieldwise_init
struct Body(Copyable, Movable):
    var pos: Vec3
    var vel: Vec3
    var mass: Float64


def interact(mut a: Body, mut b: Body, dt: Float64):
    var d = a.pos - b.pos
    var d2 = d.dot(d)
    var mag = dt / (d2 * sqrt(d2))
    a.vel = a.vel - d * (b.mass * mag)
    b.vel = b.vel + d * (a.mass * mag)


def nbody_state() -> List[Body]:
    comptime PI = 3.141592653589793
    comptime SOLAR = 4 * PI * PI
    comptime DAYS = 365.24
    var bodies = List[Body]()
    bodies.append(Body(Vec3(0, 0, 0), Vec3(0, 0, 0), SOLAR))
    bodies.append(Body(Vec3(4.84143144246472090e+00, -1.16032004402742839e+00, -1.03622044471123109e-01),
                       Vec3(1.66007664274403694e-03 * DAYS, 7.69901118419740425e-03 * DAYS,
                            -6.90460016972063023e-05 * DAYS), 9.54791938424326609e-04 * SOLAR))
    bodies.append(Body(Vec3(8.34336671824457987e+00, 4.12479856412430479e+00, -4.03523417114321381e-01),
                       Vec3(-2.76742510726862411e-03 * DAYS, 4.99852801234917238e-03 * DAYS,
                            2.30417297573763929e-05 * DAYS), 2.85885980666130812e-04 * SOLAR))
    bodies.append(Body(Vec3(1.28943695621391310e+01, -1.51111514016986312e+01, -2.23307578892655734e-01),
                       Vec3(2.96460137564761618e-03 * DAYS, 2.37847173959480950e-03 * DAYS,
                            -2.96589568540237556e-05 * DAYS), 4.36624404335156298e-05 * SOLAR))
    bodies.append(Body(Vec3(1.53796971148509165e+01, -2.59193146099879641e+01, 1.79258772950371181e-01),
                       Vec3(2.68067772490389322e-03 * DAYS, 1.62824170038242295e-03 * DAYS,
                            -9.51592254519715870e-05 * DAYS), 5.15138902046611451e-05 * SOLAR))
    var momentum = Vec3(0, 0, 0)
    for i in range(1, 5):
        momentum = momentum + bodies[i].vel * bodies[i].mass
    bodies[0].vel = Vec3(0, 0, 0) - momentum * (1.0 / SOLAR)
    return bodies^


def pair(a: Body, b: Body) -> Float64:
    var d = a.pos - b.pos
    return a.mass * b.mass / sqrt(d.dot(d))


def nbody(steps: Int) -> Float64:
    var b = nbody_state()
    var s0 = b[0].copy()
    var s1 = b[1].copy()
    var s2 = b[2].copy()
    var s3 = b[3].copy()
    var s4 = b[4].copy()
    for _ in range(steps):
        interact(s0, s1, 0.01)
        interact(s0, s2, 0.01)
        interact(s0, s3, 0.01)
        interact(s0, s4, 0.01)
        interact(s1, s2, 0.01)
        interact(s1, s3, 0.01)
        interact(s1, s4, 0.01)
        interact(s2, s3, 0.01)
        interact(s2, s4, 0.01)
        interact(s3, s4, 0.01)
        s0.pos = s0.pos + s0.vel * 0.01
        s1.pos = s1.pos + s1.vel * 0.01
        s2.pos = s2.pos + s2.vel * 0.01
        s3.pos = s3.pos + s3.vel * 0.01
        s4.pos = s4.pos + s4.vel * 0.01
    var k = 0.5 * (s0.mass * s0.vel.dot(s0.vel) + s1.mass * s1.vel.dot(s1.vel) + s2.mass * s2.vel.dot(s2.vel)
                   + s3.mass * s3.vel.dot(s3.vel) + s4.mass * s4.vel.dot(s4.vel))
    return (k - pair(s0, s1) - pair(s0, s2) - pair(s0, s3) - pair(s0, s4) - pair(s1, s2) - pair(s1, s3)
            - pair(s1, s4) - pair(s2, s3) - pair(s2, s4) - pair(s3, s4))


def collatz_longest(limit: Int) raises -> Int:
    var known = Dict[Int, Int]()
    var best = 0
    var best_start = 1
    for start in range(1, limit):
        var path = List[Int]()
        var n = start
        while n != 1 and n not in known:
            path.append(n)
            n = n // 2 if n % 2 == 0 else 3 * n + 1
        var length = 1 if n == 1 else known[n]
        while len(path) > 0:
            length += 1
            known[path.pop()] = length
        if length > best:
            best = length
            best_start = start
    return best_start


def run(which: String, size: Int) raises -> String:
    if which == "mandelbrot":
        return String(mandelbrot(size, size, 200))
    if which == "mandelbrot_simd":
        return String(mandelbrot_simd(size, size, 200))
    if which == "fib":
        return String(fib(size))
    if which == "nbody":
        return String(nbody(size))
    if which == "collatz":
        return String(collatz_longest(size))
    if which == "word_count":
        return String(word_count(size))
    raise Error("unknown kernel " + which)


def read_floats(path: String) raises -> List[Float32]:
    var data: List[UInt8]
    with open(path, "r") as f:
        data = f.read_bytes()
    var p = data.unsafe_ptr().unsafe_bitcast[Float32]()
    var floats = List[Float32](capacity=len(data) // 4)
    for i in range(len(data) // 4):
        floats.append(p[unsafe_offset=i])
    return floats^


def part(data: List[Float32], start: Int, count: Int) -> List[Float32]:
    var out = List[Float32](capacity=count)
    for i in range(start, start + count):
        out.append(data[i])
    return out^


def write_floats(path: String, data: List[Float32]) raises:
    var bytes = List[UInt8](capacity=len(data) * 4)
    var p = data.unsafe_ptr().unsafe_bitcast[UInt8]()
    for i in range(len(data) * 4):
        bytes.append(p[unsafe_offset=i])
    with open(path, "w") as f:
        f.write_bytes(bytes)


def run_array(which: String, size: Int, repeat: Int, inputs: List[Float32], out_path: String) raises -> List[Int]:
    """An array kernel on run.py's inputs, timed REPEAT times; its output array goes to out_path."""
    var times = List[Int]()
    var n = size * size if which == "softmax" or which == "matmul" else size
    var first = part(inputs, 0, n)
    var second = part(inputs, n, len(inputs) - n)
    var out = List[Float32](length=n, fill=0.0)
    var kept = List[Float32]()
    var result: Float32 = 0
    for _ in range(repeat):
        var t0 = perf_counter_ns()
        if which == "triad":
            triad(out, first, second, 1.5)
        elif which == "sum":
            result = total(first)
        elif which == "softmax":
            softmax_rows(out, first, size, size)
        elif which == "matmul":
            matmul(out, first, second, size)
        else:
            raise Error("unknown kernel " + which)
        if which != "sum":
            # The other columns' timed calls return a copy of their output array (run.py's lambdas
            # end in `.copy()`): the same copy here keeps the times comparable.
            kept = out.copy()
        times.append(Int(perf_counter_ns() - t0))
    if which == "sum":
        kept = [result]
    write_floats(out_path, kept)
    return times^


def main() raises:
    var args = argv()
    var which = String(args[1])
    var size = Int(String(args[2]))
    var repeat = Int(String(args[3]))
    var times = List[Int]()
    var result = String("-")  # an array kernel's result is the array in its OUTPUT file
    if len(args) > 4:
        times = run_array(which, size, repeat, read_floats(String(args[4])), String(args[5]))
    else:
        for _ in range(repeat):
            var t0 = perf_counter_ns()
            result = run(which, size)
            times.append(Int(perf_counter_ns() - t0))
    sort(times)
    print(result, times[len(times) // 2])
