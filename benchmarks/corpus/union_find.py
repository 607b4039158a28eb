"""Disjoint-set union with path compression, used to count islands and group friends."""


class DisjointSet:
    def __init__(self, n: int) -> None:
        self.parent: list[int] = list(range(n))
        self.size: list[int] = [1] * n
        self.count: int = n

    def find(self, x: int) -> int:
        if self.parent[x] != x:
            self.parent[x] = self.find(self.parent[x])
        return self.parent[x]

    def union(self, a: int, b: int) -> bool:
        small, big = sorted((self.find(a), self.find(b)), key=lambda r: self.size[r])
        if small == big:
            return False
        self.parent[small] = big
        self.size[big] += self.size[small]
        self.count -= 1
        return True

    def largest(self) -> int:
        return max(self.size[r] for r in range(len(self.parent)) if self.find(r) == r)


GRID: list[str] = [
    "11000110",
    "11000100",
    "00100000",
    "00011011",
    "10000011",
    "10110000",
]


def islands(grid: list[str]) -> int:
    rows, cols = len(grid), len(grid[0])
    ds = DisjointSet(rows * cols)
    water = 0
    for r in range(rows):
        for c in range(cols):
            if grid[r][c] == "0":
                water += 1
                continue
            for dr, dc in ((0, 1), (1, 0)):
                nr, nc = r + dr, c + dc
                if nr < rows and nc < cols and grid[nr][nc] == "1":
                    ds.union(r * cols + c, nr * cols + nc)
    return ds.count - water


def friend_groups(pairs: list[tuple[str, str]]) -> list[list[str]]:
    names = sorted({n for pair in pairs for n in pair})
    index = {name: i for i, name in enumerate(names)}
    ds = DisjointSet(len(names))
    for a, b in pairs:
        merged = ds.union(index[a], index[b])
        if not merged:
            print(f"  {a} and {b} already linked")
    groups: dict[int, list[str]] = {}
    for name in names:
        groups.setdefault(ds.find(index[name]), []).append(name)
    return sorted(groups.values(), key=lambda g: (-len(g), g[0]))


def main() -> None:
    print("islands:", islands(GRID))
    pairs = [("ann", "bob"), ("bob", "cat"), ("dan", "eve"), ("cat", "ann"),
             ("fay", "gus"), ("eve", "hal"), ("ivy", "ivy")]
    for i, group in enumerate(friend_groups(pairs), start=1):
        print(f"group {i}: {', '.join(group)} ({len(group)})")
    ds = DisjointSet(10)
    for a, b in [(0, 1), (2, 3), (1, 3), (5, 6), (7, 8), (8, 9), (9, 7)]:
        ds.union(a, b)
    print("components:", ds.count, "largest:", ds.largest())
    print("roots:", [ds.find(i) for i in range(10)])


if __name__ == "__main__":
    main()
