"""The on-disk cache of compiled modules, and the rules for trusting what it holds.

An entry is one file: a magic line, a keyed checksum (HMAC-SHA256) of the payload, and the
payload (metadata JSON + object code, PTX, or a parsed tree). The key hashes everything that
changes the code: the file's path and text, compiler version, target CPU and features, options;
an entry also records the path and digest of every module it imported, re-checked on load.

What comes out of the cache is run, so nothing in it is believed because of where it is:
- a directory is used only if it belongs to this user and no one else may write to it; a
  `__pycache__` beside the source that is not (another user's, or group/world-writable) is
  passed over for the user cache directory (`~/.cache/pyx`, created 0700);
- a file is opened with O_NOFOLLOW | O_NONBLOCK and checked on its descriptor (`fstat`): a
  symlink, FIFO or device, or a file someone else owns or may write, is a miss, never a
  blocking read; entries are created 0600 under a random name (O_EXCL) and renamed into place;
- the checksum is keyed with a per-user secret (`~/.cache/pyx/secret`, 0600), and binds the
  kind of file and its full key: an entry written by anyone else (another user in a shared
  PYX_CACHE_DIR, a `__pycache__` unpacked from an archive, a copy from another machine) never
  verifies, even where file ownership says nothing (a tarball's files belong to whoever
  unpacks them).
Anything that does not verify is a miss and is rebuilt; with PYX_DEBUG=1 pyx says why, once
per file. See docs/security.md.
"""
from __future__ import annotations

import errno
import functools
import hashlib
import json
import os
import stat
import sys
from pathlib import Path

MAGIC = b"PYXC2\n"
TMP_SUFFIX = ".pyxtmp"  # what a write in progress is called, so `pyx cache clear` finds those a kill left behind
SECRET_NAME = "secret"
_SECRET_SIZE = 32


def user_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "pyx"


# ---- trust ----

_REPORTED: set[str] = set()


def _refuse(path: Path | str, reason: str) -> None:
    """Say (with PYX_DEBUG=1, once per path) why something in the cache is not used."""
    if os.environ.get("PYX_DEBUG") and str(path) not in _REPORTED:
        _REPORTED.add(str(path))
        print(f"pyx: not using the cache at {path}: {reason}", file=sys.stderr)


def _why_untrusted(st: os.stat_result, private: bool = False) -> str | None:
    """Why a file or directory is not this user's alone to write (and, when `private`, to read)."""
    if st.st_uid != os.geteuid():
        return f"it belongs to uid {st.st_uid}, not to this user (uid {os.geteuid()})"
    if st.st_mode & (0o077 if private else 0o022):
        return f"its mode {stat.S_IMODE(st.st_mode):04o} lets other users {'read' if private else 'write'} it"
    return None


def _make_dirs(path: Path) -> None:
    """Create `path` and its missing parents, each 0700."""
    missing = []
    while not os.path.lexists(path) and path.parent != path:
        missing.append(path)
        path = path.parent
    for directory in reversed(missing):
        try:
            os.mkdir(directory, 0o700)
        except FileExistsError:
            pass


def open_dir(path: Path, create: bool = False, follow: bool = True) -> int | None:
    """A descriptor of the directory `path` if it is a trusted cache directory, else None (said
    why with PYX_DEBUG). Checked on the descriptor, so the files opened relative to it (dir_fd)
    are in the directory that was checked even if the path is swapped meanwhile."""
    flags = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC | (0 if follow else os.O_NOFOLLOW)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        if not create:
            return None
        try:
            _make_dirs(Path(path))
            fd = os.open(path, flags)
        except OSError:
            return None  # e.g. a read-only directory: no cache there
    except OSError as exc:  # a symlink where none is followed (ENOTDIR or ELOOP); not a folder; EACCES
        _refuse(path, "it is a symbolic link" if os.path.islink(path) else (exc.strerror or str(exc)))
        return None
    st = os.fstat(fd)
    reason = _why_untrusted(st)
    if reason is not None and st.st_uid == os.geteuid() and os.path.abspath(path) == os.path.abspath(user_cache_dir()):
        # pyx's own folder, made by an earlier pyx with the umask's mode (0775 under the umask 002
        # of user private groups): made private rather than given up. Whatever someone else put
        # there meanwhile is still refused file by file (owner, mode, keyed checksum).
        os.fchmod(fd, 0o700)
        reason = _why_untrusted(os.fstat(fd))
    if reason is not None:
        os.close(fd)
        _refuse(path, reason)
        return None
    return fd


