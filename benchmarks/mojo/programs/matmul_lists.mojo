# Mojo twin of benchmarks/corpus/matmul_lists.py; `matmul_lists [N]`: a list of rows, as the Python.
from std.sys import argv


def matmul(a: List[List[Float64]], b: List[List[Float64]]) -> List[List[Float64]]:
    var n = len(a)
    var m = len(b[0])
    var k = len(b)
    var c = List[List[Float64]]()
    for _ in range(n):
        c.append(List[Float64](length=m, fill=0.0))
    for i in range(n):
        for j in range(m):
            var s = 0.0
            for p in range(k):
                s += a[i][p] * b[p][j]
            c[i][j] = s
    return c^


def main() raises:
    var n = 40
    if len(argv()) > 1:
        n = atol(argv()[1])
    var a = List[List[Float64]]()
    var b = List[List[Float64]]()
    for i in range(n):
        var ra = List[Float64]()
        var rb = List[Float64]()
        for j in range(n):
            ra.append(Float64(i * n + j) / Float64(n))
            rb.append(Float64(i - j))
        a.append(ra^)
        b.append(rb^)
    var c = matmul(a, b)
    var total = 0.0
    for row in c:
        var s = 0.0
        for x in row:
            s += x
        total += s
    print(c[0][0], c[n - 1][n - 1], total)
