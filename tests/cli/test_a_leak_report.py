"""`pyx run --debug-leaks` (or PYX_DEBUG_LEAKS=1): at the program's end, the objects that only
reference cycles keep alive, by class and the line that made them, on stderr (CPython's collector's
trial deletion: syntax/leak_report.py; docs/semantics.md, "Reference cycles"). Objects still
referenced from outside the objects (a module-level variable) are not garbage and are not named;
a program without cycles, and every run without the mode, prints nothing extra; and without the
mode the generated code is not changed at all."""
import textwrap

import pytest

from helpers import ROOT, run_pyx, run_source
from pyx import pipeline
from pyx.options import CompileOptions
from pyx.source import SourceFile

CYCLES = textwrap.dedent('''\
    class Node:
        def __init__(self, name: str):
            self.name = name
            self.other: "Node | None" = None
            self.kids: list[Node] = []
            self.by_name: dict[str, Node] = {}


    class Leaf(Node):
        def __init__(self, name: str):
            super().__init__(name)
            self.grid: list[list[Node]] = []


    class Ring:
        def __init__(self, n: int, node: "Ring | None"):
            self.pair: tuple[int, Ring | None] = (n, node)


    def cycles():
        a = Node("a")
        b = Node("b")
        a.other = b
        b.other = a
        me = Node("me")
        me.other = me
        parent = Node("parent")
        parent.kids.append(Leaf("child"))
        parent.kids[0].other = parent
        hub = Node("hub")
        hub.by_name["spoke"] = Node("spoke")
        hub.by_name["spoke"].by_name["hub"] = hub
        payload = Node("payload")
        a.kids.append(payload)
        g = Leaf("grid")
        g.grid.append([Node("cell")])
        g.grid[0][0].other = g
        r = Ring(1, Ring(2, None))
        r.pair[1].pair = (3, r)


    def broken():
        x = Node("x")
        y = Node("y")
        x.other = y
        y.other = x
        x.other = None


    def tree() -> Node:
        root = Node("root")
        for i in range(3):
            root.kids.append(Node(str(i)))
        return root


    KEPT = Node("kept")


    def main():
        cycles()
        broken()
        t = tree()
        print(len(t.kids), KEPT.name)
        KEPT.other = Node("ring")
        KEPT.other.other = KEPT


    if __name__ == "__main__":
        main()
''')

# The cycles of `cycles()` (a pair, a self-reference, through a list, a dict, a list of lists, a
# subclass and a tuple) and `payload`, which only a cycle keeps; not the broken cycle, the tree,
# nor the ring a module-level variable still reaches.
REPORT = """\
pyx --debug-leaks: 14 objects are still alive at the end of the program; 12 of them are kept alive only by \
reference cycles, and never freed:
  prog.px:21: 1 Node object made here
  prog.px:22: 1 Node object made here
  prog.px:25: 1 Node object made here
  prog.px:27: 1 Node object made here
  prog.px:28: 1 Leaf object made here
  prog.px:30: 1 Node object made here
  prog.px:31: 1 Node object made here
  prog.px:33: 1 Node object made here
  prog.px:35: 1 Leaf object made here
  prog.px:36: 1 Node object made here
  prog.px:38: 2 Ring objects made here
advice: break each cycle before its objects are dropped: set one of its references to None (`a.other = None`), \
or restructure (keep back-references as indices or keys)
"""


def test_objects_only_cycles_keep_are_reported_with_their_class_count_and_line(tmp_path):
    result = run_source(CYCLES, tmp_path, "prog.px", "--debug-leaks")
    assert result.status == 0, result.stderr
    assert result.stdout == "3 kept\n"
    assert result.stderr.replace(str(tmp_path / "prog.px"), "prog.px") == REPORT


def test_without_the_mode_nothing_is_reported(tmp_path):
    result = run_source(CYCLES, tmp_path, "prog.px")
    assert (result.status, result.stdout, result.stderr) == (0, "3 kept\n", "")


