"""Messages that say a feature is missing stay true: every registered diagnostic whose message
says something is not supported (yet) has a program that gets it, a `# E:` example in the docs
(executed by test_docs.py) or in tests/diagnostics/ (executed by test_diagnostics.py). Once the
feature exists, that program compiles and those tests fail, so the message and its example
are changed with the feature (E0132 said "no optional values yet" long after `Optional`
existed: it had no example)."""
import re

from helpers import ROOT

CLAIM = re.compile(r"not supported|not yet|unsupported|does not support|no [^.:;]* yet|cannot [^.:;]* yet")
MARK = re.compile(r"#\s*E:\s*(.*)$", re.M)


def codes_shown_by_examples() -> set[str]:
    sources = [*(ROOT / "docs").glob("*.md"), *(ROOT / "tests" / "diagnostics").glob("*.px")]
    shown = set()
    for path in sources:
        for marks in MARK.findall(path.read_text(encoding="utf-8")):
            shown.update(item.strip().split()[0] for item in marks.split(" | ") if item.strip())
    return shown


def test_every_message_claiming_a_missing_feature_has_a_program_that_gets_it():
    from pyx.diagnostics.codes import CODES

    claims = {c.code: c.template for c in CODES if CLAIM.search(c.template)}
    assert len(claims) >= 10, "the pattern no longer finds the messages it is about"
    unshown = {code: text for code, text in claims.items() if code not in codes_shown_by_examples()}
    assert not unshown, ("messages saying a feature is missing, with no `# E:` example in docs/ or "
                         f"tests/diagnostics/ to show it still is: {unshown}")
