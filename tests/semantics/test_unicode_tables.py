"""stdlib/unicode_data.px is what tools/unicode_tables.py generates from this CPython's str
methods: regenerated and compared, so the tables cannot drift from the generator (or be edited
by hand). CPython's Unicode version is the one the file names; a different Python regenerates it."""
import importlib.util
import unicodedata

import pytest

from helpers import ROOT


def _generator():
    spec = importlib.util.spec_from_file_location("unicode_tables", ROOT / "tools" / "unicode_tables.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_tables_are_what_the_generator_writes():
    written = (ROOT / "stdlib" / "unicode_data.px").read_text()
    if f"Unicode {unicodedata.unidata_version})" not in written.splitlines()[0]:
        pytest.skip(f"generated from another Unicode version than this Python's {unicodedata.unidata_version}")
    assert _generator().generate().split("\n")[1:] == written.split("\n")[1:]  # line 1 names the Python
