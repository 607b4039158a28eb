"""Objects that keep a caller's list or dict (lang/semantics/shared_holders.py): where pyx cannot
follow Python's sharing, E0190/E0298 carry a note naming the condition that failed, at the place
that breaks it (the codes themselves: tests/diagnostics/kept_arguments.px)."""
import pytest

from pyx import pipeline
from pyx.diagnostics import CompileError
from pyx.source import SourceFile

CLASSES = '''
class Tally:
    def __init__(self, counts: dict[str, int]):
        self.counts = counts

    def bump(self, k: str):
        self.counts[k] = 1

    def read(self, k: str) -> int:
        return self.counts[k]
'''

CASES = [
    ("method_changes", "    t = Tally(counts)\n    t.bump('a')\n", "E0190",
     "`Tally.bump` changes `self.counts` in place"),
    ("returned", "    t = Tally(counts)\n    return t\n", "E0190", "`t` is passed on, stored or returned here"),
    ("stored", "    ts = [Tally(counts)]\n    print(ts[0].read('a'))\n", "E0190", "bound to a local variable"),
    ("nested", "    t = Tally(counts)\n    f = lambda: counts.clear()\n    f()\n    print(t.read('a'))\n", "E0190",
     "`counts` is used in a nested function here"),
]


@pytest.mark.parametrize("name,body,code,note", CASES, ids=[c[0] for c in CASES])
def test_refusal_says_why(name, body, code, note):
    text = CLASSES + "\n\ndef use(counts: dict[str, int]):\n" + body
    with pytest.raises(CompileError) as info:
        pipeline.check(SourceFile(f"{name}.px", text))
    found = [d for d in info.value.diagnostics if d.code == code]
    assert found, [d.message for d in info.value.diagnostics]
    assert any(note in n.message for d in found for n in d.notes), [n.message for d in found for n in d.notes]
