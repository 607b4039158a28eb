"""Every message the compiler can give a user, in one registry of typed codes (mypy's `ErrorCode` shape).

A code is stable once released: tests, docs and users' searches refer to it, so a code is never
renumbered or reused. Each `ErrorCode` carries its code, a short snake-case name, its category and its
message: a `str.format` template whose named fields are the arguments a call site must pass, no more
and no fewer (`ErrorCode.format` raises otherwise: a compiler bug, caught where the message is made).

A category owns a range of numbers (`Category.first`..`Category.last`); a code sits in the range of
its category, except the few released elsewhere before the ranges were checked, which say why in
`outside_range` (`tests/diagnostics/test_registry.py` holds all of this).
"""
from __future__ import annotations

import functools
import string
from dataclasses import dataclass


@dataclass(frozen=True)
class Category:
    name: str
    title: str  # the heading of its section in docs/diagnostics.md
    first: str  # the lowest code of its range
    last: str  # the highest

    def holds(self, code: str) -> bool:
        return code[0] == self.first[0] and self.first[1:] <= code[1:] <= self.last[1:]


SYNTAX = Category("syntax", "Syntax (E00xx)", "E0001", "E0099")
DECLARATIONS = Category("declarations", "Names and declarations (E01xx)", "E0100", "E0199")
TYPES = Category("types", "Types (E02xx)", "E0200", "E0299")
# E02xx filled up; Python's library and object semantics (builtins, classes, exceptions, sharing) go on here
PYTHON = Category("python", "Python library and objects (E03xx)", "E0300", "E0399")
TOOLS = Category("tools", "Tools and environment (E09xx)", "E0900", "E0999")
WARNING = Category("warnings", "Warnings (W0xxx)", "W0001", "W0999")
CATEGORIES = (SYNTAX, DECLARATIONS, TYPES, PYTHON, TOOLS, WARNING)


def _fields(template: str) -> frozenset[str]:
    return frozenset(name.split(".")[0].split("[")[0]
                     for _text, name, _spec, _conv in string.Formatter().parse(template) if name)


@dataclass(frozen=True)
class ErrorCode:
    code: str  # "E0101": what users see and search for
    name: str  # "undefined_name": what the compiler's own code may call it
    category: Category
    template: str  # the message, a `str.format` template
    outside_range: str = ""  # why a code sits outside its category's range (released there)

    @functools.cached_property
    def fields(self) -> frozenset[str]:
        """The named arguments the template needs; worked out on first use, not at import, which
        every `pyx` command pays (parsing all templates at import cost about 1 ms)."""
        return _fields(self.template)

    @property
    def severity(self) -> str:
        return "warning" if self.category is WARNING else "error"

    def format(self, **args: object) -> str:
        given = set(args)
        if given != self.fields:
            missing, unknown = sorted(self.fields - given), sorted(given - self.fields)
            raise TypeError(f"message {self.code} ({self.name}) needs exactly {sorted(self.fields)}: "
                            f"missing {missing}, unknown {unknown}")
        return self.template.format(**args)


