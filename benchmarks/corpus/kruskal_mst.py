"""Minimum spanning trees of a road network: Kruskal with union-find, Prim with heapq, and components."""
import heapq
from collections import defaultdict


class DisjointSet:
    def __init__(self, items: list[str]):
        self.parent = {x: x for x in items}
        self.rank = {x: 0 for x in items}
        self.sets = len(items)

    def find(self, x: str) -> str:
        root = x
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[x] != root:  # path compression
            self.parent[x], x = root, self.parent[x]
        return root

    def union(self, a: str, b: str) -> bool:
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return False
        if self.rank[ra] < self.rank[rb]:
            ra, rb = rb, ra
        self.parent[rb] = ra
        if self.rank[ra] == self.rank[rb]:
            self.rank[ra] += 1
        self.sets -= 1
        return True


ROADS = """
amber birch 7
amber cedar 5
birch cedar 8
birch delta 9
birch elm 7
cedar delta 15
cedar fir 6
delta elm 5
delta fir 8
elm fir 9
elm grove 8
fir grove 11
hill isle 3
"""


def parse(text: str) -> list[tuple[int, str, str]]:
    edges = []
    for line in text.strip().splitlines():
        a, b, w = line.split()
        edges.append((int(w), a, b))
    return edges


def kruskal(towns: list[str], edges: list[tuple[int, str, str]]) -> tuple[int, list[tuple[int, str, str]], int]:
    ds = DisjointSet(towns)
    chosen = []
    for w, a, b in sorted(edges):
        if ds.union(a, b):
            chosen.append((w, a, b))
    return sum(w for w, _, _ in chosen), chosen, ds.sets


def prim(start: str, edges: list[tuple[int, str, str]]) -> tuple[int, list[str]]:
    adj: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for w, a, b in edges:
        adj[a].append((w, b))
        adj[b].append((w, a))
    seen = {start}
    order = [start]
    heap = [(w, start, b) for w, b in adj[start]]
    heapq.heapify(heap)
    total = 0
    while heap:
        w, a, b = heapq.heappop(heap)
        if b in seen:
            continue
        seen.add(b)
        order.append(b)
        total += w
        for w2, c in adj[b]:
            if c not in seen:
                heapq.heappush(heap, (w2, b, c))
    return total, order


def main() -> None:
    edges = parse(ROADS)
    towns = sorted({t for _, a, b in edges for t in (a, b)})
    print(len(towns), "towns,", len(edges), "roads:", ", ".join(towns))
    total, chosen, parts = kruskal(towns, edges)
    for w, a, b in chosen:
        print(f"  {a:>6} -- {b:<6} {w:3d}")
    print(f"kruskal total {total} in {parts} component(s)")
    ptotal, order = prim("amber", edges)
    print("prim from amber:", ptotal, "->".join(order))
    ds = DisjointSet(towns)
    for _, a, b in edges:
        ds.union(a, b)
    groups: dict[str, list[str]] = defaultdict(list)
    for t in towns:
        groups[ds.find(t)].append(t)
    for members in sorted(groups.values(), key=len, reverse=True):
        print(f"component of {len(members)}: {members}")
    heaviest = max(chosen, key=lambda e: e[0])
    unused = [e for e in edges if e not in chosen]
    print("heaviest tree road:", heaviest, "| unused roads:", len(unused), "saving", sum(e[0] for e in unused))


if __name__ == "__main__":
    main()
