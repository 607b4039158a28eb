"""Deep recursion raises RecursionError instead of overflowing the stack (SIGSEGV).

Only a call inside a cycle of the call graph can grow the stack without bound, so only those
are checked. Each function of such a cycle (a strongly connected component with a cycle; GPU
device code is left alone) is split in two:

- `f.rec`: f's body with one more parameter, the *guard*: the stack limit of this thread and a
  `jmp_buf`. Before each call to a function of its own cycle it compares the address of its
  frame with the limit (`recursion_check`: a compare and a branch, the limit loaded once); past
  it, it notes where it was and longjmps to the guard. The call itself goes to `g.rec`, passing
  the guard on. So the recursion keeps the calling convention its body needs: a fib that cannot
  raise still returns a plain Int and LLVM still turns one of its calls into a loop.
- `f`, under f's own symbol (what other functions, Python and `main` call): sets up a guard
  (`recursion_guard`: the limit, from the thread's stack; `recursion_enter`: setjmp) and calls
  `f.rec`. When the recursion below ran out of stack it raises RecursionError("maximum recursion
  depth exceeded") with the frame where that happened, as an ordinary exception of `f`.

What a longjmp skips: the frames inside the cycle. Their `finally` blocks and handlers do not
run and what they own is not freed (an `except RecursionError` must be outside the recursion);
outside the cycle, the exception is like any other.
"""
from __future__ import annotations

from .. import types as T
from . import nodes as ir
from .memcheck import device_code

GUARD = T.ptr(T.UINT8)
MESSAGE = "maximum recursion depth exceeded"


def _cycles(graph: dict[str, list[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components, iteratively; those that hold a cycle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            node, child = work.pop()
            if child == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            successors = graph[node]
            if child < len(successors):
                work.append((node, child + 1))
                nxt = successors[child]
                if nxt not in index:
                    work.append((nxt, 0))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            if work:  # returning to the caller of `node` in the search
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1 or node in successors:
                    found.append(sorted(component))
    return found


def _next_temp(f: ir.Function) -> int:
    top = 0
    for block in f.blocks:
        for instr in block.instrs:
            for value in list(vars(instr).values()) + list(getattr(instr, "args", [])):
                if isinstance(value, ir.Temp):
                    top = max(top, value.id)
    return top + 1


def guard_recursion(module: ir.Module) -> ir.Module:
    by_symbol = {f.symbol: f for f in module.functions}
    device = {f.symbol for f in device_code(module)}
    graph = {f.symbol: sorted({i.callee for b in f.blocks for i in b.instrs
                               if isinstance(i, ir.Call) and i.callee in by_symbol and i.callee not in device})
             for f in module.functions if f.symbol not in device}
    cycle_of: dict[str, set[str]] = {}
    for component in _cycles(graph):
        for symbol in component:
            cycle_of[symbol] = set(component)
    if not cycle_of:
        return module
    taken = set(by_symbol)
    bodies: dict[str, str] = {}
    for symbol in sorted(cycle_of):
        name = symbol + ".rec"
        while name in taken:
            name += "_"
        taken.add(name)
        bodies[symbol] = name
    functions = []
    for f in module.functions:
        if f.symbol not in cycle_of:
            functions.append(f)
            continue
        body = _body(f, bodies[f.symbol], cycle_of[f.symbol], bodies)
        functions += [_entry(f, body), body]
    module.functions = functions
    return module


def _body(f: ir.Function, symbol: str, cycle: set[str], bodies: dict[str, str]) -> ir.Function:
    """f's blocks as `symbol`, with the guard parameter, checking before each call in its cycle."""
    guard = ir.Var("recursion.guard", GUARD, 1_000_000 + len(f.vars))
    body = ir.Function(symbol, f.name, f.file, f.params + [guard], f.return_type, f.span,
                       vars=f.vars + [guard], blocks=f.blocks, exported=False, inline=f.inline,
                       fastmath=f.fastmath, noalias=f.noalias)
    next_id = _next_temp(f)
    for block in body.blocks:
        instrs = []
        for instr in block.instrs:
            if isinstance(instr, ir.Call) and instr.callee in cycle:
                g = ir.Temp(GUARD, next_id)
                next_id += 1
                instrs.append(ir.Load(instr.span, g, guard))
                instrs.append(ir.Intrinsic(instr.span, None, "recursion_check", [g]))
                instr.callee = bodies[instr.callee]
                instr.args = list(instr.args) + [g]
            instrs.append(instr)
        block.instrs = instrs
    return body


def _entry(f: ir.Function, body: ir.Function) -> ir.Function:
    """`f` itself: guard, setjmp, call the body; RecursionError when the body ran out of stack."""
    params = [ir.Var(p.name, p.type, p.id, by_ref=p.by_ref) for p in f.params]
    entry = ir.Function(f.symbol, f.name, f.file, params, f.return_type, f.span, vars=list(params),
                        exported=f.exported, frameless=True)
    span = f.span
    start, overflow, call = ir.Block("entry"), ir.Block("overflow"), ir.Block("call")
    guard, over = ir.Temp(GUARD, 1), ir.Temp(T.BOOL, 2)
    start.instrs = [ir.Intrinsic(span, guard, "recursion_guard", []),
                    ir.Intrinsic(span, over, "recursion_enter", [guard])]
    start.term = ir.Branch(span, over, overflow, call)
    overflow.instrs = [ir.Intrinsic(span, None, "recursion_raise", [guard])]
    overflow.term = ir.Reraise(span)
    args: list[ir.Value] = []
    next_id = 3
    for p in params:
        if p.by_ref:
            args.append(ir.Ref(p.type, p))
        else:
            value = ir.Temp(p.type, next_id)
            next_id += 1
            call.instrs.append(ir.Load(span, value, p))
            args.append(value)
    result = ir.Temp(f.return_type, next_id) if f.return_type != T.NONE else None
    call.instrs.append(ir.Call(span, result, body.symbol, args + [guard]))
    call.term = ir.Ret(span, result)
    entry.blocks = [start, overflow, call]
    return entry
