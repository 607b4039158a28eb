"""pyx's List against Python's list: random sequences of operations (append, pop, indexing and
assignment with negative and out-of-range indices, len, iteration) written once as a pyx
program over `List[Int]` and once as a Python program over `list`, which must print the same,
IndexError messages included."""
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import run_source

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
        elif op == "sum":
            lines += ["    s = 0", "    for x in xs:", "        s += x", "    print(s)"]
        elif op == "copy_append":  # a copy is independent of the original (pyx copies on assignment)
            lines += [f"    c{k} = xs" if pyx else f"    c{k} = list(xs)", f"    c{k}.append({arg})",
                      f"    print(len(c{k}), len(xs))"]
        else:
            body = ("print(xs.pop())" if op == "pop" else f"print(xs[{arg}])" if op == "get"
                    else f"xs[{arg[0]}] = {arg[1]}")
            lines += ["    try:", f"        {body}", "    except IndexError as e:", "        print('IndexError', e)"]
    lines += ["    print(len(xs))", "", ""] + ([] if pyx else ["main()"])
    return "\n".join(lines) + "\n"


def same_as_python(ops, tmp_path) -> None:
    python = subprocess.run([sys.executable, "-c", render(ops, pyx=False)], capture_output=True, text=True)
    assert python.returncode == 0, python.stderr
    result = run_source(render(ops, pyx=True), tmp_path)
    assert result.status == 0, result.stderr
    assert result.stdout == python.stdout


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(operation, min_size=1, max_size=25))
def test_list_operations_match_python(tmp_path, ops):
    same_as_python(ops, tmp_path)


@pytest.mark.parametrize("ops", [[("pop", None)], [("get", -1)], [("set", (0, 1))],
                                 [("append", 1), ("get", -2), ("get", -1), ("set", (1, 2)), ("copy_append", 3)]])
def test_edges_match_python(tmp_path, ops):
    same_as_python(ops, tmp_path)
