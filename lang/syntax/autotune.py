"""`@autotune(NAME=[v0, v1, ...], ...)`: compile-time parameters chosen from measured timings.

```
@autotune(NR=[64, 32, 16], KC=[128, 64, 256])
fn matmul_f32[NR: Int, KC: Int](a: Ptr[Float32], b: Ptr[Float32], c: Ptr[Float32], m: Int, n: Int, k: Int):
    matmul[DType.float32, NR, KC](a, b, c, m, n, k)
```

A call that leaves the tuned parameters out (`matmul_f32(a, b, c, m, n, k)`) runs the instance
chosen for this machine and these sizes; `matmul_f32[32, 64](...)` still names one instance. Every
candidate (the product of the lists, the first value of each list first: candidate 0 is the
hand-picked default) is compiled, and the call goes through a written-out dispatcher,
`__pyx_autotune_<name>`, which asks the loader what to run (`__pyx_autotune_step`,
codegen/autotune_hook.py; runtime/autotune.py decides) and runs it:

```
fn __pyx_autotune_matmul_f32(a: Ptr[Float32], ..., m: Int, n: Int, k: Int):
    var __pyx_bucket = __pyx_autotune_bits(m) + __pyx_autotune_bits(n) * 64 + __pyx_autotune_bits(k) * 4096
    var __pyx_next = external_call["__pyx_autotune_step", Int]("<descriptor>", __pyx_bucket, -1)
    while __pyx_next >= 0:          # a candidate to time, on these arguments
        <run candidate __pyx_next>
        __pyx_next = external_call["__pyx_autotune_step", Int]("<descriptor>", __pyx_bucket, __pyx_next)
    <run candidate -1 - __pyx_next>  # the chosen one: the call's own run
```

The size bucket is the bit length of each `Int` argument (sizes within a power of two share a
choice). The descriptor names the function, its tuned parameters, the candidates and the `Int`
arguments, so the loader can key its cache and print the table (`pyx tune`).

Refused (E0193), because tuning calls the function several times on the same arguments and keeps
what the last run wrote: a function that returns a value, takes `mut`/`var`/`out` arguments or
`*args`, a parameter without a type, a compile-time parameter without candidates, or a `@kernel`
(a kernel is launched, not called: tune the host function that launches it).
"""
from __future__ import annotations

import itertools
from dataclasses import replace

from ..diagnostics import DiagnosticBag
from ..source import SourceFile
from . import ast

DECORATOR = "autotune"
PREFIX = "__pyx_autotune_"
BITS = "__pyx_autotune_bits"
STEP = "__pyx_autotune_step"
MAX_CANDIDATES = 64
MAX_SIZE_ARGUMENTS = 9  # 6 bits of bucket each, in one Int (codegen/autotune_hook.BUCKET_BITS)


def dispatcher_name(fn: str) -> str:
    return PREFIX + fn


def _text(node: ast.Node) -> str:
    return node.span.file.text[node.span.start:node.span.end]


def _parse(text: str, diags: DiagnosticBag) -> tuple:
    from .parser import parse  # (the parser imports the builder, which imports this module)

    return parse(SourceFile("<autotune>", text), diags).body


def _bits_helper() -> str:
    # The bit length of |x| (of -(x + 1) for a negative x, which cannot overflow).
    return (f"fn {BITS}(x: Int) -> Int:\n"
            "    var v = x\n"
            "    if v < 0:\n"
            "        v = -(v + 1)\n"
            "    var bits = 0\n"
            "    while v > 0:\n"
            "        v = v >> 1\n"
            "        bits += 1\n"
            "    return bits\n")


