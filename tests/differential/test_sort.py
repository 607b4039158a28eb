"""list.sort() and sorted() against CPython's: the same order for random lists of every length up
to 70 (so every merge width), duplicates, both directions, and stability: items that compare
equal by key keep their order, which only a struct whose `<` looks at part of it can show."""
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import prints_as_python

BODY = '''
    state = SEED
    for case in range(40):
        n = case * 7 % 71
        xs: list[int] = []
        items: list[Item] = []
        for i in range(n):
            state = (state * 1103515245 + 12345) % 2147483648
            xs.append(state % SPREAD)
            items.append(Item(state % SPREAD, i))
        descending = case % 2 == 1
        ys = sorted(xs, reverse=descending)
        xs.sort()
        items.sort(reverse=descending)
        tags: list[int] = []
        for item in items:
            tags.append(item.key * 1000 + item.tag)
        print(n, xs == sorted(ys), ys, tags)
'''

PYX = '''
@fieldwise_init
struct Item(Comparable):
    var key: Int
    var tag: Int

    fn __eq__(self, other: Item) -> Bool:
        return self.key == other.key

    fn __ne__(self, other: Item) -> Bool:
        return self.key != other.key

    fn __lt__(self, other: Item) -> Bool:
        return self.key < other.key

    fn __le__(self, other: Item) -> Bool:
        return self.key <= other.key

    fn __gt__(self, other: Item) -> Bool:
        return self.key > other.key

    fn __ge__(self, other: Item) -> Bool:
        return self.key >= other.key


def main():
    SEED = {seed}
    SPREAD = {spread}
''' + BODY

PYTHON = '''
class Item:
    def __init__(self, key, tag):
        self.key, self.tag = key, tag

    def __lt__(self, other):
        return self.key < other.key


def main():
    SEED = {seed}
    SPREAD = {spread}
''' + BODY + '''

main()
'''


@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), spread=st.sampled_from([2, 5, 1000]))
def test_sort_matches_cpython(tmp_path_factory, seed, spread):
    prints_as_python(PYX.format(seed=seed, spread=spread), PYTHON.format(seed=seed, spread=spread),
                     tmp_path_factory.mktemp("sort"))
