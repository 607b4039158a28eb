"""Code for functions chosen at run time (semantics/function_values.py).

One convention for every indirect call: `i1 entry(i8* out, i8* env, args...)`, true when the
callee raised (as a raising function's status), the result written to `out`. Each thunk gets
an adapter of that shape (`<thunk>.fnv`), whatever its own convention (raising or not, with a
result or not), so a call through a function value needs to know nothing of the callee."""
from __future__ import annotations

from typing import TYPE_CHECKING

from llvmlite import ir as ll

from .. import types as T
from ..ir import nodes as ir
from .runtime_lib import CHARP, I1

if TYPE_CHECKING:
    from .llvm_gen import FunctionCodegen, ModuleCodegen


def _adapter(mg: ModuleCodegen, symbol: str) -> ll.Function:
    name = mg.symbol(symbol + ".fnv")
    found = mg.module.globals.get(name)
    if found is not None:
        return found
    f = mg.ir_functions[symbol]
    callee = mg.functions[symbol]
    arg_types = [mg.llvm_type(p.type) for p in f.params[1:]]
    fn = ll.Function(mg.module, ll.FunctionType(I1, [CHARP, CHARP] + arg_types), name)
    fn.linkage = "internal"
    b = ll.IRBuilder(fn.append_basic_block("entry"))
    out, env, *args = fn.args
    call_args = [b.bitcast(env, mg.llvm_type(f.params[0].type)), *args]
    ret = mg.llvm_type(f.return_type) if f.return_type != T.NONE else None
    if f.raises:
        if ret is not None:
            call_args.insert(0, b.bitcast(out, ret.as_pointer()))
        b.ret(b.call(callee, call_args))
    else:
        result = b.call(callee, call_args)
        if ret is not None:
            b.store(result, b.bitcast(out, ret.as_pointer()))
        b.ret(ll.Constant(I1, 0))
    return fn


def address(fc: FunctionCodegen, i: ir.FnAddr) -> None:
    from .llvm_gen import UnsupportedOnTarget

    if not fc.mg.target.host:
        raise UnsupportedOnTarget("a function value", i.span)
    if i.direct:  # a C function pointer (semantics/c_functions.py): the function itself, C's convention
        from ..diagnostics import CompileError, error

        if fc.mg.ir_functions[i.callee].raises:  # known only now: a division's check, a recursion's guard
            name = fc.mg.ir_functions[i.callee].name
            raise CompileError([error("E0194", i.span, what=f"`{name}` as a C function pointer",
                                      problem="it may raise (a division by zero, a failed check, a recursion too "
                                              "deep, or KeyboardInterrupt at the Ctrl-C check of a loop in a "
                                              "function it calls: its own loops have none), and C cannot see an "
                                              "exception")])
        fc.define(i.result, fc.b.bitcast(fc.mg.functions[i.callee], CHARP))
        return
    fc.define(i.result, fc.b.bitcast(_adapter(fc.mg, i.callee), CHARP))


def call(fc: FunctionCodegen, i: ir.CallFn) -> None:
    from .llvm_gen import UnsupportedOnTarget

    if not fc.mg.target.host:
        raise UnsupportedOnTarget("a call through a function value", i.span)
    b = fc.b
    value = fc.value(i.fn)
    code, env = b.extract_value(value, 0), b.extract_value(value, 1)
    args = [fc.value(a) for a in i.args]
    target = b.bitcast(code, ll.FunctionType(I1, [CHARP, CHARP] + [a.type for a in args]).as_pointer())
    out = None
    if i.result is not None:
        with b.goto_entry_block():
            out = b.alloca(fc.mg.llvm_type(i.result.type))
    failed = b.call(target, [b.bitcast(out, CHARP) if out is not None else ll.Constant(CHARP, None),
                             b.bitcast(env, CHARP), *args])
    fc.on_error(failed, i.span, i.handler)
    if out is not None:
        fc.define(i.result, b.load(out))
