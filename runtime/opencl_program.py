"""A whole pyx program whose kernels run on an OpenCL device: `pyx run --target=opencl`.

The host code runs on the CPU as usual; its `launch` statements start the kernels' SPIR-V entries
on the device through the launch hook (lang/codegen/device_hooks.py), as `--target=cuda` does.
Host and kernels must address the same memory with the same pointers, which OpenCL calls
fine-grained shared virtual memory (SVM):

- a device with *system* SVM (Intel's CPU runtime, for one) reads and writes any host memory,
  so `Ptr.alloc` stays `malloc` and each pointer argument is passed as it is
  (`clSetKernelArgSVMPointer`);
- a device with fine-grained *buffer* SVM only: `Ptr.alloc`/`free` hand out `clSVMAlloc` memory
  (the alloc and free hooks), which both sides address;
- a device with neither cannot run a whole program: that is an error before `main` starts.

A launch waits for its kernel, as on the CPU target. A failing launch raises `RuntimeError` in
the pyx program, with the runtime's error and the kernel's name; a work-item that raised makes
the launch raise its exception (runtime/kernel_raised.py).
"""
from __future__ import annotations

import ctypes
import sys

from ..codegen.abi import ALLOC_HOOK, FREE_HOOK, LAUNCH_HOOK
from . import interrupt
from .cuda_program import ALLOC, FREE, INTERRUPTED, LAUNCH, reply_of
from .kernel_raised import hook_reply, opencl_take
from .opencl import Device, OpenCLError, completed

# A kernel parameter as the launch hook finds it: ("ptr", None) or ("scalar", ctypes type).
_CTYPES = {("int", 8): ctypes.c_int8, ("int", 16): ctypes.c_int16, ("int", 32): ctypes.c_int32,
           ("int", 64): ctypes.c_int64, ("uint", 8): ctypes.c_uint8, ("uint", 16): ctypes.c_uint16,
           ("uint", 32): ctypes.c_uint32, ("uint", 64): ctypes.c_uint64, ("float", 16): ctypes.c_uint16,
           ("float", 32): ctypes.c_float, ("float", 64): ctypes.c_double, ("bool", 1): ctypes.c_bool}


def kernel_parameters(ir_module) -> dict[bytes, list]:
    """Each kernel entry's parameters (by its SPIR-V entry name), from the device compile's IR."""
    from ..codegen.abi import kernel_entry
    from ..types import PtrType, ScalarType

    kernels = {}
    for f in ir_module.functions:
        if not f.kernel:
            continue
        params: list[tuple[str, object]] = []
        for p in f.params:
            t = p.type
            if isinstance(t, PtrType):
                params.append(("ptr", None))
            elif isinstance(t, ScalarType):
                kind = "bool" if t.is_bool else "float" if t.is_float else "int" if t.is_signed else "uint"
                params.append(("scalar", _CTYPES[(kind, t.bits)]))
            else:
                params.append(("unsupported", str(t)))
        kernels[kernel_entry(f.symbol).encode()] = params
    return kernels


