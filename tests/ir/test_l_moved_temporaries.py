"""A value only a call holds is moved, not copied (semantics/drained_loops.py): `for x in f()`
over a list a call returns walks it with `List._drain`, which moves each element out, and
`f().lower()` / `f().upper()` of a String a call returns rewrite its bytes with `_lower_owned` /
`_upper_owned`; and `d[k] = v` borrows `k`, copying it only when the key is new (Dict's
`__setitem__`), so `counts[w] = counts.get(w, 0) + 1` copies no String for a word already
counted. A list or String a variable holds is still walked or copied as before (it is used
again after). The output is pinned by tests/golden/l_moved_temporaries.px; this pins how the
loop and the call are made, which no output shows (the word_count benchmark's copies)."""
from helpers import run_cli

PROGRAM = '''def words(line: str) -> list[str]:
    return line.split()


def count(ws: list[str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for w in ws:
        counts[w] = counts.get(w, 0) + 1
    return counts


def main():
    line = "The Quick brown"
    kept = words(line)
    for w in words(line):
        print(w.strip(",").lower(), w.upper())
    for w in kept:
        print(w)
    print(kept, line.lower(), count(kept))


if __name__ == "__main__":
    main()
'''


def _function(ir_text: str, name: str) -> str:
    start = ir_text.index(f"fn @{name}(")
    return ir_text[start:ir_text.index("\n}\n", start)]


def test_a_calls_list_is_drained_and_its_string_lowered_in_place(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "moved.px").write_text(PROGRAM)
    result = run_cli("build", "--emit=ir", "moved.px")
    assert result.status == 0, result.stderr
    main = _function(result.stdout, "moved.main")
    assert main.count("List[String]._drain(") == 1  # `for w in words(line)`, not `for w in kept`
    assert main.count("List[String].__iter__(") == 1
    assert main.count("String._lower_owned(") == 1  # `w.strip(",").lower()`
    assert "String._upper_owned(" not in main  # `w.upper()`: `w` is a variable, still read after
    assert main.count("String.lower(") == 1  # `line.lower()`


def test_storing_under_a_key_already_there_copies_no_key(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "moved.px").write_text(PROGRAM)
    result = run_cli("build", "--emit=ir", "moved.px")
    assert result.status == 0, result.stderr
    count = _function(result.stdout, "moved.count")
    assert "Dict[String, Int].__setitem__(" in count
    assert "String.__copyinit__(" not in count  # `w` is borrowed by __setitem__, not copied for it
