# Numba twin of examples/nbody.py (named after it): positions and velocities in (5, 3) NumPy arrays,
# with the same arithmetic in the same order as the class version, so the energies print the same.
import ctypes
import ctypes.util

import numpy as np
from numba import njit

# CPython computes `x ** 0.5` with the C library's pow(), which rounds differently from sqrt() in
# rare cases (Numba turns `** 0.5` and math.pow(x, 0.5) into sqrt): calling libm's pow through
# ctypes keeps the energies the same as the Python program's to the last digit.
_libm = ctypes.CDLL(ctypes.util.find_library("m"))
libm_pow = _libm.pow
libm_pow.restype = ctypes.c_double
libm_pow.argtypes = (ctypes.c_double, ctypes.c_double)
# (Numba caches no function that calls through a ctypes pointer, so these two compile every run.)

PI = 3.141592653589793
SOLAR_MASS = 4.0 * PI * PI
DAYS_PER_YEAR = 365.24
STEPS = 1000  # benchmark size: 200000


@njit
def advance(pos, vel, mass, steps, dt):
    n = len(mass)
    for _ in range(steps):
        for i in range(n):
            for j in range(i + 1, n):
                dx = pos[i, 0] - pos[j, 0]
                dy = pos[i, 1] - pos[j, 1]
                dz = pos[i, 2] - pos[j, 2]
                d2 = dx * dx + dy * dy + dz * dz
                mag = dt / (d2 * libm_pow(d2, 0.5))
                mi = mass[j] * mag
                vel[i, 0] = vel[i, 0] - dx * mi
                vel[i, 1] = vel[i, 1] - dy * mi
                vel[i, 2] = vel[i, 2] - dz * mi
                mj = mass[i] * mag
                vel[j, 0] = vel[j, 0] + dx * mj
                vel[j, 1] = vel[j, 1] + dy * mj
                vel[j, 2] = vel[j, 2] + dz * mj
        for i in range(n):
            pos[i, 0] = pos[i, 0] + vel[i, 0] * dt
            pos[i, 1] = pos[i, 1] + vel[i, 1] * dt
            pos[i, 2] = pos[i, 2] + vel[i, 2] * dt


@njit
def energy(pos, vel, mass):
    n = len(mass)
    e = 0.0
    for i in range(n):
        e += 0.5 * mass[i] * (vel[i, 0] * vel[i, 0] + vel[i, 1] * vel[i, 1] + vel[i, 2] * vel[i, 2])
    # The Python version subtracts the ten pair energies in groups of three (as its lines do).
    pairs = np.empty(10)
    k = 0
    for i in range(n):
        for j in range(i + 1, n):
            dx = pos[i, 0] - pos[j, 0]
            dy = pos[i, 1] - pos[j, 1]
            dz = pos[i, 2] - pos[j, 2]
            pairs[k] = mass[i] * mass[j] / libm_pow(dx * dx + dy * dy + dz * dz, 0.5)
            k += 1
    e -= pairs[0] + pairs[1] + pairs[2]
    e -= pairs[3] + pairs[4] + pairs[5]
    e -= pairs[6] + pairs[7] + pairs[8]
    e -= pairs[9]
    return e


def main():
    planets = [
        (4.84143144246472090e+00, -1.16032004402742839e+00, -1.03622044471123109e-01,
         1.66007664274403694e-03, 7.69901118419740425e-03, -6.90460016972063023e-05, 9.54791938424326609e-04),
        (8.34336671824457987e+00, 4.12479856412430479e+00, -4.03523417114321381e-01,
         -2.76742510726862411e-03, 4.99852801234917238e-03, 2.30417297573763929e-05, 2.85885980666130812e-04),
        (1.28943695621391310e+01, -1.51111514016986312e+01, -2.23307578892655734e-01,
         2.96460137564761618e-03, 2.37847173959480950e-03, -2.96589568540237556e-05, 4.36624404335156298e-05),
        (1.53796971148509165e+01, -2.59193146099879641e+01, 1.79258772950371181e-01,
         2.68067772490389322e-03, 1.62824170038242295e-03, -9.51592254519715870e-05, 5.15138902046611451e-05),
    ]
    pos = np.zeros((5, 3))
    vel = np.zeros((5, 3))
    mass = np.empty(5)
    mass[0] = SOLAR_MASS
    for i, (x, y, z, vx, vy, vz, m) in enumerate(planets, start=1):
        pos[i] = x, y, z
        vel[i] = vx * DAYS_PER_YEAR, vy * DAYS_PER_YEAR, vz * DAYS_PER_YEAR
        mass[i] = m * SOLAR_MASS
    p = vel[1] * mass[1] + vel[2] * mass[2] + vel[3] * mass[3]
    p = p + vel[4] * mass[4]
    vel[0] = p * (-1.0 / SOLAR_MASS)
    for step in range(0, STEPS + 1, 500):
        print("step", step, "energy", energy(pos, vel, mass))
        if step < STEPS:
            advance(pos, vel, mass, min(500, STEPS - step), 0.01)


if __name__ == "__main__":
    main()
