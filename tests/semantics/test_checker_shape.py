"""The checker's shape (docs/compiler.md, "The checker's collaborators"): classes that delegate to
each other through typed fields, not mixins sharing state only one `__init__` declares.

These read the source, as a linter would: what they guard is how the code is put together,
which no program's output shows."""
import ast
from pathlib import Path

import pyx.runtime
import pyx.semantics
from source_shape import classes_named, modules

SEMANTICS = Path(pyx.semantics.__file__).parent


def _modules():
    return modules(SEMANTICS)


def _checker_classes():
    return classes_named(SEMANTICS, "Checker")


def test_the_checkers_are_classes_of_their_own():
    names = {node.name for _, node in _checker_classes()}
    assert {"FunctionChecker", "ExpressionChecker", "CallChecker", "StructChecker"} <= names
    for path, node in _checker_classes():
        assert node.bases == [], f"{path.name}: {node.name} inherits ({ast.unparse(node.bases[0])}): delegate instead"


def test_every_checker_attribute_is_declared_in_its_init():
    for path, node in _checker_classes():
        methods = [m for m in node.body if isinstance(m, ast.FunctionDef)]
        init = next((m for m in methods if m.name == "__init__"), None)
        assert init is not None, f"{path.name}: {node.name} has no __init__"

        def assigned(fn):
            for sub in ast.walk(fn):
                targets = sub.targets if isinstance(sub, ast.Assign) else \
                    [sub.target] if isinstance(sub, (ast.AnnAssign, ast.AugAssign)) else []
                for t in targets:
                    if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self":
                        yield t.attr

        declared = set(assigned(init))
        for m in methods:
            late = set(assigned(m)) - declared
            assert not late, f"{path.name}: {node.name}.{m.name} assigns {sorted(late)}, not declared in __init__"


def test_no_private_name_crosses_a_module():
    """A module's `_name` is its own, in every package of the compiler (not only the checker's): a
    module that needs it from another asks for a public name (issue 15, item 1)."""
    # The runtime is a package of its own in a checkout (runtime/) and pyx/runtime once installed:
    # walk both roots so the check reads the same files wherever it runs.
    roots = {SEMANTICS.parent, Path(pyx.runtime.__file__).parent}
    paths = sorted({path for root in roots for path in root.rglob("*.py")})
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level > 0:
                private = [a.name for a in node.names if a.name.startswith("_") and not a.name.startswith("__")]
                assert not private, f"{path}:{node.lineno} imports {private} from " \
                                    f"{'.' * node.level}{node.module or ''}"
