"""Every message the compiler can give a user, in one registry.

A code is stable once released: tests, docs and users' searches refer to it.
Messages are `str.format` templates filled from keyword arguments.
"""
from __future__ import annotations

MESSAGES: dict[str, str] = {
    # E00xx: syntax
    "E0001": "invalid syntax: {detail}",
    "E0002": "{construct} is not supported in pyx",
    "E0003": "expression or block nested too deeply (more than {limit} levels)",
    "E0004": "invalid literal: {detail}",
    "E0005": "inconsistent indentation",
    "E0006": "top-level statements are not allowed; put them in `fn main()`",
    "E0007": "{construct} is not supported yet",
    # E01xx: names and declarations
    "E0101": "name `{name}` is not defined",
    "E0102": "`{name}` is already defined in this scope",
    "E0103": "`{name}` may be used before it is assigned",
    "E0104": "`{name}` is not a type",
    "E0105": "unknown type `{name}`",
    "E0106": "parameter `{name}` of `fn {func}` needs a type annotation",
    "E0107": "`{name}` is a compile-time constant and cannot be assigned",
    "E0108": "cannot assign to this expression",
    "E0109": "`{name}` is not a function",
    "E0110": "`fn main` must take no arguments and return nothing",
    "E0111": "no `fn main()` to run in {file}",
    "E0112": "duplicate parameter `{name}`",
    "E0114": "the argument for `mut {name}` must be a mutable variable of type `{type}`",
    "E0115": "`{name}` is passed to two `mut` parameters of one call",
    "E0116": "only `var` fields with a type and methods may appear in a struct",
    "E0117": "field `{field}` of `{struct}` may be used before it is initialized",
    "E0118": "`{struct}` has no method `{name}`",
    "E0119": "`__init__` must take `out self`",
    "E0120": "`{name}` is a method; call it, e.g. `{name}(...)`",
    "E0121": "struct `{name}` contains itself",
    "E0122": "`{struct}` has no field `{name}`",
    "E0123": "`{name}` of `{struct}` needs `mut self` to be called on a value that is not a variable",
    "E0124": "cannot infer the compile-time parameter `{name}` of `{func}`; pass it explicitly, e.g. `{func}[...](...)`",
    "E0125": "compile-time parameter `{name}` expects {expected}, got {found}",
    "E0126": "`{name}` needs compile-time parameters, e.g. `{example}`",
    "E0127": "SIMD width must be a power of two from 1 to 1024, got {width}",
    "E0128": "`{func}` takes {expected} compile-time parameter{s}, {found} given",
    "E0129": "module `{module}` is not available to pyx programs yet (available: {available})",
    "E0130": "module `{module}` has no `{name}`",
    "E0131": "`var {name}` needs a type or a value, e.g. `var {name}: Int` or `var {name} = 0`",
    "E0132": "`{name}` cannot hold `None`: pyx has no optional values yet",
    "E0133": "argument `{name}` is given twice",
    "E0134": "unknown decorator `@{name}` (known: {known})",
    "E0135": "`fn {func}` can raise {what} but is not declared `raises` (add `raises` after its parameters, or catch it)",
    "E0136": "`raise` with no exception outside an `except` block",
    "E0137": "`{name}` is not an exception class (known: {known})",
    "E0138": "`{struct}` does not implement `{method}`, required by trait `{trait}`",
    "E0139": "`{struct}.{method}` does not match trait `{trait}`: expected `{expected}`, found `{found}`",
    "E0140": "`{type}` does not conform to trait `{trait}`, required by `{param}` of `{func}`",
    "E0141": "a trait holds only method signatures (`fn name(self, ...) -> T: ...`)",
    "E0142": "unknown trait `{name}`",
    "E0143": "a `comptime if` condition must be known at compile time",
    "E0144": "`comptime for` needs `range(...)` of compile-time integers ({detail})",
    "E0145": "`{type}` is not iterable: it needs `__iter__` returning an iterator with `__has_next__` and `__next__`, or those two itself",
    "E0113": "cannot assign to `{name}`: arguments of `fn {func}` are immutable (declare it `var {name}: T` to own a copy)",
    # E02xx: types
    "E0201": "mismatched types: expected `{expected}`, found `{found}`",
    "E0202": "operator `{op}` is not defined for `{left}` and `{right}`",
    "E0203": "operator `{op}` is not defined for `{operand}`",
    "E0204": "`{func}` takes {expected} argument{s}, {found} given",
    "E0205": "cannot convert `{found}` to `{expected}`",
    "E0206": "integer literal {value} does not fit in `{type}`",
    "E0207": "`{func}` got an unexpected keyword argument `{name}`",
    "E0208": "the branches have different types: `{left}` and `{right}`",
    "E0209": "missing return: `fn {func}` must return `{type}` on every path",
    "E0210": "`return` with a value in a function that returns nothing",
    "E0211": "`{what}` outside of a loop",
    "E0212": "cannot unpack {found} values into {expected} targets",
    "E0213": "a tuple is only allowed on the right of a tuple assignment",
    "E0214": "`{func}` requires arguments of one type, got `{left}` and `{right}`",
    "E0215": "cannot print a value of type `{type}`",
    "E0216": "`range` arguments must be integers of one type, got `{type}`",
    "E0217": "`{name}` must be a string literal",
    "E0218": "value of type `{type}` cannot be used as a condition",
    "E0219": "`comptime` value must be computable at compile time: {detail}",
    "E0220": "`{name}` is a type; call it to convert a value, e.g. `{name}(x)`",
    "E0221": "recursive `def {func}` with inferred parameter types needs annotations to resolve the cycle",
    "E0222": "too many instantiations of `def {func}` (more than {limit})",
    "E0223": "`{name}` has no attribute `{attr}`",
    "E0224": "`{func}` cannot be called with compile-time parameters",
    "E0225": "compile-time parameters are not supported on `{func}` yet",
    "E0226": "`{func}` is not available on the `{target}` target",
    # E09xx: tools and environment
    "E0901": "cannot read `{path}`: {reason}",
    "E0902": "no C compiler found to link an executable (tried {tried}); install gcc or clang, or set CC",
    "E0903": "linking failed: {detail}",
    "E0904": "{detail}",
}

WARNINGS: dict[str, str] = {
    "W0001": "unreachable code",
}


def message(code: str, **args: object) -> str:
    template = MESSAGES.get(code) or WARNINGS[code]
    return template.format(**args)
