"""Running kernels on an NVIDIA GPU through the CUDA driver API (cuda-python's
`cuda.bindings.driver`), for modules imported with `target="cuda"` (or `"auto"` where a GPU
is there).

- The device is the first GPU, used through its primary context (which avoids
  `cuCtxCreate`, whose signature changes between CUDA majors).
- A module's PTX is compiled for the device's architecture and loaded once, with the
  driver's JIT error log in the exception when loading fails.
- A launch packs each argument from the kernel's signature (a Python int is not the
  kernel's Int32): scalars as their C type, arrays as device pointers. NumPy arrays (host
  memory) are copied to the device before the launch and back after it; objects with
  `__cuda_array_interface__` (CuPy, PyTorch CUDA tensors) are already on the device and are
  used in place.
- Every failing driver call raises `CudaError` naming the call, the kernel and the
  driver's error.
- A launch waits for its kernel asking the driver (`cuStreamQuery`), so that Ctrl-C stops the
  wait with KeyboardInterrupt naming the kernel. The kernel cannot be stopped and runs on: until
  it ends, memory freed is freed later, and an exception of one of its threads is dropped, by
  the next launch (`Device.settle`).
- `to_device(array)` gives a `DeviceBuffer` that stays on the GPU across launches, for code
  that wants to control the copies (`buffer.to_host(array)`, `buffer.free()`).

cuda-python is an optional extra (`pip install "pyx-llvm[cuda]"`); without it, or without
a driver or a device, `open_device()` raises `CudaUnavailable` saying which is missing.
"""
from __future__ import annotations

import ctypes

from . import interrupt
from .device_once import OpenedOnce

LOG_BYTES = 16384  # room for the driver's JIT error log


class CudaUnavailable(RuntimeError):
    """No way to run on a GPU here: cuda-python, the driver, or a device is missing."""


class CudaError(RuntimeError):
    """A CUDA driver call failed."""


_LOAD_DRIVER = None  # set by use_driver: where the driver module comes from instead of cuda-python


def use_driver(load=None) -> None:
    """Take the driver module from `load()` from now on (None: cuda-python's `cuda.bindings.driver`,
    the default), and forget the device opened and any failure remembered, so that the next
    open_device() starts afresh and loads its modules again. The seam a stand-in driver
    (tests/fake_cuda.py) comes in by."""
    global _LOAD_DRIVER
    _LOAD_DRIVER = load
    _OPENED.forget()


def _driver():
    if _LOAD_DRIVER is not None:
        return _LOAD_DRIVER()
    try:
        from cuda.bindings import driver
    except ImportError:
        raise CudaUnavailable("pyx: target='cuda' needs cuda-python: pip install \"pyx-llvm[cuda]\" "
                              "(or use target='cpu' or 'auto')") from None
    return driver


def _error_text(driver, result) -> str:
    try:
        _, name = driver.cuGetErrorName(result)
        _, text = driver.cuGetErrorString(result)
        return f"{name.decode()}: {text.decode()}"
    except Exception:  # noqa: BLE001 - the code is still worth showing
        return str(result)


def check(driver, call: str, outcome, kernel: str | None = None):
    """The values a driver call returned after its status; CudaError if it failed."""
    result, *values = outcome if isinstance(outcome, tuple) else (outcome,)
    if result != driver.CUresult.CUDA_SUCCESS:
        where = f" (kernel {kernel})" if kernel else ""
        raise CudaError(f"pyx: {call} failed{where}: {_error_text(driver, result)}")
    return values[0] if len(values) == 1 else tuple(values)


