def merge(intervals):
    if not intervals:
        return []
    intervals = sorted(intervals, key=lambda iv: iv[0])
    merged = [intervals[0]]
    for start, end in intervals[1:]:
        last_start, last_end = merged[-1]
        if start <= last_end:
            merged[-1] = (last_start, max(last_end, end))
        else:
            merged.append((start, end))
    return merged


def insert(intervals, new):
    result = []
    i = 0
    while i < len(intervals) and intervals[i][1] < new[0]:
        result.append(intervals[i])
        i += 1
    lo, hi = new
    while i < len(intervals) and intervals[i][0] <= hi:
        lo = min(lo, intervals[i][0])
        hi = max(hi, intervals[i][1])
        i += 1
    result.append((lo, hi))
    result.extend(intervals[i:])
    return result


def covered(intervals):
    return sum(e - s for s, e in merge(intervals))


def gaps(intervals, lo, hi):
    out = []
    cur = lo
    for s, e in merge(intervals):
        if s > cur:
            out.append((cur, min(s, hi)))
        cur = max(cur, e)
    if cur < hi:
        out.append((cur, hi))
    return out


def meeting_rooms(meetings):
    events = []
    for s, e in meetings:
        events.append((s, 1))
        events.append((e, -1))
    events.sort()
    rooms = best = 0
    for _, delta in events:
        rooms += delta
        best = max(best, rooms)
    return best


def main():
    cases = [
        [(1, 3), (2, 6), (8, 10), (15, 18)],
        [(1, 4), (4, 5)],
        [(5, 7), (1, 2), (2, 3), (6, 9)],
        [],
        [(0, 0)],
        [(-5, -1), (-3, 2), (10, 20), (11, 12)],
    ]
    for c in cases:
        print(c, "->", merge(c), "covered", covered(c))
    print(insert([(1, 2), (3, 5), (6, 7), (8, 10), (12, 16)], (4, 8)))
    print(insert([], (1, 2)))
    print(insert([(1, 5)], (6, 8)))
    print(gaps([(2, 4), (6, 7)], 0, 10))
    print(gaps([(0, 10)], 0, 10))
    print(meeting_rooms([(0, 30), (5, 10), (15, 20)]))
    print(meeting_rooms([(7, 10), (2, 4)]))
    print(meeting_rooms([(1, 5), (2, 6), (3, 7), (4, 8), (5, 9)]))
    spans = [(s, s + (s * 7) % 5 + 1) for s in range(0, 40, 3)]
    print(spans)
    print(merge(spans))
    starts = [s for s, _ in merge(spans)]
    print(starts[::2], starts[::-1], starts[1:-1:2])


main()