def test_a_program_without_cycles_reports_nothing(tmp_path):
    program = CYCLES.replace("    cycles()\n", "").replace("    KEPT.other.other = KEPT\n", "")
    result = run_source(program, tmp_path, "prog.px", "--debug-leaks")
    assert (result.status, result.stdout, result.stderr) == (0, "3 kept\n", "")


SCRIPT = textwrap.dedent('''\
    class N:
        def __init__(self):
            self.o: "N | None" = None


    a = N()
    b = N()
    b.o = b
    b = N()
    print("script")
''')

MAIN_ENTRY = textwrap.dedent('''\
    class N:
        def __init__(self):
            self.o: "N | None" = None


    fn main():
        var a = N()
        a.o = a
        print("main")
''')


def test_environment_variable_and_module_level_code(tmp_path, monkeypatch):
    """PYX_DEBUG_LEAKS=1 turns the mode on; a cycle made by module-level code is found (the object
    the variable no longer names), and a program whose entry is `main` (no guard) is reported too."""
    monkeypatch.setenv("PYX_DEBUG_LEAKS", "1")
    result = run_source(SCRIPT, tmp_path, "script.px")
    assert result.status == 0, result.stderr
    assert result.stdout == "script\n"
    assert result.stderr.splitlines()[:2] == [
        "pyx --debug-leaks: 3 objects are still alive at the end of the program; 1 of them is kept alive only by "
        "reference cycles, and never freed:",
        f"  {tmp_path / 'script.px'}:7: 1 N object made here"]
    result = run_source(MAIN_ENTRY, tmp_path, "entry.px")
    assert result.status == 0, result.stderr
    assert result.stdout == "main\n"
    assert result.stderr.splitlines()[:2] == [
        "pyx --debug-leaks: 1 object is still alive at the end of the program; it is kept alive only by "
        "reference cycles, and never freed:",
        f"  {tmp_path / 'entry.px'}:7: 1 N object made here"]


def _llvm(text: str, **options) -> str:
    return pipeline.codegen(SourceFile("prog.px", text), CompileOptions(**options)).llvm_ir


def test_the_mode_off_generates_nothing():
    """Off, no trace of the registry (the code is the one the compiler made before the mode existed:
    every addition is behind it); on, a program without classes is not changed either."""
    from pyx.syntax.leak_report import PREFIX, REPORT

    plain = _llvm(CYCLES)
    assert PREFIX not in plain
    assert REPORT in _llvm(CYCLES, debug_leaks=True)
    no_classes = "def main():\n    print(sum([1, 2, 3]))\n\n\nif __name__ == \"__main__\":\n    main()\n"
    assert _llvm(no_classes, debug_leaks=True) == _llvm(no_classes)


def test_the_mode_is_an_argument_of_the_parse():
    """The mode is the compile's own (CompileOptions.debug_leaks, passed to `parse` of the main
    module), not a setting of the process: a parse asked for it instruments the classes, a parse
    that is not, before or after, does not."""
    from pyx.syntax import parse
    from pyx.syntax.leak_report import SLOT_FIELD
    from pyx.syntax.printer import format_ast

    source = SourceFile("prog.px", CYCLES)
    plain = format_ast(parse(source))
    assert SLOT_FIELD in format_ast(parse(source, debug_leaks=True)) and SLOT_FIELD not in plain
    assert format_ast(parse(source)) == plain


CLASS_GOLDENS = sorted((ROOT / "tests" / "golden").glob("class_*.px"))


@pytest.mark.slow
@pytest.mark.parametrize("path", CLASS_GOLDENS, ids=lambda p: p.stem)
def test_class_goldens_print_the_same_in_the_mode(path):
    """The mode adds a report on stderr and nothing else: every class golden prints its output."""
    result = run_pyx(path, "--debug-leaks")
    assert result.stdout == path.with_suffix(".out").read_text()
