"""Mojo's spelling of GPU code: `from gpu import thread_idx, block_idx, barrier, ...`.

pyx's GPU intrinsics (gpu.py) are built in, so a Mojo kernel's first line imports what is already
there: an import of an intrinsic by its own name binds nothing. Mojo's modules are accepted with or
without the `std.` prefix (`gpu`, `gpu.id`, `gpu.sync`, `gpu.warp`, and the `gpu.primitives.*`
paths), and Mojo's warp module is usable as a module (`from gpu import warp`, then `warp.sum(v)`,
`warp.shuffle_down(v, 1)`) or name by name (`from gpu.warp import sum as warp_sum`). A name pyx's
`gpu` does not provide is E0182; an index name (`thread_idx`, ...) under another name is E0183,
as they are namespaces (`thread_idx.x`), not values.
"""
from __future__ import annotations

from ..diagnostics import DiagnosticBag
from ..syntax import ast
from .gpu import GPU_NAMES, INDEX_NAMES

# Each module: Mojo's name -> pyx's intrinsic (None: a submodule, bound as a module).
_IDS: dict[str, str | None] = {name: name for name in INDEX_NAMES | {"lane_id"}}
_WARP: dict[str, str | None] = {
    "shuffle_down": "shuffle_down", "shuffle_up": "shuffle_up", "shuffle_xor": "shuffle_xor",
    "shuffle_idx": "shuffle_idx", "sum": "warp_sum", "max": "warp_max", "min": "warp_min",
    "prefix_sum": "warp_prefix_sum", "broadcast": "warp_broadcast", "WARP_SIZE": "WARP_SIZE"}
GPU_MODULES: dict[str, dict[str, str | None]] = {
    # pyx's own names for every intrinsic, and Mojo's submodules.
    "gpu": {**{name: name for name in GPU_NAMES}, "warp": None},
    "gpu.id": _IDS,
    "gpu.primitives.id": _IDS,
    "gpu.sync": {"barrier": "barrier"},  # (each table maps Mojo's name to pyx's intrinsic)
    "gpu.warp": _WARP,
    "gpu.primitives.warp": _WARP,
    "gpu.primitives": {"warp": None},
}


def gpu_module(name: str) -> str | None:
    """The module of GPU_MODULES an import names (`std.gpu.warp` is `gpu.warp`), or None."""
    bare = name.removeprefix("std.")
    return bare if bare in GPU_MODULES else None


def is_gpu_import(name: str) -> bool:
    """Whether `import`/`from ... import` names a GPU module (known or not: `gpu.host` is E0182)."""
    bare = name.removeprefix("std.")
    return bare == "gpu" or bare.startswith("gpu.")


def _available(module: str) -> str:
    return ", ".join(f"`{n}`" for n in sorted(GPU_MODULES[module]))


def collect_gpu_import(item: ast.Import, symbols, seen: dict, diags: DiagnosticBag) -> None:
    module = gpu_module(item.module)
    if module is None:
        diags.error("E0182", item.span, module=item.module, name="",
                    available="the modules " + ", ".join(f"`{m}`" for m in GPU_MODULES))
        return
    if not item.from_import:  # `import gpu.warp as warp`: `warp.sum(v)`
        local = item.alias or item.module
        symbols.modules[local] = module
        seen[local.split(".")[0]] = item
        return
    table = GPU_MODULES[module]
    for name, local in item.names:
        if name not in table:
            diags.error("E0182", item.span, module=item.module, name=f" has no `{name}`",
                        available=_available(module))
            continue
        target = table[name]
        if target is None:  # `from gpu import warp`
            symbols.modules[local] = f"{module}.{name}"
            seen[local] = item
        elif local == target:
            seen[local] = item  # a built-in name: nothing to bind
        elif target in INDEX_NAMES or target == "WARP_SIZE":
            diags.error("E0183", item.span, name=name, target=target)
        else:
            symbols.imported[local] = (module, target)  # calls reach gpu_call (mathlib.math_call)
            seen[local] = item


def intrinsic(module: str, attr: str) -> str | None:
    """The intrinsic `module.attr(...)` calls (`warp.sum` is `warp_sum`), or None."""
    found = GPU_MODULES.get(module, {}).get(attr)
    return found if found not in INDEX_NAMES else None