CODES: tuple[ErrorCode, ...] = (
    # E00xx: syntax, and constructs pyx does not accept (E0002 never, E0007 not yet)
    ErrorCode('E0001', 'invalid_syntax', SYNTAX, 'invalid syntax: {detail}'),
    ErrorCode('E0002', 'not_in_pyx', SYNTAX, '{construct} is not supported in pyx'),
    ErrorCode('E0003', 'nested_too_deeply', SYNTAX, 'expression or block nested too deeply (more than {limit} levels)'),
    ErrorCode('E0004', 'invalid_literal', SYNTAX, 'invalid literal: {detail}'),
    ErrorCode('E0005', 'inconsistent_indentation', SYNTAX, 'inconsistent indentation'),
    ErrorCode('E0006', 'top_level_statement', SYNTAX, '{construct} outside a function'),
    ErrorCode('E0007', 'not_supported_yet', SYNTAX, '{construct} is not supported yet'),
    ErrorCode('E0008', 'integer_constant_too_large', SYNTAX, "integer constant too large: pyx's integers have at most 64 bits, and constants are computed with at most {limit}"),
    ErrorCode('E0009', 'lone_surrogate', SYNTAX, 'lone surrogate `{escape}` in a string literal: it cannot be encoded as UTF-8, so it cannot be printed; {hint}'),
    ErrorCode('E0010', 'nul_in_string', SYNTAX, 'a NUL character (`\\x00`) in a string literal: pyx keeps literals as C strings, which end at the first NUL, so everything after it would be lost'),
    ErrorCode('E0011', 'typing_name_not_yet', SYNTAX, 'the `typing` name `{name}` is not supported yet: {advice}'),
    ErrorCode('E0012', 'typing_name_never', SYNTAX, 'the `typing` name `{name}` has no place in pyx: {advice}'),
    ErrorCode('E0013', 'union_type', SYNTAX, 'a union of types other than `None` (`{text}`) is not supported yet: a pyx value has one type; use `T | None` (an Optional), or a struct with a field per case'),
    ErrorCode('E0014', 'optional_truth', SYNTAX, 'the truth of a `{type}` is ambiguous: Python tests the value too (a `{inner}` can be false, as `0`, `""` and `[]` are), Mojo only whether there is one; write `x is not None`, or `x is not None and x` for Python\'s meaning'),
    ErrorCode('E0015', 'iterator_passed_on', SYNTAX, '`{name}` holds an iterator (`map`, `filter`, `enumerate`, `zip`, `reversed`), which CPython uses up wherever it is walked: passing it to a function is not supported yet; pass what it walks, or `list({name})`'),
    ErrorCode('E0016', 'yield_outside_function', SYNTAX, '`yield` outside a function: only a `def` can yield (it becomes a generator)'),
    ErrorCode('E0018', 'lambda_default', SYNTAX, 'the default of `{name}` in this `lambda` is not one pyx keeps as Python does: {reason}'),
    ErrorCode('E0020', 'fn_main_never_runs', SYNTAX, '`fn main` never runs: this module has statements at its top level, so it runs as a script, top to bottom, as CPython runs a file, and nothing calls `main()`; call it where the script should run it (`if __name__ == "__main__": main()` at the end), or move the statements into `main`'),
    ErrorCode('E0021', 'match_pattern_not_yet', SYNTAX, '{pattern} is not supported yet: {advice}'),
    # E01xx: names and declarations, and the rules of the language's own features (structs, traits,
    # compile-time parameters, kernels, prange, moves)
    ErrorCode('E0100', 'empty_item_type_unknown', DECLARATIONS, 'nothing says what the empty {kind} `{literal}` in this {display} holds: give the {display} its type where it is made (`{example}`)'),
    ErrorCode('E0101', 'undefined_name', DECLARATIONS, 'name `{name}` is not defined'),
    ErrorCode('E0102', 'already_defined', DECLARATIONS, '`{name}` is already defined in this scope'),
    ErrorCode('E0103', 'maybe_unassigned', DECLARATIONS, '`{name}` may be used before it is assigned'),
    ErrorCode('E0104', 'not_a_type', DECLARATIONS, '`{name}` is not a type'),
    ErrorCode('E0105', 'unknown_type', DECLARATIONS, 'unknown type `{name}`'),
    ErrorCode('E0106', 'parameter_needs_annotation', DECLARATIONS, 'parameter `{name}` of `fn {func}` needs a type annotation'),
    ErrorCode('E0107', 'assign_to_comptime', DECLARATIONS, '`{name}` is a compile-time constant and cannot be assigned'),
    ErrorCode('E0108', 'invalid_assignment_target', DECLARATIONS, 'cannot assign to this expression'),
    ErrorCode('E0109', 'not_a_function', DECLARATIONS, '`{name}` is not a function'),
    ErrorCode('E0110', 'bad_main_signature', DECLARATIONS, '`fn main` must take no arguments and return nothing'),
    ErrorCode('E0111', 'no_main', DECLARATIONS, 'no `fn main()` to run in {file}'),
    ErrorCode('E0112', 'duplicate_parameter', DECLARATIONS, 'duplicate parameter `{name}`'),
    ErrorCode('E0113', 'assign_to_argument', DECLARATIONS, 'cannot assign to `{name}`: arguments of `fn {func}` are immutable (declare it `var {name}: T` to own a copy)'),
    ErrorCode('E0114', 'mut_argument_not_variable', DECLARATIONS, 'the argument for `mut {name}` must be a mutable variable of type `{type}`'),
    ErrorCode('E0115', 'same_variable_two_mut', DECLARATIONS, '`{name}` is passed to two `mut` parameters of one call'),
    ErrorCode('E0116', 'bad_struct_member', DECLARATIONS, 'only `var` fields with a type and methods may appear in a struct'),
    ErrorCode('E0117', 'field_maybe_uninitialized', DECLARATIONS, 'field `{field}` of `{struct}` may be used before it is initialized'),
    ErrorCode('E0118', 'no_such_method', DECLARATIONS, '`{struct}` has no method `{name}`'),
    ErrorCode('E0119', 'init_needs_out_self', DECLARATIONS, '`__init__` must take `out self`'),
    ErrorCode('E0120', 'method_not_called', DECLARATIONS, '`{name}` is a method; call it, e.g. `{name}(...)`'),
    ErrorCode('E0121', 'recursive_struct', DECLARATIONS, 'struct `{name}` contains itself'),
    ErrorCode('E0122', 'no_such_field', DECLARATIONS, '`{struct}` has no field `{name}`'),
    ErrorCode('E0123', 'mut_self_on_temporary', DECLARATIONS, '`{name}` of `{struct}` needs `mut self` to be called on a value that is not a variable'),
    ErrorCode('E0124', 'cannot_infer_parameter', DECLARATIONS, 'cannot infer the compile-time parameter `{name}` of `{func}`; pass it explicitly, e.g. `{func}[...](...)`'),
    ErrorCode('E0125', 'parameter_kind_mismatch', DECLARATIONS, 'compile-time parameter `{name}` expects {expected}, got {found}'),
    ErrorCode('E0126', 'needs_parameters', DECLARATIONS, '`{name}` needs compile-time parameters, e.g. `{example}`'),
    ErrorCode('E0127', 'bad_simd_width', TYPES, 'SIMD width must be a power of two from 1 to 1024, got {width}', outside_range="a SIMD width is a value checked against its type's rule, released beside the compile-time parameter errors"),
    ErrorCode('E0128', 'parameter_count', DECLARATIONS, '`{func}` takes {expected} compile-time parameter{s}, {found} given'),
    ErrorCode('E0129', 'no_such_module', DECLARATIONS, 'no module `{module}`: pyx provides {available}, and there is no `{looked}` beside this file'),
    ErrorCode('E0130', 'no_such_module_member', DECLARATIONS, 'module `{module}` has no `{name}`'),
    ErrorCode('E0131', 'var_needs_type_or_value', DECLARATIONS, '`var {name}` needs a type or a value, e.g. `var {name}: Int` or `var {name} = 0`'),
    ErrorCode('E0132', 'cannot_hold_none', DECLARATIONS, '`{name}` cannot hold `None` unless its type says so: annotate it `{name}: T | None` (an Optional)'),
    ErrorCode('E0133', 'argument_given_twice', DECLARATIONS, 'argument `{name}` is given twice'),
    ErrorCode('E0134', 'unknown_decorator', DECLARATIONS, 'unknown decorator `@{name}` (known: {known})'),
    ErrorCode('E0135', 'undeclared_raises', DECLARATIONS, '`fn {func}` can raise {what} but is not declared `raises` (add `raises` after its parameters, or catch it)'),
    ErrorCode('E0136', 'bare_raise_outside_except', DECLARATIONS, '`raise` with no exception outside an `except` block'),
    ErrorCode('E0137', 'not_an_exception', DECLARATIONS, '`{name}` is not an exception class (known: {known})'),
    ErrorCode('E0138', 'trait_method_missing', DECLARATIONS, '`{struct}` does not implement `{method}`, required by trait `{trait}`'),
    ErrorCode('E0139', 'trait_method_mismatch', DECLARATIONS, '`{struct}.{method}` does not match trait `{trait}`: expected `{expected}`, found `{found}`'),
    ErrorCode('E0140', 'trait_not_conformed', DECLARATIONS, '`{type}` does not conform to trait `{trait}`, required by `{param}` of `{func}`'),
    ErrorCode('E0141', 'bad_trait_member', DECLARATIONS, 'a trait holds only method signatures (`fn name(self, ...) -> T: ...`)'),
    ErrorCode('E0142', 'unknown_trait', DECLARATIONS, 'unknown trait `{name}`'),
    ErrorCode('E0143', 'comptime_if_not_constant', DECLARATIONS, 'a `comptime if` condition must be known at compile time'),
    ErrorCode('E0144', 'comptime_for_not_range', DECLARATIONS, '`comptime for` needs `range(...)` of compile-time integers ({detail})'),
    ErrorCode('E0145', 'not_iterable', DECLARATIONS, '`{type}` is not iterable: it needs `__iter__` returning an iterator with `__has_next__` and `__next__`, or those two itself'),
    ErrorCode('E0146', 'kernel_returns_value', DECLARATIONS, 'a kernel cannot return a value (`@kernel fn {func}` returns `{type}`)'),
    ErrorCode('E0147', 'gpu_only_on_host', DECLARATIONS, '`{name}` is only available in GPU code, and `{func}` is called from the host'),
    ErrorCode('E0148', 'kernel_called_directly', DECLARATIONS, '`{func}` is a kernel: start it with `launch {func}[grid=..., block=...](...)`'),
    ErrorCode('E0149', 'launch_not_kernel', DECLARATIONS, '`launch` needs a kernel (a `@kernel fn`), not `{name}`'),
    ErrorCode('E0150', 'bad_launch_dimension', DECLARATIONS, '`{name}` in a launch must be an `Int` or a tuple of 1 to 3 `Int`s'),
    ErrorCode('E0151', 'bad_shared_array', DECLARATIONS, '`shared_array` needs a type and a size known at compile time, e.g. `shared_array[Float32, 256]()`'),
    ErrorCode('E0152', 'launch_in_kernel', DECLARATIONS, 'a kernel cannot launch another (`launch` in `@kernel fn {func}`); launch it from the host'),
    ErrorCode('E0153', 'frozen_field_assigned', DECLARATIONS, "assignment to field `{name}` of `{cls}`, a frozen dataclass: Python raises `dataclasses.FrozenInstanceError: cannot assign to field '{name}'`; make a new object (`{cls}(...)`), or leave out `frozen=True`"),
    ErrorCode('E0154', 'prange_assignment', DECLARATIONS, 'cannot assign `{name}` inside a `prange` loop: its iterations run at the same time. Bind a new variable with `var` inside the loop, write through a `Ptr`, or accumulate with `{name} += ...` (a reduction)'),
    ErrorCode('E0155', 'prange_exit', DECLARATIONS, '`{what}` cannot leave a `prange` loop: its iterations run at the same time on several threads'),
    ErrorCode('E0156', 'prange_mixed_reduction', DECLARATIONS, 'reduction variable `{name}` is combined with both `{first}` and `{second}` in one `prange` loop; use one operation'),
    ErrorCode('E0157', 'prange_reduction_read', DECLARATIONS, '`{name}` is a reduction in this `prange` loop (combined with `{op}`) and cannot be read inside it: each thread holds only part of it'),
    ErrorCode('E0158', 'prange_in_gpu_code', DECLARATIONS, "`prange` in GPU code (`{func}`): a kernel's threads are already parallel; use a plain `range`"),
    ErrorCode('E0159', 'bad_vectorize', DECLARATIONS, '`vectorize` needs {detail}'),
    ErrorCode('E0160', 'use_after_move', DECLARATIONS, '`{name}` was moved (`{name}^`) and not assigned again, so it has no value here'),
    ErrorCode('E0161', 'cannot_copy', TYPES, 'a `{type}` cannot be copied (it has a destructor), so it cannot be {what} here; {hint}', outside_range='copying a type with a destructor is a rule of its type, released beside the move errors (E0160-E0163)'),
    ErrorCode('E0162', 'move_in_loop', DECLARATIONS, 'cannot move `{name}` inside a loop it was declared outside of: the next iteration would find it moved; declare it inside the loop'),
    ErrorCode('E0163', 'cannot_move', DECLARATIONS, 'cannot move `{name}`: {why}'),
    ErrorCode('E0164', 'bad_destructor_signature', DECLARATIONS, '`{struct}.__del__` must be declared `fn __del__(var self)`: no other arguments, no result, not `raises`'),
    ErrorCode('E0165', 'bad_variadic_element', TYPES, '`*{name}` collects arguments into a `SIMD`, so its element type must be a scalar type (`Int`, `Float32`, `Bool`, ...), not `{type}`', outside_range="a variadic pack's element type is a type error, released beside the other `*args` errors"),
    ErrorCode('E0166', 'variadic_needs_argument', DECLARATIONS, '`{func}` needs at least one argument for `*{name}`'),
    ErrorCode('E0167', 'constraint_failed', DECLARATIONS, '{message}'),
    ErrorCode('E0168', 'keyword_only_missing', DECLARATIONS, '`{func}` needs `{name}=...`: parameters after `*{pack}` are keyword-only'),
    ErrorCode('E0169', 'bad_external_call_form', DECLARATIONS, '`external_call` is written `external_call["symbol", ResultType](arguments...)`, or with a C function pointer (a `Ptr`) for the symbol'),
    ErrorCode('E0170', 'bad_external_call_type', TYPES, '`external_call` passes and returns numbers, Bools, pointers and string literals, not `{type}`', outside_range='what `external_call` can pass is a type error, released beside the other `external_call` errors'),
    ErrorCode('E0171', 'exception_kept', DECLARATIONS, 'an exception can be printed, raised again or turned into text with `str(...)`, not kept in `{name}`: it lives only while its handler runs'),
    ErrorCode('E0172', 'bad_format_spec', TYPES, 'format spec {spec!r}: {problem}', outside_range="a format spec is checked against the value's type, released with f-strings"),
    ErrorCode('E0173', 'no_such_c_function', DECLARATIONS, "`external_call`: there is no C function `{symbol}` in this process (it finds the C library, the math library and Python's C API)"),
    ErrorCode('E0174', 'unroll_too_large', DECLARATIONS, '`comptime for` unrolls too much: the loops of a program may make {copies} copies of their bodies in all, holding {nodes} syntax nodes, and nested loops multiply; use a run-time `for` loop, or unroll less'),
    ErrorCode('E0175', 'comparison_only_in_subclass', DECLARATIONS, '`{cls}` defines `{method}` and its base `{base}` does not: Python\'s `{base}(...) != {cls}(...)` calls `{cls}`\'s method, which pyx cannot reach from `{base}`; define `{method}` in `{base}` too'),
    ErrorCode('E0176', 'bad_elementwise', DECLARATIONS, '`elementwise` needs {detail}'),
    ErrorCode('E0177', 'init_parameter_types_differ', DECLARATIONS, "parameter `{param}` of `{cls}.__init__` has no annotation, and the calls of `{cls}` pass it different types: `{found}` here, `{first}` at line {line}; Python would store either: annotate it (`{param}: T`) with the type meant"),
    ErrorCode('E0178', 'device_capture', DECLARATIONS, "the GPU body `{body}` captures `{name}`, a `{type}`: device code gets a copy of each captured value, and only numbers, `Bool`s, SIMD vectors and `Ptr`s mean the same there (a `{type}` lives in host memory); pass its data in a `Ptr` (`Ptr[T].alloc(n)`)"),
    ErrorCode('E0179', 'bad_closure_loop', DECLARATIONS, '`{form}` needs {detail}'),
    ErrorCode('E0180', 'shared_memory_too_large', DECLARATIONS, '`@kernel fn {func}` needs {used} bytes of static shared memory (its `shared_array`s and those of the functions it calls); a block has at most {limit} (48 KiB)'),
    ErrorCode('E0181', 'loop_over_mixed_tuple', DECLARATIONS, 'a `for` loop walks a tuple whose items have one type, and the items of a `{type}` differ: unpack it, or read each item'),
    ErrorCode('E0182', 'no_such_gpu_name', DECLARATIONS, '`{module}`{name}: pyx\'s GPU support provides {available}'),
    ErrorCode('E0183', 'gpu_index_renamed', DECLARATIONS, '`{name}` cannot be imported under another name: `{target}` is a namespace of the GPU\'s index registers (`{target}.x`), not a value; import it as `{target}`'),
    ErrorCode('E0184', 'parameter_fn_as_value', DECLARATIONS, '`{name}` is a `@parameter fn`: it is the body of a closure loop (`parallelize[{name}](n)`, `vectorize[{name}, W](n)`) or of `elementwise[{name}, W, target="gpu"](n)`, not a value; for a function value, leave out `@parameter`'),
    ErrorCode('E0185', 'parallel_body_nonlocal', DECLARATIONS, 'the body of `parallelize` writes `{name}`, a variable of the enclosing function, and its calls run at the same time: write through a `Ptr`, one element per call, declare a variable of its own (`var {name}`), or use `for i in prange(n)` with `{name} += ...` (a reduction)'),
    ErrorCode('E0186', 'named_tuple_not_reproduced', DECLARATIONS, '{what}: pyx builds `namedtuple("Name", fields)` and `class Name(NamedTuple)` at module level, with their fields, construction, text, comparisons, hash, indexing and unpacking; {advice}'),
    ErrorCode('E0187', 'exe_uses_python', DECLARATIONS, '`--emit=exe` makes a program that runs without Python, and this one uses Python objects (`{what}`): run it with `pyx run`, or call its functions from Python (`pyx.import_module`)'),
    ErrorCode('E0188', 'tuple_of_unknown_length', DECLARATIONS, "`tuple(...)` of {what}: a pyx tuple's length is fixed when compiling (one field per item), and this one's would be known only when the program runs; keep the items in a list (`list(xs)`, `sorted(xs)`), write the tuple out where the length is known (`(xs[0], xs[1])`, or `a, b = xs`), or, for a dict key or set item made of a string's characters, use a str (`\"\".join(sorted(word))`)"),
    ErrorCode('E0189', 'bytes_codec_not_in_pyx', DECLARATIONS, 'the {what} `{name}` is Python\'s, and pyx\'s bytes do not have it: they encode and decode "utf-8", "ascii" and "latin-1" (and their aliases), with errors "strict", "replace" or "ignore"; for another, convert the code points yourself (`bytes([ord(c) for c in s])`)'),
    ErrorCode('E0190', 'stored_argument_held_elsewhere', DECLARATIONS, "`{source}` is passed to `{func}`, which stores its `{param}`: Python stores the object itself, which {holder} holds; pyx stores a copy, so a change through either would not show through the other: pass `{source}.copy()` if a copy is meant, or build the object where it is stored"),
    ErrorCode('E0191', 'maketrans_arguments', DECLARATIONS, '`str.maketrans` with {found} argument(s): pyx builds the table from two strs of equal length, and a third of the characters to delete (`str.maketrans("abc", "xyz", "-")`); for the one-argument form, give `translate` the dict itself, keyed by code points (`ord("a")`)'),
    ErrorCode('E0192', 'zip_of_starred', DECLARATIONS, "`zip(*rows)` {detail}"),
    ErrorCode('E0193', 'bad_autotune', DECLARATIONS, '`@autotune` on `{name}`: {problem}'),
    ErrorCode('E0194', 'bad_c_interface', DECLARATIONS, '{what}: {problem}'),
    ErrorCode('E0195', 'enum_not_reproduced', DECLARATIONS, '{what}: pyx builds `class C(Enum)` with distinct int, str or float values (or `auto()`), its members, methods and lookups; {advice}'),
    ErrorCode('E0196', 'enum_class_use', DECLARATIONS, '{what}: {advice}'),
    ErrorCode('E0197', 'nonlocal_without_binding', DECLARATIONS, "no binding for nonlocal `{name}` found: `nonlocal` names a variable of the function this one is nested in"),
    ErrorCode('E0198', 'dataclass_not_reproduced', DECLARATIONS, '{what} in a `@dataclass`: {advice}'),
    ErrorCode('E0199', 'argument_reads_receiver', DECLARATIONS, 'this argument reads the object `{method}` changes, while `{method}` runs: Python would never end (a list growing as it is read) or raise RuntimeError (a set changing size during iteration); build the items first (`items = list(...)`), then call `{method}(items)`'),
    # E02xx: types and values, and where pyx's values would differ from Python's objects
    ErrorCode('E0200', 'defaultdict_declared_dict', TYPES, '`{call}` makes a defaultdict, and it is declared `{declared}`, a plain dict, which would not call `{factory}()` for a missing key as Python\'s defaultdict does: declare it `defaultdict[...]` (from collections), or leave the annotation out'),
    ErrorCode('E0201', 'mismatched_types', TYPES, 'mismatched types: expected `{expected}`, found `{found}`'),
    ErrorCode('E0202', 'binary_operator_undefined', TYPES, 'operator `{op}` is not defined for `{left}` and `{right}`'),
    ErrorCode('E0203', 'unary_operator_undefined', TYPES, 'operator `{op}` is not defined for `{operand}`'),
    ErrorCode('E0204', 'argument_count', TYPES, '`{func}` takes {expected} argument{s}, {found} given'),
    ErrorCode('E0205', 'cannot_convert', TYPES, 'cannot convert `{found}` to `{expected}`'),
    ErrorCode('E0206', 'literal_out_of_range', TYPES, 'integer literal {value} does not fit in `{type}`'),
    ErrorCode('E0207', 'unexpected_keyword', TYPES, '`{func}` got an unexpected keyword argument `{name}`'),
    ErrorCode('E0208', 'branch_types_differ', TYPES, 'the branches have different types: `{left}` and `{right}`'),
    ErrorCode('E0209', 'missing_return', TYPES, 'missing return: `fn {func}` must return `{type}` on every path'),
    ErrorCode('E0210', 'return_value_in_procedure', TYPES, '`return` with a value in a function that returns nothing'),
    ErrorCode('E0211', 'outside_loop', TYPES, '`{what}` outside of a loop'),
    ErrorCode('E0212', 'unpack_count', TYPES, 'too many values to unpack (expected {expected})'),
    ErrorCode('E0213', 'cannot_unpack', TYPES, 'cannot unpack a value of type `{type}`: a tuple, a list or a str unpacks into several targets'),
    ErrorCode('E0214', 'arguments_differ_in_type', TYPES, '`{func}` requires arguments of one type, got `{left}` and `{right}`'),
    ErrorCode('E0215', 'cannot_print', TYPES, 'cannot print a value of type `{type}`'),
    ErrorCode('E0216', 'bad_range_arguments', TYPES, '`range` arguments must be integers of one type, got `{type}`'),
    ErrorCode('E0217', 'needs_string_literal', TYPES, '`{name}` must be a string literal'),
    ErrorCode('E0218', 'not_a_condition', TYPES, 'value of type `{type}` cannot be used as a condition'),
    ErrorCode('E0219', 'comptime_not_constant', TYPES, '`comptime` value must be computable at compile time: {detail}'),
    ErrorCode('E0220', 'type_used_as_value', TYPES, '`{name}` is a type; call it to convert a value, e.g. `{name}(x)`'),
    ErrorCode('E0221', 'recursive_def_needs_annotations', TYPES, 'the result type of recursive `def {func}` cannot be inferred: no `return` gives a value that does not need `{func}`\'s own result; write it: `def {func}(...) -> T:` (`-> None` if it returns nothing)'),
    ErrorCode('E0222', 'too_many_def_instances', TYPES, 'too many instantiations of `def {func}` (more than {limit})'),
    ErrorCode('E0223', 'no_such_attribute', TYPES, '`{name}` has no attribute `{attr}`'),
    ErrorCode('E0224', 'no_compile_time_parameters', TYPES, '`{func}` cannot be called with compile-time parameters'),
    ErrorCode('E0226', 'not_on_target', TYPES, '`{func}` is not available on the `{target}` target'),
    ErrorCode('E0227', 'too_many_instances', TYPES, 'too many function instances: a program may have {limit} in all (one per function, and one per distinct binding of a generic function or `def`); this one makes more'),
    ErrorCode('E0228', 'borrowed_changed', TYPES, "`{name}` is borrowed: `{func}` cannot change the caller's `{type}` in place"),
    ErrorCode('E0229', 'copy_where_python_shares', TYPES, '`{name}` holds a copy of {source}, where Python would share one object: changing the copy here would not change the original'),
    ErrorCode('E0230', 'changed_while_iterated', TYPES, '`{name}` cannot be changed while a `for` loop walks over it'),
    ErrorCode('E0231', 'change_unseen_by_copy', TYPES, '`{name}` is changed here, but a copy of `{source}` was made, which Python would share: the copy would not see the change'),
    ErrorCode('E0232', 'changed_while_element_changed', TYPES, '`{name}` cannot be changed while one of its elements is being changed in place'),
    ErrorCode('E0233', 'shallow_copy_shares_elements', TYPES, 'an element of `{name}` is changed here, but `{name}` shares its elements with `{other}` in Python (`.copy()` copies only the outer container) and not in pyx'),
    ErrorCode('E0234', 'argument_changed_in_call', TYPES, '`{name}` is changed here, but an earlier argument of this call names it: Python would pass it already changed'),
    ErrorCode('E0235', 'returns_copy_of_argument', TYPES, "this returns a copy of the argument `{name}` (or of part of it), where Python would return the caller's own object"),
    ErrorCode('E0244', 'del_not_an_item', TYPES, '`del` removes an item of a container (`del xs[i]`, `del xs[a:b]`, `del d[k]`); deleting {what} is not supported'),
    ErrorCode('E0245', 'del_item_of_non_container', TYPES, 'cannot delete an item of a `{type}`'),
    ErrorCode('E0246', 'mut_argument_also_borrowed', TYPES, "`{name}` is passed to a `mut` parameter and also to `{param}` of the same call: Python would pass one object to both, and `{param}` would see the changes"),
    ErrorCode('E0236', 'not_enough_to_unpack', TYPES, 'not enough values to unpack (expected {expected}, got {found})'),
    ErrorCode('E0237', 'tuple_index_out_of_range', TYPES, 'tuple index out of range: {index} is not an index of a `{type}` ({count} items)'),
    ErrorCode('E0238', 'tuple_item_assignment', TYPES, "'tuple' object does not support item assignment"),
    ErrorCode('E0239', 'tuple_index_not_constant', TYPES, 'the items of a `{type}` have different types: its index must be a constant'),
    ErrorCode('E0240', 'tuple_too_long', TYPES, 'a tuple of {count} items: pyx has tuples of at most {max}'),
    ErrorCode('E0241', 'in_mixed_tuple', TYPES, '`{what}` looks through a tuple whose items have one type, and the items of a `{type}` differ'),
    ErrorCode('E0242', 'tuple_item_changed', TYPES, "`{method}` would change an item of a tuple in place: Python's tuple holds the object itself and pyx's a copy, so the change would be lost"),
    ErrorCode('E0243', 'tuple_item_type', TYPES, 'a tuple cannot hold a value of type `{type}`'),
    ErrorCode('E0247', 'repeated_shared_item', TYPES, "`*` repeats a list of `{item}`: Python's result holds the same {kind} in every place (a change to one is a change to all of them), pyx's holds separate copies; write a comprehension: `[... for _ in range(n)]`"),
    ErrorCode('E0248', 'duplicate_shared_item', TYPES, "`{name}` is put in this list twice: Python's list would hold that one {kind} in both places (a change through one is a change to both), pyx's holds two copies; write `{name}.copy()` where a copy is meant"),
    ErrorCode('E0249', 'device_capture_assigned', TYPES, "the GPU body `{body}` assigns `{name}`, a variable of the host code (the enclosing function's, or the module's): every thread gets a copy of what it captures, so the host's `{name}` would not change; write results through a `Ptr` (`out[i] = ...`), or declare a variable of the body's own (`var {name}`)"),
    ErrorCode('E0250', 'percent_format_error', TYPES, '`%` formatting with this string fails: {problem}'),
    ErrorCode('E0251', 'str_format_error', TYPES, '`str.format` with this string fails: {problem}'),
    ErrorCode('E0252', 'format_string_not_constant', TYPES, 'the format string of {what} must be a string literal: pyx parses it when compiling'),
    ErrorCode('E0253', 'format_feature_unsupported', TYPES, '{what} is not supported yet'),
    ErrorCode('E0254', 'format_argument_order', TYPES, 'this argument would be evaluated out of Python\'s order by {what} (Python evaluates every argument once, left to right, before formatting): assign it to a variable first'),
    ErrorCode('E0255', 'exception_class_body_not_yet', TYPES, "exception class `{name}({base})` may hold only an `__init__`, `pass` or a docstring yet; keep other methods and class attributes in a class of their own"),
    ErrorCode('E0256', 'class_attribute_type_unknown', TYPES, "attribute `{name}` of class `{cls}` needs a type: write `self.{name}: T = ...` in `__init__`, or `{name}: T` in the class body"),
    ErrorCode('E0257', 'class_base_unknown', TYPES, "`class {name}({base})`: `{base}` is not a class pyx can derive from; a base is a class defined above it in this module, or an exception class (`Exception`, `ValueError`, ...)"),
    ErrorCode('E0258', 'class_level_statement_not_yet', TYPES, "`{name}` in the body of class `{cls}`: a class attribute is bound by one `name = value` (or `name: T = value`) statement; bind each name on its own line"),
    ErrorCode('E0259', 'class_init_needs_self', TYPES, "`{cls}.__init__` must take `self` as its first parameter"),
    ErrorCode('E0260', 'class_decorator_not_yet', TYPES, "`@{name}` on class `{cls}`: decorators on classes are not supported yet (write `__init__` and the other methods out)"),
    ErrorCode('E0261', 'identity_needs_objects', TYPES, "`{op}` compares objects of one class (or an object with `None`), not `{left}` and `{right}`"),
    ErrorCode('E0262', 'class_special_method_not_yet', TYPES, "`{cls}.{name}`: this special method is not supported in a class yet"),
    ErrorCode('E0263', 'object_list_copied', TYPES, "`{source}` is a `{type}` inside an object, which Python would share here and pyx would copy: a change through either would not show in the other; use `{source}` where it is, or write `{source}.copy()` if a copy is meant"),
    ErrorCode('E0264', 'object_repr_unknown', TYPES, "an object of class `{cls}` shown by `repr` (an item of a printed list or dict, `repr(x)`, `{{x!r}}`): Python shows its address (`<__main__.{cls} object at 0x...>`), which differs from run to run; give class `{cls}` a `__repr__` method"),
    ErrorCode('E0265', 'attribute_changed_while_iterated', TYPES, "`{attr}` of a `{cls}` object cannot be changed in place while a `for` loop walks over it: Python's loop would see the change, pyx's walks the list as it was; loop over a copy (`.copy()`) or collect the changes and make them after the loop"),
    ErrorCode('E0266', 'multiple_inheritance', TYPES, "class `{name}` has more than one base: pyx has single inheritance; derive from one class and hold the other as an attribute"),
    ErrorCode('E0267', 'super_without_base_method', TYPES, "`super()` here calls nothing: it stands in a method of a class, as `super().m(...)`, where a base class (or its base) defines `m`"),
    ErrorCode('E0268', 'isinstance_needs_class', TYPES, "`isinstance(x, {what})`: the second argument is a class, `int`, `float`, `bool`, `str`, `bytes`, `bytearray`, `list`, `dict`, `set`, or a tuple of them"),
    ErrorCode('E0269', 'attribute_hides_class_attribute', TYPES, "`{target} = ...` here would give {owner} an attribute of its own that hides the class attribute `{cls}.{name}` (Python's rule), which pyx does not support; assign `{cls}.{name}` to change the class attribute, or use another name"),
    ErrorCode('E0270', 'generator_expression_value', TYPES, 'a generator expression kept as a value reads `{name}`, which the function assigns again: not supported yet (Python reads its value when the generator runs; a list comprehension `[...]` reads it now)'),
    ErrorCode('E0272', 'list_without_type', TYPES, '`list()` with no argument has no element type: write `List[T]()` with the type, or annotate (`xs: list[int] = []`)'),
    ErrorCode('E0273', 'yield_in_fn', TYPES, '`yield` in {what} (`{func}`): only a `def` can be a generator'),
    ErrorCode('E0274', 'generator_object', TYPES, 'a generator {what} is not supported yet: pyx runs a generator where it is iterated (a `for` loop, or a builtin that consumes it: sum, list, sorted, min, max, any, all, next, str.join), once'),
    ErrorCode('E0275', 'generator_body', TYPES, '{construct} in a generator is not supported yet'),
    ErrorCode('E0276', 'not_a_function_value', TYPES, '`{name}` cannot be used as a value here: {reason}'),
    ErrorCode('E0277', 'captured_before_assignment', TYPES, '`{func}` uses `{name}`, which is not assigned yet where `{func}` is made: assign it before the function that uses it'),
    ErrorCode('E0278', 'closure_outlives_frame', TYPES, 'a closure that shares the variable `{name}` of `{func}` cannot be returned from `{func}`: it keeps that variable\'s address, which dies when `{func}` returns'),
    ErrorCode('E0279', 'callable_type_here', TYPES, '`Callable` without its parameter types (a bare `Callable`, or `Callable[..., R]`) names a parameter\'s type only: a variable, field, element or result holding any function needs its signature, `Callable[[A, B], R]`'),
    ErrorCode('E0280', 'function_variable_rebound', TYPES, '`{name}` holds one function and is defined again here with another whose parameters are not annotated: annotate the parameters of both (`def {name}(x: int) -> int`), so `{name}` can hold either as a `Callable[[...], R]`'),
    ErrorCode('E0281', 'nested_function_form', TYPES, 'a nested function or lambda with {construct} is not supported yet'),
    ErrorCode('E0282', 'defaultdict_factory', TYPES, '`{call}` is not supported: pyx\'s defaultdict takes one of `int`, `float`, `str`, `bool`, `list`, `set`, `dict`, `Counter`, `deque` or a class of the program made without arguments as its factory, or a lambda making one of their empty values (`lambda: 0`, `lambda: []`, `lambda: defaultdict(int)`), and nothing else (fill a plain dict with `d.setdefault(k, v)` instead)'),
    ErrorCode('E0283', 'defaultdict_factory_type', TYPES, '`defaultdict({factory})` makes `{factory}` values, but this one is used to hold `{type}`'),
    ErrorCode('E0284', 'not_a_context_manager', TYPES, '`with` needs a context manager, and `{type}` is none: pyx\'s `with` takes a file from `open()` (or a struct with `__enter__(self)` and `__exit__(self)`)'),
    ErrorCode('E0285', 'type_name_of_value', TYPES, '`type(x).__name__` of a `{type}`: only classes and the types Python names (int, float, str, bool, list, dict, set, tuple, None) have one; write the name you mean as a string'),
    ErrorCode('E0286', 'cache_not_reproduced', TYPES, '{what} under `@cache`/`@lru_cache`: {advice}'),
    ErrorCode('E0287', 'empty_literal_type_unknown', TYPES, 'nothing in this function says what the empty {kind} `{name}` holds: annotate it (`{example}`)'),
    ErrorCode('E0288', 'int_constant_as_python_float', TYPES, '`{value}` stays an int in CPython {where}, and would print as `{value}` where pyx prints `{value}.0`: write `{value}.0`'),
    ErrorCode('E0289', 'walked_container_rebound', TYPES, '`{place}` may be bound to another container here while a `for` loop walks it: Python\'s loop goes on over the old one, pyx\'s reads `{place}` at each step; loop over a copy (`for x in {place}.copy():`, or `list({place})`)'),
    ErrorCode('E0290', 'kept_view_stale', TYPES, '`{name}` is changed here while `{view}`, a view or iterator over it, is still used afterwards: Python\'s would see the change, pyx\'s does not; write `{source}` again where `{view}` is used (or `list({source})` if a snapshot is meant)'),
    ErrorCode('E0291', 'function_value_keeps_frame', TYPES, '`{func}` cannot become a `{type}`: it {reason}'),
    ErrorCode('E0292', 'several_functions_unannotated', TYPES, '{what}: a variable, element or expression holding one of several functions, chosen at run time, needs their signature; annotate it `Callable[[A, ...], R]` where it is first bound (`f: Callable[[int], int] = g`), or annotate the functions\' parameters'),
    ErrorCode('E0293', 'function_signature_mismatch', TYPES, '`{func}` is not a `{type}`: {problem}'),
    ErrorCode('E0294', 'generator_object_construct', TYPES, '{construct} in the generator `{func}`, used here as an object, is not supported yet'),
    ErrorCode('E0295', 'generator_object_type', TYPES, 'the type of {name} in the generator `{func}`, used here as an object, must show before its body is checked: {hint}'),
    ErrorCode('E0296', 'generator_send', TYPES, '`{method}()` of a generator is not supported yet: a pyx generator only makes values (iterate it, or call `next`)'),
    ErrorCode('E0297', 'itertools_tuple_length', TYPES, '`{func}` yields tuples, and pyx must know their length when compiling: {detail}'),
    ErrorCode('E0298', 'stored_argument_used_later', TYPES, '`{name}` is used here after it was passed to `{func}`, which stores its `{param}`: Python stores the object itself, pyx a copy, so a change through either would not show through the other; after the call use what `{func}` stored instead (or pass `{name}.copy()` if a copy is meant)'),
    ErrorCode('E0299', 'bytes_and_str_mixed', TYPES, 'a `{found}` where a `{expected}` is expected: Python never mixes bytes and str (`==` between them is False, `+`, `in` and their methods raise TypeError); {fix}'),
    ErrorCode('E0300', 'int_beyond_64_bits', PYTHON, "`{value}` does not fit pyx's 64-bit `Int` (CPython's ints have no limit): keep integers between -2**63 and 2**63 - 1 (`pow(b, e, m)` keeps a power small), or write a float, `{approx}`, where an approximation will do"),
    ErrorCode('E0302', 'exception_message_not_str', PYTHON, "the message of `{cls}` is of type `{found}`: pyx keeps the message an exception is raised with as a `str`{fix}"),
    ErrorCode('E0304', 'number_where_scalar_wanted', PYTHON, "this value is Python's `int | float` (pyx's `Number`: an int or a float, as the run decides), and `{expected}` is wanted here; write `{fix}` to say which"),
    ErrorCode('E0306', 'returns_copy_of_shared', PYTHON, "this returns a copy of `{name}`, which this function shares with `{func}`, where Python would return that one object; return `{name}.copy()` if a copy is meant, or change `{name}` through a function that `{func}` makes"),
    ErrorCode('E0303', 'exception_arguments_not_kept', PYTHON, "`{what}` of the caught exception `{name}`: Python's shows the arguments it was raised with, and {why}; write `{fix}`"),
    ErrorCode('E0308', 'caught_exception_kept', PYTHON, "`{name}`, a caught exception, kept as a value here: an exception value keeps its class, its message and how `repr` shows its arguments, and {why}; keep `str({name})` (or `type({name}).__name__`), or catch the program's own exception classes, each raised with one str (or none)"),
    ErrorCode('E0310', 'issubclass_needs_classes', PYTHON, "`issubclass`: `{what}` is not a class of this program; pyx answers `issubclass(C, D)` when compiling, for classes C and D (or a tuple of them) it defines or imports by name"),
    ErrorCode('E0301', 'slice_of_other_items', PYTHON, "this puts `{found}` items into a list of `{expected}`: CPython's list would then mix the two types, and a pyx list holds items of one type; keep the `{found}` items in a list of their own"),
    ErrorCode('E0311', 'override_result_type', PYTHON, "`{cls}.{method}` returns `{found}` and `{other}.{method}` returns `{expected}`: Python gives each as it is, but a call of `{method}` on a `{base}` runs either, and pyx gives that call one type; make every `{method}` of the hierarchy return the same type"),
    ErrorCode('E0312', 'init_argument_type_differs', PYTHON, "this call passes `{param}` of `{cls}.__init__` as `{found}`, which it stores as `self.{attr}`, typed `{expected}` by an earlier call: Python stores either, a pyx attribute has one type; {fix}, or annotate `{param}` with the type meant"),
    ErrorCode('E0316', 'exception_object_value', PYTHON, "`{name}` outside `raise` and `except`: the class itself as a value, or an object of an exception class with data (an `__init__` storing attributes) kept as a value, is not supported yet (an exception class without data makes values: `errors: list[Exception] = [ValueError(\"x\")]`); raise it where it is made (`raise {name}(...)`), keep its message (a `str`) instead, or re-raise a caught one (`except {name} as e: ... raise e`)"),
    ErrorCode('E0317', 'object_attribute_changed_by_call', PYTHON, "`{source}`, an object's attribute, is passed to `{func}`, which changes its parameter `{name}` in place: not supported yet (Python's `{func}` changes the object's own list or dict); make `{func}` a method of the object's class that changes the attribute itself, or have it return what it computes and change the attribute where it is called"),
    ErrorCode('E0320', 'exception_init_message', PYTHON, "`{name}.__init__` must call `super().__init__(message)` once, as a statement of its own in its body (with one argument, the message `str(e)` shows, or none): without it Python keeps the constructor's arguments as the exception's, which pyx does not yet"),
    ErrorCode('E0321', 'exception_data_base', PYTHON, "`{name}` derives from `{base}`, an exception class whose `__init__` stores data: not supported yet; derive `{name}` from `{base}`'s own base, or give `{base}` no `__init__`"),
    ErrorCode('E0322', 'exception_attribute_unknown', PYTHON, "`{name}.{attr}`: the exception this handler caught may be of any class its `except` names; name the one class whose `__init__` stores `{attr}` in an `except` of its own (`except {cls} as {name}:`), or test `if isinstance({name}, {cls}):` first"),
    ErrorCode('E0323', 'list_items_mixed', PYTHON, "a value of type `{other}` among items of type `{first}`: pyx's lists and sets hold items of one type; keep one type in them, or write a tuple (`(...)`), whose items may differ"),
    ErrorCode('E0324', 'exception_data_builtin_base', PYTHON, "`{name}` derives from `{builtin}`, whose exceptions are not a message alone: an `__init__` of its own is not supported there yet; derive `{name}` from `Exception` (or `ValueError`, ...)"),
    ErrorCode('E0325', 'exception_repr', PYTHON, "`repr({name})` of a caught exception: Python's shows the class and the arguments it was raised with, and {why}; write `type({name}).__name__` and `str({name})`"),
    ErrorCode('E0319', 'class_method_without_class', PYTHON, "`@classmethod` `{func}` has no parameter: Python passes the class as a class method's first argument (`cls`), so every call of it raises TypeError; write `def {func}(cls, ...)`, or make it a `@staticmethod` if it does not use the class"),
    ErrorCode('E0326', 'shared_default_result_kept', PYTHON, "`{func}` returns `{param}`, whose default is one {kind} that Python makes once and shares between the calls that leave `{param}` out, so what a call returns is that {kind} itself, and later calls change it; pyx returns a copy: use the result at once, in a statement of its own (`{func}(...)`) or as the one argument of `print({func}(...))`"),
    ErrorCode('E0327', 'identity_unknown', PYTHON, "`{op}` of two {kind}s: Python answers whether they are one object; pyx's {kind}s are values, and pyx answers only where the source shows it: a new one (a display, a comprehension, `.copy()`, `list(x)`, `dict(x)`, `set(x)`) is no other, and a name bound once in this function, outside loops, to a new {kind} or to another such name (`b = a`) is that one; compare with `==`, or test the names so bound"),
    # E0330-E0339: itertools, functions as values, collections (session 10, engineer E)
    ErrorCode('E0330', 'starmap_arity_unknown', PYTHON, '`starmap` needs each item\'s tuple length and the function as a name or lambda, seen when compiling: write `(f(a, b) for a, b in xs)`'),
    ErrorCode('E0331', 'zip_longest_unsupported', PYTHON, 'this `zip_longest` is not supported: {detail}'),
    ErrorCode('E0332', 'groupby_not_walked', PYTHON, '`groupby(...)` is supported only as what a `for` loop or a comprehension walks, as `for k, g in groupby(xs):`, each group `g` walked where it is read (`list(g)`, `for x in g`): CPython\'s groups are used up when the next one is reached, which pyx does not follow in a value kept for later'),
    ErrorCode('E0340', 'mixed_container_items', PYTHON, "this {display} holds {first} and {second}: a pyx {display} holds items of one type, and one that mixes a {what} with other values (Python's JSON-like nesting) has none yet; keep the {what}s and the other values in {display}s of their own"),
    ErrorCode('E0341', 'binary_file_mode', PYTHON, "`open(..., {mode})`: pyx's files are text only (binary mode, `b`, is not supported yet); open it in text mode ({text}) and work with str"),
    ErrorCode('E0342', 'static_method_through_object', PYTHON, "`.{method}()` through an object: `{method}` is a static (or class) method of `{cls}` that `{sub}` has its own of, and Python calls the one of the object's own class; make it a method (`def {method}(self, ...)`), which dispatches on the object's class, or call it on a class (`{cls}.{method}()`)"),
    ErrorCode('E0343', 'map_of_iterator', PYTHON, "`{func}` over a generator or an iterator: pyx's `{func}` reads a list, and listing this one would run it to its end before the function's first call, where Python interleaves the two; write a generator expression (`(f(x) for x in it)`{also})"),
    ErrorCode('E0345', 'kept_argument_changed', PYTHON, "`{name}` is changed here while `{holder}`, which keeps it as `{holder}.{field}`, is still used: Python's `{holder}.{field}` is `{name}` itself and would show the change, pyx's is the copy `{func}(...)` made; finish with `{holder}` before changing `{name}`, or pass `{name}.copy()` to `{func}` if a copy is meant"),
    ErrorCode('E0351', 'object_attribute_reached_twice', PYTHON, "`{source}`, an object's attribute, is passed to `{func}`, which changes its parameter `{name}` in place, and {why}: pyx lends the attribute to the call, and the object, reached that other way meanwhile, would not show the change made so far (Python's is one object); make `{func}` a method of the object's class that changes the attribute itself, or have it return what it computes and change the attribute where it is called"),
    ErrorCode('E0352', 'object_attribute_argument_order', PYTHON, "`{source}`, an object's attribute, is passed to `{func}`, which changes its parameter `{name}` in place, and a later argument runs the program's code, which Python runs after reading `{source}` (that code could put another list or dict there, and pyx would pass that one); compute that argument into a variable before the call"),
    ErrorCode('E0353', 'stored_list_read_after_change', PYTHON, "`{name}` is stored in `{target}` here and read again later, after the program may change that attribute in place: Python's `{target}` is `{name}` itself, so the change would show in `{name}`; pyx stores a copy; read `{target}` instead of `{name}` after the store, or store `{name}.copy()` if a copy is meant"),
    ErrorCode('E0354', 'stored_list_changed_through_container', PYTHON, "an element of `{container}` is changed in place here, and `{name}` was stored in a container before and is read again after this: if that element is `{name}`, Python's `{name}` shows the change (one object in both places) and pyx's does not (it stored a copy); read the element through `{container}` instead of `{name}`, or store `{name}.copy()` if a copy is meant"),
    ErrorCode('E0355', 'tuple_slice_not_constant', PYTHON, "a slice of a `{type}` with a bound known only at run time: its items have different types, so which of them the slice keeps (and the new tuple's type) must be known when compiling; write constant bounds (`t[1:]`, `t[:2]`), or unpack the tuple (`a, b, c = t`)"),
    ErrorCode('E0359', 'raise_from_cause', PYTHON, "`raise ... from {cause}`: pyx takes as the cause an exception the function holds (a caught `e`: `except ValueError as e:` ... `raise AppError(\"bad\") from e`), an exception class, or `None`; keep the exception in a variable and name it here (CPython raises TypeError for a cause that is no exception)"),
    ErrorCode('E0360', 'object_annotation', PYTHON, "`object` as a type: pyx gives each value one type known when compiling, and has no type that holds any value; annotate with the type the value has (for `def __eq__(self, other: object)` in a class with a base or subclasses, the class itself: `other: Point` in `class Point`)"),
    ErrorCode('E0363', 'key_with_default', PYTHON, "`{func}(..., key=..., default=...)`: pyx takes `key=` or `default=` here, not both yet; write `{func}(items, key=f) if items else d` (with the items in a list), or leave out `default=` where the items are never empty"),
    # E09xx: tools and environment
    ErrorCode('E0901', 'cannot_read_file', TOOLS, 'cannot read `{path}`: {reason}'),
    ErrorCode('E0902', 'no_c_compiler', TOOLS, 'no C compiler found to link an executable (tried {tried}); install gcc or clang, or set CC'),
    ErrorCode('E0903', 'link_failed', TOOLS, 'linking failed: {detail}'),
    ErrorCode('E0904', 'environment', TOOLS, '{detail}'),
    ErrorCode('E0905', 'internal_error_while_checking', TOOLS,
              'internal compiler error while checking: {detail} (a bug in pyx: please report it)'),
    ErrorCode('E0906', 'no_platform_facts', TOOLS, "no platform facts for the target `{triple}`: pyx's runtime knows the C library's layouts on {known} only"),
    ErrorCode('E0907', 'nothing_to_tune', TOOLS, '`{path}` has no `@autotune` function: `pyx tune` times the candidates of the `@autotune` functions a program calls'),
    ErrorCode('E0908', 'nothing_tuned', TOOLS, "`{path}` ran without calling an `@autotune` function: nothing was timed; call the tuned functions from `main` with the sizes to tune for"),
    ErrorCode('E0913', 'exception_type_in_device_code', TOOLS, "{what} in GPU code is not available on the `{target}` target: a thread there cannot tell which exception it caught; test the condition with `if` before the operation that raises, or catch with a bare `except:` (the CPU target runs `except E as e` in kernels)"),
    # W0xxx: warnings
    ErrorCode('W0002', 'file_too_large_for_live_checking', WARNING, 'file too large for live checking ({size} characters; the editor checks files up to {limit}); run `pyx check` on it'),

)

