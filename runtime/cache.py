"""The on-disk cache of compiled modules.

An entry is one file: a magic line, the SHA-256 of the payload, and the payload
(metadata JSON + object code). The key hashes everything that changes the code:
source, compiler version, target CPU and features, options. Writes go to a temporary
file renamed into place, so readers never see half an entry; anything that does not
verify is a miss and is rebuilt.
"""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

MAGIC = b"PYXC1\n"


def user_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "pyx"


def cache_dir_for(source: Path) -> Path:
    """PYX_CACHE_DIR if set; else __pycache__ beside the source if writable; else the user cache."""
    override = os.environ.get("PYX_CACHE_DIR")
    if override:
        return Path(override)
    beside = source.parent / "__pycache__"
    try:
        beside.mkdir(exist_ok=True)
        if os.access(beside, os.W_OK):
            return beside
    except OSError:
        pass
    return user_cache_dir()


_FINGERPRINT: str | None = None


def compiler_fingerprint() -> str:
    """Size and modification time of every compiler, runtime and stdlib source file. The version
    number alone is not enough: an edited or reinstalled compiler under the same version must not
    be served code the old one compiled. Stat only, so a cache hit stays cheap (about 100 files)."""
    global _FINGERPRINT
    if _FINGERPRINT is None:
        import pyx

        package = Path(pyx.__file__).parent
        roots = {package, Path(__file__).parent, package / "stdlib", package.parent / "stdlib"}
        entries = []
        for root in sorted(r for r in roots if r.is_dir()):
            for folder, subfolders, files in os.walk(root):
                subfolders[:] = sorted(d for d in subfolders if d != "__pycache__")
                for name in sorted(files):
                    if name.endswith((".py", ".lark", ".px")):
                        st = os.stat(os.path.join(folder, name))
                        entries.append(f"{folder}/{name}:{st.st_size}:{st.st_mtime_ns}")
        _FINGERPRINT = hashlib.sha256("\n".join(entries).encode()).hexdigest()
    return _FINGERPRINT


def cache_key(*parts: str) -> str:
    """The key of an entry: the given parts (source, options, target) and the compiler's fingerprint."""
    digest = hashlib.sha256(compiler_fingerprint().encode())
    for part in parts:
        digest.update(part.encode())
        digest.update(b"\0")
    return digest.hexdigest()


def entry_path(source: Path, key: str) -> Path:
    return cache_dir_for(source) / f"{source.stem}.{key[:20]}.pyxc"


def load(path: Path) -> tuple[dict, bytes] | None:
    try:
        data = path.read_bytes()
    except OSError:
        return None
    header = len(MAGIC) + 65
    if not data.startswith(MAGIC) or len(data) < header + 8:
        return None
    checksum, payload = data[len(MAGIC):header - 1], data[header:]
    if hashlib.sha256(payload).hexdigest().encode() != checksum:
        return None  # truncated or corrupted: a miss
    size = int.from_bytes(payload[:8], "little")
    try:
        meta = json.loads(payload[8:8 + size])
    except ValueError:
        return None
    if not dependencies_unchanged(meta.get("dependencies", ())):
        return None  # a .px module it imports has changed since: a miss
    return meta, payload[8 + size:]


def file_digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def dependencies_unchanged(dependencies) -> bool:
    """Whether every imported file still has the text it was compiled from."""
    for path, digest in dependencies:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, ValueError):
            return False
        if file_digest(text) != digest:
            return False
    return True


def store(path: Path, meta: dict, obj: bytes) -> None:
    body = json.dumps(meta, sort_keys=True).encode()
    payload = len(body).to_bytes(8, "little") + body + obj
    write_atomic(path, MAGIC + hashlib.sha256(payload).hexdigest().encode() + b"\n" + payload)


def write_atomic(path: Path, data: bytes) -> None:
    import tempfile  # only writers need it: a warm start reads and never pays for the import

    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)  # atomic: a concurrent reader sees the old file or the new one
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def entries(directory: Path) -> list[Path]:
    """Compiled modules (.pyxc) and parsed standard library modules (.pyxast, lang/parse_cache.py)."""
    if not directory.is_dir():
        return []
    return sorted([*directory.glob("*.pyxc"), *directory.glob("*.pyxast")])


def files_of(entry: Path) -> list[Path]:
    """An entry's file, the shared library linked from it (runtime/native.py) and the PTX of its
    kernels (one per GPU architecture), where there are some."""
    library = entry.with_suffix(".so")
    return [entry] + ([library] if library.exists() else []) + sorted(entry.parent.glob(entry.stem + ".sm_*.ptx"))


def store_text(path: Path, text: str) -> None:
    """Write a companion file of an entry atomically; an unwritable cache only costs speed."""
    try:
        write_atomic(path, text.encode())
    except OSError:
        pass
