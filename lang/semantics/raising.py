"""Checking of `raise` and `try`/`except`/`else`/`finally`, and of the `raises` effect."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import types as T
from ..source import Span
from ..syntax import ast
from ..syntax.classes import data_name
from ..syntax.exception_data import DATA, MESSAGE
from ..types import ERROR
from .exception_values import as_raised, is_value, module_arguments, raised, unraising, with_data
from .exceptions import PARENT, UNCATCHABLE, UNCATCHABLE_IN_STDLIB, covered, known_names
from .imports import is_stdlib_file, is_string
from .inheritance import handle_at, held_address
from .rules import merge_assigned, source_text
from .typed import LocalVar, TBlock, TBuiltin, TConst, TExpr, TField, THandler, TLocal, TRaise, TTry

if TYPE_CHECKING:
    from .check import FunctionChecker
    from .expressions import ExpressionChecker
    from .messages import MessageBuilder


# The classes whose Python arguments the stdlib's message does not show (an OSError's errno, a
# UnicodeError's five, sys.exit's code): raised there, the exception's `shown` says so (UNSHOWN,
# stdlib/runtime_exc.px), and keeping one caught as a value stops the program (exception_value.px).
UNSHOWN = 3
_UNSHOWN = covered("OSError") | covered("UnicodeError") | {"_SystemExitCode"}
# The stdlib file raising, as pyx's exception, the one Python code raised (its message Python's
# str() of it; its arguments unknown to pyx): each of its raises is UNSHOWN too.
_FROM_PYTHON = "/python.px"


class ExceptionChecker:
    """`raise` and `try`: which functions may raise, handlers and their flow.
    Reached as `chk.exceptions` from the other checkers."""

    def __init__(self, chk: FunctionChecker) -> None:
        self.chk: FunctionChecker = chk
        self.exprs: ExpressionChecker = chk.exprs
        self.msg: MessageBuilder = chk.msg
        # A handler's variable -> the exception class with data it holds (`except C as e`), and
        # -> every class it may hold.
        self.caught: dict[LocalVar, str] = {}
        self.caught_any: dict[LocalVar, set[str]] = {}

    def check_may_raise(self, what: str, span: Span) -> None:
        decl = self.chk.fn.decl
        if decl.kind == "fn" and not decl.raises and self.chk.try_depth == 0:
            self.msg.error("E0135", span, func=decl.name, what=what)

    def stmt_Raise(self, s: ast.Raise):
        if s.cause is not None and not self.cause(s.cause):
            return None
        if s.exc is None:
            if self.chk.handler_depth == 0:
                self.msg.error("E0136", s.span)
                return None
            self.check_may_raise("the exception it handles", s.span)
            self.chk.assigned = None
            return TRaise(s.span, None, "")
        exc = s.exc
        if isinstance(exc, ast.Name) and isinstance(self.chk.scopes.lookup(exc.id), LocalVar):
            value = self.exprs.expr(exc)
            if value.type == ERROR:  # (reported where it was made: `e = AppError("x")` is E0316)
                return None
            if value.type == T.EXCEPTION:
                self.check_may_raise(f"`{exc.id}`", s.span)
                self.chk.assigned = None
                return TRaise(s.span, None, "", value)
            if is_value(value.type):  # `raise err` of an exception value (semantics/exception_values.py)
                return raised(self.chk, s, value)
        user = self.chk.module.exceptions
        if isinstance(exc, (ast.Subscript, ast.Attribute)) or (isinstance(exc, ast.Call) and (
                not isinstance(exc.func, ast.Name) or exc.func.id in self.chk.module.functions
                or isinstance(self.chk.scopes.lookup(exc.func.id), LocalVar))):
            value = self.exprs.expr(exc)  # `raise errors[0]`, `raise make_error()`
            if value.type == ERROR:
                return None
            if is_value(value.type):
                return raised(self.chk, s, value)
        cls, args = (exc.func, exc.args) if isinstance(exc, ast.Call) else (exc, ())
        if isinstance(exc, ast.Call) and isinstance(cls, ast.Name) and cls.id.startswith(DATA) \
                and cls.id in self.chk.module.structs:  # a class whose `__init__` stores data
            return self.raise_object(s, exc, cls.id[len(DATA):])
        stops = isinstance(cls, ast.Name) and cls.id == UNCATCHABLE_IN_STDLIB and is_stdlib_file(s.span.file.name)
        if not isinstance(cls, ast.Name) or (not stops and ((cls.id not in PARENT and cls.id not in user)
                                                            or self.chk.scopes.lookup(cls.id) is not None)):
            self.msg.error("E0137", exc.span, name=source_text(exc), known=known_names(user))
            return None
        message, text = "", None
        if len(args) > 1:
            self.msg.error("E0204", exc.span, func=cls.id, expected="0 or 1", s="s", found=len(args))
        elif args:
            value = self.exprs.expr(args[0])
            # CPython's str() of a KeyError is the repr of its argument (`'x'`), as its lookups print.
            key_error = self.chk.fn.decl.kind == "def" and cls.id in covered("KeyError", user)
            if isinstance(value, TConst) and isinstance(value.value, str):
                message = repr(value.value) if key_error else value.value
            elif key_error and is_string(value.type):  # `raise KeyError(name)`
                text = self.chk.structs.method_call(value, "_quoted_repr", [], args[0].span) or value
                self.chk.fn.raises_text = True
            elif is_string(value.type):  # `raise ValueError("bad: " + name)`
                text = value
                self.chk.fn.raises_text = True
            elif value.type != ERROR:
                self.message_type(cls.id, value.type, source_text(args[0]), args[0].span, key_error)
        shown: TExpr | None = None
        unshown = is_stdlib_file(s.span.file.name) and (
            cls.id in _UNSHOWN or s.span.file.name.endswith(_FROM_PYTHON))  # (see _UNSHOWN)
        string = self.exprs.string_type()
        if text is None and string is not None and (unshown or (args and not message)):
            # (`raise E("")` is raised as a text: a raise of an empty message shows no argument, `E()`)
            text = self.exprs.coerce(self.exprs.expr(ast.StrLit(s.span, message)), string)
            self.chk.fn.raises_text = True
        if unshown:
            shown = TConst(s.span, T.INT, UNSHOWN)
        self.check_may_raise(f"`{cls.id}`", s.span)
        self.chk.assigned = None
        return TRaise(s.span, UNCATCHABLE if stops else cls.id, message, text=text, shown=shown)

    def cause(self, cause: ast.Expr) -> bool:
        """`raise X from Y`: Y is None, an exception class, or an exception the function holds (a
        caught `e`, an exception value). X is raised as `raise X` raises it: the cause shows only in
        CPython's report of an uncaught exception and in `X.__cause__`, which pyx does not keep.
        Any other Y is E0359 (CPython's TypeError "exception causes must derive from BaseException")."""
        if isinstance(cause, ast.NoneLit):
            return True
        if isinstance(cause, ast.Name):
            found = self.chk.scopes.lookup(cause.id)
            if isinstance(found, LocalVar) and (found.type == T.EXCEPTION or is_value(found.type)
                                                or found in self.caught):
                return True
            if found is None and (cause.id in PARENT or cause.id in self.chk.module.exceptions):
                return True
        self.msg.error("E0359", cause.span, cause=source_text(cause))
        return False

    def message_type(self, cls: str, found: T.Type, arg: str, span: Span, key_error: bool) -> None:
        """E0302: `raise C(x)` of a builtin class (or one without an `__init__`) with x no str."""
        if cls == "SystemExit":
            fix = f"; `sys.exit({arg})` (`import sys`) ends the program with that status"
        elif key_error or cls in covered("KeyError", self.chk.module.exceptions):
            fix = " (a KeyError's `str()` is the repr of its key, `1` or `'1'`): raise it with a str key"
        else:
            fix = f"; write `{cls}(str({arg}))`, which Python prints the same"
        self.msg.error("E0302", span, cls=cls, found=T.default_type(found), fix=fix)

    def raise_object(self, s: ast.Raise, call: ast.Call, cls: str):
        """`raise C(...)` of an exception class with data (syntax/exception_data.py wrote it
        `raise __pyx_exc_C(...)`): the object that call makes, raised as a C with its message; the
        exception keeps a reference to it, which `except C as e` reads (`e.needed`)."""
        init = self.chk.module.structs[DATA + cls].methods.get("__init__")
        if init is not None and not call.keywords:  # (named like the class the user wrote)
            params = [p for p in init.params[1:] if not p.variadic]
            required = sum(p.default is None for p in params)
            if not required <= len(call.args) <= len(params):
                expected = required if required == len(params) else f"{required} to {len(params)}"
                self.msg.error("E0204", call.span, func=cls, expected=expected,
                               s="" if expected == 1 else "s", found=len(call.args))
                return None
        made = self.exprs.expr(call)
        if made.type == ERROR:
            return None
        obj = self.chk.new_var("$raised", made.type, s.span)
        held = TLocal(s.span, made.type, obj)
        # (the exception's reference, given back by its `__del__` with the messages made at run
        # time: codegen/runtime_lib.py `__pyx_exc_keep`)
        prelude, address = held_address(self.chk, TField(s.span, T.ptr(T.INT), held, 0), s.span)
        self.chk.ownership.need_drop(made.type, s.span)
        drop = self.chk.fn.drops.get(made.type)
        text = self.chk.structs.field_read(held, MESSAGE, s.span)
        self.chk.fn.raises_text = True
        self.check_may_raise(f"`{cls}`", s.span)
        self.chk.assigned = None
        if drop is None:
            return None
        raised = TRaise(s.span, cls, "", text=text, payload=address, drop=drop.symbol)
        return TBlock(s.span, [self.chk.store([obj], [made], s.span), *prelude, raised])

    def caught_object(self, var: LocalVar, attr: str, span: Span) -> TExpr | None:
        """`e.attr` of a handler's exception e: the attribute of the object its class's `__init__`
        made (None: e holds no such object; E0322 where its handler names a base of such a class);
        `e.args` (`arguments`)."""
        cls = self.caught.get(var)
        if attr == "args" and not (cls is not None and self._stores(cls, attr)):
            return self.arguments(var, span)
        if cls is not None:
            if not self._stores(cls, attr):
                self.msg.error("E0223", span, name=cls, attr=attr)
                return TConst(span, ERROR, None)
            target = self.chk.module.structs[DATA + cls].type
            address = TBuiltin(span, T.ptr(T.INT), "exc_payload", [TLocal(span, T.EXCEPTION, var)])
            return self.chk.structs.field_read(handle_at(self.chk, address, target, span), attr, span)
        for name in sorted(self.caught_any.get(var, ())):
            if self._stores(name, attr):
                self.msg.error("E0322", span, name=var.name, attr=attr, cls=name)
                return TConst(span, ERROR, None)
        return None

    def _argument(self, cls: str) -> ast.Expr | None:
        """What exception class with data cls's `super().__init__` is given, its message (syntax/
        exception_data.py stores `str()` of it, `repr()` under a KeyError): None when nothing."""
        init = self.chk.module.structs[DATA + cls].methods["__init__"]
        for stmt in init.body:  # (syntax/classes.py made `self.a = v` a `var __pyx_init_a: T = v`)
            if isinstance(stmt, ast.VarDecl) and stmt.name.endswith(MESSAGE) and isinstance(stmt.value, ast.Call):
                return stmt.value.args[0]
        return None

    def kept_exactly(self, var: LocalVar, span: Span) -> tuple[str, Any] | str:
        """How Python's arguments of the caught exception var are kept: ("none", None), a class
        with data given nothing; ("str", the argument) where it is given a str, which is then its
        message; for the module's own classes without data, ("str" | "none" | "mixed", the classes
        raised with none, `|A|B|`) where its raises say (semantics/exception_values.py
        `module_arguments`); ("key", None) where var is a KeyError (its message is the repr of its one argument,
        or empty for none); else why not (for E0303)."""
        cls = self.caught.get(var)
        if cls is not None:
            argument = self._argument(cls)
            if argument is None:
                return ("none", None)
            if cls in covered("KeyError", self.chk.module.exceptions):
                return ("key", None)
            if _text(argument, self.chk.module.structs[DATA + cls].methods["__init__"]):
                return ("str", argument)
            return (f"`{cls}`'s `super().__init__` is given `{source_text(argument)}`, which pyx keeps as "
                    f"text, `str({source_text(argument)})`, not as the value itself")
        classes = self.caught_any.get(var)
        if classes and classes <= covered("KeyError", self.chk.module.exceptions):
            return ("key", None)
        data = with_data(self.chk, classes)  # (`except Exception as e` where a class with data is raised)
        if data is not None:
            return data
        found = module_arguments(self.chk, classes or set())  # the module's own classes, each raised alike
        if found is not None:
            return found
        user, caught = self.chk.module.exceptions, classes or set()
        named = min((c for c in caught if (user.get(c) or PARENT.get(c)) not in caught), default="Exception")
        errno = ", and an `OSError`'s errno is no argument pyx keeps" if classes is None or "OSError" in caught else ""
        return (f"pyx keeps `{var.name}` as its class and its message: `{named}()` and `{named}('')` look the "
                f"same{errno}")

    def representation(self, var: LocalVar, span: Span) -> TExpr:
        """`repr(e)` (and `f"{e!r}"`) of a caught exception: Python's `C('message')`, `C()`, or for a
        KeyError `KeyError(<its str>)`, where pyx keeps what it shows (E0303 elsewhere)."""
        how = self.kept_exactly(var, span)
        if isinstance(how, str) and not as_raised(self.chk, var):
            self.msg.error("E0325", span, name=var.name, why=how + unraising(self.chk, var))
            return TConst(span, ERROR, None)
        e = ast.Name(span, var.name)
        text = ast.Call(span, ast.Name(span, "str"), (e,), ())
        if isinstance(how, str) or how[0] == "mixed":  # `A()` or `B('text')` as its class (or its raise) says
            from .exception_values import from_caught, value_type

            target = value_type(self.chk)
            kept = from_caught(self.chk, TLocal(span, T.EXCEPTION, var), target) if target is not None else None
            if kept is None or kept.type == ERROR:
                return TConst(span, ERROR, None)
            return self.chk.structs.method_call(kept, "__repr__", [], span) or TConst(span, ERROR, None)
        name = ast.Attribute(span, ast.Call(span, ast.Name(span, "type"), (e,), ()), "__name__")
        if how[0] == "none":
            return self.exprs.expr(ast.Binary(span, "+", name, ast.StrLit(span, "()")))
        shown = text if how[0] == "key" else ast.Call(span, ast.Name(span, "repr"), (text,), ())
        opened = ast.Binary(span, "+", name, ast.StrLit(span, "("))
        return self.exprs.expr(ast.Binary(span, "+", ast.Binary(span, "+", opened, shown), ast.StrLit(span, ")")))

    def arguments(self, var: LocalVar, span: Span) -> TExpr:
        """`e.args` of a caught exception: `(message,)` where that is the str its class with data
        was given (E0303 elsewhere)."""
        how = self.kept_exactly(var, span)
        if isinstance(how, tuple) and how[0] == "none":
            how = "it would be the empty tuple, `()`, which pyx has not yet"
        elif isinstance(how, tuple) and how[0] == "mixed":
            bare = how[1].strip("|").replace("|", ", ")
            how = f"it would be the empty tuple, `()`, for {bare}, which pyx has not yet"
        elif isinstance(how, tuple) and how[0] == "key":
            how = (f"a KeyError's argument may be of any type (`d[1]` raises `KeyError(1)`); "
                   f"`str({var.name})` is its repr")
        if isinstance(how, str):
            self.msg.error("E0303", span, name=var.name, what="args", why=how, fix=f"str({var.name})")
            return TConst(span, ERROR, None)
        text = ast.Call(span, ast.Name(span, "str"), (ast.Name(span, var.name),), ())
        return self.exprs.expr(ast.TupleExpr(span, (text,)))

    def narrowed(self, var: LocalVar, cls: str, span: Span):
        """`assert isinstance(e, C)` (or the top of `if isinstance(e, C):`) of a caught exception e,
        C a class with data: e is a C for the rest of the block (a new variable holding it, whose
        attributes are C's object's); None for any other C."""
        if DATA + cls not in self.chk.module.structs:
            return None
        new = self.chk.new_var(var.name, T.EXCEPTION, span)
        store = self.chk.store([new], [TLocal(span, T.EXCEPTION, var)], span)
        self.chk.scopes.declare(var.name, new)
        self.caught[new] = cls
        return store

    def _stores(self, cls: str, attr: str) -> bool:
        """Whether exception class cls's `__init__` stores attribute attr (its object's data has it)."""
        data = self.chk.module.structs.get(data_name(DATA + cls))
        return data is not None and not attr.startswith("__pyx") and data.type.field_index(attr) is not None

    def stmt_Try(self, s: ast.Try):
        before = self.chk.copy_state()
        if s.handlers:
            self.chk.try_depth += 1
        body = self.chk.block(s.body, new_scope=True)
        if s.handlers:
            self.chk.try_depth -= 1
        orelse = self.chk.block(s.orelse, new_scope=True)
        states = [self.chk.assigned]
        handlers = []
        for h in s.handlers:
            self.chk.assigned = set(before) if before is not None else None
            classes = self.exception_classes(h.types)
            self.chk.scopes.push()
            var = None
            if h.name is not None:
                var = self.chk.new_var(h.name, T.EXCEPTION, h.span)
                if classes is not None:
                    self.caught_any[var] = classes
                    named = [n for n in classes if DATA + n in self.chk.module.structs]
                    if len(named) == 1 and isinstance(h.types, ast.Name) and h.types.id == named[0]:
                        self.caught[var] = named[0]  # `except C as e`: e's object is a `__pyx_exc_C`
                self.chk.scopes.declare(h.name, var)
                self.chk.refer_local(h.span, var)
                if self.chk.assigned is not None:
                    self.chk.assigned.add(var)
            self.chk.handler_depth += 1
            hbody = self.chk.block(h.body)
            self.chk.handler_depth -= 1
            self.chk.scopes.pop()
            clause = h.span if h.types is None else Span(h.span.file, h.span.start, h.types.span.end)
            handlers.append(THandler(classes, var, hbody, clause))  # (the clause: `except E`)
            states.append(self.chk.assigned)
        merged = None
        for state in states:
            merged = merge_assigned(merged, state)
        self.chk.assigned = set(before) if before is not None else None
        finalbody = self.chk.block(s.finalbody, new_scope=True)
        if merged is not None and self.chk.assigned is not None:
            merged = merged | (self.chk.assigned - (before or set()))
        self.chk.assigned = merged if self.chk.assigned is not None else None
        return TTry(s.span, body, handlers, orelse, finalbody)

    def exception_classes(self, node) -> set[str] | None:
        if node is None:
            return None
        names = node.elts if isinstance(node, ast.TupleExpr) else (node,)
        classes: set[str] = set()
        user = self.chk.module.exceptions  # the module's own exception classes
        for n in names:
            if not isinstance(n, ast.Name) or (n.id not in PARENT and n.id not in user):
                self.msg.error("E0137", n.span, name=source_text(n), known=known_names(user))
                continue
            if n.id == "BaseException":
                return None
            classes |= covered(n.id, user)  # `Exception`: everything but KeyboardInterrupt
        return classes


def _text(arg: ast.Expr, init: ast.FnDef) -> bool:
    """Whether arg is a str whatever its operands' values: a literal, an f-string, a `str(...)`, a
    parameter annotated `str`, `+` with such an operand, `%` of a literal."""
    if isinstance(arg, ast.StrLit):
        return True
    if isinstance(arg, ast.Binary):
        return (arg.op == "+" and (_text(arg.left, init) or _text(arg.right, init))) \
            or (arg.op == "%" and isinstance(arg.left, ast.StrLit))
    if isinstance(arg, ast.Call) and isinstance(arg.func, ast.Name):
        return arg.func.id in ("str", "repr", "format", "chr")
    if isinstance(arg, ast.Call) and isinstance(arg.func, ast.Attribute):
        return isinstance(arg.func.value, ast.StrLit) and arg.func.attr in ("format", "join")
    if isinstance(arg, ast.Name):
        return any(p.name == arg.id and isinstance(p.annotation, ast.Name) and p.annotation.id == "str"
                   for p in init.params) and not _assigned(arg.id, init)
    return False


def _assigned(name: str, fn: ast.FnDef) -> bool:
    stack: list = list(fn.body)
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.Assign, ast.AugAssign)):
            targets = (n.target,) if isinstance(n, ast.AugAssign) else n.targets
            if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                return True
        stack.extend(ast.children(n))
    return False
