"""Parsed standard library modules, kept on disk between runs.

Lark parses in pure Python: the standard library's modules take about 250 ms together, more than
the rest of the front end for a small program. Their text changes only with the compiler, so
their syntax trees are kept beside the compiled-module cache, keyed by the compiler's fingerprint
(every compiler and stdlib file's size and time), the file's name and its text. A user's modules
are parsed every time: they change, and their compiled code is cached whole anyway.

The format can only ever describe a syntax tree, never run code (pickle could: a planted entry in
a shared cache directory ran during `pyx check`). It is JSON: a table of the node classes used,
each with its field names, then the tree, each node as {"n": class number, "f": [field values]}.
Decoding builds only the frozen dataclasses of `syntax/ast.py` (looked up by name among them,
field names compared with the class's own), spans into the file being compiled, and tuples;
nothing else can come out of JSON. The file is read and sealed like every cache entry
(runtime/cache.py: this user's file in this user's directory, keyed checksum), so a damaged or
foreign entry is a miss, and a miss parses as before: the cache can only save time.

Beside the tree an entry keeps the caller's summary of it (`summarize`: what the checker needs of
the whole tree before checking anything, semantics/module.py's `_Uses`), plain JSON too, so a
cached module is not walked again. Within a process each module read is kept (`_MEMO`, by the same
key as its entry): the test suite, the language server and `pyx.import_module` compile many
programs in one process, and each would decode the same trees again.
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import fields
from pathlib import Path
from typing import Any

from .diagnostics import DiagnosticBag
from .source import SourceFile, Span
from .syntax import ast, parse

KIND = "pyxast 3"  # what the keyed checksum binds: a tree in this encoding, then its summary

# The only classes an entry can name: the syntax tree's own, with their fields in order.
_CLASSES: dict[str, type] = {name: cls for name, cls in vars(ast).items()
                             if isinstance(cls, type) and issubclass(cls, ast.Node) and cls.__module__ == ast.__name__}
_FIELDS: dict[type, tuple[str, ...]] = {cls: tuple(f.name for f in fields(cls)) for cls in _CLASSES.values()}
_SPANS = ("span", "name_span")  # the fields that hold a Span (checked in tests/test_parse_cache.py)


Summarize = Callable[[ast.Module], Any]  # a tree -> a JSON value (lists, dicts, strings, numbers, bools)

# Modules already read in this process, by their entry's key: (the tree, its summary). A tree is
# immutable (frozen dataclasses, spans into the SourceFile it was read with), so every compile in
# the process can share it. At most one entry per stdlib file and compiler fingerprint.
_MEMO: dict[str, tuple[ast.Module, Any]] = {}


def parse_stdlib(source: SourceFile, diags: DiagnosticBag,
                 summarize: Summarize | None = None) -> tuple[ast.Module, Any]:
    """`syntax.parse` of a standard library file, from the cache when an entry matches, and
    `summarize(tree)` (None without it), kept in the same entry."""
    key = _key(source)
    path = _entry(source, key)
    remembered = _MEMO.get(key)
    if remembered is not None and (summarize is None or remembered[1] is not None):
        if path is not None and not path.is_file():  # a cleared cache directory gets its entry back
            _store(path, remembered[0], source, key, remembered[1])
        return remembered
    found = _load(path, source, key) if path is not None else None
    if found is not None and (summarize is None or found[1] is not None):
        _MEMO[key] = found
        return found
    before = len(diags.items)
    module = parse(source, diags)
    if len(diags.items) != before:  # a broken stdlib file (being edited): nothing kept
        return module, summarize(module) if summarize is not None else None
    summary = summarize(module) if summarize is not None else None
    if path is not None:
        _store(path, module, source, key, summary)
    _MEMO[key] = module, summary
    return module, summary


def _key(source: SourceFile) -> str:
    from .runtime.cache import compiler_fingerprint

    return hashlib.sha256(f"{compiler_fingerprint()}\0{source.name}\0{source.text}".encode()).hexdigest()


def _entry(source: SourceFile, key: str | None = None) -> Path | None:
    from .runtime.cache import cache_dir_for

    try:
        return cache_dir_for(Path(source.name)) / f"{Path(source.name).stem}.{(key or _key(source))[:20]}.pyxast"
    except OSError:
        return None


def _load(path: Path, source: SourceFile, key: str | None = None) -> tuple[ast.Module, Any] | None:
    """(tree, summary) of the entry at `path`; None when it is missing, damaged or another's."""
    from .runtime import cache

    payload = cache.unseal(cache.read_trusted(path), KIND, key or _key(source), path)
    if payload is None:
        return None
    tree, _, summary = payload.rpartition(b"\n")  # the summary is the last line (JSON has no raw newline)
    try:
        module = decode(tree, source)
        found = json.loads(summary)
    except (ValueError, TypeError, KeyError, IndexError, RecursionError):
        return None  # cannot happen to an entry that verified, but a miss is the answer anyway
    return (module, found) if isinstance(module, ast.Module) else None


