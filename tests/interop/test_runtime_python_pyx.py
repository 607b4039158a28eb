"""A CPython entry point (lang/codegen/pyentry.py) converts each argument by calling a helper
written in pyx (stdlib/runtime_python.px: `to_int`, `to_uint`, `to_double`, `to_view`), linked in
and inlined, and keeps for itself only the sequence of calls, the GIL and the fallback to the
checked path. The other tests of tests/interop check what the calls accept, refuse and cost."""
from __future__ import annotations

import re

from pyx.codegen import pyentry
from pyx.codegen.runtime_source import PREFIX
from pyx.codegen.target import host_target
from pyx.options import CompileOptions
from pyx.pipeline import codegen, optimize
from pyx.semantics.imports import STDLIB
from pyx.source import SourceFile

MODULE = '''
fn mixed(a: Int, b: UInt16, x: Float32, p: Ptr[Float64], s: Span[Int32], m: Buffer[Float64, 2]) -> Float64:
    return Float64(a) + Float64(b) + Float64(x) + p[0] + Float64(s[0]) + m[0, 0]
'''


def test_each_argument_is_converted_by_a_pyx_helper(tmp_path):
    source = SourceFile(str(tmp_path / "mixed.px"), MODULE)
    text = codegen(source, CompileOptions(), exports=True).llvm_ir
    entry = text[text.index('define i8* @"__pyx_py.mixed"'):]
    entry = entry[:entry.index("\n}\n")]
    calls = re.findall(r'call i1 @"__pyx_rt\.runtime_python\.(\w+)"', entry)
    assert calls == ["to_int", "to_uint", "to_double", "to_view", "to_view", "to_view"]
    for c_api in ("PyLong_AsLongLong", "PyFloat_AsDouble", "PyObject_GetBuffer", "strcmp"):
        assert c_api not in entry, c_api  # (in the helpers, not generated per entry)
    linked = str(optimize(source, CompileOptions(), exports=True).llvm_module)
    assert f'declare i1 @"{PREFIX}' not in linked  # linked in


def test_runtime_python_s_py_buffer_offsets_are_the_entry_s():
    """runtime_python.px reads a Py_buffer by offsets; pyentry.py lays out the same struct."""
    text = (STDLIB / "runtime_python.px").read_text()
    constant = {name: int(value) for name, value in re.findall(r"^comptime (_\w+) = (\d+)", text, re.MULTILINE)}
    data = host_target().target_machine(opt=0).target_data
    offset = [pyentry.PY_BUFFER.get_element_offset(data, k) for k in range(len(pyentry.PY_BUFFER.elements))]
    assert constant["_NDIM_BYTE"] == offset[5]
    for name, field in (("_FORMAT", 6), ("_STRIDES", 8)):
        assert constant[name] * 8 == offset[field], name
