"""What a `for i in prange(...)` body may touch, decided once the body is checked.

Iterations run at the same time on several threads, so the body sees the variables of the
enclosing function as they were when the loop started (captured by value) and may not assign
them, with one exception: a variable that the body only ever updates as `x += e`, `x -= e`,
`x *= e`, `x &= e`, `x |= e`, `x ^= e`, `x = min(x, e)` or `x = max(x, e)` is a reduction
(`+=` and `-=` may be mixed: both add). Each piece of
the loop accumulates its own copy and the copies are combined in loop order afterwards.
Variables first bound inside the body belong to one iteration.
"""
from __future__ import annotations

import dataclasses

from ..types import ScalarType, SIMDType, elem_type
from . import typed as t
from .typed import LocalVar

REDUCTION_OPS = {"+", "*", "&", "|", "^"}
REDUCTION_BUILTINS = {"min", "max"}


def _reduction_op(assign: t.TAssign) -> tuple[LocalVar, str, t.TExpr] | None:
    """`x = x op e` / `x = min(x, e)`: (x, op, e); None for any other assignment."""
    if len(assign.targets) != 1 or not isinstance(assign.targets[0], LocalVar):
        return None
    var, value = assign.targets[0], assign.values[0]
    if isinstance(value, t.TBinary) and value.op in REDUCTION_OPS | {"-"}:
        # `x -= e` adds -e: a sum, combined like `x += e` (each piece starts from zero).
        left, op, rest = value.left, "+" if value.op == "-" else value.op, value.right
    elif isinstance(value, t.TBuiltin) and value.name in REDUCTION_BUILTINS and len(value.args) == 2:
        left, op, rest = value.args[0], value.name, value.args[1]
    else:
        return None
    if not (isinstance(left, t.TLocal) and left.var is var):
        return None
    kind = elem_type(var.type)
    if not isinstance(kind, ScalarType) or (op in ("&", "|", "^") and kind.is_float):
        return None
    if op in REDUCTION_BUILTINS and isinstance(var.type, SIMDType):
        return None
    return var, op, rest


_NODES = (LocalVar, t.TExpr, t.TStmt, t.THandler, t.FieldTarget, t.LaneTarget)


def _children(node):
    """The sub-expressions, statements and variables of a typed node (not its types)."""
    if isinstance(node, t.TForRange):  # a nested prange's captures are uses already seen
        yield from (node.var, node.start, node.stop, node.step, *node.body)
        return
    for f in dataclasses.fields(node):
        value = getattr(node, f.name)
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, _NODES):
                yield item


class _Uses:
    """Every place the body reads or writes a variable bound outside it."""

    def __init__(self, inside):
        self.inside = inside
        self.reads: dict[LocalVar, list] = {}
        self.writes: dict[LocalVar, list] = {}
        self.reductions: dict[LocalVar, list[tuple[str, object]]] = {}

    def walk(self, node, span=None) -> None:
        stack = [(node, span)]
        while stack:
            node, span = stack.pop()
            if isinstance(node, LocalVar):
                if not self.inside(node):
                    self.writes.setdefault(node, []).append(span)
                continue
            here = getattr(node, "span", span)
            if isinstance(node, (t.TLocal,)) and not self.inside(node.var):
                self.reads.setdefault(node.var, []).append(node.span)
                continue
            if isinstance(node, t.TRef) and not self.inside(node.var):
                self.writes.setdefault(node.var, []).append(node.span)
                continue
            if isinstance(node, (t.FieldTarget, t.LaneTarget)):
                if not self.inside(node.var):
                    self.writes.setdefault(node.var, []).append(span)
                if isinstance(node, t.LaneTarget):
                    stack.append((node.index, span))
                continue
            if isinstance(node, t.TAssign):
                found = _reduction_op(node)
                if found is not None and not self.inside(found[0]):
                    var, op, rest = found
                    self.reductions.setdefault(var, []).append((op, node.span))
                    stack.append((rest, here))
                    continue
            for child in _children(node):
                stack.append((child, here))


def analyze(body: list, loop_var: LocalVar, first_id: int, diags) -> tuple[list[LocalVar], list]:
    """(captured variables, [(variable, op)] reductions) of a prange body; errors are reported."""

    def inside(var: LocalVar) -> bool:
        return var is loop_var or var.id >= first_id

    uses = _Uses(inside)
    for s in body:
        uses.walk(s)
    reported = set()
    for var, spans in uses.writes.items():
        diags.error("E0154", spans[0], name=var.name.removeprefix("self."))
        reported.add(var)
    reductions = []
    for var, found in uses.reductions.items():
        if var in reported:
            continue
        ops = {op for op, _ in found}
        if len(ops) > 1:
            diags.error("E0156", found[1][1], name=var.name, first=found[0][0], second=found[1][0])
            continue
        if var in uses.reads:
            diags.error("E0157", uses.reads[var][0], name=var.name, op=found[0][0])
            continue
        reductions.append((var, found[0][0]))
    captures = sorted((v for v in uses.reads if v not in uses.reductions and v not in reported),
                      key=lambda v: v.id)
    return captures, reductions
