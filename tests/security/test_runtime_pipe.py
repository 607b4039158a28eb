"""Output to a closed pipe stops the program as it stops Python.

`python3 prog.py | head -1` ends with BrokenPipeError at the print that failed (traceback,
status 1); when only the final flush fails, CPython says "Exception ignored in: <stdout>" and
exits with 120. `pyx run` (and an executable) do the same, instead of running to the end and
exiting 0 with the output silently lost. Other write errors are OSError with errno's text.
"""
import subprocess

from runtime_helpers import build_executable, child_env, pyx_command

MANY = '''
fn main():
    for i in range(1000000):
        print(i)
    print("ran to the end")
'''

LATE = '''
fn main():
    var s = 0
    for i in range(1000):
        s += i
    print(s)
'''


def _closed_reader(command, env, lines_read: int):
    """Run `command` with stdout a pipe that is closed after `lines_read` lines."""
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    for _ in range(lines_read):
        child.stdout.readline()
    child.stdout.close()
    err = child.stderr.read().decode()
    return child.wait(timeout=300), err


def test_print_to_a_closed_pipe_raises_broken_pipe_error(tmp_path):
    (tmp_path / "prog.px").write_text(MANY)
    status, err = _closed_reader(pyx_command("run", str(tmp_path / "prog.px")), child_env(tmp_path), 1)
    assert status == 1
    assert err == (f'Traceback (most recent call last):\n  File "{tmp_path / "prog.px"}", line 4, in main\n'
                   "BrokenPipeError: [Errno 32] Broken pipe\n")


def test_flush_at_exit_to_a_closed_pipe_is_status_120(tmp_path):
    (tmp_path / "prog.px").write_text(LATE)
    status, err = _closed_reader(pyx_command("run", str(tmp_path / "prog.px")), child_env(tmp_path), 0)
    assert status == 120
    assert err == ("Exception ignored in: <_io.TextIOWrapper name='<stdout>' mode='w' encoding='utf-8'>\n"
                   "BrokenPipeError: [Errno 32] Broken pipe\n")


def test_executable_matches(tmp_path):
    (tmp_path / "prog.px").write_text(MANY)
    exe = build_executable(tmp_path / "prog.px", tmp_path)
    status, err = _closed_reader([str(exe)], child_env(tmp_path), 1)
    assert status == 1 and err.endswith("BrokenPipeError: [Errno 32] Broken pipe\n")


def test_full_disk_is_os_error(tmp_path):
    (tmp_path / "prog.px").write_text(MANY)
    with open("/dev/full", "w") as full:
        done = subprocess.run(pyx_command("run", str(tmp_path / "prog.px")), stdout=full, stderr=subprocess.PIPE,
                              text=True, env=child_env(tmp_path), timeout=300)
    assert done.returncode == 1
    assert done.stderr.endswith("OSError: [Errno 28] No space left on device\n")


CATCH = '''
fn main():
    try:
        for i in range(1000000):
            print(i)
    except OSError as e:
        pass
'''


def test_broken_pipe_is_an_os_error_the_program_can_catch(tmp_path):
    (tmp_path / "prog.px").write_text(CATCH)
    status, err = _closed_reader(pyx_command("run", str(tmp_path / "prog.px")), child_env(tmp_path), 1)
    assert (status, err) == (0, "")
