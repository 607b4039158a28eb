"""What pyx's `bytes` and `bytearray` (stdlib/pybytes.px) refuse when compiling, where CPython would go on.

- E0189: an encoding or error handler, written as a literal, that CPython knows and pyx's bytes
  do not (`s.encode("utf-16")`, `b.decode("utf-8", "backslashreplace")`): pyx has utf-8, ascii
  and latin-1 (with their aliases) and the handlers strict, replace and ignore. A name CPython
  does not know either is left to the run, which raises CPython's LookupError.
- E0299: a str where a bytes is expected or the other way round (`b == "a"`, `b + "a"`,
  `"a" in b`, `b.split(",")`): CPython's `==` says False and `+`, `in` and the methods raise
  TypeError, never what the program meant; the fix is to encode the str or decode the bytes.
"""
from __future__ import annotations

import codecs
from typing import TYPE_CHECKING

from ..syntax import ast
from .builtin_types import is_builtin
from .imports import is_stdlib_file, is_string
from .typed import TConst

if TYPE_CHECKING:
    from .check import FunctionChecker

# The encodings stdlib/pybytes.px `_codec` reads (spelled as its normalisation leaves them).
ENCODINGS = {"utf_8", "utf8", "u8", "utf", "ascii", "us_ascii", "646", "latin_1", "latin1", "latin", "l1",
             "iso_8859_1", "iso8859_1", "8859", "cp819"}
HANDLERS = {"strict", "replace", "ignore"}
_METHODS = {"encode", "decode", "__init__"}
# The methods of bytes and bytearray that take bytes (or a bytearray, or an int) under a type parameter.
_TAKING_BYTES = {"__contains__", "__eq__", "__ne__", "__add__", "__iadd__", "extend"}


def _text(t) -> bool:
    from .. import types as T

    return is_string(t) or t == T.STRING_LITERAL


def _unsupported(kind: str, name: str) -> bool:
    """Whether CPython knows this encoding (or error handler) and pyx's bytes do not."""
    if kind == "encoding":
        if name.lower().replace("-", "_").replace(" ", "_") in ENCODINGS:
            return False
        try:
            codecs.lookup(name)
        except LookupError:
            return False
        return True
    if name in HANDLERS:
        return False
    try:
        codecs.lookup_error(name)
    except LookupError:
        return False
    return True


def _declared(annotation) -> str | None:
    """`bytes` or `String` where a parameter is declared as one (or as an Optional of one)."""
    if isinstance(annotation, ast.Subscript) and isinstance(annotation.value, ast.Name) \
            and annotation.value.id == "Optional" and len(annotation.items) == 1:
        annotation = annotation.items[0]
    return annotation.id if isinstance(annotation, ast.Name) and annotation.id in ("bytes", "String") else None


def check_call(chk: FunctionChecker, decl, params, bound, span, owner) -> bool:
    """False (after a diagnostic) where a call of bytes' or str's methods is one of the above."""
    if owner is None or not is_stdlib_file(decl.span.file.name):
        return True
    bytes_owner, str_owner = is_builtin(owner, "Bytes") or is_builtin(owner, "ByteArray"), is_string(owner)
    if not (bytes_owner or str_owner):
        return True
    if decl.name in _METHODS and (bytes_owner or decl.name == "encode"):
        for p, b in zip(params, bound, strict=False):
            if p.name in ("encoding", "errors") and isinstance(b, TConst) and isinstance(b.value, str) \
                    and _unsupported("encoding" if p.name == "encoding" else "handler", b.value):
                what = "encoding" if p.name == "encoding" else "error handler"
                chk.msg.error("E0189", b.span, what=what, name=b.value)
                return False
    for p, b in zip(params, bound, strict=False):
        # Only a parameter declared as the other type (`other: bytes`, `sep: Optional[bytes]`), and
        # `x in b`, `b == x`, `ba += x`, whose `x` may be an int, bytes or a bytearray: `str(b)`, `print(b)`
        # and f-strings take any T.
        wanted = _declared(p.annotation)
        if decl.name in _TAKING_BYTES and bytes_owner:
            wanted = "bytes"
        given = b.type
        if wanted == "bytes" and _text(given):
            chk.msg.error("E0299", b.span, found="str", expected="bytes", fix="encode the str: `s.encode()`")
            return False
        if wanted == "String" and is_builtin(given, "Bytes"):
            chk.msg.error("E0299", b.span, found="bytes", expected="str", fix="decode the bytes: `b.decode()`")
            return False
    return True