def _open_in(dir_fd: int, name: str, shown: Path | str, private: bool = False) -> int | None:
    """A read descriptor of the regular file `name` in a trusted directory, if this user alone
    may write it. O_NONBLOCK: a FIFO opens at once (and is refused) instead of waiting for a writer."""
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=dir_fd)
    except FileNotFoundError:
        return None
    except OSError as exc:  # ELOOP: a symlink
        _refuse(shown, "it is a symbolic link" if exc.errno == errno.ELOOP else (exc.strerror or str(exc)))
        return None
    st = os.fstat(fd)
    reason = "it is not a regular file" if not stat.S_ISREG(st.st_mode) else _why_untrusted(st, private)
    if reason is not None:
        os.close(fd)
        _refuse(shown, reason)
        return None
    return fd


def read_fd(fd: int) -> bytes:
    with open(fd, "rb", closefd=False) as f:
        return f.read()


def open_trusted(path: Path, private: bool = False) -> tuple[int, bytes] | None:
    """(descriptor, content) of a cache file that passes the checks, or None. The descriptor
    stays open for the caller: what is loaded through it (/proc/self/fd/N) is what was read."""
    dir_fd = open_dir(path.parent)
    if dir_fd is None:
        return None
    try:
        fd = _open_in(dir_fd, path.name, path, private)
    finally:
        os.close(dir_fd)
    if fd is None:
        return None
    try:
        return fd, read_fd(fd)
    except OSError:
        os.close(fd)
        return None


def read_trusted(path: Path, private: bool = False) -> bytes | None:
    """The content of a cache file that passes the checks (see open_trusted), or None."""
    opened = open_trusted(path, private)
    if opened is None:
        return None
    os.close(opened[0])
    return opened[1]


def _usable_dir(path: Path, follow: bool = True) -> bool:
    fd = open_dir(path, create=True, follow=follow)
    if fd is None:
        return False
    os.close(fd)
    return True


def cache_dir_for(source: Path) -> Path:
    """PYX_CACHE_DIR if set; else __pycache__ beside the source; the user cache directory where
    the one chosen is not trustworthy (not ours, or writable by others) or cannot be created."""
    override = os.environ.get("PYX_CACHE_DIR")
    if override:
        if _usable_dir(Path(override)):
            return Path(override)
        return user_cache_dir()
    beside = source.parent / "__pycache__"
    if _usable_dir(beside, follow=False):  # a symlinked __pycache__ could send our writes anywhere
        return beside
    return user_cache_dir()


def compiler_dir(beside: Path) -> Path:
    """Where an entry that depends on the compiler alone lives (the pyx runtime's units: no
    program's code), `beside` being the stdlib file it is made from: the user cache directory,
    which holds the parser's tables and the host memo too, so every project and every
    PYX_CACHE_DIR shares one copy per compiler (an empty PYX_CACHE_DIR does not make it again);
    where that one cannot be used, the folder `beside`'s own entries go to (cache_dir_for)."""
    user = user_cache_dir()
    return user if _usable_dir(user) else cache_dir_for(beside)


# ---- the keyed checksum ----

_SECRETS: dict[str, bytes] = {}


