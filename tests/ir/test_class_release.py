"""Dropping a reference to an object (ir/ownership.py, `release`): only the last reference calls
the class's `__del__`. `__del__` is recursive through the objects an object holds, so its entry
is guarded against deep recursion (ir/recursion.py: a setjmp and a look-up of the thread's
state), which on every reference dropped made class programs (richards) slower than CPython.
What is checked is the lowered code's shape: no timing."""
from pyx import pipeline
from pyx.ir import nodes as ir
from pyx.source import SourceFile

PROGRAM = '''
class Box:
    def __init__(self, n: int, nxt: "Box | None"):
        self.n = n
        self.nxt = nxt


def second(b: Box) -> int:
    c = b.nxt
    return c.n


def main():
    b = Box(1, Box(2, None))
    print(second(b))
'''


def _normal_path(fn: ir.Function) -> list[ir.Block]:
    """The blocks the function runs when nothing raises: reached from the entry by jumps and
    branches (not by an exception's edge to a handler)."""
    seen, todo = [], [fn.blocks[0]]
    while todo:
        block = todo.pop()
        if block in seen:
            continue
        seen.append(block)
        if isinstance(block.term, ir.Jump):
            todo.append(block.term.target)
        elif isinstance(block.term, ir.Branch):
            todo += [block.term.then, block.term.orelse]
    return seen


def _del_calls(blocks: list[ir.Block]) -> list[str]:
    return [block.label for block in blocks for i in block.instrs
            if isinstance(i, ir.Call) and i.callee.endswith("Box.__del__")]


def test_a_dropped_reference_calls_del_only_when_it_is_the_last():
    module = pipeline.lower(SourceFile("prog.px", PROGRAM)).ir
    second = next(f for f in module.functions if f.name == "second")
    labels = _del_calls(_normal_path(second))
    assert labels, "the function drops `c`"
    # Each call is on the path where the count was 1 (`last`); the exception cleanup (rare) calls it as it is.
    assert all(label.startswith("last") for label in labels), labels
    shared = [b for b in second.blocks if b.label.startswith("shared")]
    assert shared and all(any(isinstance(i, ir.PtrStore) for i in b.instrs) for b in shared)
