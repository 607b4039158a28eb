"""The object of an exception class with data (its `__init__`'s attributes) is freed once its
exception is done with: a million raised and caught in a loop, and a hundred thousand raised out
to Python, must not grow the process (peak resident memory, with a generous bound, never a time).
Kept, each would grow it by well over 100 MiB (pyx-base: the objects were never freed)."""
import textwrap

from helpers import memory_growth_mib

SOURCE = textwrap.dedent('''
    class Failed(Exception):
        def __init__(self, code: int):
            super().__init__("failed")
            self.code = code
            self.values = [code] * 40


    def churn(n: int) -> int:
        total = 0
        for i in range(n):
            try:
                raise Failed(i)
            except Failed as e:
                total += e.code + len(e.values)
        return total


    def fail(code: int) -> int:
        raise Failed(code)
''')

MEASURE = textwrap.dedent('''
    import resource, sys
    import pyx
    m = pyx.import_module("failing", path=[sys.argv[1]], target="cpu")
    assert m.churn(1000) == sum(range(1000)) + 40 * 1000
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    assert m.churn(1_000_000) == sum(range(1_000_000)) + 40 * 1_000_000
    print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) // 1024)
    def calls(n):
        for i in range(n):
            try:
                m.fail(i)
            except RuntimeError:
                pass
    calls(1000)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    calls(300_000)
    print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) // 1024)
''')


def test_raised_objects_are_freed(tmp_path):
    caught, from_python = memory_growth_mib(tmp_path, "failing", SOURCE, MEASURE)
    assert caught < 32
    assert from_python < 32
