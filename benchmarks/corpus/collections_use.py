from collections import Counter, defaultdict, deque


def word_stats(text):
    words = [w.strip(".,!?;:").lower() for w in text.split()]
    words = [w for w in words if w]
    counts = Counter(words)
    print(counts.most_common(4))
    print(counts["the"], counts["missing"])
    by_len = defaultdict(list)
    for w in words:
        by_len[len(w)].append(w)
    for n in sorted(by_len):
        print(n, sorted(set(by_len[n])))
    letters = Counter(c for c in text.lower() if c.isalpha())
    print(sorted(letters.items(), key=lambda kv: (-kv[1], kv[0]))[:5])
    return counts


def sliding_max(nums, k):
    dq = deque()
    out = []
    for i, x in enumerate(nums):
        while dq and nums[dq[-1]] <= x:
            dq.pop()
        dq.append(i)
        if dq[0] <= i - k:
            dq.popleft()
        if i >= k - 1:
            out.append(nums[dq[0]])
    return out


def bfs(graph, start):
    seen = {start}
    order = []
    queue = deque([start])
    while queue:
        node = queue.popleft()
        order.append(node)
        for nxt in graph[node]:
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return order


def main():
    text = "The cat sat on the mat. The dog sat on the log! Did the cat see the dog?"
    counts = word_stats(text)
    more = Counter(["cat", "cat", "bird"])
    merged = counts + more
    print(merged["cat"], merged["bird"])
    print(sum(counts.values()), len(counts))
    print(sliding_max([1, 3, -1, -3, 5, 3, 6, 7], 3))
    graph = defaultdict(list)
    for a, b in [(1, 2), (1, 3), (2, 4), (3, 4), (4, 5), (5, 1), (6, 7)]:
        graph[a].append(b)
        graph[b].append(a)
    print(bfs(graph, 1), bfs(graph, 6))
    print(dict(sorted(graph.items())))
    dq = deque([1, 2, 3], maxlen=4)
    dq.append(4)
    dq.append(5)
    dq.appendleft(0)
    print(list(dq), len(dq))
    dq.rotate(1)
    print(list(dq))
    dq.extend([7, 8])
    print(list(dq), dq[0], dq[-1])
    counter = defaultdict(int)
    for ch in "mississippi":
        counter[ch] += 1
    print(sorted(counter.items()))
    nested = defaultdict(lambda: defaultdict(int))
    for word in ["apple", "avocado", "banana", "blueberry", "cherry", "apricot"]:
        nested[word[0]][len(word)] += 1
    for k in sorted(nested):
        print(k, dict(nested[k]))
    c = Counter("abracadabra")
    print(c.most_common(2), c["a"], list(c.elements())[:6])
    c.update("aaz")
    c.subtract("b")
    print(sorted(c.items()))


main()
