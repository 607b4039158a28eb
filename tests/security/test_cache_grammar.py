"""The parser's LALR tables are cached like every other cache file: sealed with this user's
secret in this user's cache directory. Lark's own `cache=True` unpickled a file at a predictable
name in the shared temp directory (`/tmp/.lark_cache_<user>_<grammar hash>_<python>.tmp`), so
another local user who planted that file ran code in every pyx process started after."""
import os
import subprocess
import sys
from pathlib import Path

LOAD_PARSER = "from pyx.syntax import parser; parser._parser(); print('ok')"


def _run(code: str, tmp: Path, cache: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, TMPDIR=str(tmp), XDG_CACHE_HOME=str(cache))
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)


def test_nothing_is_read_or_written_in_the_shared_temp_directory(tmp_path):
    tmp, cache = tmp_path / "tmp", tmp_path / "cache"
    tmp.mkdir()
    for _ in range(2):  # the first run builds the tables, the second loads them
        done = _run(LOAD_PARSER, tmp, cache)
        assert done.stdout.strip() == "ok", done.stderr
    assert list(tmp.iterdir()) == []
    tables = list((cache / "pyx").glob("grammar-*.lark"))
    assert len(tables) == 1
    assert tables[0].stat().st_mode & 0o077 == 0


def test_tables_that_do_not_verify_are_built_again(tmp_path):
    tmp, cache = tmp_path / "tmp", tmp_path / "cache"
    tmp.mkdir()
    assert _run(LOAD_PARSER, tmp, cache).returncode == 0
    (tables,) = (cache / "pyx").glob("grammar-*.lark")
    data = bytearray(tables.read_bytes())
    data[-10] ^= 0xFF  # one flipped byte in the pickled tables
    tables.write_bytes(bytes(data))
    check = ("from pyx.syntax import parser\n"
             "from pyx.source import SourceFile\n"
             "parser.parse(SourceFile('m.px', 'fn main():\\n    print(f\"{1 + 2}\")\\n'))\n"
             "print('ok')\n")
    done = _run(check, tmp, cache)
    assert done.stdout.strip() == "ok", done.stderr
    assert tables.read_bytes() != bytes(data)  # rebuilt and sealed again


PLANT = """
import io, os, pickle, sys
from pyx.syntax import parser
from pyx.runtime import cache

class Planted:
    def __reduce__(self):
        return (os.mkdir, (sys.argv[1],))

text = parser.GRAMMAR.read_text()
path, key = parser._tables_entry(text)
for first, second in (((parser._regexes_key(), {}), Planted()), (Planted(), None)):
    data = io.BytesIO()
    pickle.dump(first, data)
    pickle.dump(second, data)
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    cache.write_atomic(path, cache.seal("grammar", key, data.getvalue()))
    print(parser._load_tables(text))
# `os.mkdir` named as an attribute of a lark module (lark.utils imports os): a lark module's name is
# no pass, only Lark's own classes are
name = sys.argv[1].encode()
raw = b"\\x80\\x04\\x8c\\x0alark.utils\\x8c\\x08os.mkdir\\x93\\x8c" + bytes([len(name)]) + name + b"\\x85R."
data = io.BytesIO()
pickle.dump((parser._regexes_key(), {}), data)
cache.write_atomic(path, cache.seal("grammar", key, data.getvalue() + raw))
print(parser._load_tables(text))
"""


def test_sealed_tables_that_name_anything_but_lark_are_refused(tmp_path):
    """The tables are a pickle of Lark's parser object. Even sealed with this user's secret (a bug
    of ours, or a secret read by someone), only Lark's classes and the parser's own two functions
    can come out of it: anything else it names is refused, never called, and the tables are built
    again."""
    tmp, cache, planted = tmp_path / "tmp", tmp_path / "cache", tmp_path / "planted"
    tmp.mkdir()
    done = subprocess.run([sys.executable, "-c", PLANT, str(planted)], capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, TMPDIR=str(tmp), XDG_CACHE_HOME=str(cache)))
    assert done.stdout.split() == ["None", "None", "None"], done.stderr
    assert not planted.exists()
