"""A struct type is its declaration plus its compile-time arguments, not its name (issue 15, item 4).

Two modules may each declare a `Point`; they are two types wherever they meet (a `def` called with
both, a `List` of each, a mismatch), and a message that names both says which module each is from.
Two uses of one generic with the same arguments are one type, whichever module spells them.
"""
import textwrap
from pathlib import Path

from helpers import run_pyx

A = """
    @fieldwise_init
    struct Point(Copyable, Movable):
        var x: Int
    """
B = """
    @fieldwise_init
    struct Point(Copyable, Movable):
        var x: Float64
        var y: Float64
    """


def _program(tmp_path: Path, main: str, **modules: str) -> Path:
    for name, text in {"a": A, "b": B, **modules}.items():
        (tmp_path / f"{name}.px").write_text(textwrap.dedent(text))
    path = tmp_path / "main.px"
    path.write_text(textwrap.dedent(main))
    return path


def test_a_def_called_with_two_modules_points_makes_two_instances(tmp_path):
    # Both instances read `show[Point]`: they were one symbol, and code generation failed.
    result = run_pyx(_program(tmp_path, """
        import a
        import b

        def show(p):
            print(p.x)

        fn main():
            show(a.Point(1))
            show(b.Point(2.5, 3.0))
        """))
    assert (result.status, result.stdout, result.stderr) == (0, "1\n2.5\n", "")


def test_lists_of_two_modules_points_are_two_types(tmp_path):
    # `List[Point]` of each read the same and were taken for one type: `ys[1].y` was "no field `y`".
    result = run_pyx(_program(tmp_path, """
        import a
        import b

        fn main():
            var xs = [a.Point(1)]
            var ys = [b.Point(2.5, 3.0)]
            xs.append(a.Point(4))
            ys.append(b.Point(5.5, 1.0))
            print(len(xs), len(ys), xs[1].x, ys[1].y)
        """))
    assert (result.status, result.stdout, result.stderr) == (0, "2 2 4 1.0\n", "")


def test_a_mismatch_between_two_points_names_their_modules(tmp_path):
    result = run_pyx(_program(tmp_path, """
        from a import Point
        from b import Point as BPoint

        fn total(ps: List[Point]) -> Int:
            var s = 0
            for p in ps:
                s += p.x
            return s

        fn main():
            var q = BPoint(2.5, 3.0)
            print(total([q]))
            var r: Point = q
        """))
    assert result.status == 1
    # The list was accepted as the other module's, and code generation then failed.
    assert "error[E0201]: mismatched types: expected `List[a.Point]`, found `List[b.Point]`" in result.stderr
    assert "error[E0201]: mismatched types: expected `a.Point`, found `b.Point`" in result.stderr
    assert "internal compiler error" not in result.stderr


def test_a_generic_of_two_modules_points_has_an_instance_and_a_destructor_each(tmp_path):
    # `Box[Point]` of each read the same: one symbol for two instances (code generation failed),
    # and one memo entry for whether it has a destructor (only c's Point, holding a String, has).
    result = run_pyx(_program(tmp_path, """
        from a import Point
        from c import Point as CPoint
        from boxes import Box

        fn main():
            for i in range(3):
                var x = Box[Point](Point(i))
                var y = Box[CPoint](CPoint(String("p") + String(i)))
                print(x.v.x, y.v.name)
        """, c="""
        @fieldwise_init
        struct Point(Copyable, Movable):
            var name: String
        """, boxes="""
        @fieldwise_init
        struct Box[T: Copyable & Movable](Copyable, Movable):
            var v: T
        """))
    assert (result.status, result.stdout, result.stderr) == (0, "0 p0\n1 p1\n2 p2\n", "")


def test_generators_of_two_modules_points_are_two_types(tmp_path):
    # `<generator gen(Point) at ...>` of each read the same and were one type: storing the second
    # into the variable holding the first reached code generation with the wrong layout.
    result = run_pyx(_program(tmp_path, """
        from a import Point
        from b import Point as BPoint

        def gen(p):
            yield p.x

        def main():
            g = gen(Point(3))
            for v in g:
                print(v)
            g = gen(BPoint(1.5, 2.0))
            for w in g:
                print(w)
        """))
    assert result.status == 1
    where = f"{tmp_path / 'main.px'}:5:5"
    assert (f"error[E0201]: mismatched types: expected `<generator gen(a.Point) at {where}>`, "
            f"found `<generator gen(b.Point) at {where}>`") in result.stderr
    assert "internal compiler error" not in result.stderr


def test_one_generic_with_the_same_arguments_is_one_type_in_every_module(tmp_path):
    result = run_pyx(_program(tmp_path, """
        from boxes import Box, make
        from a import Point

        fn main():
            var b: Box[Int] = make(4)
            var c = Box[Int](5)
            c = b
            var ps: List[Point] = [Point(1)]
            ps.append(Point(2))
            print(c.v, len(ps))
        """, boxes="""
        @fieldwise_init
        struct Box[T: Copyable & Movable](Copyable, Movable):
            var v: T

        fn make(v: Int) -> Box[Int]:
            return Box[Int](v)
        """))
    assert (result.status, result.stdout, result.stderr) == (0, "4 2\n", "")


def test_two_generics_stand_ins_for_T_are_two_types():
    from pyx import types as T
    from pyx.semantics.module import StructSymbol
    from pyx.syntax import ast

    def stand_in(owner: str) -> T.TypeParamType:
        decl = ast.StructDef(None, "T", None, (), (), (), ())
        sym = StructSymbol(decl, None)
        sym.type = T.TypeParamType("T", f"<{owner}>", base="T", symbol=sym, bound="Shape")
        return sym.type

    f_t, g_t = stand_in("f"), stand_in("g")
    assert f_t == f_t and f_t != g_t and str(f_t) == str(g_t)
    # The same owner's name in two modules (`fn f[T: Shape]` in each) no longer makes them one.
    assert stand_in("f") != stand_in("f")


def test_member_completion_of_a_generic_instance_offers_its_methods():
    from pyx.analysis import analyze

    source = textwrap.dedent("""
        @fieldwise_init
        struct Box[T: Copyable & Movable](Copyable, Movable):
            var v: T

            fn get(self) -> T:
                return self.v

        fn main():
            var b = Box[Int](3)
            print(b.get())
        """)
    result = analyze(source, "box.px")
    labels = {c.label for c in result.member_completions(11, 12, "    print(b.", None)}
    assert {"v", "get"} <= labels
