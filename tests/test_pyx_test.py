"""`pyx test`: runs the test_* functions of test_*.px files and reports like pytest."""
from helpers import ROOT, run_cli


def test_pyx_test_reports_passes_and_failures(tmp_path, monkeypatch):
    monkeypatch.setenv("PYX_CACHE_DIR", str(tmp_path))
    result = run_cli("test", "--color=never", str(ROOT / "tests" / "cli"))
    assert result.status == 1
    lines = result.stdout.splitlines()
    assert lines[-1] == "1 passed, 2 failed"
    assert any(line.endswith("::test_gcd PASSED") for line in lines)
    assert any(line.endswith("::test_broken FAILED") for line in lines)
    assert "AssertionError: this one is wrong on purpose" in result.stdout
    assert 'test_sample_suite.px", line 16, in test_broken' in result.stdout
    assert "ZeroDivisionError: integer division or modulo by zero" in result.stdout
    assert "bridge.py" not in result.stdout  # only the .px frames are shown


def test_pyx_test_selects_with_k_and_passes(tmp_path, monkeypatch):
    monkeypatch.setenv("PYX_CACHE_DIR", str(tmp_path))
    result = run_cli("test", "-k", "gcd", str(ROOT / "tests" / "cli" / "test_sample_suite.px"))
    assert result.status == 0 and result.stdout.splitlines()[-1] == "1 passed, 0 failed"


def test_pyx_test_reports_a_file_that_does_not_compile(tmp_path, monkeypatch):
    monkeypatch.setenv("PYX_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "test_bad.px").write_text("fn test_x():\n    var y: Int = 1.5\n")
    result = run_cli("test", "--color=never", str(tmp_path))
    assert result.status == 1
    assert "does not compile" in result.stdout and "error[E0201]" in result.stdout
    assert result.stdout.splitlines()[-1] == "0 passed, 0 failed, 1 errors"
