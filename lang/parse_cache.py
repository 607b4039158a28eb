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
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import fields
from pathlib import Path

from .diagnostics import DiagnosticBag
from .source import SourceFile, Span
from .syntax import ast, parse

KIND = "pyxast 2"  # what the keyed checksum binds: a tree in this encoding

# The only classes an entry can name: the syntax tree's own, with their fields in order.
_CLASSES: dict[str, type] = {name: cls for name, cls in vars(ast).items()
                             if isinstance(cls, type) and issubclass(cls, ast.Node) and cls.__module__ == ast.__name__}
_FIELDS: dict[type, tuple[str, ...]] = {cls: tuple(f.name for f in fields(cls)) for cls in _CLASSES.values()}
_SPANS = ("span", "name_span")  # the fields that hold a Span (checked in tests/test_parse_cache.py)


def parse_stdlib(source: SourceFile, diags: DiagnosticBag) -> ast.Module:
    """`syntax.parse` of a standard library file, from the cache when an entry matches."""
    path = _entry(source)
    module = _load(path, source) if path is not None else None
    if module is not None:
        return module
    before = len(diags.items)
    module = parse(source, diags)
    if path is not None and len(diags.items) == before:
        _store(path, module, source)
    return module


def _key(source: SourceFile) -> str:
    from .runtime.cache import compiler_fingerprint

    return hashlib.sha256(f"{compiler_fingerprint()}\0{source.name}\0{source.text}".encode()).hexdigest()


def _entry(source: SourceFile) -> Path | None:
    from .runtime.cache import cache_dir_for

    try:
        return cache_dir_for(Path(source.name)) / f"{Path(source.name).stem}.{_key(source)[:20]}.pyxast"
    except OSError:
        return None


def _load(path: Path, source: SourceFile) -> ast.Module | None:
    from .runtime import cache

    payload = cache.unseal(cache.read_trusted(path), KIND, _key(source), path)
    if payload is None:
        return None
    try:
        module = decode(payload, source)
    except (ValueError, TypeError, KeyError, IndexError, RecursionError):
        return None  # cannot happen to an entry that verified, but a miss is the answer anyway
    return module if isinstance(module, ast.Module) else None


def _store(path: Path, module: ast.Module, source: SourceFile) -> None:
    from .runtime import cache

    try:
        cache.write_atomic(path, cache.seal(KIND, _key(source), encode(module)))
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
