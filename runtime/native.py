"""A warm start without LLVM: cached programs linked as shared libraries.

A cache hit through MCJIT still imports llvmlite's binding (~35 ms) twice over: to ask
for the host CPU's name and features, which are part of the cache key, and to link the
object code. Here the host's identity is remembered in a small file keyed by what the
operating system says about the CPU, and a program's object code is linked once into a
shared library (when a C compiler is there to link it) that `ctypes` loads directly.
Anything missing or unexpected falls back to the LLVM path, which stays correct.
"""
from __future__ import annotations

import ctypes
import hashlib
import os
import shutil
import subprocess
from pathlib import Path

from .cache import user_cache_dir, write_atomic


def _machine_fingerprint(llvmlite_version: str) -> str | None:
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
    fingerprint = _machine_fingerprint(llvmlite_version)
    if fingerprint is None:
        return None
    try:
        text = _memo_path(fingerprint).read_text(encoding="utf-8").strip()
    except OSError:
        return None
    return text or None


def remember_host(llvmlite_version: str, host_key: str) -> None:
    fingerprint = _machine_fingerprint(llvmlite_version)
    if fingerprint is None:
        return
    try:
        write_atomic(_memo_path(fingerprint), (host_key + "\n").encode())
    except OSError:
        pass  # no memo: the next start asks LLVM again


def file_sha256(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def link_shared(obj: bytes, dest: Path) -> str | None:
    """Link object code into the shared library `dest` (atomically); its SHA-256, or None."""
    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if cc is None or shutil.which(cc) is None:
        return None
    dest.parent.mkdir(parents=True, exist_ok=True)
    stem = dest.with_suffix(f".{os.getpid()}")
    obj_path, tmp = stem.with_suffix(stem.suffix + ".o"), stem.with_suffix(stem.suffix + ".so")
    try:
        obj_path.write_bytes(obj)
        done = subprocess.run([cc, "-shared", "-o", str(tmp), str(obj_path), "-lm", "-lpthread"],
                              capture_output=True)
        if done.returncode != 0:
            return None
        digest = file_sha256(tmp)
        os.replace(tmp, dest)
        return digest
    except OSError:
        return None
    finally:
        for leftover in (obj_path, tmp):
            try:
                leftover.unlink()
            except OSError:
                pass


class SharedProgram:
    """A program's shared library, loaded only if it is the one the cache entry describes."""

    def __init__(self, library: ctypes.CDLL):
        self.library = library

    @classmethod
    def load(cls, path: Path, digest: str) -> "SharedProgram | None":
        if not digest or file_sha256(path) != digest:
            return None  # missing, truncated or replaced: the LLVM path instead
        try:
            return cls(ctypes.CDLL(str(path)))
        except OSError:
            return None  # e.g. a cache on a noexec mount

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
