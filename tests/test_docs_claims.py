"""The docs say only what is true (issue 20, "Docs that are true"), beyond test_docs.py (every
example runs) and test_docs_true.py (every diagnostic claiming a missing feature has a program):

- every diagnostic code a page cites is one pyx has (or one it retired, said so);
- every link from one page to a heading (`reference.md#classes`, `#optionalt`) reaches one;
- every sentence (or table row) of docs/*.md saying a feature is missing ("not supported", "not
  yet", "to come", ...) is listed in CLAIMS with a program that shows it, which must still be
  rejected with the code given, in PYTHON_CLAIMS with a check of pyx's Python API, or in ASIDE
  with why it is no such claim (an exception's name, a measurement).
  A claim that has become false fails here: its program compiles (reference.md said "there is
  no `try`/`except` yet" long after there was);
- the advice of E0011 (a `typing` name pyx does not take) suggests what compiles, and what it
  says is missing is.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from helpers import ROOT

DOCS = sorted((ROOT / "docs").glob("*.md"))
CLAIM = re.compile(r"not supported|not yet|unsupported|does not support|still to come|to come\b|coming next|"
                   r"no [^.:;]* yet|cannot [^.:;]* yet|not there yet", re.I)


def prose(doc: Path) -> list[tuple[int, str]]:
    """(line, paragraph) of the page's prose: not code blocks, headings or quoted messages."""
    out: list[tuple[int, str]] = []
    para: list[str] = []
    start = 0
    fenced = False
    for number, line in enumerate(doc.read_text(encoding="utf-8").splitlines() + [""], 1):
        if line.startswith("```"):
            fenced = not fenced
        if fenced or line.startswith(("```", "#", "Message:")) or not line.strip():
            if para:
                out.append((start, " ".join(para)))
            para = []
            continue
        if line.startswith("|"):  # a table row is a paragraph of its own
            if para:
                out.append((start, " ".join(para)))
            out.append((number, line))
            para = []
            continue
        if not para:
            start = number
        para.append(line.strip())
    return out


def claims(doc: Path) -> list[tuple[int, str]]:
    """(line, sentence) of each sentence of the page saying something is missing."""
    found = []
    for line, paragraph in prose(doc):
        for sentence in re.split(r"(?<=[.!?])\s+(?=[A-Z`(\[])|\s+(?=- )", paragraph):
            if CLAIM.search(sentence):
                found.append((line, sentence))
    return found


