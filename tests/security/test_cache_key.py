"""An entry is found only for the file it was compiled from: the same `main.px` in two folders,
each importing its own `helper.px`, shares a PYX_CACHE_DIR without either running the other's
helper (the key covers the resolved path, and the recorded imports are re-checked on load)."""
import subprocess
import sys
import textwrap

from cache_attacks import pyx, victim_env

MAIN = textwrap.dedent('''
    from helper import who

    fn main() raises:
        print(who())
        raise ValueError("boom")
''')


def two_projects(tmp_path):
    for name in "ab":
        folder = tmp_path / name
        folder.mkdir()
        (folder / "main.px").write_text(MAIN)
        (folder / "helper.px").write_text(f'fn who() -> String:\n    return "helper {name}"\n')
        (folder / "mod.px").write_text("from helper import who\n\nfn name() -> String:\n    return who()\n")


def test_pyx_run_of_the_same_file_in_two_folders_runs_each_ones_helper(tmp_path):
    two_projects(tmp_path)
    env = victim_env(tmp_path, PYX_CACHE_DIR=str(tmp_path / "shared-cache"))
    for name in "abab":
        done = pyx("run", f"{name}/main.px", cwd=tmp_path, env=env)
        assert (done.returncode, done.stdout) == (1, f"helper {name}\n")
        assert f'File "{name}/main.px", line 6, in main' in done.stderr


def test_the_name_a_file_is_run_by_is_the_one_its_traceback_prints(tmp_path):
    two_projects(tmp_path)
    env = victim_env(tmp_path, PYX_CACHE_DIR=str(tmp_path / "shared-cache"))
    assert 'File "main.px", line 6' in pyx("run", "main.px", cwd=tmp_path / "a", env=env).stderr
    assert 'File "a/main.px", line 6' in pyx("run", "a/main.px", cwd=tmp_path, env=env).stderr


def test_import_module_of_the_same_module_in_two_folders_imports_each_ones_helper(tmp_path):
    two_projects(tmp_path)
    env = victim_env(tmp_path, PYX_CACHE_DIR=str(tmp_path / "shared-cache"))
    script = "import sys, pyx\nprint(pyx.import_module('mod', path=[sys.argv[1]]).name())\n"
    for name in "abab":
        done = subprocess.run([sys.executable, "-c", script, str(tmp_path / name)], env=env, capture_output=True,
                              text=True, timeout=120)
        assert done.stdout == f"helper {name}\n", done.stderr


KERNEL = textwrap.dedent('''
    from helper import factor

    @kernel
    fn scaled(a: Float32, x: Ptr[Float32], y: Ptr[Float32], n: Int):
        var i = global_idx.x
        if i < n:
            y[i] = a * x[i] * factor() + y[i]

    fn main():
        var x = Ptr[Float32].alloc(4)
        var y = Ptr[Float32].alloc(4)
        launch scaled[grid=1, block=4](1.0, x, y, 4)
        print("launched")
        x.free()
        y.free()
''')


def test_cached_ptx_is_not_reused_once_a_module_it_imports_changed(fake, tmp_path, monkeypatch):
    """The PTX cached beside an entry records the modules it was compiled with, as the entry does."""
    from helpers import run_cli
    from pyx.runtime import cuda

    (tmp_path / "prog.px").write_text(KERNEL)
    (tmp_path / "helper.px").write_text("fn factor() -> Float32:\n    return 2.0\n")
    assert run_cli("run", "--target=cuda", str(tmp_path / "prog.px")).stdout == "launched\n"
    two, three = b"1073741824", b"1077936128"  # 2.0 and 3.0 as PTX writes the helper's result
    assert two in fake.ptx
    (tmp_path / "helper.px").write_text("fn factor() -> Float32:\n    return 3.0\n")
    cuda.use_driver(lambda: fake)  # a fresh device: the module is loaded again
    assert run_cli("run", "--target=cuda", str(tmp_path / "prog.px")).stdout == "launched\n"
    assert three in fake.ptx and two not in fake.ptx
