"""Running kernels on any OpenCL device through pyopencl, for modules imported with
`target="opencl"` (and `pyx run --target=opencl`, runtime/opencl_program.py).

- The module's kernels are compiled to SPIR-V (lang/codegen/spirv.py) and loaded with
  `clCreateProgramWithIL`, so the device's runtime must take SPIR-V 1.3 (OpenCL 2.1 or later,
  or 3.0 with the IL feature): Intel's OpenCL runtimes (the CPU one installs from PyPI as
  `intel-opencl-rt`), AMD's ROCm, recent PoCL builds with SPIR-V support. Kernels that use
  warp operations ask for sub-groups of 32 lanes.
- The device: `PYX_OPENCL_DEVICE=P:D` picks platform P's device D (the numbers `clinfo -l`
  prints); otherwise the first device, over all platforms, whose runtime takes SPIR-V.
- A launch `m.k[grid, block](args)` runs grid x block work-items in work-groups of `block`
  (OpenCL's global size is grid * block in each dimension). Each NumPy array is copied into a
  device buffer before the launch and back after it, as on the cuda target; scalars are passed
  as the kernel's C type. The launch waits for the kernel to finish; Ctrl-C stops the wait with
  KeyboardInterrupt (the kernel runs on to its end, and its arrays are not copied back).
- Every failing OpenCL call raises `OpenCLError` naming the kernel and the runtime's error
  (and the build log when the program does not build).

pyopencl is an optional extra (`pip install "pyx-llvm[opencl]"`); without it, or without a
runtime that takes SPIR-V, `open_device()` raises `OpenCLUnavailable` saying which is missing.
"""
from __future__ import annotations

import os
import warnings
from pathlib import Path

from . import interrupt
from .device_once import OpenedOnce
from .kernel_raised import exception, opencl_take


class OpenCLUnavailable(RuntimeError):
    """No way to run SPIR-V kernels here: pyopencl, an OpenCL runtime, or a device taking SPIR-V is missing."""


class OpenCLError(RuntimeError):
    """An OpenCL call failed."""



def intel_cpu_runtime() -> str | None:
    """Intel's OpenCL CPU runtime where pip installed it into this Python (`intel-opencl-rt`):
    the library, whose own ICD file names a path that does not exist."""
    import sys

    library = os.path.join(sys.prefix, "lib", "libintelocl.so")
    return library if os.path.isfile(library) else None


def _use_intel_cpu_runtime() -> None:
    """Point the OpenCL ICD loader at Intel's pip-installed CPU runtime, unless OCL_ICD_VENDORS
    already says where runtimes are. Only that one: loaded beside Debian's PoCL in one process,
    the loader found no platform at all. Must run before the loader's first call."""
    library = intel_cpu_runtime()
    if library is None or os.environ.get("OCL_ICD_VENDORS"):
        return
    from .cache import read_trusted, user_cache_dir, write_atomic

    icd = user_cache_dir() / "opencl" / "intel-cpu.icd"
    if read_trusted(icd) != (library + "\n").encode():
        write_atomic(icd, (library + "\n").encode())
    os.environ["OCL_ICD_VENDORS"] = str(icd)


def _cl():
    _use_intel_cpu_runtime()
    try:
        import pyopencl
    except ImportError:
        raise OpenCLUnavailable("pyx: target='opencl' needs pyopencl: pip install \"pyx-llvm[opencl]\" "
                                "(and an OpenCL runtime that takes SPIR-V, such as intel-opencl-rt)") from None
    return pyopencl


def takes_spirv(device) -> bool:
    try:
        return "SPIR-V" in (device.il_version or "")
    except Exception:  # noqa: BLE001 - an OpenCL 1.2 runtime has no CL_DEVICE_IL_VERSION
        return False


def _choose(cl):
    try:
        platforms = cl.get_platforms()
    except cl.Error as exc:  # no ICD installed: the loader finds no platform
        raise OpenCLUnavailable(f"pyx: no OpenCL platform found ({exc})") from None
    wanted = os.environ.get("PYX_OPENCL_DEVICE")
    if wanted:
        p, _, d = wanted.partition(":")
        try:
            return platforms[int(p)].get_devices()[int(d or 0)]
        except (ValueError, IndexError, cl.Error):
            raise OpenCLUnavailable(f"pyx: PYX_OPENCL_DEVICE={wanted} names no OpenCL device "
                                    "(platform:device, as `clinfo -l` numbers them)") from None
    seen = []
    for platform in platforms:
        try:
            devices = platform.get_devices()
        except cl.Error:
            continue
        for device in devices:
            if takes_spirv(device):
                return device
            seen.append((device, f"{device.name.strip()} ({platform.name.strip()})"))
    if seen and translator() is not None:
        return seen[0][0]  # takes SPIR bitcode, which llvm-spirv makes of the SPIR-V
    names = ", ".join(name for _, name in seen)
    raise OpenCLUnavailable("pyx: no OpenCL device takes SPIR-V" + (
        f" (found: {names}; for these, install llvm-spirv and spirv-tools)" if seen else " (no OpenCL device found)"))


