def primes_up_to(n: int) -> list[int]:
    is_prime = [True] * (n + 1)
    is_prime[0] = False
    is_prime[1] = False
    i = 2
    while i * i <= n:
        if is_prime[i]:
            for j in range(i * i, n + 1, i):
                is_prime[j] = False
        i += 1
    return [k for k in range(n + 1) if is_prime[k]]


N = 10000  # benchmark size: 5000000


def main():
    ps = primes_up_to(N)
    print(len(ps), ps[:10], ps[-3:])
    print(sum(ps))


if __name__ == "__main__":
    main()
