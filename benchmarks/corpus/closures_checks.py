def make_counter(start=0):
    count = start

    def inc(step=1):
        nonlocal count
        count += step
        return count

    return inc


def make_multipliers():
    return [lambda x, i=i: x * i for i in range(4)]


def compose(f, g):
    return lambda x: f(g(x))


def memoize(fn):
    cache = {}

    def wrapper(n):
        if n not in cache:
            cache[n] = fn(n)
        return cache[n]

    return wrapper


@memoize
def slow_fib(n):
    return n if n < 2 else slow_fib(n - 1) + slow_fib(n - 2)


def apply_all(funcs, value):
    return [f(value) for f in funcs]


def countdown(n):
    while n > 0:
        yield n
        n -= 1


def tree_walk(tree):
    if isinstance(tree, list):
        for sub in tree:
            yield from tree_walk(sub)
    else:
        yield tree


tests_run = 0
failures = []


def check(name, got, want):
    global tests_run
    tests_run += 1
    if got != want:
        failures.append(f"{name}: got {got!r}, want {want!r}")


def main():
    c = make_counter()
    c()
    c()
    check("counter", c(10), 12)
    d = make_counter(100)
    check("independent", (d(), c()), (101, 13))
    check("multipliers", [m(3) for m in make_multipliers()], [0, 3, 6, 9])
    inc_then_double = compose(lambda x: x * 2, lambda x: x + 1)
    check("compose", inc_then_double(5), 12)
    check("memo", slow_fib(80), 23416728348467685)
    check("apply", apply_all([abs, str, lambda v: v * v], -4), [4, "-4", 16])
    check("countdown", list(countdown(4)), [4, 3, 2, 1])
    check("walk", list(tree_walk([1, [2, [3, 4]], [], 5])), [1, 2, 3, 4, 5])
    check("deliberate failure", sorted([3, 1, 2]), [1, 2, 3, 4])
    check("sum gen", sum(x for x in countdown(100)), 5050)
    adders = {}
    for name, k in [("one", 1), ("ten", 10)]:
        adders[name] = lambda x, k=k: x + k
    check("adders", adders["ten"](adders["one"](0)), 11)
    print(f"{tests_run} tests, {len(failures)} failures")
    for f in failures:
        print("FAIL", f)
    try:
        assert not failures, f"{len(failures)} failed"
    except AssertionError as e:
        print("AssertionError:", e)


if __name__ == "__main__":
    main()
