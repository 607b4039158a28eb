import math


class Shape:
    def area(self) -> float:
        return 0.0

    def name(self) -> str:
        return "shape"


class Circle(Shape):
    def __init__(self, r: float):
        self.r = r

    def area(self) -> float:
        return math.pi * self.r * self.r

    def name(self) -> str:
        return "circle"


class Rect(Shape):
    def __init__(self, w: float, h: float):
        self.w = w
        self.h = h

    def area(self) -> float:
        return self.w * self.h

    def name(self) -> str:
        return "rect"


def main():
    shapes: list[Shape] = [Circle(1.0), Rect(2.0, 3.5), Circle(0.5)]
    total = 0.0
    for s in shapes:
        print(s.name(), round(s.area(), 3))
        total += s.area()
    print(round(total, 3), isinstance(shapes[1], Rect))


if __name__ == "__main__":
    main()