class Autotune:
    def __init__(self, items: tuple, diags: DiagnosticBag):
        self.items = items
        self.diags = diags
        self.tuned: dict[str, str] = {}  # function name -> its dispatcher's name

    def run(self) -> tuple:
        if not any(isinstance(i, ast.FnDef) and any(d.name == DECORATOR for d in i.decorators) for i in self.items):
            return self.items
        out: list = []
        written: list = []
        for item in self.items:
            if isinstance(item, ast.FnDef) and any(d.name == DECORATOR for d in item.decorators):
                item, dispatcher = self._expand(item)
                if dispatcher:
                    written.extend(_parse(dispatcher, self.diags))
            out.append(item)
        if not self.tuned:
            return tuple(out)
        written.extend(_parse(_bits_helper(), self.diags))
        return tuple(_rewrite_calls(i, self.tuned) for i in out) + tuple(written)

    def _refuse(self, node: ast.Node, fn: ast.FnDef, problem: str) -> None:
        self.diags.error("E0193", node.span, name=fn.name, problem=problem)

    def _expand(self, fn: ast.FnDef) -> tuple[ast.FnDef, str | None]:
        """The function without its decorator, and the dispatcher's source (None if refused)."""
        mine = [d for d in fn.decorators if d.name == DECORATOR]
        fn = replace(fn, decorators=tuple(d for d in fn.decorators if d.name != DECORATOR))
        if len(mine) > 1:
            self._refuse(mine[1], fn, "`@autotune` is given twice; give every tuned parameter in one")
            return fn, None
        candidates = self._candidates(fn, mine[0])
        if candidates is None or not self._shape_ok(fn, mine[0]):
            return fn, None
        names, values = candidates
        self.tuned[fn.name] = dispatcher_name(fn.name)
        return fn, self._dispatcher(fn, names, values)

    def _candidates(self, fn: ast.FnDef, d: ast.Decorator) -> tuple[list[str], list[tuple[int, ...]]] | None:
        if not d.args:
            self._refuse(d, fn, "give each compile-time parameter its candidates, e.g. `@autotune(TILE=[16, 32])`")
            return None
        params = {p.name: p for p in fn.ct_params}
        names: list[str] = []
        lists: list[list[int]] = []
        for a in d.args:
            if not isinstance(a, ast.Keyword):
                self._refuse(a, fn, "candidates are given by name: `NAME=[v0, v1, ...]`")
                return None
            if a.name not in params:
                self._refuse(a, fn, f"`{a.name}` is not a compile-time parameter of `{fn.name}`")
                return None
            if a.name in names:
                self._refuse(a, fn, f"`{a.name}` is given twice")
                return None
            p = params[a.name]
            if not (isinstance(p.annotation, ast.Name) and p.annotation.id == "Int"):
                self._refuse(a, fn, f"`{a.name}` is not an `Int` parameter; only integer parameters (tile sizes, "
                                    "widths) are tuned")
                return None
            values = _int_list(a.value)
            if values is None or not values:
                self._refuse(a.value, fn, f"the candidates of `{a.name}` must be a list of integer literals, "
                                          "e.g. `[16, 32, 64]`")
                return None
            if len(set(values)) != len(values):
                self._refuse(a.value, fn, f"a candidate of `{a.name}` is listed twice")
                return None
            names.append(a.name)
            lists.append(values)
        for p in fn.ct_params:
            if p.name not in names:
                self._refuse(p, fn, f"the compile-time parameter `{p.name}` has no candidates; tune every "
                                    "parameter, or write a function for each value that calls a tuned one")
                return None
        order = [p.name for p in fn.ct_params]
        count = 1
        for values in lists:
            count *= len(values)
        if count > MAX_CANDIDATES:
            self._refuse(d, fn, f"{count} candidates; at most {MAX_CANDIDATES} are timed")
            return None
        # The product in the order the decorator lists them (the first value of each first), each
        # candidate's values then put in the function's parameter order.
        product = [dict(zip(names, combo, strict=True)) for combo in itertools.product(*lists)]
        return order, [tuple(c[n] for n in order) for c in product]

    def _shape_ok(self, fn: ast.FnDef, d: ast.Decorator) -> bool:
        if any(x.name == "kernel" for x in fn.decorators):
            self._refuse(d, fn, "a kernel is launched, not called: tune a host function that launches it, "
                                "with the tile sizes as its compile-time parameters")
            return False
        valued = _returns_a_value(fn.body)
        if (fn.returns is not None and not isinstance(fn.returns, ast.NoneLit)) or valued is not None:
            self._refuse(fn.returns or valued or fn, fn,
                         "it returns a value; tuning calls it several times on the same arguments, so a tuned "
                         "function writes its results through its arguments")
            return False
        for p in fn.params:
            if p.variadic:
                self._refuse(p, fn, f"`*{p.name}`: a tuned function takes a fixed list of parameters")
                return False
            if p.annotation is None:
                self._refuse(p, fn, f"the parameter `{p.name}` has no type; annotate every parameter")
                return False
            if p.convention is not None:
                self._refuse(p, fn, f"`{p.convention} {p.name}`: tuning calls the function several times on the "
                                    "same arguments, and each run would see the last one's changes; pass a `Ptr` "
                                    "to what it writes")
                return False
        if ast.yields(fn.body):
            self._refuse(d, fn, "a generator runs when it is iterated, not when it is called; tune a function")
            return False
        return True

    def _dispatcher(self, fn: ast.FnDef, order: list[str], candidates: list[tuple[int, ...]]) -> str:
        # (every parameter is annotated: `_check` refused the function otherwise)
        params = ", ".join(f"{p.name}: {_text(p.annotation)}" for p in fn.params if p.annotation is not None)
        args = ", ".join(p.name for p in fn.params)
        sizes = [p.name for p in fn.params if isinstance(p.annotation, ast.Name) and p.annotation.id == "Int"]
        sizes = sizes[:MAX_SIZE_ARGUMENTS]
        descriptor = "|".join([fn.name, ",".join(order), ";".join(",".join(map(str, c)) for c in candidates),
                               ",".join(sizes)])
        bucket = " + ".join(f"{BITS}({s}) * {64 ** i}" for i, s in enumerate(sizes)) or "0"
        declare = "var " if fn.kind == "fn" else ""
        raises = " raises" if fn.raises else ""

        def run(index: str, indent: str) -> list[str]:
            # The last candidate is the `else`: whatever the answer, one of them runs.
            lines = []
            for i, values in enumerate(candidates):
                head = "if" if i == 0 else "elif"
                test = f"{head} {index} == {i}:" if i < len(candidates) - 1 else "else:"
                lines.append(f"{indent}{test}" if len(candidates) > 1 else f"{indent}if True:")
                lines.append(f"{indent}    {fn.name}[{', '.join(map(str, values))}]({args})")
            return lines

        step = f'external_call["{STEP}", Int]("{descriptor}", __pyx_bucket, '
        body = [f"{fn.kind} {dispatcher_name(fn.name)}({params}){raises}:",
                f"    {declare}__pyx_bucket = {bucket}",
                f"    {declare}__pyx_next = {step}-1)",
                "    while __pyx_next >= 0:",
                *run("__pyx_next", "        "),
                f"        __pyx_next = {step}__pyx_next)",
                "    __pyx_next = -1 - __pyx_next",
                *run("__pyx_next", "    ")]
        return "\n".join(body) + "\n"


