"""A recursive `def`'s pending calls (semantics/recursive_returns.py) belong to the compile that
made them (issue 15, item 5: no process-wide compile state). Each compile's stages run on a thread
of their own (deep.run_deep), and `pyx lsp` analyses two documents at once on two threads: while
one has a call pending, the other's calls of a `def` whose type is unknown are its own business
(E0221 there), and its `return`s of unknown values fix types as usual."""
import threading
from types import SimpleNamespace

from pyx import types as T
from pyx.semantics.recursive_returns import finished, pending, unknown


def _def_being_checked(in_progress: bool) -> SimpleNamespace:
    """What the functions read of a `def` instance without `-> T`."""
    decl = SimpleNamespace(kind="def", returns=None, self_convention=None)
    return SimpleNamespace(decl=decl, in_progress=in_progress, recursive_calls=[])


def _on_another_thread(fn):
    box = {}
    worker = threading.Thread(target=lambda: box.update(result=fn()))
    worker.start()
    worker.join()
    return box["result"]


def test_a_pending_call_is_seen_only_by_the_compile_that_made_it():
    waiting = _def_being_checked(in_progress=True)
    assert pending(waiting, span=None)  # `fact(n - 1)` inside `fact`, before a `return` typed it
    try:
        assert unknown(T.ERROR)  # here: a `return` of that value fixes nothing
        other = _def_being_checked(in_progress=False)
        # another compile, meanwhile: its own call of a `def` whose type is unknown is not pending
        # (it reports E0221), and its `return` of an error value is an ordinary one
        assert _on_another_thread(lambda: (pending(other, span=None), unknown(T.ERROR))) == (False, False)
    finally:
        finished(waiting)
    assert not unknown(T.ERROR)
