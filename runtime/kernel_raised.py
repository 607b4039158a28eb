"""The host side of a kernel's exception on a device target (lang/codegen/kernel_raised.py):
the status record read after a launch, turned into the Python exception the CPU target raises,
or into the launch hook's reply for a whole program's `launch`."""
from __future__ import annotations

import builtins
import ctypes
import struct

from ..codegen.kernel_raised import (
    FRAMES,
    HEADER_BYTES,
    RECORD_BYTES,
    RECORD_SYMBOL,
    RECORDED,
    REPLY_MARK,
    TAKE_SYMBOL,
    TEXT_BYTES,
)

__all__ = ["RECORD_BYTES", "RECORD_SYMBOL", "TAKE_SYMBOL", "decode", "exception", "hook_reply"]


def decode(raw: bytes) -> tuple[str, str, list[tuple[str, int, str]]] | None:
    """(type name, message, frames as (file, line, function) innermost first) of a status record,
    or None when no thread raised."""
    flag, _owner, depth, _used = struct.unpack_from("<4i", raw, 0)
    if not flag:
        return None
    if flag != RECORDED:  # a thread raised, but another's exception (later caught) held the record
        return ("RuntimeError", "a thread of the kernel raised an exception that could not be recorded (another "
                "thread's exception, which it caught, held the record); run it on the cpu target to see it", [])
    lines = struct.unpack_from(f"<{FRAMES}i", raw, HEADER_BYTES)
    text_at = HEADER_BYTES + 4 * FRAMES
    pieces = bytes(raw[text_at:text_at + TEXT_BYTES]).split(b"\0")
    text = [p.decode("utf-8", "replace") for p in pieces]
    frames = []
    for m in range(min(max(depth, 0), FRAMES)):
        if 3 + 2 * m >= len(text):
            break  # cut short: the record's text was full
        frames.append((text[3 + 2 * m], lines[m], text[2 + 2 * m]))
    return text[0] or "RuntimeError", text[1] if len(text) > 1 else "", frames


def exception(raw: bytes) -> BaseException | None:
    """The exception a record holds, with the kernel's frames on its traceback (as the CPU
    target's launch raises it), or None."""
    found = decode(raw)
    if found is None:
        return None
    from .bridge import EXCEPTIONS, with_px_traceback

    name, message, frames = found
    cls = getattr(builtins, name) if name in EXCEPTIONS else RuntimeError
    exc = cls(message) if message else cls()
    return with_px_traceback(exc, frames)


def hook_reply(raw: bytes) -> bytes | None:
    """The launch hook's reply for a record that holds an exception (the format
    codegen/kernel_raised.py parses), or None."""
    found = decode(raw)
    if found is None:
        return None
    name, message, frames = found
    parts = [bytes([REPLY_MARK]), name.encode(), message.encode()]
    for file, line, func in frames:
        parts += [func.encode(), file.encode(), str(line).encode()]
    return b"\0".join(parts) + b"\0\0"


def opencl_take(device, program):
    """OpenCL: after a launch is enqueued, enqueue the take kernel (it copies the program's status
    record to a buffer and zeroes it for the next launch) and the copy back; the result, to call
    once the queue has finished, gives the record (None when the program's kernels cannot raise:
    it has no take kernel, and nothing is enqueued)."""
    cl = device.cl
    takes = device.__dict__.setdefault("_pyx_take_kernels", {})
    take = takes.get(id(program), False)
    if take is False:
        names = program.get_info(cl.program_info.KERNEL_NAMES).split(";")
        take = None
        if TAKE_SYMBOL in names:
            import numpy as np

            buffer = cl.Buffer(device.context, cl.mem_flags.WRITE_ONLY, size=RECORD_BYTES)
            take = (program, cl.Kernel(program, TAKE_SYMBOL), buffer, np.zeros(RECORD_BYTES, np.uint8))
        takes[id(program)] = take
    if take is None:
        return lambda: None
    _, kernel, buffer, host = take
    kernel(device.queue, (1,), (1,), buffer)
    cl.enqueue_copy(device.queue, host, buffer, is_blocking=False)
    return lambda: host.tobytes()


def cuda_take(device, module) -> bytes | None:
    """CUDA: the status record of a loaded module after a launch has completed, cleared for the
    next (None when no thread raised, or the module's kernels cannot raise: it has no record)."""
    from .cuda import check

    driver = device.driver
    records = device.__dict__.setdefault("_pyx_records", {})
    found = records.get(id(module), False)
    if found is False:
        outcome = driver.cuModuleGetGlobal(module, RECORD_SYMBOL.encode())
        result = outcome[0] if isinstance(outcome, tuple) else outcome
        if result == getattr(driver.CUresult, "CUDA_ERROR_NOT_FOUND", object()):
            found = None  # no kernel of this module can raise
        else:
            pointer, size = check(driver, "cuModuleGetGlobal", outcome)
            if int(size) != RECORD_BYTES:
                raise RuntimeError(f"pyx: {RECORD_SYMBOL} is {int(size)} bytes, not {RECORD_BYTES}: "
                                   "the PTX is not this compiler's")
            found = pointer
        records[id(module)] = (module, found)
    else:
        found = found[1]
    if found is None:
        return None
    flag = ctypes.c_int32()
    check(driver, "cuMemcpyDtoH", driver.cuMemcpyDtoH(ctypes.addressof(flag), found, 4))
    if not flag.value:
        return None
    raw = (ctypes.c_char * RECORD_BYTES)()
    check(driver, "cuMemcpyDtoH", driver.cuMemcpyDtoH(ctypes.addressof(raw), found, RECORD_BYTES))
    zeros = (ctypes.c_char * RECORD_BYTES)()
    check(driver, "cuMemcpyHtoD", driver.cuMemcpyHtoD(found, ctypes.addressof(zeros), RECORD_BYTES))
    return raw.raw