def _int_list(e: ast.Expr) -> list[int] | None:
    if not isinstance(e, ast.ListExpr):
        return None
    out = []
    for x in e.elts:
        if isinstance(x, ast.IntLit):
            out.append(x.value)
        elif isinstance(x, ast.Unary) and x.op == "-" and isinstance(x.operand, ast.IntLit):
            out.append(-x.operand.value)
        else:
            return None
    return out


def _returns_a_value(stmts) -> ast.Return | None:
    """A `return v` of the function itself (not of a nested one), if there is one."""
    stack = list(stmts)
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Return) and n.value is not None:
            return n
        if isinstance(n, (ast.FnDef, ast.Lambda)):
            continue
        stack.extend(ast.children(n))
    return None


def _rewrite_calls(node, tuned: dict[str, str]):
    """`node` with each call `f(...)` of a tuned function (no compile-time arguments given) calling
    its dispatcher instead; `f[16, 64](...)` names one instance and is left alone."""
    def dispatch(n):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in tuned:
            return replace(n, func=replace(n.func, id=tuned[n.func.id]))
        return None
    return ast.transform(node, dispatch)

def expand_autotune(items: tuple, diags: DiagnosticBag) -> tuple:
    """The module's statements with each `@autotune` function's dispatcher written out (see above)."""
    return Autotune(items, diags).run()
