def gen_primes(n: int) -> list[int]:
    sieve = [True] * (n + 1)
    sieve[0] = False
    sieve[1] = False
    for i in range(2, int(n ** 0.5) + 1):
        if sieve[i]:
            for j in range(i * i, n + 1, i):
                sieve[j] = False
    return [i for i, p in enumerate(sieve) if p]

def main():
    ps = gen_primes(50)
    print(ps, len(ps))
    print({p % 10 for p in ps})
    print({p: p * p for p in ps[:4]})
    print(list(map(str, ps[:3])), list(filter(lambda p: p > 40, ps)))

if __name__ == "__main__":
    main()
