import heapq
from collections import Counter


class Node:
    def __init__(self, weight: int, symbol: str = "", left: "Node | None" = None, right: "Node | None" = None):
        self.weight = weight
        self.symbol = symbol
        self.left = left
        self.right = right

    def is_leaf(self) -> bool:
        return self.left is None and self.right is None


def build_tree(text: str) -> Node:
    freq = Counter(text)
    nodes: list[Node] = []
    heap: list[tuple[int, int, int]] = []
    for sym, w in sorted(freq.items()):
        heapq.heappush(heap, (w, len(nodes), len(nodes)))
        nodes.append(Node(w, sym))
    order = len(nodes)
    while len(heap) > 1:
        w1, _, i1 = heapq.heappop(heap)
        w2, _, i2 = heapq.heappop(heap)
        nodes.append(Node(w1 + w2, "", nodes[i1], nodes[i2]))
        heapq.heappush(heap, (w1 + w2, order, len(nodes) - 1))
        order += 1
    return nodes[heap[0][2]]


def codes(node: Node, prefix: str, table: dict[str, str]):
    if node.is_leaf():
        table[node.symbol] = prefix or "0"
        return
    if node.left is not None:
        codes(node.left, prefix + "0", table)
    if node.right is not None:
        codes(node.right, prefix + "1", table)


def decode(root: Node, bits: str) -> str:
    out = []
    node = root
    for b in bits:
        nxt = node.left if b == "0" else node.right
        if nxt is None:
            raise ValueError("bad bit string")
        node = nxt
        if node.is_leaf():
            out.append(node.symbol)
            node = root
    return "".join(out)


def depth(node: Node | None) -> int:
    if node is None:
        return 0
    return 1 + max(depth(node.left), depth(node.right))


def main():
    samples = ["abracadabra", "mississippi river", "aaaaaaaab", "x",
               "the quick brown fox jumps over the lazy dog"]
    for text in samples:
        root = build_tree(text)
        table: dict[str, str] = {}
        codes(root, "", table)
        bits = "".join(table[c] for c in text)
        back = decode(root, bits) if len(table) > 1 else text
        ratio = len(bits) / (8 * len(text))
        print(f"{text[:20]!r:<24} symbols={len(table):>2} bits={len(bits):>4} ratio={ratio:.3f} "
              f"depth={depth(root)} ok={back == text}")
        if len(text) < 20:
            for sym in sorted(table, key=lambda s: (len(table[s]), s)):
                print(f"    {sym!r}: {table[sym]}")
            print("   ", bits[:48] + ("..." if len(bits) > 48 else ""))
    root = build_tree("abracadabra")
    table2: dict[str, str] = {}
    codes(root, "", table2)
    weighted = sum(len(table2[c]) * n for c, n in Counter("abracadabra").items())
    print("weighted path length", weighted, "root weight", root.weight)
    lengths = Counter(len(v) for v in table2.values())
    print(sorted(lengths.items()))
    try:
        decode(build_tree("aaa"), "01")
    except ValueError as e:
        print("error:", e)
    prefix_free = all(not b.startswith(a) for a in table2.values() for b in table2.values() if a != b)
    print("prefix free:", prefix_free)


if __name__ == "__main__":
    main()