class Device:
    """The first GPU and its primary context."""

    def __init__(self):
        driver = _driver()
        try:
            status = driver.cuInit(0)
        except RuntimeError as exc:  # cuda.pathfinder: libcuda.so is not on this machine
            raise CudaUnavailable(f"pyx: no NVIDIA driver found (libcuda): {exc}") from None
        result = status[0] if isinstance(status, tuple) else status
        if result != driver.CUresult.CUDA_SUCCESS:
            raise CudaUnavailable(f"pyx: the CUDA driver did not start: {_error_text(driver, result)}")
        if check(driver, "cuDeviceGetCount", driver.cuDeviceGetCount()) < 1:
            raise CudaUnavailable("pyx: the CUDA driver sees no GPU")
        self.driver = driver
        self.device = check(driver, "cuDeviceGet", driver.cuDeviceGet(0))
        self.context = check(driver, "cuDevicePrimaryCtxRetain", driver.cuDevicePrimaryCtxRetain(self.device))
        check(driver, "cuCtxSetCurrent", driver.cuCtxSetCurrent(self.context))
        attribute = driver.CUdevice_attribute
        major = check(driver, "cuDeviceGetAttribute", driver.cuDeviceGetAttribute(
            attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, self.device))
        minor = check(driver, "cuDeviceGetAttribute", driver.cuDeviceGetAttribute(
            attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, self.device))
        self.arch = f"sm_{major}{minor}"
        self._modules: dict[str, object] = {}
        # Launches whose wait Ctrl-C stopped, as (kernel, stream, module), and the memory freed
        # since: their kernels may still be running (see settle).
        self.left_running: list[tuple[str, object, object]] = []
        self.freed_later: list = []
        self.interruptions = 0  # how many launches Ctrl-C stopped waiting, ever

    def leave_running(self, kernel: str, stream, module) -> None:
        """Ctrl-C stopped the wait for `kernel`, which runs on (see settle)."""
        self.left_running.append((kernel, stream, module))
        self.interruptions += 1

    def wait(self, stream) -> bool:
        """Wait for the work on `stream` (0: the default stream): False when Ctrl-C stopped the
        wait (interrupt.wait). cuCtxSynchronize would wait in C for the whole kernel, ignoring
        Ctrl-C. A failed kernel counts as done: the synchronize after the wait reports it."""
        driver, busy = self.driver, self.driver.CUresult.CUDA_ERROR_NOT_READY

        def done() -> bool:
            outcome = driver.cuStreamQuery(stream)
            return (outcome[0] if isinstance(outcome, tuple) else outcome) != busy

        return interrupt.wait(done)

    def settle(self) -> str | None:
        """Before a launch: wait for the kernels of launches that Ctrl-C stopped waiting (a kernel
        cannot be stopped), drop the exception a thread of theirs left in the module's record (it
        is not the next launch's), and free the memory freed meanwhile. None when done; the
        kernel's name when Ctrl-C stopped this wait too."""
        if not (self.left_running or self.freed_later):
            return None  # every launch's case but after Ctrl-C: nothing more to do (or import)
        from .kernel_raised import cuda_take

        while self.left_running:
            kernel, stream, module = self.left_running[0]
            if not self.wait(stream):
                return kernel
            self.left_running.pop(0)
            cuda_take(self, module)
        while self.freed_later:
            self.driver.cuMemFree(self.freed_later.pop())
        return None

    def free(self, pointer):
        """cuMemFree's outcome, or None while a kernel that Ctrl-C stopped the wait for may still
        use the memory: then the next launch frees it (settle)."""
        if self.left_running:
            self.freed_later.append(pointer)
            return None
        return self.driver.cuMemFree(pointer)

    def current(self) -> None:
        check(self.driver, "cuCtxSetCurrent", self.driver.cuCtxSetCurrent(self.context))

    def load(self, ptx: str, key: str):
        """Load PTX once per (module, key); the driver's log explains a failure."""
        module = self._modules.get(key)
        if module is None:
            self.current()
            driver, data = self.driver, ptx.encode() + b"\0"
            log = bytearray(LOG_BYTES)
            option = driver.CUjit_option
            try:
                outcome = driver.cuModuleLoadDataEx(data, 2, [option.CU_JIT_ERROR_LOG_BUFFER,
                                                              option.CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES],
                                                    [log, len(log)])
            except TypeError:  # a binding that wants the options another way: no log, still the load
                outcome, log = driver.cuModuleLoadData(data), bytearray()
            try:
                module = check(driver, "cuModuleLoadData", outcome)
            except CudaError as exc:
                text = bytes(log).split(b"\0", 1)[0].decode(errors="replace").strip()
                raise CudaError(f"{exc}\n" + (f"the driver's JIT log:\n{text}" if text else
                                f"(the PTX was compiled for {self.arch}; `pyx build --emit=ptx --gpu-arch="
                                f"{self.arch}` and `ptxas -arch={self.arch}` on it show why)")) from None
            self._modules[key] = module
        return module

    def function(self, module, name: str):
        return check(self.driver, "cuModuleGetFunction", self.driver.cuModuleGetFunction(module, name.encode()),
                     kernel=name)


