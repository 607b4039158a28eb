"""Type checking of one function instance: names, types, literals, definite assignment.

Python's rules wherever Python has one: numeric promotion int -> float in arithmetic,
`/` of ints is a float, `and`/`or` return an operand, a first assignment declares a
local for the whole function. Beyond that pyx is static: a variable keeps one type,
and no value converts implicitly except an untyped constant.
"""
from __future__ import annotations

import difflib
from typing import Callable

from ..diagnostics import DiagnosticBag, Note
from ..source import Span
from ..syntax import ast
from .. import types as T
from ..types import ERROR, LiteralType, ScalarType, StructType, Type, default_type
from . import fold
from .scope import BlockScopes, ComptimeSymbol, ModuleSymbols
from .imports import is_stdlib_struct, is_string
from .gpu import GPUChecks, GPU_NAMES
from .mathlib import MathChecks
from .pointers import PointerChecks
from .simd import SIMDChecks
from .typed import (FieldTarget, FunctionInstance, LocalVar, Reference, TBlock, TDictLit, TListLit, TPtrOp, TAssert,
                    TAssign, TBinary,
                    TBoolOp, TBreak, TBuiltin, TCompare, TConst, TContinue, TExpr, TExprStmt, TForRange, TIf, TIfExp,
                    TLocal, TPrint, TReturn, TStmt, TUnary, TWhile)
from .calls import CallChecks
from .ownership import OwnershipChecks
from .raising import ExceptionChecks
from .structs import StructChecks
from .parallel import analyze as analyze_prange
from .vectorize import VectorizeChecks, is_vectorize
from .rules import (BINARY_METHODS, BIT_OPS, BUILTIN_FUNCTIONS, CMP_OPS, FUTURE_NAMES, INPLACE_METHODS, Instantiate, MAX_UNROLL, PROGRESS, UNARY_METHODS, _Loop, _TypeParam, _ct_type, _is_float, _is_num, _merge, _nonempty_range)

# Names later issues define; using them now says so instead of "not defined".
# Python's data model: the method a struct defines to take part in each operator.

# Asks the instantiation stage for the instance of `decl` at these argument types.


