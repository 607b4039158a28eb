# Mojo twin of benchmarks/corpus/revcomp.py; `revcomp [N]`. The sequence is bytes, and a 256-entry
# table gives each byte's complement.
from std.sys import argv


def reverse_complement(seq: String) -> List[UInt8]:
    var table = List[UInt8](length=256, fill=0)
    table[ord("A")] = UInt8(ord("T"))
    table[ord("C")] = UInt8(ord("G"))
    table[ord("G")] = UInt8(ord("C"))
    table[ord("T")] = UInt8(ord("A"))
    table[ord("N")] = UInt8(ord("N"))
    var b = seq.as_bytes()
    var n = len(b)
    var out = List[UInt8](capacity=n)
    for i in range(n):
        out.append(table[Int(b[n - 1 - i])])
    return out^


def main() raises:
    var n = 13
    if len(argv()) > 1:
        n = atol(argv()[1])
    var seq = String("ACGTTGCAAN") * n
    var rc = reverse_complement(seq)
    for i in range(0, len(rc), 60):
        print(String(unsafe_from_utf8=Span(rc)[i : min(i + 60, len(rc))]))
