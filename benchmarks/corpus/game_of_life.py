def step(grid: list[list[int]]) -> list[list[int]]:
    rows = len(grid)
    cols = len(grid[0])
    new = [[0] * cols for _ in range(rows)]
    for r in range(rows):
        for c in range(cols):
            alive = 0
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    if dr == 0 and dc == 0:
                        continue
                    rr = (r + dr) % rows
                    cc = (c + dc) % cols
                    alive += grid[rr][cc]
            if grid[r][c] == 1 and alive in (2, 3):
                new[r][c] = 1
            elif grid[r][c] == 0 and alive == 3:
                new[r][c] = 1
    return new


def show(grid: list[list[int]]):
    for row in grid:
        print("".join("#" if v else "." for v in row))


def main():
    grid = [[0] * 10 for _ in range(8)]
    grid[1][2] = 1
    grid[2][3] = 1
    grid[3][1] = 1
    grid[3][2] = 1
    grid[3][3] = 1
    for _ in range(4):
        grid = step(grid)
    show(grid)


if __name__ == "__main__":
    main()
