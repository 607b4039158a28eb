"""A FIFO where pyx expects a cache file (an entry, its shared library, the parsed standard
library, the host memo) is a miss, not a read that waits forever for a writer: anyone who may
create files where a cache file is looked up could otherwise hang every run."""
import os

import pytest

from cache_attacks import pyx, victim_env

PROGRAM = 'fn main():\n    var xs = List[Int]()\n    xs.append(7)\n    print("popped", xs.pop())\n'


def first_of(folder, pattern):
    found = sorted(folder.glob(pattern))
    assert found, f"no {pattern} in {folder}"
    return found[0]


@pytest.mark.parametrize("which", ["entry", "library", "parsed stdlib", "host memo"])
def test_a_fifo_in_the_cache_does_not_block(tmp_path, which):
    (tmp_path / "prog.px").write_text(PROGRAM)
    cache, memo = tmp_path / "cache", tmp_path / "xdg" / "pyx"
    env = victim_env(tmp_path, PYX_CACHE_DIR=str(cache))
    first = pyx("run", "prog.px", cwd=tmp_path, env=env)
    assert (first.returncode, first.stdout) == (0, "popped 7\n"), first.stderr
    if which == "library" and not list(cache.glob("prog.*.so")):
        pytest.skip("no C compiler: no shared library is cached")
    target = {"entry": lambda: first_of(cache, "prog.*.pyxc"), "library": lambda: first_of(cache, "prog.*.so"),
              "parsed stdlib": lambda: first_of(cache, "collections.*.pyxast"),
              "host memo": lambda: first_of(memo, "host-*.txt")}[which]()
    target.unlink()
    os.mkfifo(target)
    if which == "parsed stdlib":  # the compiled program would be a hit, and the trees never read
        for entry in cache.glob("prog.*.pyxc"):
            entry.unlink()

    again = pyx("run", "prog.px", cwd=tmp_path, env=env, timeout=30)
    assert (again.returncode, again.stdout) == (0, "popped 7\n"), again.stderr
    assert f"pyx: not using the cache at {target}: it is not a regular file" in again.stderr
