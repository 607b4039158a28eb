"""Lark parse tree -> pyx AST, without recursion (deep input must not overflow the stack)."""
from __future__ import annotations

import ast as pyast
import re
import warnings

from lark import Token, Transformer_NonRecursive, Tree, v_args

from .. import cancel
from ..diagnostics import DiagnosticBag
from ..semantics.fold import MAX_FOLD_BITS
from ..source import SourceFile, Span
from . import ast
from .validate import MAX_NESTING

CONVENTIONS = {"mut", "owned", "out", "ref", "var"}
_MAX_DECIMAL_DIGITS = len(str(1 << MAX_FOLD_BITS))  # the digits of the largest literal that can fold
_SURROGATE = re.compile("[\ud800-\udfff]")
AUG_OPS = {"+=": "+", "-=": "-", "*=": "*", "/=": "/", "//=": "//", "%=": "%", "**=": "**",
           "&=": "&", "|=": "|", "^=": "^", "<<=": "<<", ">>=": ">>", "@=": "@"}


@v_args(meta=True)
class BuildAst(Transformer_NonRecursive):
    def __init__(self, source: SourceFile, diags: DiagnosticBag, offset: int = 0):
        super().__init__()
        self.source = source
        self.diags = diags
        self.offset = offset  # where the parsed text starts in the file (an f-string's expression)

    # ---- helpers ----
    def _span(self, meta) -> Span:
        if getattr(meta, "empty", True):
            return self.source.span(0, 0)
        return self.source.span(meta.start_pos + self.offset, meta.end_pos + self.offset)

    def _tok(self, tok: Token) -> Span:
        return self.source.span(tok.start_pos + self.offset, tok.end_pos + self.offset)

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
        return self._flatten(children)

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
        exc, cause = c
        if cause is not None:
            self._unsupported(meta, "`raise ... from ...`", "E0007")
        return ast.Raise(self._span(meta), exc, None)

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
        return ast.Import(self._span(meta), c[0], None, tuple(names), True)

    def yield_stmt(self, meta, c):
        return self._bad_stmt(meta, "`yield` (generators)")

    def async_stmt(self, meta, c):
        return self._bad_stmt(meta, "`async`")

    def global_stmt(self, meta, c):
        return self._bad_stmt(meta, "`global`")

    def nonlocal_stmt(self, meta, c):
        return self._bad_stmt(meta, "`nonlocal`")

    def del_stmt(self, meta, c):
        return self._bad_stmt(meta, "`del`")

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
            return self._bad_stmt(meta, "`while ... else`", "E0007")
        return ast.While(self._span(meta), test, body)

    def for_stmt(self, meta, c):
        target, iterable, body, orelse = c
        if orelse is not None:
            return self._bad_stmt(meta, "`for ... else`", "E0007")
        return ast.For(self._span(meta), target, iterable, body)

    def comptime_if(self, meta, c):
        plain = self.if_stmt(meta, c)
        return _comptime_chain(plain)

    def comptime_for(self, meta, c):
        target, iterable, body = c
        return ast.ComptimeFor(self._span(meta), target, iterable, body)

    def with_stmt(self, meta, c):
        return self._bad_stmt(meta, "`with`")

    def try_stmt(self, meta, c):
        body, *rest = c
        handlers = tuple(x for x in rest if isinstance(x, ast.Handler))
        tails = [x for x in rest if isinstance(x, tuple) and not isinstance(x, ast.Handler)]
        # The grammar's order: else (a tuple from else_clause) comes before finally (a ("finally", body) pair).
        orelse, finalbody = (), ()
        for x in rest:
            if isinstance(x, list) and x and x[0] == "finally":
                finalbody = x[1]
        plain = [x for x in tails]
        if plain:
            orelse = plain[0]
        return ast.Try(self._span(meta), body, handlers, orelse, finalbody)

    def except_clause(self, meta, c):
        types, name, body = c
        return ast.Handler(self._span(meta), types, str(name) if name is not None else None, body)

    def finally_clause(self, meta, c):
        return ["finally", c[0]]

    def classdef(self, meta, c):
        return self._bad_stmt(meta, "`class` (use `struct`)")

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
        return target

    def funcdef(self, meta, c):
        kind, name, ct_params, params, raises, returns, body = c
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

    def empty_tuple(self, meta, c):
        return ast.TupleExpr(self._span(meta), ())

    def paren(self, meta, c):
        return c[0]

    def ifexp(self, meta, c):
        body, test, orelse = c
        return ast.IfExp(self._span(meta), test, body, orelse)

    def lambdef(self, meta, c):
        return self._bad_expr(meta, "`lambda`")

    def walrus(self, meta, c):
        return self._bad_expr(meta, "the `:=` operator")

    def lambda_params(self, meta, c):
        return None

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
        args, keywords = [], []
        for a in arguments or ():
            (keywords if isinstance(a, ast.Keyword) else args).append(a)
        return ast.Call(self._span(meta), func, tuple(args), tuple(keywords))

    def arguments(self, meta, c):
        return [x for x in c]

    def subscripts(self, meta, c):
        return [x for x in c]

    def subscript(self, meta, c):
        return ast.Subscript(self._span(meta), c[0], tuple(c[1]))

    def slice(self, meta, c):
        return self._bad_expr(meta, "slicing", "E0007")

    def attribute(self, meta, c):
        return ast.Attribute(self._span(meta), c[0], str(c[1]))

    def keyword(self, meta, c):
        return ast.Keyword(self._span(meta), str(c[0]), c[1])

    def star_arg(self, meta, c):
        return self._bad_expr(meta, "argument unpacking with `*`")

    def generator(self, meta, c):
        return self._bad_expr(meta, "a generator expression")

    def comp_for(self, meta, c):
        return None

    def list_display(self, meta, c):
        items = c[0] if c and c[0] is not None else []
        if any(not isinstance(x, ast.Expr) or isinstance(x, ast.Keyword) for x in items):
            return self._bad_expr(meta, "a list literal with `*` or keywords", "E0007")
        return ast.ListExpr(self._span(meta), tuple(items))

    def list_comp(self, meta, c):
        return self._bad_expr(meta, "a list comprehension", "E0007")

    def dict_display(self, meta, c):
        items = c[0] if c and c[0] is not None else []
        if any(len(item) != 2 for item in items):
            return self._bad_expr(meta, "a set literal", "E0007")
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
        parts = []
        for tok in c:
            text = str(tok)
            if text[:1] in "bB" or text[:2].lower() in ("rb", "br"):
                return self._bad_expr(meta, "bytes literals", "E0007")
            try:
                with warnings.catch_warnings():
                    # '\ ' and friends keep their backslash, as in Python; no warning on the console.
                    warnings.simplefilter("ignore")
                    parts.append(pyast.literal_eval(text))
            except (ValueError, SyntaxError) as exc:
                self.diags.error("E0004", self._tok(tok), detail=str(exc))
                parts.append("")
                continue
            if not self._valid_text(parts[-1], self._tok(tok)):
                parts[-1] = ""
        return ast.StrLit(self._span(meta), "".join(parts))

    def _valid_text(self, text: str, span: Span) -> bool:
        """A string pyx can hold: its text is UTF-8, and a lone surrogate (`"\\ud800"`) has no UTF-8
        form. CPython keeps one in a str but fails when printing it (UnicodeEncodeError); pyx
        says so at the literal (E0009) instead of compiling something that cannot be printed."""
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

    def fstring(self, meta, c):
        """`f"x = {x:.2f}!"`: the text pieces joined with `+` to `str(x)`, `repr(x)` (`!r`) or
        `format(x, ".2f")` (a spec), as Python evaluates it. The expressions keep their places
        in the file, so errors in them point where they are written."""
        tok = c[0]
        text = str(tok)
        try:
            joined = pyast.parse(text, mode="eval").body
        except SyntaxError as exc:
            self.diags.error("E0004", self._tok(tok), detail=f"f-string: {exc.msg}")
            return ast.StrLit(self._tok(tok), "")
        except (MemoryError, RecursionError):  # CPython's parser gives up on deeper nesting than pyx allows
            self.diags.error("E0003", self._tok(tok), limit=MAX_NESTING)
            return ast.StrLit(self._tok(tok), "")
        span = self._tok(tok)
        parts: list[ast.Expr] = []
        for value in joined.values:
            if isinstance(value, pyast.Constant):
                if not self._valid_text(value.value, span):
                    return ast.ErrorExpr(span)
                parts.append(ast.StrLit(span, value.value))
                continue
            start = tok.start_pos + self.offset + _char_offset(text, value.value.col_offset)
            end = tok.start_pos + self.offset + _char_offset(text, value.value.end_col_offset)
            inner = self._inner_expression(start, end)
            if value.conversion == ord("a"):
                return self._bad_expr(meta, "`!a` in an f-string", "E0007")
            if value.format_spec is not None:
                if not all(isinstance(v, pyast.Constant) for v in value.format_spec.values):
                    return self._bad_expr(meta, "a `{...}` inside an f-string's format spec", "E0007")
                spec = "".join(v.value for v in value.format_spec.values)
                if not self._valid_text(spec, span):
                    return ast.ErrorExpr(span)
                if value.conversion == ord("r"):
                    inner = ast.Call(inner.span, ast.Name(span, "repr"), (inner,), ())
                parts.append(ast.Call(inner.span, ast.Name(span, "format"), (inner, ast.StrLit(span, spec)), ()))
            else:
                name = "repr" if value.conversion == ord("r") else "str"
                parts.append(ast.Call(inner.span, ast.Name(span, name), (inner,), ()))
        if not parts:
            return ast.StrLit(span, "")
        result = parts[0]
        for part in parts[1:]:
            result = ast.Binary(span, "+", result, part)
        return result

    def _inner_expression(self, start: int, end: int) -> ast.Expr:
        """Parse source[start:end] as an expression, its nodes' spans where it is in the file: it
        is parsed alone, parenthesized (so a space before it is no indentation), and the spans
        are moved by where it starts. (Parsing the whole file blanked around it, once for every
        `{...}`, made a file of many f-strings quadratic.)"""
        from .parser import _parser

        try:
            tree = _parser().parse("(" + self.source.text[start:end] + ")\n")
        except Exception:  # noqa: BLE001 - Python accepted it; pyx's grammar did not
            self.diags.error("E0004", self.source.span(start, end), detail="f-string expression pyx cannot parse")
            return ast.ErrorExpr(self.source.span(start, end))
        body = BuildAst(self.source, self.diags, start - 1).transform(tree)  # the "(" is at start - 1
        statement = body[0] if body else None
        return statement.expr if isinstance(statement, ast.ExprStmt) else ast.ErrorExpr(self.source.span(start, end))

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


def _char_offset(line: str, utf8_offset: int) -> int:
    """Python's ast columns count UTF-8 bytes; spans count characters."""
    return len(line.encode("utf-8")[:utf8_offset].decode("utf-8", "ignore"))


def build(tree: Tree, source: SourceFile, diags: DiagnosticBag) -> tuple:
    return BuildAst(source, diags).transform(tree)


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
