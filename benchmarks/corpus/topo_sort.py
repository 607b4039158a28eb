"""Course planning: prerequisites as a graph, Kahn's topological sort into semesters, cycle detection
with depth-first search, and the longest chain of prerequisites."""
from collections import deque

COURSES = {
    "intro": [],
    "discrete": [],
    "data_structures": ["intro"],
    "algorithms": ["data_structures", "discrete"],
    "systems": ["data_structures"],
    "compilers": ["algorithms", "systems"],
    "databases": ["data_structures"],
    "networks": ["systems"],
    "distributed": ["networks", "databases"],
    "theory": ["discrete", "algorithms"],
}


class CycleError(Exception):
    def __init__(self, path: list[str]):
        super().__init__(" -> ".join(path))
        self.path = path


def semesters(prereqs: dict[str, list[str]], per_term: int) -> list[list[str]]:
    indegree = {c: len(reqs) for c, reqs in prereqs.items()}
    unlocks: dict[str, list[str]] = {c: [] for c in prereqs}
    for course, reqs in prereqs.items():
        for r in reqs:
            unlocks[r].append(course)
    ready = deque(sorted(c for c, d in indegree.items() if d == 0))
    plan: list[list[str]] = []
    done = 0
    while ready:
        term = [ready.popleft() for _ in range(min(per_term, len(ready)))]
        plan.append(term)
        done += len(term)
        newly = []
        for c in term:
            for nxt in unlocks[c]:
                indegree[nxt] -= 1
                if indegree[nxt] == 0:
                    newly.append(nxt)
        ready.extend(sorted(newly))
    if done != len(prereqs):
        stuck = sorted(c for c, d in indegree.items() if d > 0)
        raise CycleError(find_cycle(prereqs, stuck[0]))
    return plan


def find_cycle(prereqs: dict[str, list[str]], start: str) -> list[str]:
    path: list[str] = []
    on_path: set[str] = set()

    def visit(node: str) -> list[str] | None:
        if node in on_path:
            return path[path.index(node):] + [node]
        path.append(node)
        on_path.add(node)
        for r in prereqs[node]:
            found = visit(r)
            if found:
                return found
        path.pop()
        on_path.discard(node)
        return None

    return visit(start) or []


def longest_chain(prereqs: dict[str, list[str]]) -> list[str]:
    memo: dict[str, list[str]] = {}

    def chain(c: str) -> list[str]:
        if c not in memo:
            best: list[str] = []
            for r in prereqs[c]:
                candidate = chain(r)
                if len(candidate) > len(best):
                    best = candidate
            memo[c] = best + [c]
        return memo[c]

    return max((chain(c) for c in sorted(prereqs)), key=len)


def main() -> None:
    for per_term in (3, 2):
        plan = semesters(COURSES, per_term)
        print(f"{per_term} per term: {len(plan)} semesters")
        for i, term in enumerate(plan, 1):
            print(f"  {i}: {', '.join(term)}")
    chain = longest_chain(COURSES)
    print("longest chain:", " > ".join(chain), f"({len(chain)})")
    needed = {c: len(reqs) for c, reqs in COURSES.items() if reqs}
    print("most prerequisites:", max(needed, key=lambda c: (needed[c], c)))
    broken = dict(COURSES)
    broken["intro"] = ["compilers"]
    try:
        semesters(broken, 3)
    except CycleError as e:
        print("cycle:", e)
        print("cycle length:", len(e.path) - 1)
    leaves = [c for c in COURSES if all(c not in reqs for reqs in COURSES.values())]
    print("no course needs:", leaves)


if __name__ == "__main__":
    main()
