"""Dataclasses (syntax/dataclass_methods.py) against CPython: generated programs of `@dataclass`
classes (random field types, defaults, `field(...)` options, `order=`/`eq=`/`repr=`/`unsafe_hash=`,
a dataclass deriving from another) whose objects are made, printed, compared, sorted, used as
dict keys and changed, printed under pyx and under CPython. Every generated program is in the
subset dataclasses support, so a rejection fails too. The default run has one program of 12
cases; the slow one 20 programs."""
import random

import pytest

from helpers import file_prints_as_cpython

TYPES = {
    "int": lambda r: str(r.randint(-5, 5)),
    "str": lambda r: repr(r.choice(["", "a", "bb", "Ab", "z"])),
    "float": lambda r: repr(r.choice([0.0, 1.5, -2.25, 10.0])),
    "bool": lambda r: repr(r.choice([True, False])),
    "tuple[int, int]": lambda r: f"({r.randint(0, 3)}, {r.randint(0, 3)})",
}


def _class(r: random.Random, k: int, base: tuple | None) -> tuple[list[str], dict]:
    """One dataclass: its lines and what the cases need to know about it."""
    order = r.random() < 0.5 and base is None
    eq = order or r.random() < 0.8
    unsafe_hash = eq and r.random() < 0.4
    # (not `repr=False`: Python's repr is then the address, which `index`'s and a dict's errors show: E0264)
    options = [o for o, on in (("order=True", order), ("eq=False", not eq), ("unsafe_hash=True", unsafe_hash)) if on]
    name = f"D{k}"
    fields = list(base[1]["fields"]) if base else []
    defaulted = any(d is not None for _, _, d, _ in fields) or bool(base and base[1]["log"])
    lines = [f"@dataclass({', '.join(options)})" if options else "@dataclass",
             f"class {name}({base[0]}):" if base else f"class {name}:"]
    for i in range(r.randint(0 if base else 1, 3)):
        t = r.choice(list(TYPES))
        has_default = defaulted or r.random() < 0.4
        if has_default and t.startswith("tuple"):
            t = "int"  # (a tuple default is E0198: pyx's parameter defaults are constants)
        default = TYPES[t](r) if has_default else None
        defaulted = defaulted or default is not None
        compare = r.random() < 0.85
        fname = f"f{k}_{i}"
        if default is not None and not compare:
            lines.append(f"    {fname}: {t} = field(default={default}, compare=False)")
        elif default is not None:
            lines.append(f"    {fname}: {t} = {default}")
        elif not compare:
            lines.append(f"    {fname}: {t} = field(compare=False)")
        else:
            lines.append(f"    {fname}: {t}")
        fields.append((fname, t, default, compare))
    if r.random() < 0.3 and not (base and base[1]["log"]):
        lines.append(f"    log: list[str] = field(default_factory=list, init=False, compare=False, "
                     f"repr={r.random() < 0.5})")
    if len(lines) == 2:
        lines.append("    pass")
    repr_on = True
    # (a subclass is no dict key in pyx: its `__eq__` takes the base class, E0140)
    return lines, {"name": name, "fields": fields, "order": order, "eq": eq, "hash": unsafe_hash and base is None,
                   "repr": repr_on, "log": "log:" in "\n".join(lines) or bool(base and base[1]["log"])}


def _make(r: random.Random, info: dict) -> str:
    args: list[str] = []
    by_keyword = False  # (after one keyword argument, the rest are keywords too)
    for fname, t, default, _ in info["fields"]:
        if default is not None and r.random() < 0.5:
            if by_keyword:
                continue  # (a defaulted field left out, later ones still passed by name)
            break
        by_keyword = by_keyword or (bool(args) and r.random() < 0.3)
        args.append(f"{fname}={TYPES[t](r)}" if by_keyword else TYPES[t](r))
    return f"{info['name']}({', '.join(args)})"


def _case(r: random.Random, k: int, info: dict) -> list[str]:
    lines = [f"def case{k}():"]
    made = [_make(r, info) for _ in range(4)]
    lines.append(f"    xs = [{', '.join(made)}]")
    if info["repr"]:
        lines.append("    print(xs)")
    lines.append("    print([a == b for a in xs for b in xs])")
    if info["order"]:
        lines.append("    print([a < b for a in xs for b in xs], [a >= b for a in xs for b in xs])")
        lines.append("    print(sorted(xs) == sorted(xs, reverse=True)[::-1], xs.index(max(xs)), xs.index(min(xs)))")
    if info["hash"]:
        lines.append("    seen = {x: i for i, x in enumerate(xs)}")
        lines.append("    print(len(seen), [seen[x] for x in xs])")
    if info["fields"]:
        fname = info["fields"][0][0]
        lines.append(f"    print([x.{fname} for x in xs])")
        if info["fields"][0][1] == "int":
            lines.append(f"    xs[0].{fname} += 7")
            lines.append(f"    print(xs[0].{fname}, xs[0] == xs[1])")
    if info["log"]:
        lines.append("    xs[1].log.append('x')")
        lines.append("    print([len(x.log) for x in xs])")
    return lines


def _program(seed: int, cases: int) -> str:
    r = random.Random(seed)
    out = ["from dataclasses import dataclass, field", ""]
    infos: list[dict] = []
    for k in range(cases):
        base = None
        if infos and r.random() < 0.25:
            parent = r.choice(infos)
            if not parent["order"]:
                base = (parent["name"], parent)
        lines, info = _class(r, k, base)
        out += ["", *lines, ""]
        infos.append(info)
    for k, info in enumerate(infos):
        out += ["", *_case(r, k, info), ""]
    out += ["", "def main():", *[f"    case{k}()" for k in range(cases)], "", "",
            'if __name__ == "__main__":', "    main()", ""]
    return "\n".join(out)


def _compare(tmp_path, seed: int, cases: int) -> None:
    source = tmp_path / f"dataclasses_{seed}.px"
    source.write_text(_program(seed, cases))
    file_prints_as_cpython(source)


def test_dataclasses_behave_as_in_cpython(tmp_path):
    _compare(tmp_path, 1, 12)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(2, 22))
def test_dataclasses_behave_as_in_cpython_many(tmp_path, seed):
    _compare(tmp_path, seed, 12)
