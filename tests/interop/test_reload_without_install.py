"""`importlib.reload` recompiles a module pyx.import_module imported, without pyx.install()."""
import importlib
import sys

import pyx


def test_reload_recompiles_a_module_imported_without_the_hook(tmp_path, monkeypatch):
    monkeypatch.setenv("PYX_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(sys, "meta_path", [f for f in sys.meta_path if type(f).__name__ != "PyxFinder"])
    (tmp_path / "editme.px").write_text("fn value() -> Int:\n    return 1\n")
    sys.modules.pop("editme", None)
    m = pyx.import_module("editme", path=[str(tmp_path)], target="cpu")
    assert m.value() == 1
    (tmp_path / "editme.px").write_text("fn value() -> Int:\n    return 2\n\n\nfn other() -> Int:\n    return 3\n")
    again = importlib.reload(m)
    assert again is m and m.value() == 2 and m.other() == 3
    assert m.__pyx__["origin"]["target"] == "cpu"  # imported again with the options it was imported with
