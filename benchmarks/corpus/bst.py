"""A binary search tree of words: insert, search, delete, in-order generator, height, ranges."""
from __future__ import annotations

from typing import Iterator, Optional


class Node:
    def __init__(self, key: str):
        self.key = key
        self.count = 1
        self.left: Optional[Node] = None
        self.right: Optional[Node] = None


class Tree:
    def __init__(self) -> None:
        self.root: Optional[Node] = None
        self.size = 0

    def insert(self, key: str) -> None:
        if self.root is None:
            self.root = Node(key)
            self.size += 1
            return
        node = self.root
        while True:
            if key == node.key:
                node.count += 1
                return
            if key < node.key:
                if node.left is None:
                    node.left = Node(key)
                    break
                node = node.left
            else:
                if node.right is None:
                    node.right = Node(key)
                    break
                node = node.right
        self.size += 1

    def __contains__(self, key: str) -> bool:
        node = self.root
        while node is not None:
            if key == node.key:
                return True
            node = node.left if key < node.key else node.right
        return False

    def __iter__(self) -> Iterator[Node]:
        stack: list[Node] = []
        node = self.root
        while stack or node is not None:
            while node is not None:
                stack.append(node)
                node = node.left
            node = stack.pop()
            yield node
            node = node.right

    def __len__(self) -> int:
        return self.size

    def height(self) -> int:
        def h(n: Optional[Node]) -> int:
            return 0 if n is None else 1 + max(h(n.left), h(n.right))
        return h(self.root)

    def delete(self, key: str) -> bool:
        def remove(n: Optional[Node], key: str) -> tuple[Optional[Node], bool]:
            if n is None:
                return None, False
            if key < n.key:
                n.left, found = remove(n.left, key)
                return n, found
            if key > n.key:
                n.right, found = remove(n.right, key)
                return n, found
            if n.left is None:
                return n.right, True
            if n.right is None:
                return n.left, True
            succ = n.right
            while succ.left is not None:
                succ = succ.left
            n.key, n.count = succ.key, succ.count
            n.right, _ = remove(n.right, succ.key)
            return n, True

        self.root, found = remove(self.root, key)
        if found:
            self.size -= 1
        return found

    def between(self, lo: str, hi: str) -> list[str]:
        return [n.key for n in self if lo <= n.key <= hi]


TEXT = """it was a bright cold day in april and the clocks were striking thirteen winston smith his chin
nuzzled into his breast in an effort to escape the vile wind slipped quickly through the glass doors"""


def main() -> None:
    tree = Tree()
    for word in TEXT.split():
        tree.insert(word)
    print("distinct words:", len(tree), "height:", tree.height())
    print("repeated:", sorted(((n.count, n.key) for n in tree if n.count > 1), reverse=True))
    print("between 'd' and 'h':", tree.between("d", "h"))
    print({w: w in tree for w in ["april", "orwell", "the"]}, [n.key for n in tree][:5])
    for w in ["the", "april", "zebra", "quickly", "it"]:
        print(f"delete {w}: {tree.delete(w)} -> size {len(tree)}")
    keys = [n.key for n in tree]
    print("still sorted:", keys == sorted(keys), "| contains 'the':", "the" in tree)
    empty = Tree()
    print("empty:", len(empty), empty.height(), list(empty), empty.delete("x"))


if __name__ == "__main__":
    main()
