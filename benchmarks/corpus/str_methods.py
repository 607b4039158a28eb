def normalize(line):
    key, _, value = line.partition("=")
    return key.strip().lower(), value.strip(" \"'")


def main():
    config = """
    Name = "Widget Pro"
    VERSION= 2.1.0
    path =/usr/local/bin
    # comment line
    empty =
    flags = a,b,,c
    """
    settings = {}
    for raw in config.strip().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        k, v = normalize(line)
        settings[k] = v
    print(settings)
    print(settings["flags"].split(","), settings["flags"].split(",", 1), settings["path"].split("/"))
    print(settings["version"].rsplit(".", 1), "a b  c".split(), "a b  c".split(" "))
    print("key: value: more".partition(": "), "no-sep".partition(":"), "a.b.c".rpartition("."))
    s = "  Hello, World!  "
    print(repr(s.strip()), repr(s.lstrip()), repr(s.rstrip()), s.strip().strip("!H"))
    print("xxhixx".strip("x"), "www.example.com".lstrip("w."), "file.txt".removesuffix(".txt"), "pre_x".removeprefix("pre_"))
    print("hello world of python".title(), "HELLO".lower(), "hello".upper(), "hELLo".swapcase(), "hello".capitalize())
    print("abc".center(9, "*"), "abc".center(8), "|" + "x".ljust(4) + "|" + "y".rjust(4) + "|")
    print("42".zfill(5), "-42".zfill(5), "abc".zfill(2), "+7".zfill(4))
    for t in ["123", "12a", "", "  ", "abc", "ABC", "Title Case", "x1", "³"]:
        print(repr(t), t.isdigit(), t.isalpha(), t.isalnum(), t.isspace(), t.isupper(), t.islower(), t.istitle())
    print("banana".count("an"), "banana".find("na"), "banana".rfind("na"), "banana".find("x"), "banana".index("n"))
    print("banana".replace("a", "o"), "banana".replace("a", "o", 2), "a-b-c".replace("-", ""))
    print("abc".startswith(("x", "a")), "abc".endswith("bc"), "abc" in "xabcx", "b" not in "abc")
    print(",".join(["a", "b", "c"]), "".join(reversed("stressed")), " ".join(w[::-1] for w in "hello world".split()))
    text = "The rain in Spain"
    print(text[::2], text[::-1], text[4:8], text[-5:], text[:-6], text[1:10:3], text[10:1:-2])
    nums = list(range(10))
    print(nums[::3], nums[-1:-4:-1], nums[7:2:-2], nums[100:], nums[-100:2])
    nums[2:5] = ["a", "b"]
    print(nums)
    del nums[::3]
    print(nums)
    print(ord("A"), chr(97), [ord(c) - ord("a") for c in "hello"])
    print("tab\there", "new\\nline", len("naïve"), "naïve".upper(), "straße".upper())
    print("a,b;c d".replace(";", ",").replace(" ", ",").split(","))
    print("%-6s|%6s|" % ("ab", "cd"), "Hi {}!".format("there"), "x" * 3 + "-" * 2)
    print("Mississippi".lower().count("ss"), "one two three".split(maxsplit=1), "  lead".split(" ", 2))
    words = "the Quick brown FOX".split()
    print(sorted(words), sorted(words, key=str.lower), [w for w in words if w.istitle()])
    print("line1\nline2\r\nline3".splitlines(), "a\n\nb\n".split("\n"), "abc".expandtabs() == "abc")
    print(str(123) + str(4.5) + str(True) + str(None), repr("it's"), repr('say "hi"'))


main()
