"""One printing path (issue 15, item 3): `print(x)` of a stdlib List or Dict calls the type's own
`__str__` in the stdlib, as it does a user's struct, and the lowering prints that String's bytes.
The compiler reads no container's fields to print it (it used to loop over List's `data`/`size`
and Dict's `keys`/`values`/`hashes` itself), so the text of a container is written once, in pyx.

The output itself is pinned by the goldens and the differential tests; this pins where it comes
from, which no program's output shows."""
from helpers import run_cli


def _function(ir_text: str, name: str) -> str:
    """The text of one function of `--emit=ir` output, its header to its closing brace."""
    start = ir_text.index(f"fn @{name}(")
    return ir_text[start:ir_text.index("\n}\n", start)]


def test_print_of_a_list_or_dict_calls_their_str(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "show.px").write_text(
        "fn show(xs: List[Int], d: Dict[String, Float64], nested: List[List[String]]):\n"
        "    print(xs, d, nested)\n")
    result = run_cli("build", "--emit=ir", "show.px")
    assert result.status == 0, result.stderr
    show = _function(result.stdout, "show.show")
    for owner in ("List[Int]", "Dict[String, Float64]", "List[List[String]]"):
        assert f"call @collections.{owner}.__str__(" in show
    # No loop of its own: the only prints are the three Strings' bytes, the separators and the end.
    prints = [line.split("(")[0].strip() for line in show.splitlines() if line.strip().startswith("print_")]
    assert prints == ["print_bytes", "print_str", "print_bytes", "print_str", "print_bytes", "print_str"]
