PARAGRAPH = """  The quick brown fox jumps over the lazy dog.   Pack my box with
five dozen liquor jugs!  How vexingly quick daft zebras jump; sphinx of black
quartz, judge my vow.   THE FIVE BOXING WIZARDS JUMP QUICKLY.  """


def wrap(words: list[str], width: int) -> list[list[str]]:
    lines: list[list[str]] = []
    current: list[str] = []
    length = 0
    for w in words:
        if current and length + 1 + len(w) > width:
            lines.append(current)
            current = []
            length = 0
        length += len(w) + (1 if current else 0)
        current.append(w)
    if current:
        lines.append(current)
    return lines


def justify(line: list[str], width: int) -> str:
    if len(line) == 1:
        return line[0].ljust(width)
    gaps = len(line) - 1
    spaces = width - sum(len(w) for w in line)
    base, extra = divmod(spaces, gaps)
    out = ""
    for i, w in enumerate(line[:-1]):
        out += w + " " * (base + (1 if i < extra else 0))
    return out + line[-1]


def boxed(lines: list[str]) -> str:
    width = max(len(l) for l in lines)
    top = "+" + "-" * (width + 2) + "+"
    body = [f"| {l:<{width}} |" for l in lines]
    return "\n".join([top] + body + [top])


def main():
    words = PARAGRAPH.split()
    print(len(words), "words;", len(PARAGRAPH.strip()), "chars")
    for width in (30, 42):
        lines = wrap(words, width)
        print(f"--- width {width}: {len(lines)} lines ---")
        for i, line in enumerate(lines):
            text = justify(line, width) if i < len(lines) - 1 else " ".join(line)
            print(f"{i + 1:02d}|{text}|")
    print(boxed([" ".join(l) for l in wrap(words, 24)]))
    title = "a tale of two cities"
    print(title.title(), "|", title.capitalize(), "|", title.upper().center(30, "*"))
    print("Hello World".swapcase(), "x".join("abc"), "-".join(reversed(title.split())))
    clean = [w.strip(".,;!").lower() for w in words]
    longest = sorted(set(clean), key=lambda w: (-len(w), w))[:5]
    print("longest:", longest)
    letters: dict[str, int] = {}
    for ch in PARAGRAPH.lower():
        if ch.isalpha():
            letters[ch] = letters.get(ch, 0) + 1
    print("pangram" if len(letters) == 26 else "missing letters", len(letters))
    top = sorted(letters.items(), key=lambda kv: (-kv[1], kv[0]))[:6]
    print(" ".join(f"{k}{v}" for k, v in top))
    for n in [7, 42, 1234]:
        print(str(n).zfill(5), f"{n:>6}", f"{n:<6}|", f"{n:^7}|", str(-n).zfill(6))
    print(PARAGRAPH.count("quick"), PARAGRAPH.find("fox"), PARAGRAPH.rfind("quick"),
          PARAGRAPH.lower().count("the"))
    sentences = [s.strip() for s in PARAGRAPH.replace("!", ".").replace(";", ".").split(".") if s.strip()]
    for s in sentences:
        print(f"{len(s.split()):>2} {s[:25]!r}")
    acronym = "".join(w[0] for w in "portable network graphics".split()).upper()
    print(acronym, "snake_case_name".split("_"), "CamelCaseName".lower(), "  pad  ".strip() + "!")
    table = [("left", "l"), ("centre", "c"), ("right", "r")]
    for name, code in table:
        cell = name.ljust(10) if code == "l" else name.center(10) if code == "c" else name.rjust(10)
        print("[" + cell + "]", cell.isspace(), name.isalpha(), name.startswith(("le", "ri")))
    print("tab\tsep".expandtabs(8) + "|", "a,b,,c".split(","), "a b  c".split(" "), " x ".partition("x"))


if __name__ == "__main__":
    main()
