"""The VS Code extension (editors/vscode), checked with the engine VS Code uses.

The TextMate grammar is run by vscode-textmate + vscode-oniguruma from
editors/vscode/node_modules, installed by `npm ci` from the committed lock file
the first time (and again whenever the lock file changes).
"""
from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

try:
    import fcntl
except ImportError:  # Windows: no concurrent runs to guard against there
    fcntl = None

import editor_surface as surface

EXT = surface.REPO / "editors" / "vscode"
NODE = shutil.which("node")
NPM = shutil.which("npm")
needs_node = pytest.mark.skipif(NODE is None or NPM is None, reason="node and npm are needed to run the VS Code grammar engine")


def _load_builder():
    spec = importlib.util.spec_from_file_location("pyx_build_grammar", EXT / "scripts" / "build_grammar.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_grammar_json_is_generated_from_build_grammar():
    builder = _load_builder()
    committed = (EXT / "syntaxes" / "pyx.tmLanguage.json").read_text(encoding="utf-8")
    assert committed == builder.render(), (
        "syntaxes/pyx.tmLanguage.json is stale: run python editors/vscode/scripts/build_grammar.py")


def test_manifest_points_at_existing_files():
    pkg = json.loads((EXT / "package.json").read_text(encoding="utf-8"))
    lang = pkg["contributes"]["languages"][0]
    assert lang["id"] == "pyx" and lang["extensions"] == [".px"]
    grammar = pkg["contributes"]["grammars"][0]
    assert grammar["scopeName"] == "source.pyx" and grammar["language"] == "pyx"
    for rel in (lang["configuration"], grammar["path"], pkg["contributes"]["snippets"][0]["path"], pkg["main"]):
        assert (EXT / rel).is_file(), rel
    lock = json.loads((EXT / "package-lock.json").read_text(encoding="utf-8"))
    locked = lock["packages"][""]
    assert locked.get("devDependencies") == pkg["devDependencies"], "package-lock.json is stale: run npm install"
    assert locked.get("dependencies") == pkg["dependencies"], "package-lock.json is stale: run npm install"


def _lock_digest() -> str:
    h = hashlib.sha256()
    for name in ("package.json", "package-lock.json"):
        h.update((EXT / name).read_bytes())
    return h.hexdigest()


@pytest.fixture(scope="session")
def node_modules():
    """Install the engine with `npm ci` unless node_modules matches the lock file already."""
    if NODE is None or NPM is None:
        pytest.skip("node and npm are needed to run the VS Code grammar engine")
    stamp = EXT / "node_modules" / ".pyx-lock-sha256"
    digest = _lock_digest()
    # pytest-xdist workers each run this fixture: one npm ci at a time.
    lock_path = Path(tempfile.gettempdir()) / f"pyx-npm-ci-{hashlib.sha256(str(EXT).encode()).hexdigest()[:12]}.lock"
    with open(lock_path, "w") as lock:
        if fcntl is not None:
            fcntl.flock(lock, fcntl.LOCK_EX)
        if not stamp.exists() or stamp.read_text().strip() != digest:
            proc = subprocess.run(
                [NPM, "ci", "--no-audit", "--no-fund", "--loglevel=error"],
                cwd=EXT, capture_output=True, text=True, timeout=600,
            )
            if proc.returncode != 0:
                pytest.fail(f"npm ci failed in {EXT}:\n{proc.stdout}\n{proc.stderr}")
            stamp.write_text(digest + "\n")
    return EXT / "node_modules"


def node(*args, env=None, timeout=120):
    return subprocess.run([NODE, *map(str, args)], cwd=EXT, capture_output=True, text=True, timeout=timeout, env=env)


def run_assertion_files(grammar_path=None):
    unit = EXT / "node_modules" / "vscode-tmgrammar-test" / "dist" / "unit.js"
    if grammar_path is None:  # the grammar package.json contributes, as VS Code loads it
        return node(unit, "-c", "tests/syntax/*.test.px")
    # package.json's grammar would win over -g: point --config at nothing.
    return node(unit, "-c", "--config", EXT / "tests" / "no-such-config.json", "-g", grammar_path,
                "tests/syntax/*.test.px")


@needs_node
def test_assertion_files_pass(node_modules):
    files = sorted((EXT / "tests" / "syntax").glob("*.test.px"))
    assert files
    proc = run_assertion_files()
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    assert "ERROR" not in out, out
    # A glob that matched nothing would pass silently.
    assert len(re.findall(r"run successfuly|run successfully", out)) == len(files), out


@needs_node
def test_known_words_in_examples_and_fixtures_get_their_scopes(node_modules):
    proc = node(EXT / "tests" / "check_scopes.js")
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    m = re.search(r"checked (\d+) files: (\d+) known words, (\d+) names, (\d+) numbers", out)
    assert m, out
    assert int(m.group(1)) == len(surface.real_files()), out
    assert int(m.group(2)) > 500 and int(m.group(4)) > 100, out


@needs_node
def test_extension_starts_the_server_only_when_pyx_is_on_path(node_modules):
    proc = node(EXT / "tests" / "extension.test.js")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def _broken_grammar(tmp_path, search: str, replace: str):
    text = (EXT / "syntaxes" / "pyx.tmLanguage.json").read_text(encoding="utf-8")
    assert search in text
    path = tmp_path / "broken.tmLanguage.json"
    path.write_text(text.replace(search, replace, 1), encoding="utf-8")
    return path


@needs_node
def test_the_checks_catch_a_broken_grammar(node_modules, tmp_path):
    # Float32 no longer a built-in type: both kinds of check must notice.
    broken = _broken_grammar(tmp_path, "|Float32|", "|")
    proc = run_assertion_files(broken)
    assert proc.returncode != 0 and "support.type.pyx" in proc.stdout + proc.stderr
    env = dict(os.environ, PYX_GRAMMAR=str(broken))
    proc = node(EXT / "tests" / "check_scopes.js", env=env)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "Float32 (type): got" in proc.stderr

    # An f-string that never closes its interpolation leaves a region open.
    broken = _broken_grammar(tmp_path, '"end": "(\\\\})|(?=\\\\n)"', '"end": "(\\\\}\\\\})"')
    env = dict(os.environ, PYX_GRAMMAR=str(broken))
    proc = node(EXT / "tests" / "check_scopes.js", env=env)
    assert proc.returncode == 1, proc.stdout + proc.stderr
