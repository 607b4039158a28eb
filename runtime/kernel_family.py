"""`m.scale[4][grid, block](args)`: kernels with compile-time parameters launched from Python.

`m.scale` is a `PyxKernelFamily`; subscripting it with the compile-time arguments gives the
instance (compiled on first use by lang/kernel_instances.py, then kept), which is launched as any
kernel is: `[grid, block]` or `[grid, block, shared_bytes]`, then called with the arguments.
"""
from __future__ import annotations

import threading

from .bridge import CpuLaunched  # (bridge is loaded before this module: it makes the families)


class PyxKernelFamily:
    def __init__(self, fmeta: dict, origin: dict, structs: dict, module):
        self.__name__ = fmeta["name"]
        self._meta = fmeta
        self._origin = origin
        self._structs = structs
        self._module = module  # its __pyx__["target"] says where the module's kernels run, once imported
        self._instances: dict = {}
        self._lock = threading.Lock()
        self.__doc__ = fmeta["signature"]

    def __repr__(self) -> str:
        return f"<pyx kernel {self._meta['signature']}>"

    def __call__(self, *args, **kwargs):
        raise TypeError(f"{self.__name__} is a kernel with compile-time parameters: launch it with "
                        f"{self.__name__}[{', '.join(self._meta['ct_params'])}][grid, block](...)")

    def __getitem__(self, values):
        from ..kernel_instances import literal

        values = values if isinstance(values, tuple) else (values,)
        wanted = self._meta["ct_params"]
        if len(values) != len(wanted):
            raise TypeError(f"{self.__name__}[...] takes {len(wanted)} compile-time argument"
                            f"{'s' if len(wanted) != 1 else ''} ({', '.join(wanted)}), {len(values)} given")
        key = tuple(literal(v) for v in values)
        with self._lock:
            found = self._instances.get(key)
            if found is None:
                found = self._instances[key] = PyxKernelInstance(self, list(key))
        return found


class PyxKernelInstance(CpuLaunched):
    def __init__(self, family: PyxKernelFamily, values: list[str]):
        from pathlib import Path

        from ..kernel_instances import LAUNCHER, compile_instance
        from .bridge import NativeLibrary, PyxFunction, check_python_api

        origin = family._origin
        target = family._module.__dict__.get("__pyx__", {}).get("target", "cpu")
        if target != "cpu":
            raise TypeError(f"{family.__name__}[...]: a kernel with compile-time parameters launches from Python "
                            f"on the CPU target only so far (this module's kernels run on {target})")
        self.__name__ = f"{family.__name__}[{', '.join(values)}]"
        meta, jit = compile_instance(Path(origin["file"]), family._meta, values, origin.get("memcheck", False))
        check_python_api(origin["name"], meta.get("python_api", ()))
        self._library = NativeLibrary(jit)
        fmeta = next(f for f in meta["functions"] if f["name"] == LAUNCHER + family.__name__)
        self._arity = len(family._meta["params"])
        self._launch = PyxFunction(dict(fmeta, name=self.__name__), jit.address(fmeta["symbol"]), self._library,
                                   family._structs, dict(meta, module=origin["name"]))

    def __repr__(self) -> str:
        return f"<pyx kernel instance {self.__name__}>"

    def _run(self, args: tuple, grid: tuple, block: tuple, shared: int) -> None:
        self._launch(*args, *grid, *block, shared)
