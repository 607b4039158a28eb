"""`input()` reads standard input as CPython's does: the prompt on stdout, one line per call without
its newline (the last line may lack one), EOFError at the end; the same program given the same
input prints the same under both."""
import subprocess
import sys
import textwrap

import pytest

PROGRAM = textwrap.dedent("""
    def main():
        name = input("name? ")
        n = int(input())
        total = 0
        for _ in range(n):
            total += int(input())
        print("hello", name, total)
        try:
            extra = input()
            print("extra", repr(extra))
            input()
        except EOFError as e:
            print("EOFError:", e)


    if __name__ == "__main__":
        main()
    """)


@pytest.mark.parametrize("stdin", ["Ada\n3\n10\n20\n30\n", "Bo\n1\n5\nlast line, no newline",
                                   "Cy\n0\n\n", "Dee\n2\n1\n2\n"])
def test_input_reads_what_cpython_reads(tmp_path, stdin):
    source = tmp_path / "reads.px"
    source.write_text(PROGRAM)
    python = subprocess.run([sys.executable, str(source)], input=stdin, capture_output=True, text=True)
    pyx = subprocess.run([sys.executable, "-m", "pyx", "run", str(source)], input=stdin, capture_output=True,
                         text=True)
    assert pyx.returncode == python.returncode == 0, pyx.stderr
    assert pyx.stdout == python.stdout


STREAM_PROGRAM = textwrap.dedent("""
    import sys


    def main():
        first = input()
        second = sys.stdin.readline()
        print(repr(first), repr(second))
        count = 0
        for line in sys.stdin:
            count += 1
            if line.strip() == "stop":
                break
            print(count, line.rstrip("\\n").upper())
        rest = sys.stdin.read()
        print(repr(rest), sys.stdin.readlines(), repr(sys.stdin.readline()))


    if __name__ == "__main__":
        main()
    """)


@pytest.mark.parametrize("stdin", ["a\nb\nc\nd\nstop\ne\nf\n", "a\nb\n", "one\ntwo\r\nthree\nstop\nlast", ""])
def test_sys_stdin_reads_what_cpython_reads(tmp_path, stdin):
    # `input()` and `sys.stdin` take lines from one stream, in order, as in CPython
    source = tmp_path / "streams.py"
    source.write_text(STREAM_PROGRAM)
    python = subprocess.run([sys.executable, str(source)], input=stdin, capture_output=True, text=True)
    pyx = subprocess.run([sys.executable, "-m", "pyx", "run", str(source)], input=stdin, capture_output=True,
                         text=True)
    assert (pyx.returncode, pyx.stdout) == (python.returncode, python.stdout)
    # (an EOFError's traceback shows fewer lines than CPython's: its last line is the same)
    assert pyx.stderr.splitlines()[-1:] == python.stderr.splitlines()[-1:]
