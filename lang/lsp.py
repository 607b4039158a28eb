"""`pyx lsp`: a language server on pygls, answering from pyx.analysis (the real checker).

Diagnostics are published on open at once and on change after a short quiet period,
so typing is not slowed by checking every keystroke.
"""
from __future__ import annotations

import asyncio
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer

from .analysis import Analysis, analyze
from .source import Span
from .version import __version__

DEBOUNCE_SECONDS = 0.25
_SYMBOL_KINDS = {"function": lsp.SymbolKind.Function, "constant": lsp.SymbolKind.Constant,
                 "struct": lsp.SymbolKind.Struct, "trait": lsp.SymbolKind.Interface,
                 "method": lsp.SymbolKind.Method, "field": lsp.SymbolKind.Field}
_COMPLETION_KINDS = {"variable": lsp.CompletionItemKind.Variable, "function": lsp.CompletionItemKind.Function,
                     "constant": lsp.CompletionItemKind.Constant, "type": lsp.CompletionItemKind.Class,
                     "keyword": lsp.CompletionItemKind.Keyword}


def to_range(span: Span) -> lsp.Range:
    line, col = span.file.line_col(span.start)
    end_line, end_col = span.file.line_col(max(span.start, span.end))
    return lsp.Range(lsp.Position(line - 1, col - 1), lsp.Position(end_line - 1, end_col - 1))


class PyxLanguageServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("pyx-lsp", __version__)
        self.analyses: dict[str, Analysis] = {}
        self.last_good: dict[str, Analysis] = {}
        self.versions: dict[str, int] = {}

    def analysis(self, uri: str) -> Analysis:
        text = self.workspace.get_text_document(uri).source
        cached = self.analyses.get(uri)
        if cached is None or cached.source.text != text:
            cached = analyze(text, _path_of(uri))
            self.analyses[uri] = cached
            if cached.program is not None:
                self.last_good[uri] = cached  # typing `p.` breaks the parse; members come from here
        return cached

    def publish(self, uri: str) -> None:
        result = self.analysis(uri)
        diagnostics = []
        for d in result.diagnostics:
            where = to_range(d.span) if d.span is not None else lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0))
            diagnostics.append(lsp.Diagnostic(range=where, message=d.message, code=d.code, source="pyx",
                                              severity=lsp.DiagnosticSeverity.Error if d.severity == "error"
                                              else lsp.DiagnosticSeverity.Warning))
        self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics))


def _path_of(uri: str) -> str:
    return uri.removeprefix("file://")


def create_server() -> PyxLanguageServer:
    server = PyxLanguageServer()

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: PyxLanguageServer, params: lsp.DidOpenTextDocumentParams):
        ls.publish(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(ls: PyxLanguageServer, params: lsp.DidChangeTextDocumentParams):
        uri = params.text_document.uri
        version = ls.versions.get(uri, 0) + 1
        ls.versions[uri] = version
        await asyncio.sleep(DEBOUNCE_SECONDS)
        if ls.versions.get(uri) == version:  # no newer edit arrived meanwhile
            ls.publish(uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: PyxLanguageServer, params: lsp.DidCloseTextDocumentParams):
        ls.analyses.pop(params.text_document.uri, None)
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=params.text_document.uri,
                                                                          diagnostics=[]))

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    def hover(ls: PyxLanguageServer, params: lsp.HoverParams):
        pos = params.position
        text = ls.analysis(params.text_document.uri).hover(pos.line + 1, pos.character + 1)
        if text is None:
            return None
        return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=f"```pyx\n{text}\n```"))

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    def definition(ls: PyxLanguageServer, params: lsp.DefinitionParams):
        pos = params.position
        span = ls.analysis(params.text_document.uri).definition(pos.line + 1, pos.character + 1)
        if span is None:
            return None
        here = ls.analysis(params.text_document.uri).source
        uri = params.text_document.uri if span.file is here else Path(span.file.name).resolve().as_uri()
        return lsp.Location(uri=uri, range=to_range(span))

    @server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def symbols(ls: PyxLanguageServer, params: lsp.DocumentSymbolParams):
        def convert(s):
            return lsp.DocumentSymbol(name=s.name, kind=_SYMBOL_KINDS[s.kind], range=to_range(s.span),
                                      selection_range=to_range(s.name_span), detail=s.detail,
                                      children=[convert(c) for c in s.children] or None)

        return [convert(s) for s in ls.analysis(params.text_document.uri).symbols()]

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=["."]))
    def completion(ls: PyxLanguageServer, params: lsp.CompletionParams):
        pos, uri = params.position, params.text_document.uri
        result = ls.analysis(uri)
        lines = result.source.text.splitlines()
        prefix = lines[pos.line][:pos.character] if pos.line < len(lines) else ""
        items = result.member_completions(pos.line + 1, pos.character + 1, prefix, ls.last_good.get(uri))
        if items is None:
            items = result.completions(pos.line + 1, pos.character + 1)
        return lsp.CompletionList(is_incomplete=False, items=[
            lsp.CompletionItem(label=c.label, kind=_COMPLETION_KINDS[c.kind], detail=c.detail or None)
            for c in items])

    return server


def main() -> int:
    create_server().start_io()
    return 0
