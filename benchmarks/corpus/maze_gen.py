"""Generate a maze with a seeded LCG and depth-first backtracking, then solve it with BFS."""
from collections import deque


class Lcg:
    def __init__(self, seed: int) -> None:
        self.state = seed

    def next(self) -> int:
        self.state = (self.state * 1103515245 + 12345) % 2**31
        return self.state

    def choice(self, items: list[tuple[int, int]]) -> tuple[int, int]:
        return items[self.next() % len(items)]


def generate(width: int, height: int, seed: int) -> list[list[str]]:
    grid = [["#"] * (2 * width + 1) for _ in range(2 * height + 1)]
    rng = Lcg(seed)
    visited: set[tuple[int, int]] = {(0, 0)}
    stack: list[tuple[int, int]] = [(0, 0)]
    grid[1][1] = " "
    while stack:
        x, y = stack[-1]
        options = [(x + dx, y + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
                   if 0 <= x + dx < width and 0 <= y + dy < height and (x + dx, y + dy) not in visited]
        if not options:
            stack.pop()
            continue
        nx, ny = rng.choice(options)
        grid[y + ny + 1][x + nx + 1] = " "
        grid[2 * ny + 1][2 * nx + 1] = " "
        visited.add((nx, ny))
        stack.append((nx, ny))
    return grid


def solve(grid: list[list[str]]) -> list[tuple[int, int]]:
    start = (1, 1)
    goal = (len(grid[0]) - 2, len(grid) - 2)
    prev: dict[tuple[int, int], tuple[int, int]] = {}
    queue = deque([start])
    seen = {start}
    while queue:
        cur = queue.popleft()
        if cur == goal:
            break
        cx, cy = cur
        for nxt in ((cx + 1, cy), (cx - 1, cy), (cx, cy + 1), (cx, cy - 1)):
            if grid[nxt[1]][nxt[0]] != "#" and nxt not in seen:
                seen.add(nxt)
                prev[nxt] = cur
                queue.append(nxt)
    path = [goal]
    while path[-1] != start:
        path.append(prev[path[-1]])
    path.reverse()
    return path


def main() -> None:
    for seed, (w, h) in [(7, (6, 4)), (2024, (9, 5))]:
        grid = generate(w, h, seed)
        path = solve(grid)
        for x, y in path:
            grid[y][x] = "."
        print(f"maze {w}x{h} seed={seed}: path length {len(path)}")
        for row in grid:
            print("".join(row))
        turns = sum(1 for a, b, c in zip(path, path[1:], path[2:])
                    if (b[0] - a[0], b[1] - a[1]) != (c[0] - b[0], c[1] - b[1]))
        print("turns:", turns)
        open_cells = sum(row.count(" ") + row.count(".") for row in grid)
        print(f"open: {open_cells}, walls: {sum(r.count('#') for r in grid)}")


main()
