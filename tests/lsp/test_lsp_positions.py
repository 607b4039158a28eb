"""`pyx lsp` with what real editors send, driven by pygls' own client over stdio: document URIs
whose paths hold spaces or other `%xx` escapes (the document's imports are found beside the
file the URI names), and columns counted in UTF-16 code units, as the protocol requires, on
lines with characters beyond the Basic Multilingual Plane (an emoji is two units, one
character)."""
import asyncio
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls", reason="the language server needs pygls (pip install 'pyx-llvm[lsp]')")

from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient


async def session(folder: Path, name: str, text: str, body):
    client = LanguageClient("pyx-tests", "1")
    published: list = []
    arrived = asyncio.Event()

    @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_diagnostics(params):
        published.append(params)
        arrived.set()

    await client.start_io(sys.executable, "-m", "pyx", "lsp")
    try:
        # The client offers no position encodings: the protocol's default, UTF-16, is the one.
        await client.initialize_async(lsp.InitializeParams(capabilities=lsp.ClientCapabilities(),
                                                           root_uri=folder.as_uri()))
        client.initialized(lsp.InitializedParams())
        uri = (folder / name).as_uri()
        client.text_document_did_open(lsp.DidOpenTextDocumentParams(
            text_document=lsp.TextDocumentItem(uri=uri, language_id="pyx", version=1, text=text)))
        await asyncio.wait_for(arrived.wait(), 60)
        return await body(client, uri, published)
    finally:
        await client.shutdown_async(None)
        client.exit(None)
        await client.stop()


def run(folder, name, text, body):
    return asyncio.run(asyncio.wait_for(session(folder, name, text, body), 120))


def test_a_document_in_a_folder_with_spaces_and_escapes_finds_its_imports(tmp_path):
    folder = tmp_path / "my projects" / "100% pyx"
    folder.mkdir(parents=True)
    (folder / "geo.px").write_text("fn area(r: Float64) -> Float64:\n    return 3.0 * r * r\n")
    text = "from geo import area\n\n\nfn main():\n    print(area(2.0))\n"

    async def body(client, uri, published):
        assert "%20" in uri and "%25" in uri  # as editors send it
        assert published[-1].uri == uri and list(published[-1].diagnostics) == []
        doc = lsp.TextDocumentIdentifier(uri=uri)
        where = await client.text_document_definition_async(lsp.DefinitionParams(doc, lsp.Position(4, 11)))
        assert where.uri == (folder / "geo.px").resolve().as_uri()
        assert (where.range.start.line, where.range.start.character) == (0, 3)
    run(folder, "main.px", text, body)


# On line 2, `missing` starts at character 24 (code points) and UTF-16 unit 26: two emoji before it.
EMOJI = 'fn main():\n    var s = "🙂🚀"; print(missing + s)\n    var total = 1\n    print(total)\n'


def test_columns_are_utf16_code_units_both_ways(tmp_path):
    async def body(client, uri, published):
        diag = published[-1].diagnostics[0]
        assert diag.code == "E0101" and "missing" in diag.message
        assert (diag.range.start.line, diag.range.start.character) == (1, 26)
        assert (diag.range.end.line, diag.range.end.character) == (1, 33)
        doc = lsp.TextDocumentIdentifier(uri=uri)
        # `s` inside print(...) is UTF-16 unit 36 (character 34); character 36 is the `)` after it.
        hover = await client.text_document_hover_async(lsp.HoverParams(doc, lsp.Position(1, 36)))
        assert hover is not None and "s: String" in hover.contents.value
        where = await client.text_document_definition_async(lsp.DefinitionParams(doc, lsp.Position(1, 36)))
        assert (where.range.start.line, where.range.start.character) == (1, 8)
    run(tmp_path, "emoji.px", EMOJI, body)
