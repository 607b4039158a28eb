"""Base64 and hex encoding written by hand, checked against round trips."""

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
DECODE = {ch: i for i, ch in enumerate(ALPHABET)}


def b64encode(data: bytes) -> str:
    out: list[str] = []
    for i in range(0, len(data), 3):
        chunk = data[i:i + 3]
        n = len(chunk)
        value = 0
        for b in chunk:
            value = (value << 8) | b
        value <<= 8 * (3 - n)
        chars = [ALPHABET[(value >> shift) & 0x3F] for shift in (18, 12, 6, 0)]
        out.append("".join(chars[:n + 1]) + "=" * (3 - n))
    return "".join(out)


def b64decode(text: str) -> bytes:
    if len(text) % 4:
        raise ValueError(f"length {len(text)} is not a multiple of 4")
    result = bytearray()
    for i in range(0, len(text), 4):
        quad = text[i:i + 4]
        pad = quad.count("=")
        value = 0
        for ch in quad.rstrip("="):
            if ch not in DECODE:
                raise ValueError(f"bad character {ch!r} at {i}")
            value = (value << 6) | DECODE[ch]
        value <<= 6 * pad
        for shift in (16, 8, 0)[:3 - pad]:
            result.append((value >> shift) & 0xFF)
    return bytes(result)


def hexlify(data: bytes) -> str:
    return "".join(f"{b:02x}" for b in data)


def checksum(data: bytes) -> int:
    a, b = 1, 0
    for byte in data:
        a = (a + byte) % 65521
        b = (b + a) % 65521
    return (b << 16) | a


def main() -> None:
    samples = ["", "f", "fo", "foo", "foob", "fooba", "foobar", "Hello, World!", "pyx ✓ ünïcode"]
    for s in samples:
        raw = s.encode("utf-8")
        enc = b64encode(raw)
        dec = b64decode(enc)
        assert dec == raw
        print(f"{s!r:>18} -> {enc!r:<26} {len(raw):2d} bytes  adler32={checksum(raw):08x}")
    print(hexlify(b"\x00\x01\xfe\xff"), hexlify("é".encode()))
    blob = bytes(range(256))
    enc = b64encode(blob)
    print(len(enc), enc[:20], enc[-8:])
    print(b64decode(enc) == blob, checksum(blob))
    for bad in ["abc", "ab!d", "QUJD"]:
        try:
            print(bad, "->", b64decode(bad))
        except ValueError as e:
            print(bad, "->", "ValueError:", e)
    text = b64decode("cHl4IGNvbXBpbGVz").decode()
    print(text.upper(), text.split())
    counts = {}
    for ch in b64encode(b"the quick brown fox jumps over the lazy dog"):
        counts[ch] = counts.get(ch, 0) + 1
    top = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:5]
    print(top)


if __name__ == "__main__":
    main()
