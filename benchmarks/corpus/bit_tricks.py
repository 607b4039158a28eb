def popcount(x: int) -> int:
    count = 0
    while x:
        x &= x - 1
        count += 1
    return count


def reverse_bits(x: int, width: int) -> int:
    out = 0
    for _ in range(width):
        out = (out << 1) | (x & 1)
        x >>= 1
    return out


def gray(n: int) -> int:
    return n ^ (n >> 1)


def from_gray(g: int) -> int:
    n = 0
    while g:
        n ^= g
        g >>= 1
    return n


def next_same_popcount(x: int) -> int:
    low = x & -x
    ripple = x + low
    ones = ((x ^ ripple) >> 2) // low
    return ripple | ones


def single_number(nums: list[int]) -> int:
    acc = 0
    for n in nums:
        acc ^= n
    return acc


def subsets(items: list[str]) -> list[list[str]]:
    result = []
    for mask in range(1 << len(items)):
        result.append([items[i] for i in range(len(items)) if mask >> i & 1])
    return result


def main():
    for x in [0, 1, 5, 255, 1023, 2 ** 31 - 1, -1 & 0xFFFF]:
        print(f"{x:>10} {x:#x} {x:b} pop={popcount(x)} bin_count={bin(x).count('1')}")
    for x in [1, 6, 13, 0b10110000]:
        r = reverse_bits(x, 8)
        print(f"{x:08b} -> {r:08b} ({r})")
    print("gray:", [format(gray(i), "04b") for i in range(8)])
    print("back:", [from_gray(gray(i)) for i in range(16)] == list(range(16)))
    x = 0b0111
    chain = []
    for _ in range(6):
        chain.append(bin(x))
        x = next_same_popcount(x)
    print(" ".join(chain))
    print("single:", single_number([4, 7, 2, 7, 4, 9, 2]))
    for s in subsets(["a", "b", "c"]):
        print("{" + ",".join(s) + "}", end=" ")
    print()
    a, b = 12, 25
    a ^= b
    b ^= a
    a ^= b
    print("swapped", a, b)
    for n in [0, 1, 2, 3, 64, 96, 1 << 40]:
        print(n, "pow2" if n and not n & (n - 1) else "-", n.bit_length(), (n & -n) if n else 0)
    print(int("101101", 2), int("ff", 16), int("777", 8), int("0b1010", 0), hex(48879), oct(8))
    print(~5, -7 >> 1, -7 // 2, 7 << 3, -1 & 255, 5 ^ -3, ~0 & 0xF)
    hamming = [[popcount(i ^ j) for j in range(6)] for i in range(6)]
    for row in hamming:
        print(" ".join(str(v) for v in row))
    mask = 0
    for bit in [3, 1, 4, 1, 5, 9, 2, 6]:
        mask |= 1 << bit
    print(f"mask={mask:016b} set={[i for i in range(16) if mask & (1 << i)]}")
    print(f"{-42:+08b} {42:_b} {1234567:,} {255:o} {255:X} {255:#010x}")


if __name__ == "__main__":
    main()
