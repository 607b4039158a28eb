"""Each named check of the IR verifier, shown failing on a small malformed function built from IR
nodes: the error names the check, the function and the offending instruction as printed."""
import pytest

from pyx import types as T
from pyx.ir import nodes as ir
from pyx.ir import ops, verify
from pyx.ir.verify import VerifyError, verify_module

INT, F64, BOOL = T.INT, T.FLOAT64, T.BOOL
V4 = T.simd(T.FLOAT32, 4)
PAIR = T.StructType("Pair", "m", fields=[("a", INT), ("b", F64)])


def t(type_, n):
    return ir.Temp(type_, n)


def c(type_, value):
    return ir.Const(type_, value)


def ret(value=None):
    return ir.Ret(None, value)


def fn(blocks, params=(), ret_type=T.NONE, symbol="m.f", kernel=False, vars_=()):
    return ir.Function(symbol, symbol[2:], "m.px", list(params), ret_type, None, vars=list(vars_), blocks=blocks,
                       kernel=kernel)


def body(*instrs, term=None):
    """One function of one block: `instrs`, then `term` (a bare `ret`)."""
    return fn([ir.Block("entry", list(instrs), term or ret())])


def intrinsic(name, args, result=None, **attrs):
    return ir.Intrinsic(None, result, name, args, attrs)


VEC = t(V4, 1)  # a vector defined by a splat, for the lane checks
SPLAT = ir.Splat(None, VEC, c(T.FLOAT32, 1.0))


def _cases():
    x = ir.Var("x", INT, 1)
    loop = ir.Block("loop", [], None)
    loop.term = ir.Jump(None, loop)
    outside = ir.Block("elsewhere", [], ret())
    left_def = ir.Block("left", [ir.BinOp(None, t(INT, 5), "add", c(INT, 1), c(INT, 2))])
    entry, right, join = ir.Block("entry"), ir.Block("right", [], None), ir.Block("join", [], ret(t(INT, 5)))
    entry.term = ir.Branch(None, c(BOOL, True), left_def, right)
    left_def.term = ir.Jump(None, join)
    right.term = ir.Jump(None, join)
    kernel = fn([ir.Block("entry", [], ret())], params=[ir.Var("n", INT, 1)], symbol="m.k", kernel=True)
    helper = fn([ir.Block("entry", [], ret())], params=[ir.Var("n", INT, 1)], symbol="m.g")
    return {
        # function checks
        "has-blocks": fn([]),
        "unique-labels": fn([ir.Block("entry", [], ir.Jump(None, outside)), ir.Block("elsewhere", [], ret()),
                             outside]),
        "single-definition": body(ir.BinOp(None, t(INT, 1), "add", c(INT, 1), c(INT, 1)),
                                  ir.BinOp(None, t(INT, 1), "add", c(INT, 2), c(INT, 2))),
        # block checks
        "has-terminator": fn([ir.Block("entry")]),
        "successors-in-function": fn([ir.Block("entry", [], ir.Jump(None, outside))]),
        "terminator-dominance": fn([entry, left_def, right, join], ret_type=INT),
        "branch-condition": fn([ir.Block("entry", [], ir.Branch(None, c(INT, 1), loop, loop)), loop]),
        "return-type": fn([ir.Block("entry", [], ret(c(F64, 1.0)))], ret_type=INT),
        # instruction checks
        "dominance": body(ir.BinOp(None, t(INT, 2), "add", t(INT, 1), c(INT, 1)),
                          ir.BinOp(None, t(INT, 1), "add", c(INT, 1), c(INT, 1))),
        "binop-types": body(ir.BinOp(None, t(INT, 1), "add", c(INT, 1), c(F64, 2.0))),
        "cmp-types": body(ir.Cmp(None, t(INT, 1), "eq", c(INT, 1), c(INT, 2))),
        "select-types": body(ir.Select(None, t(INT, 1), c(INT, 1), c(INT, 1), c(INT, 2))),
        "cast-types": body(ir.Cast(None, t(T.INT32, 1), "bitcast", c(INT, 1))),
        "vector-operand": body(ir.Reduce(None, t(F64, 1), "add", c(F64, 1.0))),
        "lane-result": body(SPLAT, ir.ExtractLane(None, t(F64, 2), VEC, c(INT, 0))),
        "insertlane-types": body(SPLAT, ir.InsertLane(None, t(V4, 2), VEC, c(INT, 0), c(F64, 1.0))),
        "lane-index": body(SPLAT, ir.ExtractLane(None, t(T.FLOAT32, 2), VEC, c(INT, 4))),
        "shuffle-lanes": body(SPLAT, ir.Shuffle(None, t(V4, 2), VEC, [0, 1, 2, 9])),
        "splat-element": body(ir.Splat(None, t(T.simd(T.INT64, 4), 1), c(F64, 1.0))),
        "variable-access": fn([ir.Block("entry", [ir.Store(None, x, c(F64, 1.0))], ret())], vars_=[x]),
        "struct-field": body(ir.Extract(None, t(INT, 1), c(PAIR, None), 2)),
        "pointer-access": body(ir.PtrLoad(None, t(F64, 1), c(T.ptr(INT), None), c(INT, 0))),
        "call-signature": body(ir.Call(None, None, "m.nowhere", [])),
        "launch-signature": ir.Module("m", "m.px", [
            fn([ir.Block("entry", [ir.Launch(None, "m.k", [c(F64, 1.0)], [c(INT, 1)] * 3, [c(INT, 1)] * 3, c(INT, 0),
                                             c(INT, 0))], ret())]), kernel]),
        "parallel-for-signature": ir.Module("m", "m.px", [
            fn([ir.Block("entry", [ir.ParallelFor(None, "m.g", c(INT, 10), c(INT, 2), [])], ret())]), helper]),
        "known-operation": body(intrinsic("no_such_op", [])),
        "operation-attributes": body(intrinsic("gpu.thread_idx", [], t(INT, 1), axis="w")),
        "operation-operands": body(intrinsic("fabs", [c(F64, 1.0), c(F64, 2.0)], t(F64, 1))),
        "operation-result": body(intrinsic("gpu.ballot", [c(BOOL, True)], t(INT, 1))),
        # a thread loop's latch ends in a jump back to its head; `entry` jumps forward to `elsewhere`
        "parallel-latches": fn([ir.Block("entry", [intrinsic("gpu.region_parallel", [], latches=(outside,))],
                                         ir.Jump(None, outside)), outside]),
    }


