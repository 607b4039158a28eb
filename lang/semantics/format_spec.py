"""Checking `format(value, "spec")` (and so `f"{value:spec}"`) when compiling: the spec is
tried on a sample of the value's type with Python's own `format`, so an invalid spec is an
error with Python's message instead of a surprise at run time, and the parts of the mini-
language the stdlib's `format` does not implement yet are reported as such."""
from __future__ import annotations

import re

from .. import types as T

SPEC = re.compile(r"^(?:(.)?([<>=^]))?([+\- ])?(#)?(0)?(\d+)?([,_])?(?:\.(\d+))?([a-zA-Z%])?$", re.S)
SUPPORTED_TYPES = set("bcdeEfFgGnosxX%")


def spec_problem(value_type, spec: str, is_string) -> str | None:
    """Why `spec` cannot format a value of `value_type`, or None when it can."""
    sample: object
    if isinstance(value_type, T.ScalarType):
        sample = True if value_type.is_bool else 0.5 if value_type.is_float else 5
    elif value_type == T.STRING_LITERAL or is_string(value_type):
        sample = "text"
    else:
        return f"values of type `{value_type}` have no format spec"
    try:
        format(sample, spec)
    except (ValueError, TypeError) as exc:
        return str(exc)
    m = SPEC.match(spec)
    if m is None:
        return f"format spec {spec!r} is not supported"
    if m.group(9) and m.group(9) not in SUPPORTED_TYPES:
        return f"format type `{m.group(9)}` is not supported yet (b c d e E f F g G n o s x X % are)"
    return None
