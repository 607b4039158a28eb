"""The standard library's syntax trees are cached on disk: a second compile reads them instead of
parsing, a damaged or stale entry is only a miss, the trees compile exactly as freshly parsed ones,
and `pyx cache clear` removes them with the rest."""
import pytest

from helpers import run_cli
from pyx import parse_cache, pipeline
from pyx.source import SourceFile

PROGRAM = 'def main():\n    words = "b a b".split()\n    print(max(words[0], words[1]), len(words))\n'


@pytest.fixture()
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("PYX_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    return tmp_path / "cache"


def compile_ir(tmp_path) -> str:
    from pyx.ir.printer import print_module

    return print_module(pipeline.lower(SourceFile("prog.px", PROGRAM)).ir)


def test_a_second_compile_reads_the_stdlib_trees_instead_of_parsing(cache, tmp_path, monkeypatch):
    first = compile_ir(tmp_path)
    entries = sorted(p.name.split(".")[0] for p in cache.glob("*.pyxast"))
    assert "string" in entries and "collections" in entries

    def no_parsing(source, diags=None):
        raise AssertionError(f"parsed {source.name} again")

    monkeypatch.setattr(parse_cache, "parse", no_parsing)
    assert compile_ir(tmp_path) == first  # the cached trees give the same program


def test_a_damaged_or_foreign_entry_is_a_miss(cache, tmp_path):
    first = compile_ir(tmp_path)
    entries = list(cache.glob("*.pyxast"))
    entries[0].write_bytes(entries[0].read_bytes()[:50])  # truncated
    entries[1].write_bytes(b"not an entry at all")
    assert compile_ir(tmp_path) == first
    assert all(parse_cache._load(e, SourceFile("x.px", "")) is None for e in cache.glob("*.pyxast"))


def test_an_edited_stdlib_file_does_not_match_its_old_entry(cache, tmp_path):
    compile_ir(tmp_path)
    entry = next(cache.glob("string.*.pyxast"))
    from pyx.semantics.imports import STDLIB

    text = STDLIB / "string.px"
    edited = SourceFile(str(text), text.read_text() + "\n# edited\n")
    assert parse_cache._entry(edited) != entry
    assert parse_cache._load(entry, edited) is None  # and the entry itself checks the text


def test_cache_clear_removes_the_trees(cache, tmp_path):
    compile_ir(tmp_path)
    assert list(cache.glob("*.pyxast"))
    assert run_cli("cache", "clear", str(tmp_path)).status == 0
    assert not list(cache.glob("*.pyxast"))


# The format (docs/security.md): JSON that can only describe a syntax tree, never run code.

def stdlib_sources():
    from pyx.semantics.imports import STDLIB

    return [SourceFile(str(p), p.read_text(encoding="utf-8")) for p in sorted(STDLIB.glob("*.px"))]


def test_every_stdlib_tree_comes_back_exactly_with_its_spans_in_the_file_compiled():
    from pyx.diagnostics import DiagnosticBag
    from pyx.syntax import parse

    for source in stdlib_sources():
        tree = parse(source, DiagnosticBag())
        again = parse_cache.decode(parse_cache.encode(tree), source)
        assert again == tree, source.name
        assert again.span.file is source and again.body[0].span.file is source


def test_an_entry_can_name_only_the_syntax_trees_classes_with_their_own_fields():
    source = SourceFile("x.px", "pass\n")
    good = b'[["Module",["span","name","body"]],["Pass",["span"]]]\n{"n":0,"f":[[0,5],"x",[{"n":1,"f":[[0,4]]}]]}'
    assert parse_cache.decode(good, source).body[0].span.end == 4
    for table in (b'[["SourceFile",["name","text"]]]', b'[["Path",["span"]]]', b'[["__builtins__",["span"]]]',
                  b'[["children",["span"]]]'):
        with pytest.raises(KeyError):
            parse_cache.decode(table + b'\n{"n":0,"f":[[0,1]]}', source)
    with pytest.raises(ValueError):  # a field the class does not have
        parse_cache.decode(b'[["Pass",["span","__class__"]]]\n{"n":0,"f":[[0,4],"x"]}', source)
    with pytest.raises(ValueError):  # a value short
        parse_cache.decode(b'[["Module",["span","name","body"]]]\n{"n":0,"f":[[0,5],"x"]}', source)


def test_every_span_field_of_the_tree_is_decoded_as_a_span():
    from dataclasses import fields

    spans = {f.name for cls in parse_cache._CLASSES.values() for f in fields(cls) if "Span" in str(f.type)}
    assert spans and spans <= set(parse_cache._SPANS)