# Khronos' SPIR-V/LLVM translator, newest first (Debian packages one per LLVM version).
TRANSLATORS = ("llvm-spirv", "llvm-spirv-15", "llvm-spirv-14")


def translator() -> list[str] | None:
    """The commands that turn SPIR-V into SPIR bitcode: llvm-spirv, and spirv-tools' assembler
    and disassembler (to rewrite what the older translators reject); None if one is missing."""
    import shutil

    found = next((shutil.which(t) for t in TRANSLATORS if shutil.which(t)), None)
    tools = [found, shutil.which("spirv-dis"), shutil.which("spirv-as")]
    return None if None in tools else tools  # type: ignore[return-value]


def spir_binary(spirv: bytes) -> bytes:
    """SPIR 1.2 bitcode of a SPIR-V module, for OpenCL runtimes that load bitcode but not SPIR-V.
    The translators Debian packages (llvm-spirv 14 and 15) assert on a scalar `OpConstantNull`,
    which LLVM 22 emits for zeros: those become `OpConstant 0` (`OpConstantFalse`) first."""
    import re
    import tempfile

    tools = translator()
    if tools is None:
        raise OpenCLError(f"pyx: this OpenCL runtime takes no SPIR-V, and {' or '.join(TRANSLATORS)}, spirv-dis "
                          "and spirv-as (to make SPIR bitcode of it) are not all installed")
    llvm_spirv, spirv_dis, spirv_as = tools
    with tempfile.TemporaryDirectory(prefix="pyx-spir-") as tmp:
        folder = Path(tmp)
        (folder / "in.spv").write_bytes(spirv)
        text = _run([spirv_dis, "--raw-id", str(folder / "in.spv")]).decode()
        scalars = dict(re.findall(r"^\s*(%\S+) = OpType(Int|Float|Bool)\b", text, re.M))

        def scalar_zero(m):
            kind = scalars.get(m.group(2))
            if kind is None:
                return m.group(0)
            return f"{m.group(1)} = " + (f"OpConstantFalse {m.group(2)}" if kind == "Bool" else
                                         f"OpConstant {m.group(2)} 0")
        (folder / "fixed.spvasm").write_text(re.sub(r"(%\S+) = OpConstantNull (%\S+)", scalar_zero, text))
        _run([spirv_as, "--target-env", "spv1.3", str(folder / "fixed.spvasm"), "-o", str(folder / "fixed.spv")])
        _run([llvm_spirv, "-r", str(folder / "fixed.spv"), "-o", str(folder / "out.bc")])
        return (folder / "out.bc").read_bytes()


def _run(argv: list[str]) -> bytes:
    import subprocess

    done = subprocess.run(argv, capture_output=True)
    if done.returncode != 0:
        detail = done.stderr.decode(errors="replace").strip().splitlines()
        raise OpenCLError(f"pyx: {Path(argv[0]).name} failed making SPIR bitcode: "
                          f"{detail[0] if detail else f'status {done.returncode}'}")
    return done.stdout


class Device:
    """One OpenCL device, its context and an in-order queue."""

    def __init__(self):
        cl = _cl()
        self.cl = cl
        self.device = _choose(cl)
        self.context = cl.Context([self.device])
        self.queue = cl.CommandQueue(self.context)
        self.name = f"{self.device.name.strip()} ({self.device.platform.name.strip()})"
        self._programs: dict[str, object] = {}

    def load(self, spirv: bytes, key: str, probe: bool = False):
        """Build a SPIR-V module once per key; the runtime's build log explains a failure. A runtime
        that takes no SPIR-V (Oclgrind, Debian's PoCL) gets it as SPIR 1.2 bitcode (`spir_binary`).
        `probe`: build it in a child process first (`crashes_building`), for SPIR-V this runtime has
        not built before."""
        program = self._programs.get(key)
        if program is None:
            if probe:
                crash = crashes_building(spirv)
                if crash is not None:
                    raise OpenCLError(f"pyx: the OpenCL runtime of {self.name} crashed building the kernels of "
                                      f"{key} ({crash}), a bug in that runtime's compiler: try another device "
                                      "(PYX_OPENCL_DEVICE) or the cpu target")
            cl = self.cl
            try:
                with warnings.catch_warnings():  # the runtime's build chatter (a failure raises, with its log)
                    warnings.simplefilter("ignore", cl.CompilerWarning)
                    if takes_spirv(self.device):
                        program = cl.Program(self.context, spirv).build()
                    else:
                        program = cl.Program(self.context, [self.device], [spir_binary(spirv)])
                        program = program.build(options="-x spir -spir-std=1.2")
            except cl.Error as exc:
                raise OpenCLError(f"pyx: the OpenCL runtime did not build the SPIR-V of {key}: {exc}") from None
            self._programs[key] = program
        return program