# (page, words of the claim, program that shows it, the code it gets). The program is checked
# as `claim.px`, beside a module `other.px` holding `LIMIT = 3`.
CLAIMS: list[tuple[str, str, str, str]] = [
    ("compiler.md", 'the user gets "X is not supported"', "async def f():\n    pass\n", "E0002"),
    ("compiler.md", "E0021 for the patterns it cannot run yet",
     "def f(d: dict[str, int]) -> int:\n    match d:\n        case {'a': 1, **rest}:\n            return 1\n"
     "    return 0\n", "E0021"),
    ("diagnostics.md", "A `match` statement's pattern pyx cannot run yet",
     "class P:\n    def __init__(self, x: int):\n        self.x = x\n\n\ndef f(p: P) -> int:\n    match p:\n"
     "        case P(0):\n            return 1\n    return 0\n", "E0021"),
    ("compiler.md", 'E0007 "not supported yet" for planned features', "def main():\n    x = 1\n    print(x is x)\n",
     "E0007"),
    ("diagnostics.md", "`Point(1.0).norm`, `a.b.norm`) is not yet",
     "class P:\n    def __init__(self, x: float):\n        self.x = x\n\n    def norm(self) -> float:\n"
     "        return self.x\n\n\ndef main():\n    f = P(1.0).norm\n    print(f())\n", "E0120"),
    ("reference.md", "Not yet: `b < ba` (bytes ordered against a bytearray, E0201)",
     "def main():\n    ba = bytearray(b\"a\")\n    print(b\"a\" < ba)\n", "E0201"),
    ("diagnostics.md", "`@parameter` on a top-level function is reported as not supported yet",
     "@parameter\nfn f():\n    pass\n", "E0007"),
    ("diagnostics.md", "a variable holding the format is not supported",
     "def main():\n    fmt = '%d'\n    print(fmt % 3)\n", "E0252"),
    ("diagnostics.md", "classes of other modules cannot be bases yet", "class D(dict):\n    pass\n", "E0257"),
    ("diagnostics.md", "What a generator's body cannot hold yet",
     "def g():\n    try:\n        yield 1\n    except ValueError:\n        pass\n\n\ndef main():\n"
     "    for x in g():\n        print(x)\n", "E0275"),
    ("diagnostics.md", "cannot have decorators, compile-time parameters or a `*` parameter yet",
     "def main():\n    @staticmethod\n    def f():\n        pass\n", "E0281"),
    ("diagnostics.md", "or a first mapping to copy, is not supported",
     "from collections import defaultdict\n\n\ndef main():\n    d = defaultdict(lambda: 3)\n    d[1] += 1\n",
     "E0282"),
    ("diagnostics.md", "which may swallow the exception, is not supported",
     "class M:\n    def __enter__(self) -> int:\n        return 1\n\n    def __exit__(self, a, b, c):\n"
     "        pass\n\n\ndef main():\n    with M() as x:\n        print(x)\n", "E0204"),
    ("diagnostics.md", "one whose `__init__` stores attributes does not yet",
     "class AppError(Exception):\n    def __init__(self, item: str):\n        super().__init__(item)\n"
     "        self.item = item\n\n\ndef main():\n    e = AppError('boom')\n", "E0316"),
    ("diagnostics.md", "two such attributes in one call, and an",
     "def push(xs: list[int], ys: list[int]):\n    xs.append(1)\n    ys.append(2)\n\n\nclass M:\n"
     "    def __init__(self):\n        self.log: list[int] = []\n        self.seen: list[int] = []\n\n\n"
     "def main():\n    m = M()\n    push(m.log, m.seen)\n", "E0317"),
    ("diagnostics.md", "What that state machine cannot hold yet",
     "def g(n: int):\n    try:\n        yield n\n    finally:\n        pass\n\n\ndef main():\n    it = g(3)\n"
     "    print(next(it))\n    print(next(it, 0))\n", "E0294"),
    ("diagnostics.md", "have no state machine behind them yet",
     "def g():\n    yield 1\n\n\ndef main():\n    x = g()\n    x.send(3)\n", "E0296"),
    ("interop.md", "pyx structs and `Dict`s do not convert to Python objects",
     "from python import PythonObject\n\n\nfn f(d: Dict[String, Int]) raises -> PythonObject:\n"
     "    return PythonObject(d)\n", "E0205"),
    ("reference.md", "`from other import X` or `other.X` of another module's variable",
     "from other import LIMIT\n\n\ndef main():\n    print(LIMIT)\n", "E0130"),
    ("reference.md", "another module's variables cannot be named yet",
     "import other\n\n\ndef main():\n    print(other.LIMIT)\n", "E0130"),
    ("reference.md", "Imaginary literals (`1j`) are not supported", "def main():\n    z = 1j\n", "E0002"),
    ("reference.md", "not yet, such as `Set` (write `set[int]`) or `Sequence`",
     "from typing import Sequence\n\n\ndef f(x: Sequence[int]) -> int:\n    return 1\n", "E0011"),
    ("reference.md", "`is` between other values (`x is y` of two `Int`s) is not supported yet",
     "def main():\n    x = 1\n    y = 2\n    print(x is y)\n", "E0007"),
    ("reference.md", "`**kwargs` and a bare `*` (keyword-only parameters) are not supported",
     "def f(**kw):\n    pass\n", "E0002"),
    ("reference.md", "its body may not yet hold a `yield` inside `try`/`with`",
     "def g(n: int):\n    try:\n        yield n\n    finally:\n        pass\n\n\ndef main():\n    it = g(3)\n"
     "    print(next(it))\n    print(next(it, 0))\n", "E0294"),
    ("reference.md", "what is not supported yet (decorators on classes, multiple inheritance, a class's own",
     "class P:\n    def __del__(self):\n        pass\n", "E0262"),
    ("reference.md", "Not yet: values with destructors in GPU code and inside `prange` loops",
     "fn main():\n    for i in prange(4):\n        var xs = List[Int]()\n        xs.append(i)\n", "E0007"),
    ("reference.md", "`string.Template`, `string.Formatter` and `capwords` are not there yet",
     "import string\n\n\ndef main():\n    print(string.capwords('a b'))\n", "E0130"),
    ("reference.md", "Not there yet: `seed()` of a str or of nothing",
     "import random\n\n\ndef main():\n    random.seed()\n", "E0204"),
    ("reference.md", "`raise SystemExit(3)` itself is not supported", "def main():\n    raise SystemExit(3)\n",
     "E0302"),
    ("reference.md", "Assigning `sys.argv = ...` is not supported",
     "import sys\n\n\ndef main():\n    sys.argv = ['a']\n", "E0101"),
    ("reference.md", "one that reads a name the function assigns again is not supported yet",
     "def main():\n    xs = [1, 2, 3]\n    k = 2\n    g = (x * k for x in xs)\n    k = 3\n    print(list(g))\n",
     "E0270"),
    ("semantics.md", "Not yet: other methods or class attributes",
     "class E(Exception):\n    def code(self) -> int:\n        return 1\n", "E0255"),
    ("diagnostics.md", "other methods (a `__str__`, say) and class attributes are not supported yet",
     "class E(Exception):\n    def __init__(self, n: int):\n        super().__init__(str(n))\n\n"
     "    def __str__(self) -> str:\n        return 'e'\n", "E0255"),
    ("diagnostics.md", "cannot be the base of another exception class yet",
     "class E(Exception):\n    def __init__(self, n: int):\n        super().__init__(str(n))\n        self.n = n\n\n\n"
     "class F(E):\n    pass\n", "E0321"),
    ("python-subset.md", "a format spec on a member (`f\"{c:>8}\"`, E0172): not yet",
     "from enum import Enum\n\n\nclass Color(Enum):\n    RED = 1\n\n\ndef main():\n    c = Color.RED\n"
     "    print(f\"{c:>8}\")\n", "E0172"),
    ("python-subset.md", "`cache_info()`/`cache_clear()`: not yet",
     "from functools import cache\n\n\n@cache\ndef f(n: int) -> int:\n    return n\n\n\ndef main():\n"
     "    f.cache_clear()\n", "E0118"),
    ("python-subset.md", "`v is w`, `v.args`: not yet",
     "class AppError(Exception):\n    pass\n\n\ndef main():\n    a = AppError('x')\n    b = a\n    print(a is b)\n",
     "E0007"),
    ("semantics.md", "Copying one copies it",
     "class AppError(Exception):\n    pass\n\n\ndef main():\n    a = AppError('x')\n    b = a\n    print(a is b)\n",
     "E0007"),
    ("python-subset.md", "a nested `def`'s default: not yet",
     "def main():\n    def add(x: int, xs: list[int] = []) -> list[int]:\n        xs.append(x)\n        return xs\n"
     "    print(add(1))\n", "E0007"),
    ("python-subset.md", "`Point._make`, `p._fields` of an object: not yet",
     "from collections import namedtuple\n\nPoint = namedtuple(\"Point\", \"x y\")\n\n\ndef main():\n"
     "    p = Point(1, 2)\n    print(p._fields)\n", "E0122"),
]

