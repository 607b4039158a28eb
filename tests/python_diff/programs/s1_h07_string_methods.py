def main():
    s = "Hello, World"
    print(s.lower(), s.upper(), s.title(), s.swapcase(), s.find("o"), s.rfind("o"), s.count("l"))
    print(s.replace("l", "L"), s.startswith("He"), s.endswith("ld"), s.center(20, "*"))
    print(s.split(", "), s.rsplit("o", 1), s.partition(","), s.strip("Hd"), s[::-2], s[-3:])
    print("  x ".strip(), "a-b-c".split("-", 1), ",".join(["a", "b"]), "abc".zfill(6), "x".ljust(3, "."))
    print("%5s|%-5s|%05.1f|%x|%r" % ("ab", "cd", 3.14159, 255, "q"))
    print("{0}{1}{0}".format("a", "b"), "{:>8}".format("r"), "{name}!".format(name="n"))
    print(s.index("W"), "ab" * 3, "b" in s, s.isalpha(), "123".isdigit(), s.islower())

if __name__ == "__main__":
    main()
