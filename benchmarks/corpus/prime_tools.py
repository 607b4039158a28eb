"""Primes with a sieve and itertools: the first primes, twin primes, prime gaps."""
import itertools


def sieve(limit):
    is_prime = [True] * (limit + 1)
    is_prime[0] = is_prime[1] = False
    for i in range(2, int(limit ** 0.5) + 1):
        if is_prime[i]:
            for j in range(i * i, limit + 1, i):
                is_prime[j] = False
    return list(itertools.compress(range(limit + 1), is_prime))


def main():
    primes = sieve(200)
    print(primes[:15])
    twins = [(p, q) for p, q in zip(primes, primes[1:]) if q - p == 2]
    print(len(twins), twins[:5])
    gaps = [q - p for p, q in zip(primes, primes[1:])]
    print(max(gaps), gaps.index(max(gaps)))
    running = list(itertools.accumulate(primes[:10]))
    print(running)
    pairs = [c for c in itertools.combinations(primes[:8], 2) if sum(c) in primes]
    print(pairs)
    first = list(itertools.islice((n for n in itertools.count(1000) if n in set(sieve(1100))), 3))
    print(first)


if __name__ == "__main__":
    main()
