"""The standard library's cached syntax trees (*.pyxast) are data, never code: a pickle planted
where pyx looks for them is not unpickled (it used to run during `pyx check`, `pyx run` and in
the language server), and a tree whose bytes changed is a miss, reparsed, never compiled as is."""
import asyncio
import pickle
import sys

import pytest

from cache_attacks import as_user, pyx, replace_file, victim_env

PROGRAM = 'fn main():\n    var xs = List[Int]()\n    xs.append(7)\n    print("popped", xs.pop())\n'


class Planted:
    """Unpickling this creates the file `marker`: what any code it ran could do."""

    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return open, (self.marker, "w")


def planted_pickle(marker) -> bytes:
    return b"PYXAST1\n" + pickle.dumps(Planted(marker))  # the old entries' magic line, then the pickle


def tree_names(*folders):
    names = sorted({p.name for folder in folders if folder.is_dir() for p in folder.glob("*.pyxast")})
    assert any(n.startswith("collections.") for n in names), names
    return names


@pytest.mark.parametrize("command", ["check", "run"])
def test_a_pickle_planted_in_a_shared_cache_directory_never_runs(tmp_path, shared, attacker, command):
    marker = tmp_path / "PICKLE-RAN"
    (tmp_path / "prog.px").write_text(PROGRAM)
    env = victim_env(tmp_path, PYX_CACHE_DIR=str(shared), PYX_NO_CACHE="1")
    assert pyx("check", "prog.px", cwd=tmp_path, env=env).returncode == 0
    names = tree_names(shared, tmp_path / "xdg" / "pyx")

    def plant():
        for name in names:
            replace_file(shared / name, planted_pickle(marker))

    as_user(attacker, plant)
    done = pyx(command, "prog.px", cwd=tmp_path, env=env)
    assert (done.returncode, done.stdout) == (0, "popped 7\n" if command == "run" else ""), done.stderr
    assert not marker.exists()


def test_a_pickle_in_this_users_own_cache_is_never_unpickled(tmp_path):
    marker = tmp_path / "PICKLE-RAN"
    (tmp_path / "prog.px").write_text(PROGRAM)
    cache = tmp_path / "cache"
    env = victim_env(tmp_path, PYX_CACHE_DIR=str(cache), PYX_NO_CACHE="1")
    assert pyx("check", "prog.px", cwd=tmp_path, env=env).returncode == 0
    for name in tree_names(cache):
        replace_file(cache / name, planted_pickle(marker), 0o600)
    done = pyx("run", "prog.px", cwd=tmp_path, env=env)
    assert (done.returncode, done.stdout) == (0, "popped 7\n"), done.stderr
    assert not marker.exists()


def test_the_language_server_does_not_unpickle_a_planted_tree(tmp_path, monkeypatch):
    pytest.importorskip("pygls", reason="the language server needs pygls")
    from lsprotocol import types as lsp
    from pygls.lsp.client import LanguageClient

    marker = tmp_path / "PICKLE-RAN"
    cache = tmp_path / "cache"
    (tmp_path / "prog.px").write_text(PROGRAM)
    env = victim_env(tmp_path, PYX_CACHE_DIR=str(cache))
    assert pyx("check", "prog.px", cwd=tmp_path, env=env).returncode == 0
    for name in tree_names(cache):
        replace_file(cache / name, planted_pickle(marker), 0o600)
    for key, value in env.items():
        monkeypatch.setenv(key, value)  # the server process inherits this environment

    async def session():
        client = LanguageClient("pyx-tests", "1")
        arrived = asyncio.Event()
        published = []

        @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def on_diagnostics(params):
            published.append(params)
            arrived.set()

        await client.start_io(sys.executable, "-m", "pyx", "lsp")
        try:
            await client.initialize_async(lsp.InitializeParams(capabilities=lsp.ClientCapabilities(),
                                                               root_uri=tmp_path.as_uri()))
            client.initialized(lsp.InitializedParams())
            client.text_document_did_open(lsp.DidOpenTextDocumentParams(text_document=lsp.TextDocumentItem(
                uri=(tmp_path / "prog.px").as_uri(), language_id="pyx", version=1, text=PROGRAM)))
            await asyncio.wait_for(arrived.wait(), 60)
            return published[-1].diagnostics
        finally:
            await client.shutdown_async(None)
            client.exit(None)
            await client.stop()

    assert list(asyncio.run(session())) == []  # no diagnostics: the program was checked
    assert not marker.exists()


def test_a_flipped_byte_in_a_parsed_tree_is_a_miss(tmp_path):
    """One changed letter in the cached List used to reach the program's output."""
    (tmp_path / "prog.px").write_text("fn main() raises:\n    var xs = List[Int]()\n    print(xs.pop())\n")
    cache = tmp_path / "cache"
    env = victim_env(tmp_path, PYX_CACHE_DIR=str(cache), PYX_NO_CACHE="1")
    first = pyx("run", "prog.px", cwd=tmp_path, env=env)
    assert first.returncode == 1 and first.stderr.endswith("IndexError: pop from empty list\n"), first.stderr
    (entry,) = cache.glob("collections.*.pyxast")
    data = bytearray(entry.read_bytes())
    at = data.rindex(b"pop from empty list")  # the string literal's (a pickle held the file's text too)
    data[at + 18] = ord("T")
    entry.write_bytes(bytes(data))

    again = pyx("run", "prog.px", cwd=tmp_path, env=env)
    assert again.returncode == 1 and again.stderr.endswith("IndexError: pop from empty list\n"), again.stderr
    assert f"pyx: not using the cache at {entry}: its checksum does not verify" in again.stderr
