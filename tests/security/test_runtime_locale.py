"""Float printing and `float(str)` do not depend on the host's C locale.

A Python host may call `locale.setlocale(locale.LC_ALL, "de_DE.UTF-8")` (a GUI toolkit does);
C's snprintf and strtod then use a decimal comma. Python's repr and float() never do, so
neither may pyx: `print(1.5)` prints `1.5`, `Float64("2.5")` is 2.5 and `Float64("2,5")` is
a ValueError, as in CPython under any locale.

Each check runs in a child process: setlocale changes the whole process.
"""
import os
import subprocess
import sys

import pytest

MODULE = '''
fn show(x: Float64, y: Float32):
    print(x, y, 1e22, 2.5e-7)

fn parse(s: String) raises -> Float64:
    return Float64(s)

fn text(x: Float64) -> String:
    return String(x)

fn percent(x: Float64) -> String:
    return f"{x:.3f}"
'''

SCRIPT = r'''
import locale, sys
try:
    locale.setlocale(locale.LC_ALL, "de_DE.UTF-8")
except locale.Error:
    print("NO-LOCALE")
    sys.exit(0)
import ctypes
# The locale really is in force for C: snprintf writes a decimal comma.
buf = ctypes.create_string_buffer(16)
ctypes.CDLL(None).snprintf(buf, 16, b"%.1f", ctypes.c_double(1.5))
assert buf.value == b"1,5", buf.value
import pyx
m = pyx.import_module("localemod", path=[sys.argv[1]])
sys.stdout.flush()
m.show(1.5, 0.25)
print(m.parse("2.5"), m.parse(" -1e3 "))
try:
    m.parse("2,5")
except ValueError as exc:
    print("ValueError:", exc)
print(m.text(0.1), m.percent(3.14159))
'''


def test_float_text_ignores_the_hosts_locale(tmp_path):
    (tmp_path / "localemod.px").write_text(MODULE)
    env = dict(os.environ, PYX_CACHE_DIR=str(tmp_path / "cache"), PYTHONPATH=os.pathsep.join(sys.path))
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path)], capture_output=True, text=True, env=env,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    if done.stdout.strip() == "NO-LOCALE":
        pytest.skip("the de_DE.UTF-8 locale is not installed (localedef -i de_DE -f UTF-8 de_DE.UTF-8)")
    assert done.stdout == ("1.5 0.25 1e+22 2.5e-07\n"
                           "2.5 -1000.0\n"
                           "ValueError: could not convert string to float: '2,5'\n"
                           "0.1 3.142\n")