def _secret_in(directory: Path) -> bytes | None:
    """This user's secret kept in `directory` (made on first use, 0600), or None."""
    dir_fd = open_dir(directory, create=True)
    if dir_fd is None:
        return None
    try:
        for _ in range(2):
            fd = _open_in(dir_fd, SECRET_NAME, directory / SECRET_NAME, private=True)
            if fd is not None:
                try:
                    secret = read_fd(fd)
                finally:
                    os.close(fd)
                if len(secret) == _SECRET_SIZE:
                    return secret
                _refuse(directory / SECRET_NAME, "it is damaged (remove it: a new one is made)")
                return None
            if os.path.lexists(directory / SECRET_NAME):
                return None  # there but refused (said why): never replaced behind the user's back
            # A new secret, written whole under a temporary name and linked into place: linking
            # fails when another process got there first, and then both use that one.
            tmp = f"{SECRET_NAME}.{os.urandom(6).hex()}{TMP_SUFFIX}"
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600,
                         dir_fd=dir_fd)
            try:
                with open(fd, "wb") as f:
                    f.write(os.urandom(_SECRET_SIZE))
                try:
                    os.link(tmp, SECRET_NAME, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
                except FileExistsError:
                    pass
            finally:
                os.unlink(tmp, dir_fd=dir_fd)
        return None
    except OSError:
        return None
    finally:
        os.close(dir_fd)


def secret() -> bytes | None:
    """The key of the cache's checksums: this user's secret in the user cache directory (or in
    PYX_CACHE_DIR when that one cannot be used). None: nothing is cached or read from a cache."""
    places = [user_cache_dir()]
    if os.environ.get("PYX_CACHE_DIR"):
        places.append(Path(os.environ["PYX_CACHE_DIR"]))
    for place in places:
        known = _SECRETS.get(str(place))
        if known is None:
            known = _secret_in(place)
            if known is not None:
                _SECRETS[str(place)] = known
        if known is not None:
            return known
    return None


def _tag(key_secret: bytes, kind: str, key: str, payload: bytes) -> bytes:
    import hmac  # after hashlib it costs about 0.2 ms; only sealed files need it

    mac = hmac.new(key_secret, digestmod="sha256")
    mac.update(f"{kind}\0{key}\0".encode())  # an entry verifies only as the kind and key it was written for
    mac.update(payload)
    return mac.hexdigest().encode()


def seal(kind: str, key: str, payload: bytes) -> bytes:
    """The file content for `payload`, checksummed with this user's secret; OSError without one."""
    key_secret = secret()
    if key_secret is None:
        raise PermissionError("pyx: no usable cache secret (see PYX_DEBUG=1)")
    return MAGIC + _tag(key_secret, kind, key, payload) + b"\n" + payload


def unseal(data: bytes | None, kind: str, key: str, shown: Path | str = "") -> bytes | None:
    """The payload of a sealed file if its checksum is this user's for this kind and key, else None."""
    import hmac

    header = len(MAGIC) + 65
    if data is None:
        return None
    key_secret = secret()
    if key_secret is None:
        return None
    if not data.startswith(MAGIC) or len(data) < header or data[header - 1:header] != b"\n":
        _refuse(shown, "it is not a pyx cache file of this version")
        return None
    payload = data[header:]
    if not hmac.compare_digest(_tag(key_secret, kind, key, payload), data[len(MAGIC):header - 1]):
        _refuse(shown, "its checksum does not verify (damaged, or not written by this user)")
        return None
    return payload


# ---- keys and entries ----

@functools.cache  # once per process; compiler_fingerprint.cache_clear() makes the next call look again
def compiler_fingerprint() -> str:
    """Size and modification time of every compiler, runtime and stdlib source file. The version
    number alone is not enough: an edited or reinstalled compiler under the same version must not
    be served code the old one compiled. Stat only, so a cache hit stays cheap (about 100 files)."""
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
    return hashlib.sha256("\n".join(entries).encode()).hexdigest()


def cache_key(*parts: str) -> str:
    """The key of an entry: the given parts (path, source, options, target) and the compiler's fingerprint."""
    digest = hashlib.sha256(compiler_fingerprint().encode())
    for part in parts:
        digest.update(part.encode())
        digest.update(b"\0")
    return digest.hexdigest()


def remembered(name: str, text: str, compute):
    """`compute()` (a JSON value that depends only on the compiler and `text`, a stdlib file's),
    kept in the user cache directory per compiler fingerprint and text, sealed as every cache file:
    a cold compile reads it there instead of parsing that file again. A missing, damaged or foreign
    memo, or no usable cache directory, computes it again."""
    key = hashlib.sha256(f"{compiler_fingerprint()}\0{name}\0{text}".encode()).hexdigest()
    path, kind = user_cache_dir() / f"{name}-{key[:32]}.json", f"memo {name}"
    payload = unseal(read_trusted(path), kind, key, path)
    if payload is not None:
        try:
            return json.loads(payload)
        except ValueError:
            pass
    value = compute()
    try:
        write_atomic(path, seal(kind, key, json.dumps(value).encode()))
    except OSError:
        pass  # the next compile computes it again
    return value


def entry_path(source: Path, key: str) -> Path:
    return cache_dir_for(source) / f"{source.stem}.{key[:20]}.pyxc"


def load(path: Path, key: str, kind: str = "module") -> tuple[dict, bytes] | None:
    """(metadata, body) of the entry at `path` written by this user for `key`, if every module it
    imported is unchanged; None (a miss) otherwise."""
    payload = unseal(read_trusted(path), kind, key, path)
    if payload is None or len(payload) < 8:
        return None
    size = int.from_bytes(payload[:8], "little")
    try:
        meta = json.loads(payload[8:8 + size])
    except ValueError:
        return None
    if not isinstance(meta, dict) or not dependencies_unchanged(meta.get("dependencies", ())):
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


def store(path: Path, meta: dict, body: bytes, key: str, kind: str = "module") -> None:
    """Write an entry (OSError when the cache cannot take it: callers go on without)."""
    encoded = json.dumps(meta, sort_keys=True).encode()
    write_atomic(path, seal(kind, key, len(encoded).to_bytes(8, "little") + encoded + body))


def load_ptx(path: Path, key: str, arch: str) -> str | None:
    """The PTX cached beside the entry of `key` for GPU architecture `arch`, if it is ours for
    them and the modules it was compiled with are unchanged (it is sealed and checked like an entry)."""
    found = load(path, key, f"ptx {arch}")
    if found is None:
        return None
    try:
        return found[1].decode("utf-8")
    except UnicodeDecodeError:
        return None


def store_ptx(path: Path, key: str, arch: str, ptx: str, dependencies) -> None:
    """Cache PTX beside an entry; an unwritable cache only costs speed."""
    try:
        store(path, {"dependencies": dependencies}, ptx.encode("utf-8"), key, f"ptx {arch}")
    except OSError:
        pass


def write_atomic(path: Path, data: bytes) -> None:
    """Write `path` in a trusted directory: a new 0600 file under a random name (O_EXCL |
    O_NOFOLLOW: nothing planted at that name is followed), renamed into place, so a concurrent
    reader sees the old file or the new one. PermissionError where the directory is not trusted."""
    dir_fd = open_dir(path.parent, create=True)
    if dir_fd is None:
        raise PermissionError(f"pyx: {path.parent} is not a usable cache directory")
    try:
        tmp = f"{path.name}.{os.urandom(6).hex()}{TMP_SUFFIX}"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600, dir_fd=dir_fd)
        try:
            with open(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, path.name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
        except BaseException:
            try:
                os.unlink(tmp, dir_fd=dir_fd)
            except OSError:
                pass
            raise
    finally:
        os.close(dir_fd)


# ---- `pyx cache info` and `pyx cache clear` ----

def _listing(directory: Path) -> list[os.DirEntry]:
    try:
        with os.scandir(directory) as found:
            return list(found)
    except OSError:  # missing, not a directory, unreadable
        return []


def entries(directory: Path) -> list[Path]:
    """Compiled modules (.pyxc), parsed standard library modules (.pyxast, lang/parse_cache.py),
    the runtime written in pyx as LLVM IR (.pyxrt, lang/codegen/runtime_source.py) and `@autotune`
    choices (.pyxtune, runtime/autotune.py), by name: a symlink so named is listed (and removed by
    `clear`) as itself, never followed."""
    return sorted(Path(e.path) for e in _listing(directory)
                  if e.name.endswith((".pyxc", ".pyxast", ".pyxrt", ".pyxtune"))
                  and not e.is_dir(follow_symlinks=False))


def files_of(entry: Path) -> list[Path]:
    """An entry's file, the shared library linked from it (runtime/native.py), the PTX of its
    kernels (one per GPU architecture) and the lock taken while it was compiled
    (dispatch_build.entry_lock), where there are some."""
    library = entry.with_suffix(".so")
    return [entry] + sorted(Path(e.path) for e in _listing(entry.parent) if not e.is_dir(follow_symlinks=False) and (
        e.name in (library.name, entry.name + ".lock")
        or e.name == entry.stem + ".spv"  # the SPIR-V of its kernels (runtime/opencl.py)
        or (e.name.startswith(entry.stem + ".sm_") and e.name.endswith(".ptx"))))


def _is_leftover(name: str) -> bool:
    """A temporary file or folder of a write or link that was killed before it finished: ours are
    named *.pyxtmp; the older forms (`name.pyxcXXXXXXXX.tmp`, `stem.KEY.PID.o` and `.so`) too."""
    import re

    return name.endswith(TMP_SUFFIX) or re.fullmatch(
        r".+\.(?:pyxc|pyxast|pyxrt|ptx|txt)[A-Za-z0-9_]{8}\.tmp|.+\.[0-9a-f]{20}\.\d+\.(?:o|so)", name) is not None


def leftovers(directory: Path) -> list[Path]:
    return sorted(Path(e.path) for e in _listing(directory) if _is_leftover(e.name))


def size_of(path: Path) -> int:
    """Bytes held by a cache file or leftover folder, links counted as themselves."""
    try:
        st = os.lstat(path)
    except OSError:
        return 0
    if stat.S_ISDIR(st.st_mode):
        return sum(size_of(Path(e.path)) for e in _listing(path))
    return st.st_size


def remove(path: Path) -> None:
    """Remove a cache file or leftover folder; a symlink is removed itself, its target never touched."""
    import shutil

    try:
        if stat.S_ISDIR(os.lstat(path).st_mode):
            shutil.rmtree(path)  # does not follow symlinks inside (and refuses a symlink itself)
        else:
            os.unlink(path)
    except FileNotFoundError:
        pass
    except OSError as exc:  # e.g. someone else's folder: say so and go on with the rest
        print(f"pyx: warning: cannot remove {path}: {exc.strerror or exc}", file=sys.stderr)
