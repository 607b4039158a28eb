"""Where an exception goes when it leaves a function that holds values with destructors
(ir/ownership.py, `finish`): each raise site's handler is the entry of a chain of cleanup blocks
that destroys exactly the values that may be live there, the most recently made first, and the
chains share their tails. A site where nothing is live has no handler (it leaves the function).
One cleanup block reached from every raise site, destroying every value, became hundreds of phis
of hundreds of edges each in LLVM (benchmarks/corpus/iter_tools.py's main took 40 s to compile).
The behaviour is pinned by tests/golden/cleanup_chains.px; this pins the shape."""
import re

from helpers import run_cli

PROGRAM = '''fn work(n: Int) raises -> String:
    if n > 3:
        raise ValueError("too big")
    return "w" + String(n)


fn main() raises:
    var a = work(1)
    var b = work(2)
    var c = work(3)
    print(a + b + c)
'''


def _function(ir_text: str, name: str) -> str:
    start = ir_text.index(f"fn @{name}(")
    return ir_text[start:ir_text.index("\n}\n", start)]


def _blocks(fn_text: str) -> dict[str, list[str]]:
    blocks: dict[str, list[str]] = {}
    lines: list[str] = []
    for line in fn_text.splitlines()[1:]:
        if re.fullmatch(r"[\w.]+:", line):
            lines = blocks[line[:-1]] = []
        elif line.startswith("  "):
            lines.append(line.strip())
    return blocks


def _destroyed(blocks: dict[str, list[str]], entry: str | None) -> list[str]:
    """The variables a chain destroys, in order: each cleanup block tests one live flag, and its
    last block re-raises to the next one (or out of the function)."""
    names: list[str] = []
    while entry is not None:
        flag = re.fullmatch(r"%\d+ = load \$([\w.]+)\.live\.\d+", blocks[entry][0])
        assert flag is not None, blocks[entry]
        names.append(flag.group(1))
        label = re.fullmatch(r"branch %\d+, \w+, (\w+)", blocks[entry][1])
        assert label is not None, blocks[entry]
        last = blocks[label.group(1)][-1]
        assert last.startswith("reraise"), last
        entry = last.split(" to ")[1] if " to " in last else None
    return names


def test_each_raise_site_destroys_exactly_what_is_live_there(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "chains.px").write_text(PROGRAM)
    result = run_cli("build", "--emit=ir", "chains.px")
    assert result.status == 0, result.stderr
    blocks = _blocks(_function(result.stdout, "chains.main"))
    sites = []  # (what raises, the chain it goes to), in program order
    for label, lines in blocks.items():
        for line in lines:
            call = re.search(r"call @[\w.]+\.(\w+)\(.*?\)(?: except (\w+))?$", line)
            if call is not None and call.group(1) in ("work", "__add__"):
                sites.append((call.group(1), _destroyed(blocks, call.group(2))))
            elif line.startswith("reraise") and not label.startswith(("cleanup", "dropped")):
                sites.append(("print", _destroyed(blocks, line.split(" to ")[1] if " to " in line else None)))
    assert sites[:5] == [
        ("work", []),  # nothing is live yet: straight out of the function
        ("work", ["a"]),
        ("work", ["b", "a"]),
        ("__add__", ["c", "b", "a"]),
        ("__add__", ["temporary", "c", "b", "a"]),  # a + b, a temporary
    ]
    assert sites[5:] and all(site == ("print", ["temporary", "temporary", "c", "b", "a"]) for site in sites[5:])
    # One cleanup block per value of each distinct chain, the tails shared: 5, not one per site.
    assert sum(label.startswith("cleanup") for label in blocks) == 5
