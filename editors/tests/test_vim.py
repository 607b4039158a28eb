"""The Vim plugin (editors/vim), run by a headless Vim with the plugin on 'runtimepath'."""
from __future__ import annotations

import json
import shutil
import subprocess
import textwrap
from pathlib import Path

import pytest

import editor_surface as surface

VIM = shutil.which("vim")
pytestmark = pytest.mark.skipif(VIM is None, reason="vim is not installed")

PLUGIN = surface.REPO / "editors" / "vim"

# Groups that hold no code; a known word there means the syntax swallowed code.
STRUCTURE_GROUPS = {
    "function name": ("pyxFunction",),
    "struct name": ("pyxTypeName",),
    "trait name": ("pyxTypeName",),
    "launched kernel": ("pyxKernelName",),
    "launch key": ("pyxLaunchKey",),
    "number": ("pyxNumber", "pythonNumber"),
}


def run_vim(tmp_path: Path, body: str) -> dict:
    """Run `body` (Vim script that fills s:result) in a fresh headless Vim; return s:result."""
    out = tmp_path / "result.json"
    script = tmp_path / "probe.vim"
    script.write_text(textwrap.dedent(f"""\
        set nocompatible
        let &runtimepath = {json.dumps(str(PLUGIN))} . ',' . &runtimepath
        filetype plugin indent on
        syntax on
        let s:result = {{}}
        try
        {textwrap.indent(textwrap.dedent(body), '  ')}
        catch
          let s:result.exception = v:exception . ' at ' . v:throwpoint
        endtry
        call writefile([json_encode(s:result)], {json.dumps(str(out))})
        qall!
    """), encoding="utf-8")
    proc = subprocess.run(
        [VIM, "-Nu", "NONE", "-i", "NONE", "-n", "-es", "-S", str(script)],
        capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
    )
    assert out.exists(), f"vim wrote no result (rc={proc.returncode}): {proc.stdout}{proc.stderr}"
    result = json.loads(out.read_text(encoding="utf-8"))
    assert "exception" not in result, result["exception"]
    return result


def syntax_groups(tmp_path: Path, files: list[Path], queries: dict[str, list[tuple[int, int]]]) -> dict:
    """For each file: filetype, syntax name and the group at each (line, byte column)."""
    data = tmp_path / "queries.json"
    data.write_text(json.dumps({str(f): queries[str(f)] for f in files}), encoding="utf-8")
    return run_vim(tmp_path, f"""\
        let s:queries = json_decode(join(readfile({json.dumps(str(data))}), ''))
        for s:file in keys(s:queries)
          execute 'edit ' . fnameescape(s:file)
          let s:groups = []
          for [s:l, s:c] in s:queries[s:file]
            call add(s:groups, synIDattr(synID(s:l, s:c, 1), 'name'))
          endfor
          let s:result[s:file] = {{'filetype': &filetype, 'syntax': get(b:, 'current_syntax', ''), 'groups': s:groups}}
          bwipeout!
        endfor
    """)


def byte_col(line_text: str, col: int) -> int:
    return len(line_text[:col].encode("utf-8")) + 1


