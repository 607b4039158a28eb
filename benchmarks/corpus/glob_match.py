def match_class(pattern: str, i: int, ch: str) -> tuple[bool, int]:
    # pattern[i] is '['; returns (matched, index after ']')
    j = i + 1
    negate = False
    if j < len(pattern) and pattern[j] == "!":
        negate = True
        j += 1
    found = False
    first = True
    while j < len(pattern) and (pattern[j] != "]" or first):
        first = False
        if j + 2 < len(pattern) and pattern[j + 1] == "-" and pattern[j + 2] != "]":
            if pattern[j] <= ch <= pattern[j + 2]:
                found = True
            j += 3
        else:
            if pattern[j] == ch:
                found = True
            j += 1
    return found != negate, j + 1


def glob(pattern: str, text: str) -> bool:
    memo: dict[tuple[int, int], bool] = {}

    def go(p: int, t: int) -> bool:
        key = (p, t)
        if key in memo:
            return memo[key]
        if p == len(pattern):
            result = t == len(text)
        elif pattern[p] == "*":
            result = go(p + 1, t) or (t < len(text) and go(p, t + 1))
        elif t == len(text):
            result = False
        elif pattern[p] == "?":
            result = go(p + 1, t + 1)
        elif pattern[p] == "[":
            ok, nxt = match_class(pattern, p, text[t])
            result = ok and go(nxt, t + 1)
        else:
            result = pattern[p] == text[t] and go(p + 1, t + 1)
        memo[key] = result
        return result

    return go(0, 0)


def describe(pattern: str) -> str:
    parts = []
    for ch in pattern:
        if ch == "*":
            parts.append("ANY*")
        elif ch == "?":
            parts.append("ONE")
        else:
            parts.append(repr(ch))
    return " ".join(parts)


FILES = [
    "main.py", "main.pyc", "setup.cfg", "README.md", "notes.txt", "data1.csv",
    "data2.csv", "data10.csv", "img_001.png", "img_002.jpg", "Makefile", ".hidden",
    "test_main.py", "test_util.py", "util.py", "a.b.c",
]
PATTERNS = ["*.py", "test_*", "data?.csv", "data*.csv", "*.[ch]", "img_00[0-9].*",
            "[!.]*", "*.*.*", "[A-Z]*", "*", "?????", "*[0-9]*", "[]]", "*.p[!n]*"]


def main():
    for pat in PATTERNS:
        hits = [f for f in FILES if glob(pat, f)]
        print(f"{pat:<15}{len(hits):>3}  {hits}")
    print(describe("img_??.*"))
    checks = [("a*b*c", "aXbYc"), ("a*b*c", "abcabc"), ("a*b*c", "acb"), ("*a*", ""),
              ("", ""), ("*", ""), ("[a-c][!a-c]", "bd"), ("[a-c][!a-c]", "bb"), ("[]]", "]"),
              ("a[-]b", "a-b"), ("**x**", "xx")]
    for p, t in checks:
        print(repr(p), repr(t), glob(p, t))
    table: dict[str, list[str]] = {}
    for f in FILES:
        ext = f.rsplit(".", 1)[1] if "." in f[1:] else "(none)"
        table.setdefault(ext, []).append(f)
    for ext in sorted(table, key=lambda e: (-len(table[e]), e)):
        print(ext.ljust(8, "."), len(table[ext]), ", ".join(sorted(table[ext], key=str.lower)))
    long_pat = "*" * 10 + "z"
    print(glob(long_pat, "a" * 30), glob(long_pat, "a" * 30 + "z"))


if __name__ == "__main__":
    main()
