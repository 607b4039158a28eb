"""A least-recently-used cache on an OrderedDict, driven by a fixed access pattern."""
from collections import OrderedDict


class LRUCache:
    def __init__(self, capacity):
        self.capacity = capacity
        self.data = OrderedDict()
        self.hits = 0
        self.misses = 0

    def get(self, key):
        if key in self.data:
            self.data.move_to_end(key)
            self.hits += 1
            return self.data[key]
        self.misses += 1
        return -1

    def put(self, key, value):
        if key in self.data:
            self.data.move_to_end(key)
        self.data[key] = value
        if len(self.data) > self.capacity:
            oldest, _ = self.data.popitem(last=False)
            print("evict", oldest)


def main():
    cache = LRUCache(3)
    for k in [1, 2, 3, 1, 4, 2, 5, 1, 3]:
        if cache.get(k) == -1:
            cache.put(k, k * k)
    print(list(cache.data.items()))
    print("hits", cache.hits, "misses", cache.misses)


if __name__ == "__main__":
    main()