# Codes once released and then retired: never reused for another message.
RETIRED: dict[str, str] = {
    "E0225": "compile-time parameters are not supported on `{func}` yet (before they were implemented)",
    "W0001": "unreachable code (never reported)",
    "E0271": "`sum` of `{type}` values needs a float start (before a sum of floats was a float that raises for no items)",
}

REGISTRY: dict[str, ErrorCode] = {c.code: c for c in CODES}
BY_NAME: dict[str, ErrorCode] = {c.name: c for c in CODES}

# Named constants for the codes call sites use most; a call site may pass one of these or the code string.
NOT_IN_PYX = BY_NAME["not_in_pyx"]
NOT_SUPPORTED_YET = BY_NAME["not_supported_yet"]
UNDEFINED_NAME = BY_NAME["undefined_name"]
MISMATCHED_TYPES = BY_NAME["mismatched_types"]

# The templates by code, errors and warnings apart (docs/diagnostics.md quotes each).
MESSAGES: dict[str, str] = {c.code: c.template for c in CODES if c.severity == "error"}
WARNINGS: dict[str, str] = {c.code: c.template for c in CODES if c.severity == "warning"}


def lookup(code: str | ErrorCode) -> ErrorCode:
    """The registered code; an unregistered one is a compiler bug (KeyError)."""
    return code if isinstance(code, ErrorCode) else REGISTRY[code]


def message(code: str | ErrorCode, **args: object) -> str:
    return lookup(code).format(**args)
