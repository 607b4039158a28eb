"""The stdlib's functions the compiler gives a meaning of its own (issue 15, item 3) say so with a
marker on their declaration: `@builtin_function("map")` (lang/semantics/builtin_functions.py) and
`@takes_generators` (lang/semantics/lazy_itertools.py), as the structs do with `@builtin_type`;
the itertools module with `comptime _PYTHON_MODULE = "itertools"`. The compiler matches the
marker, not the function's name nor the file it is in."""
import re
import shutil
from pathlib import Path

import pytest

from helpers import run_cli
from pyx.ir import int_overflow
from pyx.semantics import builtin_functions, imports, iterable_arguments, lazy_itertools, module
from pyx.semantics.module import STDLIB_FUNCTION_MARKERS

LANG = Path(__file__).resolve().parents[2] / "lang"

LISTED = """def main():
    print(list(map(str, range(3))))
    print(list(filter(lambda c: c != "b", "abc")))

if __name__ == "__main__":
    main()
"""

BINARY = """def main():
    with open("data.txt", "rb") as f:
        print(f.read())

if __name__ == "__main__":
    main()
"""

GENERATED = """from slices import islice

def naturals():
    n = 0
    while True:
        yield n
        n += 1

def main():
    print(list(islice(naturals(), 2, 8, 2)))

if __name__ == "__main__":
    main()
"""


@pytest.fixture
def stdlib_copy(tmp_path, monkeypatch):
    """A copy of the stdlib with each file's (old, new) replacements made and the new files added,
    used in place of the stdlib for the rest of the test (the prelude read again from it)."""

    def make(edits: dict[str, list[tuple[str, str]]], new_files: dict[str, str]) -> None:
        stdlib = tmp_path / "stdlib"
        shutil.copytree(imports.STDLIB, stdlib, ignore=shutil.ignore_patterns("__pycache__"))
        for name, replacements in edits.items():
            text = (stdlib / name).read_text(encoding="utf-8")
            for old, new in replacements:
                assert old in text, (name, old)
                text = text.replace(old, new)
            (stdlib / name).write_text(text, encoding="utf-8")
        for name, text in new_files.items():
            (stdlib / name).write_text(text, encoding="utf-8")
        monkeypatch.setattr(imports, "STDLIB", stdlib)
        module.prelude.cache_clear()

    yield make
    module.prelude.cache_clear()


def test_each_role_is_declared_by_exactly_one_stdlib_function():
    found: dict[str, list[str]] = {}
    for path in sorted(imports.STDLIB.glob("*.px")):
        text = path.read_text(encoding="utf-8")
        pattern = rf'^ *@{builtin_functions.MARKER}\("(\w+)"\).*\n(?: *@.*\n)* *(?:fn|def) (\w+)'
        for m in re.finditer(pattern, text, re.MULTILINE):
            found.setdefault(m.group(1), []).append(f"{path.name}:{m.group(2)}")
    assert found == {"map": ["functional.px:map"], "filter": ["functional.px:filter"], "open": ["io.px:open"],
                     "format": ["string.px:format"], "format_at_run_time": ["format_spec.px:format_at_run_time"],
                     "repr": ["string.px:repr"], "append_repr": ["string.px:_append_repr"],
                     "enumerate": ["tuple.px:enumerate"], "zip": ["tuple.px:zip"], "pow": ["builtins.px:pow"],
                     "divmod": ["tuple.px:divmod"]}
    assert sorted(found) == sorted(builtin_functions.ROLES)
    assert sum(text.count(f"@{builtin_functions.MARKER}(") for text in
               (p.read_text(encoding="utf-8") for p in imports.STDLIB.glob("*.px"))) == len(builtin_functions.ROLES)


def test_the_stdlib_function_markers_are_the_ones_the_checker_allows():
    assert {builtin_functions.MARKER, iterable_arguments.MARKER, lazy_itertools.MARKER, int_overflow.MARKER} \
        == STDLIB_FUNCTION_MARKERS


def test_renamed_and_moved_map_and_filter_keep_their_roles(tmp_path, stdlib_copy):
    """A copy of the stdlib whose `map` and `filter` are called `lazy_map` and `lazy_filter` and
    reach the prelude through another module: `map(str, range(3))` still lists the range first,
    because the markers went with the functions."""
    stdlib_copy({
        "functional.px": [("fn map[", "fn lazy_map["), ("fn filter[", "fn lazy_filter[")],
        "prelude.px": [("from functional import map, filter", "from mapping import map, filter")],
    }, {"mapping.px": "from functional import lazy_map as map, lazy_filter as filter\n"})
    (tmp_path / "listed.px").write_text(LISTED)
    result = run_cli("run", str(tmp_path / "listed.px"))
    assert (result.status, result.stderr) == (0, "")
    assert result.stdout == "['0', '1', '2']\n['a', 'c']\n"


def test_a_renamed_and_moved_open_keeps_its_role(tmp_path, stdlib_copy):
    """The same for `open`, called `open_text`: a binary mode is still refused when compiling."""
    stdlib_copy({
        "io.px": [("fn open(", "fn open_text(")],
        "prelude.px": [("from io import open", "from files import open")],
    }, {"files.px": "from io import open_text as open\n"})
    (tmp_path / "binary.px").write_text(BINARY)
    result = run_cli("check", str(tmp_path / "binary.px"))
    assert result.status == 1
    assert "binary.px:2:27: error[E0341]" in result.stderr


