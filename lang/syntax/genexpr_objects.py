"""A generator expression kept in a variable and stepped by `next` before it is walked again
(`gen = (x * x for x in range(5))`, then `next(gen), next(gen), list(gen)`): Python's generator
is one object that each use takes items from, so the second walk sees only what is left. pyx
makes generator *functions* such objects (syntax/generator_objects.py), so the expression becomes
one: a module-level generator function with its loop, called where the expression was,

    def __pyx_genexpr_L_C(n0: int):      # range's arguments, evaluated at the call as Python does
        for x in range(n0):
            if cond: yield elt

which generator_objects.py then writes as a class because of the uses. Done only where every
type shows without checking (the first iterable `range(...)` or a display of literals, the rest
reading only the loop's names, literals and names the enclosing function does not bind), so the
object's fields have types; anything else stays the checker's generator expression (E0274 when
used again)."""
from __future__ import annotations

from . import ast

PREFIX = "__pyx_genexpr_"
_LITERALS = (ast.IntLit, ast.FloatLit, ast.StrLit, ast.BoolLit, ast.NoneLit)


def _literal(e: ast.Expr) -> bool:
    if isinstance(e, ast.Unary) and e.op == "-":
        return isinstance(e.operand, (ast.IntLit, ast.FloatLit))
    return isinstance(e, _LITERALS)


def _walk(node):
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(ast.children(n))


def _bound_names(fn: ast.FnDef) -> set[str]:
    """Every name fn binds: parameters and assignment, loop and `with` targets (nested functions too)."""
    out = {p.name for p in fn.params}
    for n in _walk(fn):
        targets: tuple = ()
        if isinstance(n, ast.Assign):
            targets = n.targets
        elif isinstance(n, (ast.AugAssign, ast.For, ast.CompFor)):
            targets = (n.target,)
        elif isinstance(n, ast.FnDef) and n is not fn:
            out.add(n.name)
            out.update(p.name for p in n.params)
        for t in targets:
            out.update(x.id for x in _walk(t) if isinstance(x, ast.Name))
        if isinstance(n, ast.VarDecl):
            out.add(n.name)
    return out


def _iterable(it: ast.Expr, bound: set[str]) -> tuple[ast.Expr, tuple[ast.Param, ...], tuple[ast.Expr, ...]] | None:
    """The first iterable as the function's loop reads it, its parameters and the call's arguments."""
    if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range" and "range" not in bound \
            and 1 <= len(it.args) <= 3 and not it.keywords:
        params, args, loop_args = [], [], []
        for k, a in enumerate(it.args):
            if _literal(a):
                loop_args.append(a)
            elif isinstance(a, ast.Name):
                name = f"n{k}"
                params.append(ast.Param(a.span, name, ast.Name(a.span, "int"), None, None))
                args.append(a)
                loop_args.append(ast.Name(a.span, name))
            else:
                return None
        return ast.Call(it.span, it.func, tuple(loop_args), ()), tuple(params), tuple(args)
    if isinstance(it, ast.StrLit):
        return it, (), ()
    if isinstance(it, (ast.ListExpr, ast.TupleExpr)) and it.elts and all(_literal(x) for x in it.elts) \
            and len({type(x.operand if isinstance(x, ast.Unary) else x) for x in it.elts}) == 1:
        return it, (), ()
    return None


def _function(e: ast.Comprehension, fn: ast.FnDef, bound: set[str]) -> tuple[ast.FnDef, ast.Call] | None:
    first = e.clauses[0]
    if not isinstance(first, ast.CompFor) or not all(isinstance(c, ast.CompIf) for c in e.clauses[1:]):
        return None
    if not all(isinstance(x, ast.Name) for x in _walk(first.target) if not isinstance(x, ast.TupleExpr)):
        return None
    loop_names = {x.id for x in _walk(first.target) if isinstance(x, ast.Name)}
    made = _iterable(first.iter, bound)
    if made is None:
        return None
    loop_iter, params, args = made
    for part in (e.elt, *(c.test for c in e.clauses[1:] if isinstance(c, ast.CompIf))):
        for n in _walk(part):
            if isinstance(n, (ast.Lambda, ast.Comprehension, ast.Yield)):
                return None
            if isinstance(n, ast.Name) and n.id not in loop_names and n.id in bound:
                return None  # a variable of the enclosing function (Python reads it when the generator runs)
    sp = e.span
    body: ast.Stmt = ast.Yield(e.elt.span, e.elt)
    for c in reversed(e.clauses[1:]):
        assert isinstance(c, ast.CompIf)
        body = ast.If(c.span, c.test, (body,), ())
    loop = ast.For(first.span, first.target, loop_iter, (body,))
    line, col = sp.file.line_col(sp.start)
    name = f"{PREFIX}{fn.name}_{line}_{col}"
    decl = ast.FnDef(sp, "def", name, sp, (), params, False, None, (loop,))
    return decl, ast.Call(sp, ast.Name(sp, name), args, ())


def _stepped(fn: ast.FnDef) -> set[str]:
    """The variables fn passes to `next` and reads more than once."""
    nexts: set[str] = set()
    reads: dict[str, int] = {}
    for n in _walk(fn):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "next" and n.args \
                and isinstance(n.args[0], ast.Name):
            nexts.add(n.args[0].id)
        if isinstance(n, ast.Name):
            reads[n.id] = reads.get(n.id, 0) + 1
    return {x for x in nexts if reads.get(x, 0) >= 3}  # (its assignment, and two uses)


def expand_genexpr_objects(items: tuple) -> tuple:
    """The module's items with each such generator expression written as a generator function."""
    made: list[ast.FnDef] = []
    out = []
    for item in items:
        if isinstance(item, ast.FnDef) and not ast.yields(item.body):
            item = _rewrite(item, made)
        out.append(item)
    return tuple(out) + tuple(made)


def _rewrite(fn: ast.FnDef, made: list[ast.FnDef]) -> ast.FnDef:
    stepped = _stepped(fn)
    if not stepped:
        return fn
    bound = _bound_names(fn)
    assigned: dict[str, int] = {}
    for n in _walk(fn):
        if isinstance(n, ast.Assign):
            for t in n.targets:
                for x in _walk(t):
                    if isinstance(x, ast.Name):
                        assigned[x.id] = assigned.get(x.id, 0) + 1

    def fix(node: ast.Node) -> ast.Node | None:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and node.targets[0].id in stepped and assigned.get(node.targets[0].id) == 1 \
                and isinstance(node.value, ast.Comprehension) and node.value.kind == "generator":
            found = _function(node.value, fn, bound)
            if found is None:
                return None
            made.append(found[0])
            return ast.Assign(node.span, node.targets, found[1])
        return None

    return ast.transform(fn, fix)
