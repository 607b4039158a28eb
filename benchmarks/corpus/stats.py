import math


def mean(xs: list[float]) -> float:
    return sum(xs) / len(xs)


def median(xs: list[float]) -> float:
    s = sorted(xs)
    n = len(s)
    if n % 2 == 1:
        return s[n // 2]
    return (s[n // 2 - 1] + s[n // 2]) / 2


def stdev(xs: list[float]) -> float:
    m = mean(xs)
    return math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))


def main():
    data = [2.5, 3.1, 4.7, 1.2, 9.9, 5.5, 3.3, 7.0]
    print(round(mean(data), 4), median(data), round(stdev(data), 4))
    print(min(data), max(data), sorted(data, reverse=True)[:3])
    print("%.3f %5.1f %e" % (mean(data), median(data), stdev(data)))


if __name__ == "__main__":
    main()
