"""A stand-in for `cuda.bindings.driver` whose "device memory" is host memory and whose
launch runs SAXPY in Python: enough to check the CUDA runtime's own logic (the PTX handed
to the driver, the kernel looked up, the argument packing, copies, frees) on machines
without a GPU. Real GPU runs are in tests/interop/test_cuda_target.py (marked gpu).

A long kernel: after `hold(seconds)`, each launch runs on for that long, or until `release()`:
cuStreamQuery says CUDA_ERROR_NOT_READY meanwhile, and cuCtxSynchronize/cuStreamSynchronize
wait for its end with SIGINT blocked, as a driver waits in C, deaf to Ctrl-C."""
import ctypes
import enum
import signal
import threading
import time

# A pyx kernel with SAXPY's parameters, for tests whose launches the stand-in runs (its launch
# computes SAXPY over the first four); math.exp may raise, so its module has the status record a
# raising thread writes (codegen/kernel_raised.py).
SAXPY_KERNEL = """import math


@kernel
fn saxpy(a: Float32, x: Ptr[Float32], y: Ptr[Float32], n: Int):
    var i = global_idx.x
    if i < n:
        y[i] = a * math.exp(x[i]) + y[i]
"""


class FakeDriver:
    class CUresult(enum.IntEnum):
        CUDA_SUCCESS = 0
        CUDA_ERROR_INVALID_VALUE = 1
        CUDA_ERROR_NOT_FOUND = 500
        CUDA_ERROR_NOT_READY = 600

    class CUjit_option(enum.IntEnum):
        CU_JIT_ERROR_LOG_BUFFER = 5
        CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6

    class CUdevice_attribute(enum.IntEnum):
        CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75
        CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76

    def __init__(self):
        self.calls, self.memory, self.ptx, self.reject = [], {}, None, False
        # A module's kernel status record (__pyx_kernel_raised), when its PTX has one, and what a
        # launch writes there (`raises`: the record of a thread that raised).
        self.record, self.raises = None, None
        ok = self.CUresult.CUDA_SUCCESS
        self.ok = ok
        self.held_for, self.ends, self.launched, self.released = None, None, threading.Event(), threading.Event()

    def hold(self, seconds: float) -> None:
        """Each launch from now on runs on for `seconds`, or until release(); `launched` is set by
        the next launch."""
        self.held_for = seconds
        self.launched.clear()

    def release(self) -> None:
        """The kernel running on ends now (and later launches end at once)."""
        self.held_for = None
        self.released.set()

    def running(self) -> bool:
        return self.ends is not None and not self.released.is_set() and time.monotonic() < self.ends

    def _wait_for_kernel(self) -> None:
        if not self.running():
            return
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            self.released.wait(max(self.ends - time.monotonic(), 0.0))
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})

    def cuInit(self, flags):
        return (self.ok,)

    def cuDeviceGetCount(self):
        return self.ok, 1

    def cuDeviceGet(self, ordinal):
        return self.ok, 0

    def cuDevicePrimaryCtxRetain(self, device):
        return self.ok, "ctx"

    def cuCtxSetCurrent(self, ctx):
        return (self.ok,)

    def cuDeviceGetAttribute(self, attribute, device):
        return self.ok, 9 if attribute == self.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR else 0

    def cuModuleLoadData(self, data):
        self.ptx = data
        return self.ok, "module"

    def cuModuleLoadDataEx(self, data, count, options, values):
        assert count == 2 and options == [self.CUjit_option.CU_JIT_ERROR_LOG_BUFFER,
                                          self.CUjit_option.CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES]
        self.ptx = data
        if self.reject:
            message = b"ptxas application ptx input, line 12; error: the stand-in says no"
            values[0][:len(message)] = message
            return FakeDriver.CUresult.CUDA_ERROR_INVALID_VALUE, None
        return self.ok, "module"

    def cuModuleGetFunction(self, module, name):
        self.calls.append(("function", name))
        return self.ok, name

    def cuModuleGetGlobal(self, module, name):
        self.calls.append(("global", name))
        text = self.ptx.decode() if isinstance(self.ptx, bytes) else str(self.ptx)
        if f".visible .global .align 4 .b8 {name.decode()}[" not in text:
            return self.CUresult.CUDA_ERROR_NOT_FOUND, None, 0
        if self.record is None:
            size = int(text.split(f" {name.decode()}[", 1)[1].split("]", 1)[0])
            self.record = ctypes.create_string_buffer(size)
        return self.ok, ctypes.addressof(self.record), len(self.record)

    def cuMemAlloc(self, nbytes):
        block = ctypes.create_string_buffer(nbytes)
        self.memory[ctypes.addressof(block)] = block
        return self.ok, ctypes.addressof(block)

    def cuMemAllocManaged(self, nbytes, flags):
        assert flags == 1  # CU_MEM_ATTACH_GLOBAL: the host and every stream may touch it
        self.calls.append(("managed", nbytes))
        return self.cuMemAlloc(nbytes)

    def cuMemcpyHtoD(self, dst, src, nbytes):
        ctypes.memmove(dst, src, nbytes)
        self.calls.append(("to device", nbytes))
        return (self.ok,)

    def cuMemcpyDtoH(self, dst, src, nbytes):
        ctypes.memmove(dst, src, nbytes)
        self.calls.append(("to host", nbytes))
        return (self.ok,)

    def cuMemFree(self, pointer):
        del self.memory[pointer]
        return (self.ok,)

    def cuLaunchKernel(self, f, gx, gy, gz, bx, by, bz, shared, stream, params, extra):
        self.calls.append(("launch", f, (gx, gy, gz), (bx, by, bz), shared) + ((stream,) if stream else ()))
        slots = ctypes.cast(params, ctypes.POINTER(ctypes.c_void_p))
        a = ctypes.cast(slots[0], ctypes.POINTER(ctypes.c_float))[0]
        x = ctypes.cast(ctypes.cast(slots[1], ctypes.POINTER(ctypes.c_void_p))[0], ctypes.POINTER(ctypes.c_float))
        y = ctypes.cast(ctypes.cast(slots[2], ctypes.POINTER(ctypes.c_void_p))[0], ctypes.POINTER(ctypes.c_float))
        n = ctypes.cast(slots[3], ctypes.POINTER(ctypes.c_int64))[0]
        for i in range(min(n, gx * bx)):
            y[i] = a * x[i] + y[i]
        if self.raises is not None:  # a thread raised: the kernel wrote the module's record
            if self.record is None:
                self.record = ctypes.create_string_buffer(len(self.raises))
            ctypes.memmove(self.record, self.raises, len(self.raises))
        if self.held_for is not None:
            self.ends = time.monotonic() + self.held_for
            self.released.clear()
        self.launched.set()
        return (self.ok,)

    def cuStreamQuery(self, stream):
        return (self.CUresult.CUDA_ERROR_NOT_READY if self.running() else self.ok,)

    def cuCtxSynchronize(self):
        self._wait_for_kernel()
        return (self.ok,)

    def cuStreamSynchronize(self, stream):
        self.calls.append(("sync", stream))
        self._wait_for_kernel()
        return (self.ok,)

    def cuGetErrorName(self, result):
        return self.ok, b"CUDA_ERROR_INVALID_VALUE"

    def cuGetErrorString(self, result):
        return self.ok, b"invalid argument"