CASES = _cases()


def _module(case):
    return case if isinstance(case, ir.Module) else ir.Module("m", "m.px", [case])


@pytest.mark.parametrize("check", sorted(CASES))
def test_each_check_rejects_its_malformed_function(check):
    with pytest.raises(VerifyError) as failure:
        verify_module(_module(CASES[check]))
    assert failure.value.check == check
    assert str(failure.value).startswith(f"verifier check {check} failed in function @m.f: ")


def test_every_check_has_a_malformed_function_above():
    names = {f.__name__.removeprefix("check_").replace("_", "-")
             for f in verify.FUNCTION_CHECKS + verify.BLOCK_CHECKS + [c for cs in verify.INSTR_CHECKS.values()
                                                                      for c in cs]}
    assert names == set(CASES)


def test_the_message_shows_the_instruction_as_printed_and_why():
    with pytest.raises(VerifyError) as failure:
        verify_module(_module(CASES["shuffle-lanes"]), after="legalize_bfloat16")
    assert str(failure.value) == ("verifier check shuffle-lanes failed in function @m.f after pass legalize_bfloat16: "
                                  "%2 = shuffle %1, [0, 1, 2, 9]: lane 9 of a 4-lane vector")


def test_operations_are_checked_against_their_entry():
    """Operand types, result types and attributes come from ops.py, for every family."""
    ok = [intrinsic("math.sin", [c(F64, 1.0)], t(F64, 1)),
          intrinsic("math.isnan", [c(V4, 1.0)], t(T.simd(BOOL, 4), 2)),
          intrinsic("gpu.shared_array", [], t(T.ptr(F64, 3), 3), site=10, owner="m.k", count=4),
          intrinsic("gpu.atomic_add", [t(T.ptr(F64, 3), 3), c(F64, 1.0)], t(F64, 4)),
          intrinsic("extern", [c(INT, 1)], None, symbol="putchar"),
          intrinsic("print_i64", [c(T.INT64, 1)])]
    verify_module(_module(body(*ok)))
    bad = [(intrinsic("math.sin", [c(INT, 1)], t(INT, 1)), "operation-operands", "needs a float"),
           (intrinsic("gpu.atomic_add", [c(T.ptr(F64), None), c(INT, 1)], t(F64, 1)), "operation-operands",
            "the type the first operand points to"),
           (intrinsic("gpu.shared_array", [], t(T.ptr(F64, 3), 1), site="10", owner="m.k", count=4),
            "operation-attributes", "site must be a int"),
           (intrinsic("gpu.shared_array", [], t(T.ptr(F64), 1), site=10, owner="m.k", count=4),
            "operation-result", "shared memory"),
           (intrinsic("print_i64", [c(T.INT64, 1)], t(INT, 1)), "operation-result", "gives no value"),
           (intrinsic("gpu.region_parallel", [], latches="x0.next x1.next"), "operation-attributes",
            "latches must be a tuple of Block")]
    for instr, check, why in bad:
        with pytest.raises(VerifyError, match=why) as failure:
            verify_module(_module(body(instr)))
        assert failure.value.check == check


