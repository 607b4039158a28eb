"""Calling generic and unannotated pyx functions from Python, and containers across the boundary.

A top-level function Python cannot call as it is compiled (an unannotated or generic `def`, or
one whose parameters or result are `List`, `Dict`, `Set` or `Tuple` values) is a
`PyxDispatcher` in the imported module. A call works out the pyx type of each argument
(`type_of`), and the first call with a new combination compiles that instance
(`lang/dispatch_build.py`: the module with a small generated wrapper appended, cached on disk
keyed by the signature); later calls with the same argument types go straight to it.

Python lists, dicts, sets, tuples and strs are *copied* into pyx's containers for the call, and
container results are copied back into new Python objects; NumPy arrays are passed as they are
for every other function (a 1-D array is a `Span`, an n-D one a `Buffer`), so writes land in them.

This module needs no compiler: a signature compiled before is loaded from the cache.

Types are small trees: a leaf is a pyx scalar name or "String"; ("List", e), ("Set", e),
("Dict", k, v), ("Tuple", e...), ("Span", dtype), ("Buffer", dtype, rank). None inside a tree
is an element type an empty container does not tell.
"""
from __future__ import annotations

import inspect
import sys
import threading
from typing import Any

_LEAVES = {bool: "Bool", int: "Int", float: "Float64", str: "String"}
# NumPy dtype names and the pyx scalar each is.
_DTYPES = {"int64": "Int", "int8": "Int8", "int16": "Int16", "int32": "Int32", "uint8": "UInt8",
           "uint16": "UInt16", "uint32": "UInt32", "uint64": "UInt64", "float16": "Float16",
           "float32": "Float32", "float64": "Float64", "bool": "Bool"}
# What a container's elements may be (each converted in pyx through Python's int(), float(), ...).
ELEMENT_LEAVES = ("Int", "Float64", "Bool", "String")
CONTAINERS = ("List", "Set", "Dict", "Tuple")
_ACCEPTED = "int, float, bool, str, NumPy numbers and arrays, and lists, dicts, sets and tuples of those"


class DispatchError(TypeError):
    """Arguments no instance can be made for (a TypeError, as a wrong argument is)."""


def type_of(value: Any, func: str = "", param: str = "") -> Any:
    """The pyx type tree a Python value crosses as."""
    t = type(value)
    leaf = _LEAVES.get(t)
    if leaf is not None:
        return leaf
    if t is list or t is set or t is frozenset:  # the common case first: items of one scalar type
        kinds = set(map(type, value))
        if len(kinds) == 1:
            leaf = _LEAVES.get(kinds.pop())
            if leaf is not None:
                return ("List" if t is list else "Set", leaf)
    if t is list:
        return ("List", _unify([type_of(v, func, param) for v in value], "a list", func, param))
    if t is set or t is frozenset:
        return ("Set", _unify([type_of(v, func, param) for v in value], "a set", func, param))
    if t is dict:
        return ("Dict", _unify([type_of(k, func, param) for k in value], "a dict's keys", func, param),
                _unify([type_of(v, func, param) for v in value.values()], "a dict's values", func, param))
    if t is tuple:
        if not value:
            raise DispatchError(f"{func}() argument '{param}': an empty tuple cannot cross to pyx")
        return ("Tuple",) + tuple(type_of(v, func, param) for v in value)
    numpy = sys.modules.get("numpy")
    if numpy is not None:
        if isinstance(value, numpy.ndarray):
            dtype = _DTYPES.get(value.dtype.name)
            if dtype is None:
                raise DispatchError(f"{func}() argument '{param}': a NumPy array of {value.dtype} cannot cross to "
                                    f"pyx (arrays of {', '.join(_DTYPES)} can)")
            if value.ndim == 0:
                return dtype
            if value.ndim == 1 and value.flags.c_contiguous:
                return ("Span", dtype)
            return ("Buffer", dtype, value.ndim)  # any strides: `a[::2]` too
        if isinstance(value, numpy.generic) and value.dtype.name in _DTYPES:
            return _DTYPES[value.dtype.name]
    from .bridge import PyxStruct

    if isinstance(value, PyxStruct):  # a struct a pyx function returned: passed back as itself
        return t.__name__
    raise DispatchError(f"{func}() argument '{param}': a {t.__name__} cannot cross to pyx ({_ACCEPTED} can)")


