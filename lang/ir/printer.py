"""A stable text form of the IR (`pyx build --emit=ir`), identical run to run."""
from __future__ import annotations

from . import nodes as ir


def print_module(module: ir.Module) -> str:
    return "\n\n".join(print_function(f) for f in module.functions) + "\n"


def print_function(f: ir.Function) -> str:
    params = ", ".join(f"{'mut ' if p.by_ref else ''}{p}: {p.type}" for p in f.params)
    flags = " raises" if f.raises else ""
    lines = [f"fn @{f.symbol}({params}) -> {f.return_type}{flags} {{"]
    for v in f.vars:
        if v not in f.params:
            lines.append(f"  {'ref' if v.by_ref else 'var'} {v}: {v.type}")  # ref: a closure's shared variable
    for block in f.blocks:
        lines.append(f"{block.label}:")
        for instr in block.instrs:
            lines.append("  " + print_instr(instr))
        lines.append("  " + print_term(block.term))
    lines.append("}")
    return "\n".join(lines)


def print_instr(i: ir.Instr) -> str:
    if isinstance(i, ir.BinOp):
        return f"{i.result} = {i.op} {i.a}, {i.b} : {i.result.type}"
    if isinstance(i, ir.Cmp):
        return f"{i.result} = cmp {i.pred} {i.a}, {i.b}"
    if isinstance(i, ir.Cast):
        return f"{i.result} = {i.kind} {i.a} to {i.result.type}"
    if isinstance(i, ir.Select):
        return f"{i.result} = select {i.cond}, {i.a}, {i.b}"
    if isinstance(i, ir.Extract):
        return f"{i.result} = extract {i.agg}, {i.index} : {i.result.type}"
    if isinstance(i, ir.Insert):
        return f"{i.result} = insert {i.agg}, {i.index}, {i.value}"
    if isinstance(i, ir.PtrOffset):
        return f"{i.result} = offset {i.ptr}, {i.index}"
    if isinstance(i, ir.PtrLoad):
        return f"{i.result} = load {i.ptr}[{i.index}] : {i.result.type}"
    if isinstance(i, ir.PtrStore):
        return f"store {i.ptr}[{i.index}], {i.value}"
    if isinstance(i, ir.Alloc):
        aligned = f", align {i.align}" if i.align else ""
        return f"{i.result} = alloc {i.count}{aligned} : {i.result.type}"
    if isinstance(i, ir.Free):
        return f"free {i.ptr}"
    if isinstance(i, ir.Splat):
        return f"{i.result} = splat {i.value} : {i.result.type}"
    if isinstance(i, ir.ExtractLane):
        return f"{i.result} = extractlane {i.vector}, {i.index}"
    if isinstance(i, ir.InsertLane):
        return f"{i.result} = insertlane {i.vector}, {i.index}, {i.value}"
    if isinstance(i, ir.Shuffle):
        return f"{i.result} = shuffle {i.vector}, {i.lanes}"
    if isinstance(i, ir.Reduce):
        return f"{i.result} = reduce.{i.kind} {i.vector}"
    if isinstance(i, ir.Call):
        head = f"{i.result} = " if i.result is not None else ""
        unwind = f" except {i.handler.label}" if i.handler is not None else ""
        return f"{head}call @{i.callee}({', '.join(map(str, i.args))}){unwind}"
    if isinstance(i, ir.Launch):
        unwind = f" except {i.handler.label}" if i.handler is not None else ""
        stream = "" if isinstance(i.stream, ir.Const) and i.stream.value == 0 else f", stream={i.stream}"
        return (f"launch @{i.callee}[grid=({', '.join(map(str, i.grid))}), block=({', '.join(map(str, i.block))}), "
                f"shared={i.shared_bytes}{stream}]({', '.join(map(str, i.args))}){unwind}")
    if isinstance(i, ir.ParallelFor):
        unwind = f" except {i.handler.label}" if i.handler is not None else ""
        return f"parallel_for @{i.callee}[count={i.count}, chunks={i.chunks}]({', '.join(map(str, i.args))}){unwind}"
    if isinstance(i, ir.Intrinsic):
        head = f"{i.result} = " if i.result is not None else ""
        # Compile-time operands by name, in the order ops.py declares them: gpu.thread_idx[axis=x]().
        attrs = f"[{', '.join(f'{k}={_attr_text(v)}' for k, v in i.attrs.items())}]" if i.attrs else ""
        return f"{head}{i.name}{attrs}({', '.join(map(str, i.args))})"
    if isinstance(i, ir.Load):
        return f"{i.result} = load {i.var}"
    if isinstance(i, ir.Store):
        return f"store {i.var}, {i.value}"
    if isinstance(i, ir.AddressOf):
        return f"{i.result} = addressof {i.var} : {i.result.type}"
    if isinstance(i, ir.BindRef):
        return f"bindref {i.var}, {i.ptr}"
    if isinstance(i, ir.FnAddr):
        return f"{i.result} = {'c_fnaddr' if i.direct else 'fnaddr'} @{i.callee}"
    if isinstance(i, ir.CallFn):
        head = f"{i.result} = " if i.result is not None else ""
        unwind = f" except {i.handler.label}" if i.handler is not None else ""
        return f"{head}call_indirect {i.fn}({', '.join(map(str, i.args))}){unwind}"
    raise TypeError(i)


def _attr_text(value: object) -> str:
    """An attribute as the printer shows it: blocks by label (a tuple of them in parentheses)."""
    if isinstance(value, tuple):
        return f"({', '.join(map(_attr_text, value))})"
    return value.label if isinstance(value, ir.Block) else str(value)


def print_term(t: ir.Terminator | None) -> str:
    if t is None:
        return "<no terminator>"
    if isinstance(t, ir.Jump):
        return f"jump {t.target.label}"
    if isinstance(t, ir.Branch):
        return f"branch {t.cond}, {t.then.label}, {t.orelse.label}"
    if isinstance(t, ir.Ret):
        return f"ret {t.value}" if t.value is not None else "ret"
    if isinstance(t, ir.Raise):
        unwind = f" to {t.handler.label}" if t.handler is not None else ""
        return f"raise {t.exc}({t.message!r}){unwind}"
    if isinstance(t, ir.Reraise):
        return f"reraise to {t.handler.label}" if t.handler is not None else "reraise"
    if isinstance(t, ir.Unreachable):
        return "unreachable"
    raise TypeError(t)