class ProgramOnOpenCL:
    """The hooks of one loaded program, pointed at an OpenCL device with the program's SPIR-V built."""

    def __init__(self, program, device: Device, spirv: bytes, kernels: dict[bytes, list], key: str,
                 probe: bool = True):
        cl = device.cl
        self.cl, self.device, self.program = cl, device, program
        self.built = device.load(spirv, key, probe=probe)
        self.kernels = kernels
        self.handles: dict[bytes, object] = {}
        self.allocations: dict[int, object] = {}
        self.messages: list[ctypes.Array] = []  # raised messages stay alive for the program
        caps = device.device.svm_capabilities
        svm = cl.device_svm_capabilities
        if caps & svm.FINE_GRAIN_SYSTEM:
            hooks = {LAUNCH_HOOK: LAUNCH(self.launch)}
        elif caps & svm.FINE_GRAIN_BUFFER:
            hooks = {LAUNCH_HOOK: LAUNCH(self.launch), ALLOC_HOOK: ALLOC(self.alloc), FREE_HOOK: FREE(self.free)}
        else:
            raise OpenCLError(f"pyx: {device.name} has no fine-grained shared virtual memory, which `pyx run "
                              "--target=opencl` needs (host and kernels use the same pointers); launch the "
                              "kernels from Python instead: pyx.import_module(name, target='opencl')")
        self.callbacks = list(hooks.values())  # must outlive every call the program makes through them
        for name, callback in hooks.items():
            address = program.global_address(name)
            if address:
                ctypes.c_void_p.from_address(address).value = ctypes.cast(callback, ctypes.c_void_p).value

    def detach(self) -> None:
        """Back to the CPU paths, and give back any SVM memory the program did not free."""
        for name in (LAUNCH_HOOK, ALLOC_HOOK, FREE_HOOK):
            address = self.program.global_address(name)
            if address:
                ctypes.c_void_p.from_address(address).value = None
        self.allocations.clear()

    def _kernel(self, entry: bytes):
        found = self.handles.get(entry)
        if found is None:
            found = self.handles[entry] = self.cl.Kernel(self.built, entry.decode())
        return found

    def launch(self, entry, name, params, gx, gy, gz, bx, by, bz, shared, stream):
        kernel = name.decode(errors="replace")
        try:
            if shared:
                raise OpenCLError(f"pyx: kernel {kernel}: the opencl target has no dynamic shared memory")
            handle, cl = self._kernel(entry), self.cl
            slots = ctypes.cast(params, ctypes.POINTER(ctypes.c_void_p)) if params else None
            for k, (kind, ctype) in enumerate(self.kernels[entry]):
                at = slots[k]
                if kind == "ptr":
                    pointer = ctypes.c_void_p.from_address(at).value
                    handle.set_arg(k, cl.SVM((ctypes.c_char * 1).from_address(pointer)) if pointer else None)
                elif kind == "scalar":
                    handle.set_arg(k, ctype.from_address(at))
                else:
                    raise OpenCLError(f"pyx: kernel {kernel}: a parameter of type {ctype} cannot be passed "
                                      "to an OpenCL kernel yet")
            block = (bx, by, bz)
            size = tuple(g * b for g, b in zip((gx, gy, gz), block, strict=True))  # OpenCL counts work-items
            launched = cl.enqueue_nd_range_kernel(self.device.queue, handle, size, block)
            taken = opencl_take(self.device, self.built)  # a work-item's exception, if one raised
            self.device.queue.flush()
            if not interrupt.wait(lambda: completed(cl, launched)):
                return reply_of(self.messages, INTERRUPTED)  # KeyboardInterrupt at the `launch`
            self.device.queue.finish()
            record = taken()
            reply = hook_reply(record) if record is not None else None
            return reply_of(self.messages, reply) if reply is not None else None  # a work-item's exception
        except KeyboardInterrupt:
            # Python's handler ran here, outside the wait: the same Ctrl-C. Escaping the callback, it
            # would leave the hook's reply undefined (ctypes returns garbage: the program crashed).
            interrupt.FLAG[0] = 0
            return reply_of(self.messages, INTERRUPTED)
        except Exception as exc:  # noqa: BLE001 - anything here must become the pyx program's error
            text = str(exc) if isinstance(exc, OpenCLError) else f"pyx: launching kernel {kernel}: {exc}"
            return reply_of(self.messages, text.removeprefix("pyx: ").encode())

    def alloc(self, nbytes):
        cl = self.cl
        try:
            flags = cl.svm_mem_flags.READ_WRITE | cl.svm_mem_flags.SVM_FINE_GRAIN_BUFFER
            allocation = cl.SVMAllocation(self.device.context, max(nbytes, 1), 64, flags)
        except Exception as exc:  # noqa: BLE001 - as malloc: a null pointer, and here the reason
            print(f"pyx: error: Ptr.alloc of {nbytes} bytes of shared virtual memory failed: {exc}", file=sys.stderr)
            return None
        address = int(allocation.svm_ptr)
        self.allocations[address] = allocation
        return address

    def free(self, address):
        self.allocations.pop(address or 0, None)


def run_on_opencl(source, program, opt: int, entry=None, key: str | None = None):
    """For `pyx run --target=opencl`: the program's hooks pointed at the OpenCL device (None when
    the program launches nothing), or False after printing why that cannot be. The SPIR-V and its
    kernels' parameters are cached beside the host program's entry (`entry`, `key`), once built."""
    import os

    from ..pipeline import optimize
    from . import cache
    from .cuda_program import uses_device
    from .opencl import OpenCLUnavailable, open_device

    if not uses_device(program):
        return None  # no launch anywhere: nothing would run on the device
    cached = entry.with_suffix(".spv") if entry is not None and key and not os.environ.get("PYX_NO_CACHE") else None
    try:
        device = open_device()
        found = cache.load(cached, key, "spirv") if cached is not None and key else None
        if found is not None:
            spirv, kernels = found[1], _decode(found[0]["kernels"])
            return ProgramOnOpenCL(program, device, spirv, kernels, key=f"{source.name}:run", probe=False)
        from ..codegen.spirv import emit_spirv
        from ..options import CompileOptions

        comp = optimize(source, CompileOptions(opt_level=opt, target="opencl"), entry=False)
        spirv = emit_spirv(comp.llvm_module, opt=opt)
        kernels = kernel_parameters(comp.ir)
        on_device = ProgramOnOpenCL(program, device, spirv, kernels, key=f"{source.name}:run")
        if cached is not None and key:  # built without crashing the runtime: worth keeping
            try:
                cache.store(cached, {"dependencies": comp.program.dependencies, "kernels": _encode(kernels)}, spirv,
                            key, "spirv")
            except OSError:
                pass  # an unwritable cache costs speed, not correctness
        return on_device
    except (OpenCLUnavailable, OpenCLError) as exc:
        print(f"pyx: error: {str(exc).removeprefix('pyx: ')}", file=sys.stderr)
        return False


_BY_NAME = {c.__name__: c for c in _CTYPES.values()}


def _encode(kernels: dict[bytes, list]) -> dict:
    return {entry.decode(): [[kind, getattr(what, "__name__", what)] for kind, what in params]
            for entry, params in kernels.items()}


def _decode(kernels: dict) -> dict[bytes, list]:
    return {entry.encode(): [(kind, _BY_NAME.get(what, what) if kind == "scalar" else what) for kind, what in params]
            for entry, params in kernels.items()}
