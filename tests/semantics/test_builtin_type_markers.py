"""The stdlib owns its layouts (issue 15, item 3): the structs the compiler gives a meaning of its
own (`[]` is a List, `Counter()` is typed by its first use, ...) say which they are with
`@builtin_type("ROLE")` on their declaration (lang/semantics/builtin_types.py). The compiler
matches the marker, not the struct's name nor the file it is in."""
import re
import shutil
from pathlib import Path

from helpers import run_cli
from pyx.semantics import imports
from pyx.semantics.builtin_types import MARKER, ROLES

LANG = Path(__file__).resolve().parents[2] / "lang"

COUNTING = """from collections import Counter

def main():
    seen = Counter()
    for w in "to be or not to be".split():
        seen[w] += 1
    print(seen, seen.most_common(1))

if __name__ == "__main__":
    main()
"""


def _markers() -> dict[str, list[str]]:
    """role -> the stdlib structs that declare it (`@builtin_type("List")` over `struct List[...]`)."""
    found: dict[str, list[str]] = {}
    for path in sorted(imports.STDLIB.glob("*.px")):
        text = path.read_text(encoding="utf-8")
        for m in re.finditer(rf'^@{MARKER}\("(\w+)"\).*\n(?:@.*\n)*struct (\w+)', text, re.MULTILINE):
            found.setdefault(m.group(1), []).append(f"{path.name}:{m.group(2)}")
    return found


def test_each_role_is_declared_by_exactly_one_stdlib_struct():
    found = _markers()
    assert sorted(found) == sorted(ROLES)
    # (a tuple is a struct per length)
    assert found.pop("Tuple") == [f"tuple.px:Tuple{n}" for n in range(1, 9)]
    assert {role: places for role, places in found.items() if len(places) != 1} == {}


def test_a_renamed_stdlib_struct_keeps_its_role(tmp_path, monkeypatch):
    """A copy of the stdlib whose Counter struct is called `Tally` (re-exported as `Counter`): an
    empty `Counter()` is still typed by its first use, because the marker went with the struct."""
    (tmp_path / "prog.px").write_text(COUNTING)
    stdlib = tmp_path / "stdlib"
    shutil.copytree(imports.STDLIB, stdlib, ignore=shutil.ignore_patterns("__pycache__"))
    inner = stdlib / "_collections.px"
    inner.write_text(re.sub(r"\bCounter\b(?!\()", "Tally", inner.read_text(encoding="utf-8"))
                     .replace('@builtin_type("Tally")', '@builtin_type("Counter")'), encoding="utf-8")
    outer = stdlib / "collections.px"
    outer.write_text(outer.read_text(encoding="utf-8").replace(
        "from _collections import deque, Counter,", "from _collections import deque, Tally as Counter,"),
        encoding="utf-8")
    assert "Tally as Counter" in outer.read_text(encoding="utf-8")
    assert "struct Tally[" in inner.read_text(encoding="utf-8")
    monkeypatch.setattr(imports, "STDLIB", stdlib)
    result = run_cli("run", str(tmp_path / "prog.px"))
    assert result.status == 0, result.stderr
    assert result.stdout == "Counter({'to': 2, 'be': 2, 'or': 1, 'not': 1}) [('to', 2)]\n"


def test_a_programs_struct_cannot_claim_a_role(tmp_path):
    """Only the stdlib's declarations are read for the marker: elsewhere it is an unknown
    decorator, as `@python_layout` is."""
    program = '@builtin_type("List")\nstruct List:\n    var x: Int\n\nfn main():\n    print(1)\n'
    (tmp_path / "prog.px").write_text(program)
    result = run_cli("check", str(tmp_path / "prog.px"))
    assert result.status == 1
    assert "error[E0134]: unknown decorator `@builtin_type`" in result.stderr


def test_the_compiler_names_no_stdlib_struct_by_name_and_path():
    """The question is `is_builtin(t, ROLE)`; the name-and-path test it replaced stays gone."""
    offenders = [f"{path.relative_to(LANG)}:{n}" for path in sorted(LANG.rglob("*.py"))
                 for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                 if "is_stdlib_struct" in line]
    assert offenders == []


JOINED = """class {name}:
    def __init__(self, text: str):
        self.text = text

    def __len__(self) -> int:
        return 2

    def __getitem__(self, i: int) -> str:
        return self.text


def main() -> None:
    s = {name}("ab")
    print("-".join(reversed(s)))
"""


def test_a_programs_class_called_string_is_checked_as_any_class_is(tmp_path):
    """`"".join(reversed(s))` of a str is the join of its characters reversed (semantics/everyday.py);
    of a program's class that happens to be called `String` it is what it is of any other class."""
    reports = []
    for name in ("String", "Word"):
        (tmp_path / f"{name}.px").write_text(JOINED.format(name=name))
        result = run_cli("check", str(tmp_path / f"{name}.px"))
        reports.append((result.status, result.stderr.replace(name, "C")))
    assert reports[0][0] == 1 and reports[0] == reports[1]


def test_the_compiler_compares_no_types_name_with_a_role():
    """A type is one of the stdlib's by its marker (`is_builtin(t, "String")`), never by
    `t.name == "String"`: a program's class may have that name."""
    role = "|".join(ROLES)
    compare = re.compile(rf"""\.(?:name|base)\s*(?:==|!=|in|not in)\s*[(\[{{]?["'](?:{role})["']""")
    offenders = [f"{path.relative_to(LANG)}:{n}" for path in sorted(LANG.rglob("*.py"))
                 for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if compare.search(line)]
    assert offenders == []
