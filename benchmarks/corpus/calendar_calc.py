MONTHS = ["January", "February", "March", "April", "May", "June", "July",
          "August", "September", "October", "November", "December"]
DAYS = ["Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"]
MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]


def is_leap(year: int) -> bool:
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def days_in_month(year: int, month: int) -> int:
    if month == 2 and is_leap(year):
        return 29
    return MONTH_DAYS[month - 1]


def day_of_week(year: int, month: int, day: int) -> int:
    # Zeller's congruence, shifted so that Monday is 0
    if month < 3:
        month += 12
        year -= 1
    k = year % 100
    j = year // 100
    h = (day + (13 * (month + 1)) // 5 + k + k // 4 + j // 4 + 5 * j) % 7
    return (h + 5) % 7


def ordinal(year: int, month: int, day: int) -> int:
    total = 0
    for y in range(1, year):
        total += 366 if is_leap(y) else 365
    for m in range(1, month):
        total += days_in_month(year, m)
    return total + day


def from_ordinal(n: int) -> tuple[int, int, int]:
    year = 1
    while True:
        size = 366 if is_leap(year) else 365
        if n <= size:
            break
        n -= size
        year += 1
    month = 1
    while n > days_in_month(year, month):
        n -= days_in_month(year, month)
        month += 1
    return year, month, n


def format_date(d: tuple[int, int, int]) -> str:
    y, m, dd = d
    return f"{y:04d}-{m:02d}-{dd:02d} ({DAYS[day_of_week(y, m, dd)]})"


def month_calendar(year: int, month: int) -> list[str]:
    lines = [f"{MONTHS[month - 1]} {year}".center(20).rstrip(), " ".join(DAYS)]
    first = day_of_week(year, month, 1)
    cells = ["  "] * first
    for d in range(1, days_in_month(year, month) + 1):
        cells.append(str(d).rjust(2))
    for i in range(0, len(cells), 7):
        lines.append(" ".join(cells[i:i + 7]))
    return lines


def main():
    for y in [1900, 2000, 2023, 2024, 2100]:
        print(y, "leap" if is_leap(y) else "common", sum(days_in_month(y, m) for m in range(1, 13)))
    for line in month_calendar(2024, 2):
        print(line)
    print()
    for line in month_calendar(2026, 11):
        print(line)
    dates = [(1969, 7, 20), (2000, 1, 1), (2024, 2, 29), (2026, 11, 27)]
    for d in dates:
        y, m, dd = d
        n = ordinal(y, m, dd)
        print(format_date(d), "ordinal", n, "back", from_ordinal(n) == d)
    a = ordinal(1969, 7, 20)
    b = ordinal(2026, 11, 27)
    weeks, days = divmod(b - a, 7)
    print(f"between: {b - a} days = {weeks} weeks and {days} days")
    for offset in [1, 30, 100, 365, 1000]:
        print(f"+{offset:>5}:", format_date(from_ordinal(b + offset)))
    thirteenths = {}
    for y in range(2020, 2030):
        for m in range(1, 13):
            if day_of_week(y, m, 13) == 4:
                thirteenths.setdefault(y, []).append(MONTHS[m - 1][:3])
    for y, ms in sorted(thirteenths.items()):
        print(y, "Friday 13th:", ", ".join(ms))
    counts = [0] * 7
    for y in range(2000, 2400):
        counts[day_of_week(y, 1, 1)] += 1
    print("new year weekdays:", dict(zip(DAYS, counts)))


if __name__ == "__main__":
    main()
