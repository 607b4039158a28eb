def report(rows):
    header = f"{'name':<10}|{'qty':>6}|{'price':>10}|{'share':^9}|"
    print(header)
    print("-" * len(header))
    total = sum(q * p for _, q, p in rows)
    for name, qty, price in rows:
        share = qty * price / total
        print(f"{name:<10}|{qty:>6,}|{price:>10,.2f}|{share:^9.1%}|")
    print(f"{'total':<10}|{'':>6}|{total:>10,.2f}|{1:^9.0%}|")


def main():
    rows = [("widget", 1200, 3.5), ("gizmo", 35, 120.0), ("doohickey", 7, 1999.99), ("thing", 123456, 0.01)]
    report(rows)
    x = 3.14159265
    n = 42
    print(f"{x:.3f} {x:10.4f} {x:<10.2f}| {x:+.1f} {x:e} {x:.2e}")
    print(f"{n:05d} {n:x} {n:X} {n:o} {n:b} {n:#x} {n:#b} {n:+d} {-n:d}")
    print(f"{n:*^11} {n:->8} {n:_<6}|")
    print(f"{1234567890:,} {1234567.891:,.2f} {-9876543:,}")
    print(f"{'abc':>5}|{'abc':<5}|{'abc':^5}|{'abc':.2}|")
    print(f"{0.5:%} {0.125:.1%} {2/3:.4f} {1e-5:.2g} {123456789.0:g}")
    print(f"{n!r} {'s'!r} {[1, 2]!s}")
    width = 12
    prec = 3
    print(f"[{x:{width}.{prec}f}]")
    print("%d items at %.2f each = %8.3f" % (3, 1.5, 4.5))
    print("%5s|%-5s|%05d|%x|%o|%e" % ("ab", "cd", 42, 255, 8, 12345.678))
    print("%s and %r" % ("str", "str"))
    print("%3d%%" % 50)
    print("{} + {} = {}".format(1, 2, 3))
    print("{0}{1}{0}".format("ab", "cd"))
    print("{name} is {age} years".format(name="Ann", age=30))
    print("{:>8.2f}|{:<6}|{:^7}".format(3.14159, "x", "mid"))
    print(format(1234.5, ",.1f"), format(255, "08b"), format("hi", "^6"))
    print(str(1.0), str(1e16), str(1.5e-7), repr(0.1 + 0.2), str(100.0 / 3))
    print(round(2.5), round(3.5), round(-2.5), round(2.675, 2), round(1234, -2))
    for v in [0, 1, -1, 10 ** 6, -123456]:
        print(f"|{v:>10}|{v:<10}|{v:^+10}|")
    table = {"alpha": 1.5, "beta": 22.25, "gamma": 333.125}
    for k, v in table.items():
        print(f"{k.upper():.<12}{v:.>10.3f}")


main()
