"""Mojo's `elementwise[body, W, target="gpu"](n)`: a device closure launched over n elements.

Mojo writes a GPU map as a nested `@parameter fn body[width: Int](i: Int)` capturing the host
function's buffers and numbers, handed to `algorithm.functional.elementwise` with a SIMD width and
`target="gpu"` (and a `DeviceContext`, which pyx has no use for: pyx's launches go to the program's
target). pyx compiles the statement to a kernel and its launches, so the closure is ordinary
device code on every GPU target (PTX, SPIR-V, the CPU target running GPU code):

- the kernel is the body's statements after `var i = start + global_idx.x * width` and a bound
  check, with one parameter per captured variable (typed by compile-time parameters the launch
  infers, so each host function's capture types give their own instance) and a compile-time
  parameter per compile-time value of the host's it reads (`fn f[k: Int]`'s k, an `alias`); it has
  the body's name (tracebacks say `in body`) and, as a last compile-time parameter, the body's
  place in its file, so two bodies of one name are two kernels; it is generic, so Python never
  sees it among a module's kernels;
- a top-level function as the body reads the module's variables (captured the same way), not the
  caller's;
- `fn body(i: Int)` (width 1) is one launch over n threads; `fn body[width: Int](i: Int)` with
  W > 1 is a launch of n // W threads, each calling the body at i = t * W with width = W (so it may
  load and store `SIMD[..., width]` vectors), then one over the n % W left, with width = 1, as
  Mojo's elementwise and pyx's `vectorize` split the range; n <= 0 launches nothing.

Captures are Python's late binding, which is also what a Mojo `@parameter` closure (captured by
reference) sees: the kernel gets the value each captured variable has *at the launch* (an
assignment between the `fn` and the `elementwise` is seen; each launch waits for its kernel, so
one after it changes nothing that ran). Device code gets copies, so only values that mean the
same on the device cross: numbers, `Bool`s, SIMD vectors and `Ptr`s (whose memory is the
program's `Ptr.alloc`, managed or shared with the device on the GPU targets). A list, string, dict,
tuple, struct or class instance, or a function, captured is E0178; assigning a captured variable
in the body (plain, augmented, `nonlocal` or `global`) is E0249, since every thread would write
its own copy and the host's variable would not change; misuse of the form itself is E0176.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import types as T
from ..syntax import ast
from ..types import ERROR, FunctionType
from .closure_loops import assigned_names, walk_body
from .typed import LocalVar, TBlock, TConst

if TYPE_CHECKING:
    from .check import FunctionChecker

FORM = "elementwise"
BLOCK = 256  # threads a block; the grid covers the threads asked for
_BODY_DECORATORS = {"parameter", "always_inline"}
# What works on a block's or warp's threads together: meaningless in a body whose calls are
# independent (the CPU target would report a barrier that the threads past n never reach).
_BLOCK_WIDE = {"barrier", "shared_array", "dynamic_shared", "ballot", "shuffle_down", "shuffle_up", "shuffle_xor",
               "shuffle_idx", "warp_sum", "warp_max", "warp_min", "warp_prefix_sum", "warp_broadcast", "block_sum",
               "block_max", "block_min", "block_prefix_sum", "block_broadcast"}


def is_elementwise(chk: FunctionChecker, e: ast.Expr) -> bool:
    """`elementwise[...](...)` where `elementwise` is pyx's form, not a name of the program's."""
    return (isinstance(e, ast.Call) and isinstance(e.func, ast.Subscript) and isinstance(e.func.value, ast.Name)
            and e.func.value.id == FORM and chk.scopes.lookup(FORM) is None and FORM not in chk.module.functions)


def _error(chk: FunctionChecker, span, detail: str) -> None:
    chk.msg.error("E0176", span, detail=detail)
    return None


def elementwise(chk: FunctionChecker, s: ast.ExprStmt):
    """The statement `elementwise[body, W, target="gpu"](n)`, as the launches it stands for."""
    from .closure_loops import ParameterFn

    e = s.expr
    assert isinstance(e, ast.Call) and isinstance(e.func, ast.Subscript)
    items = [i for i in e.func.items if not isinstance(i, ast.Keyword)]
    keywords = {i.name: i for i in e.func.items if isinstance(i, ast.Keyword)}
    shape = '`elementwise[body, W, target="gpu"](n)`'
    if len(items) != 2 or set(keywords) - {"target"} or e.keywords \
            or any(isinstance(a, ast.Starred) for a in e.args) or not e.args:
        return _error(chk, e.span, f"its body, a SIMD width, `target=\"gpu\"` and one count: {shape}")
    if len(e.args) == 2:
        return _error(chk, e.args[1].span, "no device context: pyx launches on the program's target (`pyx run "
                      "--target=cuda`, `opencl`, or the CPU): write `elementwise[body, W, target=\"gpu\"](n)`")
    if len(e.args) != 1:
        return _error(chk, e.span, f"one count: {shape}")
    target = keywords.get("target")
    if target is None or not (isinstance(target.value, ast.StrLit) and target.value.value == "gpu"):
        return _error(chk, (target or e.func).span, 'the target `target="gpu"` (it launches a GPU kernel); '
                      "on the CPU, `parallelize[body](n)` and `vectorize[body, W](n)` run a closure")
    body_name, width_item = items
    if not isinstance(body_name, ast.Name):
        return _error(chk, body_name.span, "the name of a function defined in this function as its body "
                      "(`@parameter fn body(i: Int)`)")
    found = chk.scopes.lookup(body_name.id)
    decl: ast.FnDef | None = None
    copies: dict[str, str] = {}
    if isinstance(found, TConst) and isinstance(found.value, ParameterFn):
        decl, copies = found.value.decl, dict(found.value.copies)
    elif isinstance(found, LocalVar) and isinstance(found.type, FunctionType) \
            and found.type in chk.closures.nested_defs:
        decl = chk.closures.nested_defs[found.type]
    elif found is None and body_name.id in chk.module.functions:
        decl = chk.module.functions[body_name.id]
    if decl is None:
        return _error(chk, body_name.span, f"a function as its body (a nested `@parameter fn`, or one at the top "
                      f"level); `{body_name.id}` is not one")
    from .comptime import CtError

    try:
        width = chk.calls.ct_value(width_item) if isinstance(width_item, ast.Expr) else None
    except CtError:
        width = None
    if isinstance(width, bool) or not isinstance(width, int) or width < 1:
        return _error(chk, width_item.span, "a SIMD width that is a positive `Int` known when compiling")
    problem = _shape_problem(decl, width, nested=found is not None)
    if problem is not None:
        return _error(chk, body_name.span, problem)
    together = next((n for n in walk_body(decl.body) if (called := _called_name(n)) in _BLOCK_WIDE
                     and chk.scopes.lookup(called) is None), None)
    if together is not None:
        return _error(chk, together.span, "a body whose calls are independent: its threads make no blocks of a size "
                      "the program knows (the last one stops at n), so `barrier()`, shared memory and warp and block "
                      "operations have nothing to work with; write a `@kernel` and `launch` it for those")
    captures = _captures(chk, decl, nested=found is not None, copies=copies)
    if captures is None:
        return None
    kernel = _kernel(chk, decl, captures)
    return _launches(chk, s, kernel, captures, width, e.args[0], decl)


def _called_name(node) -> str | None:
    """The name `f` of a call `f(...)` or `f[...](...)`."""
    if not isinstance(node, ast.Call):
        return None
    func = node.func.value if isinstance(node.func, ast.Subscript) else node.func
    return func.id if isinstance(func, ast.Name) else None


def _is_int(annotation: ast.Expr | None) -> bool:
    return annotation is None or (isinstance(annotation, ast.Name) and annotation.id in ("Int", "int"))


def _shape_problem(decl: ast.FnDef, width: int, nested: bool) -> str | None:
    returns_none = decl.returns is None or isinstance(decl.returns, ast.NoneLit) or (
        isinstance(decl.returns, ast.Name) and decl.returns.id == "None")
    params_ok = len(decl.params) == 1 and _is_int(decl.params[0].annotation) and decl.params[0].default is None \
        and not decl.params[0].variadic and decl.params[0].convention is None
    cts_ok = not decl.ct_params or (len(decl.ct_params) == 1 and _is_int(decl.ct_params[0].annotation)
                                    and decl.ct_params[0].default is None)
    # (A nested function's other decorators were reported where it was defined: E0281.)
    other = [d.name for d in decl.decorators if d.name not in _BODY_DECORATORS and not nested]
    if not (returns_none and params_ok and cts_ok) or other or decl.raises:
        return (f"a body of the shape `fn body(i: Int)` or `fn body[width: Int](i: Int)` returning nothing; "
                f"`{decl.name}` does not fit")
    if not decl.ct_params and width != 1:
        return (f"a body taking the width (`fn {decl.name}[width: Int](i: Int)`) for a SIMD width of {width}; "
                f"`{decl.name}` handles one element a call: give it width 1")
    return None


def _captures(chk: FunctionChecker, decl: ast.FnDef, nested: bool,
              copies: dict[str, str]) -> list[tuple[str, Any, ast.Name, str]] | None:
    """What the body reads of the host's, in first-use order, each (name, what, first use, the
    variable the launch passes): a variable (its LocalVar; the launch passes it, or the copy
    `@__copy_capture` took of it), or a compile-time value (its kind, a str). A top-level body sees
    only the module's variables, not the caller's. None after an error (E0178 for what cannot cross
    to the device, E0249 for a write)."""
    from .closures import scope_of

    own, nonlocal_names, free = scope_of(decl.params, decl.body)
    width_names = {p.name for p in decl.ct_params}
    uses: dict[str, ast.Name] = {}  # each name's first use in the source (where an error points)
    for node in walk_body(decl.body):
        if isinstance(node, ast.Name) and (node.id not in uses or node.span.start < uses[node.id].span.start):
            uses[node.id] = node
    declared = {n.name for n in walk_body(decl.body) if isinstance(n, ast.VarDecl)}
    ok = True
    for node in walk_body(decl.body):
        if isinstance(node, (ast.Nonlocal, ast.Global)):
            chk.msg.error("E0249", node.span, name=node.names[0], body=decl.name)
            ok = False
    if not ok:
        return None
    if any(d.name == "parameter" for d in decl.decorators):
        # Mojo's `@parameter fn` assigns the captured variable itself where Python's def binds a
        # variable of its own: on the device that write would be lost, so it is refused (a
        # variable of the body's own says `var`).
        for target in assigned_names(decl.body):
            if target.id in own and target.id not in declared and isinstance(chk.scopes.lookup(target.id), LocalVar):
                chk.msg.error("E0249", target.span, name=target.id, body=decl.name)
                return None
    captures: list[tuple[str, Any, ast.Name, str]] = []
    for name in free:
        if name in width_names or name in nonlocal_names:
            continue
        found = chk.scopes.lookup(copies.get(name, name))
        if nested and ((isinstance(found, TConst) and found.type != ERROR) or (found is None and name in chk.ct_env)):
            # A compile-time value of the host function (its parameter `[k: Int]`, an `alias`): the
            # kernel's compile-time parameter, given by the launch.
            kind = _kind(chk, name)
            if kind is None:
                chk.msg.error("E0178", uses[name].span, name=name, type="compile-time value", body=decl.name)
                ok = False
            else:
                captures.append((name, kind, uses[name], name))
            continue
        if not isinstance(found, LocalVar) or (not nested and found.global_symbol is None):
            continue  # a module's function, a builtin (or a caller's variable): device code names it itself
        t = found.type
        if t == ERROR:
            return None
        if not _crosses(t):
            chk.msg.error("E0178", uses[name].span, name=name, type=t, body=decl.name)
            ok = False
            continue
        captures.append((name, found, uses[name], copies.get(name, name)))
    return captures if ok else None


def _kind(chk: FunctionChecker, name: str) -> str | None:
    """The kind of a compile-time parameter that holds the host's compile-time value `name`."""
    from .comptime import CtError

    try:
        value = chk.calls.ct_value(ast.Name(chk.fn.decl.span, name))
    except CtError:
        return None
    if isinstance(value, bool):
        return "Bool"
    if isinstance(value, int):
        return "Int"
    if isinstance(value, float):
        return "Float64"
    if isinstance(value, T.DTypeValue):
        return "DType"
    if isinstance(value, T.Type) and value != ERROR:
        return "AnyType"
    return None


