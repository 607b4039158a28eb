"""The diagnostic registry (`lang/diagnostics/codes.py`) as typed codes: each call site passes exactly
the named arguments its code's template needs, each code sits in its category's number range (or says
why not), and each registered code is reported somewhere in the compiler or the stdlib."""
import ast
import itertools
import re

import pytest

from helpers import ROOT
from pyx.diagnostics import codes, error
from pyx.diagnostics.codes import CATEGORIES, CODES, REGISTRY, RETIRED, ErrorCode, message

CODE = re.compile(r"^[EW]\d{4}$")
SOURCES = sorted(p for d in ("lang", "stdlib") for p in (ROOT / d).rglob("*.py") if p.name != "codes.py")
# The builders that take a code and fill its template from their own keyword arguments, and the
# helpers in build_ast.py that take a code as their third argument and pass it `construct=`.
REPORTERS = {"error", "message"}
CONSTRUCT_HELPERS = {"_unsupported", "_bad_expr", "_bad_stmt"}


def _codes_in(node: ast.expr) -> list[str]:
    """The codes an argument can evaluate to: a literal, a named constant of codes.py (`NOT_IN_PYX`,
    `codes.NOT_IN_PYX`), or a conditional of those (`"E0107" if c else "E0108"` gives both)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and CODE.match(node.value):
        return [node.value]
    name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""
    if isinstance(getattr(codes, name, None), ErrorCode) and name.isupper():
        return [getattr(codes, name).code]
    if isinstance(node, ast.IfExp):
        return _codes_in(node.body) + _codes_in(node.orelse)
    return []


def _call_sites() -> list[tuple[str, str, set[str] | None]]:
    """(where, code, keyword names) for every call in lang/ and stdlib/ that reports a code literal;
    keyword names is None where the call passes `**args` (its fields cannot be read)."""
    sites = []
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            # `span=` and `notes=` are the reporter's own parameters, not the template's.
            names = None if any(k.arg is None for k in node.keywords) else \
                {k.arg for k in node.keywords if k.arg not in (None, "span", "notes")}
            if func in REPORTERS and node.args:
                sites += [(where, code, names) for code in _codes_in(node.args[0])]
            elif func in CONSTRUCT_HELPERS:
                given = node.args[2:3] or [k.value for k in node.keywords if k.arg == "code"]
                sites += [(where, code, {"construct"}) for code in (_codes_in(given[0]) if given else ["E0002"])]
    return sites


SITES = _call_sites()


def test_the_walk_finds_the_call_sites():
    # A walk that found nothing would pass every check below.
    assert len(SITES) > 300
    assert any(code == "E0007" for _, code, _ in SITES)
    assert any(code == "E0002" and "semantics" in where for where, code, _ in SITES)  # by its constant


@pytest.mark.parametrize("where,code,names", SITES, ids=[f"{w}-{c}" for w, c, _ in SITES])
def test_each_call_site_passes_exactly_the_templates_fields(where, code, names):
    assert code in REGISTRY, f"{where}: {code} is not registered"
    assert names is not None, f"{where}: {code} gets `**args`, whose names cannot be checked"
    fields = REGISTRY[code].fields
    assert names == fields, f"{where}: {code} needs {sorted(fields)}, the call passes {sorted(names)}"


def test_a_missing_or_unknown_argument_is_a_compiler_bug_at_the_call():
    with pytest.raises(TypeError, match="missing \\['name'\\]"):
        error("E0101", None)
    with pytest.raises(TypeError, match="unknown \\['nam'\\]"):
        error("E0101", None, name="x", nam="y")
    with pytest.raises(TypeError, match="unknown \\['name'\\]"):
        message("E0108", name="x")  # a template without fields takes no arguments
    with pytest.raises(KeyError):
        error("E0999", None)
    assert error("E0101", None, name="x").message == "name `x` is not defined"


def test_codes_and_names_are_unique_and_well_formed():
    assert len({c.code for c in CODES}) == len(CODES)
    assert len({c.name for c in CODES}) == len(CODES)
    for c in CODES:
        assert CODE.match(c.code), c
        assert re.fullmatch(r"[a-z][a-z0-9_]*", c.name), c


def test_fields_are_derived_from_the_template():
    code = ErrorCode("E0299", "example", CATEGORIES[2], "`{func}` takes {expected} argument{s}, {spec!r} {x.y}")
    assert code.fields == {"func", "expected", "s", "spec", "x"}


def test_every_code_sits_in_its_categorys_range_or_says_why_not():
    for c in CODES:
        if c.outside_range:
            assert not c.category.holds(c.code), f"{c.code} is in its range: drop its outside_range"
            assert any(other.holds(c.code) for other in CATEGORIES), f"{c.code} is in no category's range"
        else:
            assert c.category.holds(c.code), f"{c.code} ({c.name}) is outside {c.category.name}'s range " \
                f"{c.category.first}..{c.category.last}: a released code keeps its number, so say why"


def test_the_category_ranges_do_not_overlap():
    ranges = sorted((c.first, c.last) for c in CATEGORIES)
    for (_, last), (first, _) in itertools.pairwise(ranges):
        assert last < first


def test_every_registered_code_is_reported_somewhere():
    # A call site found by the walk, or a code literal anywhere else (`Diagnostic("W0002", ...)` in the LSP).
    literals = re.findall(r'"([EW]\d{4})"', "\n".join(p.read_text() for p in SOURCES))
    reported = {code for _, code, _ in SITES} | set(literals)
    unused = [c.code for c in CODES if c.code not in reported]
    assert not unused, f"registered codes no compiler or stdlib source reports: {unused}"


def test_retired_codes_are_not_reused_and_the_docs_name_the_exceptions():
    assert not set(RETIRED) & set(REGISTRY)
    text = (ROOT / "docs" / "diagnostics.md").read_text()
    groups = text[text.index("Codes are grouped by number"):text.index("## How a diagnostic looks")]
    for c in CODES:
        assert (c.code in groups) == bool(c.outside_range), f"{c.code}: docs/diagnostics.md's list of codes " \
            "outside their group and the registry's `outside_range` disagree"
    for code in RETIRED:
        assert code in groups, f"retired {code} is not named in docs/diagnostics.md"
