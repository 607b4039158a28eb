"""Every diagnostic about a file has a line and column, even those about the file as a whole."""
from helpers import run_cli

LIBRARY = "fn helper() -> Int:\n    return 1\n\n"


def test_no_main_points_at_the_end_of_the_file(tmp_path):
    path = tmp_path / "library.px"
    path.write_text(LIBRARY)
    for argv in (["run"], ["build", "--emit=exe", "-o", str(tmp_path / "exe")]):
        result = run_cli(*argv, "--color=never", str(path))
        assert result.status == 1
        assert result.stderr.startswith(f"{path}:2:13: error[E0111]: no `fn main()` to run in {path}\n"
                                        "   2 |     return 1\n"), result.stderr
    assert run_cli("check", str(path)).status == 0  # a library checks without one


def test_invalid_utf8_after_a_byte_order_mark_is_placed_in_the_text_without_it(tmp_path):
    path = tmp_path / "bom.px"
    path.write_bytes(b"\xef\xbb\xbffn main():\n    print('\xff')\n")
    result = run_cli("check", "--color=never", str(path))
    assert result.status == 1
    assert result.stderr.startswith(f"{path}:2:12: error[E0901]: cannot read `{path}`: not valid UTF-8 "
                                    "(byte 0xff: invalid start byte)"), result.stderr


def test_a_missing_file_is_still_e0901_without_a_position(tmp_path):
    result = run_cli("check", str(tmp_path / "nowhere.px"))
    assert result.status == 1 and result.stderr.startswith("error[E0901]: cannot read")
