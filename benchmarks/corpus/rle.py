def encode(s: str) -> str:
    if not s:
        return ""
    out = []
    prev = s[0]
    count = 1
    for ch in s[1:]:
        if ch == prev:
            count += 1
        else:
            out.append(str(count) + prev)
            prev = ch
            count = 1
    out.append(str(count) + prev)
    return "".join(out)


def decode(s: str) -> str:
    out = ""
    num = ""
    for ch in s:
        if ch.isdigit():
            num += ch
        else:
            out += ch * int(num)
            num = ""
    return out


N = 1  # benchmark size: 40000


def main():
    long = "WWWWWWWWWWWWBWWWWWWWWWWWWBBBWWWWWWWWWWWWWWWWWWWWWWWWBWWWWWWWWWWWWWW" * N
    for s in [long, "abc", "", "aabcccdddd"]:
        e = encode(s)
        print(repr(e[:60]), len(e), decode(e) == s)


if __name__ == "__main__":
    main()
