"""Checking of `raise` and `try`/`except`/`else`/`finally`, and of the `raises` effect."""
from __future__ import annotations

from .. import types as T
from ..source import Span
from ..syntax import ast
from ..types import ERROR
from .exceptions import PARENT, covered
from .typed import LocalVar, TConst, THandler, TRaise, TTry
from .rules import _merge, _source_text
from .imports import is_string


class ExceptionChecks:
    """Mixed into FunctionChecker."""

    def check_may_raise(self, what: str, span: Span) -> None:
        decl = self.fn.decl
        if decl.kind == "fn" and not decl.raises and self.try_depth == 0:
            self.diags.error("E0135", span, func=decl.name, what=what)

    def stmt_Raise(self, s: ast.Raise):
        if s.exc is None:
            if self.handler_depth == 0:
                self.diags.error("E0136", s.span)
                return None
            self.check_may_raise("the exception it handles", s.span)
            self.assigned = None
            return TRaise(s.span, None, "")
        exc = s.exc
        if isinstance(exc, ast.Name) and isinstance(self.scopes.lookup(exc.id), LocalVar):
            value = self.expr(exc)
            if value.type == T.EXCEPTION:
                self.check_may_raise(f"`{exc.id}`", s.span)
                self.assigned = None
                return TRaise(s.span, None, "", value)
        cls, args = (exc.func, exc.args) if isinstance(exc, ast.Call) else (exc, ())
        if not isinstance(cls, ast.Name) or cls.id not in PARENT or self.scopes.lookup(cls.id) is not None:
            self.diags.error("E0137", exc.span, name=_source_text(exc), known=", ".join(sorted(PARENT)))
            return None
        message, text = "", None
        if len(args) > 1:
            self.diags.error("E0204", exc.span, func=cls.id, expected="0 or 1", s="s", found=len(args))
        elif args:
            value = self.expr(args[0])
            if isinstance(value, TConst) and isinstance(value.value, str):
                message = value.value
            elif is_string(value.type):  # `raise ValueError("bad: " + name)`
                text = value
                self.fn.raises_text = True
            elif value.type != ERROR:
                self.diags.error("E0217", args[0].span, name=f"the message of {cls.id}")
        self.check_may_raise(f"`{cls.id}`", s.span)
        self.assigned = None
        return TRaise(s.span, cls.id, message, text=text)

    def stmt_Try(self, s: ast.Try):
        before = self._copy_state()
        if s.handlers:
            self.try_depth += 1
        body = self.block(s.body, new_scope=True)
        if s.handlers:
            self.try_depth -= 1
        orelse = self.block(s.orelse, new_scope=True)
        states = [self.assigned]
        handlers = []
        for h in s.handlers:
            self.assigned = set(before) if before is not None else None
            classes = self.exception_classes(h.types)
            self.scopes.push()
            var = None
            if h.name is not None:
                var = self._new_var(h.name, T.EXCEPTION, h.span)
                self.scopes.declare(h.name, var)
                self.refer_local(h.span, var)
                if self.assigned is not None:
                    self.assigned.add(var)
            self.handler_depth += 1
            hbody = self.block(h.body)
            self.handler_depth -= 1
            self.scopes.pop()
            handlers.append(THandler(classes, var, hbody))
            states.append(self.assigned)
        merged = None
        for state in states:
            merged = _merge(merged, state)
        self.assigned = set(before) if before is not None else None
        finalbody = self.block(s.finalbody, new_scope=True)
        if merged is not None and self.assigned is not None:
            merged = merged | (self.assigned - (before or set()))
        self.assigned = merged if self.assigned is not None else None
        return TTry(s.span, body, handlers, orelse, finalbody)

    def exception_classes(self, node) -> set[str] | None:
        if node is None:
            return None
        names = node.elts if isinstance(node, ast.TupleExpr) else (node,)
        classes: set[str] = set()
        for n in names:
            if not isinstance(n, ast.Name) or n.id not in PARENT:
                self.diags.error("E0137", n.span, name=_source_text(n), known=", ".join(sorted(PARENT)))
                continue
            if n.id == "BaseException":
                return None
            classes |= covered(n.id)  # `Exception`: everything but KeyboardInterrupt
        return classes
