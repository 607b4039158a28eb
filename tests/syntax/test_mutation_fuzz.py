"""Broken programs get diagnostics, never a crash: random edits of every golden and example
program must compile or fail with CompileError; an internal compiler error is a bug."""
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import ROOT
from pyx import pipeline
from pyx.diagnostics import CompileError
from pyx.options import CompileOptions
from pyx.source import SourceFile

SOURCES = sorted((ROOT / "tests" / "golden").glob("*.px")) + sorted((ROOT / "examples").glob("*.px"))
TOKEN = re.compile(r"\w+|\S")
INSERTS = ["(", ")", ":", "[", "]", ",", "=", "+", "**", "//", "var", "fn", "return", "0", "1.5", "'s'", "x",
           "self", "SIMD", "Ptr", "comptime", "raise", "try", "not", "and", "if", "\n", "    ", "\t", "...", "@"]


SWAPS = ["Int", "Int8", "UInt32", "Float32", "Float64", "Bool", "SIMD[DType.float32, 4]", "Ptr[Int]", "0", "-1",
         "2.5", "True", "None", "'text'", "2 ** 70", "1 // 0", "x.y", "f(1)", "(1, 2)", "math.inf"]


def mutate(text: str, rng: random.Random) -> str:
    lines = text.splitlines()
    every = TOKEN.findall(text)
    for _ in range(rng.randint(1, 4)):
        kind = rng.randrange(7)
        if kind >= 5 and lines:
            # Keep the shape, change the meaning: a token becomes another one of this file, or a
            # type/literal becomes another, so the edit usually parses and reaches the checker.
            i = rng.randrange(len(lines))
            tokens = TOKEN.findall(lines[i])
            if tokens:
                k = rng.randrange(len(tokens))
                tokens[k] = rng.choice(every) if kind == 5 else rng.choice(SWAPS)
                indent = lines[i][: len(lines[i]) - len(lines[i].lstrip())]
                lines[i] = indent + " ".join(tokens)
            continue
        i = rng.randrange(len(lines)) if lines else 0
        if not lines:
            break
        if kind == 0:
            del lines[i]
        elif kind == 1:
            lines.insert(i, lines[rng.randrange(len(lines))])
        elif kind == 2:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        else:
            tokens = TOKEN.findall(lines[i])
            if not tokens:
                continue
            k = rng.randrange(len(tokens))
            if kind == 3:
                del tokens[k]
            else:
                tokens.insert(k, rng.choice(INSERTS))
            indent = lines[i][: len(lines[i]) - len(lines[i].lstrip())]
            lines[i] = indent + " ".join(tokens)
    return "\n".join(lines) + "\n"


def compile_survives(text: str, name: str) -> None:
    source = SourceFile(name, text)
    try:
        # Through LLVM's own verifier too (at -O0, to stay quick): codegen must not crash either.
        pipeline.optimize(source, CompileOptions(verify_ir=True, opt_level=0), entry=True)
    except CompileError as exc:
        assert exc.diagnostics, "a CompileError must carry diagnostics"
        for d in exc.diagnostics:
            assert d.code and d.message


@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(SOURCES), st.integers(0, 2**32))
def test_mutated_programs_get_diagnostics_not_crashes(path: Path, seed: int):
    text = mutate(path.read_text(), random.Random(seed))
    compile_survives(text, str(path))


@pytest.mark.slow
@settings(max_examples=3000, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(SOURCES), st.integers(0, 2**32))
def test_mutated_programs_long_run(path: Path, seed: int):
    compile_survives(mutate(path.read_text(), random.Random(seed)), str(path))
