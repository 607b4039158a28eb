"""Student grades: parse CSV-like text, compute statistics, print an aligned report."""
from dataclasses import dataclass, field

DATA = """name,math,physics,history,art
Alice,92,88,75,95
Bob,67,72,80,58
Chandra,88,95,91,70
Dmitri,45,60,52,81
Eun-ji,78,85,88,90
Farah,99,97,64,73
Gabriel,55,49,70,66
"""


@dataclass
class Student:
    name: str
    scores: dict[str, int] = field(default_factory=dict)

    def average(self) -> float:
        return sum(self.scores.values()) / len(self.scores)

    def best(self) -> str:
        return max(self.scores, key=lambda s: self.scores[s])


def letter(avg: float) -> str:
    for cutoff, grade in ((90, "A"), (80, "B"), (70, "C"), (60, "D")):
        if avg >= cutoff:
            return grade
    return "F"


def parse(text: str) -> tuple[list[str], list[Student]]:
    lines = text.strip().split("\n")
    header = lines[0].split(",")
    subjects = header[1:]
    students: list[Student] = []
    for line in lines[1:]:
        cells = line.split(",")
        s = Student(cells[0])
        for subject, cell in zip(subjects, cells[1:]):
            s.scores[subject] = int(cell)
        students.append(s)
    return subjects, students


def median(values: list[int]) -> float:
    ordered = sorted(values)
    n = len(ordered)
    mid = n // 2
    if n % 2:
        return float(ordered[mid])
    return (ordered[mid - 1] + ordered[mid]) / 2


def main() -> None:
    subjects, students = parse(DATA)
    width = max(len(s.name) for s in students) + 2
    head = "Name".ljust(width) + "".join(f"{sub[:7]:>9}" for sub in subjects) + f"{'avg':>8} grade"
    print(head)
    print("-" * len(head))
    for s in sorted(students, key=lambda st: st.average(), reverse=True):
        cells = "".join(f"{s.scores[sub]:>9d}" for sub in subjects)
        avg = s.average()
        print(f"{s.name:<{width}}{cells}{avg:>8.2f} {letter(avg):^5}")
    print("-" * len(head))
    for sub in subjects:
        col = [s.scores[sub] for s in students]
        mean = sum(col) / len(col)
        var = sum((x - mean) ** 2 for x in col) / len(col)
        top = max(students, key=lambda st: st.scores[sub])
        print(f"{sub:<8} mean={mean:6.2f} median={median(col):5.1f} sd={var ** 0.5:6.3f} top={top.name}")
    counts: dict[str, int] = {}
    for s in students:
        g = letter(s.average())
        counts[g] = counts.get(g, 0) + 1
    print("distribution:", ", ".join(f"{g}:{counts[g]}" for g in sorted(counts)))
    passing = [s.name for s in students if all(v >= 60 for v in s.scores.values())]
    print("passed every subject:", passing)
    print("best subjects:", {s.name: s.best() for s in students[:3]})
    print(f"{'share above 80':<16}{sum(1 for s in students if s.average() > 80) / len(students):.1%}")


if __name__ == "__main__":
    main()