def _store(path: Path, module: ast.Module, source: SourceFile, key: str | None = None, summary: Any = None) -> None:
    from .runtime import cache

    try:
        body = encode(module) + b"\n" + json.dumps(summary, separators=(",", ":"), allow_nan=False).encode()
        cache.write_atomic(path, cache.seal(KIND, key or _key(source), body))
    except (OSError, ValueError, TypeError, RecursionError):
        pass  # an unwritable cache (or a tree with an inf literal) only costs speed


def encode(module: ast.Module) -> bytes:
    """The JSON form of a syntax tree: its class table, a newline, the tree."""
    numbers: dict[type, int] = {}
    table: list[list] = []

    def value(v):
        t = type(v)
        names = _FIELDS.get(t)
        if names is not None:
            number = numbers.get(t)
            if number is None:
                number = numbers[t] = len(table)
                table.append([t.__name__, list(names)])
            return {"n": number, "f": [value(getattr(v, name)) for name in names]}
        if t is Span:
            return [v.start, v.end]
        if t is tuple:
            return [value(item) for item in v]
        if v is None or t in (str, int, float, bool):
            return v
        raise TypeError(f"a syntax tree holds no {t.__name__}")

    tree = json.dumps(value(module), separators=(",", ":"), allow_nan=False)
    return json.dumps(table, separators=(",", ":")).encode() + b"\n" + tree.encode()


def decode(data: bytes, source: SourceFile) -> ast.Node:
    """The syntax tree `encode` wrote, its spans in `source`. Only classes of syntax/ast.py, with
    exactly their fields, are built (with object.__new__: no constructor or other code runs)."""
    head, _, body = data.partition(b"\n")
    table = []
    for name, names in json.loads(head):
        cls = _CLASSES[name]  # KeyError: not a syntax tree class
        if tuple(names) != _FIELDS[cls]:
            raise ValueError(f"the fields of {name} are not {names}")
        table.append((cls, _FIELDS[cls], tuple(n in _SPANS for n in _FIELDS[cls])))
    new = object.__new__

    def as_tuple(items: list) -> tuple:
        return tuple(as_tuple(x) if type(x) is list else x for x in items)

    def node(obj: dict) -> ast.Node:  # called by json for every object, innermost first
        cls, names, spans = table[obj["n"]]
        values = obj["f"]
        if type(values) is not list or len(values) != len(names):
            raise ValueError(f"{cls.__name__} needs {len(names)} fields")
        made = new(cls)
        state = made.__dict__  # frozen dataclasses: filled directly, as unpickling did
        for name, v, is_span in zip(names, values, spans):
            if is_span:
                start, end = v
                span = new(Span)
                span.__dict__.update(file=source, start=start, end=end)
                v = span
            elif type(v) is list:
                v = as_tuple(v)
            state[name] = v
        return made

    return json.loads(body, object_hook=node)
