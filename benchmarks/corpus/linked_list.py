from typing import Optional


class Node:
    def __init__(self, value: int, next: Optional["Node"] = None):
        self.value = value
        self.next = next


class LinkedList:
    def __init__(self):
        self.head: Optional[Node] = None
        self.size = 0

    def push(self, value: int):
        self.head = Node(value, self.head)
        self.size += 1

    def reverse(self):
        prev = None
        cur = self.head
        while cur is not None:
            nxt = cur.next
            cur.next = prev
            prev = cur
            cur = nxt
        self.head = prev

    def to_list(self) -> list[int]:
        out = []
        cur = self.head
        while cur is not None:
            out.append(cur.value)
            cur = cur.next
        return out


def main():
    ll = LinkedList()
    for i in range(6):
        ll.push(i * i)
    print(ll.size, ll.to_list())
    ll.reverse()
    print(ll.to_list())


if __name__ == "__main__":
    main()
