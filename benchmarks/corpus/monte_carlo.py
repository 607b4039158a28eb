import random


def estimate_pi(n: int) -> float:
    inside = 0
    for _ in range(n):
        x = random.random()
        y = random.random()
        if x * x + y * y <= 1.0:
            inside += 1
    return 4.0 * inside / n


def main():
    random.seed(42)
    print(estimate_pi(10000))
    print(random.randint(1, 100), random.choice(["a", "b", "c"]))
    xs = list(range(10))
    random.shuffle(xs)
    print(xs)


if __name__ == "__main__":
    main()