def crashes_building(spirv: bytes) -> str | None:
    """How building `spirv` on this process's device kills a child process (None if it does not).
    Intel's CPU runtime 2026.2 segfaults in its own compiler (pass `sycl-kernel-wg-loop-bound`) on
    some valid modules (two of tests/golden/memcheck.px's kernels, in one order only): found in a
    child, that is an error here instead of the end of the user's process."""
    import subprocess
    import sys
    import tempfile

    code = ("import sys\nfrom pyx.runtime import opencl\n"
            "try:\n    opencl.open_device().load(open(sys.argv[1], 'rb').read(), 'probe')\n"
            "except opencl.OpenCLError:\n    pass  # an ordinary failure: the real build reports it\n")
    with tempfile.TemporaryDirectory(prefix="pyx-probe-") as tmp:
        module = Path(tmp) / "kernels.spv"
        module.write_bytes(spirv)
        done = subprocess.run([sys.executable, "-c", code, str(module)], capture_output=True, timeout=600)
    if done.returncode == 0:
        return None
    import signal

    if done.returncode < 0:
        return f"{signal.Signals(-done.returncode).name}"
    last = done.stderr.decode(errors="replace").strip().splitlines()
    return f"exit status {done.returncode}" + (f": {last[-1]}" if last else "")


_OPENED = OpenedOnce(Device, OpenCLUnavailable)  # a failure is remembered: asked once per process


def open_device() -> Device:
    return _OPENED.open()


def available() -> bool:
    return _OPENED.available()


_DTYPES = {("int", 8): "int8", ("int", 16): "int16", ("int", 32): "int32", ("int", 64): "int64",
           ("uint", 8): "uint8", ("uint", 16): "uint16", ("uint", 32): "uint32", ("uint", 64): "uint64",
           ("float", 16): "float16", ("float", 32): "float32", ("float", 64): "float64", ("bool", 1): "bool"}


