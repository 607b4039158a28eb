"""`for p in xs: p.change()` over a `List` of structs changes the elements in place: the loop
variable is the element itself, as Mojo's `for ref p in xs` and Python's loop variable
(semantics/element_loops.py). Each program here is beside its Python twin (the struct a class),
which CPython runs and must print the same."""
from helpers import prints_as_python

POINT_PX = """
@fieldwise_init
struct Point(Copyable, Movable):
    var x: Float64
    var y: Float64

    fn normalize(mut self):
        var n = (self.x * self.x + self.y * self.y) ** 0.5
        self.x /= n
        self.y /= n

"""
POINT_PY = """
class Point:
    def __init__(self, x, y):
        self.x, self.y = x, y

    def normalize(self):
        n = (self.x * self.x + self.y * self.y) ** 0.5
        self.x /= n
        self.y /= n

"""
MAIN = """
def shift(ps: list[Point], dx: float):
    for p in ps:
        p.x += dx

def main():
    points = [Point(3.0, 4.0), Point(0.0, 2.0)]
    for p in points:
        p.normalize()
    print(points[0].x, points[0].y, points[1].x, points[1].y)
    shift(points, 1.0)
    for i, p in enumerate(points):
        p.y = p.y * 10.0 + float(i)
        if p.y > 100.0:
            break
    print(points[0].x, points[0].y, points[1].x, points[1].y)

"""


def test_a_struct_loop_variable_changes_the_element(tmp_path):
    prints_as_python(POINT_PX + MAIN, POINT_PY + MAIN + "main()\n", tmp_path)
