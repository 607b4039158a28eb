"""Matrix walks: spiral order, rotation, diagonals, and Pascal's triangle, printed as tables."""


def spiral(matrix: list[list[int]]) -> list[int]:
    out: list[int] = []
    top, bottom = 0, len(matrix) - 1
    left, right = 0, len(matrix[0]) - 1
    while top <= bottom and left <= right:
        out.extend(matrix[top][left:right + 1])
        top += 1
        for r in range(top, bottom + 1):
            out.append(matrix[r][right])
        right -= 1
        if top <= bottom:
            out.extend(reversed(matrix[bottom][left:right + 1]))
            bottom -= 1
        if left <= right:
            for r in range(bottom, top - 1, -1):
                out.append(matrix[r][left])
            left += 1
    return out


def fill_spiral(n: int) -> list[list[int]]:
    grid = [[0] * n for _ in range(n)]
    r, c, dr, dc = 0, 0, 0, 1
    for k in range(1, n * n + 1):
        grid[r][c] = k
        nr, nc = r + dr, c + dc
        if not (0 <= nr < n and 0 <= nc < n) or grid[nr][nc]:
            dr, dc = dc, -dr
            nr, nc = r + dr, c + dc
        r, c = nr, nc
    return grid


def rotate(matrix: list[list[int]]) -> list[list[int]]:
    return [list(row) for row in zip(*matrix[::-1])]


def show(matrix: list[list[int]]) -> None:
    width = max(len(str(v)) for row in matrix for v in row)
    for row in matrix:
        print(" ".join(str(v).rjust(width) for v in row))


def pascal(n: int) -> list[list[int]]:
    rows = [[1]]
    for _ in range(n - 1):
        prev = rows[-1]
        rows.append([1] + [a + b for a, b in zip(prev, prev[1:])] + [1])
    return rows


def main() -> None:
    m = [[r * 4 + c for c in range(4)] for r in range(3)]
    show(m)
    print("spiral:", spiral(m))
    print("rotated:")
    show(rotate(m))
    g = fill_spiral(5)
    show(g)
    print("diagonal sums:", sum(g[i][i] for i in range(5)), sum(g[i][4 - i] for i in range(5)))
    print("check:", spiral(g) == list(range(1, 26)))
    tri = pascal(9)
    last = " ".join(map(str, tri[-1]))
    for row in tri:
        print(" ".join(map(str, row)).center(len(last)).rstrip())
    print("row sums:", [sum(r) for r in tri])
    print("transposed first 3:", [list(t) for t in zip(*[row[:3] for row in m])])


main()