def _crosses(t) -> bool:
    """A value that means the same copied into device code: a number, a Bool, a SIMD vector, a
    pointer into global memory."""
    if isinstance(t, (T.ScalarType, T.SIMDType)):
        return True
    return isinstance(t, T.PtrType) and t.address_space == 0


def _key(decl: ast.FnDef) -> str:
    """The made-up name the launches find the kernel by (no source can spell it)."""
    return f"{decl.name}@{decl.name_span.line}:{decl.name_span.col}"


def _kernel(chk: FunctionChecker, decl: ast.FnDef, captures) -> ast.FnDef:
    """`@kernel fn body[width: Int, k: Int, ..., $T0: AnyType, ..., $site: Int = place](c0: $T0, ...,
    $start: Int, $count: Int)` (k, ...: the host's compile-time values the body reads; c0, ...: its
    captured variables): thread t runs the body at i = $start + t * width, if t < $count."""
    span = decl.name_span
    width = decl.ct_params[0].name if decl.ct_params else "$width"
    # The kernel has the body's name (a traceback names it as written); a last
    # compile-time parameter, the body's place in the file, keeps it apart from any other function
    # of that name: two bodies `body` in two functions are two kernels, and a function checked
    # again makes the same instance.
    ct = [ast.CtParam(span, width, ast.Name(span, "Int"), None)]
    ct += [ast.CtParam(use.span, cname, ast.Name(span, kind), None) for cname, kind, use, _ in captures
           if isinstance(kind, str)]
    params = []
    for k, (cname, _var, use, _passed) in enumerate(c for c in captures if not isinstance(c[1], str)):
        tname = f"$T{k}"
        ct.append(ast.CtParam(span, tname, ast.Name(span, "AnyType"), None))
        params.append(ast.Param(use.span, cname, ast.Name(span, tname), None, None))
    ct.append(ast.CtParam(span, "$site", ast.Name(span, "Int"), ast.IntLit(span, span.start)))
    params += [ast.Param(span, "$start", ast.Name(span, "Int"), None, None),
               ast.Param(span, "$count", ast.Name(span, "Int"), None, None)]
    index = decl.params[0]
    thread = ast.VarDecl(span, "$t", span, ast.Name(span, "Int"),
                         ast.Attribute(span, ast.Name(span, "global_idx"), "x"), True)
    first = ast.VarDecl(index.span, index.name, index.span, ast.Name(span, "Int"),
                        ast.Binary(span, "+", ast.Name(span, "$start"),
                                   ast.Binary(span, "*", ast.Name(span, "$t"), ast.Name(span, width))), True)
    guard = ast.If(span, ast.Compare(span, ast.Name(span, "$t"), ("<",), (ast.Name(span, "$count"),)),
                   (first, *decl.body), ())
    return ast.FnDef(decl.span, decl.kind, decl.name, span, tuple(ct), tuple(params), False, None, (thread, guard),
                     (ast.Decorator(span, "kernel", ()),))