# (page, words, a Python expression that is true while the claim is): claims about pyx's
# Python API rather than its language.
PYTHON_CLAIMS: list[tuple[str, str, str]] = [
    ("gpu.md", "`pyx.import_module` has no `racecheck=` yet",
     "'racecheck' not in inspect.signature(pyx.import_module).parameters"),
]

# (page, words, why the sentence is no claim that a program is rejected).
ASIDE: list[tuple[str, str, str]] = [
    ("performance.md", "the use of yield in a closure is", "quotes Numba's message: a peer's limit, not pyx's"),
    ("compiler.md", "It times the pass into `Compilation.timings`", "names the exception class `UnsupportedOnTarget`"),
    ("compiler.md", "OpSpec", "names the exception class `UnsupportedOnTarget`"),
    ("compiler.md", "raises `UnsupportedOnTarget`", "names the exception class"),
    ("compiler.md", "`UnsupportedOnTarget` becomes E0226", "names the exception class"),
    ("getting-started.md", "Not yet: the layout inside a line", "`pyx fmt`'s scope: a tool, not the language"),
    ("gpu.md", "Not yet: a run on real hardware", "the test set-up, not the language"),
    ("gpu.md", "not yet freed", "a pointer not yet freed: no claim"),
    ("interop.md", "are still to come", "the Python side of the bridge, tested by tests/interop"),
    ("performance.md", "not yet explained", "a measurement"),
    ("performance.md", "Not yet at cb07bd1", "a measurement (start-up time against a commit)"),
    ("python-subset.md", "a variable not yet assigned", "behaviour (NameError): no claim"),
    ("reference.md", "Features that are planned but not available yet are listed", "points to the list below"),
    ("reference.md", "pieces not yet started are skipped", "behaviour of `prange`: no claim"),
    ("reference.md", "Using one gives [E0007]", "the introduction of the list of planned features"),
    ("semantics.md", "An attribute not yet set reads as its type's zero value", "behaviour: no claim"),
    ("semantics.md", "like any attribute not yet set", "behaviour: no claim"),
    ("semantics.md", "What [Classes: not yet](#not-yet-classes) lists", "points to the list"),
    ("semantics.md", "not yet operators", "a check that is not made: tests/semantics covers what it covers"),
]


def _all_claims() -> list[tuple[str, int, str]]:
    return [(doc.name, line, sentence) for doc in DOCS for line, sentence in claims(doc)]


def test_every_sentence_saying_a_feature_is_missing_is_listed():
    listed = [(page, words) for page, words, *_ in [*CLAIMS, *PYTHON_CLAIMS, *ASIDE]]
    unlisted = [f"{page}:{line}: {sentence[:160]}" for page, line, sentence in _all_claims()
                if not any(p == page and words in sentence for p, words in listed)]
    assert not unlisted, ("docs say these features are missing, and no program in CLAIMS shows that they still "
                          "are (add one, or correct the sentence):\n" + "\n".join(unlisted))


