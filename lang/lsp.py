"""`pyx lsp`: a language server on pygls, answering from pyx.analysis (the real checker).

Diagnostics are published on open at once and on change after a short quiet period,
so typing is not slowed by checking every keystroke.

No document can stall the server: each analysis runs on a thread of its own while the event
loop goes on answering; a newer version of a document cancels the analysis of the older one
(cancel.py); a document larger than MAX_LIVE_CHARS is not analysed at all (one W0002 says
so). And no byte stream can kill it or knock it out of step: `FramedReader` reads the base
protocol's frames itself, refuses absurd `Content-Length`s, and after a frame whose length
was wrong finds the next message instead of reading everything after it as garbage.
"""
from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import sys
import threading
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote

from lsprotocol import types as lsp
from pygls.io_ import StdoutWriter, run_async
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from .analysis import Analysis, analyze
from .cancel import Cancelled, cancellable
from .diagnostics import Diagnostic
from .diagnostics.codes import message
from .source import SourceFile, Span
from .version import __version__

DEBOUNCE_SECONDS = 0.25
# Parsing takes about 7 s per million characters: beyond that a document is not checked live.
MAX_LIVE_CHARS = 1_000_000
# The largest message read: a document at the limit above is a few MB of JSON; more is refused.
MAX_MESSAGE_BYTES = 64 << 20
MAX_HEADER_BYTES = 8 << 10
logger = logging.getLogger(__name__)
_SYMBOL_KINDS = {"function": lsp.SymbolKind.Function, "constant": lsp.SymbolKind.Constant,
                 "struct": lsp.SymbolKind.Struct, "trait": lsp.SymbolKind.Interface,
                 "method": lsp.SymbolKind.Method, "field": lsp.SymbolKind.Field}
_COMPLETION_KINDS = {"variable": lsp.CompletionItemKind.Variable, "function": lsp.CompletionItemKind.Function,
                     "constant": lsp.CompletionItemKind.Constant, "type": lsp.CompletionItemKind.Class,
                     "keyword": lsp.CompletionItemKind.Keyword}


def to_range(span: Span) -> lsp.Range:
    """Where a span is, in lines and characters (code points) from 0: what `_Codec` converts to the
    client's units."""
    line, col = span.file.line_col(span.start)
    end_line, end_col = span.file.line_col(max(span.start, span.end))
    return lsp.Range(lsp.Position(line - 1, col - 1), lsp.Position(end_line - 1, end_col - 1))


class _Codec:
    """Positions as the client counts them and as pyx does: the protocol counts characters in
    UTF-16 code units unless the client and server agreed on another encoding, pyx in code points,
    so every character beyond the Basic Multilingual Plane (an emoji) before a position shifts it
    by one. pygls' own codec converts, given the lines of the text the position is in."""

    def __init__(self, server: LanguageServer):
        self.server = server
        self._lines: tuple[str, list[str]] | None = None

    def lines(self, text: str) -> list[str]:
        if self._lines is None or self._lines[0] is not text:
            self._lines = (text, text.splitlines(keepends=True))
        return self._lines[1]

    def range(self, span: Span) -> lsp.Range:
        """A span's range in the client's units."""
        return self.server.workspace.position_codec.range_to_client_units(self.lines(span.file.text), to_range(span))

    def position(self, text: str, where: lsp.Position) -> lsp.Position:
        """A position the client sent, in code points of `text`."""
        found = self.server.workspace.position_codec.position_from_client_units(self.lines(text), where)
        return lsp.Position(found.line, found.character)


