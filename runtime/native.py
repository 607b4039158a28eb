"""A warm start without LLVM: cached programs linked as shared libraries.

A cache hit through MCJIT still imports llvmlite's binding (~35 ms) twice over: to ask
for the host CPU's name and features, which are part of the cache key, and to link the
object code. Here the host's identity is remembered in a small file keyed by what the
operating system says about the CPU, and a program's object code is linked once into a
shared library (when a C compiler is there to link it) that `ctypes` loads directly.
Anything missing or unexpected falls back to the LLVM path, which stays correct.

Both files go through the cache's trusted reads (runtime/cache.py). The library is opened once
(O_NOFOLLOW, owner and mode checked on the descriptor), its bytes hashed, and that same open
file is what `dlopen` maps, through /proc/self/fd/N: no one can swap the file between the check
and the load. Linking happens in a private 0700 folder under a random name (`*.pyxtmp`), so
nothing planted at a predictable path is written through, and a killed link leaves a leftover
that `pyx cache clear` recognises.
"""
from __future__ import annotations

import ctypes
import hashlib
import os
import threading
import time
from pathlib import Path

from . import cache
from .cache import user_cache_dir, write_atomic


def machine_fingerprint(llvmlite_version: str) -> str | None:
    """What the OS reports about the CPU (model and feature flags of the first processor)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            lines = []
            for line in f:
                if not line.strip():
                    break  # the first processor is enough: they share model and flags
                if line.startswith(("vendor_id", "model name", "flags", "Features", "CPU implementer",
                                    "CPU part", "cpu family", "model\t", "stepping")):
                    lines.append(line.strip())
    except OSError:
        return None
    if not lines:
        return None
    text = "\n".join([llvmlite_version, os.uname().machine] + lines)
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def _memo_path(fingerprint: str) -> Path:
    return user_cache_dir() / f"host-{fingerprint}.txt"


def remembered_host(llvmlite_version: str) -> str | None:
    """The host target's cache key as LLVM described this machine before, or None."""
    fingerprint = machine_fingerprint(llvmlite_version)
    if fingerprint is None:
        return None
    data = cache.read_trusted(_memo_path(fingerprint))
    try:
        text = data.decode("utf-8").strip() if data is not None else ""
    except UnicodeDecodeError:
        return None
    return text or None


def remember_host(llvmlite_version: str, host_key: str) -> None:
    fingerprint = machine_fingerprint(llvmlite_version)
    if fingerprint is None:
        return
    try:
        write_atomic(_memo_path(fingerprint), (host_key + "\n").encode())
    except OSError:
        pass  # no memo: the next start asks LLVM again


def link_shared(obj: bytes, dest: Path) -> str | None:
    """Link object code into the shared library `dest` (atomically); its SHA-256, or None."""
    import shutil
    import subprocess  # here, not above: a warm start (lang/quick_run.py) links nothing

    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if cc is None or shutil.which(cc) is None:
        return None
    dir_fd = cache.open_dir(dest.parent, create=True)
    if dir_fd is None:
        return None  # not a trusted cache directory (said why with PYX_DEBUG): no library
    work = f"{dest.name}.{os.urandom(6).hex()}{cache.TMP_SUFFIX}"
    try:
        os.mkdir(work, 0o700, dir_fd=dir_fd)  # fails if anything is there: never someone else's folder
    except OSError:
        os.close(dir_fd)
        return None
    obj_name, lib_name = f"{work}/object.o", f"{work}/library.so"
    try:
        fd = os.open(obj_name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600,
                     dir_fd=dir_fd)
        with open(fd, "wb") as f:
            f.write(obj)
        folder = dest.parent / work
        done = subprocess.run([cc, "-shared", "-o", str(folder / "library.so"), str(folder / "object.o"), "-lm",
                               "-lpthread"], capture_output=True, stdin=subprocess.DEVNULL)
        if done.returncode != 0:
            return None
        fd = os.open(lib_name, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=dir_fd)
        try:
            os.fchmod(fd, 0o700)  # the linker made it 0777 & ~umask: a group-writable file would be refused
            digest = hashlib.sha256(cache.read_fd(fd)).hexdigest()
        finally:
            os.close(fd)
        os.replace(lib_name, dest.name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
        return digest
    except OSError:
        return None
    finally:
        for leftover in (obj_name, lib_name):
            try:
                os.unlink(leftover, dir_fd=dir_fd)
            except OSError:
                pass
        try:
            os.rmdir(work, dir_fd=dir_fd)
        except OSError:
            pass
        os.close(dir_fd)


class BackgroundLink:
    """`link_shared` on a thread of its own, so that the caller goes on meanwhile: a cold `pyx run`
    loads and runs the program while the library for its next start is linked (the linker is a
    process of its own: it runs beside the program on another core). `result()` waits for it and
    gives what `link_shared` gave, or raises what it raised."""

    def __init__(self, obj: bytes, dest: Path):
        self.seconds = 0.0  # how long the link took
        self._shared: str | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._link, args=(obj, dest), name="pyx-link", daemon=True)
        self._thread.start()

    def _link(self, obj: bytes, dest: Path) -> None:
        start = time.perf_counter()
        try:
            self._shared = link_shared(obj, dest)
        except BaseException as exc:  # noqa: BLE001 - raised in the caller by result()
            self._error = exc
        finally:
            self.seconds = time.perf_counter() - start

    def result(self) -> str | None:
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self._shared


class SharedProgram:
    """A program's shared library, loaded only if it is the one the cache entry describes."""

    def __init__(self, library: ctypes.CDLL, fd: int):
        self.library = library
        # Kept open while the library is loaded (that is, for good: ctypes never unloads it):
        # glibc finds an already loaded library by the name it was opened under, so a closed and
        # reused /proc/self/fd/N would hand a later load this library instead of its own.
        self.fd = fd

    @classmethod
    def load(cls, path: Path, digest: str) -> SharedProgram | None:
        """The library at `path` if its bytes are those of the SHA-256 `digest` (recorded in the
        sealed cache entry), loaded from the very file that was hashed."""
        if not digest:
            return None
        opened = cache.open_trusted(path)
        if opened is None:
            return None  # missing, or not ours alone (said why with PYX_DEBUG): the LLVM path instead
        fd, data = opened
        if hashlib.sha256(data).hexdigest() != digest:
            os.close(fd)
            return None  # truncated or replaced: the LLVM path instead
        try:
            return cls(ctypes.CDLL(f"/proc/self/fd/{fd}"), fd)
        except OSError:
            os.close(fd)
            return None  # e.g. a cache on a noexec mount, or no /proc

    def address(self, symbol: str) -> int:
        try:
            return ctypes.cast(self.library[symbol], ctypes.c_void_p).value or 0
        except AttributeError:
            return 0

    def global_address(self, symbol: str) -> int:
        """Where a global variable lives, or 0 when the program has none by that name."""
        try:
            return ctypes.addressof(ctypes.c_void_p.in_dll(self.library, symbol))
        except ValueError:
            return 0

    def run_entry(self, symbol: str) -> int:
        entry = getattr(self.library, symbol)
        entry.restype, entry.argtypes = ctypes.c_int, []
        return entry()
