"""Lark parse tree -> pyx AST, without recursion (deep input must not overflow the stack)."""
from __future__ import annotations

import ast as pyast
import itertools
import re
import unicodedata
import warnings
from dataclasses import dataclass, replace

from lark import Token, Transformer_NonRecursive, Tree, v_args

from .. import cancel
from ..diagnostics import DiagnosticBag
from ..node_methods import syntax_node
from ..semantics.fold import MAX_FOLD_BITS
from ..source import SourceFile, Span
from . import ast, loop_else, nested_spec, with_stmt
from .bytes_literals import bytes_literal, is_bytes_token
from .classes import ClassDef, expand_classes
from .generator_objects import expand_generator_objects
from .genexpr_objects import expand_genexpr_objects
from .named_tuples import expand_named_tuples
from .properties import expand_properties
from .string_annotations import annotation as string_annotation
from .string_annotations import is_future_import
from .type_names import add_type_name_methods
from .user_decorators import expand_user_decorators

CONVENTIONS = {"mut", "owned", "out", "ref", "var"}
_MAX_DECIMAL_DIGITS = len(str(1 << MAX_FOLD_BITS))  # the digits of the largest literal that can fold
_SURROGATE = re.compile("[\ud800-\udfff]")
AUG_OPS = {"+=": "+", "-=": "-", "*=": "*", "/=": "/", "//=": "//", "%=": "%", "**=": "**",
           "&=": "&", "|=": "|", "^=": "^", "<<=": "<<", ">>=": ">>", "@=": "@"}


@dataclass(frozen=True)
class _BareGenerator:
    """A call's argument `x for x in xs`, written without parentheses (unwrapped in `call`)."""

    node: ast.Comprehension