_OPENED = OpenedOnce(Device, CudaUnavailable)  # a failure is remembered: `auto` asks once per process


def open_device() -> Device:
    return _OPENED.open()


def available() -> bool:
    return _OPENED.available()


class DeviceBuffer:
    """Device memory for `count` elements of a NumPy dtype, with explicit copies both ways."""

    def __init__(self, device: Device, nbytes: int, kernel: str | None = None):
        self.device = device
        self.nbytes = nbytes
        self.kernel = kernel
        self.pointer = check(device.driver, "cuMemAlloc", device.driver.cuMemAlloc(max(nbytes, 1)), kernel)

    @classmethod
    def from_host(cls, device: Device, array, kernel: str | None = None) -> DeviceBuffer:
        buffer = cls(device, array.nbytes, kernel)
        buffer.to_device(array)
        return buffer

    def to_device(self, array) -> None:
        if self.nbytes:
            check(self.device.driver, "cuMemcpyHtoD",
                  self.device.driver.cuMemcpyHtoD(self.pointer, array.ctypes.data, self.nbytes), self.kernel)

    def to_host(self, array) -> None:
        if self.nbytes:
            check(self.device.driver, "cuMemcpyDtoH",
                  self.device.driver.cuMemcpyDtoH(array.ctypes.data, self.pointer, self.nbytes), self.kernel)

    def address(self) -> int:
        return int(self.pointer)

    def free(self) -> None:
        if self.pointer is not None:
            outcome = self.device.free(self.pointer)
            if outcome is not None:
                check(self.device.driver, "cuMemFree", outcome, self.kernel)
            self.pointer = None


def to_device(array) -> DeviceBuffer:
    """A copy of a NumPy array in the GPU's memory, for launches that should not copy it each
    time: pass the buffer as the argument, and `buffer.to_host(array)` when the results are wanted."""
    import numpy as np

    return DeviceBuffer.from_host(open_device(), np.ascontiguousarray(array))


_SCALARS = {("int", 8): ctypes.c_int8, ("int", 16): ctypes.c_int16, ("int", 32): ctypes.c_int32,
            ("int", 64): ctypes.c_int64, ("uint", 8): ctypes.c_uint8, ("uint", 16): ctypes.c_uint16,
            ("uint", 32): ctypes.c_uint32, ("uint", 64): ctypes.c_uint64, ("float", 16): ctypes.c_uint16,
            ("float", 32): ctypes.c_float, ("float", 64): ctypes.c_double, ("bool", 1): ctypes.c_bool}


