# The Computer Language Benchmarks Game's binary-trees, as a Python programmer writes it with a
# class: allocate and walk many small trees, and keep one long-lived tree.


class Node:
    def __init__(self, left: "Node | None", right: "Node | None"):
        self.left = left
        self.right = right


def make_tree(depth: int) -> Node:
    if depth == 0:
        return Node(None, None)
    depth -= 1
    return Node(make_tree(depth), make_tree(depth))


def check_tree(node: Node) -> int:
    if node.left is None:
        return 1
    return 1 + check_tree(node.left) + check_tree(node.right)


# The Benchmarks Game runs 21; 10 keeps the tests quick; the whole-program benchmark table runs 15.
N = 10  # benchmark size: 15


def main():
    n = N
    min_depth = 4
    max_depth = max(min_depth + 2, n)
    stretch_depth = max_depth + 1
    print(f"stretch tree of depth {stretch_depth}\t check: {check_tree(make_tree(stretch_depth))}")
    long_lived_tree = make_tree(max_depth)
    for depth in range(min_depth, stretch_depth, 2):
        iterations = 2 ** (max_depth - depth + min_depth)
        check = 0
        for _ in range(iterations):
            check += check_tree(make_tree(depth))
        print(f"{iterations}\t trees of depth {depth}\t check: {check}")
    print(f"long lived tree of depth {max_depth}\t check: {check_tree(long_lived_tree)}")


if __name__ == "__main__":
    main()