RENAMED_BUILTINS = """def main():
    print(divmod(7, 2.0), divmod(-7, 2))
    print(list(zip([1, 2], "ab", [3.5, 4.5])))
    for i, c in enumerate("xy", 1):
        print(i, c)

if __name__ == "__main__":
    main()
"""


def test_renamed_divmod_zip_and_enumerate_keep_their_roles(tmp_path, stdlib_copy):
    """A copy of the stdlib whose `divmod`, `zip` and `enumerate` have other names and reach the
    prelude through another module: `divmod(7, 2.0)` still divides floats, `zip` of three
    iterables still calls `zip3`, and a str literal given to `zip` or `enumerate` is still walked
    as a str, because the markers went with the functions."""
    stdlib_copy({
        "tuple.px": [("fn divmod[", "fn floored_divmod["), ("def enumerate(", "def counted("),
                     ("def zip(", "def paired(")],
        "prelude.px": [("from tuple import enumerate, zip, divmod", "from pairing import enumerate, zip, divmod")],
    }, {"pairing.px": "from tuple import counted as enumerate, paired as zip, floored_divmod as divmod\n"})
    (tmp_path / "renamed.px").write_text(RENAMED_BUILTINS)
    result = run_cli("run", str(tmp_path / "renamed.px"))
    assert (result.status, result.stderr) == (0, "")
    assert result.stdout == "(3.0, 1.0) (-4, 1)\n[(1, 'a', 3.5), (2, 'b', 4.5)]\n1 x\n2 y\n"


def test_a_renamed_generator_taking_stdlib_function_keeps_its_marker(tmp_path, stdlib_copy):
    """A copy of the stdlib whose `islice` is called `window` and reaches the program through another
    module: a generator may still be passed to it, because its `@takes_generators` went with it."""
    stdlib_copy({"itertools.px": [("\ndef islice(", "\ndef window(")]},
                 {"slices.px": "from itertools import window as islice\n"})
    (tmp_path / "generated.px").write_text(GENERATED)
    result = run_cli("run", str(tmp_path / "generated.px"))
    assert (result.status, result.stderr) == (0, "")
    assert result.stdout == "[2, 4, 6]\n"


ITERTOOLS = """import itertools
from itertools import accumulate, chain, compress, permutations

def main():
    print(list(permutations([1, 2, 3], 2)))
    print(list(accumulate([1, 2, 3], initial=10)))
    print(list(chain([1], [2], [3])))
    print(list(itertools.chain.from_iterable([[1, 2], [3]])))
    print(list(compress(range(5), [1, 0, 1, 0, 1])))

if __name__ == "__main__":
    main()
"""


def test_a_moved_itertools_module_keeps_its_declaration(tmp_path, stdlib_copy):
    """A copy of the stdlib whose itertools is written in `combinatorics.px` and re-exported by a
    three-line itertools.px: the calls are still rewritten as Python's itertools would run them,
    because the module's `comptime _PYTHON_MODULE = "itertools"` went with it."""
    moved = (imports.STDLIB / "itertools.px").read_text(encoding="utf-8")
    assert f'comptime {builtin_functions.MODULE_MARKER} = "itertools"' in moved
    stdlib_copy({}, {"combinatorics.px": moved,
                     "itertools.px": "from combinatorics import accumulate, chain, compress, permutations\n"})
    (tmp_path / "moved.px").write_text(ITERTOOLS)
    result = run_cli("run", str(tmp_path / "moved.px"))
    assert (result.status, result.stderr) == (0, "")
    assert result.stdout == "[(1, 2), (1, 3), (2, 1), (2, 3), (3, 1), (3, 2)]\n[10, 11, 13, 16]\n[1, 2, 3]\n" \
                            "[1, 2, 3]\n[0, 2, 4]\n"


def test_a_programs_python_module_declaration_is_an_ordinary_constant(tmp_path):
    """Only the stdlib's modules are read for the declaration: a program's is a constant like any
    other, and its own `permutations` is called as written."""
    (tmp_path / "own.px").write_text('comptime _PYTHON_MODULE = "itertools"\n\n\ndef permutations(xs, r):\n'
                                     '    return xs[:r]\n\n\ndef main():\n    print(permutations([1, 2, 3], 2))\n'
                                     '    print(_PYTHON_MODULE)\n')
    result = run_cli("run", str(tmp_path / "own.px"))
    assert (result.status, result.stdout) == (0, "[1, 2]\nitertools\n")


def test_a_programs_function_cannot_claim_a_marker(tmp_path):
    """Only the stdlib's declarations are read for the markers: elsewhere each is an unknown decorator."""
    for marker in ('builtin_function("map")', "takes_generators"):
        program = f"@{marker}\ndef twice(f, xs: list[int]) -> list[int]:\n    return [f(x) for x in xs]\n\n" \
                  "def main():\n    print(twice(abs, [1, -2]))\n"
        (tmp_path / "prog.px").write_text(program)
        result = run_cli("check", str(tmp_path / "prog.px"))
        assert result.status == 1
        assert f"prog.px:1:1: error[E0134]: unknown decorator `@{marker.split('(')[0]}`" in result.stderr


def test_the_compiler_finds_no_stdlib_function_by_its_file():
    """Where the checker asks whether a function is the stdlib's map, filter or open, takes
    generators, or is one of the itertools module's, it asks the marker (or the module's
    declaration); the name-and-file tests they replaced stay gone."""
    by_file = re.compile(r"""file\.name\.endswith\(["'](\w+)\.px["']\)""")
    offenders = [f"{path.relative_to(LANG)}:{n}" for path in sorted(LANG.rglob("*.py"))
                 for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                 if by_file.search(line)]
    assert offenders == []
