"""`import string` gives Python's `string` module constants (stdlib/string.px), and a str literal
works on the right of `in`; the program prints what CPython prints. (Not a golden: tests/golden
has a `string.px` of its own, which `import string` would find first.)"""
import subprocess
import sys
import textwrap

PROGRAM = textwrap.dedent('''
    import string


    def main():
        for name, value in [("whitespace", string.whitespace), ("ascii_lowercase", string.ascii_lowercase),
                            ("ascii_uppercase", string.ascii_uppercase), ("ascii_letters", string.ascii_letters),
                            ("digits", string.digits), ("hexdigits", string.hexdigits),
                            ("octdigits", string.octdigits), ("punctuation", string.punctuation),
                            ("printable", string.printable)]:
            print(name, repr(value), len(value))
        print("Hello, World!".strip(string.punctuation), [c for c in "a1b2" if c in string.digits])
        text = "It was the age of wisdom"
        print(sum(1 for c in text.lower() if c in "aeiou"), [w for w in text.split() if w[0] not in "aeiouAEIOU"])


    if __name__ == "__main__":
        main()
    ''')


def test_string_module_constants_match_python(tmp_path):
    source = tmp_path / "constants.py"
    source.write_text(PROGRAM)
    python = subprocess.run([sys.executable, str(source)], capture_output=True, text=True)
    pyx = subprocess.run([sys.executable, "-m", "pyx", "run", str(source)], capture_output=True, text=True)
    assert python.returncode == 0, python.stderr
    assert (pyx.returncode, pyx.stdout, pyx.stderr) == (0, python.stdout, "")
