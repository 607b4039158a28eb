"""The compiled-code cache runs only what this user compiled. An entry and shared library planted
by another user (in a `__pycache__` they own or may write, or in a shared PYX_CACHE_DIR), or
unpacked into this user's own folder from elsewhere, is never loaded: pyx compiles the program
and prints what it prints, and the planted library's constructor never runs."""
import sys
import textwrap

import pytest

from cache_attacks import PROGRAM, REAL, as_user, forge, only_entry, pyx, replace_file, victim_env


def plant(folder, files):
    """The attacker's step: put each (name, bytes) in `folder`, replacing what is there."""
    for name, data in files:
        replace_file(folder / name, data)


@pytest.mark.parametrize("owner, mode", [("attacker", 0o777), ("attacker", 0o755), ("victim", 0o777)])
def test_a_forged_entry_beside_the_source_does_not_run(tmp_path, shared, attacker, planted, owner, mode):
    library, marker = planted
    (shared / "prog.px").write_text(PROGRAM)
    pycache = shared / "__pycache__"
    if owner == "attacker":
        as_user(attacker, lambda: (pycache.mkdir(), pycache.chmod(mode)))
    else:  # the victim's own, but writable by everyone: as good as anyone's
        pycache.mkdir()
        pycache.chmod(mode)
    env = victim_env(tmp_path)
    first = pyx("run", "prog.px", cwd=shared, env=env)
    assert (first.returncode, first.stdout) == (0, REAL), first.stderr
    entry = only_entry(pycache, tmp_path / "xdg")
    forged = forge(entry.read_bytes(), library)
    as_user(attacker, plant, pycache, [(entry.name, forged), (entry.with_suffix(".so").name, library)])

    second = pyx("run", "prog.px", cwd=shared, env=env)
    assert (second.returncode, second.stdout) == (0, REAL), second.stderr
    assert not marker.exists()
    assert f"pyx: not using the cache at {pycache}: " in second.stderr  # PYX_DEBUG says why
    # Not a miss every time: the entries went to the user's own cache, and the next run is a hit.
    third = pyx("run", "--time", "prog.px", cwd=shared, env=env)
    assert third.stdout == REAL and "pyx: cache " in third.stderr


def test_a_forged_entry_in_a_shared_cache_directory_does_not_run(tmp_path, shared, attacker, planted):
    library, marker = planted
    (tmp_path / "prog.px").write_text(PROGRAM)
    env = victim_env(tmp_path, PYX_CACHE_DIR=str(shared))
    first = pyx("run", "prog.px", cwd=tmp_path, env=env)
    assert (first.returncode, first.stdout) == (0, REAL), first.stderr
    entry = only_entry(shared, tmp_path / "xdg")
    forged = forge(entry.read_bytes(), library)
    as_user(attacker, plant, shared, [(entry.name, forged), (entry.with_suffix(".so").name, library)])

    second = pyx("run", "prog.px", cwd=tmp_path, env=env)
    assert (second.returncode, second.stdout) == (0, REAL), second.stderr
    assert not marker.exists()


def test_an_entry_this_user_owns_but_did_not_write_never_verifies(tmp_path, planted):
    """A `__pycache__` unpacked from an archive or copied from another machine belongs to whoever
    unpacked it, with ordinary modes: only the checksum keyed with this user's secret tells that
    pyx did not write it. No second user needed."""
    library, marker = planted
    (tmp_path / "prog.px").write_text(PROGRAM)
    env = victim_env(tmp_path, PYX_CACHE_DIR=str(tmp_path / "cache"))
    assert pyx("run", "prog.px", cwd=tmp_path, env=env).stdout == REAL
    entry = only_entry(tmp_path / "cache")
    replace_file(entry, forge(entry.read_bytes(), library), 0o600)
    replace_file(entry.with_suffix(".so"), library, 0o700)

    again = pyx("run", "prog.px", cwd=tmp_path, env=env)
    assert (again.returncode, again.stdout) == (0, REAL), again.stderr
    assert not marker.exists()
    assert "its checksum does not verify" in again.stderr


def test_import_module_does_not_load_a_planted_entry(tmp_path, shared, attacker, planted):
    library, marker = planted
    (shared / "lib.px").write_text("fn answer() -> Int:\n    return 42\n")
    pycache = shared / "__pycache__"
    as_user(attacker, lambda: (pycache.mkdir(), pycache.chmod(0o777)))
    script = textwrap.dedent('''
        import sys
        import pyx
        print(pyx.import_module("lib", path=[sys.argv[1]]).answer())
    ''')
    env = victim_env(tmp_path)

    def victim():
        import subprocess

        return subprocess.run([sys.executable, "-c", script, str(shared)], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=120)

    assert victim().stdout == "42\n"
    entry = only_entry(pycache, tmp_path / "xdg")
    as_user(attacker, plant, pycache, [(entry.name, forge(entry.read_bytes(), library)),
                                       (entry.with_suffix(".so").name, library)])
    again = victim()
    assert (again.returncode, again.stdout) == (0, "42\n"), again.stderr
    assert not marker.exists()


def test_symlinks_in_the_cache_are_misses_and_their_targets_are_left_alone(tmp_path, shared, attacker, planted):
    """An archive unpacked into this user's cache may hold symlinks to files another user
    controls: the links are never followed, and replacing them never writes into their targets."""
    library, marker = planted
    (tmp_path / "prog.px").write_text(PROGRAM)
    env = victim_env(tmp_path, PYX_CACHE_DIR=str(tmp_path / "cache"))
    assert pyx("run", "prog.px", cwd=tmp_path, env=env).stdout == REAL
    entry = only_entry(tmp_path / "cache")
    forged = forge(entry.read_bytes(), library)
    as_user(attacker, plant, shared, [("entry", forged), ("library", library)])
    for name, target in ((entry, shared / "entry"), (entry.with_suffix(".so"), shared / "library")):
        name.unlink()
        name.symlink_to(target)

    again = pyx("run", "prog.px", cwd=tmp_path, env=env)
    assert (again.returncode, again.stdout) == (0, REAL), again.stderr
    assert not marker.exists()
    assert f"pyx: not using the cache at {entry}: it is a symbolic link" in again.stderr
    assert (shared / "entry").read_bytes() == forged and (shared / "library").read_bytes() == library
    assert not entry.is_symlink()  # the new entry replaced the link itself


def test_a_cache_directory_others_may_write_is_not_used(tmp_path, planted):
    """The directory is checked as well as the files: one that became world-writable is passed over
    (anyone could have put the entry there), whatever it holds."""
    library, marker = planted
    (tmp_path / "prog.px").write_text(PROGRAM)
    env = victim_env(tmp_path, PYX_CACHE_DIR=str(tmp_path / "cache"))
    assert pyx("run", "prog.px", cwd=tmp_path, env=env).stdout == REAL
    entry = only_entry(tmp_path / "cache")
    replace_file(entry, forge(entry.read_bytes(), library), 0o600)
    replace_file(entry.with_suffix(".so"), library, 0o700)
    (tmp_path / "cache").chmod(0o777)
    again = pyx("run", "prog.px", cwd=tmp_path, env=env)
    assert (again.returncode, again.stdout) == (0, REAL), again.stderr
    assert not marker.exists()
    assert f"pyx: not using the cache at {tmp_path / 'cache'}: its mode 0777 lets other users write it" in again.stderr
