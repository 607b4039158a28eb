moves = []


def hanoi(n: int, src: str, dst: str, via: str):
    if n == 0:
        return
    hanoi(n - 1, src, via, dst)
    moves.append((src, dst))
    hanoi(n - 1, via, dst, src)


hanoi(5, "A", "C", "B")
print(len(moves))
print(moves[:4])
