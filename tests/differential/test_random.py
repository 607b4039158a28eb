"""`import random` draws CPython's numbers: a program sweeping seeds (small, negative, beyond 32 and
64... bits of key), ranges at the edges of each bit length (where the rejection loop differs), and
every function, printed under pyx and under CPython."""
import subprocess
import sys
import textwrap

from helpers import run_pyx

PROGRAM = textwrap.dedent("""
    import random


    def main():
        seeds = [0, 1, 2, 3, 41, 42, 99, -1, -42, 2**31 - 1, 2**31, 2**32 - 1, 2**32, 2**32 + 1,
                 2**40 + 12345, 2**62 + 7, 9223372036854775807]
        bounds = [1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 255, 256, 257, 1000, 65535, 65536,
                  2**31 - 1, 2**31, 2**32 - 1, 2**32, 2**32 + 1, 2**40, 2**53, 2**61]
        for s in seeds:
            random.seed(s)
            first = random.random()
            line = [0]
            for b in bounds:
                line.append(random.randrange(0, b))
                line.append(random.randint(-b, b))
            for k in [1, 7, 31, 32, 33, 48, 63]:
                line.append(random.getrandbits(k))
            xs = list(range(37))
            random.shuffle(xs)
            line.append(random.choice(xs))
            print(s, first, line, xs[:8])
            print(random.gauss(0.0, 1.0), random.gauss(5.0, 0.5), random.uniform(3.0, -3.0))
        random.seed(7)
        total = 0.0
        for _ in range(100000):
            total += random.random()
        print(total, random.randrange(100, 0, -3))


    if __name__ == "__main__":
        main()
    """)


def test_random_draws_what_cpython_draws(tmp_path):
    source = tmp_path / "draws.px"
    source.write_text(PROGRAM)
    python = subprocess.run([sys.executable, str(source)], capture_output=True, text=True)
    assert python.returncode == 0, python.stderr
    result = run_pyx(source)
    assert result.status == 0, result.stderr
    assert result.stdout == python.stdout
