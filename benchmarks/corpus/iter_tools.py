from itertools import accumulate, chain, combinations, groupby, permutations, product, islice, count, zip_longest
import itertools


def runs(s):
    return [(k, len(list(g))) for k, g in groupby(s)]


def fib():
    a, b = 0, 1
    while True:
        yield a
        a, b = b, a + b


def evens_upto(n):
    for i in range(n + 1):
        if i % 2 == 0:
            yield i


def chunked(xs, size):
    for i in range(0, len(xs), size):
        yield xs[i:i + size]


def main():
    print(runs("aaabccddddde"))
    people = [("ann", "eng"), ("bob", "ops"), ("cid", "eng"), ("dee", "ops"), ("eve", "hr")]
    people.sort(key=lambda p: p[1])
    for dept, members in groupby(people, key=lambda p: p[1]):
        print(dept, [m[0] for m in members])
    print(list(accumulate([1, 2, 3, 4, 5])))
    print(list(accumulate([3, 1, 4, 1, 5, 9, 2], max)))
    print(list(accumulate([1, 2, 3, 4], lambda a, b: a * b)))
    print(list(product("ab", [1, 2])))
    print(list(product(range(2), repeat=3))[:5])
    print(list(permutations([1, 2, 3])))
    print(["".join(p) for p in permutations("abc", 2)])
    print(list(combinations(range(5), 3))[-3:])
    print(list(chain([1, 2], (3, 4), [5])))
    print(list(islice(fib(), 10)))
    print(list(islice(count(10, 5), 4)))
    print(list(zip_longest([1, 2, 3], "ab", fillvalue="-")))
    print(sum(evens_upto(10)), list(evens_upto(7)))
    print(list(chunked(list(range(10)), 4)))
    gen = (x * x for x in range(5))
    print(next(gen), next(gen), list(gen))
    squares = {x: x * x for x in range(6) if x % 2}
    print(squares)
    pairs = list(zip("abc", range(3), [True, False, True]))
    print(pairs)
    for i, (letter, num) in enumerate(zip("xyz", [10, 20, 30]), start=1):
        print(i, letter, num)
    print(list(reversed(range(5))), sorted("banana"), sorted([3, 1, 2], reverse=True))
    words = ["kiwi", "fig", "banana", "apple", "date"]
    print(max(words, key=len), min(words, key=lambda w: w[-1]), sorted(words, key=lambda w: (len(w), w)))
    print(any(w.startswith("b") for w in words), all(len(w) > 2 for w in words))
    print(list(map(str.upper, words)), list(filter(lambda w: "a" in w, words)))
    print(list(itertools.starmap(pow, [(2, 3), (3, 2)])))
    print(list(itertools.takewhile(lambda x: x < 4, [1, 2, 5, 1])), list(itertools.dropwhile(lambda x: x < 4, [1, 2, 5, 1])))
    total = 0
    for a, b in itertools.pairwise([1, 4, 9, 16]):
        total += b - a
    print(total)


main()
