"""A small ray tracer in the style of pyperformance's `raytrace` (after Carl Friedrich Bolz's
tracer): vectors, rays, spheres and a half-space as objects, surfaces with inheritance, lights,
shadows and reflections. Renders a small image and prints a checksum of its pixels."""
import math

EPSILON = 0.00001


class Vector:
    def __init__(self, x: float, y: float, z: float):
        self.x = x
        self.y = y
        self.z = z

    def dot(self, other: "Vector") -> float:
        return self.x * other.x + self.y * other.y + self.z * other.z

    def magnitude(self) -> float:
        return math.sqrt(self.dot(self))

    def __add__(self, other: "Vector") -> "Vector":
        return Vector(self.x + other.x, self.y + other.y, self.z + other.z)

    def __sub__(self, other: "Vector") -> "Vector":
        return Vector(self.x - other.x, self.y - other.y, self.z - other.z)

    def scale(self, factor: float) -> "Vector":
        return Vector(factor * self.x, factor * self.y, factor * self.z)

    def cross(self, other: "Vector") -> "Vector":
        return Vector(self.y * other.z - self.z * other.y,
                      self.z * other.x - self.x * other.z,
                      self.x * other.y - self.y * other.x)

    def normalized(self) -> "Vector":
        return self.scale(1.0 / self.magnitude())

    def negated(self) -> "Vector":
        return self.scale(-1.0)

    def reflect_through(self, normal: "Vector") -> "Vector":
        d = normal.scale(self.dot(normal))
        return self - d.scale(2.0)

    def __repr__(self) -> str:
        return f"Vector({self.x}, {self.y}, {self.z})"


ZERO = Vector(0.0, 0.0, 0.0)
RIGHT = Vector(1.0, 0.0, 0.0)
UP = Vector(0.0, 1.0, 0.0)
OUT = Vector(0.0, 0.0, 1.0)


class Ray:
    def __init__(self, point: Vector, vector: Vector):
        self.point = point
        self.vector = vector.normalized()

    def point_at_time(self, t: float) -> Vector:
        return self.point + self.vector.scale(t)


class Shape:
    def intersection_time(self, ray: Ray) -> float:
        return -1.0

    def normal_at(self, p: Vector) -> Vector:
        return ZERO


class Sphere(Shape):
    def __init__(self, centre: Vector, radius: float):
        self.centre = centre
        self.radius = radius

    def intersection_time(self, ray: Ray) -> float:
        cp = self.centre - ray.point
        v = cp.dot(ray.vector)
        discriminant = (self.radius * self.radius) - (cp.dot(cp) - v * v)
        if discriminant < 0:
            return -1.0
        return v - math.sqrt(discriminant)

    def normal_at(self, p: Vector) -> Vector:
        return (p - self.centre).normalized()


class Halfspace(Shape):
    def __init__(self, point: Vector, normal: Vector):
        self.point = point
        self.normal = normal.normalized()

    def intersection_time(self, ray: Ray) -> float:
        v = ray.vector.dot(self.normal)
        if v:
            return 1 / -v
        return -1.0

    def normal_at(self, p: Vector) -> Vector:
        return self.normal


class Surface:
    def __init__(self, colour: Vector, reflectivity: float):
        self.base_colour = colour
        self.reflectivity = reflectivity

    def colour_at(self, p: Vector) -> Vector:
        return self.base_colour


class CheckerboardSurface(Surface):
    def __init__(self, colour: Vector, other: Vector, size: float):
        super().__init__(colour, 0.2)
        self.other_colour = other
        self.check_size = size

    def colour_at(self, p: Vector) -> Vector:
        v = p - ZERO
        v = v.scale(1.0 / self.check_size)
        if (int(abs(v.x) + 0.5) + int(abs(v.y) + 0.5) + int(abs(v.z) + 0.5)) % 2:
            return self.other_colour
        return self.base_colour


class Thing:
    def __init__(self, shape: Shape, surface: Surface):
        self.shape = shape
        self.surface = surface


