"""A generator object abandoned half-way frees its frame, and what its locals own, exactly once
(syntax/generator_objects.py: the frame is a reference-counted object): a million of them, each
holding a growing list of strings, must not grow the process (peak resident memory, a generous
bound, never a time). A leak of the frames would grow it by well over 100 MiB."""
import textwrap

from helpers import memory_growth_mib

GENERATORS = textwrap.dedent('''
    def rows(n: int, tag: str):
        buf = [tag] * 8
        for i in range(n):
            buf.append(tag + str(i))
            yield len(buf)


    def churn(n: int) -> int:
        total = 0
        for i in range(n):
            g = rows(100, "row")
            total += next(g)
            total += next(g)  # then abandoned: the object, its list and strings go here
        return total


    def nested(n: int) -> int:
        total = 0
        for i in range(n):
            outer = chain(i)
            total += next(outer) + next(outer)  # abandoned inside its sub-generator
        return total


    def chain(i: int):
        yield from rows(3, "a")
        yield from rows(3, "b")
''')

MEASURE = textwrap.dedent('''
    import resource, sys
    import pyx
    m = pyx.import_module("gens", path=[sys.argv[1]], target="cpu")
    assert m.churn(1000) == 1000 * (9 + 10)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    assert m.churn(1_000_000) == 1_000_000 * 19
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print((after - before) // 1024)
    assert m.nested(1000) == 1000 * 19
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    assert m.nested(1_000_000) == 1_000_000 * 19
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print((after - before) // 1024)
''')


def test_a_million_abandoned_generators_keep_memory_flat(tmp_path):
    abandoned, nested = memory_growth_mib(tmp_path, "gens", GENERATORS, MEASURE)
    assert abandoned < 32
    assert nested < 32