@pytest.fixture(scope="module")
def vim_results(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("vim")
    files = surface.real_files()
    plan, queries = {}, {}
    for f in files:
        text = f.read_text(encoding="utf-8")
        lines = text.split("\n")
        items = []
        for occ in surface.vocabulary_occurrences(text):
            items.append(("word", occ, (occ.line, byte_col(lines[occ.line - 1], occ.col))))
        for what, line, col, name in surface.structure_occurrences(text):
            items.append(("structure", (what, line, col, name), (line, byte_col(lines[line - 1], col))))
        plan[str(f)] = items
        queries[str(f)] = [pos for _, _, pos in items]
    return plan, syntax_groups(tmp_path, files, queries)


@pytest.mark.parametrize("path", surface.real_files(), ids=lambda p: str(p.relative_to(surface.REPO)))
def test_px_files_get_the_pyx_filetype_and_syntax(vim_results, path):
    _, results = vim_results
    assert results[str(path)]["filetype"] == "pyx"
    assert results[str(path)]["syntax"] == "pyx"


@pytest.mark.parametrize("path", surface.real_files(), ids=lambda p: str(p.relative_to(surface.REPO)))
def test_known_words_and_names_get_their_group(vim_results, path):
    plan, results = vim_results
    groups = results[str(path)]["groups"]
    problems = []
    for (kind, item, _), got in zip(plan[str(path)], groups):
        if kind == "word":
            want = item.category.expected["vim"]
            if got not in want:
                problems.append(f"{item.line}:{item.col + 1} {item.word} ({item.category.name}): "
                                f"got {got or 'no group'}, want {' or '.join(want)}")
        else:
            what, line, col, name = item
            if got not in STRUCTURE_GROUPS[what]:
                problems.append(f"{line}:{col + 1} {what} {name}: got {got or 'no group'}")
    assert not problems, "\n".join(problems)


def groups_in(tmp_path: Path, source: str, probes: list[tuple[int, str]]) -> list[str]:
    """Groups at the first occurrence of each (line, text) in `source`."""
    f = tmp_path / "probe.px"
    source = textwrap.dedent(source)
    f.write_text(source, encoding="utf-8")
    lines = source.split("\n")
    queries = []
    for line, needle in probes:
        col = lines[line - 1].index(needle)
        queries.append((line, byte_col(lines[line - 1], col)))
    return syntax_groups(tmp_path, [f], {str(f): queries})[str(f)]["groups"]


def test_conventions_are_contextual(tmp_path):
    got = groups_in(tmp_path, """\
        fn f(mut a: Int, owned s: String, ref r: Int, out self, out: Ptr[Float32]):
            atomic_add(out, 1)
            return out if out else x
    """, [(1, "mut"), (1, "owned"), (1, "ref"), (1, "out self"), (1, "out:"), (2, "out"), (3, "out")])
    assert got == ["pyxConvention"] * 4 + [""] * 3


def test_members_are_not_builtins_or_intrinsics(tmp_path):
    got = groups_in(tmp_path, """\
        x = v.min(y) + self.barrier() + v.len + DType.bool + DType.no_such + min(1, 2)
    """, [(1, "min("), (1, "barrier"), (1, "len"), (1, "bool"), (1, "no_such"), (1, "min(1")])
    assert got == ["", "", "", "pyxDTypeMember", "", "pyxBuiltin"]


def test_strings_and_fstrings(tmp_path):
    got = groups_in(tmp_path, """\
        s = f"v={Int(x):>8} {{lit}} Int" + b"\\x00" + 'fn' + r"\\d" + '''Int''' # Int
    """, [(1, "Int("), (1, "{{"), (1, "Int\""), (1, "x00"), (1, "fn'"), (1, "d\""), (1, "Int'"), (1, "# Int")])
    assert got[0] == "pyxType"
    assert got[1] == "pyxFStringBraces"
    assert got[2] == "pyxFString"
    assert got[3] == "pythonEscape"
    assert got[4] == "pythonString"
    assert got[5] == "pythonRawString"
    assert got[6] == "pythonString"
    assert got[7] == "pythonComment"


def test_int_is_a_type_or_a_builtin_call(tmp_path):
    got = groups_in(tmp_path, "var i: int = int(2.5)\n", [(1, "int ="), (1, "int(")])
    assert got == ["pyxType", "pyxBuiltin"]


def test_launch_keys_only_on_launch_lines(tmp_path):
    got = groups_in(tmp_path, """\
        launch k[grid=(n + 255) // 256, block=256, shared_bytes=0](x, block=1)
        f(x, block=3)
    """, [(1, "grid"), (1, "block=256"), (1, "shared_bytes"), (2, "block")])
    assert got == ["pyxLaunchKey"] * 3 + [""]


def test_typing_indents_blocks(tmp_path):
    # Typed line by line (`o` + text), the way Vim's indent script is used:
    # deeper after a colon, back out for `else`, Python's rules otherwise.
    cases = {
        "kernel": ["@kernel", "fn k(x: Ptr[Float32], n: Int):", "var i = thread_idx.x", "if i < n:",
                   "x[i] = 0.0", "else:", "return"],
        "struct": ["@fieldwise_init", "struct R(Shape):", "var w: Float64", "fn area(self) -> Float64:",
                   "comptime for k in range(4):", "pass"],
    }
    data = tmp_path / "cases.json"
    data.write_text(json.dumps(cases), encoding="utf-8")
    result = run_vim(tmp_path, f"""\
        let s:cases = json_decode(join(readfile({json.dumps(str(data))}), ''))
        for s:name in keys(s:cases)
          execute 'edit ' . fnameescape({json.dumps(str(tmp_path))} . '/' . s:name . '.px')
          call setline(1, s:cases[s:name][0])
          for s:text in s:cases[s:name][1:]
            execute 'normal! Go' . s:text
          endfor
          let s:result[s:name] = map(range(1, line('$')), 'indent(v:val)')
          let s:result.sw = shiftwidth()
          let s:result.ft = &filetype
          bwipeout!
        endfor
    """)
    sw = result["sw"]
    assert result["ft"] == "pyx"
    assert sw > 0
    assert result["kernel"] == [0, 0, sw, sw, 2 * sw, sw, 2 * sw]
    assert result["struct"] == [0, 0, sw, sw, 2 * sw, 3 * sw]
