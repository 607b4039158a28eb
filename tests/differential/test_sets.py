"""Sets print and iterate in CPython's order (the order of CPython's hash table): a program of
generated cases (random int items, literal and `add`-built sets, every operator, removals, copies,
pops), printed under pyx and under CPython. The default run has 40 cases in one program; the slow
one 2000."""
import random
import subprocess
import sys

import pytest

from helpers import run_pyx

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


def _program(seed: int, cases: int) -> str:
    rng = random.Random(seed)
    functions = ["\n".join(_case(rng, k)) for k in range(cases)]
    main = "def main():\n" + "\n".join(f"    case{k}()" for k in range(cases))
    return "\n\n\n".join([*functions, main]) + "\n\n\nif __name__ == \"__main__\":\n    main()\n"


def _compare(tmp_path, seed: int, cases: int) -> None:
    source = tmp_path / f"sets_{seed}.px"
    source.write_text(_program(seed, cases))
    python = subprocess.run([sys.executable, str(source)], capture_output=True, text=True)
    assert python.returncode == 0, python.stderr
    result = run_pyx(source)
    assert result.status == 0, result.stderr[-2000:]
    for k, (want, got) in enumerate(zip(python.stdout.splitlines(), result.stdout.splitlines(), strict=True)):
        assert got == want, f"line {k + 1} of {source.name}"


def test_sets_iterate_in_cpython_order(tmp_path):
    _compare(tmp_path, 1, 40)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(2, 22))
def test_sets_iterate_in_cpython_order_many(tmp_path, seed):
    _compare(tmp_path, seed, 100)
