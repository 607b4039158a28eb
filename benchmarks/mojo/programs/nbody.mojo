# Mojo twin of examples/nbody.py (named after it); `nbody [STEPS]`: value structs, the same
# arithmetic in the same order, so the energies print the same.
from std.sys import argv
from std.ffi import external_call

# Typed Float64, so that 4.0 * PI * PI rounds after each step as in Python (an untyped float
# literal expression folds exactly, and SOLAR_MASS would differ in its last bit).
comptime PI: Float64 = 3.141592653589793
comptime SOLAR_MASS: Float64 = 4.0 * PI * PI
comptime DAYS_PER_YEAR: Float64 = 365.24


def pow_half(x: Float64) -> Float64:
    """`x ** 0.5` as CPython computes it, with the C library's pow() (by its alias powf64: LLVM turns
    a call of `pow(x, 0.5)` into sqrt()): sqrt() rounds differently in
    rare cases, and Mojo's own `**` differs from pow() in the last digit."""
    return external_call["powf64", Float64](x, Float64(0.5))


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


def planet(x: Float64, y: Float64, z: Float64, vx: Float64, vy: Float64, vz: Float64, mass: Float64) -> Body:
    return Body(Vec3(x, y, z), Vec3(vx, vy, vz) * DAYS_PER_YEAR, mass * SOLAR_MASS)


def interact(mut bodies: List[Body], i: Int, j: Int, dt: Float64):
    var d = bodies[i].pos - bodies[j].pos
    var d2 = d.dot(d)
    var mag = dt / (d2 * pow_half(d2))
    bodies[i].vel = bodies[i].vel - d * (bodies[j].mass * mag)
    bodies[j].vel = bodies[j].vel + d * (bodies[i].mass * mag)


def pair_energy(a: Body, b: Body) -> Float64:
    var d = a.pos - b.pos
    return a.mass * b.mass / pow_half(d.dot(d))


def kinetic(b: Body) -> Float64:
    return 0.5 * b.mass * b.vel.dot(b.vel)


def energy(b: List[Body]) -> Float64:
    var e = kinetic(b[0]) + kinetic(b[1]) + kinetic(b[2]) + kinetic(b[3]) + kinetic(b[4])
    e -= pair_energy(b[0], b[1]) + pair_energy(b[0], b[2]) + pair_energy(b[0], b[3])
    e -= pair_energy(b[0], b[4]) + pair_energy(b[1], b[2]) + pair_energy(b[1], b[3])
    e -= pair_energy(b[1], b[4]) + pair_energy(b[2], b[3]) + pair_energy(b[2], b[4])
    e -= pair_energy(b[3], b[4])
    return e


def main() raises:
    var steps = 1000
    if len(argv()) > 1:
        steps = atol(argv()[1])
    var bodies = List[Body]()
    bodies.append(Body(Vec3(0.0, 0.0, 0.0), Vec3(0.0, 0.0, 0.0), SOLAR_MASS))
    bodies.append(planet(4.84143144246472090e+00, -1.16032004402742839e+00, -1.03622044471123109e-01,
                         1.66007664274403694e-03, 7.69901118419740425e-03, -6.90460016972063023e-05,
                         9.54791938424326609e-04))
    bodies.append(planet(8.34336671824457987e+00, 4.12479856412430479e+00, -4.03523417114321381e-01,
                         -2.76742510726862411e-03, 4.99852801234917238e-03, 2.30417297573763929e-05,
                         2.85885980666130812e-04))
    bodies.append(planet(1.28943695621391310e+01, -1.51111514016986312e+01, -2.23307578892655734e-01,
                         2.96460137564761618e-03, 2.37847173959480950e-03, -2.96589568540237556e-05,
                         4.36624404335156298e-05))
    bodies.append(planet(1.53796971148509165e+01, -2.59193146099879641e+01, 1.79258772950371181e-01,
                         2.68067772490389322e-03, 1.62824170038242295e-03, -9.51592254519715870e-05,
                         5.15138902046611451e-05))
    var p = bodies[1].vel * bodies[1].mass + bodies[2].vel * bodies[2].mass + bodies[3].vel * bodies[3].mass
    p = p + bodies[4].vel * bodies[4].mass
    bodies[0].vel = p * (-1.0 / SOLAR_MASS)
    for step in range(steps + 1):
        if step % 500 == 0:
            print("step", step, "energy", energy(bodies))
        if step == steps:
            break
        for i in range(5):
            for j in range(i + 1, 5):
                interact(bodies, i, j, 0.01)
        for i in range(5):
            bodies[i].pos = bodies[i].pos + bodies[i].vel * 0.01
