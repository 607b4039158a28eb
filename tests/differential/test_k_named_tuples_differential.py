"""Random named tuples against CPython: each example defines `collections.namedtuple`s (fields as a
list or as one str, some with `defaults=`) and `typing.NamedTuple` classes (typed fields, some with
defaults) with random field names, types and values, and prints what programs do with them:
construction (positional and by keyword), str/repr, fields by name, constant and negative
indexes, slices, unpacking, `len`, `==`/`<`/`sorted`, hashes (equal to the plain tuple's), dict
keys, `_replace`, `_fields` and `_asdict` (where the fields have one type). pyx
(syntax/named_tuples.py, semantics/named_tuples.py) must print the same."""
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import prints_as_python

VALUES = {
    "int": st.integers(-50, 50).map(repr),
    "str": st.text(alphabet="ab 'z", max_size=3).map(repr),
    "float": st.sampled_from([0.0, -1.5, 2.25, 10.0, 1e-3, 3.0]).map(repr),
    "bool": st.booleans().map(repr),
}
FIELD_NAMES = ["x", "y", "name", "count", "ok", "price", "a", "b", "z1"]


@st.composite
def definitions(draw, k: int):
    names = draw(st.lists(st.sampled_from(FIELD_NAMES), min_size=1, max_size=4, unique=True))
    types = [draw(st.sampled_from(list(VALUES))) for _ in names]
    if draw(st.booleans()) and len(set(types)) > 1 and draw(st.booleans()):
        types = [types[0]] * len(types)  # one type: `_asdict()` works
    defaults = draw(st.integers(0, len(names)))  # how many of the last fields have a default
    default_values = [draw(VALUES[t]) for t in types[len(types) - defaults:]]
    typed = draw(st.booleans())
    rows = []
    for _ in range(draw(st.integers(2, 4))):
        given_count = draw(st.integers(len(names) - defaults, len(names)))
        values = [draw(VALUES[t]) for t in types[:given_count]]
        rows.append((values, draw(st.booleans())))  # by keyword?
    return {"name": f"N{k}", "fields": names, "types": types, "defaults": default_values, "typed": typed,
            "rows": rows, "listed": draw(st.booleans()), "pick": draw(st.integers(0, len(names) - 1)),
            "new": draw(VALUES[types[0]])}


def _define(d) -> list[str]:
    name, fields = d["name"], d["fields"]
    first_default = len(fields) - len(d["defaults"])
    if d["typed"]:
        lines = [f"class {name}(NamedTuple):"]
        for i, (f, t) in enumerate(zip(fields, d["types"], strict=True)):
            default = f" = {d['defaults'][i - first_default]}" if i >= first_default else ""
            lines.append(f"    {f}: {t}{default}")
        return lines
    spec = repr(fields) if d["listed"] else repr(" ".join(fields))
    # (a defaulted field of namedtuple() takes its default's type: the rows give it values of that type)
    defaults = f", defaults=({', '.join(d['defaults'])},)" if d["defaults"] else ""
    return [f"{name} = namedtuple({name!r}, {spec}{defaults})"]


def _show(d) -> list[str]:
    name, fields, types = d["name"], d["fields"], d["types"]
    made = []
    for values, by_keyword in d["rows"]:
        if by_keyword:
            made.append(f"{name}({', '.join(f'{f}={v}' for f, v in zip(fields, values, strict=False))})")
        else:
            made.append(f"{name}({', '.join(values)})")
    pick = fields[d["pick"]]
    lines = [f"def show_{name}():",
             f"    xs = [{', '.join(made)}]",
             "    print(xs, str(xs[0]), repr(xs[-1]))",
             f"    print([x.{pick} for x in xs], [x[0] for x in xs], [x[-1] for x in xs], [len(x) for x in xs])",
             "    print([x[::-1] for x in xs], [x[1:] for x in xs])" if len(fields) > 1
             else "    print([x[:1] for x in xs])",  # (`x[1:]` of one field: the empty tuple, E0007)
             "    print([a == b for a in xs for b in xs], [a < b for a in xs for b in xs])",
             "    print(sorted(xs), max(xs), min(xs))",
             f"    print([hash(x) == hash(tuple_of_{name}(x)) for x in xs], len({{x: 1 for x in xs}}), len(set(xs)))",
             f"    print(xs[0]._replace({fields[0]}={d['new']}), {name}._fields)"]
    unpacked = ", ".join(f"v{i}" for i in range(len(fields)))
    lines += ["    for x in xs:", f"        {unpacked} = x", f"        print({unpacked})"]
    if len(set(types)) == 1:
        lines += ["    print([x._asdict() for x in xs])", "    for v in xs[0]:", "        print(v)"]
    return lines


def _program(defs) -> str:
    out = ["from collections import namedtuple", "from typing import NamedTuple", ""]
    for d in defs:
        out += ["", *_define(d), ""]
    for d in defs:
        # `hash(p) == hash(tuple(p))` in Python: the plain tuple is built from the fields by name
        items = ", ".join(f"x.{f}" for f in d["fields"]) + ("," if len(d["fields"]) == 1 else "")
        out += ["", f"def tuple_of_{d['name']}(x):", f"    return ({items})", "", "", *_show(d), ""]
    out += ["", "def main():", *[f"    show_{d['name']}()" for d in defs], "", "",
            'if __name__ == "__main__":', "    main()", ""]
    return "\n".join(out)


_HEALTH = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]


@settings(max_examples=3, deadline=None, suppress_health_check=_HEALTH)
@given(st.integers(1, 3).flatmap(lambda n: st.tuples(*(definitions(k) for k in range(n)))))
def test_random_named_tuples_print_as_python(tmp_path, defs):
    text = _program(defs)
    prints_as_python(text, text, tmp_path)