class Scene:
    def __init__(self):
        self.things: list[Thing] = []
        self.lights: list[Vector] = []
        self.position = Vector(0.0, 1.8, 10.0)
        self.looking_at = ZERO
        self.field_of_view = 45.0
        self.recursion_depth = 0

    def add(self, shape: Shape, surface: Surface):
        self.things.append(Thing(shape, surface))

    def first_hit(self, ray: Ray) -> tuple[float, int]:
        best_time, best = -1.0, -1
        for k, thing in enumerate(self.things):
            t = thing.shape.intersection_time(ray)
            if t > EPSILON and (best < 0 or t < best_time):
                best_time, best = t, k
        return best_time, best

    def ray_colour(self, ray: Ray) -> Vector:
        if self.recursion_depth > 3:
            return ZERO
        self.recursion_depth += 1
        t, k = self.first_hit(ray)
        if k < 0:
            self.recursion_depth -= 1
            return ZERO
        thing = self.things[k]
        p = ray.point_at_time(t)
        colour = self.shade(thing, p, ray)
        self.recursion_depth -= 1
        return colour

    def light_is_visible(self, l: Vector, p: Vector) -> bool:
        t, k = self.first_hit(Ray(p, l - p))
        return k < 0 or t > (l - p).magnitude()

    def shade(self, thing: Thing, p: Vector, ray: Ray) -> Vector:
        normal = thing.shape.normal_at(p)
        base = thing.surface.colour_at(p)
        c = ZERO
        reflectivity = thing.surface.reflectivity
        if reflectivity > 0:
            reflected = self.ray_colour(Ray(p, ray.vector.reflect_through(normal)))
            c = c + reflected.scale(reflectivity)
        lambert = 0.0
        for light in self.lights:
            if self.light_is_visible(light, p):
                contribution = (light - p).normalized().dot(normal)
                if contribution > 0:
                    lambert += contribution
        lambert = min(1.0, lambert)
        c = c + base.scale(lambert * (1.0 - reflectivity))
        return c

    def render(self, width: int, height: int) -> list[int]:
        fov_radians = math.pi * (self.field_of_view / 2.0) / 180.0
        half_width = math.tan(fov_radians)
        half_height = 0.75 * half_width
        pixel_width = half_width * 2.0 / (width - 1)
        pixel_height = half_height * 2.0 / (height - 1)
        eye = Ray(self.position, self.looking_at - self.position)
        vp_right = eye.vector.cross(UP).normalized()
        vp_up = vp_right.cross(eye.vector).normalized()
        pixels: list[int] = []
        for y in range(height):
            for x in range(width):
                xcomp = vp_right.scale(x * pixel_width - half_width)
                ycomp = vp_up.scale(y * pixel_height - half_height)
                ray = Ray(eye.point, eye.vector + xcomp + ycomp)
                colour = self.ray_colour(ray)
                for channel in (colour.x, colour.y, colour.z):
                    pixels.append(int(min(1.0, channel) * 255.0))
        return pixels


SIZE = 24  # benchmark size: 320


def main():
    scene = Scene()
    scene.lights.append(Vector(30.0, 30.0, 10.0))
    scene.lights.append(Vector(-10.0, 100.0, 30.0))
    scene.add(Sphere(Vector(1.0, 3.0, -10.0), 2.0), Surface(Vector(1.0, 1.0, 0.0), 0.2))
    for y in range(6):
        scene.add(Sphere(Vector(-3.0 - y * 0.4, 2.3, -5.0), 0.4), Surface(Vector(y / 6.0, 1.0 - y / 6.0, 0.5), 0.2))
    scene.add(Halfspace(Vector(0.0, 0.0, 0.0), UP),
              CheckerboardSurface(Vector(1.0, 1.0, 1.0), Vector(0.0, 0.0, 0.0), 1.0))
    pixels = scene.render(SIZE, SIZE * 3 // 4)
    checksum = 0
    for i, v in enumerate(pixels):
        checksum = (checksum * 31 + v * (i % 7 + 1)) % 1000000007
    print(len(pixels), "channels, sum", sum(pixels), "checksum", checksum)


if __name__ == "__main__":
    main()
