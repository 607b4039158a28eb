PUZZLE = [
    "53..7....", "6..195...", ".98....6.",
    "8...6...3", "4..8.3..1", "7...2...6",
    ".6....28.", "...419..5", "....8..79",
]


def parse(rows: list[str]) -> list[list[int]]:
    board = []
    for line in rows:
        board.append([0 if ch == "." else int(ch) for ch in line])
    return board


def ok(board: list[list[int]], r: int, c: int, v: int) -> bool:
    for i in range(9):
        if board[r][i] == v or board[i][c] == v:
            return False
    br = r // 3 * 3
    bc = c // 3 * 3
    for i in range(br, br + 3):
        for j in range(bc, bc + 3):
            if board[i][j] == v:
                return False
    return True


def solve(board: list[list[int]]) -> bool:
    for r in range(9):
        for c in range(9):
            if board[r][c] == 0:
                for v in range(1, 10):
                    if ok(board, r, c, v):
                        board[r][c] = v
                        if solve(board):
                            return True
                        board[r][c] = 0
                return False
    return True


def main():
    board = parse(PUZZLE)
    print(solve(board))
    for row in board:
        print(" ".join(str(v) for v in row))


if __name__ == "__main__":
    main()
