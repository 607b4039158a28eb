"""Meeting scheduler: free slots, conflicts, and a weekly summary with match statements."""
from dataclasses import dataclass
import heapq


@dataclass(order=True)
class Meeting:
    start: int
    end: int
    title: str = ""
    room: str = "A"

    @property
    def length(self) -> int:
        return self.end - self.start


def hhmm(minutes: int) -> str:
    h, m = divmod(minutes, 60)
    return f"{h:02d}:{m:02d}"


def parse_time(text: str) -> int:
    match text.split(":"):
        case [h, m]:
            return int(h) * 60 + int(m)
        case [h]:
            return int(h) * 60
        case _:
            raise ValueError(f"bad time {text!r}")


def free_slots(meetings: list[Meeting], day_start: int, day_end: int) -> list[tuple[int, int]]:
    slots: list[tuple[int, int]] = []
    cursor = day_start
    for m in sorted(meetings):
        if m.start > cursor:
            slots.append((cursor, m.start))
        cursor = max(cursor, m.end)
    if cursor < day_end:
        slots.append((cursor, day_end))
    return slots


def rooms_needed(meetings: list[Meeting]) -> int:
    ends: list[int] = []
    best = 0
    for m in sorted(meetings):
        while ends and ends[0] <= m.start:
            heapq.heappop(ends)
        heapq.heappush(ends, m.end)
        best = max(best, len(ends))
    return best


def describe(m: Meeting) -> str:
    match m:
        case Meeting(title="standup"):
            kind = "daily"
        case Meeting(room="B") if m.length >= 60:
            kind = "long in B"
        case Meeting(start=s) if s < 9 * 60:
            kind = "early"
        case _:
            kind = "regular"
    return f"{hhmm(m.start)}-{hhmm(m.end)} {m.title:<10} {kind}"


def main() -> None:
    raw = [("9:00", "9:15", "standup", "A"), ("8:30", "9:30", "breakfast", "B"),
           ("10", "11:30", "planning", "B"), ("11:00", "12:00", "review", "A"),
           ("13:30", "14:00", "1on1", "C"), ("13:45", "15:00", "design", "B"), ("16", "16:30", "retro", "A")]
    meetings = [Meeting(parse_time(a), parse_time(b), t, r) for a, b, t, r in raw]
    for m in sorted(meetings):
        print(describe(m))
    print("free:", [f"{hhmm(a)}-{hhmm(b)}" for a, b in free_slots(meetings, 8 * 60, 18 * 60)])
    print("rooms needed:", rooms_needed(meetings))
    by_room: dict[str, int] = {}
    for m in meetings:
        by_room[m.room] = by_room.get(m.room, 0) + m.length
    for room, total in sorted(by_room.items(), key=lambda kv: kv[1], reverse=True):
        print(f"room {room}: {total // 60}h{total % 60:02d}m {'#' * (total // 15)}")
    conflicts = [(a.title, b.title) for i, a in enumerate(sorted(meetings))
                 for b in sorted(meetings)[i + 1:] if b.start < a.end]
    print("conflicts:", conflicts)
    print(min(meetings), max(meetings, key=lambda m: m.length).title)
    try:
        parse_time("1:2:3")
    except ValueError as e:
        print("error:", e)
    first, *middle, last = sorted(meetings)
    print(first.title, len(middle), last.title, Meeting(1, 2) < Meeting(1, 3))


main()
