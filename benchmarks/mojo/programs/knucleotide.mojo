# Mojo twin of benchmarks/corpus/knucleotide.py; `knucleotide [N]`: the same Dict[String, Int] of
# fragments.
from std.sys import argv
from std.collections import Dict


def make_sequence(n: Int) -> String:
    var seed = 42
    var letters = "ACGT".as_bytes()
    var out = List[UInt8](capacity=n)
    for _ in range(n):
        seed = (seed * 3877 + 29573) % 139968
        out.append(letters[seed * 4 // 139968])
    return String(unsafe_from_utf8=Span(out))


def frequencies(seq: String, k: Int) -> Dict[String, Int]:
    var counts = Dict[String, Int]()
    var b = seq.as_bytes()
    for i in range(len(b) - k + 1):
        var frag = String(unsafe_from_utf8=b[i : i + k])
        counts[frag] = counts.get(frag, 0) + 1
    return counts^


def fixed(x: Float64, digits: Int) -> String:
    """`"%.{digits}f" % x` for 0 <= x * 10**digits < 2**52, rounded as Python rounds it: to the nearest
    of the exact binary value, ties to even (Mojo's String has no printf-style format). x * scale
    is p + e exactly (e from an FMA), and p's fraction decides unless it is one half."""
    var scale = Float64(10**digits)
    var p = x * scale
    var e = x.fma(scale, -p)
    var whole = Int(p)  # p >= 0: the floor
    var half = p - Float64(whole)  # exact
    if half > 0.5 or (half == 0.5 and (e > 0.0 or (e == 0.0 and whole % 2 == 1))):
        whole += 1
    var frac = String(whole % 10**digits)
    while frac.byte_length() < digits:
        frac = "0" + frac
    return String(whole // 10**digits) + "." + frac


def main() raises:
    var n = 5000
    if len(argv()) > 1:
        n = atol(argv()[1])
    var seq = make_sequence(n)
    for k in range(1, 3):
        var freqs = frequencies(seq, k)
        var frags = List[String]()
        var counts = List[Int]()
        var total = 0
        for item in freqs.items():
            frags.append(item.key)
            counts.append(item.value)
            total += item.value
        # Sorted by count, largest first, then by fragment (at most 16 of them: a selection sort).
        for i in range(len(frags)):
            var best = i
            for j in range(i + 1, len(frags)):
                if counts[j] > counts[best] or (counts[j] == counts[best] and frags[j] < frags[best]):
                    best = j
            frags.swap_elements(i, best)
            counts.swap_elements(i, best)
        for i in range(len(frags)):
            print(frags[i], fixed(100.0 * Float64(counts[i]) / Float64(total), 3))
        print()
    for frag in ["GGT", "GGTA", "GGTATT"]:
        var counts = frequencies(seq, frag.byte_length())
        print(String(counts.get(frag, 0)) + "\t" + frag)