class CudaKernel:
    """`m.k[grid, block](args)` / `m.k[grid, block, shared_bytes, stream](args)` on the GPU."""

    def __init__(self, meta: dict, device: Device, module, cpu_kernel):
        self.__name__ = meta["name"]
        self.__doc__ = cpu_kernel.__doc__
        self._meta = meta
        self._device = device
        self._function = device.function(module, meta["entry"])
        self._module = module
        self._cpu = cpu_kernel  # argument checking and conversion are the CPU path's
        from .bridge import Converter, launch_config
        from .kernel_raised import cuda_take, exception

        # What every launch needs, looked up once (a launch's own cost counts for short kernels):
        # each parameter's converter, the configuration check, the record's reader.
        self._converters = [Converter(p["type"], {}) if p["type"]["kind"] in ("scalar", "ptr") else None
                            for p in meta["params"]]
        self._config, self._take, self._exception = launch_config, cuda_take, exception

    def __repr__(self) -> str:
        return f"<pyx kernel {self._meta['signature']} on {self._device.arch}>"

    def __call__(self, *args, **kwargs):
        raise TypeError(f"{self.__name__} is a kernel: launch it with {self.__name__}[grid, block](...)")

    def __getitem__(self, config):
        grid, block, shared, stream = self._config(self.__name__, config)
        return lambda *args: self._launch(grid, block, shared, stream or 0, args)

    def _launch(self, grid, block, shared, stream, args) -> None:
        params = self._meta["params"]
        if len(args) != len(params):
            raise TypeError(f"{self.__name__}() takes {len(params)} arguments, {len(args)} given")
        device, name = self._device, self.__name__
        device.current()
        waiting = device.settle()
        if waiting is not None:
            raise interrupt.launch_interrupted(waiting, f"the GPU ({device.arch})")
        values: list = []
        copies: list = []
        try:
            for p, converter, value in zip(params, self._converters, args, strict=True):
                values.append(self._argument(p, converter, value, copies))
            pointers = (ctypes.c_void_p * len(values))(*[ctypes.addressof(v) for v in values])
            driver = device.driver
            check(driver, "cuLaunchKernel", driver.cuLaunchKernel(
                self._function, *grid, *block, shared, stream, ctypes.addressof(pointers), 0), name)
            if not device.wait(stream):  # Ctrl-C: the kernel runs on, the arrays are left as they are
                device.leave_running(name, stream, self._module)
                raise interrupt.launch_interrupted(name, f"the GPU ({device.arch})")
            check(driver, "cuCtxSynchronize", driver.cuCtxSynchronize(), name)
            for host, buffer in copies:
                buffer.to_host(host)
            record = self._take(device, self._module)  # a thread's exception, if one raised
        finally:
            for _, buffer in copies:
                buffer.free()
        raised = self._exception(record) if record is not None else None
        if raised is not None:
            raise raised

    def _argument(self, param: dict, converter, value, copies: list):
        desc = param["type"]
        if desc["kind"] == "ptr":
            if isinstance(value, DeviceBuffer):  # the caller manages its copies
                return ctypes.c_void_p(value.address())
            interface = getattr(value, "__cuda_array_interface__", None)
            if interface is not None:  # already on this GPU: in place
                return ctypes.c_void_p(interface["data"][0])
            if value is None:
                return ctypes.c_void_p(0)
            import numpy as np

            array = np.asarray(value)
            expected = converter.dtype
            if str(array.dtype) != expected:
                raise TypeError(f"{self.__name__}() argument '{param['name']}' must be "
                                f"{desc.get('name', 'a pointer')}: expected an array of {expected}, got {array.dtype}")
            if not array.flags.c_contiguous:
                raise TypeError(f"{self.__name__}() argument '{param['name']}' must be contiguous "
                                "(pass numpy.ascontiguousarray(...))")
            buffer = DeviceBuffer.from_host(self._device, array, self.__name__)
            copies.append((array, buffer))
            return ctypes.c_void_p(buffer.address())
        if desc["kind"] != "scalar":
            raise TypeError(f"{self.__name__}() argument '{param['name']}': {desc['kind']} arguments are not "
                            "supported by the cuda target yet")
        return _SCALARS[(desc["class"], desc["bits"])](converter._scalar(value, self.__name__, param["name"]))
