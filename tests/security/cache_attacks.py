"""What the attacks on the compiled-code cache need: a second local user, a shared library whose
constructor leaves a marker file when anything loads it, entries forged the way an attacker
without this user's secret can forge them, and `pyx` run as the victim in a fresh process."""
from __future__ import annotations

import hashlib
import json
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
import textwrap
import traceback
from pathlib import Path

import pytest

ATTACKER = "pyxcacheattacker"
PROGRAM = 'fn main():\n    print("real program")\n'
REAL = "real program\n"


def pyx(*args: str, cwd: Path, env: dict, timeout: float = 120) -> subprocess.CompletedProcess:
    """`pyx ARGS` in a fresh process as this (the victim's) user. A run that blocks (on a FIFO)
    fails the test instead of hanging it."""
    try:
        return subprocess.run([sys.executable, "-m", "pyx", *args], cwd=cwd, env=env, capture_output=True,
                              text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        pytest.fail(f"`pyx {' '.join(args)}` blocked for {timeout} s")


def victim_env(home: Path, **extra: str) -> dict:
    """The victim's environment: a user cache directory of its own, the cache used (PYX_NO_CACHE
    unset), `__pycache__` beside the source unless PYX_CACHE_DIR is given, PYX_DEBUG to hear why."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYX_CACHE_DIR", "PYX_NO_CACHE", "PYX_DEBUG")}
    env.update({"XDG_CACHE_HOME": str(home / "xdg"), "PYX_DEBUG": "1"}, **extra)
    return env


def other_user() -> tuple[int, int]:
    """(uid, gid) of a second local user, made with useradd when missing; skips unless root."""
    if os.geteuid() != 0:
        pytest.skip("planting files as another user needs root")
    try:
        entry = pwd.getpwnam(ATTACKER)
    except KeyError:
        useradd = shutil.which("useradd")
        if useradd is None:
            pytest.skip("no useradd to make a second user with")
        made = subprocess.run([useradd, "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", ATTACKER],
                              capture_output=True, text=True)
        try:
            entry = pwd.getpwnam(ATTACKER)  # made here, or by a test process running beside this one
        except KeyError:
            pytest.skip(f"useradd failed: {made.stderr.strip()}")
    return entry.pw_uid, entry.pw_gid


def as_user(user: tuple[int, int], action, *args) -> None:
    """Run `action(*args)` in a forked child that has become `user`: what it creates is theirs."""
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            os.setgroups([])
            os.setgid(user[1])
            os.setuid(user[0])
            os.umask(0o022)
            action(*args)
            code = 0
        except BaseException:  # noqa: BLE001 - reported by the parent's assertion
            traceback.print_exc()
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, "the attacker's step failed"


def world_writable_dir() -> Path:
    """A folder under /tmp everyone may write to (pytest's tmp_path is closed to other users)."""
    folder = Path(tempfile.mkdtemp(prefix="pyx-shared-"))
    folder.chmod(0o777)
    return folder


def planted_library(directory: Path, marker: Path) -> bytes:
    """A shared library whose constructor writes `marker` and prints, as soon as it is loaded;
    it also defines the entry point a `pyx run` program calls."""
    if not (shutil.which("cc") or shutil.which("gcc")):
        pytest.skip("no C compiler to build the planted library with")
    source = directory / "planted.c"
    source.write_text(textwrap.dedent(f'''
        #include <stdio.h>
        __attribute__((constructor)) static void planted(void) {{
            FILE *f = fopen("{marker}", "w");
            if (f) {{ fputs("planted code ran\\n", f); fclose(f); }}
            puts("planted code ran");
            fflush(stdout);
        }}
        int __pyx_main_entry(void) {{ return 0; }}
    '''))
    library = directory / "planted.so"
    subprocess.run([shutil.which("cc") or shutil.which("gcc"), "-shared", "-fPIC", "-o", str(library), str(source)],
                   check=True)
    return library.read_bytes()


def forge(entry: bytes, library: bytes) -> bytes:
    """An entry that vouches for `library`: the victim's entry with the library's SHA-256 in its
    metadata and the checksum recomputed as a plain SHA-256 of the payload. That is all the old
    format asked for; nobody but the victim can compute a checksum keyed with the victim's secret.
    (The attacker here copies the victim's entry for convenience; every part of it, the key
    included, can be computed from what any local user may read.)"""
    magic = entry[:entry.index(b"\n") + 1]
    payload = entry[len(magic) + 65:]
    size = int.from_bytes(payload[:8], "little")
    meta = json.loads(payload[8:8 + size])
    meta["shared"] = hashlib.sha256(library).hexdigest()
    body = json.dumps(meta, sort_keys=True).encode()
    payload = len(body).to_bytes(8, "little") + body + payload[8 + size:]
    return magic + hashlib.sha256(payload).hexdigest().encode() + b"\n" + payload


def only_entry(*folders: Path) -> Path:
    """The one compiled-module entry (*.pyxc) the victim's first run left in these folders."""
    found = [p for folder in folders if folder.is_dir() for p in folder.rglob("*.pyxc")]
    assert len(found) == 1, found
    return found[0]


def replace_file(path: Path, data: bytes, mode: int = 0o644) -> None:
    """Put `data` at `path` as a new file (whoever runs this owns it)."""
    try:
        path.unlink()
    except FileNotFoundError:
        pass
    path.write_bytes(data)
    path.chmod(mode)
