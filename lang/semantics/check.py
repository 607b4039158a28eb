"""Type checking of one function instance: names, types, literals, definite assignment.

Python's rules wherever Python has one: numeric promotion int -> float in arithmetic,
`/` of ints is a float, `and`/`or` return an operand, a first assignment declares a
local for the whole function. Beyond that pyx is static: a variable keeps one type,
and no value converts implicitly except an untyped constant.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import cached_property
from typing import TYPE_CHECKING

from .. import types as T
from ..diagnostics import DiagnosticBag, note_statement
from ..source import Span
from ..syntax import ast
from ..types import ERROR, LiteralType, ScalarType, StructType, Type, default_type
from . import (
    classes,
    closure_loops,
    context_managers,
    everyday,
    function_values,
    inheritance,
    optional_returns,
    print_file,
    print_order,
    pycollections,
    python_float,
    recursive_returns,
    sets,
)
from .builtin_types import is_builtin
from .calls import CallChecker
from .closures import ClosureChecker
from .comprehensions import ComprehensionChecker, CompStep
from .discard import DISCARD, reads_discard
from .empty_literals import EmptyLiterals, is_empty_literal, needs_context, open_display, report_open_display
from .expressions import ExpressionChecker
from .generators import GeneratorChecker
from .globals import ModuleVariables
from .gpu import GPUChecker
from .imports import is_string
from .mathlib import MathChecker
from .messages import MessageBuilder
from .narrowing import AttributePlace, after_statement, narrowed, not_none_when
from .ownership import OwnershipChecker
from .rules import (
    INPLACE_METHODS,
    MAX_UNROLL,
    Instantiate,
    Loop,
    ResolveType,
    TypeParam,
    ct_type,
    merge_assigned,
    nonempty_range,
)
from .scope import BlockScopes, ComptimeSymbol, ModuleSymbols
from .sharing import SharingChecker, attribute_root, borrowed_argument, reroot
from .slicing import delete
from .strformat import StringFormatChecker
from .structs import StructChecker
from .typed import (
    FieldTarget,
    FunctionInstance,
    LocalVar,
    Reference,
    TAssert,
    TAssign,
    TBlock,
    TBreak,
    TConst,
    TContinue,
    TExpr,
    TExprStmt,
    TForRange,
    TIf,
    TLocal,
    TPrint,
    TReturn,
    TStmt,
    TWhile,
)
from .vectorize import VectorizeChecker, is_vectorize

if TYPE_CHECKING:
    from .pointers import PointerChecker
    from .raising import ExceptionChecker
    from .simd import SIMDChecker
    from .tuples import TupleChecker

# Names later issues define; using them now says so instead of "not defined".
# Python's data model: the method a struct defines to take part in each operator.

# Asks the instantiation stage for the instance of `decl` at these argument types.


def setdefault_then_method(e: ast.Expr) -> tuple[ast.Stmt, ...] | None:
    """`d.setdefault(k, v).append(x)`, Python's idiom for a dict of lists: the method changes the
    dict's own item. Spelled `if k not in d: d[k] = v` then `d[k].append(x)`, which changes the
    item in place in pyx too (a `setdefault` result is a copy there). `d` a variable; `k` is read
    twice, so any other key than a variable or a literal (`"".join(sorted(w))`) is computed once
    into a hidden variable first (issue 17)."""
    if not (isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) and isinstance(e.func.value, ast.Call)):
        return None
    parts = _setdefault_parts(e.func.value)
    if parts is None:
        return None
    first, item = parts
    call = ast.ExprStmt(e.span, ast.Call(e.span, ast.Attribute(e.func.span, item, e.func.attr), e.args, e.keywords))
    return (*first, call)


def setdefault_then_store(s: ast.Assign) -> tuple[ast.Stmt, ...] | None:
    """`d.setdefault(k, {})[x] = v` (a dict of dicts): as `setdefault_then_method`, the store
    goes to the dict's own item, `d[k][x] = v`."""
    if not (len(s.targets) == 1 and isinstance(s.targets[0], ast.Subscript)
            and isinstance(s.targets[0].value, ast.Call)):
        return None
    target = s.targets[0]
    assert isinstance(target.value, ast.Call)
    parts = _setdefault_parts(target.value)
    if parts is None:
        return None
    first, item = parts
    return (*first, ast.Assign(s.span, (ast.Subscript(target.span, item, target.items),), s.value))


def _plain_place(e: ast.Expr) -> bool:
    """A variable or an attribute of one (`d`, `self.index`): read again without a side effect."""
    while isinstance(e, ast.Attribute):
        e = e.value
    return isinstance(e, ast.Name)


def _setdefault_parts(inner: ast.Call) -> tuple[tuple[ast.Stmt, ...], ast.Subscript] | None:
    """For `d.setdefault(k, v)` (d a variable): the statements that set `d[k] = v` when k is
    absent (the key computed once into a hidden variable first, unless a variable or a
    literal), and the item `d[k]` to use in its place."""
    if not (isinstance(inner.func, ast.Attribute) and inner.func.attr == "setdefault" and len(inner.args) == 2
            and not inner.keywords and _plain_place(inner.func.value)):
        return None
    d, (key, default) = inner.func.value, inner.args
    first: tuple[ast.Stmt, ...] = ()
    if not isinstance(key, (ast.Name, ast.StrLit, ast.IntLit, ast.BoolLit)):
        hidden = ast.Name(key.span, f"$setdefault_key{key.span.start}")  # no source can spell it
        first, key = (ast.Assign(key.span, (hidden,), key),), hidden
    item = ast.Subscript(inner.span, d, (key,))
    missing = ast.Compare(inner.span, key, ("not in",), (d,))
    store = ast.If(inner.span, missing, (ast.Assign(inner.span, (item,), default),), ())
    return (*first, store), item


