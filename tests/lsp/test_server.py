"""`pyx lsp` driven by pygls' own client over stdio, as an editor would."""
import asyncio
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls", reason="the language server needs pygls (pip install 'pyx-llvm[lsp]')")

from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient

SOURCE = """fn scale(x: Float64, k: Int) -> Float64:
    var y = x * k
    return y


fn main():
    var total = 3
    print(scale(1.5, total))
"""


async def session(tmp_path: Path, body):
    client = LanguageClient("pyx-tests", "1")
    published: list = []
    arrived = asyncio.Event()

    @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_diagnostics(params):
        published.append(params)
        arrived.set()

    await client.start_io(sys.executable, "-m", "pyx", "lsp")
    try:
        await client.initialize_async(lsp.InitializeParams(capabilities=lsp.ClientCapabilities(),
                                                           root_uri=tmp_path.as_uri()))
        client.initialized(lsp.InitializedParams())
        uri = (tmp_path / "k.px").as_uri()
        client.text_document_did_open(lsp.DidOpenTextDocumentParams(
            text_document=lsp.TextDocumentItem(uri=uri, language_id="pyx", version=1, text=SOURCE)))
        await asyncio.wait_for(arrived.wait(), 30)
        arrived.clear()
        return await body(client, uri, published, arrived)
    finally:
        await client.shutdown_async(None)
        client.exit(None)
        await client.stop()


def run(tmp_path, body):
    return asyncio.run(asyncio.wait_for(session(tmp_path, body), 60))


def test_diagnostics_on_open_and_after_a_change(tmp_path):
    async def body(client, uri, published, arrived):
        assert len(published[-1].diagnostics) == 0
        broken = SOURCE.replace("return y", "return y + missing")
        client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=broken)]))
        await asyncio.wait_for(arrived.wait(), 30)
        diag = published[-1].diagnostics[0]
        assert diag.code == "E0101" and "missing" in diag.message
        assert (diag.range.start.line, diag.range.start.character) == (2, 15)
    run(tmp_path, body)


def test_hover_definition_symbols_completion(tmp_path):
    async def body(client, uri, published, arrived):
        doc = lsp.TextDocumentIdentifier(uri=uri)
        hover = await client.text_document_hover_async(lsp.HoverParams(doc, lsp.Position(7, 11)))
        assert "fn scale(x: Float64, k: Int) -> Float64" in hover.contents.value
        hover = await client.text_document_hover_async(lsp.HoverParams(doc, lsp.Position(7, 22)))
        assert "(variable) total: Int" in hover.contents.value
        where = await client.text_document_definition_async(lsp.DefinitionParams(doc, lsp.Position(7, 11)))
        assert (where.range.start.line, where.range.start.character) == (0, 3)
        symbols = await client.text_document_document_symbol_async(lsp.DocumentSymbolParams(doc))
        assert [s.name for s in symbols] == ["scale", "main"]
        items = await client.text_document_completion_async(lsp.CompletionParams(doc, lsp.Position(7, 4)))
        labels = {i.label for i in items.items}
        assert {"total", "scale", "print", "Float64"} <= labels and "y" not in labels
    run(tmp_path, body)


def test_member_completion_while_typing(tmp_path):
    source = ("@fieldwise_init\nstruct Point:\n    var x: Float64\n    var y: Float64\n\n"
              "fn main():\n    var p = Point(1.0, 2.0)\n    print(p.x)\n")

    async def body(client, uri, published, arrived):
        client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=source)]))
        await asyncio.wait_for(arrived.wait(), 30)
        arrived.clear()
        typing = source.replace("print(p.x)", "print(p.")
        client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=3),
            content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=typing)]))
        items = await client.text_document_completion_async(lsp.CompletionParams(
            lsp.TextDocumentIdentifier(uri=uri), lsp.Position(7, 12)))
        assert {i.label for i in items.items} == {"x", "y"}
    run(tmp_path, body)


def test_definition_of_an_imported_function_opens_its_module(tmp_path):
    """Names used from another .px module jump into that file; hovering in this file never
    picks up a name at the same position inside the imported one."""
    (tmp_path / "shapes.px").write_text("fn area(r: Float64) -> Float64:\n    return 3.0 * r * r\n")
    # Offset 49 is the comment here and `r` (line 2) in shapes.px.
    importer = "from shapes import area\n# the area of a circle, from shapes.px\nfn main():\n    print(area(1.0))\n"

    async def body(client, uri, published, arrived):
        client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=importer)]))
        await asyncio.wait_for(arrived.wait(), 30)
        assert not published[-1].diagnostics
        doc = lsp.TextDocumentIdentifier(uri=uri)
        where = await client.text_document_definition_async(lsp.DefinitionParams(doc, lsp.Position(3, 11)))
        assert where.uri == (tmp_path / "shapes.px").resolve().as_uri()
        assert (where.range.start.line, where.range.start.character) == (0, 3)
        hover = await client.text_document_hover_async(lsp.HoverParams(doc, lsp.Position(1, 25)))
        assert hover is None
    run(tmp_path, body)