def _unify(trees: list, what: str, func: str, param: str):
    found = None
    for tree in trees:
        merged = _merge(found, tree)
        if merged is _CLASH:
            raise DispatchError(f"{func}() argument '{param}': {what} mixes {render(found)} and {render(tree)}; "
                                "pyx containers hold one type (convert them first, e.g. [float(x) for x in xs])")
        found = merged
    return found


_CLASH = object()


def _merge(a, b):
    if a is None:
        return b
    if b is None or a == b:
        return a
    if isinstance(a, tuple) and isinstance(b, tuple) and a[0] == b[0] and len(a) == len(b):
        items = [_merge(x, y) for x, y in zip(a[1:], b[1:], strict=True)]
        return _CLASH if _CLASH in items else (a[0], *items)
    return _CLASH


def render(tree) -> str:
    """The pyx spelling of a type tree: `List[Int]`, `Dict[String, Float64]`, `Buffer[Float64, 2]`."""
    if tree is None:
        return "?"
    if isinstance(tree, str):
        return tree
    return f"{tree[0]}[{', '.join(str(x) if isinstance(x, int) else render(x) for x in tree[1:])}]"


def parse(text: str) -> list:
    """The type trees of a signature spelled as pyx types: `"List[Int], Float64"`, `"Span[Float32]"`."""
    import re

    tokens = re.findall(r"[A-Za-z_][A-Za-z_0-9]*|\d+|[\[\],()]|\S", text)
    pos = 0

    def expect(tok):
        nonlocal pos
        if pos >= len(tokens) or tokens[pos] != tok:
            raise ValueError(f"pyx signature {text!r}: expected {tok!r}")
        pos += 1

    def one():
        nonlocal pos
        if pos >= len(tokens) or not re.match(r"[A-Za-z_]", tokens[pos]):
            raise ValueError(f"pyx signature {text!r}: expected a type name")
        name = tokens[pos]
        pos += 1
        if pos < len(tokens) and tokens[pos] == "[":
            pos += 1
            args: list = []
            while True:
                if name == "Buffer" and len(args) == 1:
                    if pos >= len(tokens) or not tokens[pos].isdigit():
                        raise ValueError(f"pyx signature {text!r}: Buffer takes a dtype and a rank")
                    args.append(int(tokens[pos]))
                    pos += 1
                else:
                    args.append(one())
                if tokens[pos:pos + 1] == [","]:
                    pos += 1
                    continue
                expect("]")
                break
            return (name, *args)
        if name == "str":
            return "String"
        return {"int": "Int", "float": "Float64", "bool": "Bool"}.get(name, name)

    if tokens[:1] == ["("] and tokens[-1:] == [")"]:
        tokens = tokens[1:-1]
    trees = []
    while pos < len(tokens):
        trees.append(one())
        if pos < len(tokens):
            expect(",")
    return trees


def convertible(tree, top: bool = True) -> bool:
    """Whether values of this type can cross (as an argument or a result) in a wrapper: any scalar,
    String or array at the top; containers of Int, Float64, Bool, String and such containers."""
    if isinstance(tree, str):
        return top or tree in ELEMENT_LEAVES
    if tree is None:
        return False
    if tree[0] in ("Span", "Buffer"):
        return top
    if tree[0] in CONTAINERS:
        return all(convertible(t, False) for t in tree[1:])
    return False


def fits(value_tree, wanted, coerce: bool) -> bool:
    """Whether a value of type `value_tree` can be passed where `wanted` is expected. With
    `coerce` (a function with annotated parameters) an int goes where a Float64 is wanted and a
    scalar leaf at the top is left to the bridge's own checks."""
    if value_tree is None:
        return True
    if isinstance(wanted, str) or isinstance(value_tree, str):
        if value_tree == wanted:
            return True
        return coerce and value_tree == "Int" and wanted == "Float64"
    if value_tree[0] != wanted[0] or len(value_tree) != len(wanted):
        return False
    return all(a == b if isinstance(a, int) else fits(a, b, coerce)
               for a, b in zip(value_tree[1:], wanted[1:], strict=True))


