import heapq


class TrieNode:
    def __init__(self):
        self.children = {}
        self.end = False
        self.count = 0


class Trie:
    def __init__(self):
        self.root = TrieNode()

    def insert(self, word):
        node = self.root
        for ch in word:
            if ch not in node.children:
                node.children[ch] = TrieNode()
            node = node.children[ch]
            node.count += 1
        node.end = True

    def contains(self, word):
        node = self.find(word)
        return node is not None and node.end

    def find(self, prefix):
        node = self.root
        for ch in prefix:
            node = node.children.get(ch)
            if node is None:
                return None
        return node

    def words(self, prefix):
        node = self.find(prefix)
        out = []
        if node is None:
            return out

        def walk(n, path):
            if n.end:
                out.append(path)
            for ch in sorted(n.children):
                walk(n.children[ch], path + ch)

        walk(node, prefix)
        return out


def top_k(words, k):
    counts = {}
    for w in words:
        counts[w] = counts.get(w, 0) + 1
    heap = []
    for w, c in counts.items():
        heapq.heappush(heap, (c, w))
        if len(heap) > k:
            heapq.heappop(heap)
    return sorted(heap, reverse=True)


def merge_sorted(lists):
    heap = [(lst[0], i, 0) for i, lst in enumerate(lists) if lst]
    heapq.heapify(heap)
    out = []
    while heap:
        value, i, j = heapq.heappop(heap)
        out.append(value)
        if j + 1 < len(lists[i]):
            heapq.heappush(heap, (lists[i][j + 1], i, j + 1))
    return out


def main():
    text = "the quick brown fox jumps over the lazy dog the fox then thought that the dog was quick"
    words = text.split()
    t = Trie()
    for w in words:
        t.insert(w)
    for p in ["th", "qu", "d", "x", ""]:
        print(repr(p), t.words(p))
    print(t.contains("the"), t.contains("th"), t.contains("zebra"))
    node = t.find("th")
    print(node.count if node else 0)
    print(top_k(words, 3))
    print(merge_sorted([[1, 4, 9], [2, 3, 10, 11], [], [0, 5]]))
    tasks = []
    heapq.heappush(tasks, (2, "write"))
    heapq.heappush(tasks, (1, "plan"))
    heapq.heappush(tasks, (3, "test"))
    heapq.heappush(tasks, (1, "coffee"))
    while tasks:
        pri, name = heapq.heappop(tasks)
        print(pri, name)
    nums = [5, 1, 8, 3, 9, 2, 7]
    print(heapq.nlargest(3, nums), heapq.nsmallest(2, nums))
    h = list(nums)
    heapq.heapify(h)
    print(h[0], heapq.heappushpop(h, 0), heapq.heapreplace(h, 10), sorted(h))


main()
