"""Files written and read, and print(..., file=...), as CPython does them: each program runs under
CPython and under pyx in folders of their own, and both must print the same on stdout and stderr,
exit alike, and leave the same files with the same bytes (stdlib/io.px, semantics/print_file.py,
syntax/with_stmt.py)."""
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from helpers import run_pyx

PROGRAMS = {
    "write_then_read": """
        def main():
            with open("out.txt", "w") as f:
                n = f.write("hello\\n")
                print("x", 2, 3.5, [1, 2], sep=", ", end=";\\n", file=f)
                f.write("crlf\\r\\nalone\\rlast")
            print(n)
            with open("out.txt") as f:
                print(repr(f.read()))
            with open("out.txt") as f:
                print(f.readlines())
            with open("out.txt", "a") as f:
                f.writelines(["more\\n", "lines\\n"])
                print("done", file=f, flush=True)
            f = open("out.txt")
            for line in f:
                print(repr(line))
            f.close()
            f.close()
            with open("new.txt", "x") as g:
                g.write("made once")
            try:
                open("new.txt", "x")
            except FileExistsError as e:
                print("FileExistsError:", e)
            with open("new.txt", "r+") as g:
                print(g.read())
                g.write(" and more")
            r = open("new.txt")
            try:
                r.write("no")
            except OSError:
                print("not writable")
            r.close()


        if __name__ == "__main__":
            main()
        """,
    "print_to_streams": """
        import sys


        class Sink:
            def __init__(self):
                self.parts: list[str] = []

            def write(self, s: str) -> int:
                self.parts.append(s)
                return len(s)


        def main():
            print("to stderr", 1, 2.5, file=sys.stderr)
            print("to stdout", [1, 2], sep="-", end="!\\n", file=sys.stdout)
            print(file=sys.stderr)
            print("plain", file=None)
            sink = Sink()
            print("a", 3, None, sep=", ", file=sink)
            print(file=sink)
            print(sink.parts)
            sys.stderr.write("written\\n")
            print("last", flush=True)


        if __name__ == "__main__":
            main()
        """,
    "file_closed_at_scope_end": """
        def save(path: str, text: str):
            f = open(path, "w")
            f.write(text)


        def main():
            save("a.txt", "saved without close()")
            with open("a.txt") as f:
                print(f.read())


        if __name__ == "__main__":
            main()
        """,
    "script_with_blocks": """
        with open("s.txt", "w") as out:
            out.write("one\\ntwo\\n")
        with open("s.txt") as inp:
            for line in inp:
                print(line.strip().upper())
        """,
    "uncaught_file_not_found": """
        def main():
            print("before")
            open("missing.txt")


        if __name__ == "__main__":
            main()
        """,
}


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.name != "prog.py"}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_files_and_print_as_cpython(name, tmp_path, monkeypatch):
    text = textwrap.dedent(PROGRAMS[name])
    ours, theirs = tmp_path / "pyx", tmp_path / "cpython"
    for folder in (ours, theirs):
        folder.mkdir()
        (folder / "prog.py").write_text(text)
    python = subprocess.run([sys.executable, "prog.py"], capture_output=True, text=True, cwd=theirs)
    monkeypatch.chdir(ours)
    result = run_pyx(Path("prog.py"))
    assert result.stdout == python.stdout
    assert result.status == python.returncode, result.stderr
    if python.returncode == 0:
        assert result.stderr == python.stderr
    else:  # the traceback's last line: the same class and message
        assert result.stderr.splitlines()[-1] == python.stderr.splitlines()[-1]
    assert _files(ours) == _files(theirs)
