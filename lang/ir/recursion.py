"""Deep recursion raises RecursionError instead of overflowing the stack (SIGSEGV).

Only a call inside a cycle of the call graph can grow the stack without bound, so only those
are checked. Each function of such a cycle (a strongly connected component with a cycle; GPU
device code is left alone) is split in two:

- `f.rec`: f's body with two more parameters, the *limit* (the lowest stack address this
  thread's recursion may reach) and the *site* (which recursive call this is, for the
  traceback). Its prologue compares the stack pointer with the limit (`recursion_check`); below
  it, it longjmps to the thread's innermost guard, noting the site. Each call to a function of
  its own cycle goes to `g.rec`, passing the limit on and its own site number
  (`recursion_site`, a constant). So the recursion keeps the calling convention its body needs:
  a fib that cannot raise still returns a plain Int and LLVM still turns one of its calls into
  a loop.
- `f`, under f's own symbol (what other functions, Python and `main` call): sets up a guard in
  its frame (`recursion_guard`: the thread's limit, found once per thread, and the guard made
  the thread's innermost; `recursion_enter`: setjmp) and calls `f.rec` with the limit. When the
  recursion below ran out of stack it raises RecursionError("maximum recursion depth exceeded")
  with the frame of the call that found the stack full, as an ordinary exception of `f`. Its
  guard stops being the innermost (`recursion_leave`) however it leaves: returning, an exception
  passing through it, or its recursion having run out.

Why fib(32) runs within 2% of a build without any check (issue 14 asked for under 5%; the
check before each call it replaced cost 10-12% in the same measurement, 16-28% in the benchmark;
docs/security.md has the figures). The code generator makes the bodies `swiftcc` with the
limit as `swiftself`: that convention keeps it in a callee-saved register (r13, x20 on aarch64)
that a body passes on without moving or saving it, so the check is one register compare and a
branch, and no register is taken from the body. The stack pointer is
read as a value that reads no memory (it is the same anywhere in one function), so in a body
LLVM turned into a loop the check is made once per real call, before the loop, not per
iteration. The site is a constant argument: one move per call. The check runs once the body's
frame is set up, so it measures the frame it is in; the margin `stack_limit` leaves below the
limit (a quarter of the stack, at most 256 KiB) is room for what the deepest frame calls
(printing, allocating, raising).

Where it does not check: a thread without an ExcState of its own (none is left when pthread keys
run out) gets the limit 0, so its deep recursion crashes as C's does. A recursion that LLVM turns
wholly into a loop (`return f(n + 1) + 1`) never grows the stack, so one that never ends runs
forever instead of raising RecursionError after Python's 1000 frames.

What a longjmp skips: the frames inside the cycle. Their `finally` blocks and handlers do not
run and what they own is not freed (an `except RecursionError` must be outside the recursion);
outside the cycle, the exception is like any other. A recursion without a loop polls no Ctrl-C
flag (ir/lower.py puts the polls at loop back-edges): the first SIGINT is noted when it reaches
a loop, a second one ends a standalone program.
"""
from __future__ import annotations

from .. import types as T
from . import nodes as ir
from . import ops
from .memcheck import device_code

GUARD = T.ptr(T.UINT8)
LIMIT, SITE = T.UINT64, T.INT32
NO_SITE = -1  # the entry's call: no recursive call made it, so no frame to name
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
    # A call through a function value may reach any thunk whose address the module takes
    # (semantics/function_values.py): those edges close cycles too. Such a thunk, called through
    # its adapter, is a cycle's entry (it sets up its own guard).
    thunks = {i.callee for f in module.functions for b in f.blocks for i in b.instrs
              if isinstance(i, ir.FnAddr) and i.callee in graph}
    if thunks:
        for f in module.functions:
            if f.symbol in graph and any(isinstance(i, ir.CallFn) for b in f.blocks for i in b.instrs):
                graph[f.symbol] = sorted(set(graph[f.symbol]) | thunks)
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
    """f's blocks as `symbol`, with the limit and site parameters, checking the stack on entry."""
    limit = ir.Var("recursion.limit", LIMIT, 1_000_000 + len(f.vars))
    site = ir.Var("recursion.site", SITE, 1_000_001 + len(f.vars))
    body = ir.Function(symbol, f.name, f.file, f.params + [limit, site], f.return_type, f.span,
                       vars=f.vars + [limit, site], blocks=f.blocks, exported=False, inline=f.inline,
                       fastmath=f.fastmath, noalias=f.noalias, recursion_limit=limit)
    next_id = _next_temp(f)

    def temp(t: T.Type) -> ir.Temp:
        nonlocal next_id
        next_id += 1
        return ir.Temp(t, next_id - 1)

    for block in body.blocks:
        instrs = []
        for instr in block.instrs:
            if isinstance(instr, ir.Call) and instr.callee in cycle:
                here, at = temp(LIMIT), temp(SITE)
                instrs += [ir.Load(instr.span, here, limit), ops.make(instr.span, at, "recursion_site", [])]
                instr.callee = bodies[instr.callee]
                instr.args = list(instr.args) + [here, at]
            instrs.append(instr)
        block.instrs = instrs
    first = body.blocks[0]
    here, at = temp(LIMIT), temp(SITE)
    first.instrs[0:0] = [ir.Load(f.span, here, limit), ir.Load(f.span, at, site),
                         ops.make(f.span, None, "recursion_check", [here, at])]
    return body


def _entry(f: ir.Function, body: ir.Function) -> ir.Function:
    """`f` itself: guard, setjmp, call the body; RecursionError when the body ran out of stack."""
    params = [ir.Var(p.name, p.type, p.id, by_ref=p.by_ref) for p in f.params]
    entry = ir.Function(f.symbol, f.name, f.file, params, f.return_type, f.span, vars=list(params),
                        exported=f.exported, frameless=True)
    span = f.span
    start, overflow, call, unwind = ir.Block("entry"), ir.Block("overflow"), ir.Block("call"), ir.Block("unwind")
    guard, over = ir.Temp(GUARD, 1), ir.Temp(T.BOOL, 2)
    start.instrs = [ops.make(span, guard, "recursion_guard", []),
                    ops.make(span, over, "recursion_enter", [guard])]
    start.term = ir.Branch(span, over, overflow, call)
    overflow.instrs = [ops.make(span, None, "recursion_leave", [guard]),
                       ops.make(span, None, "recursion_raise", [guard])]
    overflow.term = ir.Reraise(span)
    # An exception the body raises passes through here too: the guard is this thread's innermost
    # until the entry leaves, whichever way it leaves.
    unwind.instrs = [ops.make(span, None, "recursion_leave", [guard])]
    unwind.term = ir.Reraise(span)
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
    limit = ir.Temp(LIMIT, next_id)
    result = ir.Temp(f.return_type, next_id + 1) if f.return_type != T.NONE else None
    call.instrs += [ops.make(span, limit, "recursion_limit", [guard]),
                    ir.Call(span, result, body.symbol, args + [limit, ir.Const(SITE, NO_SITE)], handler=unwind),
                    ops.make(span, None, "recursion_leave", [guard])]
    call.term = ir.Ret(span, result)
    entry.blocks = [start, overflow, call, unwind]
    return entry
