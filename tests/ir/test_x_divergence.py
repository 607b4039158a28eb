"""The divergence analysis (ir/divergence.py) on small kernels built from IR nodes: which variables
every thread of a block holds the same, and which blocks not every thread runs. The thread loops
keep a uniform value once per block and a divergent one per thread, so calling a divergent value
uniform would give every thread one thread's value (tests/codegen/test_gpu_thread_loops.py runs
whole kernels; these pin the analysis itself)."""
from pyx import types as T
from pyx.ir import nodes as ir
from pyx.ir.divergence import post_dominators, uniform_vars

INT, BOOL = T.INT, T.BOOL


def t(type_, n):
    return ir.Temp(type_, n)


def c(n):
    return ir.Const(INT, n)


def index(result, kind):
    return ir.Intrinsic(None, result, f"gpu.{kind}", [], {"axis": "x"})


def test_a_value_from_the_block_index_is_uniform_and_one_from_the_thread_index_is_not():
    row, tx, n = ir.Var("row", INT, 1), ir.Var("tx", INT, 2), ir.Var("n", INT, 3)
    entry = ir.Block("entry", [
        index(t(INT, 1), "block_idx"),
        ir.BinOp(None, t(INT, 2), "mul", t(INT, 1), c(16)),
        ir.Load(None, t(INT, 3), n),
        ir.BinOp(None, t(INT, 4), "add", t(INT, 2), t(INT, 3)),
        ir.Store(None, row, t(INT, 4)),
        index(t(INT, 5), "thread_idx"),
        ir.Store(None, tx, t(INT, 5)),
    ], ir.Ret(None, None))
    uniform, controlled = uniform_vars([entry], {n})
    assert uniform == {row, n}
    assert controlled == set()


def test_a_store_under_a_thread_dependent_branch_is_divergent_and_only_the_branch_is_controlled():
    flag, k = ir.Var("flag", INT, 1), ir.Var("k", INT, 2)
    entry, then, orelse, join = ir.Block("entry"), ir.Block("then"), ir.Block("else"), ir.Block("join")
    entry.instrs = [index(t(INT, 1), "thread_idx"), ir.Cmp(None, t(BOOL, 2), "lt", t(INT, 1), c(4)),
                    ir.Store(None, k, c(7))]
    entry.term = ir.Branch(None, t(BOOL, 2), then, orelse)
    then.instrs, then.term = [ir.Store(None, flag, c(1))], ir.Jump(None, join)
    orelse.instrs, orelse.term = [ir.Store(None, flag, c(2))], ir.Jump(None, join)
    join.term = ir.Ret(None, None)
    blocks = [entry, then, orelse, join]
    uniform, controlled = uniform_vars(blocks, set())
    # Both arms store constants, but which arm runs depends on the thread.
    assert uniform == {k}
    assert controlled == {id(then), id(orelse)}


def test_the_same_branch_on_a_uniform_condition_keeps_its_stores_uniform():
    flag = ir.Var("flag", INT, 1)
    entry, then, orelse, join = ir.Block("entry"), ir.Block("then"), ir.Block("else"), ir.Block("join")
    entry.instrs = [index(t(INT, 1), "block_idx"), ir.Cmp(None, t(BOOL, 2), "lt", t(INT, 1), c(4))]
    entry.term = ir.Branch(None, t(BOOL, 2), then, orelse)
    then.instrs, then.term = [ir.Store(None, flag, c(1))], ir.Jump(None, join)
    orelse.instrs, orelse.term = [ir.Store(None, flag, c(2))], ir.Jump(None, join)
    join.term = ir.Ret(None, None)
    uniform, controlled = uniform_vars([entry, then, orelse, join], set())
    assert uniform == {flag}
    assert controlled == set()


def test_divergence_flows_through_variables_until_nothing_changes():
    # a = b; b = thread_idx: a is divergent only once b is known to be (the analysis is iterated).
    a, b = ir.Var("a", INT, 1), ir.Var("b", INT, 2)
    entry = ir.Block("entry", [
        ir.Load(None, t(INT, 1), b),
        ir.Store(None, a, t(INT, 1)),
        index(t(INT, 2), "thread_idx"),
        ir.Store(None, b, t(INT, 2)),
    ], ir.Ret(None, None))
    uniform, _ = uniform_vars([entry], set())
    assert uniform == set()


def test_a_variable_whose_address_is_passed_is_never_uniform():
    v = ir.Var("v", INT, 1)
    entry = ir.Block("entry", [ir.Store(None, v, c(3)), ir.Call(None, None, "m.g", [ir.Ref(INT, v)])],
                     ir.Ret(None, None))
    uniform, _ = uniform_vars([entry], set())
    assert uniform == set()


def test_a_branch_that_only_raises_out_of_the_kernel_does_not_make_the_rest_divergent():
    # The Ctrl-C poll's shape: a thread-dependent branch whose one arm leaves the launch.
    v = ir.Var("v", INT, 1)
    entry, raising, rest = ir.Block("entry"), ir.Block("raise"), ir.Block("rest")
    entry.instrs = [index(t(INT, 1), "thread_idx"), ir.Cmp(None, t(BOOL, 2), "lt", t(INT, 1), c(4))]
    entry.term = ir.Branch(None, t(BOOL, 2), raising, rest)
    raising.term = ir.Raise(None, "KeyboardInterrupt", "")
    rest.instrs, rest.term = [ir.Store(None, v, c(5))], ir.Ret(None, None)
    uniform, controlled = uniform_vars([entry, raising, rest], set())
    assert uniform == {v}
    assert controlled == set()


def test_post_dominators_of_a_diamond():
    entry, left, right, join = ir.Block("entry"), ir.Block("l"), ir.Block("r"), ir.Block("join")
    entry.term = ir.Branch(None, ir.Const(BOOL, True), left, right)
    left.term, right.term, join.term = ir.Jump(None, join), ir.Jump(None, join), ir.Ret(None, None)
    pdom = post_dominators([entry, left, right, join])
    assert pdom[id(entry)] == {id(entry), id(join)}
    assert pdom[id(left)] == {id(left), id(join)}
    assert pdom[id(join)] == {id(join)}
