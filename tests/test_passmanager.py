"""The pass manager (lang/passmanager.py): the registry and its order, dumps before and after a
named pass, internal errors that name the pass, and compiles in several threads at once."""
from __future__ import annotations

import sys
import threading
from pathlib import Path

import pytest

from helpers import run_cli
from pyx import pipeline
from pyx.diagnostics import InternalCompilerError
from pyx.options import CompileOptions
from pyx.passmanager import Pass, PassManager, UnknownPass
from pyx.source import SourceFile

ROOT = Path(__file__).resolve().parents[1]
HELLO = ROOT / "examples" / "hello.px"


def test_the_registry_names_every_pass_once_in_the_order_they_run():
    names = PassManager().names()
    assert len(names) == len(set(names))
    assert names[:3] == ["parse", "check", "lower"] and names[-2:] == ["codegen", "llvm"]
    assert all(p.description and "\n" not in p.description for p in PassManager().passes)


def test_which_ir_passes_run_depends_on_the_target_and_options():
    pm = PassManager()
    cpu = [p.name for p in pm.ir_passes(CompileOptions())]
    assert cpu == ["strip_callback_polls", "remove_unreachable_blocks", "guard_recursion", "infer_raises",
                   "drop_dead_handlers", "legalize_bfloat16", "gpu_regions"]
    memcheck = [p.name for p in pm.ir_passes(CompileOptions(memcheck=True))]
    assert memcheck == ["insert_memory_checks"] + cpu  # before infer_raises: a checked access may raise
    racecheck = [p.name for p in pm.ir_passes(CompileOptions(racecheck=True))]
    assert racecheck == ["insert_race_checks"] + cpu  # before infer_raises and gpu_regions, which copies kernels
    assert [p.name for p in pm.ir_passes(CompileOptions(target="cuda", racecheck=True))] == \
        [p.name for p in pm.ir_passes(CompileOptions(target="cuda"))]  # device code is never instrumented
    cuda = [p.name for p in pm.ir_passes(CompileOptions(target="cuda"))]
    assert cuda == ["device_functions", "strip_interrupt_polls", "remove_unreachable_blocks", "infer_raises",
                    "drop_dead_handlers", "legalize_bfloat16"]
    # `--no-gpu-regions`: kernels with barriers run as coroutines only (what the thread loops are checked against)
    assert [p.name for p in pm.ir_passes(CompileOptions(gpu_regions=False))] == cpu[:-1]


def test_every_pass_that_ran_is_timed_by_name():
    comp = pipeline.optimize(SourceFile.read(str(HELLO)), CompileOptions(verify_ir=True))
    ran = list(comp.timings)
    assert ran[:3] == ["parse", "check", "lower"] and ran[-2:] == ["codegen", "llvm"]
    assert {"verify", "infer_raises", "guard_recursion"} <= set(ran)


def test_pyx_passes_lists_each_pass_with_its_description():
    result = run_cli("passes")
    assert result.status == 0
    for p in PassManager().passes:
        assert f"{p.name}  " in result.stdout and p.description in result.stdout


def test_print_after_a_named_pass_dumps_its_ir_to_stderr(tmp_path: Path):
    src = tmp_path / "prog.px"
    src.write_text("fn f(x: Int) raises -> Int:\n    if x < 0:\n        raise Error('no')\n    return x\n\n"
                   "fn main() raises:\n    print(f(1))\n")
    result = run_cli("build", "--emit=llvm", "--print-before=infer_raises", "--print-after=infer_raises",
                     "--print-after=codegen", str(src))
    assert result.status == 0, result.stderr
    err = result.stderr
    before = err.index("; *** ir before pass infer_raises ***")
    after = err.index("; *** ir after pass infer_raises ***")
    llvm = err.index("; *** llvm after pass codegen ***")
    assert before < after < llvm
    # infer_raises is what marks f: it does not raise before the pass, and does after it.
    assert "fn @prog.f($x.1: Int) -> Int {" in err[before:after]
    assert "fn @prog.f($x.1: Int) -> Int raises {" in err[after:llvm]
    assert "define " in err[llvm:]
    assert "define " in result.stdout  # the output asked for is unchanged


def test_print_after_a_pass_that_did_not_run_says_so():
    result = run_cli("build", "--emit=ir", "--print-after=device_functions", str(HELLO))
    assert result.status == 0
    assert "pass `device_functions` did not run in this compile" in result.stderr


def test_an_unknown_pass_name_is_a_usage_error_listing_the_names():
    result = run_cli("build", "--print-after=infer_raise", str(HELLO))
    assert result.status == 2
    assert "unknown pass `infer_raise`" in result.stderr and "infer_raises" in result.stderr
    assert "Traceback" not in result.stderr
    with pytest.raises(UnknownPass):
        PassManager(print_before={"nope"})


def _explode(module):
    raise KeyError("boom")


