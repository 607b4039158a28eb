import math


def eval_a(i: int, j: int) -> float:
    return 1.0 / ((i + j) * (i + j + 1) // 2 + i + 1)


def eval_a_times_u(u: list[float]) -> list[float]:
    n = len(u)
    out = []
    for i in range(n):
        s = 0.0
        for j in range(n):
            s += eval_a(i, j) * u[j]
        out.append(s)
    return out


def eval_at_times_u(u: list[float]) -> list[float]:
    n = len(u)
    out = []
    for i in range(n):
        s = 0.0
        for j in range(n):
            s += eval_a(j, i) * u[j]
        out.append(s)
    return out


def eval_ata_times_u(u: list[float]) -> list[float]:
    return eval_at_times_u(eval_a_times_u(u))


N = 100  # benchmark size: 500


def main():
    n = N
    u = [1.0] * n
    v = u
    for _ in range(10):
        v = eval_ata_times_u(u)
        u = eval_ata_times_u(v)
    vbv = 0.0
    vv = 0.0
    for i in range(n):
        vbv += u[i] * v[i]
        vv += v[i] * v[i]
    print("%0.9f" % math.sqrt(vbv / vv))


if __name__ == "__main__":
    main()
