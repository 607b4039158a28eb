"""The C functions the pyx runtime's units call (stdlib/runtime_*.px, through `external_call`) are
declared in the one table the generated runtime declares its own from, c_library.PROTOTYPES: each
unit's LLVM IR declares every C function it calls with the LLVM signature the table gives it."""
from __future__ import annotations

import llvmlite.binding as llvm
import pytest

from pyx.codegen import runtime_source as rs
from pyx.codegen.c_library import PROTOTYPES
from pyx.codegen.target import host_target, init_llvm


def _as_parsed(name: str) -> str:
    """The table's LLVM signature of `name` as LLVM prints it (opaque `ptr` for every pointer)."""
    from llvmlite import ir as ll

    module = ll.Module()
    ll.Function(module, PROTOTYPES[name].function_type, name)
    return str(llvm.parse_assembly(str(module)).get_function(name).global_value_type)


@pytest.mark.parametrize("unit", sorted(rs.UNITS))
def test_each_c_function_a_runtime_unit_calls_is_declared_as_the_table_declares_it(unit):
    init_llvm()
    module = llvm.parse_assembly(rs.runtime_llvm_ir(host_target(), unit))
    called = [f for f in module.functions if f.is_declaration and not f.name.startswith(("llvm.", "__pyx"))]
    assert called, unit
    for f in called:
        known = PROTOTYPES.get(f.name)
        assert known is not None, f"{unit} calls {f.name}, which c_library.PROTOTYPES does not declare"
        assert str(f.global_value_type) == _as_parsed(f.name), f.name
