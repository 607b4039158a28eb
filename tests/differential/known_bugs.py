"""pyx bugs the differential tests found, kept out of the random programs until they are fixed.

Each entry is a way pyx disagrees with CPython inside the common subset. While it is listed
here the generator (or the CPython runner) steers clear of it, so the rest of the language
keeps being tested; `test_known_bugs.py` holds the minimal repro of each one as an xfail
that turns into a failure the day the bug is fixed: then delete the entry.

PYX_DIFF_KNOWN_BUGS=include generates them again (to check a fix against random programs).
"""
from __future__ import annotations

import os

KNOWN_BUGS: dict[str, str] = {}


def excluded(name: str) -> bool:
    """Whether the generator/runner should avoid this bug (the default while it is listed)."""
    assert name in KNOWN_BUGS, name
    return os.environ.get("PYX_DIFF_KNOWN_BUGS") != "include"
