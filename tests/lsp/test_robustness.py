"""`pyx lsp` survives what an editor, or a broken client, can send it: a real server process,
spoken to byte by byte over its stdin and stdout.

Each wait below has a timeout only so that a hang fails the test instead of stalling the suite;
none of them measures how fast the server is.
"""
import json
import queue
import subprocess
import sys
import threading

import pytest

pytest.importorskip("pygls", reason="the language server needs pygls (pip install 'pyx-llvm[lsp]')")

HANG = 120  # seconds: far more than any of these exchanges needs


class Server:
    """A `pyx lsp` process and the messages it writes, parsed from its stdout."""

    def __init__(self, tmp_path):
        self.errors = open(tmp_path / "server.stderr", "wb")  # noqa: SIM115 - the server's, closed in close()
        self.proc = subprocess.Popen([sys.executable, "-m", "pyx", "lsp"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self.errors, cwd=tmp_path)
        self.incoming: queue.Queue = queue.Queue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()
        self.request("initialize", {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {}})
        self.notify("initialized", {})

    def _read(self):
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    self.incoming.put(None)
                    return
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
                elif line == b"\r\n" and length is not None:
                    break
            self.incoming.put(json.loads(out.read(length)))

    def send_bytes(self, data: bytes):
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, message: dict, length_error: int = 0):
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        self.send_bytes(b"Content-Length: %d\r\n\r\n" % (len(body) + length_error) + body)

    def notify(self, method, params, length_error: int = 0):
        self.send({"method": method, "params": params}, length_error)

    def request(self, method, params):
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        return self.wait(lambda m: m.get("id") == self.next_id and "method" not in m)

    def wait(self, matches, seen=None):
        """The first message that matches; the ones before it are appended to `seen`."""
        while True:
            message = self.incoming.get(timeout=HANG)
            assert message is not None, "the server closed its output: " + self.stderr()
            if matches(message):
                return message
            if seen is not None:
                seen.append(message)

    def diagnostics_for(self, uri, seen=None):
        return self.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                         and m["params"]["uri"] == uri, seen)["params"]["diagnostics"]

    def open(self, uri, text):
        self.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "pyx", "version": 1,
                                                              "text": text}})

    def symbols(self, uri):
        return self.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})["result"]

    def stderr(self) -> str:
        self.errors.flush()
        return open(self.errors.name, "rb").read().decode(errors="replace")[-2000:]

    def close(self):
        try:
            self.request("shutdown", None)
            self.notify("exit", None)
            self.proc.wait(timeout=HANG)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
            self.errors.close()


@pytest.fixture()
def server(tmp_path):
    s = Server(tmp_path)
    yield s
    s.close()


SMALL = "fn helper() -> Int:\n    return 1\n\n\nfn main():\n    print(helper())\n"


def test_an_absurd_content_length_is_refused_and_the_server_goes_on(server, tmp_path):
    # Reading 10**12 bytes would allocate a terabyte: the server must skip such a header.
    server.send_bytes(b"Content-Length: 1000000000000\r\n\r\n{\"jsonrpc\": \"2.0\"}")
    server.send_bytes(b"Content-Length: banana\r\n\r\n")
    deep = b"[" * 100_000 + b"]" * 100_000  # JSON, but nested deeper than Python's json reads
    server.send_bytes(b"Content-Length: %d\r\n\r\n" % len(deep) + deep)
    uri = (tmp_path / "a.px").as_uri()
    server.open(uri, SMALL)
    assert server.diagnostics_for(uri) == []
    assert [s["name"] for s in server.symbols(uri)] == ["helper", "main"]
    assert server.proc.poll() is None


@pytest.mark.parametrize("length_error", [-7, +9])
def test_a_wrong_content_length_does_not_knock_the_stream_out_of_step(server, tmp_path, length_error):
    """A frame whose length is off (too short: its body's tail is left over; too long: it swallows
    the start of the next message) loses that one message, never the ones after it."""
    lost, uri = (tmp_path / "lost.px").as_uri(), (tmp_path / "b.px").as_uri()
    server.notify("textDocument/didOpen", {"textDocument": {"uri": lost, "languageId": "pyx", "version": 1,
                                                            "text": SMALL}}, length_error)
    server.open(uri, SMALL.replace("return 1", "return missing"))
    diagnostics = server.diagnostics_for(uri)
    assert [d["code"] for d in diagnostics] == ["E0101"]
    for _ in range(3):  # and every message after it is read too
        assert [s["name"] for s in server.symbols(uri)] == ["helper", "main"]


def test_a_huge_document_gets_one_warning_and_blocks_nothing(server, tmp_path):
    big = (tmp_path / "big.px").as_uri()
    text = "fn main():\n" + "    var x = 1\n" * 300_000  # 4.2 MB
    server.open(big, text)
    small = (tmp_path / "small.px").as_uri()
    server.open(small, SMALL)
    seen: list = []
    assert server.diagnostics_for(small, seen) == []
    assert [s["name"] for s in server.symbols(small)] == ["helper", "main"]
    warning = [m for m in seen if m.get("method") == "textDocument/publishDiagnostics"] or \
        [{"params": {"diagnostics": server.diagnostics_for(big)}}]
    (diag,) = warning[0]["params"]["diagnostics"]
    assert diag["code"] == "W0002" and "too large for live checking" in diag["message"]
    assert diag["severity"] == 2  # a warning: the file itself may be fine
    assert server.symbols(big) == []


def test_a_newer_version_supersedes_the_analysis_in_flight(server, tmp_path):
    """The first text takes seconds to check and has an E0101 at its end; it is replaced at once.
    Its analysis is cancelled, so only the new text's diagnostics are ever published."""
    uri = (tmp_path / "c.px").as_uri()
    slow = "".join(f"fn f{i}(x: Int) -> Int:\n    var y = x * {i}\n    return y + {i}\n\n" for i in range(12000))
    slow += "fn main():\n    print(undefined_name)\n"
    server.open(uri, slow)
    change = {"text": "fn main():\n    var x = 1\n    var x = 2\n"}
    server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [change]})
    seen: list = []
    codes = [d["code"] for d in server.diagnostics_for(uri, seen)]
    while codes != ["E0102"]:
        assert "E0101" not in codes, "the analysis of the replaced text was published"
        codes = [d["code"] for d in server.diagnostics_for(uri, seen)]
    assert server.symbols(uri)[0]["name"] == "main"


def test_a_checker_crash_reaches_the_editor_as_a_registered_diagnostic(monkeypatch):
    """The editor shows an internal error as E0905 (registered and documented; it was an
    unregistered `E9999`) instead of the server failing."""
    import pyx.monomorphize
    from pyx.analysis import analyze

    def broken_checker(module, diags):
        raise ValueError("boom")

    monkeypatch.setattr(pyx.monomorphize, "instantiate_program", broken_checker)
    (shown,) = analyze("fn main():\n    pass\n").diagnostics
    assert shown.code == "E0905"
    assert shown.message.startswith("internal compiler error while checking: ValueError: boom")