class FunctionChecker(VectorizeChecks, CallChecks, StructChecks, ExceptionChecks, SIMDChecks, PointerChecks, MathChecks,
                      GPUChecks, OwnershipChecks):
    def __init__(self, module: ModuleSymbols, instance: FunctionInstance, diags: DiagnosticBag,
                 instantiate: Instantiate, resolve_type: Callable[[ast.Expr], Type],
                 comptime_value: Callable[[ComptimeSymbol], TConst | None],
                 home_of: Callable[[ast.Node], ModuleSymbols] | None = None):
        self.module = module
        # The module a callee was declared in: its bounds and names resolve there.
        self.home_of = home_of or (lambda node: module)
        self.fn = instance
        self.diags = diags
        self.instantiate = instantiate
        self._resolve_type = resolve_type
        self.ct_env: dict = {**getattr(instance.owner, "ct_env", {}),
                             **({"Self": instance.owner} if instance.owner is not None else {}),
                             **{p.name: v for p, v in zip(instance.decl.ct_params, instance.ct_args)}}
        self.comptime_value = comptime_value
        self.scopes = BlockScopes()
        self.assigned: set[LocalVar] | None = set()
        self.loops: list[_Loop] = []
        self.reported_unbound: set[LocalVar] = set()
        self.moved_at: dict[LocalVar, Span] = {}  # variables given up with `x^`, and where
        self.try_depth = 0  # inside a try body with handlers: raising there is handled
        self.constraint_failed = False  # this instance reported a failed `constrained[...]` already
        self.handler_depth = 0  # inside an except block: a bare `raise` re-raises
        self.next_id = 0
        self.infer_return = instance.decl.returns is None and instance.decl.kind == "def"

    def resolve_type(self, expr: ast.Expr) -> Type:
        return self._resolve_type(expr, self.ct_env)

    # ---- entry ----
    def check(self) -> None:
        decl = self.fn.decl
        names = set()
        self.self_var: LocalVar | None = None
        self.field_vars: dict[str, LocalVar] = {}
        for index, (param, ptype) in enumerate(zip(decl.params, self.fn.param_types)):
            if param.name in names:
                self.diags.error("E0112", param.span, name=param.name)
            names.add(param.name)
            if index == 0 and decl.self_convention is not None and self.fn.owner is not None:
                self.declare_self(param, self.fn.owner, decl.self_convention)
                continue
            if param.convention not in (None, "var", "owned", "mut"):
                self.diags.error("E0007", param.span, construct=f"the `{param.convention}` argument convention")
            mutable = decl.kind == "def" or param.convention in ("var", "owned", "mut")
            var = self._new_var(param.name, ptype, param.span, is_param=True, mutable=mutable)
            var.by_ref = param.convention == "mut"
            var.owned = param.convention in ("var", "owned")
            if var.owned:
                self.need_drop(ptype, param.span)
            self.fn.params.append(var)
            self.scopes.declare(param.name, var)
            self.refer_local(param.span, var, "param")
            self.assigned.add(var)
        for p, value in self.ct_env.items():
            # Compile-time parameters are constants in the body (types are only usable as types).
            if not isinstance(value, T.Type):
                self.scopes.declare(p, TConst(decl.name_span, _ct_type(value), value))
            else:
                self.scopes.declare(p, TConst(decl.name_span, ERROR, _TypeParam(p)))
        self.fn.body = self.block(decl.body)
        if self.fn.is_kernel and self.fn.return_type not in (T.NONE, ERROR, None):
            self.diags.error("E0146", decl.name_span, func=decl.name, type=self.fn.return_type)
        if self.assigned is not None and decl.self_convention == "out" and self.self_var is not None:
            self.fn.body.append(self.return_self(decl.name_span))
            return
        if self.assigned is not None:
            ret = self.fn.return_type
            if ret is None:
                self.fn.return_type = T.NONE
            elif ret not in (T.NONE, ERROR):
                self.diags.error("E0209", decl.name_span, func=decl.name, type=ret)


    def refer_local(self, span: Span, var: LocalVar, kind: str = "") -> None:
        kind = kind or ("param" if var.is_param else "local")
        self.fn.references.append(Reference(span, kind, var.name, var.type, var.span))

    def _new_var(self, name: str, t: Type, span: Span, is_param=False, mutable=True) -> LocalVar:
        self.next_id += 1
        var = LocalVar(name, t, span, is_param, mutable, self.next_id)
        self.fn.locals.append(var)
        return var

    # ---- statements ----
    def block(self, stmts, new_scope: bool = False) -> list[TStmt]:
        if new_scope:
            self.scopes.push()
        out: list[TStmt] = []
        for stmt in stmts:
            PROGRESS.span = stmt.span
            result = self.stmt(stmt)
            if result is not None:
                out.append(result)
        if new_scope:
            self.scopes.pop()
        return out

    def stmt(self, s: ast.Stmt) -> TStmt | None:
        method = getattr(self, "stmt_" + type(s).__name__, None)
        if method is None:
            self.diags.error("E0007", s.span, construct=type(s).__name__)
            return None
        return method(s)

    def stmt_Pass(self, s):
        return None

    def stmt_ExprStmt(self, s: ast.ExprStmt):
        e = s.expr
        if isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id == "print" \
                and self.scopes.lookup("print") is None:
            return self.print_call(e)
        if isinstance(e, ast.StrLit):
            return None  # a docstring
        return TExprStmt(s.span, self.value(self.expr(e)))

    def stmt_VarDecl(self, s: ast.VarDecl):
        declared = self.resolve_type(s.annotation) if s.annotation is not None else None
        value = None
        if s.value is not None:
            value = self.empty_container(s.value, declared)
            if value is None:
                value = self.expr(s.value) if not isinstance(s.value, ast.TupleExpr) else self._tuple_error(s.value)
            value = self.coerce(value, declared) if declared is not None else self.value(value)
            if declared is None and value.type == T.STRING_LITERAL:
                value = self.coerce(value, self.string_or(value.type))  # `var s = "text"` holds a String
        existing = self.scopes.lookup(s.name)
        if not s.explicit and isinstance(existing, LocalVar):
            # Python's `x: T = v` on a name that exists is an assignment with a check.
            if declared is not None and declared != existing.type and ERROR not in (declared, existing.type):
                self.diags.error("E0201", s.annotation.span, expected=existing.type, found=declared)
            if value is None:
                return None
            return self._store([existing], [value], s.span)
        if s.explicit and self.scopes.in_current_block(s.name):
            self.diags.error("E0102", s.name_span, name=s.name)
        if declared is None and value is None:
            self.diags.error("E0131", s.name_span, name=s.name)
        vtype = declared if declared is not None else (value.type if value is not None else ERROR)
        if vtype == T.EXCEPTION:
            self.diags.error("E0171", s.name_span, name=s.name)
            vtype = ERROR
        if vtype == T.NONE:
            self.diags.error("E0132", s.name_span, name=s.name)
            vtype = ERROR
        var = self._new_var(s.name, vtype, s.name_span)
        self.scopes.declare(s.name, var, function_wide=not s.explicit)
        self.refer_local(s.name_span, var)
        if value is None:
            return None
        return self._store([var], [value], s.span)

    def empty_container(self, value: ast.Expr, declared: Type | None) -> TExpr | None:
        """`xs: list[int] = []`, `d: Dict[str, int] = {}`: an empty literal takes its element
        types from the declaration."""
        empty = (isinstance(value, ast.ListExpr) and not value.elts and is_stdlib_struct(declared, "List")) or (
            isinstance(value, ast.DictExpr) and not value.keys and is_stdlib_struct(declared, "Dict"))
        if not empty:
            return None
        return self.finish_call(declared.symbol.methods["__init__"], [], value.span, value.span, declared)

    def _tuple_error(self, e: ast.TupleExpr) -> TExpr:
        self.diags.error("E0213", e.span)
        return TConst(e.span, ERROR, None)

    def stmt_Comptime(self, s: ast.Comptime):
        value = self._local_comptime(s) if s.annotation is None else None
        if value is None:
            value = self.comptime_value(ComptimeSymbol(s))
        if self.scopes.in_current_block(s.name):
            self.diags.error("E0102", s.name_span, name=s.name)
        self.scopes.declare(s.name, value if value is not None else TConst(s.span, ERROR, None))
        return None

    def _local_comptime(self, s: ast.Comptime) -> TConst | None:
        """`comptime d = rank - 1 - k` inside a function: it may use the function's (and its
        struct's) compile-time parameters and enclosing `comptime for` indices."""
        from .comptime import CtError

        try:
            v = self.ct_value(s.value)
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
        if isinstance(s.value, ast.TupleExpr) or any(isinstance(t, ast.TupleExpr) for t in s.targets):
            if len(s.targets) != 1 or not isinstance(s.targets[0], ast.TupleExpr):
                self.diags.error("E0213", s.value.span)
                return None
            if not isinstance(s.value, ast.TupleExpr):
                self.diags.error("E0213", s.targets[0].span)
                return None
            targets, values = s.targets[0].elts, s.value.elts
            if len(targets) != len(values):
                self.diags.error("E0212", s.span, found=len(values), expected=len(targets))
                return None
            checked = [self.expr(v) for v in values]
            return self._assign_targets(list(targets), checked, s.span)
        value = self.expr(s.value)
        if len(s.targets) == 1 and isinstance(s.targets[0], ast.Subscript):
            return self.setitem(s.targets[0], value, s.span)
        if len(s.targets) == 1 and isinstance(s.targets[0], ast.Attribute):
            dynamic = self.setattr_call(s.targets[0], value, s.span)
            if dynamic is not None:
                return dynamic
        if len(s.targets) == 1:
            return self._assign_targets([s.targets[0]], [value], s.span)
        # `a = b = v`: v once, then each target in order.
        value = self.value(value)
        return self._assign_targets(list(s.targets), [value] * len(s.targets), s.span)


    def setattr_call(self, target: ast.Attribute, value: TExpr, span: Span):
        """`obj.name = v` of a struct with `__setattr__` and no field `name` (a PythonObject)."""
        found = self.scopes.lookup(target.value.id) if isinstance(target.value, ast.Name) else None
        sym = self.struct_of(found.type) if isinstance(found, LocalVar) else None
        if sym is None or "__setattr__" not in sym.methods or found.type.field_index(target.attr) is not None:
            return None
        call = self.method_call(self.expr(target.value), "__setattr__",
                                [TConst(target.span, T.STRING_LITERAL, target.attr), value], span)
        return TExprStmt(span, call) if call.type != ERROR else None

    def stmt_TBlock(self, s):
        return s

    def stmt_TLaunch(self, s):
        return s


    def _assign_targets(self, targets: list[ast.Expr], values: list[TExpr], span: Span):
        variables, coerced = [], []
        for target, value in zip(targets, values):
            var = self.assign_target(target, value)
            if var is None:
                continue
            variables.append(var)
            coerced.append(self.coerce(value, var.type))  # FieldTarget has .type too
        if not variables:
            return None
        return self._store(variables, coerced, span)

    def assign_target(self, target: ast.Expr, value: TExpr):
        if isinstance(target, ast.Attribute):
            return self.field_target(target)
        if not isinstance(target, ast.Name):
            self.diags.error("E0108", target.span)
            return None
        existing = self.scopes.lookup(target.id)
        if isinstance(existing, TConst):
            self.diags.error("E0107", target.span, name=target.id)
            return None
        if isinstance(existing, LocalVar):
            self.refer_local(target.span, existing)
            if not existing.mutable:
                self.diags.error("E0113", target.span, name=target.id, func=self.fn.name)
                return None
            return existing
        if target.id in self.module.comptimes:
            self.diags.error("E0107", target.span, name=target.id)
            return None
        if target.id in self.module.functions:
            self.diags.error("E0108", target.span)
            return None
        vtype = self.string_or(default_type(value.type))  # `s = "text"` holds a String
        if vtype == T.EXCEPTION:
            self.diags.error("E0171", target.span, name=target.id)
            vtype = ERROR
        if vtype == T.NONE:
            self.diags.error("E0132", target.span, name=target.id)
            vtype = ERROR
        var = self._new_var(target.id, vtype, target.span)
        self.scopes.declare(target.id, var, function_wide=True)
        self.refer_local(target.span, var)
        return var


    def _store(self, variables: list, values: list[TExpr], span: Span) -> TAssign:
        values = self.store_targets(variables, values)
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
        if isinstance(s.target, ast.Subscript):
            return self.aug_subscript(s)
        if isinstance(s.target, ast.Attribute):
            target = self.field_target(s.target)
            current = self.expr(s.target)
            if target is None or current.type == ERROR:
                return None
            result = self.binary(s.op, current, self.expr(s.value), s.span)
            return self._store([target], [self.coerce(result, target.type)], s.span)
        if not isinstance(s.target, ast.Name):
            self.diags.error("E0108", s.target.span)
            return None
        current = self.expr(s.target)
        if not isinstance(current, TLocal):
            if current.type != ERROR:
                self.diags.error("E0107" if isinstance(current, TConst) else "E0108", s.target.span,
                                 name=s.target.id)
            return None
        if not current.var.mutable:
            self.diags.error("E0113", s.target.span, name=s.target.id, func=self.fn.name)
            return None
        if isinstance(current.type, StructType):
            value = self.expr(s.value)
            inplace = self.method_call(current, INPLACE_METHODS[s.op], [value], s.span)
            if inplace is not None:
                return TExprStmt(s.span, inplace)
            result = self.binary(s.op, current, value, s.span)
            return self._store([current.var], [self.coerce(result, current.var.type)], s.span)
        result = self.binary(s.op, current, self.expr(s.value), s.span)
        return self._store([current.var], [self.coerce(result, current.var.type)], s.span)

    def stmt_If(self, s: ast.If):
        test = self.condition(s.test)
        before = self._copy_state()
        body = self.block(s.body, new_scope=True)
        after_body = self.assigned
        self.assigned = before
        orelse = self.block(s.orelse, new_scope=True)
        self.assigned = _merge(after_body, self.assigned)
        return TIf(s.span, test, body, orelse)

    def stmt_While(self, s: ast.While):
        test = self.condition(s.test)
        infinite = isinstance(test, TConst) and bool(test.value)
        before = self._copy_state()
        loop = _Loop(infinite, first_inner=self.next_id + 1)
        self.loops.append(loop)
        body = self.block(s.body, new_scope=True)
        self.loops.pop()
        if infinite:
            state = None
            for b in loop.break_states:
                state = _merge(state, b)
            self.assigned = state
        else:
            self.assigned = before
        return TWhile(s.span, test, body)

    def stmt_For(self, s: ast.For):
        it = s.iter
        if is_vectorize(it, self.scopes, self.module.functions):
            return self.vectorize_loop(s)
        func = it.func.id if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) else None
        if not (func in ("range", "prange") and self.scopes.lookup(func) is None
                and func not in self.module.functions):
            return self.for_iterable(s)
        if it.keywords:
            self.diags.error("E0207", it.keywords[0].span, func=func, name=it.keywords[0].name)
        if not 1 <= len(it.args) <= 3:
            self.diags.error("E0204", it.span, func=func, expected="1 to 3", s="s", found=len(it.args))
            return None
        parallel = func == "prange"
        if parallel and self.fn.is_kernel:
            self.diags.error("E0158", it.span, func=self.fn.name)
            parallel = False
        args = [self.expr(a) for a in it.args]
        itype = self._unify_ints(args, it.span)
        args = [self.coerce(a, itype) for a in args]
        if len(args) == 1:
            start, stop, step = TConst(it.span, itype, 0), args[0], TConst(it.span, itype, 1)
        elif len(args) == 2:
            start, stop, step = args[0], args[1], TConst(it.span, itype, 1)
        else:
            start, stop, step = args
        if not isinstance(s.target, ast.Name):
            self.diags.error("E0007", s.target.span, construct="unpacking in a `for` target")
            return None
        var = self.private_loop_var(s.target, itype) or self.assign_target(s.target, TConst(s.target.span, itype, 0))
        if var is None:
            return None
        if var.type not in (itype, ERROR) and itype != ERROR:
            self.diags.error("E0201", s.target.span, expected=var.type, found=itype)
        loop_state = _Loop(False, parallel, first_inner=self.next_id + 1)  # ids of the body's variables
        body = self.loop_body(var, s.body, loop_state)
        if self.assigned is not None and _nonempty_range(start, stop, step):
            self.assigned.add(var)  # the body ran at least once, so the loop variable is bound
        if self.assigned is not None:
            self.assigned -= loop_state.shadowed  # their value after a prange is no iteration's in particular
        first_inner = loop_state.first_inner
        loop = TForRange(s.span, var, start, stop, step, body, parallel)
        if parallel:
            loop.captures, loop.reductions = analyze_prange(body, var, first_inner, self.diags)
        return loop

    def private_loop_var(self, target, itype) -> LocalVar | None:
        """Inside a prange body, `for j in range(...)` over a name bound before the prange gets
        a variable of its own (each iteration has its own j); the outer j is then unbound."""
        loop = next((l for l in reversed(self.loops) if l.parallel), None)
        existing = self.scopes.lookup(target.id) if loop is not None and isinstance(target, ast.Name) else None
        if not isinstance(existing, LocalVar) or existing.id >= loop.first_inner or existing.type != itype:
            return None
        loop.shadowed.add(existing)
        var = self._new_var(target.id, itype, target.span)
        self.scopes.declare(target.id, var)
        self.refer_local(target.span, var)
        return var

    def loop_body(self, var: LocalVar, stmts, loop: "_Loop | None" = None) -> list[TStmt]:
        """A for loop's body: the loop variable is bound inside; nothing it assigns is certain after."""
        before = self._copy_state()
        if self.assigned is not None:
            self.assigned.add(var)
        self.loops.append(loop or _Loop(False, first_inner=self.next_id + 1))
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
            self.diags.error("E0216", (bad[0] if bad else args[0]).span, type=(bad[0] if bad else args[0]).type)
            return ERROR
        return itype

    def stmt_Break(self, s):
        if not self.loops:
            self.diags.error("E0211", s.span, what="break")
            return None
        if self.loops[-1].parallel:
            self.diags.error("E0155", s.span, what="break")
            return None
        if self.assigned is not None:
            self.loops[-1].break_states.append(set(self.assigned))
        self.assigned = None
        return TBreak(s.span)

    def stmt_Continue(self, s):
        if not self.loops:
            self.diags.error("E0211", s.span, what="continue")
            return None
        self.assigned = None
        return TContinue(s.span)

    def stmt_Return(self, s: ast.Return):
        if any(loop.parallel for loop in self.loops):
            self.diags.error("E0155", s.span, what="return")
        if self.fn.decl.self_convention == "out" and self.self_var is not None:
            if s.value is not None:
                self.diags.error("E0210", s.value.span)
            result = self.return_self(s.span)
            self.assigned = None
            return result
        value = None
        if s.value is not None:
            value = self.expr(s.value) if not isinstance(s.value, ast.TupleExpr) else self._tuple_error(s.value)
        expected = self.fn.return_type
        if expected is None and self.infer_return:
            self.fn.return_type = default_type(value.type) if value is not None else T.NONE
            expected = self.fn.return_type
        if expected is None:
            expected = T.NONE
        if value is None:
            if expected not in (T.NONE, ERROR):
                self.diags.error("E0201", s.span, expected=expected, found="None")
        elif expected == T.NONE:
            if value.type != ERROR:
                self.diags.error("E0210", s.value.span)
            value = None
        else:
            value = self.returned(self.coerce(value, expected))
        self.assigned = None
        return TReturn(s.span, value)

    def stmt_Assert(self, s: ast.Assert):
        test = self.condition(s.test)
        message = None
        if s.msg is not None:
            msg = self.expr(s.msg)
            if isinstance(msg, TConst) and isinstance(msg.value, str):
                message = msg.value
            elif msg.type != ERROR:
                self.diags.error("E0217", s.msg.span, name="assert message")
        return TAssert(s.span, test, message)


    def stmt_ComptimeIf(self, s: ast.ComptimeIf):
        from .comptime import CtError

        try:  # types, DTypes and parameters compare here: `comptime if T == Float64`
            value = bool(self.ct_value(s.test))
        except CtError:
            test = self.condition(s.test)
            if test.type == ERROR:
                return None
            if not isinstance(test, TConst):
                self.diags.error("E0143", s.test.span)
                return None
            value = bool(test.value)
        chosen = s.body if value else s.orelse
        return TBlock(s.span, self.block(chosen))

    def stmt_ComptimeFor(self, s: ast.ComptimeFor):
        from .comptime import MAX_UNROLLED_COPIES, MAX_UNROLLED_NODES, CtError, current_budget

        it = s.iter
        if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range"
                and 1 <= len(it.args) <= 3 and isinstance(s.target, ast.Name)):
            self.diags.error("E0144", it.span, detail="one name, iterating over range(...)")
            return None
        try:
            values = [self.ct_value(a) for a in it.args]
        except CtError as exc:
            self.diags.error("E0144", exc.span, detail=exc.detail)
            return None
        if any(isinstance(v, bool) or not isinstance(v, int) for v in values):
            self.diags.error("E0144", it.span, detail="its arguments must be Ints")
            return None
        try:
            indices = range(*values)
        except ValueError as exc:
            self.diags.error("E0144", it.span, detail=str(exc))
            return None
        if len(indices) > MAX_UNROLL:
            self.diags.error("E0144", it.span, detail=f"at most {MAX_UNROLL} iterations are unrolled")
            return None
        if not current_budget().unroll(len(indices), s.body):  # the program's total, nested loops included
            self.diags.error("E0174", it.span, copies=MAX_UNROLLED_COPIES, nodes=MAX_UNROLLED_NODES)
            return None
        body: list = []
        for index in indices:
            self.scopes.push()
            self.scopes.declare(s.target.id, TConst(s.target.span, T.INT, index))
            body.extend(self.block(s.body))
            self.scopes.pop()
        return TBlock(s.span, body)

    def stmt_FnDef(self, s: ast.FnDef):
        self.diags.error("E0007", s.name_span, construct="a nested function")
        return None

    def stmt_Launch(self, s: ast.Launch):
        return self.launch(s)

    def _copy_state(self):
        return set(self.assigned) if self.assigned is not None else None

    # ---- print ----
    def print_call(self, e: ast.Call) -> TPrint | None:
        sep, end = " ", "\n"
        for kw in e.keywords:
            if kw.name not in ("sep", "end", "flush"):
                self.diags.error("E0207", kw.span, func="print", name=kw.name)
                continue
            v = self.expr(kw.value)
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
                self.diags.error("E0217", kw.value.span, name=kw.name)
        args = []
        for a in e.args:
            v = self.value(self.expr(a))
            if self.struct_of(v.type) is not None and not is_string(v.type) and not printable_container(v.type) \
                    and "__str__" in self.struct_of(v.type).methods:
                v = self.method_call(v, "__str__", [], a.span)  # print shows str(x), as Python's
            if not (isinstance(v.type, (ScalarType, T.SIMDType)) or printable_container(v.type) or is_string(v.type) or
                    v.type in (T.STRING_LITERAL, ERROR, T.NONE, T.EXCEPTION)):
                self.diags.error("E0215", a.span, type=v.type)
            args.append(v)
        return TPrint(e.span, args, sep, end)

    # ---- expressions ----
    def expr(self, e: ast.Expr) -> TExpr:
        method = getattr(self, "expr_" + type(e).__name__)
        return method(e)

    def value(self, e: TExpr) -> TExpr:
        """An expression whose value is needed now: untyped constants take their default type."""
        if isinstance(e.type, LiteralType):
            return self.coerce(e, default_type(e.type))
        return e

    def expr_IntLit(self, e):
        return TConst(e.span, T.INT_LITERAL, e.value)

    def expr_FloatLit(self, e):
        return TConst(e.span, T.FLOAT_LITERAL, e.value)

    def expr_BoolLit(self, e):
        return TConst(e.span, T.BOOL, e.value)

    def expr_StrLit(self, e):
        return TConst(e.span, T.STRING_LITERAL, e.value)

    def expr_NoneLit(self, e):
        return TConst(e.span, T.NONE, None)

    def expr_EllipsisLit(self, e):
        self.diags.error("E0007", e.span, construct="`...` outside a trait")
        return TConst(e.span, ERROR, None)

    def expr_ErrorExpr(self, e):
        return TConst(e.span, ERROR, None)

    def string_type(self) -> StructType | None:
        """The stdlib's String, where this module uses string literals as Python's str."""
        from .module import STRING_LITERAL

        sym = self.module.structs.get(STRING_LITERAL)
        return sym.type if sym is not None else None

    def string_or(self, t: Type) -> Type:
        """A string literal's type where a value is kept (in a list, a dict): String, as Python's str."""
        return (self.string_type() or t) if t == T.STRING_LITERAL else t

    def expr_TupleExpr(self, e):
        return self._tuple_error(e)

    def expr_ListExpr(self, e: ast.ListExpr) -> TExpr:
        """`[a, b, c]`: a List of the elements' one type (untyped constants adapt, as in `var`)."""
        from .module import LIST_LITERAL, struct_instance

        elts = [self.expr(x) for x in e.elts]
        if any(x.type == ERROR for x in elts):
            return TConst(e.span, ERROR, None)
        if not elts:
            self.diags.error("E0007", e.span, construct="an empty list literal (write `List[Int]()`, with the "
                                                        "element type)")
            return TConst(e.span, ERROR, None)
        elem = self.string_or(_element_type(elts))
        elts = [self.consume(self.coerce(x, elem), "put in a list") for x in elts]
        sym = self.module.structs.get(LIST_LITERAL)
        if any(x.type == ERROR for x in elts) or sym is None:
            return TConst(e.span, ERROR, None)
        list_type = struct_instance(sym, (elem,), e.span, self.module, self.diags, self.module.lookup_constant)
        if list_type == ERROR:
            return TConst(e.span, ERROR, None)
        self.need_drop(list_type, e.span)
        return TListLit(e.span, list_type, elts)

    def expr_DictExpr(self, e: ast.DictExpr) -> TExpr:
        """`{k: v, ...}`: a Dict built by inserting the pairs in order (a repeated key keeps its
        first place and its last value, as in Python)."""
        from .module import DICT_LITERAL, struct_instance

        keys, values = [self.expr(k) for k in e.keys], [self.expr(v) for v in e.values]
        if any(x.type == ERROR for x in keys + values):
            return TConst(e.span, ERROR, None)
        if not keys:
            self.diags.error("E0007", e.span, construct="an empty dict literal (write `Dict[Int, Int]()`, with the "
                                                        "key and value types)")
            return TConst(e.span, ERROR, None)
        key_type, value_type = self.string_or(_element_type(keys)), self.string_or(_element_type(values))
        keys = [self.consume(self.coerce(k, key_type), "put in a dict") for k in keys]
        values = [self.consume(self.coerce(v, value_type), "put in a dict") for v in values]
        sym = self.module.structs.get(DICT_LITERAL)
        if any(x.type == ERROR for x in keys + values) or sym is None:
            return TConst(e.span, ERROR, None)
        dict_type = struct_instance(sym, (key_type, value_type), e.span, self.module, self.diags,
                                    self.module.lookup_constant)
        if dict_type == ERROR:
            return TConst(e.span, ERROR, None)
        init = self.finish_call(dict_type.symbol.methods["__init__"], [], e.span, e.span, dict_type)
        setitem = self.instantiate(dict_type.symbol.methods["__setitem__"], (dict_type, key_type, value_type),
                                   e.span, dict_type, ())
        if init.type == ERROR or setitem is None:
            return TConst(e.span, ERROR, None)
        self.fn.callees.append((setitem, e.span))
        self.need_drop(dict_type, e.span)
        return TDictLit(e.span, dict_type, init, setitem, keys, values)

    def expr_Name(self, e: ast.Name) -> TExpr:
        found = self.scopes.lookup(e.id)
        if isinstance(found, LocalVar):
            self.refer_local(e.span, found)
            if self.assigned is not None and found not in self.assigned and found not in self.reported_unbound:
                self.reported_unbound.add(found)
                if not self.moved_error(found, e.span):
                    self.diags.error("E0103", e.span, name=e.id)
            return TLocal(e.span, found.type, found)
        if isinstance(found, TConst):
            if isinstance(found.value, _TypeParam):
                self.diags.error("E0220", e.span, name=e.id)
            return TConst(e.span, found.type, found.value)
        if e.id in self.module.comptimes:
            sym = self.module.comptimes[e.id]
            value = self.comptime_value(sym)
            self.fn.references.append(Reference(e.span, "comptime", e.id, value.type if value else None,
                                                sym.decl.name_span, f"= {value.value!r}" if value else ""))
            return TConst(e.span, value.type, value.value) if value is not None else TConst(e.span, ERROR, None)
        if e.id == "WARP_SIZE":
            from .gpu import WARP_SIZE

            return TConst(e.span, T.INT, WARP_SIZE)
        if e.id in GPU_NAMES:
            self.diags.error("E0007", e.span, construct=f"`{e.id}` on its own (use `{e.id}.x`, or call it)")
            return TConst(e.span, ERROR, None)
        if e.id in self.module.imported:
            module, name = self.module.imported[e.id]
            from .mathlib import CONSTANTS

            if name in CONSTANTS:
                return self.math_constant(name, e.span)
            self.diags.error("E0007", e.span, construct="using a function as a value")
            return TConst(e.span, ERROR, None)
        if e.id in self.module.modules or any(m.split(".")[0] == e.id for m in self.module.px_modules):
            self.diags.error("E0007", e.span, construct="using a module as a value")
            return TConst(e.span, ERROR, None)
        if e.id in self.module.functions or e.id in BUILTIN_FUNCTIONS:
            self.diags.error("E0007", e.span, construct="using a function as a value")
            return TConst(e.span, ERROR, None)
        if e.id in T.TYPE_NAMES or e.id in self.module.structs:
            self.diags.error("E0220", e.span, name=e.id)
            return TConst(e.span, ERROR, None)
        self.unknown_name(e.id, e.span)
        return TConst(e.span, ERROR, None)

    def unknown_name(self, name: str, span: Span) -> None:
        if name in self.module.unresolved:
            return  # its import failed, and that was reported
        if name in FUTURE_NAMES:
            self.diags.error("E0007", span, construct=f"`{name}`")
            return
        candidates = (self.scopes.all_names() + list(self.module.functions) + list(self.module.comptimes)
                      + list(self.module.structs)
                      + sorted(BUILTIN_FUNCTIONS) + list(T.TYPE_NAMES))
        close = difflib.get_close_matches(name, candidates, n=1)
        notes = (Note(f"did you mean `{close[0]}`?"),) if close else ()
        self.diags.error("E0101", span, notes, name=name)

    def expr_Attribute(self, e: ast.Attribute):
        from .gpu import INDEX_NAMES

        if isinstance(e.value, ast.Name) and e.value.id in INDEX_NAMES and self.scopes.lookup(e.value.id) is None:
            return self.gpu_index(e)
        other = self.px_module_of(e.value)
        if other is not None:
            return self.qualified_value(other, e)
        module = self.module_of(e.value)
        if module is not None:
            from .mathlib import CONSTANTS, MODULES

            if e.attr in CONSTANTS:
                return self.math_constant(e.attr, e.span)
            if e.attr in MODULES[module]:
                self.diags.error("E0007", e.span, construct="using a function as a value")
            else:
                self.diags.error("E0130", e.span, module=module, name=e.attr)
            return TConst(e.span, ERROR, None)
        if isinstance(e.value, ast.Name) and e.value.id == "DType" and self.scopes.lookup("DType") is None:
            if e.attr in T.DTYPES:
                return TConst(e.span, T.DTYPE, T.DTYPES[e.attr])
            self.diags.error("E0223", e.span, name="DType", attr=e.attr)
            return TConst(e.span, ERROR, None)
        if isinstance(e.value, ast.Name) and e.value.id in FUTURE_NAMES and self.scopes.lookup(e.value.id) is None:
            self.diags.error("E0007", e.span, construct=f"`{e.value.id}`")
            return TConst(e.span, ERROR, None)
        if isinstance(e.value, ast.Name) and e.value.id == "self" and self.field_vars \
                and self.scopes.lookup("self") is self.self_var and self.assigned is not None \
                and self.self_var not in self.assigned:
            # Inside `__init__(out self)`: a field may be read once it is initialized.
            fvar = self.field_vars.get(e.attr)
            if fvar is not None and fvar not in self.assigned:
                self.diags.error("E0117", e.span, field=e.attr, struct=self.fn.owner)
            base = TLocal(e.value.span, self.self_var.type, self.self_var)
        else:
            base = self.expr(e.value)
        if base.type == ERROR:
            return TConst(e.span, ERROR, None)
        if self.struct_of(base.type) is not None:
            return self.field_read(base, e.attr, e.span)
        self.diags.error("E0223", e.span, name=base.type, attr=e.attr)
        return TConst(e.span, ERROR, None)

    def expr_Subscript(self, e: ast.Subscript):
        if isinstance(e.value, ast.Name) and e.value.id in FUTURE_NAMES and self.scopes.lookup(e.value.id) is None:
            self.diags.error("E0007", e.span, construct=f"`{e.value.id}[...]`")
            return TConst(e.span, ERROR, None)
        base = self.expr(e.value)
        if base.type == ERROR:
            return base
        if isinstance(base.type, T.SIMDType):
            return self.simd_lane(base, e.items, e.span)
        if isinstance(base.type, T.PtrType):
            index = self.ptr_index(base, e.items, e.span)
            if index is None:
                return TConst(e.span, ERROR, None)
            return TPtrOp(e.span, base.type.pointee, "load", [base, index])
        if self.struct_of(base.type) is not None:
            index = [self.expr(i) for i in e.items if isinstance(i, ast.Expr)]
            result = self.method_call(base, "__getitem__", index, e.span)
            if result is not None:
                return result
            self.diags.error("E0118", e.span, struct=base.type, name="__getitem__")
            return TConst(e.span, ERROR, None)
        self.diags.error("E0007", e.span, construct="indexing")
        return TConst(e.span, ERROR, None)

    def expr_Unary(self, e: ast.Unary) -> TExpr:
        operand = self.expr(e.operand)
        if e.op == "not":
            test = self.truth(operand, e.operand.span)
            if isinstance(test, TConst) and test.type != ERROR:
                return TConst(e.span, T.BOOL, not test.value)
            return TUnary(e.span, T.BOOL, "not", test)
        t = operand.type
        if t == ERROR:
            return operand
        if isinstance(t, T.SIMDType):
            ok = (e.op == "~" and (t.elem.is_int or t.elem.is_bool)) or (e.op in "-+" and t.elem.is_numeric)
            if not ok:
                self.diags.error("E0203", e.span, op=e.op, operand=t)
                return TConst(e.span, ERROR, None)
            return operand if e.op == "+" else TUnary(e.span, t, e.op, operand)
        if isinstance(t, StructType):
            result = self.method_call(operand, UNARY_METHODS[e.op], [], e.span)
            if result is None:
                self.diags.error("E0203", e.span, op=e.op, operand=t)
                return TConst(e.span, ERROR, None)
            return result
        if t == T.BOOL:  # Python: -True == -1, ~True == -2
            operand, t = self.convert(operand, T.INT, e.span), T.INT
        ok = (isinstance(t, LiteralType) and (e.op != "~" or t.kind == "int")) or (
            isinstance(t, ScalarType) and t.is_numeric and (e.op != "~" or t.is_int))
        if not ok:
            self.diags.error("E0203", e.span, op=e.op, operand=t)
            return TConst(e.span, ERROR, None)
        if isinstance(operand, TConst):
            try:
                return TConst(e.span, t, fold.unary(e.op, operand.value, t))
            except fold.NoFold:
                pass
        if e.op == "+":
            return operand
        return TUnary(e.span, t, e.op, operand)

    def expr_Binary(self, e: ast.Binary) -> TExpr:
        return self.binary(e.op, self.expr(e.left), self.expr(e.right), e.span)

    def binary(self, op: str, left: TExpr, right: TExpr, span: Span) -> TExpr:
        if ERROR in (left.type, right.type):
            return TConst(span, ERROR, None)
        if isinstance(left.type, T.SIMDType) or isinstance(right.type, T.SIMDType):
            return self.simd_binary(op, left, right, span)
        if isinstance(left.type, T.PtrType) or isinstance(right.type, T.PtrType):
            if isinstance(left.type, T.PtrType) and op in ("+", "-") and not isinstance(right.type, T.PtrType):
                return self.ptr_offset(left, right, span, negate=op == "-")
            self.diags.error("E0202", span, op=op, left=left.type, right=right.type)
            return TConst(span, ERROR, None)
        if left.type == T.STRING_LITERAL and is_string(right.type):  # "a" + s
            left = self.coerce(left, right.type)
        elif left.type == T.STRING_LITERAL and op == "*" and self.string_type() is not None:  # "-" * n
            left = self.coerce(left, self.string_type())
        if isinstance(left.type, StructType) or isinstance(right.type, StructType):
            result = self.method_call(left, BINARY_METHODS[op], [right], span) \
                if isinstance(left.type, StructType) else None
            if result is None:
                self.diags.error("E0202", span, op=op, left=left.type, right=right.type)
                return TConst(span, ERROR, None)
            return result
        if op == "@":
            self.diags.error("E0202", span, op=op, left=left.type, right=right.type)
            return TConst(span, ERROR, None)
        if left.type == right.type == T.STRING_LITERAL and op == "+" and isinstance(left, TConst) \
                and isinstance(right, TConst):
            return TConst(span, T.STRING_LITERAL, left.value + right.value)
        if op in BIT_OPS and left.type == right.type == T.BOOL and op in ("&", "|", "^"):
            return self._fold_or_build(op, left, right, T.BOOL, T.BOOL, span)
        operand_type = self.arith_type(op, left, right, span)
        if operand_type is None:
            return TConst(span, ERROR, None)
        left = self.promote(left, operand_type)
        right = self.promote(right, operand_type)
        if ERROR in (left.type, right.type):
            return TConst(span, ERROR, None)
        result_type = operand_type
        if op == "/" and not _is_float(operand_type):
            # Python's true division of ints gives a float.
            result_type = T.FLOAT_LITERAL if isinstance(operand_type, LiteralType) else T.FLOAT64
            if isinstance(left, TConst) and isinstance(right, TConst) and right.value != 0:
                return TConst(span, result_type, fold.normalize(left.value / right.value, result_type))
            left = self.coerce_or_convert(left, default_type(result_type))
            right = self.coerce_or_convert(right, default_type(result_type))
            return TBinary(span, default_type(result_type), op, left, right, ints=True)
        return self._fold_or_build(op, left, right, operand_type, result_type, span)

    def _fold_or_build(self, op, left, right, operand_type, result_type, span) -> TExpr:
        if isinstance(left, TConst) and isinstance(right, TConst):
            try:
                return TConst(span, result_type, fold.binary(op, left.value, right.value, operand_type))
            except fold.TooBig:  # exact only at compile time, and too big for that: never wrap it
                self.diags.error("E0008", span, limit=f"{fold.MAX_FOLD_BITS} bits")
                return TConst(span, ERROR, None)
            except fold.NoFold:
                pass
        if isinstance(operand_type, LiteralType):
            # Cannot fold (e.g. 1 // 0): it happens at run time, at the default type.
            concrete = default_type(operand_type)
            return TBinary(span, concrete, op, self.coerce(left, concrete), self.coerce(right, concrete))
        return TBinary(span, result_type, op, left, right)

    def arith_type(self, op: str, left: TExpr, right: TExpr, span: Span) -> Type | None:
        """The type both operands of an arithmetic/bitwise operator are brought to."""
        lt, rt = left.type, right.type
        # Python computes with a Bool as the int 0 or 1.
        if lt == T.BOOL:
            lt = rt if _is_num(rt) else T.INT
        if rt == T.BOOL:
            rt = lt if _is_num(lt) else T.INT
        result = None
        if isinstance(lt, LiteralType) and isinstance(rt, LiteralType):
            result = T.FLOAT_LITERAL if "float" in (lt.kind, rt.kind) else T.INT_LITERAL
        elif isinstance(lt, LiteralType) and _is_num(rt):
            result = rt if (lt.kind == "int" or rt.is_float) else T.FLOAT64
        elif isinstance(rt, LiteralType) and _is_num(lt):
            result = lt if (rt.kind == "int" or lt.is_float) else T.FLOAT64
        elif _is_num(lt) and _is_num(rt):
            if lt == rt:
                result = lt
            elif lt.is_float and rt.is_int:
                result = lt
            elif rt.is_float and lt.is_int:
                result = rt
        if result is None or (op in BIT_OPS and _is_float(result)):
            notes = ()
            if _is_num(lt) and _is_num(rt):
                notes = (Note(f"convert one side explicitly, e.g. `{lt}(...)` or `{rt}(...)`"),)
            self.diags.error("E0202", span, notes, op=op, left=left.type, right=right.type)
            return None
        return result

    def expr_Compare(self, e: ast.Compare) -> TExpr:
        operands = [self.expr(e.left)] + [self.expr(c) for c in e.comparators]
        if any(isinstance(o.type, StructType) for o in operands):
            return self.struct_compare(e, operands)
        if any(isinstance(o.type, T.PtrType) for o in operands):
            if len(e.ops) == 1 and e.ops[0] in ("==", "!=") and operands[0].type == operands[1].type:
                return TCompare(e.span, T.BOOL, operands, list(e.ops), [operands[0].type])
            if all(o.type != ERROR for o in operands):
                self.diags.error("E0202", e.span, op=e.ops[0], left=operands[0].type, right=operands[-1].type)
            return TConst(e.span, ERROR, None)
        if any(isinstance(o.type, T.SIMDType) for o in operands):
            if any(o.type == ERROR for o in operands):
                return TConst(e.span, ERROR, None)
            return self.simd_compare(e, operands)
        link_types: list[Type] = []
        for i, op in enumerate(e.ops):
            a, b = operands[i], operands[i + 1]
            if op not in CMP_OPS:
                self.diags.error("E0007", e.span, construct=f"the `{op}` operator")
                return TConst(e.span, ERROR, None)
            if ERROR in (a.type, b.type):
                return TConst(e.span, ERROR, None)
            if a.type == b.type and a.type in (T.BOOL, T.STRING_LITERAL) and (
                    a.type == T.BOOL or op in ("==", "!=") or (isinstance(a, TConst) and isinstance(b, TConst))):
                if a.type == T.STRING_LITERAL and not (isinstance(a, TConst) and isinstance(b, TConst)):
                    self.diags.error("E0202", e.span, op=op, left=a.type, right=b.type)
                    return TConst(e.span, ERROR, None)
                link_types.append(a.type)
                continue
            t = self.arith_type(op, a, b, e.span)
            if t is None:
                return TConst(e.span, ERROR, None)
            link_types.append(t)
        if all(isinstance(o, TConst) for o in operands):
            result = True
            for i, op in enumerate(e.ops):
                result = result and fold.compare(op, operands[i].value, operands[i + 1].value)
            return TConst(e.span, T.BOOL, result)
        link_types = [default_type(t) for t in link_types]
        return TCompare(e.span, T.BOOL, operands, list(e.ops), link_types)


    def expr_BoolOp(self, e: ast.BoolOp) -> TExpr:
        values = [self.expr(v) for v in e.values]
        if any(v.type == ERROR for v in values):
            return TConst(e.span, ERROR, None)
        types = {v.type for v in values}
        if len(types) > 1:
            concrete = {t for t in types if not isinstance(t, LiteralType)}
            target = concrete.pop() if len(concrete) == 1 else None
            if target is None and types <= {T.INT_LITERAL, T.FLOAT_LITERAL}:
                target = T.FLOAT_LITERAL
            if target is None:
                self.diags.error("E0208", e.span, left=values[0].type, right=values[-1].type)
                return TConst(e.span, ERROR, None)
            values = [self.coerce(v, target) for v in values]
        t = values[0].type
        for v in values:
            self.truth(v, v.span)
        if isinstance(t, LiteralType):
            values = [self.value(v) for v in values]
            t = values[0].type
        return TBoolOp(e.span, t, e.op, values)

    def expr_IfExp(self, e: ast.IfExp) -> TExpr:
        test = self.condition(e.test)
        body, orelse = self.expr(e.body), self.expr(e.orelse)
        if ERROR in (body.type, orelse.type):
            return TConst(e.span, ERROR, None)
        if self.owning(body.type):
            self.diags.error("E0007", e.span, construct=f"a conditional expression of `{body.type}` (a type with "
                                                        "a destructor)")
            return TConst(e.span, ERROR, None)
        t = self.unify(body, orelse, e.span)
        if t is None:
            return TConst(e.span, ERROR, None)
        return TIfExp(e.span, t, test, self.coerce(body, t), self.coerce(orelse, t))

    def unify(self, a: TExpr, b: TExpr, span: Span) -> Type | None:
        if a.type == b.type:
            return default_type(a.type)
        if isinstance(a.type, LiteralType) and isinstance(b.type, LiteralType):
            return T.FLOAT64
        if isinstance(a.type, LiteralType) and self._accepts(b.type, a):
            return b.type
        if isinstance(b.type, LiteralType) and self._accepts(a.type, b):
            return a.type
        self.diags.error("E0208", span, left=a.type, right=b.type)
        return None

    def _accepts(self, target: Type, literal: TExpr) -> bool:
        return isinstance(target, ScalarType) and target.is_numeric and (
            literal.type == T.INT_LITERAL or target.is_float)

    # ---- calls ----
    def expr_Call(self, e: ast.Call) -> TExpr:
        func = e.func
        if isinstance(func, ast.Subscript):
            return self.parameterized_call(func, e)
        if isinstance(func, ast.Attribute):
            return self.attribute_call(func, e)
        if not isinstance(func, ast.Name):
            self.expr(func)
            self.diags.error("E0007", func.span, construct="calling anything but a function name")
            return TConst(e.span, ERROR, None)
        name = func.id
        shadow = self.scopes.lookup(name)
        if isinstance(shadow, LocalVar) and self.struct_of(shadow.type) is not None:
            return self.call_value(self.expr(func), e)  # a struct value with `__call__`
        bound = self.ct_env.get(name) if isinstance(shadow, TConst) and isinstance(shadow.value, _TypeParam) else None
        if isinstance(bound, (ScalarType, StructType)):  # `T()` or `T(x)` in a generic: what T is, made
            if isinstance(bound, ScalarType):
                return self.conversion(bound.name, e)
            return self.struct_call(self.struct_of(bound), e, bound)
        if shadow is not None:
            self.diags.error("E0109", func.span, name=name)
            return TConst(e.span, ERROR, None)
        if name in self.module.functions:
            return self.user_call(self.module.functions[name], e)
        if name in self.module.structs:
            return self.struct_call(self.module.structs[name], e)
        if name in self.module.imported:
            return self.math_call(self.module.imported[name][1], e)
        if name in GPU_NAMES and name not in ("WARP_SIZE",):
            return self.gpu_call(name, e)
        if name in self.module.comptimes:
            self.diags.error("E0109", func.span, name=name)
            return TConst(e.span, ERROR, None)
        if name in T.TYPE_NAMES or name in ("int", "float", "bool"):
            return self.conversion(name, e)
        if name in ("abs", "min", "max"):
            return self.math_builtin(name, e)
        if name == "normalize_index":
            return self.normalize_index(e)
        if name == "hash":
            return self.hash_call(e)
        if name == "print":
            self.diags.error("E0007", e.span, construct="`print(...)` inside an expression")
            return TConst(e.span, ERROR, None)
        if name in ("range", "prange"):
            self.diags.error("E0007", e.span, construct=f"`{name}` outside a `for` loop")
            return TConst(e.span, ERROR, None)
        if name == "len":
            args = [self.expr(a) for a in e.args]
            if len(args) == 1 and self.struct_of(args[0].type) is not None:
                result = self.method_call(args[0], "__len__", [], e.span)
                if result is not None:
                    return result
            if len(args) == 1 and args[0].type == ERROR:
                return args[0]
            if len(args) == 1 and isinstance(args[0], TConst) and args[0].type == T.STRING_LITERAL:
                return TConst(e.span, T.INT, len(args[0].value))  # code points, as Python counts
            if len(args) == 1 and isinstance(args[0].type, T.SIMDType):
                return TConst(e.span, T.INT, args[0].type.width)  # its lanes (of `*xs`: how many were passed)
            self.diags.error("E0007", e.span, construct="`len` of anything but a struct with `__len__` or a SIMD")
            return TConst(e.span, ERROR, None)
        self.unknown_name(name, func.span)
        for a in e.args:
            self.expr(a)
        return TConst(e.span, ERROR, None)


    # ---- structs ----


    # ---- conversions ----
    def coerce(self, e: TExpr, target: Type | None) -> TExpr:
        """Implicit conversion: only an untyped constant changes type, and only where it fits."""
        if target is None or e.type == target or ERROR in (e.type, target):
            return e
        if e.type == T.STRING_LITERAL and is_string(target):  # Python's str: a String of its text
            return self.finish_call(self.struct_of(target).methods["__init__"], [e], e.span, e.span, target)
        if is_stdlib_struct(target, "PythonObject") and (isinstance(e.type, (ScalarType, LiteralType))
                                                         or is_string(e.type) or e.type == T.STRING_LITERAL):
            # a pyx value where Python's is wanted (an argument of a call, an index, an operand)
            return self.finish_call(self.struct_of(target).methods["__init__"], [self.value(e)], e.span, e.span,
                                    target)
        if isinstance(e.type, LiteralType) and isinstance(e, TConst):
            if isinstance(target, LiteralType):
                return TConst(e.span, target, float(e.value) if target.kind == "float" else e.value)
            if isinstance(target, T.SIMDType) and target.elem.is_numeric:
                return self.broadcast(e, target)
            if isinstance(target, ScalarType) and target.is_numeric:
                if e.type.kind == "int" and target.is_int:
                    if not target.min <= e.value <= target.max:
                        self.diags.error("E0206", e.span, value=e.value, type=target)
                        return TConst(e.span, ERROR, None)
                    return TConst(e.span, target, e.value)
                if target.is_float:
                    return TConst(e.span, target, fold.round_float(float(e.value), target))
        if isinstance(e.type, LiteralType) and not isinstance(e, TConst) and isinstance(target, ScalarType):
            # An untyped expression that could not fold (`1 // 0`) already has its default type.
            pass
        self.diags.error("E0201", e.span, expected=target, found=e.type)
        return TConst(e.span, ERROR, None)

    def promote(self, e: TExpr, target: Type) -> TExpr:
        """Bring an operand to its operator's type: constants adapt, ints and Bools widen to floats."""
        if e.type == target or isinstance(e.type, LiteralType) or not isinstance(target, ScalarType):
            return self.coerce(e, target)
        return self.convert(e, target, e.span)

    def coerce_or_convert(self, e: TExpr, target: ScalarType) -> TExpr:
        """Python's numeric promotion inside one operator: int operands become float."""
        if isinstance(e.type, LiteralType):
            return self.coerce(e, target)
        return self.convert(e, target, e.span)

    def condition(self, e: ast.Expr) -> TExpr:
        return self.truth(self.expr(e), e.span)

    def truth(self, v: TExpr, span: Span) -> TExpr:
        """Python truthiness as a Bool: nonzero numbers, non-empty strings."""
        if v.type in (T.BOOL, ERROR):
            return v
        if isinstance(v.type, T.PtrType):
            return TBuiltin(span, T.BOOL, "truth", [v])
        if isinstance(v.type, StructType):
            result = self.method_call(v, "__bool__", [], span)
            if result is None:
                result = self.method_call(v, "__len__", [], span)
            if result is not None:
                return self.truth(result, span)
        if isinstance(v, TConst) and v.type in (T.INT_LITERAL, T.FLOAT_LITERAL, T.STRING_LITERAL, T.NONE):
            return TConst(span, T.BOOL, bool(v.value))
        if isinstance(v.type, ScalarType):
            if isinstance(v, TConst):
                return TConst(span, T.BOOL, bool(v.value))
            return TBuiltin(span, T.BOOL, "truth", [v])
        self.diags.error("E0218", span, type=v.type)
        return TConst(span, ERROR, None)




def _element_type(values: list[TExpr]) -> Type:
    """The one type of a literal's elements: the first typed one's, else Int (Float64 if any
    constant is a float)."""
    typed = [x.type for x in values if not isinstance(x.type, LiteralType)]
    if typed:
        return typed[0]
    if any(x.type == T.FLOAT_LITERAL for x in values):
        return T.FLOAT64
    return default_type(values[0].type)


def printable_container(t: Type) -> bool:
    """The stdlib's List and Dict of printable things: `print` shows them as Python does."""
    if not (is_stdlib_struct(t, "List") or is_stdlib_struct(t, "Dict")):
        return False
    elements = [t.ct_env.get("T")] if t.base == "List" else [t.ct_env.get("K"), t.ct_env.get("V")]
    return all(isinstance(e, (ScalarType, T.SIMDType)) or printable_container(e) or is_string(e) for e in elements)