@v_args(meta=True)
class BuildAst(Transformer_NonRecursive):
    def __init__(self, source: SourceFile, diags: DiagnosticBag, debug_leaks: bool = False):
        super().__init__()
        self.source = source
        self.diags = diags
        self.debug_leaks = debug_leaks  # CompileOptions.debug_leaks, for the class expansion (syntax/leak_report.py)
        self.attr_annotations: list = []  # `self.x: T = v`: (the Assign, T), for classes.py
        self.positional_patterns = False  # a `match` has `case C(p, ...)` (syntax/match_stmt.py)

    # ---- helpers ----
    def _span(self, meta) -> Span:
        if getattr(meta, "empty", True):
            return self.source.span(0, 0)
        return self.source.span(meta.start_pos, meta.end_pos)

    def _tok(self, tok: Token) -> Span:
        return self.source.span(tok.start_pos, tok.end_pos)

    def _unsupported(self, meta, construct: str, code: str = "E0002"):
        self.diags.error(code, self._span(meta), construct=construct)

    def _bad_expr(self, meta, construct: str, code: str = "E0002") -> ast.Expr:
        self._unsupported(meta, construct, code)
        return ast.ErrorExpr(self._span(meta))

    def _bad_stmt(self, meta, construct: str, code: str = "E0002") -> ast.Stmt:
        self._unsupported(meta, construct, code)
        return ast.Pass(self._span(meta))

    @staticmethod
    def _flatten(items) -> tuple:
        out = []
        for item in items:
            if isinstance(item, list):
                out.extend(item)
            elif item is not None:
                out.append(item)
        return tuple(out)

    # ---- module and blocks ----
    def file_input(self, meta, children):
        items = self._flatten(children)
        if self.positional_patterns:  # `case Point(0, y)`: the attributes __match_args__ names (match_stmt.py)
            from . import match_stmt

            items = match_stmt.resolve_positional(items, self.diags)
        # The passes that key on an import of a module (`enum`, `dataclasses`, `functools`) or on a
        # decorator change nothing in a module without one: they are imported and run only with one
        # (start-up time, docs/compiler.md).
        imported = {i.module for i in items if isinstance(i, ast.Import)}
        if "enum" in imported:
            from .enums import expand_enums

            items = expand_enums(items, self.diags)  # `class C(Enum)` (syntax/enums.py)
        items = expand_named_tuples(items, self.diags)  # namedtuple, NamedTuple (syntax/named_tuples.py)
        # generators some use needs as objects become classes first (syntax/generator_objects.py)
        # and `@dataclass` classes get their methods written out (syntax/dataclass_methods.py)
        items = expand_genexpr_objects(items)  # `g = (x for x in ...)` stepped by `next` (syntax/genexpr_objects.py)
        items = expand_generator_objects(items, self.diags)
        if "dataclasses" in imported or any(isinstance(i, ClassDef) and i.decorators for i in items):
            from .dataclass_methods import expand_dataclasses

            items = expand_dataclasses(items, self.diags)
        items = add_type_name_methods(items, self.diags)  # `type(obj).__name__` (syntax/type_names.py)
        items = expand_properties(items, self.diags)  # `@property`, `@x.setter` (syntax/properties.py)
        if "functools" in imported:
            from .memoize import expand_memoized

            items = expand_memoized(items, self.diags)  # `@functools.cache` (syntax/memoize.py)
        items = expand_user_decorators(items)  # `@logged`, a `def` of the module (syntax/user_decorators.py)
        if any(isinstance(i, ast.FnDef) and any(d.name == "autotune" for d in i.decorators) for i in items):
            from .autotune import expand_autotune  # (its DECORATOR)

            items = expand_autotune(items, self.diags)  # `@autotune(TILE=[...])` (syntax/autotune.py)
        items = _shared_defaults(items, self.diags)  # `def f(memo: dict[int, int] = {})` (syntax/mutable_defaults.py)
        return expand_classes(items, self.diags, self.debug_leaks)

    def suite(self, meta, children):
        cancel.check()  # once per block: building a large file's tree takes a while (see cancel.py)
        return self._flatten(children)

    # ---- simple statements ----
    def expr_stmt(self, meta, c):
        return ast.ExprStmt(self._span(meta), c[0])

    def assign_stmt(self, meta, c):
        return ast.Assign(self._span(meta), tuple(c[:-1]), c[-1])

    def annassign_stmt(self, meta, c):
        target, annotation, value = c
        annotation = string_annotation(annotation, self.source)  # `x: "Node"` (string_annotations.py)
        if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self" \
                and value is not None:
            # `self.x: T = v` (a class's attribute, declared in `__init__`): the assignment, T kept aside
            assign = ast.Assign(self._span(meta), (target,), value)
            self.attr_annotations.append((assign, annotation))
            return assign
        if not isinstance(target, ast.Name):
            return self._bad_stmt(meta, "an annotated assignment to anything but a name")
        return ast.VarDecl(self._span(meta), target.id, target.span, annotation, value, False)

    def augassign_stmt(self, meta, c):
        target, op, value = c
        return ast.AugAssign(self._span(meta), target, AUG_OPS[op], value)

    def augop(self, meta, c):
        return str(c[0])

    def var_stmt(self, meta, c):
        _, name, annotation, value = c
        annotation = string_annotation(annotation, self.source)
        return ast.VarDecl(self._span(meta), str(name), self._tok(name), annotation, value, True)

    def comptime_stmt(self, meta, c):
        name, annotation, value = c
        return ast.Comptime(self._span(meta), str(name), self._tok(name), annotation, value)

    def alias_stmt(self, meta, c):
        name, value = c
        return ast.Comptime(self._span(meta), str(name), self._tok(name), None, value)

    def pass_stmt(self, meta, c):
        return ast.Pass(self._span(meta))

    def break_stmt(self, meta, c):
        return ast.Break(self._span(meta))

    def continue_stmt(self, meta, c):
        return ast.Continue(self._span(meta))

    def return_stmt(self, meta, c):
        return ast.Return(self._span(meta), c[0])

    def assert_stmt(self, meta, c):
        return ast.Assert(self._span(meta), c[0], c[1])

    def raise_stmt(self, meta, c):
        exc, cause = c  # (`raise X from Y`: checked in semantics/raising.py `cause`)
        return ast.Raise(self._span(meta), exc, cause)

    def launch_stmt(self, meta, c):
        call = c[0]
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Subscript)):
            return self._bad_stmt(meta, "`launch` without `kernel[grid=..., block=...](args)`", "E0002")
        return ast.Launch(self._span(meta), call.func.value, call.func.items, call.args, call.keywords)

    def import_stmt(self, meta, c):
        return [ast.Import(self._span(meta), module, alias, (), False) for module, alias in c]

    def from_import(self, meta, c):
        if any(isinstance(x, Token) and x.type == "STAR" for x in c):
            return self._bad_stmt(meta, "`import *`")
        names = next(x for x in c[1:] if isinstance(x, list))
        made = ast.Import(self._span(meta), c[0], None, tuple(names), True)
        return ast.Pass(made.span) if is_future_import(made) else made  # `from __future__ import annotations`

    def yield_stmt(self, meta, c):
        # (the grammar's anonymous "from" leaves no token: the text after `yield` says)
        after = self.source.text[meta.start_pos + len("yield"):meta.end_pos].lstrip()
        delegate = after.startswith("from") and not (after[4:5].isalnum() or after[4:5] == "_")
        values = [x for x in c if x is not None and not isinstance(x, Token)]
        value = values[0] if values else None
        if delegate and value is None:
            return self._bad_stmt(meta, "`yield from` without an iterable")
        return ast.Yield(self._span(meta), value, delegate)

    def async_stmt(self, meta, c):
        return self._bad_stmt(meta, "`async`")

    def global_stmt(self, meta, c):
        return ast.Global(self._span(meta), tuple(str(n) for n in c))

    def nonlocal_stmt(self, meta, c):
        return ast.Nonlocal(self._span(meta), tuple(str(n) for n in c))

    def del_stmt(self, meta, c):
        targets = c[0].elts if isinstance(c[0], ast.TupleExpr) else (c[0],)
        return ast.Delete(self._span(meta), tuple(targets))

    def dotted_name(self, meta, c):
        return ".".join(str(t) for t in c)

    def dotted_as_name(self, meta, c):
        return (c[0], str(c[1]) if c[1] is not None else None)

    def import_name(self, meta, c):
        return (str(c[0]), str(c[1]) if c[1] is not None else str(c[0]))

    def import_names(self, meta, c):
        return [x for x in c if x is not None]

    # ---- compound statements ----
    def if_stmt(self, meta, c):
        test, body, *rest = c
        orelse: tuple = ()
        else_clause = rest[-1] if rest else None
        elifs = rest[:-1]
        if else_clause is not None:
            orelse = else_clause
        for (etest, ebody, espan) in reversed(elifs):
            orelse = (ast.If(espan, etest, ebody, orelse),)
        return ast.If(self._span(meta), test, body, orelse)

    def elif_clause(self, meta, c):
        return (c[0], c[1], self._span(meta))

    def else_clause(self, meta, c):
        return c[0]

    def while_stmt(self, meta, c):
        test, body, orelse = c
        if orelse is not None:
            return loop_else.with_else(ast.While(self._span(meta), test, body), orelse, self._span(meta))
        return ast.While(self._span(meta), test, body)

    def for_stmt(self, meta, c):
        target, iterable, body, orelse = c
        if orelse is not None:
            return loop_else.with_else(ast.For(self._span(meta), target, iterable, body), orelse, self._span(meta))
        return ast.For(self._span(meta), target, iterable, body)

    def comptime_if(self, meta, c):
        plain = self.if_stmt(meta, c)
        return _comptime_chain(plain)

    def comptime_for(self, meta, c):
        target, iterable, body = c
        return ast.ComptimeFor(self._span(meta), target, iterable, body)

    def with_stmt(self, meta, c):
        manager, target, body = c
        return with_stmt.expand_with(self._span(meta), manager, target, body)  # (syntax/with_stmt.py)

    # ---- `match` (syntax/match_stmt.py lowers it; the pat_* rules give its patterns) ----
    # Each imports match_stmt itself: a module without `match` never loads it (start-up time).
    def match_stmt(self, meta, c):
        from . import match_stmt
        _, subject, *cases = c
        return match_stmt.expand_match(self._span(meta), subject, cases, self.diags)

    def case_block(self, meta, c):
        from . import match_stmt
        _, pattern, guard, body = c
        return match_stmt.Case(self._span(meta), pattern, guard, body)

    def _pattern_items(self, meta, c):
        from . import match_stmt
        return match_stmt.Sequence(self._span(meta), tuple(x for x in c if x is not None))

    pat_open_seq = pat_tuple = pat_list = _pattern_items

    def pat_star(self, meta, c):
        from . import match_stmt
        return match_stmt.Star(self._span(meta), str(c[0]))

    def pat_as(self, meta, c):
        from . import match_stmt
        return match_stmt.As(self._span(meta), c[0], str(c[1]))

    def pat_or(self, meta, c):
        from . import match_stmt
        return match_stmt.Or(self._span(meta), tuple(c))

    def pat_group(self, meta, c):
        return c[0]

    def pat_literal(self, meta, c):
        from . import match_stmt
        if isinstance(c[0], Token):  # adjacent strings
            return match_stmt.Literal(self._span(meta), self.string(meta, c))
        return match_stmt.Literal(self._span(meta), c[0])

    def pat_neg(self, meta, c):
        from . import match_stmt
        return match_stmt.Literal(self._span(meta), ast.Unary(self._span(meta), "-", c[0]))

    def pat_none(self, meta, c):
        from . import match_stmt
        return match_stmt.Literal(self._span(meta), self.none(meta, c))

    def pat_true(self, meta, c):
        from . import match_stmt
        return match_stmt.Literal(self._span(meta), self.true(meta, c))

    def pat_false(self, meta, c):
        from . import match_stmt
        return match_stmt.Literal(self._span(meta), self.false(meta, c))

    def pat_num(self, meta, c):
        kind = c[0].type
        if kind == "FLOAT_NUMBER":
            return self.float_lit(meta, c)
        return self.imag_lit(meta, c) if kind == "IMAG_NUMBER" else self.int_lit(meta, c)

    def pat_name(self, meta, c):
        from . import match_stmt
        if len(c) == 1:
            return match_stmt.Capture(self._span(meta), str(c[0]))
        value: ast.Expr = ast.Name(self._tok(c[0]), str(c[0]))
        for tok in c[1:]:
            value = ast.Attribute(self.source.span(meta.start_pos, tok.end_pos), value, str(tok))
        return match_stmt.Value(self._span(meta), value)

    def pat_mapping(self, meta, c):
        from . import match_stmt
        items = [x for x in c if x is not None]
        rest = next((x for x in items if isinstance(x, match_stmt.Star)), None)
        if rest is not None:
            self.diags.error("E0021", rest.span, pattern="`**rest` in a mapping pattern",
                             advice="match the keys you need, and read the others from the subject")
        pairs = [x for x in items if isinstance(x, tuple)]
        return match_stmt.Mapping(self._span(meta), tuple(k for k, _ in pairs), tuple(v for _, v in pairs),
                                  rest.name if rest is not None else None)

    def pat_map_item(self, meta, c):
        from . import match_stmt
        key, value = c
        if isinstance(key, match_stmt.Capture):  # Python's SyntaxError
            self.diags.error("E0001", key.span, detail="a mapping pattern's key is a literal or a dotted name")
        plain = isinstance(key, (match_stmt.Literal, match_stmt.Value))
        return (key.value if plain else ast.ErrorExpr(key.span), value)

    def pat_map_rest(self, meta, c):
        from . import match_stmt
        return match_stmt.Star(self._span(meta), str(c[0]))

    def pat_class(self, meta, c):
        from . import match_stmt
        name, *args = c
        self.positional_patterns = True
        cls = ast.Name(name.span, name.name) if isinstance(name, match_stmt.Capture) else name.value
        args = [a for a in args if a is not None]
        positional = tuple(a for a in args if not isinstance(a, tuple))
        keywords = tuple(a for a in args if isinstance(a, tuple))
        return match_stmt.ClassPattern(self._span(meta), cls, positional, keywords)

    def pat_keyword(self, meta, c):
        return (str(c[0]), c[1])

    def try_stmt(self, meta, c):
        body, *rest = c
        handlers = tuple(x for x in rest if isinstance(x, ast.Handler))
        tails = [x for x in rest if isinstance(x, tuple) and not isinstance(x, ast.Handler)]
        # The grammar's order: else (a tuple from else_clause) comes before finally (a ("finally", body) pair).
        orelse, finalbody = (), ()
        for x in rest:
            if isinstance(x, list) and x and x[0] == "finally":
                finalbody = x[1]
        plain = list(tails)
        if plain:
            orelse = plain[0]
        return ast.Try(self._span(meta), body, handlers, orelse, finalbody)

    def except_clause(self, meta, c):
        types, name, body = c
        return ast.Handler(self._span(meta), types, str(name) if name is not None else None, body)

    def finally_clause(self, meta, c):
        return ["finally", c[0]]

    def classdef(self, meta, c):
        name, bases, body = c
        return ClassDef(self._span(meta), str(name), self._tok(name), tuple(bases or ()), tuple(body),
                        tuple(self.attr_annotations))

    def structdef(self, meta, c):
        name, ct_params, traits, body = c
        fields, methods = [], []
        for stmt in body:
            if isinstance(stmt, ast.VarDecl) and stmt.explicit and stmt.annotation is not None and stmt.value is None:
                fields.append(ast.FieldDecl(stmt.span, stmt.name, stmt.name_span, stmt.annotation))
            elif isinstance(stmt, ast.FnDef):
                methods.append(stmt)
            elif isinstance(stmt, ast.Pass) or (isinstance(stmt, ast.ExprStmt) and isinstance(stmt.expr, ast.StrLit)):
                continue
            else:
                self.diags.error("E0116", stmt.span)
        return ast.StructDef(self._span(meta), str(name), self._tok(name), tuple(ct_params or ()),
                             tuple(traits or ()), tuple(fields), tuple(methods))

    def traitdef(self, meta, c):
        name, parents, body = c
        methods = []
        for stmt in body:
            if isinstance(stmt, ast.FnDef):
                methods.append(stmt)
            elif isinstance(stmt, ast.Pass) or (isinstance(stmt, ast.ExprStmt) and isinstance(stmt.expr, ast.StrLit)):
                continue
            else:
                self.diags.error("E0141", stmt.span)
        return ast.TraitDef(self._span(meta), str(name), self._tok(name), tuple(parents or ()), tuple(methods))

    def decorator(self, meta, c):
        name, args = c
        return ast.Decorator(self._span(meta), name, tuple(args or ()))

    def decorated(self, meta, c):
        *decorators, target = c
        if isinstance(target, ast.FnDef):
            return ast.FnDef(target.span, target.kind, target.name, target.name_span, target.ct_params,
                             target.params, target.raises, target.returns, target.body, tuple(decorators))
        if isinstance(target, ast.StructDef):
            return ast.StructDef(target.span, target.name, target.name_span, target.ct_params, target.traits,
                                 target.fields, target.methods, tuple(decorators))
        if isinstance(target, ClassDef):  # `@dataclass` or E0260 (syntax/dataclass_methods.py)
            return replace(target, decorators=tuple(decorators))
        return target

    def funcdef(self, meta, c):
        kind, name, ct_params, params, raises, returns, body = c
        returns = string_annotation(returns, self.source)  # `-> "Tree"`
        ct_params, params = tuple(ct_params or ()), tuple(params or ())
        variadic = [p for p in params if p.variadic]
        for extra in variadic[1:]:
            self.diags.error("E0001", extra.span, detail="a function takes at most one `*` parameter")
        if variadic:
            # How many arguments `*xs` collected is a hidden compile-time parameter: one instance per count.
            p = variadic[0]
            ct_params += (ast.CtParam(p.span, ast.variadic_count(p.name), ast.Name(p.span, "Int"), None),)
        return ast.FnDef(self._span(meta), str(kind), str(name), self._tok(name), ct_params,
                         params, raises is not None, returns, body)

    def ct_params(self, meta, c):
        return tuple(x for x in c if x is not None)

    def ct_param(self, meta, c):
        name, annotation, default = c
        return ast.CtParam(self._span(meta), str(name), annotation, default)

    def parameters(self, meta, c):
        return tuple(x for x in c if x is not None)

    def convention(self, meta, c):
        return c[0]

    def param(self, meta, c):
        convention, name, annotation, default = c
        annotation = string_annotation(annotation, self.source)
        conv = None
        if convention is not None:
            conv = str(convention)
            if conv not in CONVENTIONS:
                self.diags.error("E0001", self._tok(convention),
                                 detail=f"`{conv}` is not an argument convention (expected one of "
                                        "`mut`, `owned`, `out`, `ref`, `var`)")
        return ast.Param(self._span(meta), str(name), annotation, default, conv)

    def star_param(self, meta, c):
        if not (isinstance(c[0], Token) and c[0].type == "STAR"):
            self._unsupported(meta, "`**kwargs` parameters")
            return None
        if c[1] is None:
            self._unsupported(meta, "a bare `*` (keyword-only parameters)")
            return None
        _, name, annotation = c
        if annotation is None:
            self.diags.error("E0001", self._span(meta),
                             detail=f"`*{name}` needs the type of its elements, e.g. `*{name}: Int`")
            return None
        return ast.Param(self._span(meta), str(name), annotation, None, None, variadic=True)

    # ---- expressions ----
    def tuple(self, meta, c):
        return ast.TupleExpr(self._span(meta), tuple(x for x in c if x is not None))

    def star_expr(self, meta, c):
        return ast.Starred(self._span(meta), c[0])

    def empty_tuple(self, meta, c):
        return ast.TupleExpr(self._span(meta), ())

    def paren(self, meta, c):
        return c[0]

    def ifexp(self, meta, c):
        body, test, orelse = c
        return ast.IfExp(self._span(meta), test, body, orelse)

    def lambdef(self, meta, c):
        params, body = c
        params = tuple(params or ())
        seen: set[str] = set()
        for p in params:
            if p.name in seen:  # Python's SyntaxError
                self.diags.error("E0001", p.span, detail=f"duplicate argument '{p.name}' in function definition")
            seen.add(p.name)
        bad = next((b for a, b in itertools.pairwise(params) if a.default is not None and b.default is None), None)
        if bad is not None:  # Python's SyntaxError
            self.diags.error("E0001", bad.span, detail="non-default argument follows default argument")
        return ast.Lambda(self._span(meta), params, body)

    def walrus(self, meta, c):
        return self._bad_expr(meta, "the `:=` operator")

    def lambda_params(self, meta, c):
        return list(c)

    def lambda_param(self, meta, c):
        tok, default = c
        return ast.Param(self._tok(tok), str(tok), None, default, None)

    def or_op(self, meta, c):
        return ast.BoolOp(self._span(meta), "or", tuple(c))

    def and_op(self, meta, c):
        return ast.BoolOp(self._span(meta), "and", tuple(c))

    def not_op(self, meta, c):
        return ast.Unary(self._span(meta), "not", c[0])

    def compare(self, meta, c):
        return ast.Compare(self._span(meta), c[0], tuple(c[1::2]), tuple(c[2::2]))

    def comp_op(self, meta, c):
        return " ".join(str(t) for t in c)

    def _binary(self, meta, op, c):
        return ast.Binary(self._span(meta), op, c[0], c[-1])

    def bitor(self, meta, c):
        return self._binary(meta, "|", c)

    def bitxor(self, meta, c):
        return self._binary(meta, "^", c)

    def bitand(self, meta, c):
        return self._binary(meta, "&", c)

    def binop(self, meta, c):
        return ast.Binary(self._span(meta), c[1], c[0], c[2])

    def shift_op(self, meta, c):
        return str(c[0])

    add_op = mul_op = unary_op = shift_op

    def unary(self, meta, c):
        return ast.Unary(self._span(meta), c[0], c[1])

    def transfer(self, meta, c):
        return ast.Transfer(self._span(meta), c[0])

    def power(self, meta, c):
        return ast.Binary(self._span(meta), "**", c[0], c[1])

    def await_expr(self, meta, c):
        return self._bad_expr(meta, "`await`")

    def call(self, meta, c):
        func, arguments = c
        starred = [a for a in arguments or () if isinstance(a, _StarredZip)]
        if starred:  # `zip(*rows)`: Python's transposition (semantics/zip_rows.py)
            return ast.Call(self._span(meta), ast.Name(func.span, ZIP_ROWS), (starred[0].value,), ())
        if any(isinstance(a, _StarredArgument) for a in arguments or ()):
            if isinstance(func, ast.Name) and func.id == "print":
                return _print_unpacked(self._span(meta), func, arguments)
            doubled = [a for a in arguments if isinstance(a, _StarredArgument) and self.source.text.startswith(
                "**", a.span.start)]
            for a in doubled:
                self.diags.error("E0002", a.span, construct="argument unpacking with `**`")
            if doubled:
                return ast.ErrorExpr(self._span(meta))
            # `f(*pair)`: a tuple's items, as the checker finds its length (semantics/star_arguments.py)
            arguments = [ast.Starred(a.span, a.value) if isinstance(a, _StarredArgument) else a for a in arguments]
        args, keywords = [], []
        bare = [a for a in arguments or () if isinstance(a, _BareGenerator)]
        if bare and len(arguments) > 1:
            self.diags.error("E0001", bare[0].node.span, detail="a generator expression must be parenthesized "
                             "unless it is a call's only argument")
        arguments = [a.node if isinstance(a, _BareGenerator) else a for a in arguments or ()]
        for a in arguments:
            (keywords if isinstance(a, ast.Keyword) else args).append(a)
        return ast.Call(self._span(meta), func, tuple(args), tuple(keywords))

    def arguments(self, meta, c):
        return list(c)

    def subscripts(self, meta, c):
        return list(c)

    def subscript(self, meta, c):
        return ast.Subscript(self._span(meta), c[0], tuple(c[1]))

    def slice(self, meta, c):
        return ast.Slice(self._span(meta), c[0], c[1], c[2] if len(c) > 2 else None)

    def attribute(self, meta, c):
        return ast.Attribute(self._span(meta), c[0], str(c[1]))

    def keyword(self, meta, c):
        return ast.Keyword(self._span(meta), str(c[0]), c[1])

    def star_arg(self, meta, c):
        if _ZIP_OF_STARRED.search(self.source.text, 0, meta.start_pos) \
                and not self.source.text.startswith("**", meta.start_pos) \
                and re.match(r"\s*,?\s*\)", self.source.text[meta.end_pos:meta.end_pos + 40]):
            # `zip(*rows)`: tuples as long as `rows`, a length only the run knows (semantics/zip_rows.py)
            return _StarredZip(self._span(meta), c[0])
        return _StarredArgument(self._span(meta), c[0])  # (print's; `call` refuses the others)

    def generator(self, meta, c):
        return ast.Comprehension(self._span(meta), "generator", c[0], None, tuple(c[1]))

    def bare_generator(self, meta, c):
        # `f(x for x in xs)`: a generator expression without its own parentheses, which Python
        # allows only as a call's sole argument (checked in `call`).
        return _BareGenerator(self.generator(meta, c))

    def comp_for(self, meta, c):
        return list(c)

    def comp_for_clause(self, meta, c):
        return ast.CompFor(self._span(meta), c[0], c[1])

    def comp_if(self, meta, c):
        return ast.CompIf(self._span(meta), c[0])

    def list_display(self, meta, c):
        items = c[0] if c and c[0] is not None else []
        if any(not isinstance(x, ast.Expr) or isinstance(x, ast.Keyword) for x in items):
            return self._bad_expr(meta, "a list literal with `*` or keywords", "E0007")
        return ast.ListExpr(self._span(meta), tuple(items))

    def list_comp(self, meta, c):
        return ast.Comprehension(self._span(meta), "list", c[0], None, tuple(c[1]))

    def dict_comp(self, meta, c):
        return ast.Comprehension(self._span(meta), "dict", c[0], c[1], tuple(c[2]))

    def set_comp(self, meta, c):
        # Python adds the items in the order the loop makes them: the list comprehension's order.
        items = ast.Comprehension(self._span(meta), "list", c[0], None, tuple(c[1]))
        return ast.SetExpr(self._span(meta), (), items)

    def dict_display(self, meta, c):
        items = c[0] if c and c[0] is not None else []
        if items and all(len(item) == 1 for item in items):
            return ast.SetExpr(self._span(meta), tuple(item[0] for item in items))
        if any(len(item) != 2 for item in items):
            self.diags.error("E0001", self._span(meta), detail="a `{...}` mixes `key: value` items and set items")
            return ast.ErrorExpr(self._span(meta))
        return ast.DictExpr(self._span(meta), tuple(k for k, _ in items), tuple(v for _, v in items))

    def dict_items(self, meta, c):
        return list(c)

    def dict_item(self, meta, c):
        return tuple(c)

    def name(self, meta, c):
        return ast.Name(self._span(meta), str(c[0]))

    def int_lit(self, meta, c):
        text = str(c[0]).replace("_", "")
        # No integer type holds more than 64 bits, and constants are folded up to MAX_FOLD_BITS:
        # a longer literal could never be used. Decimal text is measured before converting it,
        # because int() refuses more than 4300 digits (and is slow long before).
        too_long = text[:2].lower() not in ("0x", "0o", "0b") and len(text) > _MAX_DECIMAL_DIGITS
        value = None if too_long else int(text, 0)
        if value is None or value.bit_length() > MAX_FOLD_BITS:
            self.diags.error("E0008", self._span(meta), limit=f"{MAX_FOLD_BITS} bits")
            return ast.ErrorExpr(self._span(meta))
        return ast.IntLit(self._span(meta), value)

    def float_lit(self, meta, c):
        return ast.FloatLit(self._span(meta), float(str(c[0]).replace("_", "")))

    def imag_lit(self, meta, c):
        return self._bad_expr(meta, "a complex number literal")

    def string(self, meta, c):
        """Adjacent literals are one string, as in Python: `"a" 'b'`, and with f-strings among
        them the text pieces and fields of all of them, joined (see `fstring`)."""
        parts: list[ast.Expr] = []
        if any(not isinstance(item, _FString) and is_bytes_token(str(item)) for item in c):  # `b"..."`
            pieces = [(None if isinstance(item, _FString) else str(item),
                       self._span(meta) if isinstance(item, _FString) else self._tok(item)) for item in c]
            return bytes_literal(self._span(meta), pieces,
                                 lambda where, detail: self.diags.error("E0004", where, detail=detail))
        for item in c:
            if isinstance(item, _FString):
                parts.extend(item.parts)
                continue
            text = str(item)
            try:
                with warnings.catch_warnings():
                    # '\ ' and friends keep their backslash, as in Python; no warning on the console.
                    warnings.simplefilter("ignore")
                    value = pyast.literal_eval(text)
            except (ValueError, SyntaxError) as exc:
                self.diags.error("E0004", self._tok(item), detail=str(exc))
                value = ""
            if not self._valid_text(value, self._tok(item)):
                value = ""
            parts.append(ast.StrLit(self._tok(item), value))
        return self._join(self._span(meta), parts)

    @staticmethod
    def _join(span: Span, parts: list[ast.Expr]) -> ast.Expr:
        """The pieces of a string joined with `+`, neighbouring text merged: a string without
        fields stays one literal (a `StringLiteral`, a constant), as `"a" "b"` always was."""
        merged: list[ast.Expr] = []
        for part in parts:
            if isinstance(part, ast.ErrorExpr):
                return part
            if isinstance(part, ast.StrLit) and merged and isinstance(merged[-1], ast.StrLit):
                merged[-1] = ast.StrLit(merged[-1].span.to(part.span), merged[-1].value + part.value)
            else:
                merged.append(part)
        if not merged:
            return ast.StrLit(span, "")
        if len(merged) == 1 and isinstance(merged[0], ast.StrLit):
            return ast.StrLit(span, merged[0].value)
        result = merged[0]
        for part in merged[1:]:
            result = ast.Binary(span, "+", result, part)
        return result

    def _valid_text(self, text: str, span: Span) -> bool:
        """A string pyx can hold: its text is UTF-8, and a lone surrogate (`"\\ud800"`) has no UTF-8
        form. CPython keeps one in a str but fails when printing it (UnicodeEncodeError); pyx
        says so at the literal (E0009) instead of compiling something that cannot be printed."""
        if "\0" in text:
            # Literals are C strings: the text would silently end at the NUL (print("a\x00b") gave `a`).
            self.diags.error("E0010", span)
            return False
        bad = _SURROGATE.search(text)
        if bad is None:
            return True
        ch = bad.group()
        after = text[bad.end():bad.end() + 1]
        if "\ud800" <= ch <= "\udbff" and after and "\udc00" <= after <= "\udfff":
            joined = chr(0x10000 + ((ord(ch) - 0xD800) << 10) + (ord(after) - 0xDC00))
            hint = (f"a pair of surrogates is not a character in Python either: write `\\U{ord(joined):08x}` "
                    f"(or the character itself) for {joined!r}")
        else:
            hint = "write the character you mean, or its code point with `\\u` or `\\U` (not in D800-DFFF)"
        self.diags.error("E0009", span, escape=f"\\u{ord(ch):04x}", hint=hint)
        return False

    # ---- f-strings: the grammar's tokens (pyx.lark, PEP 701's rules) -> text and fields ----
    def fstring(self, meta, c):
        """`f"x = {x:.2f}!"`: its pieces, which `string` joins with `+`: each text token as a
        literal, each field as `str(x)`, `repr(x)` (`!r`) or `format(x, ".2f")` (a spec), as
        Python evaluates it. Every piece keeps the span where it is written."""
        _start, *pieces, _end = c
        parts: list[ast.Expr] = []
        for piece in pieces:
            if isinstance(piece, _Field):
                parts.extend(piece.parts)
            else:
                parts.append(self._fstring_text(piece, doubled_braces=True))
        return _FString(tuple(parts))

    def _fstring_text(self, tok: Token, doubled_braces: bool) -> ast.Expr:
        """The value of an f-string's text token: escapes decoded unless the string is raw
        (the token's type says), and `{{`/`}}` in text (not in a spec) made single."""
        span = self._tok(tok)
        raw = tok.type.rsplit("_", 1)[-1].startswith("R")
        try:
            value = _decode_fstring_text(str(tok), raw, doubled_braces)
        except ValueError as exc:
            self.diags.error("E0004", span, detail=str(exc))
            return ast.ErrorExpr(span)
        if not self._valid_text(value, span):
            return ast.ErrorExpr(span)
        return ast.StrLit(span, value)

    def fstring_field(self, meta, c):
        """`{expr=!r:spec}`: the field's pieces. `=` puts the expression's text (as written,
        spaces and all) before the value and makes `repr` the default conversion."""
        value, eq, conv, spec = c
        span = self._span(meta)
        conversion = None
        if conv is not None:
            name, conv_span = conv
            conversion = str(name)
            if conv_span.start + 1 != name.start_pos:
                self.diags.error("E0004", conv_span,
                                 detail="the conversion must come right after `!` (`!r`, `!s` or `!a`)")
                return _Field(span, (ast.ErrorExpr(span),))
            if conversion not in ("r", "s", "a"):
                self.diags.error("E0004", self._tok(name),
                                 detail=f"invalid conversion character `{conversion}`: expected `r`, `s` or `a`")
                return _Field(span, (ast.ErrorExpr(span),))
            if conversion == "a":
                self._unsupported(meta, "`!a` in an f-string", "E0007")
                return _Field(span, (ast.ErrorExpr(span),))
        parts: list[ast.Expr] = []
        if eq is not None:
            # The text runs to the `!`, the `:` or the `}`: spaces around `=` are kept, as in Python.
            ends = [x.start for x in (conv[1] if conv else None, spec[0] if spec else None) if x is not None]
            text_end = min(ends) if ends else meta.end_pos - 1
            parts.append(ast.StrLit(self.source.span(meta.start_pos + 1, text_end),
                                    self.source.text[meta.start_pos + 1:text_end]))
            if conversion is None and spec is None:
                conversion = "r"
        if spec is None:
            call = "repr" if conversion == "r" else "str"
            parts.append(ast.Call(value.span, ast.Name(span, call), (value,), ()))
            return _Field(span, tuple(parts))
        colon, spec_pieces = spec
        spec_span = self.source.span(colon.start + 1, colon.end)
        if any(isinstance(p, _Field) for p in spec_pieces):
            # `f"{x:<{w}}"`: a spec only the run knows (syntax/nested_spec.py)
            pieces = [q for p in spec_pieces for q in (p.parts if isinstance(p, _Field)
                                                        else (self._fstring_text(p, doubled_braces=False),))]
            if any(isinstance(p, ast.ErrorExpr) for p in pieces):
                return _Field(span, (ast.ErrorExpr(span),))
            if conversion is not None:
                value = ast.Call(value.span, ast.Name(span, "repr" if conversion == "r" else "str"), (value,), ())
            parts.append(nested_spec.formatted(value, nested_spec.spec_text(pieces, spec_span), span))
            return _Field(span, tuple(parts))
        text_parts = [self._fstring_text(p, doubled_braces=False) for p in spec_pieces]
        if any(isinstance(p, ast.ErrorExpr) for p in text_parts):
            return _Field(span, (ast.ErrorExpr(span),))
        spec_text = "".join(p.value for p in text_parts)
        if conversion is not None:  # `!r`/`!s` convert first, then the spec formats the text
            value = ast.Call(value.span, ast.Name(span, "repr" if conversion == "r" else "str"), (value,), ())
        parts.append(ast.Call(value.span, ast.Name(span, "format"), (value, ast.StrLit(spec_span, spec_text)), ()))
        return _Field(span, tuple(parts))

    def fstring_eq(self, meta, c):
        return self._span(meta)

    def fstring_conv(self, meta, c):
        return (c[0], self._span(meta))

    def fstring_spec(self, meta, c):
        """`:spec` -> (its span, from the colon, and its text tokens and nested fields)."""
        return (self._span(meta), c)

    def true(self, meta, c):
        return ast.BoolLit(self._span(meta), True)

    def false(self, meta, c):
        return ast.BoolLit(self._span(meta), False)

    def none(self, meta, c):
        return ast.NoneLit(self._span(meta))

    def ellipsis(self, meta, c):
        return ast.EllipsisLit(self._span(meta))

    def __default__(self, data, children, meta):
        raise AssertionError(f"grammar rule `{data}` has no AST builder")


