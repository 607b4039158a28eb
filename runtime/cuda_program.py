"""A whole pyx program on the GPU: `pyx run --target=cuda`.

The host code (`main` and what it calls) runs on the CPU as usual; its `launch` statements
start the kernels' PTX entries on the device, and `Ptr.alloc`/`free` hand out CUDA managed
memory, which the host code and the kernels address with the same pointers. Nothing else in
the program changes: the compiled host code reaches this module through three hooks
(lang/codegen/device_hooks.py) that are set here before `main` runs.

A launch waits for its kernel (on its stream, or the whole context for stream 0), as on the
CPU target, so the host may read the results on the next line. A failing launch raises
`RuntimeError` in the pyx program, with the driver's error and the kernel's name.
"""
from __future__ import annotations

import ctypes
import sys

from ..codegen.abi import ALLOC_HOOK, FREE_HOOK, LAUNCH_HOOK
from .cuda import CudaError, Device, check

LAUNCH = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_void_p, *[ctypes.c_int64] * 8)
ALLOC = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_int64)
FREE = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


def uses_device(program) -> bool:
    """Whether the program launches kernels (only then is there anything to do on a GPU)."""
    return bool(program.global_address(LAUNCH_HOOK))


class ProgramOnDevice:
    """The hooks of one loaded program, pointed at `device` with the program's PTX loaded."""

    def __init__(self, program, device: Device, ptx: str, key: str):
        self.device = device
        self.driver = device.driver
        self.module = device.load(ptx, key)
        self.functions: dict[bytes, object] = {}
        self.allocations: dict[int, object] = {}
        self.messages: list[ctypes.Array] = []  # raised messages stay alive for the program
        self.program = program
        # The callbacks must outlive every call the program makes through them.
        self.callbacks = [LAUNCH(self.launch), ALLOC(self.alloc), FREE(self.free)]
        for name, callback in zip((LAUNCH_HOOK, ALLOC_HOOK, FREE_HOOK), self.callbacks):
            address = program.global_address(name)
            if address:
                ctypes.c_void_p.from_address(address).value = ctypes.cast(callback, ctypes.c_void_p).value

    def detach(self) -> None:
        """Back to the CPU paths, and give back any managed memory the program did not free."""
        for name in (LAUNCH_HOOK, ALLOC_HOOK, FREE_HOOK):
            address = self.program.global_address(name)
            if address:
                ctypes.c_void_p.from_address(address).value = None
        for pointer in list(self.allocations.values()):
            self.driver.cuMemFree(pointer)
        self.allocations.clear()

    def function(self, entry: bytes):
        found = self.functions.get(entry)
        if found is None:
            found = self.functions[entry] = self.device.function(self.module, entry.decode())
        return found

    def launch(self, entry, name, params, gx, gy, gz, bx, by, bz, shared, stream):
        kernel = name.decode(errors="replace")
        try:
            driver = self.driver
            self.device.current()
            check(driver, "cuLaunchKernel", driver.cuLaunchKernel(
                self.function(entry), gx, gy, gz, bx, by, bz, shared, stream, params or 0, 0), kernel)
            if stream:
                check(driver, "cuStreamSynchronize", driver.cuStreamSynchronize(stream), kernel)
            else:
                check(driver, "cuCtxSynchronize", driver.cuCtxSynchronize(), kernel)
            return None
        except Exception as exc:  # noqa: BLE001 - anything here must become the pyx program's error
            text = str(exc) if isinstance(exc, CudaError) else f"pyx: launching kernel {kernel}: {exc!r}"
            message = ctypes.create_string_buffer(text.removeprefix("pyx: ").encode())
            self.messages.append(message)
            return ctypes.addressof(message)

    def alloc(self, nbytes):
        try:
            self.device.current()
            flags = getattr(getattr(self.driver, "CUmemAttach_flags", None), "CU_MEM_ATTACH_GLOBAL", 1)
            pointer = check(self.driver, "cuMemAllocManaged", self.driver.cuMemAllocManaged(max(nbytes, 1), flags))
        except Exception as exc:  # noqa: BLE001 - as malloc: a null pointer, and here the reason
            print(f"pyx: error: Ptr.alloc of {nbytes} bytes of managed memory failed: {exc}", file=sys.stderr)
            return None
        address = int(pointer)
        self.allocations[address] = pointer
        return address

    def free(self, address):
        pointer = self.allocations.pop(address or 0, None)
        if pointer is not None:
            self.driver.cuMemFree(pointer)

