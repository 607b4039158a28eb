"""Random enums against CPython: each example defines enums with random member names and values
(ints, strs, `auto()` after ints, in any order) and prints what programs do with members:
`str`/`repr`/`name`/`value`, iteration and `len`, lookups by value and by name and their errors,
dicts keyed by members and sets of members (in CPython's order with PYTHONHASHSEED=0, which
tests/conftest.py sets: a member hashes as its name). pyx (syntax/enums.py) must print the same."""
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import prints_as_python

names = st.lists(st.sampled_from(["RED", "GREEN", "BLUE", "A", "B", "NORTH", "x", "Up", "DOWN_LEFT", "ZED", "mid",
                                  "Q1", "Q2", "HEARTS"]), min_size=1, max_size=6, unique=True)
int_value = st.one_of(st.none(), st.integers(-5, 20))  # None: auto()
str_value = st.text(alphabet="ab c'\"", max_size=3)


@st.composite
def enum_defs(draw):
    members = draw(names)
    if draw(st.booleans()):
        values, used = [], set()
        for _ in members:
            v = draw(int_value)
            shown = (max(used) + 1 if used else 1) if v is None else v
            if shown in used:  # an alias, which pyx refuses (tests/diagnostics/enum_refused.px)
                v = shown = max(used) + 1
            used.add(shown)
            values.append("auto()" if v is None else repr(v))
        return members, values, [1, 20, -7]
    strs = draw(st.lists(str_value, min_size=len(members), max_size=len(members), unique=True))
    return members, [repr(s) for s in strs], ["a", "zz"]


def _program(defs) -> str:
    out = ["from enum import Enum, auto", ""]
    calls = []
    for i, (members, values, probes) in enumerate(defs):
        out.append(f"class E{i}(Enum):")
        out += [f"    {m} = {v}" for m, v in zip(members, values, strict=True)]
        out += ["", ""]
        out.append(f"def show{i}() -> None:")
        out.append(f"    print(list(E{i}), len(E{i}))")
        out.append(f"    for m in E{i}:")
        out.append(f"        print(m, repr(m), m.name, repr(m.value), E{i}(m.value) is m, E{i}[m.name] is m)")
        out.append(f"    print({{m for m in E{i}}})")
        out.append(f"    print({{m: m.name for m in E{i} if m.name < 'Q'}})")
        out.append(f"    print({{E{i}.{members[-1]}, E{i}.{members[0]}}})")
        for p in probes:
            out.append("    try:")
            out.append(f"        print(E{i}({p!r}))")
            out.append("    except ValueError as e:")
            out.append("        print('ValueError', e)")
        out.append("    try:")
        out.append(f"        print(E{i}['nope'])")
        out.append("    except KeyError as e:")
        out.append("        print('KeyError', e)")
        out += ["", ""]
        calls.append(f"    show{i}()")
    out += ["def main():", *calls, "", "", "main()"]  # (a module with statements runs them, as a script)
    return "\n".join(out) + "\n"


_HEALTH = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]


@settings(max_examples=4, deadline=None, suppress_health_check=_HEALTH)
@given(st.lists(enum_defs(), min_size=1, max_size=3))
def test_random_enums_print_as_python(tmp_path, defs):
    prints_as_python(_program(defs), _program(defs), tmp_path)
