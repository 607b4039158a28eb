"""Parse web-server log lines, aggregate with Counter and defaultdict, report the slow endpoints."""
from collections import Counter, defaultdict

LOG = """\
2024-03-01 10:00:01 GET /index.html 200 12ms
2024-03-01 10:00:02 GET /api/users 200 85ms
2024-03-01 10:00:02 POST /api/users 201 140ms
2024-03-01 10:00:05 GET /missing 404 3ms
2024-03-01 10:01:10 GET /api/users 500 910ms
2024-03-01 10:01:11 GET /index.html 200 9ms
this line is garbage
2024-03-01 10:02:00 DELETE /api/users/7 204 60ms
2024-03-01 10:02:30 GET /api/orders 200 230ms
2024-03-01 10:03:45 GET /api/orders 200 250ms
2024-03-01 10:03:46 GET /index.html 304 2ms
2024-03-01 10:04:00 GET /api/orders 503 1200ms
"""


def parse_line(line: str) -> tuple[str, str, str, int, int]:
    parts = line.split()
    if len(parts) != 6:
        raise ValueError(f"expected 6 fields, got {len(parts)}")
    date, time, method, path, status, took = parts
    if not took.endswith("ms"):
        raise ValueError(f"bad duration {took!r}")
    return time, method, path, int(status), int(took.removesuffix("ms"))


def main() -> None:
    by_status: Counter[int] = Counter()
    durations: defaultdict[str, list[int]] = defaultdict(list)
    per_minute: Counter[str] = Counter()
    errors: list[str] = []
    for n, line in enumerate(LOG.splitlines(), 1):
        try:
            time, method, path, status, took = parse_line(line)
        except ValueError as e:
            errors.append(f"line {n}: {e}")
            continue
        by_status[status] += 1
        durations[f"{method} {path}"].append(took)
        per_minute[time[:5]] += 1
    print("status counts:", sorted(by_status.items()))
    print("most common:", by_status.most_common(2))
    print(f"{'endpoint':<24}{'hits':>5}{'avg':>9}{'max':>7}")
    for endpoint, times in sorted(durations.items(), key=lambda kv: -sum(kv[1]) / len(kv[1])):
        avg = sum(times) / len(times)
        flag = " SLOW" if avg > 200 else ""
        print(f"{endpoint:<24}{len(times):>5}{avg:>9.1f}{max(times):>7}{flag}")
    print("per minute:", dict(per_minute))
    print("busiest minute:", max(per_minute, key=per_minute.__getitem__))
    classes = Counter(f"{s // 100}xx" for s in by_status.elements())
    print("classes:", ", ".join(f"{k}={v}" for k, v in sorted(classes.items())))
    error_rate = sum(v for k, v in by_status.items() if k >= 500) / sum(by_status.values())
    print(f"server error rate: {error_rate:.2%}")
    for e in errors:
        print("skipped", e)


main()
