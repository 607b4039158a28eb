"""The lowering's shape (docs/compiler.md, "The lowering's collaborators"): `FunctionLowering` owns
the blocks, values and scopes of one function; the ownership lowering is a collaborator it holds
in a typed field (`own`), which reaches back through its own (`lw`), not a mixin sharing state
that only one `__init__` declares.

These read the source, as a linter would: what they guard is how the code is put together,
which no program's output shows."""
import ast
from pathlib import Path

import pyx.ir
from source_shape import classes_named, modules

IR = Path(pyx.ir.__file__).parent


def _modules():
    return modules(IR)


def _lowering_classes():
    return classes_named(IR, "Lowering")


def _methods(cls: ast.ClassDef) -> list[ast.FunctionDef]:
    return [m for m in cls.body if isinstance(m, ast.FunctionDef)]


def _self_attributes(fn: ast.FunctionDef, kinds: tuple[type, ...]):
    """(node, name) of each `self.name` in `fn` used as `kinds` says: ast.Store, ast.Load."""
    for sub in ast.walk(fn):
        if isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name) and sub.value.id == "self" \
                and isinstance(sub.ctx, kinds):
            yield sub, sub.attr


def _declared(init: ast.FunctionDef) -> dict[str, bool]:
    """The attributes `__init__` declares, each with whether its declaration has a type."""
    declared: dict[str, bool] = {}
    for sub in ast.walk(init):
        if isinstance(sub, ast.AnnAssign) and isinstance(sub.target, ast.Attribute):
            declared[sub.target.attr] = True
    for _, name in _self_attributes(init, (ast.Store,)):
        declared.setdefault(name, False)
    return declared


def test_the_lowerings_are_classes_of_their_own():
    names = {node.name for _, node in _lowering_classes()}
    assert {"FunctionLowering", "OwnershipLowering"} <= names
    for path, node in _lowering_classes():
        assert node.bases == [], f"{path.name}: {node.name} inherits ({ast.unparse(node.bases[0])}): delegate instead"


def test_the_collaborators_hold_each_other_in_typed_fields():
    classes = {node.name: node for _, node in _lowering_classes()}

    def field_type(cls: str, field: str) -> str:
        init = next(m for m in _methods(classes[cls]) if m.name == "__init__")
        typed = (ast.unparse(s.annotation) for s in ast.walk(init)
                 if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Attribute) and s.target.attr == field)
        return next(typed, "(no typed field)")

    assert field_type("FunctionLowering", "own") == "OwnershipLowering"
    assert field_type("OwnershipLowering", "lw") == "FunctionLowering"


def test_every_lowering_attribute_is_declared_with_a_type_in_its_init():
    for path, node in _lowering_classes():
        methods = _methods(node)
        init = next((m for m in methods if m.name == "__init__"), None)
        assert init is not None, f"{path.name}: {node.name} has no __init__"
        declared = _declared(init)
        untyped = sorted(name for name, typed in declared.items() if not typed)
        assert not untyped, f"{path.name}: {node.name}.__init__ declares {untyped} without a type"
        for m in methods:
            late = {name for _, name in _self_attributes(m, (ast.Store,))} - set(declared)
            assert not late, f"{path.name}: {node.name}.{m.name} assigns {sorted(late)}, not declared in __init__"


def test_a_lowering_reads_only_what_it_declares():
    """A mixin reads state another class's `__init__` declares: `self.block` in a class that owns no
    block. Here each `self.name` is the class's own method or field; the rest goes through a field."""
    for path, node in _lowering_classes():
        methods = _methods(node)
        init = next(m for m in methods if m.name == "__init__")
        own = set(_declared(init)) | {m.name for m in methods}
        for m in methods:
            for sub, name in _self_attributes(m, (ast.Load,)):
                assert name in own, f"{path.name}:{sub.lineno}: {node.name}.{m.name} reads self.{name}, " \
                    f"which {node.name} does not declare"


def test_no_private_name_crosses_a_module():
    for path, tree in _modules():
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level > 0:
                private = [a.name for a in node.names if a.name.startswith("_")]
                assert not private, f"{path.name}:{node.lineno} imports {private} from .{node.module or ''}"
