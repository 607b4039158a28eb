"""Tic-tac-toe solved with minimax: the value of every opening move, and a perfect game."""

LINES = [
    (0, 1, 2), (3, 4, 5), (6, 7, 8),
    (0, 3, 6), (1, 4, 7), (2, 5, 8),
    (0, 4, 8), (2, 4, 6),
]

cache: dict[str, int] = {}
nodes_visited = 0


def winner(board: list[str]) -> str:
    for a, b, c in LINES:
        if board[a] != " " and board[a] == board[b] == board[c]:
            return board[a]
    return ""


def moves(board: list[str]) -> list[int]:
    return [i for i, cell in enumerate(board) if cell == " "]


def minimax(board: list[str], player: str) -> int:
    """Score from X's point of view: +1 X wins, -1 O wins, 0 draw."""
    global nodes_visited
    key = "".join(board) + player
    if key in cache:
        return cache[key]
    nodes_visited += 1
    w = winner(board)
    if w == "X":
        score = 1
    elif w == "O":
        score = -1
    elif not moves(board):
        score = 0
    else:
        scores = []
        for m in moves(board):
            board[m] = player
            scores.append(minimax(board, "O" if player == "X" else "X"))
            board[m] = " "
        score = max(scores) if player == "X" else min(scores)
    cache[key] = score
    return score


def best_move(board: list[str], player: str) -> int:
    best = -1
    best_score = -2 if player == "X" else 2
    for m in moves(board):
        board[m] = player
        s = minimax(board, "O" if player == "X" else "X")
        board[m] = " "
        if (player == "X" and s > best_score) or (player == "O" and s < best_score):
            best, best_score = m, s
    return best


def show(board: list[str]) -> str:
    rows = ["|".join(board[r * 3:r * 3 + 3]) for r in range(3)]
    return "\n-+-+-\n".join(rows)


def main() -> None:
    empty = [" "] * 9
    names = {0: "corner", 1: "edge", 4: "center"}
    for first in (0, 1, 4):
        board = empty.copy()
        board[first] = "X"
        print(f"X opens {names[first]:>6} ({first}): value {minimax(board, 'O'):+d}")

    board = [" "] * 9
    player = "X"
    turn = 1
    while not winner(board) and moves(board):
        m = best_move(board, player)
        board[m] = player
        print(f"turn {turn}: {player} -> {m}")
        player = "O" if player == "X" else "X"
        turn += 1
    print(show(board))
    result = winner(board) or "draw"
    print("result:", result)
    print("positions evaluated:", nodes_visited, "cached:", len(cache))
    wins = sum(1 for v in cache.values() if v == 1)
    losses = sum(1 for v in cache.values() if v == -1)
    print(f"cached X wins={wins} O wins={losses} draws={len(cache) - wins - losses}")

    tricky = list("XO  X  O ")
    print("O to move in", repr("".join(tricky)), "blocks at", best_move(tricky, "O"))


if __name__ == "__main__":
    main()
