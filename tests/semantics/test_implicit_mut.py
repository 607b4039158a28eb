"""Which `def` parameters get the implicit `mut` (semantics/implicit_mut.py, docs/semantics.md,
"Arguments"): lists and dicts the body changes in place and never rebinds, and nothing else.
What the callers then see is in tests/golden/def_mutates_params.px."""
from pyx import syntax
from pyx.diagnostics import DiagnosticBag
from pyx.semantics import implicit_mut
from pyx.source import SourceFile
from pyx.syntax import ast

SOURCE = '''
def app(xs: list[int]):
    xs.append(9)

def untyped_method(xs):
    xs.pop()

def put(d: dict[int, int], k: int):
    d[k] = k

def nested(g: list[list[int]]):
    g[0][1] += 1

def through_item(g: list[list[int]]):
    g[0].append(1)

def deleted(xs: list[int]):
    del xs[0]

def extended(xs: list[int], ys: list[int]):
    xs += ys

def recursive(n: int, seen: list[int]) -> None:
    if n > 0:
        recursive(n - 1, seen)
    seen.append(n)

def helper(xs: list[int]):
    app(xs)

def by_keyword(xs: list[int]):
    app(xs=xs)

def rebound(xs: list[int]):
    xs.append(1)
    xs = [0]

def loop_rebound(xs: list[int], rows: list[list[int]]):
    for xs in rows:
        pass
    xs.append(1)

def only_read(xs: list[int]) -> int:
    return xs[0] + len(xs)

def untyped_item(p, v):
    p[0] = v

def untyped_plus(xs, ys):
    xs += ys

def text(s: str):
    s += "!"

def with_default(xs: list[int] = [1]):
    xs.append(1)

def explicit(var xs: list[int]):
    xs.append(1)

fn borrowed(xs: List[Int]):
    xs.append(1)
'''


def _mut_params() -> dict[str, list[str]]:
    diags = DiagnosticBag()
    module = syntax.parse(SourceFile("implicit.px", SOURCE), diags)
    functions = {item.name: item for item in module.body if isinstance(item, ast.FnDef)}
    inferred = implicit_mut.infer(functions, {})
    return {name: [p.name for p in decl.params if p.convention == "mut"] for name, decl in inferred.items()}


def test_lists_and_dicts_changed_in_place_are_taken_by_reference():
    found = _mut_params()
    expected = {"app": ["xs"], "untyped_method": ["xs"], "put": ["d"], "nested": ["g"], "through_item": ["g"],
                "deleted": ["xs"], "extended": ["xs"], "recursive": ["seen"], "helper": ["xs"], "by_keyword": ["xs"],
                # a list default is one list, the module's (syntax/mutable_defaults.py): changed in place as Python's
                "with_default": ["xs"]}
    for name, params in expected.items():
        assert found[name] == params, name


def test_everything_else_keeps_its_convention():
    found = _mut_params()
    for name in ("rebound", "loop_rebound", "only_read", "untyped_item", "untyped_plus", "text",
                 "explicit", "borrowed"):
        assert found[name] == [], name
