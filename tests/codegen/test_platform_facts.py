"""The C library's layouts and numbers the generated runtime relies on are declared once, per
target, in `lang/codegen/platform_facts.py`, and each one is what the platform's headers say:
a C compiler for the target compiles the very expressions the facts name (`sizeof(ucontext_t)`,
`offsetof(struct sigaction, sa_flags)`, `EPIPE`, ...) and the values must agree. A host target
with no facts is E0906, never code laid out for another C library."""
from __future__ import annotations

import ctypes
import os
import re
import shutil
import subprocess

import pytest

from pyx.codegen import platform_facts as pf
from pyx.codegen.target import HOST_ADDRESS_SPACES, Target, host_target
from pyx.diagnostics import CompileError
from pyx.options import CompileOptions
from pyx.pipeline import lower
from pyx.source import SourceFile

# aarch64's data layout, so the IR of an aarch64 module can be generated without an aarch64 LLVM.
AARCH64_LAYOUT = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128-Fn32"


def _host_compiler() -> str | None:
    for name in (os.environ.get("CC"), "cc", "gcc", "clang"):
        if name and shutil.which(name):
            return name
    return None


def _compiler_for(key: str) -> str | None:
    host = pf.target_key(host_target().triple)
    if key == host:
        return _host_compiler()
    return shutil.which(f"{key}-gcc")  # Debian's cross compilers: gcc-aarch64-linux-gnu, ...


def _probe(compiler: str, tmp_path) -> dict[str, int]:
    """Each probed fact's value, as `compiler` computes it: the expressions go into a constant
    array of longs, compiled to assembly (so a cross compiler needs no machine to run on)."""
    probes = pf.probed_fields()
    headers = sorted({header for _, _, header in probes})
    source = "#define _GNU_SOURCE\n" + "".join(f"#include <{h}>\n" for h in headers) + "#include <stddef.h>\n"
    source += "const long pyx_facts[] = {\n" + "".join(f"    (long)({c}),\n" for _, c, _ in probes) + "};\n"
    (tmp_path / "probe.c").write_text(source)
    asm = subprocess.run([compiler, "-S", "-O0", "-o", "-", str(tmp_path / "probe.c")], capture_output=True,
                         text=True, check=True).stdout
    values = [int(v, 0) for v in re.findall(r"^\s*\.(?:quad|xword|dword|8byte)\s+(-?\w+)\s*$", asm, re.MULTILINE)]
    assert len(values) == len(probes), asm
    return {name: value for (name, _, _), value in zip(probes, values, strict=True)}


@pytest.mark.parametrize("key", sorted(pf.FACTS))
def test_each_target_s_facts_are_its_headers(key, tmp_path):
    compiler = _compiler_for(key)
    if compiler is None:
        pytest.skip(f"no C compiler for {key}")
    facts = pf.FACTS[key]
    measured = _probe(compiler, tmp_path)
    declared = {name: getattr(facts, name) for name in measured}
    assert declared == measured


def test_this_machine_has_facts_and_its_symbols():
    facts = pf.facts_for(host_target())  # pyx's own test machines are targets it knows
    libc = ctypes.CDLL(None)
    for symbol in (facts.stdout_symbol, facts.errno_location):
        assert hasattr(libc, symbol), symbol


@pytest.mark.parametrize("triple, key", [
    ("x86_64-unknown-linux-gnu", "x86_64-linux-gnu"),
    ("x86_64-pc-linux-gnu", "x86_64-linux-gnu"),
    ("aarch64-unknown-linux-gnu", "aarch64-linux-gnu"),
    ("x86_64-linux-gnu", "x86_64-linux-gnu"),
    ("x86_64-unknown-linux-musl", "x86_64-linux-musl"),
    ("arm64-apple-darwin23.1.0", "arm64-darwin23.1.0"),
])
def test_a_triple_s_key_leaves_out_the_vendor(triple, key):
    assert pf.target_key(triple) == key


GPU_AND_RECURSION = """\
@kernel
fn fill(out: Ptr[Float32], n: Int):
    var i = block_idx.x * block_dim.x + thread_idx.x
    if i < n:
        out[i] = Float32(i)
    barrier()


fn depth(n: Int) -> Int:
    if n == 0:
        return 0
    return depth(n - 1) + 1


fn main():
    var out = Ptr[Float32].alloc(64)
    launch fill[grid=2, block=32](out, 64)
    print(out[63], depth(10))
    out.free()
"""


def _ir_for(triple: str, tmp_path, data_layout: str | None = None) -> str:
    path = tmp_path / "prog.px"
    path.write_text(GPU_AND_RECURSION)
    comp = lower(SourceFile.read(str(path)), CompileOptions(verify_ir=True))
    target = Target("cpu", triple, "generic", "", HOST_ADDRESS_SPACES, True)
    return comp.passes.run(comp, "codegen", comp.ir, target, True, False, data_layout)


def test_a_host_without_facts_is_E0906_not_another_c_library_s_layout(tmp_path):
    with pytest.raises(CompileError) as raised:
        _ir_for("riscv64-unknown-linux-gnu", tmp_path, AARCH64_LAYOUT)
    [diagnostic] = raised.value.diagnostics
    assert diagnostic.code == "E0906"
    assert "riscv64-unknown-linux-gnu" in diagnostic.message and "aarch64-linux-gnu" in diagnostic.message


def test_aarch64_code_reserves_aarch64_s_ucontext_and_jmp_buf(tmp_path):
    """The GPU-on-CPU scheduler's contexts and the recursion guard's jmp_buf, laid out from the
    aarch64 facts: a 4560-byte ucontext_t aligned to 16 (a fixed 1024 bytes would let
    makecontext write past it) and a 312-byte jmp_buf. stdlib/runtime_gpu.px allocates the
    contexts and jmp_bufs with the sizes the generated piece hands it, and the generated switch
    steps through them with the same."""
    text = _ir_for("aarch64-unknown-linux-gnu", tmp_path, AARCH64_LAYOUT)
    assert re.search(r"store i64 4560, i64\* %\S+", text), "sizeof(ucontext_t), handed to the pyx scheduler"
    assert re.search(r"mul i64 %\S+, 4560", text), "the stride of the threads' contexts"
    assert re.search(r"store i64 320, i64\* %\S+", text), "sizeof(jmp_buf) rounded to 16, handed to it"
    assert re.search(r"mul i64 %\S+, 320", text), "the stride of the threads' jmp_bufs"
    assert re.search(r"alloca \{\[39 x i64\], i64,", text), "the recursion guard's jmp_buf"


@pytest.mark.parametrize("key", sorted(pf.FACTS))
def test_the_c_prototypes_integer_widths_are_each_target_s(key):
    """c_library.PROTOTYPES declares size_t, pthread_t, pthread_key_t and pthread_once_t once, for
    every target: their widths there must be the facts' sizes."""
    from pyx.codegen.c_library import PROTOTYPES

    facts = pf.FACTS[key]
    assert PROTOTYPES["malloc"].params[0].width == 8 * facts.size_t_bytes
    assert PROTOTYPES["pthread_self"].result.width == 8 * facts.pthread_t_bytes
    assert PROTOTYPES["pthread_key_delete"].params[0].width == 8 * facts.pthread_key_bytes
    assert PROTOTYPES["pthread_once"].params[0].pointee.width == 8 * facts.pthread_once_bytes
