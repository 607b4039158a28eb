"""What pyx writes into a cache directory, and what `pyx cache clear` removes there. Temporary
files get fresh random names created exclusively, so a symlink planted at a name pyx could be
expected to use is never written through; a compile killed half-way leaves files `pyx cache
info` counts and `pyx cache clear` removes; and `clear` removes links themselves, never what
they point at."""
import os
import shutil
import subprocess
import sys

import pytest

from cache_attacks import PROGRAM, as_user, pyx, victim_env

needs_cc = pytest.mark.skipif(not (shutil.which("cc") or shutil.which("gcc")), reason="no C compiler")


def object_code(folder) -> bytes:
    source = folder / "f.c"
    source.write_text("int f(void) { return 42; }\n")
    subprocess.run([shutil.which("cc") or shutil.which("gcc"), "-c", "-fPIC", "-o", str(folder / "f.o"),
                    str(source)], check=True)
    return (folder / "f.o").read_bytes()


@needs_cc
@pytest.mark.parametrize("where", ["own", "shared"])
def test_linking_does_not_write_through_a_planted_symlink(tmp_path, where, request):
    """The temporary object and library of a link used to be `<entry>.<pid>.o` and `.so`: a
    symlink planted there made the victim overwrite the link's target with object code."""
    from pyx.runtime import native

    precious = tmp_path / "precious.txt"
    precious.write_bytes(b"the victim's data\n")
    if where == "shared":  # another user plants the links in a cache directory everyone may write
        attacker = request.getfixturevalue("attacker")
        cache = request.getfixturevalue("shared")
    else:  # links in the victim's own cache folder (left by anything): not followed either
        attacker, cache = None, tmp_path / "cache"
        cache.mkdir(mode=0o700)
    dest = cache / "prog.0123456789abcdef0123.so"
    stem = f"prog.0123456789abcdef0123.{os.getpid()}"

    def plant():
        for suffix in (".o", ".so"):
            (cache / (stem + suffix)).symlink_to(precious)

    if attacker:
        as_user(attacker, plant)
    else:
        plant()
    native.link_shared(object_code(tmp_path), dest)
    assert precious.read_bytes() == b"the victim's data\n"


@needs_cc
def test_a_killed_compile_leaves_leftovers_that_info_counts_and_clear_removes(tmp_path, monkeypatch):
    """The C compiler that links the cached library kills pyx (as `kill -9` would, mid-compile)."""
    (tmp_path / "prog.px").write_text(PROGRAM)
    killer = tmp_path / "cc-that-kills"
    killer.write_text("#!/bin/sh\nkill -9 $PPID\nsleep 30\n")
    killer.chmod(0o755)
    cache = tmp_path / "cache"
    env = victim_env(tmp_path, PYX_CACHE_DIR=str(cache), CC=str(killer))
    killed = pyx("run", "prog.px", cwd=tmp_path, env=env)
    assert killed.returncode == -9
    assert os.listdir(cache)  # the object code it was linking is still there

    env = victim_env(tmp_path, PYX_CACHE_DIR=str(cache))
    info = pyx("cache", "info", str(tmp_path), cwd=tmp_path, env=env)
    assert info.returncode == 0 and "1 leftovers of interrupted compiles" in info.stdout, info.stdout
    cleared = pyx("cache", "clear", str(tmp_path), cwd=tmp_path, env=env)
    assert cleared.returncode == 0, cleared.stderr
    assert os.listdir(cache) == []


def test_clear_does_not_follow_a_symlinked_pycache(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "notes.pyxc").write_text("not a cache entry: the user's own file\n")
    project = tmp_path / "project"
    project.mkdir()
    (project / "__pycache__").symlink_to(outside)
    env = victim_env(tmp_path, PYX_CACHE_DIR=str(tmp_path / "cache"))
    cleared = pyx("cache", "clear", str(project), cwd=tmp_path, env=env)
    assert cleared.returncode == 0, cleared.stderr
    assert (outside / "notes.pyxc").read_text() == "not a cache entry: the user's own file\n"


def test_clear_removes_links_in_the_cache_not_their_targets(tmp_path):
    outside = tmp_path / "outside.txt"
    outside.write_text("kept\n")
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / "prog.0123456789abcdef0123.pyxc").symlink_to(outside)
    (cache / "prog.0123456789abcdef0123.so").symlink_to(outside)
    (cache / "gone.0123456789abcdef0123.pyxc").symlink_to(tmp_path / "nothing-here")  # dangling
    env = victim_env(tmp_path, PYX_CACHE_DIR=str(cache))
    cleared = pyx("cache", "clear", str(tmp_path), cwd=tmp_path, env=env)
    assert cleared.returncode == 0, cleared.stderr
    assert "removed: 2 entries" in cleared.stdout
    assert os.listdir(cache) == [] and outside.read_text() == "kept\n"


def test_cache_files_and_folders_are_private(tmp_path):
    """Folders pyx makes are 0700 and its files 0600 (the linked library 0700), whatever the umask."""
    (tmp_path / "prog.px").write_text(PROGRAM)
    env = victim_env(tmp_path)
    done = subprocess.run([sys.executable, "-c", "import os, sys; os.umask(0); from pyx.cli import main; "
                           "sys.exit(main(['run', 'prog.px']))"], cwd=tmp_path, env=env, capture_output=True,
                          text=True)
    assert done.stdout == "real program\n", done.stderr
    made = [tmp_path / "__pycache__", tmp_path / "xdg", tmp_path / "xdg" / "pyx"]
    assert {p.name: oct(p.stat().st_mode & 0o777) for p in made} == {p.name: "0o700" for p in made}
    for folder in made[0], made[2]:
        for f in folder.iterdir():
            assert f.stat().st_mode & 0o077 == 0, f


def test_a_user_cache_directory_an_older_pyx_made_group_writable_is_made_private(tmp_path):
    """Older versions made ~/.cache/pyx with the umask's mode (0775 under a umask of 002): it is
    tightened to 0700 and used, rather than leaving that user without a cache."""
    (tmp_path / "prog.px").write_text(PROGRAM)
    (tmp_path / "xdg" / "pyx").mkdir(parents=True)
    (tmp_path / "xdg" / "pyx").chmod(0o775)
    (tmp_path / "__pycache__").mkdir(mode=0o775)  # the user's own, group-writable: passed over, left as it is
    (tmp_path / "__pycache__").chmod(0o775)
    env = victim_env(tmp_path)
    assert pyx("run", "prog.px", cwd=tmp_path, env=env).stdout == "real program\n"
    again = pyx("run", "--time", "prog.px", cwd=tmp_path, env=env)
    assert again.stdout == "real program\n" and "pyx: cache " in again.stderr
    assert oct((tmp_path / "xdg" / "pyx").stat().st_mode & 0o777) == "0o700"
    assert oct((tmp_path / "__pycache__").stat().st_mode & 0o777) == "0o775"
    assert list((tmp_path / "xdg" / "pyx").glob("prog.*.pyxc")) and not list((tmp_path / "__pycache__").iterdir())
