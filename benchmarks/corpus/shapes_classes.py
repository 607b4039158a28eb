import math


class Shape:
    count = 0

    def __init__(self, name):
        self.name = name
        Shape.count += 1

    def area(self):
        raise NotImplementedError

    def perimeter(self):
        return 0.0

    def describe(self):
        return f"{self.name} with area {self.area():.2f} and perimeter {self.perimeter():.2f}"

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r})"

    def __lt__(self, other):
        return self.area() < other.area()


class Rectangle(Shape):
    def __init__(self, w, h, name="rectangle"):
        super().__init__(name)
        self.w = w
        self.h = h

    def area(self):
        return self.w * self.h

    def perimeter(self):
        return 2 * (self.w + self.h)

    def __repr__(self):
        return f"Rectangle({self.w}, {self.h})"


class Square(Rectangle):
    def __init__(self, side):
        super().__init__(side, side, "square")

    def __repr__(self):
        return f"Square({self.w})"


class Circle(Shape):
    def __init__(self, r):
        super().__init__("circle")
        self.r = r

    def area(self):
        return math.pi * self.r ** 2

    def perimeter(self):
        return 2 * math.pi * self.r

    def __eq__(self, other):
        return isinstance(other, Circle) and self.r == other.r


class Vector:
    def __init__(self, x, y):
        self.x = x
        self.y = y

    def __add__(self, other):
        return Vector(self.x + other.x, self.y + other.y)

    def __sub__(self, other):
        return Vector(self.x - other.x, self.y - other.y)

    def __mul__(self, k):
        return Vector(self.x * k, self.y * k)

    def __abs__(self):
        return math.hypot(self.x, self.y)

    def __eq__(self, other):
        return self.x == other.x and self.y == other.y

    def __repr__(self):
        return f"Vector({self.x}, {self.y})"

    def __str__(self):
        return f"<{self.x}, {self.y}>"


def main():
    shapes = [Rectangle(3, 4), Square(2), Circle(1.5), Square(5), Circle(0.5)]
    for s in shapes:
        print(s.describe())
    print(shapes)
    print(sorted(shapes))
    print(max(shapes, key=lambda s: s.perimeter()))
    print(Shape.count, isinstance(shapes[1], Rectangle), isinstance(shapes[2], Rectangle))
    print(Circle(2) == Circle(2), Circle(2) == Circle(3), Circle(1) != Circle(2))
    print(issubclass(Square, Shape), type(shapes[0]) is Rectangle, type(shapes[1]).__name__)
    try:
        Shape("abstract").area()
    except NotImplementedError:
        print("abstract shape has no area")
    v = Vector(1, 2) + Vector(3, 4) * 2
    print(v, repr(v), abs(Vector(3, 4)), v - Vector(7, 10) == Vector(0, 0))
    print([str(Vector(i, -i)) for i in range(3)])
    print(f"{v}", f"{v!r}", str([v]))
    total_area = sum(s.area() for s in shapes)
    print(round(total_area, 3))


main()
