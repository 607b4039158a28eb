# The Python twin of nbody.px: the same arithmetic in the same order, so the two
# print the same energies. Classes here, value structs there (copies are explicit).
PI = 3.141592653589793
SOLAR_MASS = 4.0 * PI * PI
DAYS_PER_YEAR = 365.24
STEPS = 1000  # benchmark size: 200000


class Vec3:
    def __init__(self, x: float, y: float, z: float):
        self.x, self.y, self.z = x, y, z

    def __add__(self, o):
        return Vec3(self.x + o.x, self.y + o.y, self.z + o.z)

    def __sub__(self, o):
        return Vec3(self.x - o.x, self.y - o.y, self.z - o.z)

    def __mul__(self, k):
        return Vec3(self.x * k, self.y * k, self.z * k)

    def dot(self, o):
        return self.x * o.x + self.y * o.y + self.z * o.z


class Body:
    def __init__(self, pos: Vec3, vel: Vec3, mass: float):
        self.pos, self.vel, self.mass = pos, vel, mass


def planet(x, y, z, vx, vy, vz, mass):
    return Body(Vec3(x, y, z), Vec3(vx, vy, vz) * DAYS_PER_YEAR, mass * SOLAR_MASS)


def interact(a, b, dt):
    d = a.pos - b.pos
    d2 = d.dot(d)
    mag = dt / (d2 * d2 ** 0.5)
    a.vel = a.vel - d * (b.mass * mag)
    b.vel = b.vel + d * (a.mass * mag)


def move(b, dt):
    b.pos = b.pos + b.vel * dt


def pair_energy(a, b):
    d = a.pos - b.pos
    return a.mass * b.mass / d.dot(d) ** 0.5


def kinetic(b):
    return 0.5 * b.mass * b.vel.dot(b.vel)


def main():
    sun = Body(Vec3(0.0, 0.0, 0.0), Vec3(0.0, 0.0, 0.0), SOLAR_MASS)
    jupiter = planet(4.84143144246472090e+00, -1.16032004402742839e+00, -1.03622044471123109e-01,
                     1.66007664274403694e-03, 7.69901118419740425e-03, -6.90460016972063023e-05,
                     9.54791938424326609e-04)
    saturn = planet(8.34336671824457987e+00, 4.12479856412430479e+00, -4.03523417114321381e-01,
                    -2.76742510726862411e-03, 4.99852801234917238e-03, 2.30417297573763929e-05,
                    2.85885980666130812e-04)
    uranus = planet(1.28943695621391310e+01, -1.51111514016986312e+01, -2.23307578892655734e-01,
                    2.96460137564761618e-03, 2.37847173959480950e-03, -2.96589568540237556e-05,
                    4.36624404335156298e-05)
    neptune = planet(1.53796971148509165e+01, -2.59193146099879641e+01, 1.79258772950371181e-01,
                     2.68067772490389322e-03, 1.62824170038242295e-03, -9.51592254519715870e-05,
                     5.15138902046611451e-05)
    p = jupiter.vel * jupiter.mass + saturn.vel * saturn.mass + uranus.vel * uranus.mass
    p = p + neptune.vel * neptune.mass
    sun.vel = p * (-1.0 / SOLAR_MASS)
    bodies = [sun, jupiter, saturn, uranus, neptune]
    for step in range(STEPS + 1):
        if step % 500 == 0:
            e = kinetic(sun) + kinetic(jupiter) + kinetic(saturn) + kinetic(uranus) + kinetic(neptune)
            e -= pair_energy(sun, jupiter) + pair_energy(sun, saturn) + pair_energy(sun, uranus)
            e -= pair_energy(sun, neptune) + pair_energy(jupiter, saturn) + pair_energy(jupiter, uranus)
            e -= pair_energy(jupiter, neptune) + pair_energy(saturn, uranus) + pair_energy(saturn, neptune)
            e -= pair_energy(uranus, neptune)
            print("step", step, "energy", e)
        if step == STEPS:
            break
        for i in range(5):
            for j in range(i + 1, 5):
                interact(bodies[i], bodies[j], 0.01)
        for b in bodies:
            move(b, 0.01)


if __name__ == "__main__":
    main()