# `zip(` right before a `*` argument (`zip(*rows)`, its only argument)
_ZIP_OF_STARRED = re.compile(r"(?<![\w.])zip\s*\(\s*\Z")
# The name `zip(*rows)` calls: stdlib/zip_rows.px's `zip_rows`, under a name no source can spell,
# and its `VarTuple` (`xs, ys = zip(*pairs)` builds one per column: semantics/zip_rows.py).
ZIP_ROWS = "zip of rows"
VAR_TUPLE = "tuple of rows"


@syntax_node
class _StarredArgument(ast.Expr):
    """`*xs` among a call's arguments: only `print(*xs)` takes it (`_print_unpacked`)."""

    value: ast.Expr


_ITEM = "__pyx_printed_item"  # (a comprehension's own variable: no source spells it)


def _print_unpacked(span: Span, func: ast.Name, arguments: list) -> ast.Call:
    """`print(a, *xs, b, sep=s, end=e)` is `print(s.join([str(a)] + [str(x) for x in xs] + [str(b)]),
    end=e)`: Python's print writes str() of each item, the separator between them, whatever their
    number (none: only `end`), after evaluating every argument in order, as the list does."""
    keywords = [a for a in arguments if isinstance(a, ast.Keyword)]
    sep = next((k.value for k in keywords if k.name == "sep"), None)
    if not isinstance(sep, ast.StrLit):  # (another `sep=` stays on print, whose check says what it takes)
        keywords = [k for k in keywords if k.name != "sep" or not isinstance(k.value, ast.NoneLit)]
        sep = ast.StrLit(span, " ")
    pieces: list[ast.Expr] = []
    for a in arguments:
        if isinstance(a, ast.Keyword):
            continue
        if isinstance(a, _StarredArgument) and isinstance(a.value, (ast.ListExpr, ast.TupleExpr)) and not a.value.elts:
            continue  # `print(*[])`: no items (an empty list of no type)
        if isinstance(a, _StarredArgument):
            item = ast.Name(a.span, _ITEM)
            text = ast.Call(a.span, ast.Name(a.span, "str"), (item,), ())
            pieces.append(ast.Comprehension(a.span, "list", text, None, (ast.CompFor(a.span, item, a.value),)))
        else:
            pieces.append(ast.ListExpr(a.span, (ast.Call(a.span, ast.Name(a.span, "str"), (a,), ()),)))
    if not pieces:  # only `end` is written
        return ast.Call(span, func, (), tuple(k for k in keywords if k.name != "sep" or k.value is not sep))
    joined: ast.Expr = pieces[0]
    for piece in pieces[1:]:
        joined = ast.Binary(span, "+", joined, piece)
    line = ast.Call(span, ast.Attribute(sep.span, sep, "join"), (joined,), ())
    return ast.Call(span, func, (line,), tuple(k for k in keywords if k.name != "sep" or k.value is not sep))


