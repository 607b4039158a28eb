"""Tuples where the goldens (tests/golden/tuple_*.px, which CPython runs too) cannot go: inside
pyx's structs, their types' names and conformance, the generated stdlib file, and the programs
that build no tuple and so do not load it."""
import subprocess
import sys

from helpers import ROOT, run_source
from pyx import syntax
from pyx.diagnostics import DiagnosticBag
from pyx.semantics.imports import ModuleLoader
from pyx.source import SourceFile


def test_tuples_inside_structs_and_as_fields(tmp_path):
    result = run_source('''
@fieldwise_init
struct Segment:
    var name: String
    var ends: tuple[int, float]
    var tags: Tuple[String, Bool]

    fn __str__(self) -> String:
        return self.name + str(self.ends) + str(self.tags)


fn longest(segments: List[Segment]) -> Tuple[String, Float64]:
    var best = (segments[0].name, segments[0].ends[1])
    for s in segments:
        if s.ends[1] > best[1]:
            best = (s.name, s.ends[1])
    return best


fn main():
    var segments = [Segment("a", (1, 2.5), ("x", True)), Segment("b", (3, 9.0), ("y", False))]
    segments[0].ends = (7, 0.5)
    print(segments, longest(segments))
    name, length = longest(segments)
    print(name, length, segments[1].tags == ("y", False), segments[1].ends < (3, 9.5))
''', tmp_path)
    assert result.status == 0, result.stderr
    assert result.stdout == ("[a(7, 0.5)('x', True), b(3, 9.0)('y', False)] ('b', 9.0)\n"
                             "b 9.0 True True\n")


def test_a_list_of_structs_ending_in_a_bool_keeps_its_elements_apart(tmp_path):
    # {Int, Int, {Int}, Bool} is 32 bytes on x86-64; LLVM's default layout (no layout set on the
    # module) makes it 28, and the optimizer's offsets then disagreed with the code generator's.
    result = run_source('''
@fieldwise_init
struct Inner:
    var a: Int

@fieldwise_init
struct Row:
    var a: Int
    var b: Int
    var c: Inner
    var d: Bool

    fn __str__(self) -> String:
        return String(self.a) + "/" + String(self.b) + "/" + String(self.c.a) + "/" + String(self.d)

fn main():
    var rows = [Row(1, 2, Inner(3), True), Row(4, 5, Inner(6), False)]
    print(rows, [(1, 2, (3,), True), (4, 5, (6,), False)])
''', tmp_path)
    assert result.status == 0, result.stderr
    assert result.stdout == "[1/2/3/True, 4/5/6/False] [(1, 2, (3,), True), (4, 5, (6,), False)]\n"


def test_a_tuple_type_is_named_by_its_items(tmp_path):
    result = run_source('''
def main():
    t = (1, "a", (2.5,))
    u: tuple[int, str, tuple[float]] = t
    v: Tuple[Int, String, Tuple[Float64]] = u
    w: tuple[int, int] = v
''', tmp_path)
    assert result.status == 1
    assert "expected `Tuple[Int, Int]`, found `Tuple[Int, String, Tuple[Float64]]`" in result.stderr
    assert result.stderr.count("error[") == 1  # the three spellings name one type


def test_a_tuple_is_a_dict_key_only_when_its_items_are(tmp_path):
    result = run_source('''
def main():
    d: dict[tuple[int, list[int]], int] = {}
''', tmp_path)
    assert result.status == 1
    assert "error[E0140]" in result.stderr and "Tuple[Int, List[Int]]" in result.stderr


def test_the_stdlib_tuple_file_is_what_its_generator_writes(tmp_path):
    out = tmp_path / "tuple.px"
    subprocess.run([sys.executable, str(ROOT / "tools" / "gen_tuple.py"), str(out)], check=True)
    assert out.read_text() == (ROOT / "stdlib" / "tuple.px").read_text(), \
        "stdlib/tuple.px differs from tools/gen_tuple.py's output: change the generator, then run it"


def _loaded_modules(text: str, tmp_path) -> set[str]:
    path = tmp_path / "prog.px"
    path.write_text(text)
    diags = DiagnosticBag()
    module = syntax.parse(SourceFile(str(path), text), diags)
    loader = ModuleLoader(diags)
    loader.collect_program(module)
    return {m.name for m in loader.modules}


def test_a_swap_or_an_unpacking_target_loads_no_tuple_module(tmp_path):
    # Loading stdlib/tuple.px costs tens of milliseconds of every compile that does.
    swap = "fn main():\n    var x = 1\n    var y = 2\n    x, y = y, x\n    print(x, y)\n"
    assert "tuple" not in _loaded_modules(swap, tmp_path)
    built = "fn main():\n    var t = (1, 2)\n    print(t)\n"
    assert "tuple" in _loaded_modules(built, tmp_path)
