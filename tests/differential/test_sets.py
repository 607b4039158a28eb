"""Sets print and iterate in CPython's order (the order of CPython's hash table): a program of
generated cases (random int items, literal and `add`-built sets, every operator, removals, copies,
pops), printed under pyx and under CPython. The default run has 40 cases in one program; the slow
one 2000."""
import random

import pytest

from helpers import file_prints_as_cpython

OPS = ["|", "&", "-", "^"]


def _items(rng: random.Random) -> list[int]:
    scale = rng.choice([8, 40, 300, 5000, 2**40])
    return [rng.randint(-scale, scale) for _ in range(rng.randint(0, 30))]


def _case(rng: random.Random, k: int) -> list[str]:
    """One case, a function of its own (one huge function is slow to compile)."""
    a, b = _items(rng), _items(rng)
    lines = [f"def case{k}():", f"    a{k}: set[int] = set()"]
    lines += [f"    a{k}.add({x})" for x in a]
    literal = ", ".join(map(str, b))
    lines.append(f"    b{k}: set[int] = {{{literal}}}" if b else f"    b{k}: set[int] = set()")
    for x in rng.sample(a, min(len(a), 4)):
        lines.append(f"    a{k}.discard({x})")
    op = rng.choice(OPS)
    lines.append(f"    c{k} = a{k} {op} b{k}")
    lines.append(f"    print(a{k}, b{k}, c{k}, a{k}.copy(), len(c{k}), a{k} <= c{k})")
    lines.append(f"    c{k} {op}= a{k}")
    lines.append(f"    print(c{k}, [x for x in c{k}])")
    lines.append(f"    if a{k}:")
    lines.append(f"        print(a{k}.pop(), a{k})")
    return lines


METHODS = ["update", "union", "intersection", "difference", "symmetric_difference", "issubset", "issuperset",
           "isdisjoint"]


def _iterable(rng: random.Random, items: list[int]) -> str:
    """items as one of the iterables Python's set methods take (semantics/iterable_arguments.py)."""
    listed = ", ".join(map(str, items))
    low, high = min(items, default=0), max(items, default=0)
    if high - low > 1000:
        return f"[{listed}]"
    if len(items) > 8:  # (pyx's tuples hold at most 8 items)
        return rng.choice([f"[{listed}]", f"(x for x in [{listed}])", f"range({low}, {high}, {rng.randint(1, 7)})"])
    return rng.choice([f"[{listed}]", f"({listed}{',' if len(items) == 1 else ''})",
                       f"(x for x in [{listed}])", f"[x for x in [{listed}] if x % 3 != 1]",
                       f"range({low}, {high}, {rng.randint(1, 7)})"])


def _method_case(rng: random.Random, k: int) -> list[str]:
    """A case calling the named set methods with lists, tuples, generators and ranges."""
    a = _items(rng)
    lines = [f"def case{k}():", f"    a{k}: set[int] = set()"]
    lines += [f"    a{k}.add({x})" for x in a]
    for _ in range(3):
        method = rng.choice(METHODS)
        other = _iterable(rng, _items(rng) + rng.sample(a, min(len(a), 3)))
        if method == "update":
            lines.append(f"    a{k}.update({other})")
            lines.append(f"    print(a{k})")
        else:
            lines.append(f"    print(a{k}.{method}({other}))")
    return lines


def _program(seed: int, cases: int, case=None) -> str:
    rng = random.Random(seed)
    functions = ["\n".join((case or _case)(rng, k)) for k in range(cases)]
    main = "def main():\n" + "\n".join(f"    case{k}()" for k in range(cases))
    return "\n\n\n".join([*functions, main]) + "\n\n\nif __name__ == \"__main__\":\n    main()\n"


def _compare(tmp_path, seed: int, cases: int, case=None) -> None:
    source = tmp_path / f"sets_{seed}.px"
    source.write_text(_program(seed, cases, case))
    file_prints_as_cpython(source)


def test_sets_iterate_in_cpython_order(tmp_path):
    _compare(tmp_path, 1, 40)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(2, 22))
def test_sets_iterate_in_cpython_order_many(tmp_path, seed):
    _compare(tmp_path, seed, 100)


def test_set_methods_take_iterables_in_cpython_order(tmp_path):
    _compare(tmp_path, 101, 30, _method_case)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(102, 122))
def test_set_methods_take_iterables_in_cpython_order_many(tmp_path, seed):
    _compare(tmp_path, seed, 100, _method_case)