def test_construction_checks_the_attributes():
    with pytest.raises(AssertionError, match="axis"):
        ops.make(None, t(INT, 1), "gpu.thread_idx", [])
    with pytest.raises(KeyError):
        ops.make(None, None, "gpu.thread_idx.x", [])


def test_the_printer_shows_compile_time_operands_by_name():
    from pyx.ir.printer import print_instr

    instr = ops.make(None, t(T.ptr(F64, 3), 1), "gpu.shared_array", [], count=8, owner="m.k", site=3)
    assert print_instr(instr) == "%1 = gpu.shared_array[site=3, owner=m.k, count=8]()"


def test_every_operation_has_a_code_generator_handler():
    from pyx.codegen.llvm_gen import FunctionCodegen

    missing = [s.name for s in ops.SPECS.values() if not callable(getattr(FunctionCodegen, "op_" + s.lowering, None))]
    assert not missing


def test_effects_come_from_the_table():
    assert ops.synchronizes(intrinsic("gpu.barrier", []))
    assert ops.synchronizes(intrinsic("gpu.ballot", [c(BOOL, True)], t(T.UINT32, 1)))
    assert not ops.synchronizes(intrinsic("gpu.lane_id", [], t(INT, 1)))
    assert ops.writes_memory(intrinsic("gpu.atomic_cas", [c(T.ptr(INT), None), c(INT, 1), c(INT, 2)], t(INT, 1)))
    assert ops.prints(intrinsic("print_exception", [c(T.EXCEPTION, None)]))
    assert not ops.prints(intrinsic("stdout_failed", [], t(BOOL, 1)))


def test_parallel_latches_are_blocks_of_the_function_ending_in_a_back_edge():
    head, latch, done = ir.Block("head"), ir.Block("latch"), ir.Block("done", [], ret())
    marks = intrinsic("gpu.region_parallel", [], latches=(latch,))
    entry = ir.Block("entry", [], ir.Jump(None, head))
    head.term = ir.Branch(None, c(BOOL, True), latch, done)
    latch.term = ir.Jump(None, head)
    done.instrs.append(marks)
    verify_module(_module(fn([entry, head, latch, done])))
    elsewhere = ir.Block("x0.next", [], ir.Jump(None, head))
    marks.attrs["latches"] = (latch, elsewhere)
    with pytest.raises(VerifyError) as failure:
        verify_module(_module(fn([entry, head, latch, done])))
    assert str(failure.value) == ("verifier check parallel-latches failed in function @m.f: "
                                  "gpu.region_parallel[latches=(latch, x0.next)](): "
                                  "latch x0.next is not a block of the function")