@syntax_node
class _StarredZip(ast.Expr):
    """The `*rows` of `zip(*rows)`: the call becomes `zip_rows(rows)`."""

    value: ast.Expr


@dataclass(frozen=True)
class _FString:
    """An f-string's pieces, before `string` joins them with the literals beside it."""
    parts: tuple


@dataclass(frozen=True)
class _Field:
    """A `{...}` field: its span and the pieces it adds (with `=`, the text, then the value)."""
    span: Span
    parts: tuple


_ESCAPE = re.compile(r"\\(N\{[^}]*\}|x[0-9a-fA-F]{0,2}|u[0-9a-fA-F]{0,4}|U[0-9a-fA-F]{0,8}|[0-7]{1,3}|\r\n|.|\n|$)"
                     r"|\{\{|\}\}", re.S)
_SIMPLE_ESCAPES = {"\\": "\\", "'": "'", '"': '"', "a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r",
                   "t": "\t", "v": "\v", "\n": "", "\r\n": ""}
_ESCAPE_DIGITS = {"x": 2, "u": 4, "U": 8}


def _decode_fstring_text(text: str, raw: bool, doubled_braces: bool) -> str:
    """Python's escapes (`\\n`, `\\x41`, `\\N{SNAKE}`, ...; an unknown one keeps its backslash)
    and, in text outside a spec, `{{`/`}}`. Raises ValueError with the reason for a bad escape."""
    def one(m: re.Match) -> str:
        found = m.group()
        if found in ("{{", "}}"):
            return found[0] if doubled_braces else found
        if raw:
            return found
        body = m.group(1)
        if body in _SIMPLE_ESCAPES:
            return _SIMPLE_ESCAPES[body]
        kind = body[:1]
        if kind in _ESCAPE_DIGITS:
            if len(body) != 1 + _ESCAPE_DIGITS[kind]:
                raise ValueError(f"truncated `\\{kind}{'X' * _ESCAPE_DIGITS[kind]}` escape")
            code = int(body[1:], 16)
            if code > 0x10FFFF:
                raise ValueError(f"illegal Unicode character `\\{body}`")
            return chr(code)
        if kind and kind in "01234567":
            return chr(int(body, 8))
        if kind == "N":
            if not body.startswith("N{") or not body.endswith("}"):
                raise ValueError("malformed `\\N` character escape")
            try:
                return unicodedata.lookup(body[2:-1])
            except KeyError:
                raise ValueError(f"unknown Unicode character name in `\\{body}`") from None
        return found  # not an escape: the backslash stays, as in Python (which warns)

    return _ESCAPE.sub(one, text)


