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


def main():
    for s in ["WWWWWWWWWWWWBWWWWWWWWWWWWBBBWWWWWWWWWWWWWWWWWWWWWWWWBWWWWWWWWWWWWWW", "abc", "", "aabcccdddd"]:
        e = encode(s)
        print(repr(e), decode(e) == s)


if __name__ == "__main__":
    main()