class PyxDispatcher:
    """A generic or container-taking pyx function, callable from Python: one compiled instance per
    combination of argument types (`signatures`), made on first use or by `compile(...)`."""

    def __init__(self, dmeta: dict, origin: dict, structs: dict):
        self.__name__ = self.__qualname__ = dmeta["name"]
        self.__module__ = origin["name"]
        self._meta = dmeta
        self._origin = origin
        self._structs = structs
        self._fixed = [parse(t)[0] for t in dmeta["fixed"]] if dmeta.get("fixed") is not None else None
        self._instances: dict[str, Any] = {}  # signature -> callable
        self._failed: dict[str, str] = {}  # signature -> why it does not compile
        self._fast: dict[tuple, Any] = {}  # the argument's Python types (and arrays' dtypes) -> callable
        self._keep: list = []
        self._lock = threading.Lock()
        # Instances this dispatcher loaded into the process (compiled, or read from the disk cache),
        # and those of them it compiled: a call whose instance is loaded adds to neither.
        self.instances_loaded = 0
        self.instances_compiled = 0
        params = [inspect.Parameter(p["name"], inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                    **({"default": p["default"]} if "default" in p else {}))
                  for p in dmeta["params"]]
        self.__signature__ = inspect.Signature(params)
        self._arity = len(params)
        self.__doc__ = dmeta.get("doc") or None

    def __repr__(self) -> str:
        return f"<pyx dispatcher {self.__name__}, signatures {self.signatures}>"

    def __reduce__(self):
        return attribute_of_module, (origin_args(self._origin), self.__name__)

    @property
    def signatures(self) -> list[str]:
        """The argument types of each instance compiled so far, spelled as pyx types."""
        return list(self._instances)

    def compile(self, signature: str):
        """Compile (or load from the cache) the instance for these argument types, spelled as pyx
        types: `f.compile("Span[Float64], Int")`, `f.compile("List[Int]")`. Returns the compiled callable."""
        trees = parse(signature)
        if len(trees) != self._arity:
            raise TypeError(f"{self.__name__}() takes {self._arity} arguments; signature {signature!r} has "
                            f"{len(trees)}")
        for tree in trees:
            if not convertible(tree):
                raise TypeError(f"{self.__name__}(): {render(tree)} cannot cross from Python ({_ACCEPTED} can)")
        return self._instance(trees)

    def __call__(self, *args, **kwargs):
        if kwargs or len(args) != self._arity:
            try:
                bound = self.__signature__.bind(*args, **kwargs)
            except TypeError as exc:
                raise TypeError(f"{self.__name__}(): {exc}") from None
            bound.apply_defaults()
            args = tuple(bound.arguments.values())
        key = _fast_key(args)
        if key is not None:
            fn = self._fast.get(key)
            if fn is not None:
                return fn(*args)
        fn = self._lookup(args)
        if key is not None:
            self._fast[key] = fn
        return fn(*args)

    def _lookup(self, args: tuple):
        names = [p["name"] for p in self._meta["params"]]
        trees = [type_of(a, self.__name__, n) for a, n in zip(args, names, strict=True)]
        if self._fixed is not None:  # annotated: one signature, the declared one
            for tree, want, name in zip(trees, self._fixed, names, strict=True):
                # Containers are checked here; whatever else is left to the bridge's own checks.
                if isinstance(want, tuple) and want[0] in CONTAINERS and not fits(tree, want, True):
                    raise TypeError(f"{self.__name__}() argument '{name}' must be {render(want)}, not "
                                    f"{render(tree)}")
            return self._instance(self._fixed)
        wanted = ", ".join(render(t) for t in trees)
        if "?" not in wanted:
            return self._instances.get(wanted) or self._instance(trees)
        # An empty container does not tell its element type: an instance compiled for a fitting one does.
        for signature, fn in self._instances.items():
            if all(fits(t, s, False) for t, s in zip(trees, parse(signature), strict=True)):
                return fn
        raise DispatchError(f"{self.__name__}(): cannot tell the element type of an empty container in "
                            f"({wanted}); compile the instance first, e.g. {self.__name__}.compile(\"...\")")

    def _instance(self, trees: list):
        signature = ", ".join(render(t) for t in trees)
        fn = self._instances.get(signature)
        if fn is not None:
            return fn
        if self._origin.get("scripted"):
            # Its instance would be compiled apart, with a second copy of the module's variables.
            file = self._origin["file"].rsplit("/", 1)[-1]
            raise DispatchError(
                f"{self.__name__}({signature}) cannot be compiled for Python: {file} runs statements at import "
                "(module-level variables), and an instance compiled apart would have its own copy of them; "
                + ("give its parameters types Python passes as they are (numbers, String, NumPy arrays as "
                   "Span/Buffer)" if self._fixed is not None else
                   f"annotate the parameters of {self.__name__} to export it with the module"))
        failed = self._failed.get(signature)
        if failed is not None:  # compiled once already and did not compile: not again on each call
            raise DispatchError(failed)
        with self._lock:
            fn = self._instances.get(signature)
            if fn is None:
                try:
                    fn = _load_instance(self, trees)
                except DispatchError as exc:
                    self._failed[signature] = str(exc)
                    raise
                self._instances[signature] = fn
        return fn


