# Mojo twin of benchmarks/corpus/fannkuch.py; `fannkuch [N]`.
from std.sys import argv


def fannkuch(n: Int) -> Tuple[Int, Int]:
    var perm1 = List[Int](capacity=n)
    for i in range(n):
        perm1.append(i)
    var perm = List[Int](length=n, fill=0)
    var count = List[Int](length=n, fill=0)
    var max_flips = 0
    var checksum = 0
    var r = n
    var perm_count = 0
    while True:
        while r != 1:
            count[r - 1] = r
            r -= 1
        for i in range(n):
            perm[i] = perm1[i]
        var flips = 0
        var k = perm[0]
        while k != 0:
            var i = 0
            var j = k
            while i < j:
                perm.swap_elements(i, j)
                i += 1
                j -= 1
            flips += 1
            k = perm[0]
        if flips > max_flips:
            max_flips = flips
        checksum += flips if perm_count % 2 == 0 else -flips
        while True:
            if r == n:
                return (checksum, max_flips)
            var p0 = perm1[0]
            for i in range(r):
                perm1[i] = perm1[i + 1]
            perm1[r] = p0
            count[r] -= 1
            if count[r] > 0:
                break
            r += 1
        perm_count += 1


def main() raises:
    var n = 7
    if len(argv()) > 1:
        n = atol(argv()[1])
    var checksum, flips = fannkuch(n)
    print(checksum)
    print("Pfannkuchen(" + String(n) + ") = " + String(flips))