def _shared_defaults(items: tuple, diags: DiagnosticBag) -> tuple:
    """A list, dict, set or object as a `def` parameter's default: one object, made when the module
    runs the `def` (syntax/mutable_defaults.py, imported only for a module with one)."""
    made = (ast.ListExpr, ast.DictExpr, ast.SetExpr, ast.Call)
    if not any(isinstance(p.default, made) or (isinstance(p.default, ast.NoneLit) and isinstance(d.body[0], ast.If))
               for i in items for d in (i.body if isinstance(i, ClassDef) else (i,))
               if isinstance(d, ast.FnDef) and d.body for p in d.params):
        return items
    from . import mutable_defaults

    return mutable_defaults.expand(items, ClassDef, diags)


def build(tree: Tree, source: SourceFile, diags: DiagnosticBag, debug_leaks: bool = False) -> tuple:
    return BuildAst(source, diags, debug_leaks).transform(tree)


def _comptime_chain(node: ast.If) -> ast.ComptimeIf:
    """`comptime if ... elif ...`: every branch of the chain is folded, not only the first.
    Built from the last `elif` back, without recursion: a chain may be as long as the user likes
    (validate.py then refuses one that is too deep)."""
    chain = [node]
    while len(chain[-1].orelse) == 1 and isinstance(chain[-1].orelse[0], ast.If):
        chain.append(chain[-1].orelse[0])
    orelse = chain[-1].orelse
    for link in reversed(chain):
        orelse = (ast.ComptimeIf(link.span, link.test, link.body, orelse),)
    return orelse[0]