def test_every_listed_claim_is_still_in_the_docs():
    sentences = _all_claims()
    stale = [f"{page}: {words}" for page, words, *_ in [*CLAIMS, *PYTHON_CLAIMS, *ASIDE]
             if not any(p == page and words in s for p, _, s in sentences)]
    assert not stale, "listed claims the docs no longer make (remove them):\n" + "\n".join(stale)


@pytest.mark.parametrize("page,words,program,code", CLAIMS, ids=[f"{p}:{w[:40]}" for p, w, _, _ in CLAIMS])
def test_a_missing_feature_the_docs_name_is_rejected(page, words, program, code, tmp_path):
    from pyx import pipeline
    from pyx.diagnostics import CompileError
    from pyx.source import SourceFile

    (tmp_path / "other.px").write_text("LIMIT = 3\n")
    path = tmp_path / "claim.px"
    path.write_text(program)
    try:
        pipeline.check(SourceFile(str(path), program))
    except CompileError as exc:
        codes = sorted({d.code for d in exc.diagnostics})
        assert code in codes, f"{page} says {words!r}: the program gets {codes}, not {code}"
        return
    pytest.fail(f"{page} says {words!r}, but its program compiles now: correct the docs")


@pytest.mark.parametrize("page,words,expression", PYTHON_CLAIMS, ids=[f"{p}:{w[:40]}" for p, w, _ in PYTHON_CLAIMS])
def test_a_missing_python_api_the_docs_name_is_missing(page, words, expression):
    import inspect

    import pyx

    assert eval(expression, {"inspect": inspect, "pyx": pyx}), f"{page} says {words!r}, which is no longer true"


def test_every_code_a_page_cites_exists():
    from pyx.diagnostics.codes import REGISTRY, RETIRED

    pages = [*DOCS, ROOT / "README.md", *(ROOT / "editors").rglob("*.md")]
    unknown = sorted({f"{page.name}: {code}" for page in pages if page.exists()
                      for code in re.findall(r"\b([EW]\d{4})\b", page.read_text(encoding="utf-8"))
                      if code not in REGISTRY and code not in RETIRED})
    assert not unknown, f"pages cite codes pyx does not have: {unknown}"
    retired = sorted({f"{page.name}: {code}" for page in pages if page.exists() and page.name != "diagnostics.md"
                      for code in re.findall(r"\b([EW]\d{4})\b", page.read_text(encoding="utf-8"))
                      if code in RETIRED})
    assert not retired, f"pages cite retired codes as if pyx reported them: {retired}"


def _slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation but `-` and `_` dropped, spaces as `-`."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _anchors(doc: Path) -> set[str]:
    seen: dict[str, int] = {}
    out = set()
    fenced = False
    for line in doc.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        if fenced or not re.match(r"#{1,6} ", line):
            continue
        slug = _slug(line.lstrip("#"))
        out.add(slug if slug not in seen else f"{slug}-{seen[slug]}")
        seen[slug] = seen.get(slug, 0) + 1
    return out


def test_links_to_a_heading_reach_one():
    anchors = {doc.name: _anchors(doc) for doc in DOCS}
    broken = []
    for doc in DOCS:
        for target, anchor in re.findall(r"\]\(([\w.-]*\.md)?#([^)\s]+)\)", doc.read_text(encoding="utf-8")):
            page = Path(target).name if target else doc.name
            if page in anchors and anchor not in anchors[page]:
                broken.append(f"{doc.name}: ({target}#{anchor})")
    assert not broken, f"links to headings that do not exist: {broken}"


def test_the_advice_for_typing_names_is_true(tmp_path):
    """E0011 names what to write instead: that compiles; and what it says is missing is."""
    from pyx import pipeline
    from pyx.diagnostics import CompileError
    from pyx.semantics.optional_types import NOT_YET
    from pyx.source import SourceFile

    def compiles(text: str) -> bool:
        try:
            pipeline.check(SourceFile(str(tmp_path / "advice.py"), text))
        except CompileError:
            return False
        return True

    head = "from collections import Counter, defaultdict, deque\n\n\n"
    for name, advice in NOT_YET.items():
        for written in re.findall(r"\bwrite `([^`]+)`", advice):
            if re.fullmatch(r"[\w\[\], ]+", written):  # an annotation
                assert compiles(f"{head}def f(x: {written}) -> int:\n    return 0\n"), (name, advice)
        for module, missing in re.findall(r"`(\w+)\.(\w+)` is not supported yet", advice):
            assert not compiles(f"from {module} import {missing}\n"), (name, advice)
