"""A whole pyx program on the GPU: `pyx run --target=cuda`.

The host code (`main` and what it calls) runs on the CPU as usual; its `launch` statements
start the kernels' PTX entries on the device, and `Ptr.alloc`/`free` hand out CUDA managed
memory, which the host code and the kernels address with the same pointers. Nothing else in
the program changes: the compiled host code reaches this module through three hooks
(lang/codegen/device_hooks.py) that are set here before `main` runs.

The same hooks serve a module imported with `target="cuda"`: a pyx function that launches
kernels is called through `HostFunctionOnDevice`, which copies the NumPy arrays it is given
into managed memory for the call and back after it, since the GPU cannot read the arrays'
own (pageable host) memory.

A launch waits for its kernel (on its stream, or the whole context for stream 0), as on the
CPU target, so the host may read the results on the next line; Ctrl-C stops the wait, and the
program raises KeyboardInterrupt at the `launch` (runtime/cuda.py: Device.wait, settle). A
failing launch raises `RuntimeError` in the pyx program, with the driver's error and the
kernel's name; a thread that raised makes the launch raise its exception
(runtime/kernel_raised.py).
"""
from __future__ import annotations

import ctypes
import sys

from ..codegen.abi import ALLOC_HOOK, FREE_HOOK, LAUNCH_HOOK
from ..codegen.kernel_raised import REPLY_MARK
from . import interrupt
from .cuda import CudaError, Device, check
from .kernel_raised import cuda_take, hook_reply

LAUNCH = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_void_p, *[ctypes.c_int64] * 8)
ALLOC = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_int64)
FREE = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


# The launch hook's reply when Ctrl-C stopped the wait for a kernel: the program raises
# KeyboardInterrupt at its `launch` (codegen/kernel_raised.py reads the replies).
INTERRUPTED = b"\0".join([bytes([REPLY_MARK]), b"KeyboardInterrupt", b""]) + b"\0\0"


def reply_of(messages: list, reply: bytes) -> int:
    """The launch hook's reply (an error's text, or codegen/kernel_raised.py's form of an
    exception), kept alive in `messages` for the program, which reads it after the hook returns."""
    message = ctypes.create_string_buffer(reply)  # (NUL-terminated)
    messages.append(message)
    return ctypes.addressof(message)


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
        for name, callback in zip((LAUNCH_HOOK, ALLOC_HOOK, FREE_HOOK), self.callbacks, strict=True):
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
            self.device.free(pointer)
        self.allocations.clear()

    def function(self, entry: bytes):
        found = self.functions.get(entry)
        if found is None:
            found = self.functions[entry] = self.device.function(self.module, entry.decode())
        return found

    def launch(self, entry, name, params, gx, gy, gz, bx, by, bz, shared, stream):
        kernel = name.decode(errors="replace")
        try:
            driver, device = self.driver, self.device
            device.current()
            if device.settle() is not None:  # Ctrl-C while an earlier kernel ran on
                return reply_of(self.messages, INTERRUPTED)
            check(driver, "cuLaunchKernel", driver.cuLaunchKernel(
                self.function(entry), gx, gy, gz, bx, by, bz, shared, stream, params or 0, 0), kernel)
            if not device.wait(stream):  # Ctrl-C: KeyboardInterrupt at the `launch`; the kernel runs on
                device.leave_running(kernel, stream, self.module)
                return reply_of(self.messages, INTERRUPTED)
            if stream:
                check(driver, "cuStreamSynchronize", driver.cuStreamSynchronize(stream), kernel)
            else:
                check(driver, "cuCtxSynchronize", driver.cuCtxSynchronize(), kernel)
            record = cuda_take(self.device, self.module)
            reply = hook_reply(record) if record is not None else None
            return reply_of(self.messages, reply) if reply is not None else None  # a thread's exception
        except KeyboardInterrupt:
            # Python's handler ran here, outside the wait: the same Ctrl-C. Escaping the callback, it
            # would leave the hook's reply undefined (ctypes returns garbage: the program crashed).
            interrupt.FLAG[0] = 0
            return reply_of(self.messages, INTERRUPTED)
        except Exception as exc:  # noqa: BLE001 - anything here must become the pyx program's error
            text = str(exc) if isinstance(exc, CudaError) else f"pyx: launching kernel {kernel}: {exc!r}"
            return reply_of(self.messages, text.removeprefix("pyx: ").encode())

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

    def managed_copy(self, array):
        """A NumPy array of the same shape and dtype in managed memory, holding a copy of `array`
        (None if the allocation failed; the reason was printed)."""
        import numpy as np

        address = self.alloc(array.nbytes)
        if address is None:
            return None
        raw = (ctypes.c_ubyte * array.nbytes).from_address(address)
        copy = np.frombuffer(raw, dtype=array.dtype, count=array.size).reshape(array.shape)
        copy[...] = array
        return copy

    def free(self, address):
        pointer = self.allocations.pop(address or 0, None)
        if pointer is not None:
            self.device.free(pointer)



class HostFunctionOnDevice:
    """A pyx function that launches kernels, called from Python on a `target="cuda"` module:
    C-contiguous NumPy arguments travel in managed memory for the call, and come back."""

    def __init__(self, function, on_device: ProgramOnDevice):
        self._function, self._device = function, on_device
        self.__name__ = getattr(function, "__name__", "function")
        self.__doc__ = function.__doc__
        self.__wrapped__ = function  # inspect.signature and help() show the pyx signature

    def __repr__(self) -> str:
        return f"<pyx function {self.__name__} launching on {self._device.device.arch}>"

    def __call__(self, *args, **kwargs):
        staged: list = []
        interruptions = self._device.device.interruptions
        try:
            args = [self._stage(a, staged) for a in args]
            kwargs = {k: self._stage(v, staged) for k, v in kwargs.items()}
            return self._function(*args, **kwargs)
        finally:
            # After Ctrl-C stopped a launch's wait, its kernel may still write the copies: they
            # are not copied back (nor freed before it ends: ProgramOnDevice.free).
            back = self._device.device.interruptions == interruptions
            for original, copy in staged:
                if original.flags.writeable and back:
                    original[...] = copy
                self._device.free(copy.ctypes.data)

    def _stage(self, value, staged: list):
        np = sys.modules.get("numpy")
        if np is None or not isinstance(value, np.ndarray) or not value.flags.c_contiguous:
            return value  # scalars pass as they are; anything odd gets the function's own error
        copy = self._device.managed_copy(value)
        if copy is None:
            raise MemoryError(f"{self.__name__}(): no managed memory for a {value.nbytes}-byte array")
        staged.append((value, copy))
        return copy
