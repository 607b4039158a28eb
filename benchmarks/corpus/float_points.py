"""pyperformance's `float` benchmark: make many Point objects from sines and cosines, normalize
each in place, and fold them into their component-wise maximum. Exercises float arithmetic,
attribute reads and writes on objects, and method calls that return `self`. Written with the type hints a mypy user gives."""
from math import cos, sin, sqrt


class Point:
    def __init__(self, i: float):
        x = sin(i)
        self.x: float = x
        self.y: float = cos(i) * 3
        self.z: float = (x * x) / 2

    def __repr__(self) -> str:
        return f"<Point: x={self.x}, y={self.y}, z={self.z}>"

    def normalize(self):
        x = self.x
        y = self.y
        z = self.z
        norm = sqrt(x * x + y * y + z * z)
        self.x /= norm
        self.y /= norm
        self.z /= norm

    def maximize(self, other: "Point") -> "Point":
        self.x = self.x if self.x > other.x else other.x
        self.y = self.y if self.y > other.y else other.y
        self.z = self.z if self.z > other.z else other.z
        return self


def maximize(points: list[Point]) -> Point:
    next = points[0]
    for p in points[1:]:
        next = next.maximize(p)
    return next


def benchmark(n: int) -> Point:
    points = [Point(float(i)) for i in range(n)]
    for p in points:
        p.normalize()
    return maximize(points)


N = 10000  # benchmark size: 500000


def main():
    for _ in range(3):
        print(benchmark(N))


if __name__ == "__main__":
    main()
