"""`pyx fmt`: Black's vertical layout for .px files (blank lines around definitions, no
trailing whitespace, one final newline), strings untouched, the same syntax tree after as
before (or the file is left alone), and the command's --check, --diff and errors."""
from pathlib import Path

import pytest

from helpers import ROOT, run_cli

MESSY = '''

import math
# about f
fn f(x: Int) -> Int:

    return x   \t
fn g(
    a: Int,

    b: Int,
) -> Int:
    var s = """keep   \n\n\n\nthis"""
    return a + b
@value
struct P:
    var x: Int
    fn norm(self) -> Int:
        return self.x



    fn other(self) -> Int:
        # why
        return 1
trait Shape:
    fn area(self) -> Float64: ...
    fn name(self) -> String: ...
x = 1



y = 2
def main():
    print(f(1))
    def inner():
        return 2
    print(inner())



'''

TIDY = '''import math


# about f
fn f(x: Int) -> Int:
    return x


fn g(
    a: Int,

    b: Int,
) -> Int:
    var s = """keep   \n\n\n\nthis"""
    return a + b


@value
struct P:
    var x: Int

    fn norm(self) -> Int:
        return self.x

    fn other(self) -> Int:
        # why
        return 1


trait Shape:
    fn area(self) -> Float64: ...
    fn name(self) -> String: ...


x = 1


y = 2


def main():
    print(f(1))

    def inner():
        return 2

    print(inner())
'''


def test_blank_lines_and_line_ends_as_black_lays_them_out():
    from pyx.fmt import format_text, same_tree

    assert format_text(MESSY) == TIDY
    assert format_text(TIDY) == TIDY
    assert format_text(MESSY.replace("\n", "\r\n")) == TIDY
    assert same_tree(MESSY, TIDY, "messy.px")
    # A function's body starts on the next line; a class's may start after one blank line.
    assert format_text("def f():\n\n    return 1\n") == "def f():\n    return 1\n"
    assert format_text("class A:\n\n\n    x = 1\n") == "class A:\n\n    x = 1\n"


@pytest.mark.parametrize("path", sorted((ROOT / "examples").rglob("*.px")), ids=lambda p: p.name)
def test_examples_keep_their_syntax_tree_and_a_second_run_changes_nothing(path: Path):
    from pyx.fmt import format_text, same_tree

    text = path.read_text(encoding="utf-8")
    tidy = format_text(text)
    assert same_tree(text, tidy, str(path))
    assert format_text(tidy) == tidy


def test_check_diff_and_in_place(tmp_path: Path):
    src = tmp_path / "messy.px"
    src.write_text(MESSY)
    result = run_cli("fmt", "--check", str(src))
    assert result.status == 1 and f"would reformat {src}" in result.stderr
    result = run_cli("fmt", "--diff", str(src))
    assert result.status == 0 and "+# about f" not in result.stdout and "-    return x   \t" in result.stdout
    assert src.read_text() == MESSY  # --check and --diff change nothing
    result = run_cli("fmt", str(tmp_path))
    assert result.status == 0 and "reformatted 1 of 1 file" in result.stderr
    assert src.read_text() == TIDY
    assert run_cli("fmt", "--check", str(src)).status == 0


def test_a_file_that_does_not_parse_is_reported_and_left_alone(tmp_path: Path):
    src = tmp_path / "bad.px"
    src.write_text("fn main(:\n    pass   \n")
    result = run_cli("fmt", "--color=never", str(src))
    assert result.status == 1 and "bad.px:1:9: error[E0001]" in result.stderr
    assert src.read_text() == "fn main(:\n    pass   \n"
    assert run_cli("fmt", str(tmp_path / "missing.px")).status == 2


def test_a_layout_that_would_change_the_tree_is_not_written(tmp_path: Path, monkeypatch):
    from pyx import fmt

    src = tmp_path / "prog.px"
    src.write_text("fn main():\n    print(1)   \n")
    monkeypatch.setattr(fmt, "format_text", lambda text: text.replace("print(1)", "print(2)"))
    result = run_cli("fmt", str(src))
    assert result.status == 1 and "left as it is: formatting would change its meaning" in result.stderr
    assert src.read_text() == "fn main():\n    print(1)   \n"
