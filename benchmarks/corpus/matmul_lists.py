def matmul(a: list[list[float]], b: list[list[float]]) -> list[list[float]]:
    n = len(a)
    m = len(b[0])
    k = len(b)
    c = [[0.0] * m for _ in range(n)]
    for i in range(n):
        for j in range(m):
            s = 0.0
            for p in range(k):
                s += a[i][p] * b[p][j]
            c[i][j] = s
    return c


N = 40  # benchmark size: 250


def main():
    n = N
    a = [[float(i * n + j) / n for j in range(n)] for i in range(n)]
    b = [[float(i - j) for j in range(n)] for i in range(n)]
    c = matmul(a, b)
    print(c[0][0], c[n - 1][n - 1], sum(sum(row) for row in c))


if __name__ == "__main__":
    main()
