# The Python twin of mandelbrot.px: `python examples/mandelbrot.py` prints the same.
MAX_ITER = 200
def escape_time(cx, cy):
    x = 0.0
    y = 0.0
    for i in range(MAX_ITER):
        if x * x + y * y > 4.0:
            return i
        x, y = x * x - y * y + cx, 2.0 * x * y + cy
    return MAX_ITER
total = 0
for row in range(200):
    for col in range(300):
        total += escape_time(-2.0 + col * 0.01, -1.0 + row * 0.01)
print("iterations:", total)
