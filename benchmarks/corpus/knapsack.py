def knapsack(weights: list[int], values: list[int], capacity: int) -> int:
    n = len(weights)
    dp = [[0] * (capacity + 1) for _ in range(n + 1)]
    for i in range(1, n + 1):
        w = weights[i - 1]
        v = values[i - 1]
        for c in range(capacity + 1):
            dp[i][c] = dp[i - 1][c]
            if w <= c and dp[i - 1][c - w] + v > dp[i][c]:
                dp[i][c] = dp[i - 1][c - w] + v
    return dp[n][capacity]


def main():
    weights = [12, 7, 11, 8, 9, 6, 14, 5]
    values = [24, 13, 23, 15, 16, 11, 28, 9]
    for cap in (10, 26, 40, 60):
        print(cap, knapsack(weights, values, cap))


if __name__ == "__main__":
    main()
