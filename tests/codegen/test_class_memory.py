"""Objects are freed when their last reference goes: a million objects made and dropped (each
holding a list and a reference to another) must not grow the process (peak resident memory,
with a generous bound, never a time). A leak of the objects would grow it by well over 100 MiB."""
import textwrap

from helpers import memory_growth_mib

CHURN = textwrap.dedent('''
    class Item:
        def __init__(self, value: int):
            self.value = value
            self.tags: list[int] = [value, value + 1]
            self.next: "Item | None" = None


    def churn(n: int) -> int:
        total = 0
        keep = Item(0)
        for i in range(n):
            a = Item(i)
            b = Item(i + 1)
            a.next = b
            b.next = Item(i + 2)  # replaced: the old object goes
            keep.next = a         # the previous `a` (and what it holds) goes
            total += a.value + len(keep.tags)
        return total


    def trees(rounds: int, depth: int) -> int:
        total = 0
        for r in range(rounds):
            total += check(make(depth))
        return total


    class Node:
        def __init__(self, left: "Node | None", right: "Node | None"):
            self.left = left
            self.right = right


    def make(depth: int) -> Node:
        if depth == 0:
            return Node(None, None)
        return Node(make(depth - 1), make(depth - 1))


    def check(node: Node) -> int:
        if node.left is None:
            return 1
        return 1 + check(node.left) + check(node.right)
''')

MEASURE = textwrap.dedent('''
    import resource, sys
    import pyx
    m = pyx.import_module("objects", path=[sys.argv[1]], target="cpu")
    assert m.churn(1000) == sum(range(1000)) + 2 * 1000
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    assert m.churn(1_000_000) == sum(range(1_000_000)) + 2 * 1_000_000
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print((after - before) // 1024)
    assert m.trees(2, 10) == 2 * 2047
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    assert m.trees(200, 12) == 200 * 8191
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print((after - before) // 1024)
''')


def test_a_million_objects_keep_memory_flat(tmp_path):
    churned, trees = memory_growth_mib(tmp_path, "objects", CHURN, MEASURE)
    assert churned < 32
    assert trees < 32
