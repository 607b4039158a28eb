"""The standard library's containers against Python's: random sequences of operations written
once as a pyx program and once as a Python program, which must print the same. `List[Int]`
against `list` (append, pop, indexing and assignment with negative and out-of-range indices,
len, iteration, copies, printing; IndexError messages included) and `Dict[Int, Int]` against
`dict` (insertion order, updates, removal, `in`, `get`, absent keys, printing; KeyError's
message differs: Python's names the key)."""
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import prints_as_python

index = st.integers(min_value=-12, max_value=12)
value = st.integers(min_value=-1000, max_value=1000)
operation = st.one_of(
    st.tuples(st.just("append"), value),
    st.tuples(st.just("pop"), st.none()),
    st.tuples(st.just("get"), index),
    st.tuples(st.just("set"), st.tuples(index, value)),
    st.tuples(st.just("len"), st.none()),
    st.tuples(st.just("sum"), st.none()),
    st.tuples(st.just("copy_append"), value),
    st.tuples(st.just("show"), st.none()),
)


def render(ops, pyx: bool) -> str:
    """The same program in both languages; only the declarations differ."""
    lines = ["def main():"]
    lines.append("    xs = List[Int]()" if pyx else "    xs: list = []")
    for k, (op, arg) in enumerate(ops):
        if op == "append":
            lines.append(f"    xs.append({arg})")
        elif op == "len":
            lines.append("    print(len(xs))")
        elif op == "show":
            lines.append("    print(xs)")
        elif op == "sum":
            lines += ["    s = 0", "    for x in xs:", "        s += x", "    print(s)"]
        elif op == "copy_append":  # a copy is independent of the original (`c = xs` and then changing c
            # is rejected: Python would share the list, docs/semantics.md)
            lines += [f"    c{k} = xs.copy()", f"    c{k}.append({arg})",
                      f"    print(len(c{k}), len(xs))"]
        else:
            body = ("print(xs.pop())" if op == "pop" else f"print(xs[{arg}])" if op == "get"
                    else f"xs[{arg[0]}] = {arg[1]}")
            lines += ["    try:", f"        {body}", "    except IndexError as e:", "        print('IndexError', e)"]
    lines += ["    print(len(xs))", "", ""] + ([] if pyx else ["main()"])
    return "\n".join(lines) + "\n"


def same_as_python(ops, tmp_path) -> None:
    prints_as_python(render(ops, pyx=True), render(ops, pyx=False), tmp_path)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(operation, min_size=1, max_size=25))
def test_list_operations_match_python(tmp_path, ops):
    same_as_python(ops, tmp_path)


@pytest.mark.parametrize("ops", [[("pop", None)], [("get", -1)], [("set", (0, 1))],
                                 [("append", 1), ("get", -2), ("get", -1), ("set", (1, 2)), ("copy_append", 3)]])
def test_edges_match_python(tmp_path, ops):
    same_as_python(ops, tmp_path)


key = st.integers(min_value=-6, max_value=6) | st.sampled_from([2**61 - 1, 2**61, -(2**63), 2**63 - 1, -1, -2])
dict_operation = st.one_of(
    st.tuples(st.just("set"), st.tuples(key, value)),
    st.tuples(st.just("get"), key),
    st.tuples(st.just("pop"), key),
    st.tuples(st.just("in"), key),
    st.tuples(st.just("default"), key),
    st.tuples(st.just("keys"), st.none()),
    st.tuples(st.just("show"), st.none()),
)


def render_dict(ops, pyx: bool) -> str:
    """Dict operations in both languages: insertion order, updates, removal, absent keys."""
    lines = ["def main():", "    d = Dict[Int, Int]()" if pyx else "    d: dict = {}"]
    for op, arg in ops:
        if op == "set":
            lines.append(f"    d[{arg[0]}] = {arg[1]}")
        elif op == "in":
            lines.append(f"    print({arg} in d, len(d))")
        elif op == "default":
            lines.append(f"    print(d.get({arg}, -1))")
        elif op == "keys":
            lines += ["    for k in d:", "        print(k, d[k])"]
        elif op == "show":
            lines.append("    print(d)")
        else:
            body = f"print(d[{arg}])" if op == "get" else f"print(d.pop({arg}))"
            lines += ["    try:", f"        {body}", "    except KeyError:", "        print('KeyError')"]
    lines += ["    print(len(d))", "", ""] + ([] if pyx else ["main()"])
    return "\n".join(lines) + "\n"


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(dict_operation, min_size=1, max_size=30))
def test_dict_operations_match_python(tmp_path, ops):
    prints_as_python(render_dict(ops, pyx=True), render_dict(ops, pyx=False), tmp_path)


def test_many_keys_removed_and_added_match_python(tmp_path):
    ops = [("set", (k, k)) for k in range(40)] + [("pop", k) for k in range(0, 40, 3)]
    ops += [("set", (k, -k)) for k in range(30, 60)] + [("keys", None), ("in", 3), ("in", 4)]
    prints_as_python(render_dict(ops, pyx=True), render_dict(ops, pyx=False), tmp_path)