def _launches(chk: FunctionChecker, s: ast.ExprStmt, kernel: ast.FnDef, captures, width: int, count: ast.Expr,
              decl: ast.FnDef):
    """`var n = count`, then the launches: over n // W threads at width W and n % W at width 1 (one
    launch of n at width 1 when W is 1); each only when it has threads to run."""
    span = s.span
    where = f"{decl.name_span.line}:{decl.name_span.col}@{span.start}"
    n, full = f"$n@{where}", f"$full@{where}"

    def name(x: str) -> ast.Name:
        return ast.Name(span, x)

    def num(v: int) -> ast.IntLit:
        return ast.IntLit(span, v)

    def launch(w: int, start: ast.Expr, threads: ast.Expr) -> ast.If:
        grid = ast.Binary(span, "//", ast.Binary(span, "+", threads, num(BLOCK - 1)), num(BLOCK))
        ct_items = (num(w), *(ast.Name(span, c[0]) for c in captures if isinstance(c[1], str)))
        call = ast.Launch(span, ast.Subscript(span, name(_key(decl)), ct_items),
                          (ast.Keyword(span, "grid", grid), ast.Keyword(span, "block", num(BLOCK))),
                          tuple(ast.Name(span, c[3]) for c in captures if not isinstance(c[1], str))
                          + (start, threads), ())
        return ast.If(span, ast.Compare(span, threads, (">",), (num(0),)), (call,), ())

    stmts: list[ast.Stmt] = [ast.VarDecl(span, n, span, name("Int"), count, True)]
    if width == 1:
        stmts.append(launch(1, num(0), name(n)))
    else:
        stmts.append(ast.VarDecl(span, full, span, name("Int"), ast.Binary(span, "//", name(n), num(width)), True))
        stmts.append(launch(width, num(0), name(full)))
        done = ast.Binary(span, "*", name(full), num(width))
        stmts.append(launch(1, done, ast.Binary(span, "-", name(n), done)))
    # The launch statements find the kernel by name among the module's functions; it is there only
    # while they are checked (a made-up name no source can spell, and no function of the program's).
    functions, key = chk.module.functions, _key(decl)
    functions[key] = kernel
    try:
        checked = [chk.stmt(x) for x in stmts]
    finally:
        if functions.get(key) is kernel:
            del functions[key]
    return TBlock(span, [x for x in checked if x is not None])
