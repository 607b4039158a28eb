"""Run compiled modules in this process with LLVM's MCJIT."""
from __future__ import annotations

import ctypes

import llvmlite.binding as llvm


class JitModule:
    """Owns the execution engine: function pointers stay valid while this object lives."""

    def __init__(self, module, target_machine):
        self.engine = llvm.create_mcjit_compiler(module, target_machine)
        self.engine.finalize_object()
        self.engine.run_static_constructors()

    def address(self, symbol: str) -> int:
        return self.engine.get_function_address(symbol)

    def global_address(self, symbol: str) -> int:
        """Where a global variable lives, or 0 when the module has none by that name."""
        return self.engine.get_global_value_address(symbol)

    def __del__(self, _ctypes=ctypes):  # (bound now: at interpreter exit the module global may be None)
        # A module with a prange loop may have started worker threads that run (and wait in)
        # its code: stop them before the engine frees that code; then give back its pthread key.
        engine = getattr(self, "engine", None)
        if engine is None:
            return
        for symbol in ("__pyx_pool_shutdown", "__pyx_exc_shutdown"):
            try:
                shutdown = engine.get_function_address(symbol)
            except AttributeError:  # interpreter exit: llvmlite's library is gone (its handle is None), and
                return  # the process's end stops the pool's threads and frees the key with it
            if shutdown:
                _ctypes.CFUNCTYPE(None)(shutdown)()

    def run_entry(self, symbol: str) -> int:
        """Call `int symbol(void)` and return its exit status."""
        address = self.address(symbol)
        if not address:
            raise LookupError(f"symbol {symbol} not found in the compiled module")
        return ctypes.CFUNCTYPE(ctypes.c_int)(address)()


class JitObject(JitModule):
    """Object code (fresh or from the cache) linked into this process: no front end, no optimizer."""

    def __init__(self, obj: bytes, target_machine):
        empty = llvm.parse_assembly("")
        empty.triple = target_machine.triple
        self.engine = llvm.create_mcjit_compiler(empty, target_machine)
        self.engine.add_object_file(llvm.ObjectFileRef.from_data(obj))
        self.engine.finalize_object()
