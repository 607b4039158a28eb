"""Ten-pin bowling: score games from their rolls, validate them, and rank the players."""
from dataclasses import dataclass


class BowlingError(ValueError):
    pass


@dataclass
class Frame:
    rolls: list[int]
    score: int = 0

    @property
    def is_strike(self) -> bool:
        return self.rolls[0] == 10

    @property
    def is_spare(self) -> bool:
        return not self.is_strike and len(self.rolls) >= 2 and self.rolls[0] + self.rolls[1] == 10

    def mark(self) -> str:
        if self.is_strike and len(self.rolls) == 1:
            return "X"
        marks = []
        for i, r in enumerate(self.rolls):
            if r == 10:
                marks.append("X")
            elif i > 0 and self.rolls[i - 1] != 10 and self.rolls[i - 1] + r == 10 and not (i == 2 and marks[1] == "/"):
                marks.append("/")
            elif r == 0:
                marks.append("-")
            else:
                marks.append(str(r))
        return "".join(marks)


def split_frames(rolls: list[int]) -> list[Frame]:
    frames = []
    i = 0
    for n in range(10):
        if i >= len(rolls):
            raise BowlingError(f"game ends in frame {n + 1}")
        if any(r < 0 or r > 10 for r in rolls[i:i + 3]):
            raise BowlingError(f"impossible roll in frame {n + 1}")
        if n == 9:
            frames.append(Frame(rolls[i:]))
            i = len(rolls)
        elif rolls[i] == 10:
            frames.append(Frame([10]))
            i += 1
        else:
            pair = rolls[i:i + 2]
            if sum(pair) > 10:
                raise BowlingError(f"frame {n + 1} knocks down {sum(pair)} pins")
            frames.append(Frame(pair))
            i += 2
    last = frames[-1].rolls
    need = 3 if last[0] == 10 or sum(last[:2]) == 10 else 2
    if len(last) != need:
        raise BowlingError(f"tenth frame has {len(last)} rolls, expected {need}")
    return frames


def score(rolls: list[int]) -> list[Frame]:
    frames = split_frames(rolls)
    running = 0
    i = 0
    for n, frame in enumerate(frames):
        if n == 9:
            running += sum(frame.rolls)
        elif frame.is_strike:
            running += 10 + rolls[i + 1] + rolls[i + 2]
        elif frame.is_spare:
            running += 10 + rolls[i + 2]
        else:
            running += sum(frame.rolls)
        frame.score = running
        i += len(frame.rolls)
    return frames


GAMES = {
    "perfect": [10] * 12,
    "gutter": [0] * 20,
    "spares": [5, 5] * 10 + [5],
    "mixed": [10, 7, 3, 9, 0, 10, 0, 8, 8, 2, 0, 6, 10, 10, 10, 8, 1],
    "nines": [9, 0] * 10,
    "short": [10, 10, 10],
    "overfull": [7, 5] + [0] * 18,
    "tenth": [0] * 18 + [10, 3],
}


def main() -> None:
    results: dict[str, int] = {}
    for name, rolls in GAMES.items():
        try:
            frames = score(rolls)
        except BowlingError as e:
            print(f"{name:>9}: invalid ({e})")
            continue
        marks = " ".join(f"{f.mark():>3}" for f in frames)
        totals = " ".join(f"{f.score:>3}" for f in frames)
        print(f"{name:>9}: {marks}\n{'':>9}  {totals}")
        results[name] = frames[-1].score
    ranking = sorted(results.items(), key=lambda kv: (-kv[1], kv[0]))
    for place, (name, total) in enumerate(ranking, start=1):
        print(f"{place}. {name:<8} {total:>3}")
    strikes = {name: sum(1 for r in GAMES[name] if r == 10) for name in results}
    print("strikes:", strikes)
    print("average:", round(sum(results.values()) / len(results), 2))


if __name__ == "__main__":
    main()
