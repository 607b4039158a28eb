def zeros(n, m):
    return [[0.0] * m for _ in range(n)]


def identity(n):
    return [[1.0 if i == j else 0.0 for j in range(n)] for i in range(n)]


def matmul(a, b):
    return [[sum(x * y for x, y in zip(row, col)) for col in zip(*b)] for row in a]


def transpose(a):
    return [list(col) for col in zip(*a)]


def mat_pow(a, k):
    result = identity(len(a))
    while k:
        if k & 1:
            result = matmul(result, a)
        a = matmul(a, a)
        k >>= 1
    return result


def solve(a, b):
    n = len(a)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        if abs(m[pivot][col]) < 1e-12:
            raise ValueError("singular matrix")
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(n):
            if r != col:
                f = m[r][col] / m[col][col]
                m[r] = [x - f * y for x, y in zip(m[r], m[col])]
    return [m[i][n] / m[i][i] for i in range(n)]


def show(m, fmt="{:7.2f}"):
    for row in m:
        print(" ".join(fmt.format(x) for x in row))


def main():
    a = [[1.0, 2.0], [3.0, 4.0]]
    b = [[0.0, 1.0], [1.0, 0.0]]
    show(matmul(a, b))
    show(transpose([[1, 2, 3], [4, 5, 6]]), "{:3d}")
    fibm = mat_pow([[1, 1], [1, 0]], 30)
    print(fibm[0][1], fibm)
    x = solve([[2.0, 1.0, -1.0], [-3.0, -1.0, 2.0], [-2.0, 1.0, 2.0]], [8.0, -11.0, -3.0])
    print([round(v, 6) for v in x])
    try:
        solve([[1.0, 2.0], [2.0, 4.0]], [1.0, 2.0])
    except ValueError as e:
        print("error:", e)
    grid = [[r * 4 + c for c in range(4)] for r in range(3)]
    print(grid)
    print([row[::-1] for row in grid])
    print([sum(col) for col in zip(*grid)], [max(row) for row in grid])
    print([x for row in grid for x in row if x % 3 == 0])
    diag = [grid[i][i] for i in range(min(len(grid), len(grid[0])))]
    print(diag, sum(map(sum, grid)))
    rotated = [list(r) for r in zip(*grid[::-1])]
    print(rotated)
    z = zeros(2, 3)
    z[1][2] = 5.0
    print(z)
    alias = [[0] * 3] * 2
    alias[0][0] = 9
    print(alias)
    flat = [v for row in identity(3) for v in row]
    print(flat, flat.count(1.0), flat.index(1.0, 1))
    m = [[1, 2], [3, 4]]
    m2 = [row[:] for row in m]
    m2[0][0] = 100
    print(m, m2, m == [[1, 2], [3, 4]], m < m2)


main()