def test_an_exception_escaping_a_pass_is_an_internal_error_naming_it():
    pm = PassManager().with_pass(Pass("explode", "fails on purpose", _explode, "ir", "ir"), after="infer_raises")
    assert pm.names().index("explode") == pm.names().index("infer_raises") + 1
    with pytest.raises(InternalCompilerError) as caught:
        pipeline.lower(SourceFile.read(str(HELLO)), CompileOptions(), pm)
    assert caught.value.stage == "explode" and isinstance(caught.value.cause, KeyError)
    assert caught.value.headline() == "internal compiler error in pass `explode`: KeyError: 'boom'"


def _drop_blocks(module):
    module.functions[0].blocks = []  # a function without blocks: no valid IR
    return module


def test_verify_runs_after_each_ir_pass_and_names_the_pass_it_followed():
    pm = PassManager(verify=True).with_pass(Pass("drop_blocks", "breaks the IR on purpose", _drop_blocks, "ir", "ir"),
                                            after="remove_unreachable_blocks")
    with pytest.raises(InternalCompilerError) as caught:
        pipeline.lower(SourceFile.read(str(HELLO)), CompileOptions(), pm)
    assert caught.value.stage == "verify" and "drop_blocks" in str(caught.value.cause)
    # Without verification the broken IR goes on unchecked, and a later pass trips over it.
    unchecked = PassManager(verify=False).with_pass(pm.get("drop_blocks"), after="remove_unreachable_blocks")
    with pytest.raises(InternalCompilerError) as later:
        pipeline.lower(SourceFile.read(str(HELLO)), CompileOptions(), unchecked)
    assert later.value.stage not in ("verify", "drop_blocks")


def test_an_internal_error_points_at_the_statement_it_escaped(monkeypatch, tmp_path: Path):
    from pyx.ir.lower import FunctionLowering

    lower_if = FunctionLowering.stmt_TIf

    def broken(self, s):
        lower_if(self, s)  # the statements inside are lowered first, and fine
        raise ValueError("lowering bug")

    monkeypatch.setattr(FunctionLowering, "stmt_TIf", broken)
    src = tmp_path / "prog.px"
    src.write_text("fn main():\n    var i = 0\n    if i == 0:\n        while i < 3:\n            i += 1\n"
                   "    print(i)\n")
    result = run_cli("build", "--emit=ir", str(src))
    assert result.status == 101
    # The `if` on line 3, not the last statement lowered before the failure (line 5).
    assert f"internal compiler error in pass `lower` at {src}:3:5: ValueError: lowering bug" in result.stderr


# Two programs unlike in every way the compiler keeps state for: indentation and parentheses (the
# parser's postlexer), the target (GPU address spaces in codegen), kernels and shared memory.
CPU_PROGRAM = """\
fn collatz(n: Int) -> Int:
    var steps = 0
    var x = n
    while x != 1:
        if x % 2 == 0:
            x = x // 2
        else:
            x = (3 * (x + 0)) + 1
        steps += 1
    return steps

fn main():
    var best = 0
    for i in range(1, 30):
        best = max(best, collatz(i))
    print(best)
"""


def _compile(path_or_text, options: CompileOptions) -> str:
    source = (SourceFile.read(str(path_or_text)) if isinstance(path_or_text, Path)
              else SourceFile("cpu_prog.px", path_or_text))
    return pipeline.codegen(source, options, entry=options.target != "cuda").llvm_ir


def test_two_compiles_in_two_threads_do_not_meet():
    jobs = [(CPU_PROGRAM, CompileOptions()), (ROOT / "examples" / "gpu_sum.px", CompileOptions(target="cuda"))]
    alone = [_compile(*job) for job in jobs]
    assert "addrspace(3)" in alone[1] and "addrspace(3)" not in alone[0]
    rounds = 10
    results: dict[int, list] = {0: [], 1: []}

    def work(k: int) -> None:
        for _ in range(rounds):
            try:
                results[k].append(_compile(*jobs[k]))
            except Exception as exc:  # noqa: BLE001 - compared below, so a failure shows what it was
                results[k].append(repr(exc))

    # Switch threads as often as the interpreter can, so the two compiles interleave finely
    # (with the default 5 ms one parse often finishes before the other thread runs).
    previous = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=work, args=(k,)) for k in (0, 1)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(previous)
    for k in (0, 1):
        assert results[k] == [alone[k]] * rounds


def test_the_state_of_a_compile_is_passed_to_it_not_held_in_context_variables():
    """Issue 15: a compile's state is its own (CompileOptions, the Compilation, the check's objects),
    passed to the code that needs it. The one context variable left is cancel.py's, a request from
    outside to stop (lsp): it changes whether a compile finishes, never what it makes."""
    lang = ROOT / "lang"
    found = [f"{path.relative_to(lang)}:{n}" for path in sorted(lang.rglob("*.py"))
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if "ContextVar(" in line]
    assert found == ["cancel.py:23"]
