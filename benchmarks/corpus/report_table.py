"""A sales report printed as aligned tables with str.format, f-strings and % formatting."""

SALES = [
    ("north", "widgets", 1200, 3.5),
    ("north", "gadgets", 300, 12.25),
    ("south", "widgets", 950, 3.75),
    ("east", "gizmos", 40, 99.9),
    ("south", "gizmos", 12, 105.0),
]


def main():
    header = "{:<8}{:<10}{:>8}{:>10}{:>12}".format("region", "product", "units", "price", "revenue")
    print(header)
    print("-" * len(header))
    total = 0.0
    by_region = {}
    for region, product, units, price in SALES:
        revenue = units * price
        total += revenue
        by_region[region] = by_region.get(region, 0.0) + revenue
        print("{:<8}{:<10}{:>8,}{:>10.2f}{:>12,.2f}".format(region, product, units, price, revenue))
    print("-" * len(header))
    print(f"{'total':<26}{total:>22,.2f}")
    print()
    for region in sorted(by_region, key=by_region.get, reverse=True):
        share = by_region[region] / total
        print("%-6s %10.2f %6.1f%% %s" % (region, by_region[region], share * 100, "|" * int(share * 40)))


if __name__ == "__main__":
    main()