class OpenCLKernel:
    """`m.k[grid, block](args)` on the OpenCL device."""

    def __init__(self, meta: dict, device: Device, program, cpu_kernel):
        self.__name__ = meta["name"]
        self.__doc__ = cpu_kernel.__doc__
        self._meta = meta
        self._device = device
        self._program = program
        try:
            self._kernel = device.cl.Kernel(program, meta["entry"])
        except device.cl.Error as exc:
            raise OpenCLError(f"pyx: kernel {meta['name']} is not in the SPIR-V module: {exc}") from None

    def __repr__(self) -> str:
        return f"<pyx kernel {self._meta['signature']} on {self._device.name}>"

    def __call__(self, *args, **kwargs):
        raise TypeError(f"{self.__name__} is a kernel: launch it with {self.__name__}[grid, block](...)")

    def __getitem__(self, config):
        from .bridge import launch_config

        grid, block, shared, stream = launch_config(self.__name__, config)
        if shared:
            raise ValueError(f"{self.__name__}[...]: the opencl target has no dynamic shared memory "
                             "(shared_bytes must be 0)")
        if stream is not None:
            raise TypeError(f"{self.__name__}[...]: streams need the cuda target")
        return lambda *args: self._launch(grid, block, args)

    def _launch(self, grid, block, args) -> None:
        params = self._meta["params"]
        if len(args) != len(params):
            raise TypeError(f"{self.__name__}() takes {len(params)} arguments, {len(args)} given")
        device, cl = self._device, self._device.cl
        copies: list = []
        values = [self._argument(p, value, copies) for p, value in zip(params, args, strict=True)]
        size = tuple(g * b for g, b in zip(grid, block, strict=True))
        try:
            launched = self._kernel(device.queue, size, tuple(block), *values)
            taken = opencl_take(device, self._program)  # a work-item's exception, if one raised
            device.queue.flush()
            if not interrupt.wait(lambda: completed(cl, launched)):  # Ctrl-C: the arrays are left as they are
                raise interrupt.launch_interrupted(self.__name__, device.name)
            for host, buffer in copies:
                cl.enqueue_copy(device.queue, host, buffer)
            device.queue.finish()
            record = taken()
        except cl.Error as exc:
            raise OpenCLError(f"pyx: launching kernel {self.__name__} failed: {exc}") from None
        finally:
            for _, buffer in copies:
                buffer.release()  # (the runtime keeps it until a kernel still running on it ends)
        raised = exception(record) if record is not None else None
        if raised is not None:
            raise raised

    def _argument(self, param: dict, value, copies: list):
        import numpy as np

        desc, cl = param["type"], self._device.cl
        if desc["kind"] == "ptr":
            if value is None:
                return None
            if isinstance(value, cl.Buffer):  # the caller manages its copies
                return value
            array = np.asarray(value)
            expected = self._cpu_dtype(param)
            if str(array.dtype) != expected:
                raise TypeError(f"{self.__name__}() argument '{param['name']}' must be "
                                f"{desc.get('name', 'a pointer')}: expected an array of {expected}, got {array.dtype}")
            if not array.flags.c_contiguous:
                raise TypeError(f"{self.__name__}() argument '{param['name']}' must be contiguous "
                                "(pass numpy.ascontiguousarray(...))")
            flags = cl.mem_flags.READ_WRITE | (cl.mem_flags.COPY_HOST_PTR if array.nbytes else 0)
            buffer = cl.Buffer(self._device.context, flags, size=max(array.nbytes, 1),
                               hostbuf=array if array.nbytes else None)
            copies.append((array, buffer))
            return buffer
        if desc["kind"] != "scalar":
            raise TypeError(f"{self.__name__}() argument '{param['name']}': {desc['kind']} arguments are not "
                            "supported by the opencl target yet")
        from .bridge import Converter

        raw = Converter(desc, {})._scalar(value, self.__name__, param["name"])
        if (desc["class"], desc["bits"]) == ("float", 16):
            return np.uint16(raw)  # the half's bits, as the converter gives them
        return np.dtype(_DTYPES[(desc["class"], desc["bits"])]).type(raw)

    @staticmethod
    def _cpu_dtype(param: dict) -> str | None:
        from .bridge import Converter

        return Converter(param["type"], {}).dtype


def completed(cl, event) -> bool:
    """Whether an enqueued command is done (or failed: the queue's finish() reports it)."""
    status = event.command_execution_status
    return status == cl.command_execution_status.COMPLETE or status < 0


def device_spirv(source, opt_level: int = 3):
    """The SPIR-V of a .px file's kernels (and what they call), and its compilation."""
    from pathlib import Path

    from ..codegen.spirv import emit_spirv
    from ..options import CompileOptions
    from ..pipeline import optimize
    from ..source import SourceFile

    path = Path(source)
    comp = optimize(SourceFile(str(path), path.read_text(encoding="utf-8")),
                    CompileOptions(opt_level=opt_level, target="opencl"), entry=False)
    return emit_spirv(comp.llvm_module, opt=opt_level), comp


def use_opencl(module, meta: dict, source, device: Device) -> None:
    """Compile a module's kernels to SPIR-V, build them for `device`, and launch them there.
    A pyx function that launches kernels still runs them on the CPU target when called from
    Python (its arrays are the caller's host memory)."""
    from . import cache

    if not meta.get("kernels"):
        return
    text = Path(source).read_text(encoding="utf-8")
    # The SPIR-V is cached beside the module's entry (same key: path, source, compiler, options),
    # sealed and checked like the entry itself: compiling it again took 1.9 s of a 3.2 s import.
    cached = cache.entry_path(Path(source), meta["key"]).with_suffix(".spv") if "key" in meta else None
    found = cache.load(cached, meta["key"], "spirv") if cached is not None else None
    if found is not None:
        spirv = found[1]
    else:
        spirv, comp = device_spirv(source)
        if cached is not None:
            try:
                cache.store(cached, {"dependencies": comp.program.dependencies}, spirv, meta["key"], "spirv")
            except OSError:
                pass  # an unwritable cache costs speed, not correctness
    program = device.load(spirv, key=f"{source}:{cache.file_digest(text)}", probe=found is None)
    for kmeta in meta["kernels"]:
        setattr(module, kmeta["name"], OpenCLKernel(kmeta, device, program, getattr(module, kmeta["name"])))
    module.__pyx__["target"] = f"opencl ({device.name})"
