"""The IR: the verifier rejects malformed functions; the printer is stable."""
import pytest

from pyx import pipeline
from pyx import types as T
from pyx.ir import nodes as ir
from pyx.ir.verify import VerifyError, verify_module
from pyx.options import CompileOptions
from pyx.source import SourceFile


def one_function(blocks, params=(), ret=T.INT):
    f = ir.Function("m.f", "f", "m.px", list(params), ret, None, blocks=blocks)
    return ir.Module("m", "m.px", [f])


def test_well_formed_function_passes():
    x = ir.Temp(T.INT, 1)
    entry = ir.Block("entry", [ir.BinOp(None, x, "add", ir.Const(T.INT, 1), ir.Const(T.INT, 2))], ir.Ret(None, x))
    verify_module(one_function([entry]))


def test_missing_terminator():
    with pytest.raises(VerifyError, match="no terminator"):
        verify_module(one_function([ir.Block("entry")]))


def test_operand_types_must_agree():
    x = ir.Temp(T.INT, 1)
    bad = ir.BinOp(None, x, "add", ir.Const(T.INT, 1), ir.Const(T.FLOAT64, 2.0))
    with pytest.raises(VerifyError, match="binop add"):
        verify_module(one_function([ir.Block("entry", [bad], ir.Ret(None, x))]))


def test_use_not_dominated_by_definition():
    cond = ir.Const(T.BOOL, True)
    x = ir.Temp(T.INT, 1)
    entry, left, right, join = ir.Block("entry"), ir.Block("left"), ir.Block("right"), ir.Block("join")
    entry.term = ir.Branch(None, cond, left, right)
    left.instrs = [ir.BinOp(None, x, "add", ir.Const(T.INT, 1), ir.Const(T.INT, 2))]
    left.term = ir.Jump(None, join)
    right.term = ir.Jump(None, join)
    join.term = ir.Ret(None, x)
    with pytest.raises(VerifyError, match="not defined on every path"):
        verify_module(one_function([entry, left, right, join]))


def test_return_type_checked():
    with pytest.raises(VerifyError, match="ret Float64"):
        verify_module(one_function([ir.Block("entry", [], ir.Ret(None, ir.Const(T.FLOAT64, 1.0)))]))


def test_call_signature_checked():
    entry = ir.Block("entry", [ir.Call(None, None, "m.g", [])], ir.Ret(None, ir.Const(T.INT, 0)))
    with pytest.raises(VerifyError, match="unknown"):
        verify_module(one_function([entry]))


def test_raising_is_inferred_through_calls():
    src = SourceFile("r.px", "fn leaf(a: Int) -> Int:\n    return a + 1\n"
                             "fn div(a: Int, b: Int) -> Int:\n    return a // b\n"
                             "fn outer(a: Int) -> Int:\n    return div(a, 2) + leaf(a)\n")
    module = pipeline.lower(src).ir
    raises = {f.name: f.raises for f in module.functions}
    assert raises == {"leaf": False, "div": True, "outer": True}


def test_bfloat16_arithmetic_is_rewritten_to_float32():
    """After the passes no instruction computes on BFloat16: only moves and the two casts remain,
    which the code generator does with integer instructions."""
    from helpers import ROOT
    from pyx.ir.bfloat16 import computes_on_bfloat16, is_bfloat16

    module = pipeline.lower(SourceFile.read(ROOT / "tests" / "golden" / "bfloat16.px"),
                            CompileOptions(verify_ir=True)).ir
    instrs = [i for f in module.functions for b in f.blocks for i in b.instrs]
    assert not [i for i in instrs if computes_on_bfloat16(i)]
    casts = [i for i in instrs if isinstance(i, ir.Cast) and (is_bfloat16(i.a.type) or is_bfloat16(i.result.type))]
    assert casts and all((i.kind, T.elem_type(i.a.type if i.kind == "fptrunc" else i.result.type))
                         in (("fpext", T.FLOAT32), ("fptrunc", T.FLOAT32), ("fptrunc", T.FLOAT64)) for i in casts)


def test_a_constant_lane_past_the_vector_lowers_to_valid_ir():
    """`v[40]` of a 4-lane vector raises IndexError when it runs; the lane read after the check
    is never reached, and must still be one the verifier accepts (a mutation found it)."""
    from helpers import ROOT

    pipeline.lower(SourceFile.read(ROOT / "tests" / "golden" / "simd_constant_lane_out_of_range.px"),
                   CompileOptions(verify_ir=True))
