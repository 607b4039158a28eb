"""A directed graph of objects, as a Python user models one: Node objects that keep lists of Edge
objects pointing at other nodes (reference cycles included), a Graph that owns them, and the
classic walks over it: breadth-first distances, depth-first topological order, strongly
connected components (Tarjan), and Dijkstra with a heap of (distance, id) pairs."""
import heapq


class Node:
    def __init__(self, ident: int, name: str):
        self.ident = ident
        self.name = name
        self.out: list["Edge"] = []
        self.index = -1
        self.low = 0
        self.on_stack = False

    def __repr__(self) -> str:
        return f"Node({self.name})"


class Edge:
    def __init__(self, source: Node, target: Node, weight: int):
        self.source = source
        self.target = target
        self.weight = weight


class Graph:
    def __init__(self):
        self.nodes: list[Node] = []

    def add_node(self, name: str) -> Node:
        node = Node(len(self.nodes), name)
        self.nodes.append(node)
        return node

    def connect(self, a: Node, b: Node, weight: int):
        a.out.append(Edge(a, b, weight))

    def distances_from(self, start: Node) -> list[int]:
        dist = [-1] * len(self.nodes)
        dist[start.ident] = 0
        queue = [start]
        head = 0
        while head < len(queue):
            node = queue[head]
            head += 1
            for edge in node.out:
                if dist[edge.target.ident] < 0:
                    dist[edge.target.ident] = dist[node.ident] + 1
                    queue.append(edge.target)
        return dist

    def shortest_paths(self, start: Node) -> list[int]:
        best = [10 ** 9] * len(self.nodes)
        best[start.ident] = 0
        heap = [(0, start.ident)]
        while heap:
            d, k = heapq.heappop(heap)
            if d > best[k]:
                continue
            for edge in self.nodes[k].out:
                nd = d + edge.weight
                if nd < best[edge.target.ident]:
                    best[edge.target.ident] = nd
                    heapq.heappush(heap, (nd, edge.target.ident))
        return best

    def components(self) -> list[list[Node]]:
        counter = [0]
        stack: list[Node] = []
        found: list[list[Node]] = []
        for node in self.nodes:
            if node.index < 0:
                self.strongconnect(node, counter, stack, found)
        return found

    def strongconnect(self, v: Node, counter: list[int], stack: list[Node], found: list[list[Node]]) -> None:
        v.index = counter[0]
        v.low = counter[0]
        counter[0] += 1
        stack.append(v)
        v.on_stack = True
        for edge in v.out:
            w = edge.target
            if w.index < 0:
                self.strongconnect(w, counter, stack, found)
                v.low = min(v.low, w.low)
            elif w.on_stack:
                v.low = min(v.low, w.index)
        if v.low == v.index:
            component: list[Node] = []
            while True:
                w = stack.pop()
                w.on_stack = False
                component.append(w)
                if w is v:
                    break
            found.append(component)


def build(n: int, seed: int) -> Graph:
    g = Graph()
    nodes = [g.add_node(f"n{i}") for i in range(n)]
    for i in range(n):
        for _ in range(3):
            seed = (seed * 1103515245 + 12345) % 2147483648
            j = seed % n
            if j != i:
                g.connect(nodes[i], nodes[j], 1 + seed % 17)
        if i + 1 < n and i % 5 != 4:
            g.connect(nodes[i], nodes[i + 1], 3)
    return g


ROUNDS = 2  # benchmark size: 1000


def main():
    for r in range(ROUNDS):
        g = build(300, 12345 + r)
        dist = g.distances_from(g.nodes[0])
        best = g.shortest_paths(g.nodes[0])
        comps = g.components()
        sizes = sorted((len(c) for c in comps), reverse=True)
        if r < 2 or r == ROUNDS - 1:
            print("graph", r, "reachable", sum(1 for d in dist if d >= 0), "deepest", max(dist))
            print("  weighted total", sum(b for b in best if b < 10 ** 9))
            print("  components", len(comps), "largest", sizes[:3], g.nodes[0], comps[0][0])


if __name__ == "__main__":
    main()
