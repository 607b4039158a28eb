"""`a.link = a`: an attribute assigned a reference to its own object. The assignment lends the
object's data to a slot and stores it back (semantics/classes.py, `lend`); the copy of `a` adds
one to the count in memory meanwhile, and storing the lent bits back wrote the old count over it
(ir/lower.py, `expr_TLend`): the object was freed while still referenced, and glibc aborted with
"double free" or "unaligned tcache chunk" (found by tests/differential/test_classes.py). Run with
glibc's MALLOC_PERTURB_, which fills freed memory, so a use after free shows every time."""
import os
import subprocess
import sys

PROGRAM = '''
class Box:
    def __init__(self, n: int):
        self.n = n
        self.items: list[int] = []
        self.link: "Box | None" = None

    def __repr__(self) -> str:
        return f"Box({self.n}, {self.items}, {self.link is None})"


def main():
    b1 = Box(1)
    b1.link = b1
    b1.link = None
    b1.items.append(3)
    print(b1)
    b0 = Box(0)
    b0.link = b0
    b2 = b0
    b0 = Box(5)
    print(b0, b2, b2.link)


if __name__ == "__main__":
    main()
'''


def test_an_attribute_referring_to_its_own_object_keeps_the_count(tmp_path):
    path = tmp_path / "prog.py"
    path.write_text(PROGRAM)
    python = subprocess.run([sys.executable, str(path)], capture_output=True, text=True)
    env = {**os.environ, "MALLOC_PERTURB_": "170", "PYX_CACHE_DIR": str(tmp_path / "cache")}
    pyx = subprocess.run([sys.executable, "-m", "pyx", "run", str(path)], capture_output=True, text=True, env=env)
    assert pyx.returncode == 0, pyx.stderr
    assert pyx.stdout == python.stdout