class FunctionChecker:
    """The statement checker: checks one function instance and owns its scopes and flow state
    (definite assignment, loops, try/except depth, moved variables). Expressions go to `self.exprs`,
    each language feature to its checker (`self.calls`, `self.structs`, ...), and every diagnostic
    through `self.msg`. The collaborators reach back through their `chk` field."""

    def __init__(self, module: ModuleSymbols, instance: FunctionInstance, diags: DiagnosticBag,
                 instantiate: Instantiate, resolve_type: ResolveType,
                 comptime_value: Callable[[ComptimeSymbol], TConst | None],
                 home_of: Callable[[ast.Node], ModuleSymbols] | None = None):
        self.module: ModuleSymbols = module
        # The module a callee was declared in: its bounds and names resolve there.
        self.home_of: Callable[[ast.Node], ModuleSymbols] = home_of or (lambda node: module)
        self.fn: FunctionInstance = instance
        self.instantiate: Instantiate = instantiate
        self.type_resolver: ResolveType = resolve_type  # any environment; `resolve_type` uses this instance's
        self.ct_env: dict = {**getattr(instance.owner, "ct_env", {}),
                             **({"Self": instance.owner} if instance.owner is not None else {}),
                             **{p.name: v for p, v in zip(instance.decl.ct_params, instance.ct_args)}}
        self.comptime_value: Callable[[ComptimeSymbol], TConst | None] = comptime_value
        self.scopes: BlockScopes = BlockScopes()
        self.assigned: set[LocalVar] | None = set()
        self.loops: list[Loop] = []
        self.reported_unbound: set[LocalVar] = set()
        self.moved_at: dict[LocalVar, Span] = {}  # variables given up with `x^`, and where
        self.try_depth: int = 0  # inside a try body with handlers: raising there is handled
        self.constraint_failed: bool = False  # this instance reported a failed `constrained[...]` already
        self.handler_depth: int = 0  # inside an except block: a bare `raise` re-raises
        self.next_id: int = 0  # the last local variable's id
        # (a `def p(x: float) -> float` given an int returns what its body computes: python_float.keeps_int)
        self.infer_return: bool = (instance.decl.returns is None and instance.decl.kind == "def") \
            or python_float.keeps_int(instance)
        self.self_var: LocalVar | None = None  # `self` of a method, set by `check`
        self.field_vars: dict[str, LocalVar] = {}  # `__init__(out self)`: a variable per field being initialized
        self.msg: MessageBuilder = MessageBuilder(diags)
        # The collaborators, each holding this checker as `chk` (the expression checker first: the others read it).
        self.exprs: ExpressionChecker = ExpressionChecker(self)
        self.calls: CallChecker = CallChecker(self)
        self.structs: StructChecker = StructChecker(self)
        self.mathlib: MathChecker = MathChecker(self)
        self.gpu: GPUChecker = GPUChecker(self)
        self.ownership: OwnershipChecker = OwnershipChecker(self)
        self.vectorize: VectorizeChecker = VectorizeChecker(self)
        self.sharing: SharingChecker = SharingChecker(self)
        self.closures: ClosureChecker = ClosureChecker(self)
        self.strformat: StringFormatChecker = StringFormatChecker(self)
        self.comprehensions: ComprehensionChecker = ComprehensionChecker(self)
        self.globals: ModuleVariables = ModuleVariables(self)
        self.empties: EmptyLiterals = EmptyLiterals(self)
        self.generators: GeneratorChecker = GeneratorChecker(self)
        self._reads_discard: bool | None = None  # whether the function reads `_` (fresh_discard)
        self.narrowed: set[LocalVar | AttributePlace] = set()  # Optionals read as values here (narrowing.py)
        if self.globals.script:
            self.scopes.on_outermost = self.globals.declare_script_variable

    # The collaborators few functions need, each built (and its module imported) on first use:
    # a program that never reaches one skips importing it (start-up time, docs/compiler.md).
    @cached_property
    def exceptions(self) -> ExceptionChecker:
        from .raising import ExceptionChecker

        return ExceptionChecker(self)

    @cached_property
    def simd(self) -> SIMDChecker:
        from .simd import SIMDChecker

        return SIMDChecker(self)

    @cached_property
    def pointers(self) -> PointerChecker:
        from .pointers import PointerChecker

        return PointerChecker(self)

    @cached_property
    def tuples(self) -> TupleChecker:
        from .tuples import TupleChecker

        return TupleChecker(self)

    def resolve_type(self, expr: ast.Expr) -> Type:
        return self.type_resolver(expr, self.ct_env)

    # ---- entry ----
    def check(self) -> None:
        decl = self.fn.decl
        self.globals.bind_aliases()  # first: the parameters shadow them
        names = set()
        for index, (param, ptype) in enumerate(zip(decl.params, self.fn.param_types)):
            if param.name in names:
                self.msg.error("E0112", param.span, name=param.name)
            names.add(param.name)
            if index == 0 and decl.self_convention is not None and self.fn.owner is not None:
                self.structs.declare_self(param, self.fn.owner, decl.self_convention)
                continue
            if param.convention not in (None, "var", "owned", "mut"):
                self.msg.error("E0007", param.span, construct=f"the `{param.convention}` argument convention")
            mutable = decl.kind == "def" or param.convention in ("var", "owned", "mut")
            var = self.new_var(param.name, ptype, param.span, is_param=True, mutable=mutable)
            var.python_float = python_float.spelled_float(param.annotation)
            var.by_ref = param.convention == "mut"
            var.owned = param.convention in ("var", "owned")
            if var.owned:
                self.ownership.need_drop(ptype, param.span)
            self.fn.params.append(var)
            self.scopes.declare(param.name, var)
            self.refer_local(param.span, var, "param")
            self.assigned.add(var)
            function_values.param_cell(self, var)  # shared with a closure that leaves the frame
        for p, value in self.ct_env.items():
            # Compile-time parameters are constants in the body (types are only usable as types).
            if not isinstance(value, T.Type):
                self.scopes.declare(p, TConst(decl.name_span, ct_type(value), value))
            else:
                self.scopes.declare(p, TConst(decl.name_span, ERROR, TypeParam(p)))
        self.empties.enter_probe()  # a nested def checked for what it says of a pending variable
        prologue = self.closures.enter()  # a closure's body: the names it captured
        self.fn.body = prologue + self.block(decl.body)
        self.empties.report_unresolved()
        self.sharing.report_sharing()
        self.closures.finish()
        if self.fn.is_kernel and self.fn.return_type not in (T.NONE, ERROR, None):
            self.msg.error("E0146", decl.name_span, func=decl.name, type=self.fn.return_type)
        if self.assigned is not None and decl.self_convention == "out" and self.self_var is not None:
            self.fn.body.append(self.structs.return_self(decl.name_span))
            return
        if self.assigned is not None:
            ret = self.fn.return_type
            if ret is None:
                self.fn.return_type = T.NONE
            elif ret not in (T.NONE, ERROR) and not optional_returns.falls_off(self):
                self.msg.error("E0209", decl.name_span, func=decl.name, type=ret)


    def refer_local(self, span: Span, var: LocalVar, kind: str = "") -> None:
        kind = kind or ("param" if var.is_param else "local")
        self.fn.references.append(Reference(span, kind, var.name, var.type, var.span))

    def new_var(self, name: str, t: Type, span: Span, is_param=False, mutable=True) -> LocalVar:
        self.next_id += 1
        var = LocalVar(name, t, span, is_param, mutable, self.next_id)
        self.fn.locals.append(var)
        return var

    # ---- statements ----
    def block(self, stmts, new_scope: bool = False) -> list[TStmt]:
        if new_scope:
            self.scopes.push()
        out: list[TStmt] = []
        self._statements(tuple(stmts), 0, out)
        if new_scope:
            self.scopes.pop()
        return out

    def _statements(self, stmts: tuple, start: int, out: list) -> None:
        for i in range(start, len(stmts)):
            stmt = stmts[i]
            try:
                result = self.stmt(stmt)
            except Exception as exc:
                note_statement(exc, stmt.span)
                raise
            if result is not None:
                out.append(result)
            guarded = after_statement(self, stmt)  # `if v is None: return`: v is its value below (narrowing.py)
            if guarded:
                with narrowed(self, guarded, stmts[i + 1:]):
                    self._statements(stmts, i + 1, out)
                return

    def stmt(self, s: ast.Stmt) -> TStmt | None:
        method = getattr(self, "stmt_" + type(s).__name__, None)
        if method is None:
            # The module-level statements, met inside a function body.
            construct = {"Import": "`import` inside a function", "StructDef": "a struct inside a function",
                         "ClassDef": "a class inside a function (declare it at the top level)",
                         "TraitDef": "a trait inside a function",
                         "MainGuard": "`if __name__ == \"__main__\":` inside a function"}.get(type(s).__name__)
            self.msg.error("E0007", s.span, construct=construct or f"a `{type(s).__name__}` statement here")
            return None
        return method(s)

    def stmt_Pass(self, s):
        return None

    def stmt_Yield(self, s: ast.Yield) -> TStmt | None:
        return self.generators.stmt_Yield(s)

    def stmt_CompStep(self, s: CompStep) -> TStmt | None:
        return self.comprehensions.step(s)

    def stmt_Delete(self, s: ast.Delete):
        return delete(self, s)

    def stmt_ExprStmt(self, s: ast.ExprStmt):
        e = s.expr
        if isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id == "print" \
                and self.scopes.lookup("print") is None:
            return self.print_call(e)
        if isinstance(e, ast.StrLit):
            return None  # a docstring
        if closure_loops.is_closure_loop(self, e):  # Mojo's `parallelize[body](n)`, `vectorize[body, W](n)`
            return closure_loops.closure_loop(self, s)
        if isinstance(e, ast.Call) and isinstance(e.func, ast.Subscript):  # `form[...](...)`: its module on first use
            from . import device_closures

            if device_closures.is_elementwise(self, e):  # Mojo's `elementwise[body, W, target="gpu"](n)`
                return device_closures.elementwise(self, s)
        spelled = setdefault_then_method(e)
        if spelled is not None:  # `d.setdefault(k, []).append(x)`
            return TBlock(s.span, [x for x in (self.stmt(t) for t in spelled) if x is not None])
        return TExprStmt(s.span, self.exprs.value(self.exprs.expr(e)))

    def stmt_VarDecl(self, s: ast.VarDecl):
        s = context_managers.checked_manager(self, s)  # the manager of a `with` (syntax/with_stmt.py)
        declared = self.resolve_type(s.annotation) if s.annotation is not None else None
        declared = pycollections.declared_as_made(self, s, declared)  # `d: dict[K, V] = defaultdict(list)`
        value = None
        if s.value is not None:
            value = self.empty_container(s.value, declared)
            if value is None:
                value = self.exprs.expr(s.value)
            existing_var = self.scopes.lookup(s.name) if not s.explicit else None
            python_float.refuse_int_constant(
                self, value, declared if declared is not None else getattr(existing_var, "type", None),
                python_float.spelled_float(s.annotation) or getattr(existing_var, "python_float", False),
                f"as the value of `{s.name}`{python_float.ANNOTATION}")
            value = self.exprs.coerce(value, declared) if declared is not None else self.exprs.value(value)
            if declared is None and value.type == T.STRING_LITERAL:
                value = self.exprs.coerce(value, self.exprs.string_or(value.type))  # `var s = "text"` holds a String
        existing = self.scopes.lookup(s.name)
        if not s.explicit and isinstance(existing, LocalVar):
            # Python's `x: T = v` on a name that exists is an assignment with a check.
            if declared is not None and declared != existing.type and ERROR not in (declared, existing.type):
                self.msg.error("E0201", s.annotation.span, expected=existing.type, found=declared)
            if value is None:
                return None
            self.sharing.copied(s.value, value, existing)
            return self.store([existing], [value], s.span)
        if s.explicit and self.scopes.in_current_block(s.name):
            self.msg.error("E0102", s.name_span, name=s.name)
        if declared is None and value is None:
            self.msg.error("E0131", s.name_span, name=s.name)
        vtype = declared if declared is not None else (value.type if value is not None else ERROR)
        if vtype == T.EXCEPTION:
            vtype = self._exception_kept(s.name, s.name_span)
        if vtype == T.NONE:
            self.msg.error("E0132", s.name_span, name=s.name)
            vtype = ERROR
        var = self.new_var(s.name, vtype, s.name_span)
        function_values.declared(self, var)  # (`cache: dict[int, int] = {}` shared with a returned closure)
        self.scopes.declare(s.name, var, function_wide=not s.explicit)
        self.refer_local(s.name_span, var)
        if value is None:
            return None
        if not s.explicit:
            self.sharing.copied(s.value, value, var)
        return self.store([var], [value], s.span)

    def empty_container(self, value: ast.Expr, declared: Type | None) -> TExpr | None:
        """`xs: list[int] = []`, `d: Dict[str, int] = {}`: an empty literal takes its element
        types from the declaration."""
        if isinstance(value, ast.Comprehension):  # `rows: list[list[int]] = [[] for _ in range(n)]`
            return self.comprehensions.in_context(value, declared)
        if isinstance(value, ast.TupleExpr) and isinstance(declared, T.TupleType) \
                and any(isinstance(x, ast.NoneLit) for x in value.elts):  # `return None, False` of a
            return self.tuples.literal(value, declared)  # `-> tuple[Node | None, bool]`: None takes its item type
        from .numbers import holds_numbers, mixes_numbers
        from .optional_items import optional_display

        mixed = (isinstance(value, ast.ListExpr) and (mixes_numbers(value.elts) or holds_numbers(declared, "T"))) \
            or (isinstance(value, ast.DictExpr) and (mixes_numbers(value.values) or holds_numbers(declared, "V")))
        if needs_context(value, self.module) or optional_display(value, declared) or mixed:
            # `grid: list[list[int]] = [[]]`, `xs: list[int | None] = [None]`: its empty items (its None items)
            # take the item type; `xs: list[float] = [1, 2.5]`: E0288 at the 1, `xs: list[int | float] = [1, 2]`:
            # Numbers (semantics/numbers.py)
            if isinstance(value, ast.ListExpr) and is_builtin(declared, "List"):
                return self.exprs.expr_ListExpr(value, declared.ct_env["T"])
            if isinstance(value, ast.DictExpr) and is_builtin(declared, "Dict"):
                return self.exprs.expr_DictExpr(value, declared.ct_env["V"])
            return None
        empty = (isinstance(value, ast.ListExpr) and not value.elts and is_builtin(declared, "List")) or (
            isinstance(value, ast.DictExpr) and not value.keys and is_builtin(declared, "Dict")) or (
            sets.is_empty_set(value) and is_builtin(declared, "Set"))
        if pycollections.empty_call(value, self.module) is not None:  # `deque()`, `Counter()`, `defaultdict(int)`
            return pycollections.empty_value(self, value, declared)
        if not empty:
            return None
        return self.calls.finish_call(declared.symbol.methods["__init__"], [], value.span, value.span, declared)

    def empty_item(self, target: ast.Expr, value: ast.Expr) -> TExpr | None:
        """`groups[key] = []`: stored into a dict (or list) variable whose item type is known, an
        empty literal takes that type, as `xs: list[str] = []` takes its declaration's; so do the
        empty items of a display (`groups[key] = [[]]`, `grid = [[]]` to a variable that has a type)."""
        if isinstance(target, ast.Name) and needs_context(value, self.module):
            found = self.scopes.lookup(target.id)
            if found is None and open_display(value, self.module):  # `grid = [[]]`: E0100, naming the variable
                report_open_display(self, value, target.id)
                return TConst(value.span, ERROR, None)
            return self.empty_container(value, found.type) if isinstance(found, LocalVar) else None
        if not (isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name)
                and (is_empty_literal(value, self.module) or needs_context(value, self.module))):
            return None
        container = self.scopes.lookup(target.value.id)
        ctype = container.type if isinstance(container, LocalVar) else None
        if not isinstance(ctype, StructType):
            return None
        item = ctype.ct_env.get("V") if is_builtin(ctype, "Dict") else \
            ctype.ct_env.get("T") if is_builtin(ctype, "List") else None
        return self.empty_container(value, item) if isinstance(item, StructType) else None

    def stmt_Comptime(self, s: ast.Comptime):
        value = self._local_comptime(s) if s.annotation is None else None
        if value is None:
            value = self.comptime_value(ComptimeSymbol(s))
        if self.scopes.in_current_block(s.name):
            self.msg.error("E0102", s.name_span, name=s.name)
        self.scopes.declare(s.name, value if value is not None else TConst(s.span, ERROR, None))
        return None

    def _local_comptime(self, s: ast.Comptime) -> TConst | None:
        """`comptime d = rank - 1 - k` inside a function: it may use the function's (and its
        struct's) compile-time parameters and enclosing `comptime for` indices."""
        from .comptime import CtError

        try:
            v = self.calls.ct_value(s.value)
        except CtError:
            return None  # not a simple expression of parameters: the caller evaluates it as a module constant
        if isinstance(v, bool):
            return TConst(s.span, T.BOOL, v)
        if isinstance(v, int):
            return TConst(s.span, T.INT_LITERAL, v)
        if isinstance(v, float):
            return TConst(s.span, T.FLOAT_LITERAL, v)
        return None

    def stmt_Assign(self, s: ast.Assign):
        spelled = setdefault_then_store(s)
        if spelled is not None:  # `d.setdefault(k, {})[x] = v`
            return TBlock(s.span, [x for x in (self.stmt(t) for t in spelled) if x is not None])
        mark = self.sharing.change_mark()
        through_object = classes.assign_statement(self, s)  # `obj.x = v` (semantics/classes.py)
        if through_object is not None:
            return through_object
        if len(s.targets) == 1 and isinstance(s.targets[0], ast.TupleExpr) and (
                not isinstance(s.value, ast.TupleExpr) or len(s.value.elts) != len(s.targets[0].elts)
                or any(isinstance(t, ast.TupleExpr) for t in s.targets[0].elts)):
            return self.tuples.unpack(s.targets[0], s.value, s.span)  # `a, b = f()`, `(a, (b, c)) = t`
        if len(s.targets) == 1 and isinstance(s.targets[0], ast.TupleExpr):
            targets, values = s.targets[0].elts, s.value.elts
            checked = [self.exprs.expr(v) for v in values]
            if any(isinstance(t, (ast.Subscript, ast.Attribute)) for t in targets):  # `self.a, self.b = x, y` too
                assign = self.assign_each(list(targets), checked, s.span)
            else:
                assign = self._assign_targets(list(targets), checked, s.span)
            self._remember_copies(list(targets), list(values), checked)
            return assign
        if len(s.targets) == 1 and isinstance(s.targets[0], ast.Name) and is_empty_literal(s.value, self.module):
            assign = self.assign_empty(s.targets[0], s.value, s.span)
            if assign is not False:
                return assign
        if len(s.targets) == 1 and isinstance(s.targets[0], ast.Name) and isinstance(s.value, ast.NoneLit) \
                and self.scopes.lookup(s.targets[0].id) is None:
            return self.assign_none(s.targets[0], s.value, s.span)
        stored_empty = self.empty_item(s.targets[0], s.value) if len(s.targets) == 1 else None
        value = stored_empty or self.exprs.expr(s.value)
        if len(s.targets) == 1 and isinstance(s.targets[0], ast.Subscript):
            self.empties.setitem(s.targets[0], value)
            return self.structs.setitem(s.targets[0], value, s.span, mark)
        if len(s.targets) == 1 and isinstance(attribute_root(s.targets[0]), ast.Subscript):
            return self.element_field_store(s.targets[0], value, s.span, mark)
        if len(s.targets) == 1 and isinstance(s.targets[0], ast.Attribute):
            dynamic = self.setattr_call(s.targets[0], value, s.span)
            if dynamic is not None:
                return dynamic
            self.sharing.stored_copy(value)  # `o.items = row`: Python's o.items would be row itself
        if len(s.targets) == 1:
            assign = self._assign_targets([s.targets[0]], [value], s.span)
            self._remember_copies([s.targets[0]], [s.value], [value])
            return assign
        # `a = b = v`: v once, then each target in order.
        value = self.exprs.value(value)
        if isinstance(value.type, ScalarType) and any(
                isinstance(t, ast.Subscript) or isinstance(attribute_root(t), ast.Subscript) for t in s.targets):
            # `sieve[0] = sieve[1] = False`: the number once into a variable, stored into each
            # target in order (a container or object would be one object under every target in
            # Python, and a copy in each here: that stays an error)
            var = self.new_var("$chained", value.type, value.span)
            first = self.store([var], [value], value.span)
            rest = self.assign_each(list(s.targets), [TLocal(value.span, var.type, var) for _ in s.targets], s.span)
            return TBlock(s.span, [first, rest])
        return self._assign_targets(list(s.targets), [value] * len(s.targets), s.span)


    def assign_each(self, targets: list[ast.Expr], values: list[TExpr], span: Span):
        """`a[i], a[j] = a[j], a[i]`: as Python does, every value first (each into a variable of
        its own), then the targets from left to right."""
        stmts, held = [], []
        for k, value in enumerate(values):
            var = self.new_var(f"$value{k}", self.exprs.string_or(default_type(value.type)), value.span)
            stmts.append(self.store([var], [self.exprs.value(self.exprs.coerce(value, var.type))], value.span))
            held.append(TLocal(value.span, var.type, var))
        for target, value in zip(targets, held):
            if isinstance(target, (ast.Subscript, ast.Attribute)):  # `self.rank[i], self.rank[j] = ...`
                from .strformat import Checked

                through_object = classes.assign_statement(self, ast.Assign(span, (target,), Checked(value.span, value)))
                if through_object is not None:
                    stmts.append(through_object)
                    continue
            if isinstance(target, ast.Subscript):
                stmts.append(self.structs.setitem(target, value, span))
            elif isinstance(attribute_root(target), ast.Subscript):
                stmts.append(self.element_field_store(target, value, span, self.sharing.change_mark()))
            else:
                stmts.append(self._assign_targets([target], [value], span))
        return TBlock(span, [x for x in stmts if x is not None])

    def element_field_store(self, target: ast.Attribute, value: TExpr, span: Span, mark: int):
        """`bs[i].vx = v`: the element's field, changed in place."""
        element = self.exprs.expr(attribute_root(target))
        if element.type == ERROR:
            return None
        if self.sharing.element_read(element):
            name = f"$element{self.next_id}"

            def use(slot):
                self.scopes.declare(name, slot.var)
                return [self._assign_targets([reroot(target, name)], [value], span)]

            lent = self.sharing.lend(element, span, use, mark)
            if lent is not None:
                return TExprStmt(span, lent) if lent.type != ERROR else None
        self.msg.error("E0108", target.span)
        return None

    def _remember_copies(self, targets: list[ast.Expr], values: list[ast.Expr], checked: list[TExpr]) -> None:
        """`v = x` binds v to a copy of x, where Python binds v to x itself (sharing.py)."""
        for target, value_ast, value in zip(targets, values, checked):
            var = self.scopes.lookup(target.id) if isinstance(target, ast.Name) else None
            if isinstance(var, LocalVar):
                self.sharing.copied(value_ast, value, var)

    def setattr_call(self, target: ast.Attribute, value: TExpr, span: Span):
        """`obj.name = v` of a struct with `__setattr__` and no field `name` (a PythonObject)."""
        found = self.scopes.lookup(target.value.id) if isinstance(target.value, ast.Name) else None
        sym = self.structs.struct_of(found.type) if isinstance(found, LocalVar) else None
        if sym is None or "__setattr__" not in sym.methods or found.type.field_index(target.attr) is not None:
            return None
        call = self.structs.method_call(self.exprs.expr(target.value), "__setattr__",
                                [TConst(target.span, T.STRING_LITERAL, target.attr), value], span)
        return TExprStmt(span, call) if call.type != ERROR else None

    def stmt_TBlock(self, s):
        return s

    def stmt_TLaunch(self, s):
        return s


    def assign_empty(self, target: ast.Name, literal: ast.Expr, span: Span):
        """`name = []` / `name = {}`: an existing variable's type, a hinted one, or pending until a use
        says what it holds (semantics/empty_literals.py); False where the general path applies."""
        existing = self.scopes.lookup(target.id)
        if isinstance(existing, LocalVar):
            value = self.empty_container(literal, existing.type)
            return self._assign_targets([target], [value], span) if value is not None else False
        if existing is not None:
            return False
        value = self.empties.value_for(literal)
        if value is not None:
            return self._assign_targets([target], [value], span)
        assign = self._assign_targets([target], [TConst(literal.span, ERROR, None)], span)
        self.empties.bound(target.id, literal)
        return assign

    def assign_none(self, target: ast.Name, literal: ast.NoneLit, span: Span):
        """`prev = None` binding a new variable: an Optional of what is assigned to it later
        (`prev = node`), or of where it goes (`node.next = prev`): pending until then, as an
        empty list is (semantics/empty_literals.py); E0132 if nothing ever says."""
        hint = self.empties.hints.get(id(literal))
        if hint is not None:
            return self._assign_targets([target], [self.exprs.coerce(TConst(literal.span, T.NONE, None), hint)], span)
        assign = self._assign_targets([target], [TConst(literal.span, ERROR, None)], span)
        self.empties.bound(target.id, literal)
        return assign

    def _assign_targets(self, targets: list[ast.Expr], values: list[TExpr], span: Span):
        through_object = classes.assign(self, targets, values, span)  # `obj.x = v` (semantics/classes.py)
        if through_object is not None:
            return through_object
        variables, coerced = [], []
        for target, value in zip(targets, values):
            var = self.assign_target(target, value)
            if var is None:
                continue
            variables.append(var)
            if isinstance(var, LocalVar):
                self.empties.assigned(var, value)  # `prev = node` after `prev = None`
            self.empties.flows_into(value, var.type)
            if isinstance(var, LocalVar) and var.python_float:
                python_float.refuse_int_constant(self, value, var.type, True,
                                                 f"as the value of `{var.name}`{python_float.INFERRED}")
            if isinstance(var, LocalVar) and value.type != var.type and isinstance(value.type, StructType):
                from .numbers import widen_variable  # `total = 0`, then `total = total + x` of an `int | float`

                widen_variable(self, var, value)
            coerced.append(self.exprs.coerce(value, var.type))  # FieldTarget has .type too
        if not variables:
            return None
        return self.store(variables, coerced, span)

    def assign_target(self, target: ast.Expr, value: TExpr):
        if isinstance(target, ast.Attribute):
            return self.structs.field_target(target)
        if not isinstance(target, ast.Name):
            self.msg.error("E0108", target.span)
            return None
        existing = self.scopes.lookup(target.id)
        if isinstance(existing, TConst):
            self.msg.error("E0107", target.span, name=target.id)
            return None
        if isinstance(existing, LocalVar) and target.id == DISCARD and self.fresh_discard(existing, value):
            existing = None  # `for _ in range(n)` after `for _, p in pairs`: unread, so its own variable
        if isinstance(existing, LocalVar) and self.fresh_loop_binding(existing, target, value):
            existing = None  # `for k, v in d.items()` after `for v in ints`: the ints are never read again
        if isinstance(existing, LocalVar):
            self.refer_local(target.span, existing)
            if not existing.mutable:
                self.msg.error("E0113", target.span, name=target.id, func=self.fn.name)
                return None
            return existing
        if target.id in self.module.comptimes:
            self.msg.error("E0107", target.span, name=target.id)
            return None
        # A name that is also a function's (`round = 3`, a builtin from the prelude or one of the
        # module's own) becomes a local that shadows it, as in Python.
        vtype = self.exprs.string_or(default_type(value.type))  # `s = "text"` holds a String
        vtype = function_values.variable_type(self, target.id, vtype, target.span)  # `op = add` ... `op = sub`
        if vtype == T.EXCEPTION:
            vtype = self._exception_kept(target.id, target.span)
        if vtype == T.NONE:
            self.msg.error("E0132", target.span, name=target.id)
            vtype = ERROR
        if self.fn.empty_hints and not isinstance(vtype, StructType):
            from .numbers import variable_type  # an int or a float, later an `int | float`

            vtype = variable_type(self, target.id, target.span, vtype)
        var = self.new_var(target.id, vtype, target.span)
        function_values.declared(self, var)  # in a heap cell, if a closure leaving the frame shares it
        var.python_float = python_float.is_float(vtype)  # `x = 1.5`: a later `x = 2` keeps an int in CPython
        self.scopes.declare(target.id, var, function_wide=True)
        self.refer_local(target.span, var)
        return var


    def _exception_kept(self, name: str, span: Span) -> Type:
        """The type of a variable first bound to a caught exception in a `def` (`saved = e`): an
        exception value, which outlives the handler (semantics/exception_values.py); E0171 elsewhere."""
        from .exception_values import kept_type

        kept = kept_type(self, T.EXCEPTION) if self.fn.decl.kind == "def" else T.EXCEPTION
        if kept != T.EXCEPTION:
            return kept
        self.msg.error("E0171", span, name=name)
        return ERROR

    def check_now(self, decl: ast.FnDef, param_types: tuple[Type, ...]) -> None:
        """Check a function of this module now (its instance for these parameter types), while this
        one waits: the script asks the functions that use a variable it could not type
        (semantics/empty_literals.py)."""
        instance = self.instantiate(decl, param_types, decl.name_span)
        instantiator = getattr(self.instantiate, "__self__", None)
        if instance is not None and instantiator is not None:
            instantiator.check(instance)

    def fresh_discard(self, existing: LocalVar, value: TExpr) -> bool:
        """Whether this binding of `_` gets a new variable: its value's type differs from the one
        `_` has, and the function never reads `_` (semantics/discard.py)."""
        if self._reads_discard is None:
            self._reads_discard = reads_discard(self.fn.decl.body)
        vtype = self.exprs.string_or(default_type(value.type))
        return not self._reads_discard and vtype not in (existing.type, ERROR) and existing.type != ERROR

    def fresh_loop_binding(self, existing: LocalVar, target: ast.Name, value: TExpr) -> bool:
        """Whether this `for` target gets a new variable: its value's type differs from the one the
        name has, and nothing can read the name's earlier values again (semantics/loop_rebinding.py)."""
        vtype = self.exprs.string_or(default_type(value.type))
        if vtype in (existing.type, ERROR) or existing.type == ERROR or existing.is_param or existing.by_ref \
                or existing.global_symbol is not None or self.fn.decl is None:
            return False
        from .loop_rebinding import rebinds_unobserved

        return rebinds_unobserved(self.fn.decl, target)

    def store(self, variables: list, values: list[TExpr], span: Span) -> TAssign:
        values = self.ownership.store_targets(variables, values)
        if self.assigned is not None:
            for v in variables:
                if isinstance(v, LocalVar):
                    self.assigned.add(v)
                elif isinstance(v, FieldTarget) and v.var is self.self_var and self.field_vars and len(v.path) == 1:
                    name = self.fn.owner.fields[v.path[0]][0]
                    self.assigned.add(self.field_vars[name])
                    if all(f in self.assigned for f in self.field_vars.values()):
                        self.assigned.add(self.self_var)
        return TAssign(span, variables, values)

    def stmt_AugAssign(self, s: ast.AugAssign):
        if isinstance(s.target, (ast.Attribute, ast.Subscript)):
            through_object = classes.aug_assign(self, s)  # `obj.x += v` (semantics/classes.py)
            if through_object is not None:
                return through_object
        if isinstance(s.target, ast.Subscript):
            return self.structs.aug_subscript(s)
        if isinstance(s.target, ast.Attribute) and isinstance(attribute_root(s.target), ast.Subscript):
            mark = self.sharing.change_mark()
            element = self.exprs.expr(attribute_root(s.target))  # `bs[i].vx += v`: the element's field, in place
            if element.type == ERROR:
                return None
            if self.sharing.element_read(element):
                name = f"$element{self.next_id}"

                def use(slot):
                    self.scopes.declare(name, slot.var)
                    return [self.stmt_AugAssign(replace(s, target=reroot(s.target, name)))]

                lent = self.sharing.lend(element, s.span, use, mark)
                if lent is not None:
                    return TExprStmt(s.span, lent) if lent.type != ERROR else None
            self.msg.error("E0108", s.target.span)
            return None
        if isinstance(s.target, ast.Attribute):
            target = self.structs.field_target(s.target)
            current = self.exprs.expr(s.target)
            if target is None or current.type == ERROR:
                return None
            result = self.exprs.binary(s.op, current, self.exprs.expr(s.value), s.span)
            return self.store([target], [self.exprs.coerce(result, target.type)], s.span)
        if not isinstance(s.target, ast.Name):
            self.msg.error("E0108", s.target.span)
            return None
        current = self.exprs.expr(s.target)
        if s.op == "+":
            self.empties.augmented(s.target, s.value)
        if not isinstance(current, TLocal):
            if current.type != ERROR and isinstance(current, TConst):
                self.msg.error("E0107", s.target.span, name=s.target.id)
            elif current.type != ERROR:
                self.msg.error("E0108", s.target.span)
            return None
        if not current.var.mutable:
            self.msg.error("E0113", s.target.span, name=s.target.id, func=self.fn.name)
            return None
        if isinstance(current.type, StructType):
            value = self.exprs.expr(s.value)
            # A borrowed String is the caller's: `s += t` makes a new one, as Python's str does.
            rebind = is_string(current.type) and borrowed_argument(current.var)
            inplace = None if rebind else self.structs.method_call(current, INPLACE_METHODS[s.op], [value], s.span)
            if inplace is not None:
                return TExprStmt(s.span, inplace)
            result = self.exprs.binary(s.op, current, value, s.span)
            return self.store([current.var], [self.exprs.coerce(result, current.var.type)], s.span)
        result = self.exprs.binary(s.op, current, self.exprs.expr(s.value), s.span)
        if result.type != current.var.type and isinstance(result.type, StructType):
            from .numbers import widen_variable  # `total += s.area()` of an `int | float`

            widen_variable(self, current.var, result)
        return self.store([current.var], [self.exprs.coerce(result, current.var.type)], s.span)

    def stmt_If(self, s: ast.If):
        test = self.exprs.condition(s.test)
        before = self.copy_state()
        with narrowed(self, not_none_when(self, s.test, True), s.body):  # `if v is not None:` (narrowing.py)
            body = self.block(s.body, new_scope=True)
        after_body = self.assigned
        self.assigned = before
        with narrowed(self, not_none_when(self, s.test, False), s.orelse):
            orelse = self.block(s.orelse, new_scope=True)
        self.assigned = merge_assigned(after_body, self.assigned)
        return TIf(s.span, test, body, orelse)

    def stmt_While(self, s: ast.While):
        test = self.exprs.condition(s.test)
        infinite = isinstance(test, TConst) and bool(test.value)
        before = self.copy_state()
        loop = Loop(infinite, first_inner=self.next_id + 1)
        loop.body = s.body
        self.loops.append(loop)
        with narrowed(self, not_none_when(self, s.test, True), s.body):
            body = self.block(s.body, new_scope=True)
        self.loops.pop()
        if infinite:
            state = None
            for b in loop.break_states:
                state = merge_assigned(state, b)
            self.assigned = state
        else:
            self.assigned = before
        return TWhile(s.span, test, body)

    def stmt_For(self, s: ast.For):
        it = s.iter
        if is_vectorize(it, self.scopes, self.module.functions):
            return self.vectorize.vectorize_loop(s)
        func = it.func.id if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) else None
        if not (func in ("range", "prange") and self.scopes.lookup(func) is None
                and func not in self.module.functions):
            return self.structs.for_iterable(s)
        if it.keywords:
            self.msg.error("E0207", it.keywords[0].span, func=func, name=it.keywords[0].name)
        if not 1 <= len(it.args) <= 3:
            self.msg.error("E0204", it.span, func=func, expected="1 to 3", s="s", found=len(it.args))
            return None
        parallel = func == "prange"
        if parallel and self.fn.is_kernel:
            self.msg.error("E0158", it.span, func=self.fn.name)
            parallel = False
        args = [self.exprs.expr(a) for a in it.args]
        itype = self._unify_ints(args, it.span)
        args = [self.exprs.coerce(a, itype) for a in args]
        if len(args) == 1:
            start, stop, step = TConst(it.span, itype, 0), args[0], TConst(it.span, itype, 1)
        elif len(args) == 2:
            start, stop, step = args[0], args[1], TConst(it.span, itype, 1)
        else:
            start, stop, step = args
        if not isinstance(s.target, ast.Name):
            self.msg.error("E0213", s.target.span, type=itype)  # (a range gives numbers)
            return None
        var = self.private_loop_var(s.target, itype) or self.assign_target(s.target, TConst(s.target.span, itype, 0))
        if var is None:
            return None
        if var.type not in (itype, ERROR) and itype != ERROR:
            self.msg.error("E0201", s.target.span, expected=var.type, found=itype)
        loop_state = Loop(False, parallel, first_inner=self.next_id + 1)  # ids of the body's variables
        body = self.loop_body(var, s.body, loop_state)
        if self.assigned is not None and nonempty_range(start, stop, step):
            self.assigned.add(var)  # the body ran at least once, so the loop variable is bound
        if self.assigned is not None:
            self.assigned -= loop_state.shadowed  # their value after a prange is no iteration's in particular
        first_inner = loop_state.first_inner
        loop = TForRange(s.span, var, start, stop, step, body, parallel)
        if parallel:
            from .parallel import analyze as analyze_prange

            loop.captures, loop.reductions = analyze_prange(body, var, first_inner, self.msg.bag)
        return loop

    def private_loop_var(self, target, itype) -> LocalVar | None:
        """Inside a prange body, `for j in range(...)` over a name bound before the prange gets
        a variable of its own (each iteration has its own j); the outer j is then unbound."""
        loop = next((lp for lp in reversed(self.loops) if lp.parallel), None)
        existing = self.scopes.lookup(target.id) if loop is not None and isinstance(target, ast.Name) else None
        if not isinstance(existing, LocalVar) or existing.id >= loop.first_inner or existing.type != itype:
            return None
        loop.shadowed.add(existing)
        var = self.new_var(target.id, itype, target.span)
        self.scopes.declare(target.id, var)
        self.refer_local(target.span, var)
        return var

    def loop_body(self, var: LocalVar, stmts, loop: Loop | None = None) -> list[TStmt]:
        """A for loop's body: the loop variable is bound inside; nothing it assigns is certain after."""
        before = self.copy_state()
        if self.assigned is not None:
            self.assigned.add(var)
        loop = loop or Loop(False, first_inner=self.next_id + 1)
        loop.body = stmts
        self.loops.append(loop)
        body = self.block(stmts, new_scope=True)
        self.loops.pop()
        self.assigned = before
        return body


    def _unify_ints(self, args: list[TExpr], span: Span) -> Type:
        concrete = [a.type for a in args if not isinstance(a.type, LiteralType)]
        if any(t == ERROR for t in concrete):
            return ERROR
        itype = concrete[0] if concrete else T.INT
        bad = [a for a in args if not (a.type == T.INT_LITERAL or a.type == itype)]
        if bad or not (isinstance(itype, ScalarType) and itype.is_int):
            wrong = bad[0] if bad else args[0]
            if is_builtin(wrong.type, "Number"):  # `range(n)` of an `int | float` (semantics/numbers.py)
                self.msg.error("E0304", wrong.span, expected=T.INT, fix="int(...)")
            else:
                self.msg.error("E0216", wrong.span, type=wrong.type)
            return ERROR
        return itype

    def stmt_Break(self, s):
        if not self.loops:
            self.msg.error("E0211", s.span, what="break")
            return None
        if self.loops[-1].parallel:
            self.msg.error("E0155", s.span, what="break")
            return None
        if self.assigned is not None:
            self.loops[-1].break_states.append(set(self.assigned))
        self.assigned = None
        return TBreak(s.span)

    def stmt_Continue(self, s):
        if not self.loops:
            self.msg.error("E0211", s.span, what="continue")
            return None
        self.assigned = None
        return TContinue(s.span)

    def stmt_Return(self, s: ast.Return):
        if any(loop.parallel for loop in self.loops):
            self.msg.error("E0155", s.span, what="return")
        if self.fn.decl.self_convention == "out" and self.self_var is not None:
            if s.value is not None:
                self.msg.error("E0210", s.value.span)
            result = self.structs.return_self(s.span)
            self.assigned = None
            return result
        if s.value is not None and self.infer_return and self.fn.return_type is None \
                and is_empty_literal(s.value, self.module) and not self.empties.returned_empty(s.value):
            self.assigned = None  # `return []` first: a later `return` says what it holds (empty_literals.py)
            return TReturn(s.span, None)
        value = None
        if s.value is not None and self.fn.return_type is not None:  # `return []` of a `-> list[int]`
            value = self.empty_container(s.value, self.fn.return_type)
        if s.value is not None and value is None:
            value = self.exprs.expr(s.value)
        expected = self.fn.return_type
        if expected is None and self.infer_return and value is not None and recursive_returns.unknown(value.type):
            self.assigned = None  # made from a recursive call's pending value: fixes nothing (recursive_returns.py)
            return TReturn(s.span, None)
        if expected is None and self.infer_return:
            self.fn.return_type = optional_returns.hinted(self) or (
                everyday.result_type(self, default_type(value.type)) if value is not None else T.NONE)
            expected = self.fn.return_type
            self.empties.returned(expected)  # a `return []` before: this result's type is its type too
        optional_returns.widen(self, expected, value, s.value)  # `return None`, then `return node`
        if expected is not None and value is not None and expected != value.type:  # `return 0`, then `return x / n`
            from .numbers import widen as number_result

            number_result(self, expected, value)
        if expected is None:
            expected = T.NONE
        if value is None and self.infer_return and optional_returns.nullable(expected):
            value = TConst(s.span, T.NONE, None)  # a bare `return` of a result that may be None
        if value is None:
            if expected not in (T.NONE, ERROR):
                self.msg.error("E0201", s.span, expected=expected, found="None")
        elif expected == T.NONE:
            void = self.closures.void_return(value, s.span)  # `lambda v: xs.append(v)`
            if void is not None:
                self.assigned = None
                return void
            if value.type not in (ERROR, T.NONE) or not isinstance(value, TConst):  # (`return None` is `return`)
                self.msg.error("E0210", s.value.span)
            value = None
        elif inheritance.override_result(self, s, value, expected):  # `Rectangle.area` an int, `Circle.area` a float
            value = None
        else:
            self.sharing.returned(value, s.span, s.value)
            self.empties.flows_into(value, expected)
            decl = self.fn.decl
            # Annotated `float`, or a `def`'s result typed by an earlier `return 1.5`: CPython returns the int.
            spelled = python_float.spelled_float(decl.returns)
            python_float.refuse_int_constant(
                self, value, expected, spelled or (decl.returns is None and decl.kind == "def"),
                f"as the result of `{decl.name}`" + (python_float.ANNOTATION if spelled else
                                                     " (its type came from an earlier `return` of a float)"))
            value = self.ownership.returned(self.exprs.coerce(value, expected))
        self.assigned = None
        return TReturn(s.span, value)

    def stmt_Assert(self, s: ast.Assert):
        test = self.exprs.condition(s.test)
        message, text = None, None
        if isinstance(s.msg, ast.StrLit):
            message = s.msg.value
        elif s.msg is not None:
            # A message made at run time (`assert ok, f"{n} failed"`, `assert n > 0, n`): Python's
            # str() of it, evaluated only when the test fails.
            text = self.exprs.expr(ast.Call(s.msg.span, ast.Name(s.msg.span, "str"), (s.msg,), ()))
            if not is_string(text.type):
                text = None
            self.fn.raises_text = True
        narrowing = inheritance.narrowed(self, s)  # `assert isinstance(x, C)`: x is a C after it
        if narrowing is not None:
            return TBlock(s.span, [TAssert(s.span, test, message, text), narrowing])
        return TAssert(s.span, test, message, text)


    def stmt_ComptimeIf(self, s: ast.ComptimeIf):
        from .comptime import CtError

        try:  # types, DTypes and parameters compare here: `comptime if T == Float64`
            value = bool(self.calls.ct_value(s.test))
        except CtError:
            test = self.exprs.condition(s.test)
            if test.type == ERROR:
                return None
            if not isinstance(test, TConst):
                self.msg.error("E0143", s.test.span)
                return None
            value = bool(test.value)
        chosen = s.body if value else s.orelse
        return TBlock(s.span, self.block(chosen))

    def stmt_ComptimeFor(self, s: ast.ComptimeFor):
        from .comptime import MAX_UNROLLED_COPIES, MAX_UNROLLED_NODES, CtError, current_budget

        it = s.iter
        if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range"
                and 1 <= len(it.args) <= 3 and isinstance(s.target, ast.Name)):
            self.msg.error("E0144", it.span, detail="one name, iterating over range(...)")
            return None
        try:
            values = [self.calls.ct_value(a) for a in it.args]
        except CtError as exc:
            self.msg.error("E0144", exc.span, detail=exc.detail)
            return None
        if any(isinstance(v, bool) or not isinstance(v, int) for v in values):
            self.msg.error("E0144", it.span, detail="its arguments must be Ints")
            return None
        try:
            indices = range(*values)
        except ValueError as exc:
            self.msg.error("E0144", it.span, detail=str(exc))
            return None
        if len(indices) > MAX_UNROLL:
            self.msg.error("E0144", it.span, detail=f"at most {MAX_UNROLL} iterations are unrolled")
            return None
        if not current_budget().unroll(len(indices), s.body):  # the program's total, nested loops included
            self.msg.error("E0174", it.span, copies=MAX_UNROLLED_COPIES, nodes=MAX_UNROLLED_NODES)
            return None
        body: list = []
        for index in indices:
            self.scopes.push()
            self.scopes.declare(s.target.id, TConst(s.target.span, T.INT, index))
            body.extend(self.block(s.body))
            self.scopes.pop()
        return TBlock(s.span, body)

    def stmt_FnDef(self, s: ast.FnDef):
        return self.closures.define(s)

    def stmt_Nonlocal(self, s: ast.Nonlocal):
        return self.closures.stmt_Nonlocal(s)

    def stmt_Global(self, s: ast.Global):
        return self.globals.stmt_Global(s)

    def stmt_MainGuard(self, s: ast.MainGuard):
        return self.globals.stmt_MainGuard(s)

    def stmt_Launch(self, s: ast.Launch):
        return self.gpu.launch(s)

    def copy_state(self):
        return set(self.assigned) if self.assigned is not None else None

    # ---- print ----
    def print_call(self, e: ast.Call) -> TStmt | None:
        if print_file.has_file(e):
            return print_file.print_to_file(self, e)
        sep, end = " ", "\n"
        for kw in e.keywords:
            if kw.name not in ("sep", "end", "flush"):
                self.msg.error("E0207", kw.span, func="print", name=kw.name)
                continue
            v = self.exprs.expr(kw.value)
            if kw.name == "flush":
                continue
            if isinstance(v, TConst) and isinstance(v.value, str):
                if kw.name == "sep":
                    sep = v.value
                else:
                    end = v.value
            elif isinstance(v, TConst) and v.value is None and v.type == T.NONE:
                continue
            elif v.type != ERROR:
                self.msg.error("E0217", kw.value.span, name=kw.name)
        args = []
        values = self.sharing.in_order(e.args, lambda a: self.exprs.value(self.exprs.expr(a)))
        prelude = print_order.evaluated_before_printing(self, e.args, values)  # Python: all, then written
        for a, v in zip(e.args, values):
            # print shows str(x), as Python's: a List or Dict by its own __str__ in the stdlib, as a
            # user's struct, so the compiler never reads a container's fields to print it.
            if self.structs.struct_of(v.type) is not None and not is_string(v.type) \
                    and "__str__" in self.structs.struct_of(v.type).methods:
                v = self.structs.method_call(v, "__str__", [], a.span)
            if not (isinstance(v.type, (ScalarType, T.SIMDType)) or is_string(v.type) or
                    v.type in (T.STRING_LITERAL, ERROR, T.NONE, T.EXCEPTION)):
                self.msg.error("E0215", a.span, type=v.type, notes=classes.print_advice(v.type))
            args.append(v)
        printed = TPrint(e.span, args, sep, end)
        return TBlock(e.span, [*prelude, printed]) if prelude else printed


    # Statements a feature checker owns (`stmt` dispatches on the node's class name).
    def stmt_Raise(self, s: ast.Raise) -> TStmt | None:
        return self.exceptions.stmt_Raise(s)

    def stmt_Try(self, s: ast.Try) -> TStmt | None:
        return self.exceptions.stmt_Try(s)
