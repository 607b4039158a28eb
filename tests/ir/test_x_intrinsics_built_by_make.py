"""Every IR operation the compiler writes by name is built through `ops.make`, which checks the name
against ops.py's table and the attributes against its entry (issue 15 item 2): an operation built as
a bare `ir.Intrinsic(..., "name", ...)` skips that check and fails only later, in the verifier or in
codegen. (Copying an existing operation, `ir.Intrinsic(s, r, i.name, ...)`, names nothing new.)"""
import ast
from pathlib import Path

LANG = Path(__file__).resolve().parents[2] / "lang"


def _intrinsics_named_by_a_literal(tree: ast.AST) -> list[int]:
    lines = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        callee = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
        name = node.args[2] if len(node.args) > 2 else next((k.value for k in node.keywords if k.arg == "name"), None)
        if callee == "Intrinsic" and isinstance(name, (ast.Constant, ast.JoinedStr)):
            lines.append(node.lineno)
    return lines


def test_operations_named_in_the_compiler_are_built_by_ops_make():
    found = []
    for path in sorted(LANG.rglob("*.py")):
        if path.name == "ops.py" and path.parent.name == "ir":
            continue  # ops.make itself
        lines = _intrinsics_named_by_a_literal(ast.parse(path.read_text()))
        found += [f"{path.relative_to(LANG)}:{line}" for line in lines]
    assert found == []


def test_the_scan_sees_a_bare_intrinsic():
    tree = ast.parse('x = ir.Intrinsic(span, None, "recursion_leave", [guard])\n'
                     'y = ir.Intrinsic(s, r, i.name, args, i.attrs)\n'
                     'z = ops.make(span, None, "recursion_leave", [guard])\n')
    assert _intrinsics_named_by_a_literal(tree) == [1]
