"""Destructors keep memory flat: a loop that builds and drops a million-element buffer (or
List) a thousand times must not grow the process (measured as peak resident memory, with a generous
bound, never a time)."""
import textwrap

from helpers import memory_growth_mib

CHURN = textwrap.dedent('''
    struct Buffer:
        var data: Ptr[Int]
        var size: Int

        fn __init__(out self, size: Int):
            self.data = Ptr[Int].alloc(size)
            self.size = size
            for i in range(0, size, 512):  # touch every page, so the memory is really used
                self.data[i] = i

        fn __del__(var self):
            self.data.free()

        fn first(self) -> Int:
            return self.data[self.size - self.size % 512 - 512 if self.size > 512 else 0]


    fn churn(rounds: Int, size: Int) -> Int:
        var total = 0
        for r in range(rounds):
            var b = Buffer(size)          # the previous round's buffer is destroyed here
            total += b.first()
            total += Buffer(size).first()  # and this temporary after its statement
        return total


    fn lists(rounds: Int, size: Int) -> Int:
        var total = 0
        for r in range(rounds):
            var xs = List[Int]()
            for i in range(size):
                xs.append(i)
            total += xs[size - 1] + len(xs)
        return total


    fn dicts(rounds: Int, size: Int) raises -> Int:
        var total = 0
        for r in range(rounds):
            var d = Dict[Int, List[Int]]()
            for i in range(size):
                d[i] = List[Int].filled(8, i)
            for i in range(0, size, 2):
                total += d.pop(i)[7]
            total += len(d)
        return total
''')

MEASURE = textwrap.dedent('''
    import resource, sys
    import pyx
    m = pyx.import_module("churn", path=[sys.argv[1]], target="cpu")
    m.churn(2, 1_000_000)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    m.churn(1000, 1_000_000)
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print((after - before) // 1024)
    m.lists(2, 1_000_000)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    assert m.lists(1000, 1_000_000) == 1000 * (999_999 + 1_000_000)
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print((after - before) // 1024)
    m.dicts(2, 100_000)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    m.dicts(100, 100_000)
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print((after - before) // 1024)
''')


def test_a_thousand_million_element_buffers_keep_memory_flat(tmp_path):
    buffers, lists, dicts = memory_growth_mib(tmp_path, "churn", CHURN, MEASURE)
    # 2000 buffers of 8 MB each: a leak would be 16 GB; two live at once are 16 MB.
    assert buffers < 100, f"peak resident memory grew by {buffers} MiB over 2000 buffers"
    # A thousand lists of a million Ints (8 MB each, grown by doubling): only one is alive at a time.
    assert lists < 100, f"peak resident memory grew by {lists} MiB over 1000 lists"
    # A hundred dicts of 100k Lists (about 20 MB each, half popped, half dropped with the dict).
    assert dicts < 100, f"peak resident memory grew by {dicts} MiB over 100 dicts"


MESSAGES = textwrap.dedent('''
    fn check(x: Int, pad: String) raises -> Int:
        if x >= 0:
            raise ValueError(pad + str(x))
        return x


    fn caught(rounds: Int) raises -> Int:
        """Messages made at run time and caught: each try frees its own, however it is left."""
        var pad = String("x") * 1000
        var total = 0
        for i in range(rounds):
            try:  # completes normally
                _ = check(i, pad)
            except ValueError as e:
                total += 1
            try:  # left by continue
                _ = check(i, pad)
            except ValueError:
                continue
        for i in range(rounds):
            total += first(i, pad)  # left by return
        return total


    fn first(i: Int, pad: String) raises -> Int:
        try:
            _ = check(i, pad)
        except ValueError:
            return 1
        return 0


    fn fail(i: Int) raises:
        raise ValueError(String("y") * 1000 + str(i))
''')

MEASURE_MESSAGES = textwrap.dedent('''
    import resource, sys
    import pyx
    m = pyx.import_module("messages", path=[sys.argv[1]], target="cpu")
    m.caught(1000)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    assert m.caught(100_000) == 200_000
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print((after - before) // 1024)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    for i in range(100_000):
        try:
            m.fail(i)
        except ValueError as exc:
            assert str(exc).endswith(str(i))
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print((after - before) // 1024)
''')


def test_messages_made_at_run_time_are_freed(tmp_path):
    in_pyx, to_python = memory_growth_mib(tmp_path, "messages", MESSAGES, MEASURE_MESSAGES)
    # 300k messages of 1 kB caught in pyx (300 MB if kept), 100k raised to Python (100 MB).
    assert in_pyx < 30, f"peak resident memory grew by {in_pyx} MiB over 300k caught messages"
    assert to_python < 30, f"peak resident memory grew by {to_python} MiB over 100k messages raised to Python"
