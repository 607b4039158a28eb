"""The minimal repro of each bug in known_bugs.py: xfail while pyx disagrees with CPython.

Each program is in the common subset of pyx and Python; CPython's output is the expected
one. When a bug is fixed its test fails ("looks fixed"): delete the entry here and in
known_bugs.py, so the random programs cover that feature again.
"""
from __future__ import annotations

import pytest

from compare import compare
from known_bugs import KNOWN_BUGS

GUARD = '\n\nif __name__ == "__main__":\n    main()\n'

REPROS: dict[str, str] = {}


def test_every_known_bug_has_a_repro():
    assert set(REPROS) == set(KNOWN_BUGS)


@pytest.mark.parametrize("name", sorted(REPROS))
@pytest.mark.parametrize("opt_level", ["3", "0"])
def test_known_bug(name, opt_level, monkeypatch):
    monkeypatch.setenv("PYX_DIFF_KNOWN_BUGS", "include")  # the runner must not discard it
    verdict = compare(REPROS[name] + GUARD, opt_level)
    if not verdict.agree:
        pytest.xfail(f"{name}: {verdict.why}\n{verdict.report()}")
    pytest.fail(f"{name} looks fixed: remove it from known_bugs.py and test_known_bugs.py")
