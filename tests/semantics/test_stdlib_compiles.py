"""Programs compile only what they use of the standard library, so this checks the rest: every
concrete (non-generic) function and method of every stdlib module, as if each were used. The
generic ones (List[T], Optional[T], ...) are checked where the golden programs instantiate them."""
from pathlib import Path

import pytest

from pyx import syntax
from pyx.diagnostics import DiagnosticBag
from pyx.monomorphize.instantiate import Instantiator
from pyx.semantics.imports import STDLIB, ModuleLoader
from pyx.source import SourceFile

MODULES = sorted(p.stem for p in Path(STDLIB).glob("*.px"))


def test_there_is_a_stdlib_to_check():
    assert {"collections", "string", "buffer", "optional", "python"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_every_concrete_stdlib_function_checks(name, tmp_path):
    main = tmp_path / "uses_stdlib.px"
    main.write_text(f"import {name}\n\n\nfn main():\n    pass\n")
    diags = DiagnosticBag()
    module = syntax.parse(SourceFile(str(main), main.read_text()), diags)
    loader = ModuleLoader(diags)
    instantiator = Instantiator(loader.collect_program(module), diags, loader)
    instantiator.whole_stdlib = True
    instantiator.run()
    assert not diags.items, [f"{d.span.line if d.span else 0}: {d.message}" for d in diags.items]
