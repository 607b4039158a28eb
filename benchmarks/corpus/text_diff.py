"""A line diff from the longest common subsequence, in unified style, and a word similarity score."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Op:
    kind: str  # " ", "-", "+"
    line: str
    old_no: int
    new_no: int


def lcs_table(a: list[str], b: list[str]) -> list[list[int]]:
    n, m = len(a), len(b)
    t = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            if a[i] == b[j]:
                t[i][j] = t[i + 1][j + 1] + 1
            else:
                t[i][j] = max(t[i + 1][j], t[i][j + 1])
    return t


def diff(a: list[str], b: list[str]) -> list[Op]:
    t = lcs_table(a, b)
    ops: list[Op] = []
    i = j = 0
    while i < len(a) and j < len(b):
        if a[i] == b[j]:
            ops.append(Op(" ", a[i], i + 1, j + 1))
            i += 1
            j += 1
        elif t[i + 1][j] >= t[i][j + 1]:
            ops.append(Op("-", a[i], i + 1, j))
            i += 1
        else:
            ops.append(Op("+", b[j], i, j + 1))
            j += 1
    ops.extend(Op("-", a[k], k + 1, j) for k in range(i, len(a)))
    return ops + [Op("+", b[k], i, k + 1) for k in range(j, len(b))]


def hunks(ops: list[Op], context: int = 1) -> list[list[Op]]:
    changed = [k for k, op in enumerate(ops) if op.kind != " "]
    groups: list[list[Op]] = []
    start = end = -1
    for k in changed:
        lo, hi = max(k - context, 0), min(k + context, len(ops) - 1)
        if start >= 0 and lo <= end + 1:
            end = hi
        else:
            if start >= 0:
                groups.append(ops[start:end + 1])
            start, end = lo, hi
    if start >= 0:
        groups.append(ops[start:end + 1])
    return groups


def unified(a: list[str], b: list[str]) -> str:
    out = ["--- old", "+++ new"]
    for h in hunks(diff(a, b)):
        old = [op for op in h if op.kind != "+"]
        new = [op for op in h if op.kind != "-"]
        old_start = old[0].old_no if old else h[0].old_no
        new_start = new[0].new_no if new else h[0].new_no
        out.append(f"@@ -{old_start},{len(old)} +{new_start},{len(new)} @@")
        out.extend(op.kind + op.line for op in h)
    return "\n".join(out)


def similarity(x: str, y: str) -> float:
    a, b = x.lower().split(), y.lower().split()
    if not a and not b:
        return 1.0
    common = lcs_table(a, b)[0][0]
    return 2.0 * common / (len(a) + len(b))


OLD = """def greet(name):
    print("hello", name)

def main():
    greet("world")
    greet("pyx")
    return 0
""".splitlines()

NEW = """def greet(name, punct="!"):
    print("hello", name + punct)

def main():
    greet("world")
    greet("compiler")
    greet("pyx")
    return 0

main()
""".splitlines()


def main() -> None:
    ops = diff(OLD, NEW)
    counts = {k: sum(1 for op in ops if op.kind == k) for k in " -+"}
    print(f"kept {counts[' ']}, removed {counts['-']}, added {counts['+']}")
    print(unified(OLD, NEW))
    print(unified(["a", "b", "c"], ["a", "b", "c"]) == "--- old\n+++ new", unified([], ["only"]))
    pairs = [("the cat sat on the mat", "the cat lay on the mat"), ("a b c d", "d c b a"), ("", ""),
             ("Same Words Here", "same words here")]
    for x, y in pairs:
        print(f"{x!r:28} ~ {y!r:28} {similarity(x, y):.3f}")
    best = max(pairs, key=lambda p: similarity(*p))
    print("most similar:", best)
    seen = {op for op in ops if op.kind == " "}
    print(len(seen), Op(" ", "", 4, 4) in seen, sorted(op.old_no for op in seen))


if __name__ == "__main__":
    main()