def _fast_key(args: tuple):
    """A key for arguments whose types alone decide the instance: scalars and arrays (by dtype and
    rank); None for containers, whose element types must be looked at."""
    key: list[object] = []
    for a in args:
        t = type(a)
        if t in _LEAVES:
            key.append(t)
        elif hasattr(a, "dtype") and hasattr(a, "ndim") and t.__module__ == "numpy":
            key.append((t, a.dtype, a.ndim, a.flags.c_contiguous))
        else:
            return None
    return tuple(key)


def _load_instance(dispatcher: PyxDispatcher, trees: list):
    """The callable for one instance: compiled and cached, or loaded from the cache."""
    from pathlib import Path

    from ..dispatch_build import compile_instance
    from .bridge import NativeLibrary, PyxFunction, check_python_api, fast_function, name_structs

    origin = dispatcher._origin
    meta, jit, compiled = compile_instance(Path(origin["file"]), dispatcher.__name__, trees,
                                           dispatcher._fixed is not None, memcheck=origin["memcheck"])
    dispatcher.instances_loaded += 1
    dispatcher.instances_compiled += compiled
    check_python_api(origin["name"], meta.get("python_api", ()))
    library = NativeLibrary(jit)
    fmeta = next(f for f in meta["functions"] if f["name"] == meta["wrapper"])
    # The wrapper's parameters are a0, a1, ...: its errors name the function's own.
    names = [p["name"] for p in dispatcher._meta["params"]]
    fmeta = dict(fmeta, name=dispatcher.__name__,
                 params=[dict(p, name=n) for p, n in zip(fmeta["params"], names, strict=True)])
    fn = PyxFunction(fmeta, jit.address(fmeta["symbol"]), library, dispatcher._structs,
                     dict(meta, module=origin["name"]))
    fn._origin = origin
    name_structs(dispatcher._structs, origin)
    if fmeta.get("pyentry"):
        fn = fast_function(fn, jit.address(fmeta["pyentry"]), library, dispatcher._keep)
    dispatcher._keep.append(library)
    return _adapted(fn, meta.get("adapt") or {})


def _adapted(fn, adapt: dict):
    """The instance with its list arguments made NumPy arrays and its list result a list again
    (dispatch_build.wrapper_source says which)."""
    dtypes, tolist = adapt.get("args") or [], adapt.get("result") == "tolist"
    if not any(dtypes) and not tolist:
        return fn
    import numpy

    def call(*args):
        if any(dtypes):
            args = tuple(a if d is None else numpy.array(a, dtype=d) for a, d in zip(args, dtypes, strict=True))
        result = fn(*args)
        return result.tolist() if tolist else result

    return call


def origin_args(origin: dict) -> tuple:
    return origin["name"], origin["file"], origin["target"], origin["memcheck"]


def module_by_reference(name: str, file: str, target: str = "auto", memcheck: bool = False):
    """The pyx module `name` compiled from `file` in this process: the one already imported, or
    imported now (from the disk cache when it is there). What unpickling a pyx function calls."""
    module = sys.modules.get(name)
    if module is not None and getattr(module, "__file__", None) == file and "__pyx__" in module.__dict__:
        return module
    from pathlib import Path

    from ..importer import load_source

    return load_source(name, Path(file), target, memcheck=memcheck)


def attribute_of_module(origin: tuple, name: str):
    return getattr(module_by_reference(*origin), name)


def struct_by_reference(origin: tuple, struct: str, values: tuple):
    """A pyx struct's Python object, rebuilt in another process from its module and fields."""
    return getattr(module_by_reference(*origin), struct)(*values)


def unexported_getattr(module: str, unexported: list):
    """The module's `__getattr__`: an AttributeError saying why a function Python cannot call is
    not there, and what to do instead."""
    reasons = {u["name"]: u["reason"] for u in unexported}

    def __getattr__(name: str):
        if name in reasons:
            raise AttributeError(f"pyx function {module}.{name} cannot be called from Python: {reasons[name]}",
                                 name=name)
        raise AttributeError(f"module {module!r} has no attribute {name!r}", name=name)

    return __getattr__
