"""Hypothesis strategies for random, well-typed programs in the common subset of pyx and Python.

Every program this module produces is meant to be valid Python *and* valid pyx, and to
print the same thing under both (or raise the same exception), as long as CPython never
computes an int outside the 64-bit range: the runner in `cpython.py` discards those cases.

The generator tracks the *Python* type (int, float, bool) of every expression it builds
and of every variable it declares, so:

- a variable keeps one type forever (pyx's rule); a name declared inside a block is used
  after it only where Python and pyx agree it is assigned (every branch of an if/else
  assigns it, or it is the variable of a `for` over a non-empty range of literals), and a
  name is only ever re-declared later with its original type;
- a float position always gets an expression whose Python value is a float (never an int
  literal: pyx would adapt it to a float, Python would keep an int and print `1`, not `1.0`);
- `and` / `or` / `x if c else y` / `min` / `max` take operands of one type; a bool meets
  ints only in `+ - *` and comparisons, where both languages treat it as 0 or 1;
- int exponents are small and non-negative, shift counts non-negative;
- every loop is bounded (range bounds are clamped to a small interval, or a counter breaks
  out; `while` loops count), and recursion only goes through a decreasing counter.

The documented differences between pyx and Python are not generated, or are discarded at
run time by the runner in `cpython.py`: ints beyond 64 bits, mixed int/float `min`/`max`,
`or`/`and`/conditional expressions of different types, negative int exponents, ints beyond
2**53 divided with `/`, negative floats to fractional powers.
Known pyx bugs (known_bugs.py) are steered around too.

`python tests/differential/generate.py [N]` prints N sample programs.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from hypothesis import strategies as st

INT, FLOAT, BOOL = "int", "float", "bool"
TYPES = (INT, FLOAT, BOOL)

# Python's precedence levels, loosest first.
P_COND, P_OR, P_AND, P_NOT, P_CMP, P_BOR, P_BXOR, P_BAND, P_SHIFT, P_ADD, P_MUL, P_UNARY, P_POW, P_ATOM = range(14)
BINARY_PREC = {
    "|": P_BOR, "^": P_BXOR, "&": P_BAND, "<<": P_SHIFT, ">>": P_SHIFT, "+": P_ADD, "-": P_ADD,
    "*": P_MUL, "/": P_MUL, "//": P_MUL, "%": P_MUL, "**": P_POW,
}
COMPARE_OPS = ("<", "<=", ">", ">=", "==", "!=")

BOUNDARY_INTS = (
    2**31 - 1, 2**31, 2**32, 2**32 + 1, 2**53, 2**53 + 1, 2**62, 2**63 - 1, 2**63 - 2,
    10**18, 3037000499, 3037000500, 255, 256, 65535, 1 << 40,
)
NICE_FLOATS = (
    0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 0.1, 0.2, 0.3, 10.0, 100.0, 0.25, 1e-05, 0.0001, 1e16,
    1e15, 1e22, 1e300, 1e308, 1.7976931348623157e308, 5e-324, 2.2250738585072014e-308,
    123456789.125, 9007199254740993.0, 4.35, 1e-300, 7.0, 0.7, 1e100,
)


SPECIAL_FLOATS = ("1e308 * 10.0", "-1e308 * 10.0", "1e308 * 10.0 - 1e308 * 10.0")


@dataclass(frozen=True)
class Expr:
    text: str
    prec: int

    def at(self, prec: int) -> str:
        """The text, parenthesized if it binds looser than `prec` needs."""
        return self.text if self.prec >= prec else f"({self.text})"


def atom(text: str) -> Expr:
    return Expr(text, P_ATOM)


@dataclass
class FuncSig:
    name: str
    params: list[str]          # types
    ret: str | None            # None: a procedure (prints, returns nothing)
    recursive: bool = False    # first parameter is a counter that decreases on each call


@dataclass
class Program:
    source: str
    opt_level: str = "3"

    def __repr__(self) -> str:  # what hypothesis shows for a falsifying example
        return f"Program(opt_level={self.opt_level!r}, source=<<<\n{self.source}>>>)"


@dataclass
class Scope:
    """What a block can see: visible variables by type, and which of them may be assigned."""
    vars: dict[str, str] = field(default_factory=dict)
    readonly: set[str] = field(default_factory=set)

    def child(self) -> Scope:
        return Scope(dict(self.vars), set(self.readonly))

    def of_type(self, ty: str) -> list[str]:
        return [n for n, t in self.vars.items() if t == ty]

    def assignable(self, ty: str | None = None) -> list[str]:
        return [n for n, t in self.vars.items() if n not in self.readonly and (ty is None or t == ty)]


class FunctionState:
    def __init__(self, ret: str | None, sig: FuncSig | None):
        self.ret = ret
        self.sig = sig
        self.counter = 0
        self.declared: dict[str, str] = {}   # every local ever declared in this function, with its type
        self.allow_self = False              # a recursive function may call itself (past its base case)

    def fresh(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"


class Gen:
    """Builds one program by drawing every choice from hypothesis (so it shrinks)."""

    def __init__(self, draw, *, max_depth: int = 3, max_funcs: int = 3, max_stmts: int = 6,
                 expression_heavy: bool = False):
        self.draw = draw
        self.max_depth = max_depth
        self.max_funcs = max_funcs
        self.max_stmts = max_stmts
        self.expression_heavy = expression_heavy
        self.funcs: list[FuncSig] = []
        self.fn: FunctionState | None = None
        self.label = 0

    # -- drawing helpers -------------------------------------------------------------------

    def choice(self, options):
        return self.draw(st.sampled_from(options))

    def weighted(self, pairs):
        """pairs: [(weight, value)], the first ones being the simplest (hypothesis shrinks toward them)."""
        options = [v for w, v in pairs for _ in range(w) if w > 0]
        return self.choice(options)

    def rare(self, n: int) -> bool:
        """True one time in n; False is the simpler choice hypothesis shrinks toward."""
        return self.draw(st.integers(0, n - 1)) == n - 1

    def flip(self, p_true_in_8: int = 4) -> bool:
        return self.draw(st.integers(0, 7)) < p_true_in_8

    # -- literals --------------------------------------------------------------------------

    def int_literal(self) -> Expr:
        if self.rare(30):  # the smallest int has no literal of its own
            return Expr("-9223372036854775807 - 1", P_ADD)
        kind = self.weighted([(6, "small"), (2, "medium"), (1, "boundary"), (1, "any")])
        if kind == "small":
            value = self.draw(st.integers(0, 10))
        elif kind == "medium":
            value = self.draw(st.integers(0, 100_000))
        elif kind == "boundary":
            value = self.choice(BOUNDARY_INTS)
        else:
            value = self.draw(st.integers(0, 2**63 - 1))
        spelling = self.weighted([(8, "dec"), (1, "hex"), (1, "under"), (1, "oct"), (1, "bin")])
        if spelling == "hex":
            text = self.choice(["0x", "0X", "0x_"]) + (f"{value:x}" if self.flip() else f"{value:X}")
        elif spelling == "oct":
            text = oct(value)
        elif spelling == "bin" and value < 2**20:
            text = bin(value)
        elif spelling == "under" and value >= 1000:
            text = f"{value:_}"
        else:
            text = str(value)
        return atom(text)

    def float_literal(self) -> Expr:
        if self.rare(20):  # inf, -inf, nan: no literal spells them
            return Expr(self.choice(SPECIAL_FLOATS), P_ADD)
        if self.flip(5):
            value = self.choice(NICE_FLOATS)
        else:
            value = self.draw(st.floats(min_value=0.0, allow_nan=False, allow_infinity=False))
        text = repr(value)
        spelling = self.weighted([(10, "repr"), (1, "upper_e"), (1, "under"), (1, "short")])
        if spelling == "short" and text.startswith("0.") and len(text) > 2:
            text = text[1:]                      # .5
        elif spelling == "short" and text.endswith(".0"):
            text = text[:-1]                     # 5.
        elif spelling == "upper_e" and "e" in text:
            text = text.replace("e", "E")
        elif spelling == "under" and "e" not in text and "." in text:
            whole, frac = text.split(".")
            if len(whole) > 3:
                text = f"{int(whole):_}.{frac}"
        return atom(text)

    def bool_literal(self) -> Expr:
        return atom(self.choice(["True", "False"]))

    def literal(self, ty: str) -> Expr:
        return {INT: self.int_literal, FLOAT: self.float_literal, BOOL: self.bool_literal}[ty]()

    # -- expressions -----------------------------------------------------------------------

    def leaf(self, ty: str, scope: Scope) -> Expr:
        names = scope.of_type(ty)
        if names and self.flip(5):
            return atom(self.choice(names))
        return self.literal(ty)

    def expr(self, ty: str, scope: Scope, depth: int) -> Expr:
        if depth <= 0:
            return self.leaf(ty, scope)
        maker = {INT: self.int_expr, FLOAT: self.float_expr, BOOL: self.bool_expr}[ty]
        e = maker(scope, depth)
        if e.prec < P_ATOM and self.rare(16):
            e = atom(f"({e.text})")  # a redundant pair of parentheses now and then
        return e

    def binary(self, left: Expr, op: str, right: Expr) -> Expr:
        p = BINARY_PREC[op]
        if op == "**":  # right-associative; the left operand must be a primary
            return Expr(f"{left.at(P_ATOM)} ** {right.at(P_UNARY)}", P_POW)
        return Expr(f"{left.at(p)} {op} {right.at(p + 1)}", p)

    def unary(self, op: str, operand: Expr) -> Expr:
        if op == "not":
            return Expr(f"not {operand.at(P_NOT)}", P_NOT)
        text = operand.at(P_UNARY)
        return Expr(f"{op}{text}", P_UNARY)

    def call(self, name: str, args: list[Expr]) -> Expr:
        return atom(f"{name}({', '.join(a.text for a in args)})")

    def conditional(self, ty: str, scope: Scope, depth: int) -> Expr:
        then = self.expr(ty, scope, depth - 1)
        cond = self.expr(self.weighted([(3, BOOL), (1, INT), (1, FLOAT)]), scope, depth - 1)
        other = self.expr(ty, scope, depth - 1)
        return Expr(f"{then.at(P_OR)} if {cond.at(P_OR)} else {other.at(P_COND)}", P_COND)

    def logical(self, ty: str, scope: Scope, depth: int) -> Expr:
        op = self.choice(["and", "or"])
        p = P_AND if op == "and" else P_OR
        left = self.expr(ty, scope, depth - 1)
        right = self.expr(ty, scope, depth - 1)
        return Expr(f"{left.at(p)} {op} {right.at(p + 1)}", p)

    def min_max(self, ty: str, scope: Scope, depth: int) -> Expr:
        n = self.draw(st.integers(2, 3))
        return self.call(self.choice(["min", "max"]), [self.expr(ty, scope, depth - 1) for _ in range(n)])

    def user_call(self, ty: str | None, scope: Scope, depth: int) -> Expr | None:
        candidates = [f for f in self.funcs if f.ret == ty]
        if (self.fn is not None and self.fn.allow_self and self.fn.sig is not None and self.fn.sig.recursive
                and self.fn.sig.ret == ty):
            candidates.append(self.fn.sig)
        if not candidates:
            return None
        sig = self.choice(candidates)
        args = []
        for i, pty in enumerate(sig.params):
            if i == 0 and sig.recursive:
                if self.fn is not None and self.fn.sig is sig:
                    args.append(Expr(f"{sig_param(0)} - 1", P_ADD))  # the recursive call itself
                else:
                    args.append(self.counter_arg(scope, depth))
            else:
                args.append(self.expr(pty, scope, depth - 1))
        return self.call(sig.name, args)

    def counter_arg(self, scope: Scope, depth: int) -> Expr:
        if self.flip(4):
            return atom(str(self.draw(st.integers(0, 4))))
        inner = self.expr(INT, scope, depth - 1)
        return Expr(f"{inner.at(P_MUL)} % {self.draw(st.integers(1, 5))}", P_MUL)

    def small_exponent(self, scope: Scope, depth: int) -> Expr:
        if self.flip(5):
            return atom(str(self.draw(st.integers(0, 5))))
        inner = self.expr(INT, scope, depth - 1)
        return Expr(f"{inner.at(P_MUL)} % {self.draw(st.integers(1, 6))}", P_MUL)

    def shift_count(self, op: str, scope: Scope, depth: int) -> Expr:
        if self.flip(5):
            return atom(str(self.draw(st.integers(0, 63 if op == "<<" else 80))))
        inner = self.expr(INT, scope, depth - 1)
        if op == ">>" and self.flip(3):  # any non-negative count: 64 and more give 0 or -1
            return self.call("abs", [inner])
        return Expr(f"{inner.at(P_MUL)} % 64", P_MUL)

    def int_expr(self, scope: Scope, depth: int) -> Expr:
        kind = self.weighted([
            (3, "leaf"), (6, "arith"), (2, "divmod"), (1, "pow"), (1, "shift"), (2, "bits"),
            (2, "unary"), (1, "abs"), (1, "minmax"), (1, "int_of_float"), (1, "cond"),
            (1, "logical"), (2, "call"),
        ])
        d = depth - 1
        if kind == "arith":
            left, right = (BOOL if self.rare(10) else INT), (BOOL if self.rare(10) else INT)
            return self.binary(self.expr(left, scope, d), self.choice(["+", "-", "*"]), self.expr(right, scope, d))
        if kind == "divmod":
            return self.binary(self.expr(INT, scope, d), self.choice(["//", "%"]), self.expr(INT, scope, d))
        if kind == "pow":
            return self.binary(self.expr(INT, scope, d), "**", self.small_exponent(scope, depth))
        if kind == "shift":
            op = self.choice(["<<", ">>"])
            return self.binary(self.expr(INT, scope, d), op, self.shift_count(op, scope, depth))
        if kind == "bits":
            return self.binary(self.expr(INT, scope, d), self.choice(["&", "|", "^"]), self.expr(INT, scope, d))
        if kind == "unary":
            return self.unary(self.choice(["-", "~", "-", "+"]), self.expr(INT, scope, d))
        if kind == "abs":
            return self.call("abs", [self.expr(INT, scope, d)])
        if kind == "minmax":
            return self.min_max(INT, scope, depth)
        if kind == "int_of_float":
            return self.call("int", [self.expr(FLOAT, scope, d)])
        if kind == "cond":
            return self.conditional(INT, scope, depth)
        if kind == "logical":
            return self.logical(INT, scope, depth)
        if kind == "call":
            e = self.user_call(INT, scope, depth)
            if e is not None:
                return e
        return self.leaf(INT, scope)

    def float_operands(self, scope: Scope, d: int) -> tuple[Expr, Expr]:
        shape = self.weighted([(3, (FLOAT, FLOAT)), (1, (FLOAT, INT)), (1, (INT, FLOAT))])
        return self.expr(shape[0], scope, d), self.expr(shape[1], scope, d)

    def float_expr(self, scope: Scope, depth: int) -> Expr:
        kind = self.weighted([
            (3, "leaf"), (6, "arith"), (2, "div"), (1, "int_div"), (1, "divmod"), (1, "pow"),
            (1, "unary"), (1, "abs"), (1, "minmax"), (1, "float_of_int"), (1, "cond"),
            (1, "logical"), (2, "call"),
        ])
        d = depth - 1
        if kind == "arith":
            a, b = self.float_operands(scope, d)
            return self.binary(a, self.choice(["+", "-", "*"]), b)
        if kind == "div":
            a, b = self.float_operands(scope, d)
            return self.binary(a, "/", b)
        if kind == "int_div":  # int / int is a float in both languages
            return self.binary(self.expr(INT, scope, d), "/", self.expr(INT, scope, d))
        if kind == "divmod":
            a, b = self.float_operands(scope, d)
            return self.binary(a, self.choice(["//", "%"]), b)
        if kind == "pow":
            base = self.expr(FLOAT, scope, d) if self.flip(6) else self.expr(INT, scope, d)
            if self.flip(4):
                exponent = self.float_literal() if self.flip(6) else self.unary("-", self.float_literal())
            else:
                exponent = self.expr(FLOAT, scope, d)
            return self.binary(base, "**", exponent)
        if kind == "unary":
            return self.unary(self.choice(["-", "-", "+"]), self.expr(FLOAT, scope, d))
        if kind == "abs":
            return self.call("abs", [self.expr(FLOAT, scope, d)])
        if kind == "minmax":
            return self.min_max(FLOAT, scope, depth)
        if kind == "float_of_int":
            return self.call("float", [self.expr(INT, scope, d)])
        if kind == "cond":
            return self.conditional(FLOAT, scope, depth)
        if kind == "logical":
            return self.logical(FLOAT, scope, depth)
        if kind == "call":
            e = self.user_call(FLOAT, scope, depth)
            if e is not None:
                return e
        return self.leaf(FLOAT, scope)

    def comparison(self, scope: Scope, depth: int) -> Expr:
        n = self.weighted([(4, 2), (1, 3)])
        if self.flip(7):  # numbers (a bool is the number 0 or 1 next to them)
            types = [self.weighted([(6, INT), (4, FLOAT), (1, BOOL)]) for _ in range(n)]
        else:
            types = [BOOL] * n
        parts = [self.expr(types[0], scope, depth - 1).at(P_BOR)]
        for ty in types[1:]:
            parts.append(self.choice(COMPARE_OPS))
            parts.append(self.expr(ty, scope, depth - 1).at(P_BOR))
        return Expr(" ".join(parts), P_CMP)

    def bool_expr(self, scope: Scope, depth: int) -> Expr:
        kind = self.weighted([
            (2, "leaf"), (6, "compare"), (2, "not"), (2, "logical"), (1, "bool_of"), (1, "cond"),
            (1, "bits"), (1, "call"),
        ])
        d = depth - 1
        if kind == "compare":
            return self.comparison(scope, depth)
        if kind == "not":
            return self.unary("not", self.expr(self.weighted([(3, BOOL), (1, INT), (1, FLOAT)]), scope, d))
        if kind == "logical":
            return self.logical(BOOL, scope, depth)
        if kind == "bool_of":
            return self.call("bool", [self.expr(self.choice([INT, FLOAT]), scope, d)])
        if kind == "cond":
            return self.conditional(BOOL, scope, depth)
        if kind == "bits":  # bool & bool is a bool in Python
            return self.binary(self.expr(BOOL, scope, d), self.choice(["&", "|", "^"]), self.expr(BOOL, scope, d))
        if kind == "call":
            e = self.user_call(BOOL, scope, depth)
            if e is not None:
                return e
        return self.leaf(BOOL, scope)

    def bounded(self, scope: Scope, bound: int = 8) -> Expr:
        """An int expression whose value is known to lie in [-bound, bound]."""
        kind = self.weighted([(4, "literal"), (2, "mod"), (2, "clamp")])
        if kind == "literal":
            value = self.draw(st.integers(-bound, bound))
            return atom(str(value)) if value >= 0 else Expr(str(value), P_UNARY)
        inner = self.expr(INT, scope, self.draw(st.integers(0, 2)))
        if kind == "mod":
            return Expr(f"{inner.at(P_MUL)} % {2 * bound + 1} - {bound}", P_ADD)
        return self.call("min", [self.call("max", [inner, Expr(f"-{bound}", P_UNARY)]), atom(str(bound))])

    # -- statements ------------------------------------------------------------------------

    def declare_name(self, ty: str, scope: Scope, prefix: str = "v") -> str:
        """A name to declare with type `ty`: fresh, or one declared earlier with that type
        whose block has ended (pyx keeps one type per name for the whole function)."""
        dead = [n for n, t in self.fn.declared.items() if t == ty and n not in scope.vars]
        if dead and self.rare(6):
            name = self.choice(dead)
        else:
            name = self.fn.fresh(prefix)
        self.fn.declared[name] = ty
        return name

    def expr_depth(self) -> int:
        return self.draw(st.integers(0, self.max_depth))

    def print_stmt(self, scope: Scope) -> list[str]:
        if self.rare(20):
            return ["print()"]
        args = []
        if self.flip(3):
            self.label += 1
            args.append(f'"L{self.label}"')
        for _ in range(self.draw(st.integers(1, 4 if self.expression_heavy else 3))):
            args.append(self.expr(self.choice(TYPES), scope, self.expr_depth()).text)
        if self.rare(12):
            args.append(self.choice(['sep=", "', 'sep=""', 'end=" | "', 'end="\\n\\n"', "flush=True"]))
        return [f"print({', '.join(args)})"]

    def stmt(self, scope: Scope, depth: int, in_loop: bool) -> list[str]:
        procedures = [f for f in self.funcs if f.ret is None]
        kinds = [
            (3 if self.fn.ret is None else 1, "print"), (3, "declare"), (1, "assign"), (2, "augassign"),
            (1, "tuple"), (1 if depth > 0 else 0, "if"), (1 if depth > 0 else 0, "for"),
            (1 if depth > 0 else 0, "while"), (1 if procedures else 0, "proc"), (1, "chain"),
        ]
        if self.rare(100):
            return [f"assert {self.expr(BOOL, scope, 2).text}" + (', "failed"' if self.flip() else "")]
        kind = self.weighted(kinds)
        if kind == "print":
            return self.print_stmt(scope)
        if kind == "declare" or (kind in ("assign", "augassign", "tuple") and not scope.assignable()):
            ty = self.weighted([(3, INT), (2, FLOAT), (1, BOOL)])
            value = self.expr(ty, scope, self.expr_depth())
            name = self.declare_name(ty, scope)
            scope.vars[name] = ty
            return [f"{name} = {value.text}"]
        if kind == "chain":  # a = b = value: a new name and a variable of the same type
            ty = self.weighted([(3, INT), (2, FLOAT), (1, BOOL)])
            value = self.expr(ty, scope, self.expr_depth())
            targets = [self.declare_name(ty, scope)]
            existing = scope.assignable(ty)
            targets.append(self.choice(existing) if existing and self.flip() else self.declare_name(ty, scope))
            if targets[0] == targets[1]:
                targets.pop()
            for name in targets:
                scope.vars[name] = ty
            return [f"{' = '.join(targets)} = {value.text}"]
        if kind == "assign":
            name = self.choice(scope.assignable())
            return [f"{name} = {self.expr(scope.vars[name], scope, self.expr_depth()).text}"]
        if kind == "augassign":
            return [self.augassign(scope)]
        if kind == "tuple":
            return [self.tuple_assign(scope)]
        if kind == "if":
            return self.if_stmt(scope, depth, in_loop)
        if kind == "for":
            return self.for_stmt(scope, depth)
        if kind == "while":
            return self.while_stmt(scope, depth)
        sig = self.choice(procedures)
        return [self.call(sig.name, [self.expr(t, scope, self.draw(st.integers(0, 2))) for t in sig.params]).text]

    def augassign(self, scope: Scope) -> str:
        name = self.choice(scope.assignable())
        ty = scope.vars[name]
        depth = self.draw(st.integers(0, 2))
        if ty == BOOL:
            return f"{name} {self.choice(['&=', '|=', '^='])} {self.expr(BOOL, scope, depth).text}"
        if ty == FLOAT:
            op = self.choice(["+=", "-=", "*=", "/=", "//=", "%=", "**="])
            rhs_ty = INT if self.flip(2) else FLOAT
            rhs = self.float_literal() if op == "**=" and self.flip(5) else self.expr(rhs_ty, scope, depth)
            return f"{name} {op} {rhs.text}"
        op = self.choice(["+=", "-=", "*=", "//=", "%=", "**=", "<<=", ">>=", "&=", "|=", "^="])
        if op == "**=":
            rhs = self.small_exponent(scope, depth)
        elif op in ("<<=", ">>="):
            rhs = self.shift_count(op[:2], scope, depth)
        else:
            rhs = self.expr(INT, scope, depth)
        return f"{name} {op} {rhs.text}"

    def tuple_assign(self, scope: Scope) -> str:
        n = self.draw(st.integers(2, 3))
        targets, values = [], []
        pending = {}
        for _ in range(n):
            existing = [v for v in scope.assignable() if v not in targets]
            if existing and self.flip(6):
                name = self.choice(existing)
                ty = scope.vars[name]
            else:
                ty = self.choice(TYPES)
                name = self.declare_name(ty, Scope({**scope.vars, **pending}))
                pending[name] = ty
            targets.append(name)
            values.append(self.expr(ty, scope, self.draw(st.integers(0, 2))).text)
        scope.vars.update(pending)
        return f"{', '.join(targets)} = {', '.join(values)}"

    def block(self, scope: Scope, depth: int, in_loop: bool, min_stmts: int = 1,
              must_return: bool = False) -> list[str]:
        lines = []
        for _ in range(self.draw(st.integers(min_stmts, self.max_stmts))):
            lines += self.stmt(scope, depth, in_loop)
        if must_return:  # the block ends the function on every path
            if depth > 0 and self.flip(3):
                return lines + self.returning_if(scope, depth)
            return lines + [f"return {self.expr(self.fn.ret, scope, self.expr_depth()).text}"]
        tail = self.weighted([
            (6, None), (2 if in_loop else 0, "break"), (2 if in_loop else 0, "continue"),
            (2 if self.fn.ret is not None else 0, "return"),
            (1 if self.fn.ret is None and self.fn.sig is not None else 0, "bare_return"),
        ])
        if tail in ("break", "continue"):
            if self.flip(6):
                lines += [f"if {self.expr(BOOL, scope, 2).text}:", f"    {tail}"]
            else:
                lines.append(tail)
        elif tail == "bare_return":
            lines += [f"if {self.expr(BOOL, scope, 2).text}:", "    return"]
        elif tail == "return":
            value = self.expr(self.fn.ret, scope, self.expr_depth()).text
            if self.flip(6):
                lines += [f"if {self.expr(BOOL, scope, 2).text}:", f"    return {value}"]
            else:
                lines.append(f"return {value}")
        return lines or ["pass"]

    def returning_if(self, scope: Scope, depth: int) -> list[str]:
        """if/elif/else whose every branch returns, the last statement of a function."""
        lines = [f"if {self.expr(BOOL, scope, 2).text}:"]
        lines += indent(self.block(scope.child(), depth - 1, False, min_stmts=0, must_return=True))
        for _ in range(self.weighted([(2, 0), (1, 1)])):
            lines.append(f"elif {self.expr(BOOL, scope, 2).text}:")
            lines += indent(self.block(scope.child(), depth - 1, False, min_stmts=0, must_return=True))
        lines.append("else:")
        lines += indent(self.block(scope.child(), depth - 1, False, min_stmts=0, must_return=True))
        return lines

    def if_stmt(self, scope: Scope, depth: int, in_loop: bool) -> list[str]:
        cond_ty = self.weighted([(4, BOOL), (1, INT), (1, FLOAT)])
        n_elif = self.weighted([(3, 0), (1, 1), (1, 2)])
        has_else = self.flip(4)
        shared = None
        if has_else and self.flip(3):
            # Every branch assigns the same new name, so it is defined after the `if`.
            ty = self.weighted([(3, INT), (2, FLOAT), (1, BOOL)])
            shared = (self.declare_name(ty, scope), ty)

        def branch(header: str) -> list[str]:
            inner = scope.child()
            body = []
            if shared:
                body.append(f"{shared[0]} = {self.expr(shared[1], inner, self.expr_depth()).text}")
                inner.vars[shared[0]] = shared[1]
            return [header] + indent(body + self.block(inner, depth - 1, in_loop, min_stmts=0 if shared else 1))

        lines = branch(f"if {self.expr(cond_ty, scope, 2).text}:")
        for _ in range(n_elif):
            lines += branch(f"elif {self.expr(BOOL, scope, 2).text}:")
        if has_else:
            lines += branch("else:")
        if shared:
            scope.vars[shared[0]] = shared[1]
        return lines

    def for_stmt(self, scope: Scope, depth: int) -> list[str]:
        if self.rare(6):
            return self.wide_for_stmt(scope, depth)
        shape = self.weighted([(2, 1), (2, 2), (3, 3)])
        if shape == 1:
            args = [self.bounded(scope)]
        elif shape == 2:
            args = [self.bounded(scope), self.bounded(scope)]
        else:
            step = self.weighted([(4, "literal"), (1, "positive"), (1, "negative"), (1, "maybe_zero")])
            if step == "literal":
                step_e = signed_literal(self.choice([1, 2, 3, 5, -1, -2, -3]))
            else:
                inner = self.expr(INT, scope, 1)
                if step == "positive":
                    step_e = Expr(f"{inner.at(P_MUL)} % 3 + 1", P_ADD)
                elif step == "negative":
                    step_e = Expr(f"-({inner.at(P_MUL)} % 3 + 1)", P_UNARY)
                else:  # zero now and then: ValueError in both
                    step_e = Expr(f"{inner.at(P_MUL)} % 7 - 3", P_ADD)
            args = [self.bounded(scope), self.bounded(scope), step_e]
        lines = []
        if self.flip(2):  # the step or a bound through a variable
            name = self.declare_name(INT, scope, "s")
            lines.append(f"{name} = {args[-1].text}")
            scope.vars[name] = INT
            args[-1] = atom(name)
        var = self.declare_name(INT, scope, "i")
        inner_scope = scope.child()
        inner_scope.vars[var] = INT
        lines.append(f"for {var} in range({', '.join(a.text for a in args)}):")
        lines += indent(self.block(inner_scope, depth - 1, True))
        try:
            runs = len(range(*(int(a.text) for a in args))) > 0
        except ValueError:
            runs = False
        if runs:  # a range of literals that is not empty: the loop variable outlives the loop
            scope.vars[var] = INT
        return lines

    def extreme_int(self, scope: Scope) -> Expr:
        """An int near the ends of the 64-bit range, or any int expression."""
        kind = self.weighted([(2, "any"), (1, "max"), (1, "min")])
        if kind == "any":
            return self.expr(INT, scope, self.draw(st.integers(0, 1)))
        k = self.draw(st.integers(0, 6))
        if kind == "max":
            return atom(str(2**63 - 1)) if k == 0 else Expr(f"{2**63 - 1} - {k}", P_ADD)
        return Expr(f"-{2**63 - 1} - 1", P_ADD) if k == 0 else Expr(f"-{2**63 - 1} + {k - 1}", P_ADD)

    def wide_for_stmt(self, scope: Scope, depth: int) -> list[str]:
        """range() over any ints, big steps included, kept short by a counter that breaks out."""
        step = self.weighted([(3, "literal"), (1, "big"), (1, "expr")])
        if step == "literal":
            step_e = signed_literal(self.choice([1, 2, 3, -1, -2, -3]))
        elif step == "big":
            step_e = signed_literal(self.choice([2**62, -(2**62), 2**63 - 1, -(2**63 - 1), 2**32, -(2**32), 3 * 2**61]))
        else:
            inner = self.expr(INT, scope, 1)
            step_e = Expr(f"{inner.at(P_MUL)} % 5 + 1", P_ADD)
            if self.flip(4):
                step_e = Expr(f"-({step_e.text})", P_UNARY)
        args = [self.extreme_int(scope), self.extreme_int(scope), step_e]
        guard = self.declare_name(INT, scope, "g")
        scope.vars[guard] = INT
        scope.readonly.add(guard)
        var = self.declare_name(INT, scope, "i")
        inner_scope = scope.child()
        inner_scope.vars[var] = INT
        body = [f"{guard} += 1", f"if {guard} > {self.draw(st.integers(0, 4))}:", "    break"]
        body += [f"print({var})"] + self.block(inner_scope, depth - 1, True, min_stmts=0)
        return [f"{guard} = 0", f"for {var} in range({', '.join(a.text for a in args)}):"] + indent(body)

    def while_stmt(self, scope: Scope, depth: int) -> list[str]:
        counter = self.declare_name(INT, scope, "w")
        limit = self.bounded(scope, 6) if self.flip(3) else atom(str(self.draw(st.integers(0, 6))))
        forever = self.rare(4)
        if forever:  # `while True:` that a counter breaks out of
            cond = "True"
        else:
            cond = f"{counter} < {limit.at(P_BOR)}"
            if self.flip(2):
                cond += f" and {self.expr(BOOL, scope, 1).at(P_NOT)}"
        inner_scope = scope.child()
        inner_scope.vars[counter] = INT
        inner_scope.readonly.add(counter)
        body = [f"{counter} += 1"]
        if forever:
            body += [f"if {counter} > {limit.at(P_BOR)}:", "    break"]
        body += self.block(inner_scope, depth - 1, True)
        scope.vars[counter] = INT
        scope.readonly.add(counter)
        return [f"{counter} = 0", f"while {cond}:"] + indent(body)

    # -- functions and programs ------------------------------------------------------------

    def function(self, index: int) -> list[str]:
        n_params = self.draw(st.integers(0 if index else 1, 3))
        params = [self.weighted([(3, INT), (2, FLOAT), (1, BOOL)]) for _ in range(n_params)]
        ret = self.weighted([(3, INT), (2, FLOAT), (1, BOOL), (1, None)])
        recursive = ret is not None and bool(params) and self.rare(5)
        if recursive:
            params[0] = INT
        sig = FuncSig(f"f{index}", params, ret, recursive)
        self.fn = FunctionState(ret, sig)
        scope = Scope()
        for i, t in enumerate(params):
            scope.vars[sig_param(i)] = t
            self.fn.declared[sig_param(i)] = t
        if recursive:
            scope.readonly.add(sig_param(0))
        header_params = ", ".join(f"{sig_param(i)}: {t}" for i, t in enumerate(params))
        header = f"def {sig.name}({header_params})" + (f" -> {ret}:" if ret else ":")
        body = []
        if self.flip(3):  # calls show up in the output: evaluation order is compared too
            body.append(f'print("{sig.name}"' + "".join(f", {sig_param(i)}" for i in range(len(params))) + ")")
        if recursive:
            base = self.expr(ret, scope, 1)
            body += [f"if {sig_param(0)} <= 0:", f"    return {base.text}"]
            self.fn.allow_self = True
        must_return = ret is not None and self.flip(3)
        body += self.block(scope, 2, False, min_stmts=0 if ret else 1, must_return=must_return)
        if ret is not None and not must_return and not body[-1].startswith("return"):
            body.append(f"return {self.expr(ret, scope, self.expr_depth()).text}")
        self.funcs.append(sig)
        return [header] + indent(body)

    def main(self) -> list[str]:
        self.fn = FunctionState(None, None)
        scope = Scope()
        body = []
        if self.expression_heavy:
            # A few variables of each type, then prints of expressions over them.
            for ty in (INT, INT, FLOAT, FLOAT, BOOL):
                value = self.expr(ty, scope, self.draw(st.integers(0, 1)))
                name = self.declare_name(ty, scope)
                scope.vars[name] = ty
                body.append(f"{name} = {value.text}")
            for _ in range(self.draw(st.integers(1, 8))):
                body += self.print_stmt(scope)
        else:
            body += self.block(scope, 2, False, min_stmts=1)
            visible = list(scope.vars)
            if visible:
                body.append(f"print({', '.join(visible)})")
        return ["def main():"] + indent(body)

    def program(self) -> str:
        chunks = []
        if not self.expression_heavy:
            for i in range(self.draw(st.integers(0, self.max_funcs))):
                chunks.append(self.function(i))
        else:
            for i in range(self.draw(st.integers(0, 1))):
                chunks.append(self.function(i))
        chunks.append(self.main())
        chunks.append(['if __name__ == "__main__":', "    main()"])
        return "\n\n\n".join("\n".join(c) for c in chunks) + "\n"


def signed_literal(value: int) -> Expr:
    return atom(str(value)) if value >= 0 else Expr(str(value), P_UNARY)


def sig_param(i: int) -> str:
    return f"p{i}"


def indent(lines: list[str]) -> list[str]:
    return ["    " + line for line in lines]


@st.composite
def programs(draw, *, expression_heavy: bool = False, opt_levels=("3", "0")) -> Program:
    """A whole random program (functions, control flow, prints)."""
    source = Gen(draw, expression_heavy=expression_heavy).program()
    opt = draw(st.sampled_from(opt_levels))
    return Program(source, opt)


def expression_programs() -> st.SearchStrategy[Program]:
    """Programs that are mostly `print` of deep expressions over a few variables."""
    return programs(expression_heavy=True)


if __name__ == "__main__":
    import sys
    import warnings

    from hypothesis.errors import NonInteractiveExampleWarning

    warnings.simplefilter("ignore", NonInteractiveExampleWarning)
    for _ in range(int(sys.argv[1]) if len(sys.argv) > 1 else 3):
        print(programs().example().source)
        print("#" * 60)