class FramedReader:
    """The LSP base protocol's frames (`Content-Length: N` headers, an empty line, N bytes of
    JSON) read from a binary stream, defensively. `next_body()` blocks until the next message
    whose body is JSON and returns it, or None at the end of the stream. A header whose length
    is not a number or is over MAX_MESSAGE_BYTES is skipped (reading 10**12 bytes would end the
    process). A frame whose length was wrong, too short or too long, does not parse as JSON;
    reading starts again right after its header, so the next well-formed message is found."""

    _START = re.compile(rb"content-length[ \t]*:", re.IGNORECASE)
    _LENGTH = re.compile(rb"content-length[ \t]*:[ \t]*(\d{1,20})[ \t]*(\r\n|$)", re.IGNORECASE)

    def __init__(self, stream):
        self.stream = stream
        self.buffer = bytearray()

    def _more(self) -> bool:
        try:
            # The file descriptor itself where there is one: a thread blocked in a buffered
            # reader holds its lock, and the interpreter cannot shut down around it.
            chunk = os.read(self.stream.fileno(), 1 << 16)
        except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is an OSError
            read = getattr(self.stream, "read1", None)
            chunk = read(1 << 16) if read is not None else self.stream.readline(1 << 16)
        self.buffer += chunk
        return bool(chunk)

    def next_body(self) -> bytes | None:
        buf = self.buffer
        while True:
            start = self._START.search(buf)
            if start is None:
                del buf[:max(0, len(buf) - 32)]  # not a header; keep what may be the start of one
                if not self._more():
                    return None
                continue
            del buf[:start.start()]  # anything before a header (other header lines, garbage)
            end = buf.find(b"\r\n\r\n")
            if end < 0:
                if len(buf) > MAX_HEADER_BYTES:
                    del buf[:1]  # a header that never ends: look for the next one
                elif not self._more():
                    return None
                continue
            length = self._LENGTH.match(bytes(buf[:buf.find(b"\r\n") + 2]))
            if length is None or int(length.group(1)) > MAX_MESSAGE_BYTES:
                logger.error("ignoring a message header: %r", bytes(buf[:min(end, 200)]))
                del buf[:1]
                continue
            body_start, size = end + 4, int(length.group(1))
            stop = self._body_end(body_start, size)
            if stop is None:
                return None
            body = bytes(buf[body_start:stop])
            try:
                json.loads(body)
            except RecursionError:  # JSON nested deeper than Python parses: framed right, but unusable
                logger.error("a message of %d bytes is nested too deeply to read; skipped", size)
                del buf[:stop]
                continue
            except ValueError:
                logger.error("a message of %d bytes is not JSON (a wrong Content-Length?); reading on "
                             "from the next header", size)
                del buf[:1]  # only this header is dropped: the next one may be inside what was read
                continue
            del buf[:stop]
            return body

    def _body_end(self, start: int, size: int) -> int | None:
        """Where the body at `start`, `size` bytes long, ends in the buffer (None at the end of
        the stream). If the next header arrives first, right after a complete JSON value, the
        length was too long, and the body ends there: waiting for bytes the client never sends
        would stop the server."""
        buf = self.buffer
        while len(buf) < start + size:
            seen = len(buf)
            if not self._more():
                return None
            following = self._START.search(buf, max(start, seen - 32), start + size)
            if following is None:
                continue
            try:
                text = buf[start:following.start()].decode("utf-8")
                value, stop = json.JSONDecoder().raw_decode(text)
            except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
                continue
            if isinstance(value, dict) and not text[stop:].strip():
                logger.error("a message was shorter than its Content-Length (%d bytes)", size)
                return following.start()
        return start + size


class _Frames:
    """What pygls' message loop reads: each message of a FramedReader, as a well-formed frame.
    A daemon thread does the blocking reads, so an idle stdin never holds up the exit."""

    def __init__(self, framed: FramedReader):
        self.framed = framed
        self.pending: deque[bytes] = deque()
        self.queue: asyncio.Queue | None = None

    def _start(self) -> None:
        loop, self.queue = asyncio.get_running_loop(), asyncio.Queue()

        def pump():
            while True:
                try:
                    body = self.framed.next_body()
                except Exception:
                    logger.exception("reading a message failed")
                    body = None
                try:
                    loop.call_soon_threadsafe(self.queue.put_nowait, body)
                except RuntimeError:  # the loop is closed: the server is gone
                    return
                if body is None:
                    return

        threading.Thread(target=pump, name="pyx-lsp-reader", daemon=True).start()

    async def readline(self) -> bytes:
        if not self.pending:
            if self.queue is None:
                self._start()
            assert self.queue is not None  # _start made it
            body = await self.queue.get()
            if body is None:
                return b""  # the end: pygls' loop stops
            self.pending.extend((b"Content-Length: %d\r\n" % len(body), b"\r\n", body))
        return self.pending.popleft()

    async def readexactly(self, n: int) -> bytes:
        return self.pending.popleft()


@dataclass
class _Job:
    """One analysis of one text of a document: `done` gets the Analysis, or None if cancelled."""

    text: str
    cancel: threading.Event
    done: asyncio.Future


class PyxLanguageServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("pyx-lsp", __version__)
        self.last_good: dict[str, Analysis] = {}
        self.versions: dict[str, int] = {}
        self.jobs: dict[str, _Job] = {}
        self.codec = _Codec(self)

    def start_io(self, stdin=None, stdout=None):
        """pygls' stdio server, reading through FramedReader."""
        self._stop_event = threading.Event()
        self.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
        reader = _Frames(FramedReader(stdin or sys.stdin.buffer))
        try:
            asyncio.run(run_async(stop_event=self._stop_event, reader=reader, protocol=self.protocol,
                                  logger=logger, error_handler=self.report_server_error))
        except BrokenPipeError:
            logger.error("Connection to the client is lost! Shutting down the server.")
        except (KeyboardInterrupt, SystemExit):
            pass
        finally:
            for job in self.jobs.values():
                job.cancel.set()
            self.shutdown()

    def _job(self, uri: str, text: str) -> _Job:
        """The analysis of this text of the document: the one in flight, or a new one that
        cancels the analysis of an older text."""
        job = self.jobs.get(uri)
        if job is not None and job.text == text and not job.cancel.is_set():
            return job
        if job is not None:
            job.cancel.set()
        loop = asyncio.get_running_loop()
        job = _Job(text, threading.Event(), loop.create_future())
        self.jobs[uri] = job
        path = _path_of(uri)
        if len(text) > MAX_LIVE_CHARS:
            job.done.set_result(_too_large(text, path))
            return job

        def work():
            try:
                with cancellable(job.cancel):
                    result = None if job.cancel.is_set() else analyze(text, path)
            except Cancelled:
                result = None
            loop.call_soon_threadsafe(lambda: job.done.done() or job.done.set_result(result))

        threading.Thread(target=work, name="pyx-lsp-analysis", daemon=True).start()
        return job

    def supersede(self, uri: str) -> None:
        """The document changed: stop analysing the text it had."""
        job = self.jobs.get(uri)
        if job is not None and job.text != self.text_of(uri):
            job.cancel.set()

    def text_of(self, uri: str) -> str | None:
        """The document's text, None when it is not open (pygls keys documents by unquoted URI)."""
        document = self.workspace.text_documents.get(unquote(uri))
        return document.source if document is not None else None

    async def analysis(self, uri: str) -> Analysis | None:
        """The analysis of the document's current text (None once it is closed). Waiting for it
        does not block the server: other requests and newer versions go on meanwhile."""
        while (text := self.text_of(uri)) is not None:
            job = self._job(uri, text)
            result = await asyncio.shield(job.done)  # a cancelled request must not cancel the job
            if result is not None and self.jobs.get(uri) is job and self.text_of(uri) == job.text:
                if result.program is not None:
                    self.last_good[uri] = result  # typing `p.` breaks the parse; members come from here
                return result
            # Cancelled, or the document changed while it was analysed: ask about its text now.
        return None

    async def publish(self, uri: str) -> None:
        result = await self.analysis(uri)  # of the text the document has now
        if result is None:
            return  # closed meanwhile
        diagnostics = []
        for d in result.diagnostics:
            where = self.codec.range(d.span) if d.span is not None \
                else lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0))
            diagnostics.append(lsp.Diagnostic(range=where, message=d.message, code=d.code, source="pyx",
                                              severity=lsp.DiagnosticSeverity.Error if d.severity == "error"
                                              else lsp.DiagnosticSeverity.Warning))
        self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics))


def _too_large(text: str, path: str) -> Analysis:
    """What a document too large to check live gets: one warning, and no answers to questions."""
    source = SourceFile(path, text)
    note = Diagnostic("W0002", message("W0002", size=len(text), limit=MAX_LIVE_CHARS), source.span(0, 0),
                      "warning")
    return Analysis(source, [note])


def _path_of(uri: str) -> str:
    """The file a document URI names (`%20` and other escapes decoded, by pygls' rules), which
    its imports are found beside; the URI itself for one that names no file (`untitled:1`)."""
    return to_fs_path(uri) or uri


def create_server() -> PyxLanguageServer:
    server = PyxLanguageServer()

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    async def did_open(ls: PyxLanguageServer, params: lsp.DidOpenTextDocumentParams):
        await ls.publish(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(ls: PyxLanguageServer, params: lsp.DidChangeTextDocumentParams):
        uri = params.text_document.uri
        ls.supersede(uri)
        version = ls.versions.get(uri, 0) + 1
        ls.versions[uri] = version
        await asyncio.sleep(DEBOUNCE_SECONDS)
        if ls.versions.get(uri) == version:  # no newer edit arrived meanwhile
            await ls.publish(uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: PyxLanguageServer, params: lsp.DidCloseTextDocumentParams):
        uri = params.text_document.uri
        job = ls.jobs.pop(uri, None)
        if job is not None:
            job.cancel.set()
        ls.last_good.pop(uri, None)
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    async def hover(ls: PyxLanguageServer, params: lsp.HoverParams):
        result = await ls.analysis(params.text_document.uri)
        if result is None:
            return None
        pos = ls.codec.position(result.source.text, params.position)
        text = result.hover(pos.line + 1, pos.character + 1)
        if text is None:
            return None
        return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=f"```pyx\n{text}\n```"))

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    async def definition(ls: PyxLanguageServer, params: lsp.DefinitionParams):
        result = await ls.analysis(params.text_document.uri)
        if result is None:
            return None
        pos = ls.codec.position(result.source.text, params.position)
        span = result.definition(pos.line + 1, pos.character + 1)
        if span is None:
            return None
        uri = params.text_document.uri if span.file is result.source else Path(span.file.name).resolve().as_uri()
        return lsp.Location(uri=uri, range=ls.codec.range(span))

    @server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    async def symbols(ls: PyxLanguageServer, params: lsp.DocumentSymbolParams):
        def convert(s):
            return lsp.DocumentSymbol(name=s.name, kind=_SYMBOL_KINDS[s.kind], range=ls.codec.range(s.span),
                                      selection_range=ls.codec.range(s.name_span), detail=s.detail,
                                      children=[convert(c) for c in s.children] or None)

        result = await ls.analysis(params.text_document.uri)
        return [convert(s) for s in result.symbols()] if result is not None else []

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=["."]))
    async def completion(ls: PyxLanguageServer, params: lsp.CompletionParams):
        uri = params.text_document.uri
        result = await ls.analysis(uri)
        if result is None or len(result.source.text) > MAX_LIVE_CHARS:
            return lsp.CompletionList(is_incomplete=False, items=[])
        pos = ls.codec.position(result.source.text, params.position)
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
