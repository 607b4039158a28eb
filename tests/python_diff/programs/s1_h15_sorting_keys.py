def main():
    words = ["banana", "Apple", "cherry", "apple"]
    print(sorted(words), sorted(words, key=lambda w: w.lower()), sorted(words, key=len, reverse=True))
    print(min(words), max(words, key=len), "-".join(sorted(set(w.lower() for w in words))))
    nums = [3, -1, 4, -1, 5, -9]
    print(sorted(nums, key=abs), sorted(nums, key=lambda v: (v % 3, v)))
    pairs = [(1, "b"), (1, "a"), (0, "z")]
    pairs.sort()
    print(pairs)

if __name__ == "__main__":
    main()
