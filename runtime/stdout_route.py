"""pyx's `print` in order with Python's output where `sys.stdout` is not file descriptor 1.

Compiled code prints with C stdio on descriptor 1. Where Python's `sys.stdout` is something else
(a notebook's stream, `contextlib.redirect_stdout`, pytest's capsys), that output went straight
to the process's descriptor and showed up apart from, and after, what Python printed. For the
duration of a call from Python, descriptor 1 is pointed at an anonymous file; after the call
its bytes are written to `sys.stdout`, in their place among Python's output.
"""
from __future__ import annotations

import io
import os
import sys
import threading

_lock = threading.RLock()  # descriptor 1 is the process's: one routed call at a time
_active = threading.local()


def _is_fd1(stream) -> bool:
    try:
        return stream.fileno() == 1
    except (AttributeError, ValueError, OSError, io.UnsupportedOperation):
        return False


def begin():
    """Start routing if sys.stdout is not descriptor 1; a token for end(), or None."""
    stream = sys.stdout
    if stream is None or _is_fd1(stream) or getattr(_active, "depth", 0):
        return None  # nested calls print into the capture their caller started
    _lock.acquire()
    try:
        capture = os.memfd_create("pyx-stdout", os.MFD_CLOEXEC) if hasattr(os, "memfd_create") else None
        if capture is None:
            import tempfile

            with tempfile.TemporaryFile() as handle:  # unlinked already: the duplicate keeps it
                capture = os.dup(handle.fileno())
        saved = os.dup(1)
        os.dup2(capture, 1)
    except OSError:
        _lock.release()
        return None
    _active.depth = 1
    return saved, capture, stream


def end(token) -> None:
    """Stop routing (C stdio already flushed) and write what was printed to the stream."""
    saved, capture, stream = token
    try:
        os.dup2(saved, 1)
        os.close(saved)
        os.lseek(capture, 0, os.SEEK_SET)
        chunks = []
        while True:
            chunk = os.read(capture, 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
        os.close(capture)
    finally:
        _active.depth = 0
        _lock.release()
    if chunks:
        stream.write(b"".join(chunks).decode("utf-8", "surrogateescape"))
