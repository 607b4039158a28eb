# Mojo twin of benchmarks/corpus/sieve.py; `sieve [N]`.
from std.sys import argv


def primes_up_to(n: Int) -> List[Int]:
    var is_prime = List[Bool](length=n + 1, fill=True)
    is_prime[0] = False
    is_prime[1] = False
    var i = 2
    while i * i <= n:
        if is_prime[i]:
            for j in range(i * i, n + 1, i):
                is_prime[j] = False
        i += 1
    var out = List[Int]()
    for k in range(n + 1):
        if is_prime[k]:
            out.append(k)
    return out^


def show(xs: List[Int], start: Int, stop: Int) -> String:
    """Python's repr of xs[start:stop]."""
    var s = String("[")
    for i in range(start, stop):
        if i > start:
            s += ", "
        s += String(xs[i])
    return s + "]"


def main() raises:
    var n = 10000
    if len(argv()) > 1:
        n = atol(argv()[1])
    var ps = primes_up_to(n)
    var total = 0
    for p in ps:
        total += p
    print(len(ps), show(ps, 0, 10), show(ps, len(ps) - 3, len(ps)))
    print(total)
