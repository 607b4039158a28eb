import heapq
from collections import deque
from dataclasses import dataclass


@dataclass
class Job:
    name: str
    arrival: int
    burst: int
    priority: int


JOBS = [
    Job("A", 0, 7, 3),
    Job("B", 2, 4, 1),
    Job("C", 4, 1, 4),
    Job("D", 5, 4, 2),
    Job("E", 6, 3, 1),
    Job("F", 15, 2, 5),
]


def report(title: str, finish: dict[str, int], timeline: list[tuple[int, int, str]]):
    print(f"== {title} ==")
    chart = "".join(f"|{name}{'-' * (end - start - 1)}" for start, end, name in timeline) + "|"
    print(chart)
    waits = []
    for job in JOBS:
        turnaround = finish[job.name] - job.arrival
        wait = turnaround - job.burst
        waits.append(wait)
        print(f"  {job.name}: finish={finish[job.name]:>3} turnaround={turnaround:>3} wait={wait:>3}")
    print(f"  average wait {sum(waits) / len(waits):.3f}, max {max(waits)}")


def fcfs() -> tuple[dict[str, int], list[tuple[int, int, str]]]:
    time = 0
    finish: dict[str, int] = {}
    timeline: list[tuple[int, int, str]] = []
    for job in sorted(JOBS, key=lambda j: j.arrival):
        if time < job.arrival:
            timeline.append((time, job.arrival, "_"))
            time = job.arrival
        timeline.append((time, time + job.burst, job.name))
        time += job.burst
        finish[job.name] = time
    return finish, timeline


def shortest_first(use_priority: bool) -> tuple[dict[str, int], list[tuple[int, int, str]]]:
    pending = sorted(JOBS, key=lambda j: (j.arrival, j.name))
    ready: list[tuple[int, int, str]] = []
    finish: dict[str, int] = {}
    timeline: list[tuple[int, int, str]] = []
    time = 0
    i = 0
    by_name = {j.name: j for j in JOBS}
    while i < len(pending) or ready:
        while i < len(pending) and pending[i].arrival <= time:
            j = pending[i]
            key = j.priority if use_priority else j.burst
            heapq.heappush(ready, (key, j.arrival, j.name))
            i += 1
        if not ready:
            timeline.append((time, pending[i].arrival, "_"))
            time = pending[i].arrival
            continue
        _, _, name = heapq.heappop(ready)
        burst = by_name[name].burst
        timeline.append((time, time + burst, name))
        time += burst
        finish[name] = time
    return finish, timeline


def round_robin(quantum: int) -> tuple[dict[str, int], list[tuple[int, int, str]]]:
    remaining = {j.name: j.burst for j in JOBS}
    arrivals = deque(sorted(JOBS, key=lambda j: j.arrival))
    queue: deque[str] = deque()
    finish: dict[str, int] = {}
    timeline: list[tuple[int, int, str]] = []
    time = 0
    while arrivals or queue:
        while arrivals and arrivals[0].arrival <= time:
            queue.append(arrivals.popleft().name)
        if not queue:
            nxt = arrivals[0].arrival
            timeline.append((time, nxt, "_"))
            time = nxt
            continue
        name = queue.popleft()
        run = min(quantum, remaining[name])
        if timeline and timeline[-1][2] == name:
            start, _, _ = timeline.pop()
            timeline.append((start, time + run, name))
        else:
            timeline.append((time, time + run, name))
        time += run
        remaining[name] -= run
        while arrivals and arrivals[0].arrival <= time:
            queue.append(arrivals.popleft().name)
        if remaining[name] > 0:
            queue.append(name)
        else:
            finish[name] = time
    return finish, timeline


def main():
    f, t = fcfs()
    report("FCFS", f, t)
    f, t = shortest_first(False)
    report("SJF", f, t)
    f, t = shortest_first(True)
    report("priority", f, t)
    for q in (1, 2, 4):
        f, t = round_robin(q)
        report(f"RR q={q}", f, t)
        print("  slices:", len(t), "order:", "".join(sorted(f, key=lambda n: f[n])))


if __name__ == "__main__":
    main()
