"""A class declared in an imported `.px` module is used as in Python: constructed through the
module (`shapes.Circle(2.0)`) or imported by name, its objects passed to the module's functions
and back, its attributes changed through a reference, its subclasses dispatched and tested with
`isinstance`. The module's class code is resolved in that module (semantics/imports.py,
`register`). Each program is also run by CPython, with the module as a `.py` file of the same
text, and must print the same."""
import subprocess
import sys
import textwrap

from helpers import run_pyx

SHAPES = textwrap.dedent('''\
    class Shape:
        def __init__(self, name: str):
            self.name = name

        def area(self) -> float:
            return 0.0

        def __repr__(self) -> str:
            return f"Shape({self.name!r})"


    class Circle(Shape):
        def __init__(self, r: float):
            super().__init__("circle")
            self.r = r

        def area(self) -> float:
            return 3.0 * self.r * self.r


    class Square(Shape):
        def __init__(self, side: float):
            super().__init__("square")
            self.side = side

        def area(self) -> float:
            return self.side * self.side


    class Point:
        def __init__(self, x: int, y: int):
            self.x = x
            self.y = y

        def moved(self, dx: int) -> "Point":
            return Point(self.x + dx, self.y)


    def biggest(shapes: list[Shape]) -> Shape:
        best = shapes[0]
        for s in shapes:
            if s.area() > best.area():
                best = s
        return best
''')

MAIN = textwrap.dedent('''\
    import shapes
    from shapes import Circle, Square, Shape


    def total(xs: list[Shape]) -> float:
        t = 0.0
        for x in xs:
            t += x.area()
        return t


    def grow(c: shapes.Circle):
        c.r += 1.0


    def main():
        s = shapes.Circle(2.0)
        print(s.area(), s.r, s.name)
        grow(s)
        print(s.r)
        xs: list[Shape] = [Circle(1.0), Square(3.0), s]
        print(total(xs), shapes.biggest(xs).name, xs[1])
        print(isinstance(xs[0], Circle), isinstance(xs[1], Circle))
        p = shapes.Point(1, 2)
        q = p
        q.x = 10
        print(p.x, p.moved(5).x, p.y)


    if __name__ == "__main__":
        main()
''')


def test_classes_of_an_imported_module_behave_as_in_python(tmp_path):
    (tmp_path / "shapes.px").write_text(SHAPES)
    (tmp_path / "main.px").write_text(MAIN)
    twin = tmp_path / "python"
    twin.mkdir()
    (twin / "shapes.py").write_text(SHAPES)
    (twin / "main.py").write_text(MAIN)
    python = subprocess.run([sys.executable, "main.py"], capture_output=True, text=True, cwd=twin)
    assert python.returncode == 0, python.stderr
    assert python.stdout == "12.0 2.0 circle\n3.0\n39.0 circle Shape('square')\nTrue False\n10 15 2\n"
    result = run_pyx(tmp_path / "main.px")
    assert result.status == 0, result.stderr
    assert result.stdout == python.stdout
