"""Where a host program's launches and allocations go when a GPU drives them.

Host code always contains the CPU path (kernels run on the thread pool, `Ptr.alloc` is
`malloc`). Three function-pointer globals, null unless a runtime sets them before `main`,
send the same operations to a device instead: `pyx run --target=cuda` points them at the
CUDA driver (runtime/device_launch.py), so `launch` starts the kernel's PTX entry and
`alloc`/`free` hand out managed memory that host and kernels both address. One load and a
branch per launch or allocation is all a CPU-only run pays.

    i8* __pyx_device_launch(i8* entry, i8* name, i8** params, i64 gx, gy, gz, bx, by, bz, i64 shared, i64 stream)
        null when the kernel ran; otherwise the error message (the launch then raises RuntimeError)
    i8* __pyx_device_alloc(i64 nbytes)
    void __pyx_device_free(i8* pointer)
"""
from __future__ import annotations

from llvmlite import ir as ll

from .abi import FREE_HOOK
from .runtime_lib import CHARP, I64, VOID

LAUNCH = ll.FunctionType(CHARP, [CHARP, CHARP, CHARP.as_pointer()] + [I64] * 8)
ALLOC = ll.FunctionType(CHARP, [I64])
FREE = ll.FunctionType(VOID, [CHARP])


def hook(module: ll.Module, name: str, fty: ll.FunctionType) -> ll.GlobalVariable:
    """The hook's global (external, so a loader can find and set it), created on first use."""
    g = module.globals.get(name)
    if g is None:
        g = ll.GlobalVariable(module, fty.as_pointer(), name=name)
        g.initializer = ll.Constant(fty.as_pointer(), None)
    return g


def device_or_cpu(b: ll.IRBuilder, module: ll.Module, name: str, fty: ll.FunctionType, on_device, on_cpu):
    """`on_device(hook)` when the hook is set, else `on_cpu()`: both return a value of the same
    type, which this returns (or both return None)."""
    target = b.load(hook(module, name, fty))
    is_set = b.icmp_unsigned("!=", target, ll.Constant(fty.as_pointer(), None))
    with b.if_else(is_set, likely=False) as (device, cpu):
        with device:
            device_value = on_device(target)
            device_end = b.block
        with cpu:
            cpu_value = on_cpu()
            cpu_end = b.block
    if device_value is None:
        return None
    merged = b.phi(device_value.type)
    merged.add_incoming(device_value, device_end)
    merged.add_incoming(cpu_value, cpu_end)
    return merged


def free(b: ll.IRBuilder, module: ll.Module, libc, raw) -> None:
    """`free(raw)`, or the device's free when a runtime set the hook (Ptr.free, and memory
    handed to Python)."""
    def on_device(device_free):
        b.call(device_free, [raw])

    def on_cpu():
        b.call(libc("free", VOID, [CHARP]), [raw])

    device_or_cpu(b, module, FREE_HOOK, FREE, on_device, on_cpu)
