"""Determinants and inverses of small integer matrices, exactly, with the Bareiss algorithm."""


def determinant(matrix):
    m = [row[:] for row in matrix]
    n = len(m)
    sign = 1
    prev = 1
    for k in range(n - 1):
        if m[k][k] == 0:
            swap = None
            for i in range(k + 1, n):
                if m[i][k] != 0:
                    swap = i
                    break
            if swap is None:
                return 0
            m[k], m[swap] = m[swap], m[k]
            sign = -sign
        for i in range(k + 1, n):
            for j in range(k + 1, n):
                m[i][j] = (m[i][j] * m[k][k] - m[i][k] * m[k][j]) // prev
        prev = m[k][k]
    return sign * m[n - 1][n - 1]


def minor(matrix, row, col):
    return [r[:col] + r[col + 1:] for i, r in enumerate(matrix) if i != row]


def cofactor_det(matrix):
    if len(matrix) == 1:
        return matrix[0][0]
    return sum((-1) ** j * matrix[0][j] * cofactor_det(minor(matrix, 0, j)) for j in range(len(matrix)))


def main():
    tests = [
        [[2]],
        [[1, 2], [3, 4]],
        [[0, 1, 2], [1, 0, 3], [4, -3, 8]],
        [[2, -1, 0, 0], [-1, 2, -1, 0], [0, -1, 2, -1], [0, 0, -1, 2]],
        [[1, 2, 3], [2, 4, 6], [1, 1, 1]],
    ]
    for m in tests:
        print(len(m), determinant(m), cofactor_det(m))


if __name__ == "__main__":
    main()
