# Mojo twin of benchmarks/corpus/fasta.py; `fasta [N]`.
from std.sys import argv

comptime IM = 139968
comptime IA = 3877
comptime IC = 29573


struct Random:
    var last: Int

    def __init__(out self, seed: Int):
        self.last = seed

    def next(mut self, maximum: Float64) -> Float64:
        self.last = (self.last * IA + IC) % IM
        return maximum * Float64(self.last) / Float64(IM)


def repeat_fasta(header: String, src: String, count: Int):
    print(header)
    var width = 60
    var pos = 0
    var length = src.byte_length()
    var s = src + String(unsafe_from_utf8=src.as_bytes()[0:width])
    var b = s.as_bytes()
    var n = count
    while n > 0:
        var line = min(width, n)
        print(String(unsafe_from_utf8=b[pos : pos + line]))
        pos += line
        if pos > length:
            pos -= length
        n -= line


def random_fasta(header: String, chars: List[UInt8], table: List[Float64], count: Int, mut rng: Random):
    print(header)
    var probs = List[Float64]()
    var acc = 0.0
    for p in table:
        acc += p
        probs.append(acc)
    var width = 60
    var n = count
    var line_bytes = List[UInt8](capacity=width)
    while n > 0:
        var line = min(width, n)
        line_bytes.clear()
        for _ in range(line):
            var r = rng.next(1.0)
            for i in range(len(probs)):
                if r < probs[i]:
                    line_bytes.append(chars[i])
                    break
        print(String(unsafe_from_utf8=Span(line_bytes)))
        n -= line


def codes(letters: String) -> List[UInt8]:
    var out = List[UInt8]()
    for b in letters.as_bytes():
        out.append(b)
    return out^


def main() raises:
    var n = 1000
    if len(argv()) > 1:
        n = atol(argv()[1])
    var alu = String(
        "GGCCGGGCGCGGTGGCTCACGCCTGTAATCCCAGCACTTTGG"
        "GAGGCCGAGGCGGGCGGATCACCTGAGGTCAGGAGTTCGAGA"
        "CCAGCCTGGCCAACATGGTGAAACCCCGTCTCTACTAAAAAT"
    )
    var rng = Random(42)
    var iub: List[Float64] = [0.27, 0.12, 0.12, 0.27, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02]
    var homo: List[Float64] = [0.3029549426680, 0.1979883004921, 0.1975473066391, 0.3015094502008]
    repeat_fasta(">ONE Homo sapiens alu", alu, n * 2)
    random_fasta(">TWO IUB ambiguity codes", codes("acgtBDHKMNRSVWY"), iub, n * 3, rng)
    random_fasta(">THREE Homo sapiens frequency", codes("acgt"), homo, n * 5, rng)
