"""Class instances at the boundary: a class's objects are shared by reference and live in pyx's
memory, which no Python object can hold yet, so a function taking or returning one is not
callable from Python, and says so by naming the class (not the generic list of what crosses),
as does `pyx check --exports` and a generic function whose instance would return one."""
import subprocess
import sys
import textwrap

import pytest

from helpers import compiled_module

SOURCE = textwrap.dedent('''
    class Point:
        def __init__(self, x: float, y: float):
            self.x = x
            self.y = y

        def norm2(self) -> float:
            return self.x * self.x + self.y * self.y


    def make(x: float, y: float) -> Point:
        return Point(x, y)


    def norm(p: Point) -> float:
        return p.norm2()


    def make_any(x, y):
        return Point(x, y)


    def norm_of(x: float, y: float) -> float:
        return norm(make(x, y))
''')

WHY = "instances of a class are shared by reference and live in pyx's memory"


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    with compiled_module("class_boundary", SOURCE, tmp_path_factory) as module:
        yield module


def test_a_class_result_or_parameter_is_an_attribute_error_naming_the_class(m):
    with pytest.raises(AttributeError, match=r"class_boundary\.make cannot be called from Python: its result is a "
                                             r"Point object: " + WHY):
        m.make  # noqa: B018 - the attribute access is what raises
    with pytest.raises(AttributeError, match=r"class_boundary\.norm cannot be called from Python: parameter 'p' is a "
                                             r"Point object: " + WHY):
        m.norm  # noqa: B018
    assert m.norm_of(3.0, 4.0) == 25.0  # classes used inside: the function itself crosses


def test_a_generic_instance_returning_a_class_says_why(m):
    with pytest.raises(TypeError, match=r"make_any\(Float64, Float64\): its result is a Point object: " + WHY):
        m.make_any(1.0, 2.0)


def test_check_exports_names_the_class(tmp_path):
    (tmp_path / "cls.px").write_text(SOURCE)
    done = subprocess.run([sys.executable, "-m", "pyx", "check", "--exports", "cls.px"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert any(line.startswith("cls.px:11: make: not callable from Python: its result is a Point object: " + WHY)
               for line in lines), lines
    assert any(line.startswith("cls.px:15: norm: not callable from Python: parameter 'p' is a Point object")
               for line in lines), lines
    assert "cls.px:23: norm_of: exported (Float64, Float64)" in lines
