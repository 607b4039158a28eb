# Mojo twin of benchmarks/corpus/nqueens.py; `nqueens [N]`. The columns and diagonals in use are
# lists of flags passed down the recursion.
from std.sys import argv


def place(row: Int, n: Int, mut cols: List[Bool], mut diag1: List[Bool], mut diag2: List[Bool]) -> Int:
    if row == n:
        return 1
    var count = 0
    for c in range(n):
        if cols[c] or diag1[row + c] or diag2[row - c + n]:
            continue
        cols[c] = True
        diag1[row + c] = True
        diag2[row - c + n] = True
        count += place(row + 1, n, cols, diag1, diag2)
        cols[c] = False
        diag1[row + c] = False
        diag2[row - c + n] = False
    return count


def solve(n: Int) -> Int:
    var cols = List[Bool](length=n, fill=False)
    var diag1 = List[Bool](length=2 * n, fill=False)
    var diag2 = List[Bool](length=2 * n + 1, fill=False)
    return place(0, n, cols, diag1, diag2)


def main() raises:
    var n = 8
    if len(argv()) > 1:
        n = atol(argv()[1])
    for k in range(1, n + 1):
        print(k, solve(k))
