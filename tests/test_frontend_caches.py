"""What the front end keeps between compiles, and what a compile sets while it runs: a standard
library module is read and walked once per process (its tree and the summary of its names come
from the parse cache, then from memory), the collector is tuned only while a compile runs, a
relative path is resolved again in each working directory, and a cold run links the library for
the next start while it goes on. None of it may change what a program compiles to
(docs/compiler.md, "Compile time")."""
import gc
import hashlib
import json
import os
import shutil
import subprocess
import threading

import pytest

from pyx import parse_cache, pipeline
from pyx.passmanager import Pass, PassManager
from pyx.semantics import module as module_mod
from pyx.source import SourceFile

PROGRAM = 'def main():\n    xs = [3, 1, 2]\n    d = {"a": 1}\n    print(len(xs), len(d), xs, "-".join(["x", "y"]))\n'


@pytest.fixture()
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("PYX_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def compile_ir() -> str:
    from pyx.ir.printer import print_module

    return print_module(pipeline.lower(SourceFile("prog.px", PROGRAM)).ir)


def test_a_stdlib_module_is_walked_for_its_names_once_then_its_summary_is_used(cache):
    compile_ir()  # the stdlib trees are parsed or read, walked once, and kept with their summaries
    assert pipeline.check(SourceFile("prog.px", PROGRAM)).program.walked == ["prog.px"]  # only the program itself


def test_a_second_compile_in_the_process_decodes_no_stdlib_tree(cache, monkeypatch):
    first = compile_ir()

    def refuse(*args):
        raise AssertionError("a stdlib tree was decoded or parsed again")

    monkeypatch.setattr(parse_cache, "decode", refuse)
    monkeypatch.setattr(parse_cache, "parse", refuse)
    assert compile_ir() == first


def test_a_cleared_cache_gets_its_entries_back_from_memory(cache):
    first = compile_ir()
    entries = sorted(p.name for p in cache.glob("*.pyxast"))
    assert entries
    for p in cache.glob("*.pyxast"):
        p.unlink()
    assert compile_ir() == first
    assert sorted(p.name for p in cache.glob("*.pyxast")) == entries


def stdlib_sources():
    from pyx.semantics.imports import STDLIB

    return [SourceFile(str(p), p.read_text(encoding="utf-8")) for p in sorted(STDLIB.glob("*.px"))]


def test_every_stdlib_summary_gives_back_exactly_what_the_walk_finds():
    """A new finding of `_Uses` (an attribute) must survive the parse cache's JSON."""
    from pyx.diagnostics import DiagnosticBag
    from pyx.syntax import parse

    for source in stdlib_sources():
        tree = parse(source, DiagnosticBag())
        walked = module_mod._Uses(tree)
        restored = module_mod._Uses.restore(json.loads(json.dumps(module_mod.uses_summary(tree))))
        assert vars(restored) == vars(walked), source.name


def test_the_collector_is_tuned_while_a_compile_runs_and_put_back_after():
    seen = []

    def record(module):
        seen.append(gc.get_threshold())
        return module

    passes = PassManager().with_pass(Pass("record_gc", "test: the collector's thresholds", record, "ir", "ir"),
                                     after="infer_raises")
    saved = gc.get_threshold()
    gc.set_threshold(1234, 5, 6)
    try:
        pipeline.lower(SourceFile("prog.px", PROGRAM), passes=passes)
        assert len(seen) == 1 and seen[0][0] >= 10_000 and seen[0][1:] == (5, 6)  # (deep.STAGE_GC_THRESHOLD)
        assert gc.get_threshold() == (1234, 5, 6)
    finally:
        gc.set_threshold(*saved)


def test_a_relative_path_imports_from_the_current_directory_each_time(tmp_path, monkeypatch):
    program = "from helper import value\n\ndef main():\n    print(value())\n"
    found = []
    for name in ("one", "two"):
        folder = tmp_path / name
        folder.mkdir()
        (folder / "helper.px").write_text(f"def value() -> Int:\n    return {len(name)}\n")
        monkeypatch.chdir(folder)
        deps = pipeline.check(SourceFile("prog.px", program)).program.dependencies
        found.append([path for path, _ in deps if path.endswith("helper.px")])
    assert found == [[str((tmp_path / "one" / "helper.px").resolve())],
                     [str((tmp_path / "two" / "helper.px").resolve())]]


@pytest.mark.skipif(not (shutil.which("cc") or shutil.which("gcc")), reason="no C compiler to link with")
def test_a_cold_run_links_its_library_while_it_goes_on(tmp_path, monkeypatch):
    """`pyx run` links the library for the next start beside the program (runtime/native.py
    BackgroundLink): starting the link returns while the linker still waits, here on a pipe
    that is opened only after the start returned; the result is the library's SHA-256."""
    from pyx.runtime import native

    source = tmp_path / "f.c"
    source.write_text("int f(void) { return 42; }\n")
    real_cc = shutil.which("cc") or shutil.which("gcc")
    subprocess.run([real_cc, "-c", "-fPIC", "-o", str(tmp_path / "f.o"), str(source)], check=True)
    gate = tmp_path / "gate"
    os.mkfifo(gate)
    waiting_cc = tmp_path / "waiting-cc"
    waiting_cc.write_text(f'#!/bin/sh\nread go < "{gate}"\nexec "{real_cc}" "$@"\n')
    waiting_cc.chmod(0o755)
    monkeypatch.setenv("CC", str(waiting_cc))
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    # Should the start wait for the linker, this opens the pipe from a timer instead, and the
    # start returns only after it: the order of the two events below says which happened.
    events = []
    timer = threading.Timer(60, lambda: (events.append("timer opened the gate"), _open_gate(gate)))
    timer.start()
    try:
        link = native.BackgroundLink((tmp_path / "f.o").read_bytes(), cache / "f.so")
        events.append("started")
    finally:
        timer.cancel()
    if events == ["started"]:
        _open_gate(gate)
    digest = link.result()
    assert events == ["started"]
    assert digest == hashlib.sha256((cache / "f.so").read_bytes()).hexdigest()


def _open_gate(gate) -> None:
    with open(gate, "w") as f:
        f.write("go\n")
