"""Compiling the instances Python's calls ask for (runtime/dispatch.py) and saying which functions
cannot be called from Python, and why.

An instance of function `f` for argument types (A, B) is the module itself with a wrapper
appended (so line numbers and imports are the module's own):

    fn __pyx_call_f(a0: PythonObject, a1: Float64) raises -> PythonObject:
        var v0 = __pyx_from_0(a0)          # a Python list copied into a List[Int]
        var v1 = a1
        return __pyx_to_0(f(v0, v1))       # the result copied into new Python objects

Scalars, Strings, arrays (`Span`/`Buffer`) and structs Python knows cross as they do for any
exported function; containers cross as PythonObjects converted by generated pyx code. The result
type is learned first by checking the module with a probe that only calls `f`. The instance is
compiled into its own object: a module that runs statements at import (module-level variables)
cannot have one, since that object would hold a second copy of its variables.
"""
from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any

from . import types as T
from .runtime.dispatch import CONTAINERS, DispatchError, convertible, render

WRAPPER = "__pyx_call_"
PROBE = "__pyx_probe_"
_ALLOWED = ("numbers, Bool, String, arrays (Ptr, Span, Buffer), structs without owned fields, and List, Dict, "
            "Set and Tuple values of Int, Float64, Bool and String")


def _why_not_type(t: T.Type, what: str, way: str) -> str:
    """Why a value of type t cannot cross: a class's objects are said to be one (they are shared
    by reference in pyx's memory, which no Python object keeps alive yet), others get the list."""
    from .semantics.classes import class_name, is_class

    if is_class(t):
        # (A function compiled per call from Python is an object code of its own, with its own copy
        # of the module: the objects it made would not be the module's.)
        return (f"{what} is a {class_name(t)} object: objects of a class cross only to and from the functions "
                "of the module declaring the class that Python calls directly (every parameter annotated with a "
                "type that crosses as it is: no List, Dict, Set or Tuple conversion, not generic); pass or "
                "return its fields, or declare it a `struct`, which crosses as a value")
    return f"{what} has type {t.name}, which cannot cross {way} Python (what can: {_ALLOWED})"


def tree_of(t: T.Type):
    """The type tree (runtime/dispatch.py) of a pyx type that crosses by conversion; None if it cannot."""
    from . import interop
    from .semantics.builtin_types import is_builtin

    if isinstance(t, T.ScalarType):
        return t.name
    if interop.is_string(t):
        return "String"
    if isinstance(t, T.TupleType):
        items = [tree_of(x) for x in t.items]
        return None if None in items or not items else ("Tuple", *items)
    if isinstance(t, T.StructType) and t.symbol is not None:
        if interop.python_layout(t) == "list":
            e = tree_of(interop.element_type(t))
            return None if e is None else ("List", e)
        if is_builtin(t, "Dict"):  # (the stdlib's, not a user module's that is called the same)
            key, value = t.ct_env.get("K"), t.ct_env.get("V")
            if not isinstance(key, T.Type) or not isinstance(value, T.Type):
                return None
            k, v = tree_of(key), tree_of(value)
            return None if k is None or v is None else ("Dict", k, v)
        if is_builtin(t, "Set"):
            item = t.ct_env.get("T")
            e = tree_of(item) if isinstance(item, T.Type) else None
            return None if e is None else ("Set", e)
    return None


def _crosses_directly(t: T.Type) -> bool:
    """A result the bridge returns as it does for any exported function."""
    from . import interop

    if isinstance(t, T.TupleType):
        return False
    return t == T.NONE or isinstance(t, T.ScalarType) or interop.is_string(t) or interop.is_python_object(t) or (
        isinstance(t, T.StructType) and interop.python_layout(t) is None and interop.crosses_as_value(t))


class _Shim:
    """The generated conversion functions, one per container type."""

    def __init__(self):
        self.lines: list[str] = []
        self.made: dict[tuple[str, str], str] = {}

    def from_python(self, tree) -> str:
        """The name of a function `(o: PythonObject) raises -> T` copying a Python value into T."""
        key = ("from", render(tree))
        if key in self.made:
            return self.made[key]
        name = f"__pyx_from_{len(self.made)}"
        self.made[key] = name
        pyx = render(tree)
        body = [f"fn {name}(o: PythonObject) raises -> {pyx}:"]
        head = tree[0]
        if head == "List":
            body += [f"    var out = {pyx}()", "    for item in o:",
                     f"        out.append({self._leaf_in(tree[1], 'item')})"]
        elif head == "Set":
            body += [f"    var out = {pyx}()", "    for item in o:",
                     f"        out.add({self._leaf_in(tree[1], 'item')})"]
        elif head == "Dict":
            body += [f"    var out = {pyx}()", "    for key in o:",
                     f"        out[{self._leaf_in(tree[1], 'key')}] = {self._leaf_in(tree[2], 'o[key]')}"]
        else:  # Tuple
            items = ", ".join(self._leaf_in(t, f"o[{k}]") for k, t in enumerate(tree[1:]))
            body += [f"    var out: {pyx} = ({items}{',' if len(tree) == 2 else ''})"]
        body.append("    return out")
        self.lines += body + [""]
        return name

    def _leaf_in(self, tree, expr: str) -> str:
        if tree == "Int":
            return f"Int({expr})"
        if tree == "Float64":
            return f"Float64({expr})"
        if tree == "Bool":
            return f"Bool({expr})"
        if tree == "String":
            return f"str({expr})"
        return f"{self.from_python(tree)}({expr})"

    def to_python(self, tree) -> str:
        """The name of a function `(v: T) raises -> PythonObject` copying T into new Python objects."""
        key = ("to", render(tree))
        if key in self.made:
            return self.made[key]
        name = f"__pyx_to_{len(self.made)}"
        self.made[key] = name
        head = tree[0]
        body = [f"fn {name}(v: {render(tree)}) raises -> PythonObject:",
                "    var builtins = Python.import_module(\"builtins\")"]
        if head in ("List", "Set"):
            body += [f"    var out = builtins.{'list' if head == 'List' else 'set'}()", "    for item in v:",
                     f"        out.{'append' if head == 'List' else 'add'}({self._leaf_out(tree[1], 'item')})"]
        elif head == "Dict":
            body += ["    var out = builtins.dict()", "    for key in v:",
                     f"        out[{self._leaf_out(tree[1], 'key')}] = {self._leaf_out(tree[2], 'v[key]')}"]
        else:  # Tuple
            body += ["    var items = builtins.list()"]
            body += [f"    items.append({self._leaf_out(t, f'v[{k}]')})" for k, t in enumerate(tree[1:])]
            body += ["    var out = builtins.tuple(items)"]
        body.append("    return out")
        self.lines += body + [""]
        return name

    def _leaf_out(self, tree, expr: str) -> str:
        if isinstance(tree, str):
            return f"PythonObject({expr})"
        return f"{self.to_python(tree)}({expr})"


def _param_type(tree) -> str:
    """How a wrapper takes an argument: containers as the Python object, the rest as themselves."""
    return "PythonObject" if isinstance(tree, tuple) and tree[0] in CONTAINERS else render(tree)


def probe_source(fname: str, trees: list) -> str:
    params = ", ".join(f"a{k}: {render(t)}" for k, t in enumerate(trees))
    lines = [f"fn {PROBE}{fname}({params}) raises:"]
    lines += [f"    var v{k} = a{k}" for k in range(len(trees))]
    lines.append(f"    {fname}({', '.join(f'v{k}' for k in range(len(trees)))})")
    return "\n".join(lines) + "\n"


# A list of numbers or Bools crosses as a NumPy array (made by the dispatcher, `np.array(xs)`),
# copied into a List in pyx: element by element through the C API it cost about ten times more.
_ARRAY_LEAVES = {"Int": "int64", "Float64": "float64", "Bool": "bool"}


def _via_array(tree) -> str | None:
    """The NumPy dtype a list argument or result of this type crosses as, if it crosses as an array."""
    if isinstance(tree, tuple) and tree[0] == "List" and tree[1] in _ARRAY_LEAVES:
        return _ARRAY_LEAVES[tree[1]]
    return None


def wrapper_source(fname: str, trees: list, result: T.Type) -> tuple[str, dict]:
    """The wrapper's source, and how the dispatcher adapts its arguments and result ("args": the
    dtype each list argument is made an array of, "result": "tolist" for a list result)."""
    shim = _Shim()
    adapt: dict = {"args": [_via_array(t) for t in trees], "result": None}
    params = ", ".join(f"a{k}: {'Span[' + t[1] + ']' if _via_array(t) else _param_type(t)}"
                       for k, t in enumerate(trees))
    call = f"{fname}({', '.join(f'v{k}' for k in range(len(trees)))})"
    tree = tree_of(result)
    if _via_array(tree) is not None:  # returned as the List itself: the bridge makes an array of it
        returns, last = f" -> {render(tree)}", f"    return {call}"
        adapt["result"] = "tolist"
    elif _crosses_directly(result):
        returns = "" if result == T.NONE else f" -> {result.name}"
        last = f"    {call}" if result == T.NONE else f"    return {call}"
    else:
        tree = tree_of(result)
        if tree is None or not convertible(tree):
            raise DispatchError(f"{fname}({', '.join(render(t) for t in trees)}): "
                                + _why_not_type(result, "its result", "to"))
        returns = " -> PythonObject"
        last = f"    return {shim.to_python(tree)}({call})" if isinstance(tree, tuple) else \
            f"    return PythonObject({call})"
    lines = [f"fn {WRAPPER}{fname}({params}) raises{returns}:"]
    for k, t in enumerate(trees):
        if _via_array(t):
            lines += [f"    var v{k} = {render(t)}()", f"    for i in range(len(a{k})):",
                      f"        v{k}.append(a{k}[i])"]
        elif isinstance(t, tuple) and t[0] in CONTAINERS:
            lines.append(f"    var v{k} = {shim.from_python(t)}(a{k})")
        else:
            lines.append(f"    var v{k} = a{k}")
    lines.append(last)
    return "\n".join(lines) + "\n\n" + "\n".join(shim.lines), adapt


def _appended(text: str, extra: str, fname: str, trees: list) -> str:
    return (text + ("" if text.endswith("\n") else "\n") + "\n\n# generated by pyx: the instance of "
            f"{fname}({', '.join(render(t) for t in trees)}) Python called\n" + extra)


@contextlib.contextmanager
def entry_lock(entry: Path):
    """Hold an exclusive lock on a cache entry while it is compiled, so that processes importing the
    same module with a cold cache compile it once (the others wait, then load what it stored).
    Where the lock file cannot be made, compile without it."""
    import fcntl

    from .runtime import cache

    fd = None
    dir_fd = cache.open_dir(entry.parent, create=True)
    if dir_fd is not None:
        try:
            fd = os.open(entry.name + ".lock", os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600,
                         dir_fd=dir_fd)
            fcntl.flock(fd, fcntl.LOCK_EX)
        except OSError:
            if fd is not None:
                os.close(fd)
            fd = None
        finally:
            os.close(dir_fd)
    try:
        yield
    finally:
        if fd is not None:
            os.close(fd)  # closing releases the lock


def compile_instance(path: Path, fname: str, trees: list, fixed: bool, memcheck: bool = False):
    """(metadata with "wrapper" naming the function to call, loaded code, whether it was compiled
    now) of the instance of `fname` for arguments of types `trees`: from the cache, or compiled and
    cached."""
    import llvmlite

    from .options import CompileOptions
    from .runtime import cache, native
    from .version import __version__

    options = CompileOptions(opt_level=3, target="cpu", memcheck=memcheck)
    host_key = native.remembered_host(llvmlite.__version__)
    if host_key is None:
        from . import pipeline

        host_key = pipeline.target_of(options).cache_key
        native.remember_host(llvmlite.__version__, host_key)
    text = path.read_text(encoding="utf-8")
    signature = ", ".join(render(t) for t in trees)
    key = cache.cache_key(str(path.resolve()), str(path), text, __version__, llvmlite.__version__, host_key,
                          repr(options), "instance", fname, signature)
    from .importer import load_or_build

    built: list[bool] = []

    def build() -> tuple[dict, bytes]:
        built.append(True)
        return _build(path, text, fname, trees, options)

    meta, program = load_or_build(cache.entry_path(path, key), key, build, options, 3)
    if program.global_address("__pyx_autotune_hook"):  # `@autotune` dispatchers (runtime/autotune.py)
        from .runtime import autotune

        autotune.attach(program, path, text)
    return meta, program, bool(built)


def _build(path: Path, text: str, fname: str, trees: list, options) -> tuple[dict, bytes]:
    from . import pipeline
    from .build import build_module
    from .diagnostics import CompileError
    from .diagnostics.render import render_all
    from .source import SourceFile

    signature = ", ".join(render(t) for t in trees)
    try:
        probe = pipeline.check(SourceFile(str(path), _appended(text, probe_source(fname, trees), fname, trees)),
                               options)
        program: Any = probe.program
        call = next(i for i in program.instances if i.decl.name == fname and i.owner is None
                    and i.module == program.module
                    and [x.name for x in i.param_types] == [render(t) for t in trees])
        wrapper, adapt = wrapper_source(fname, trees, call.return_type)
        meta, obj = build_module(SourceFile(str(path), _appended(text, wrapper, fname, trees)), options)
    except CompileError as exc:
        detail = render_all(exc.diagnostics, color="never")
        raise DispatchError(f"{fname}() cannot be compiled for arguments ({signature}):\n{detail}") from None
    except StopIteration:
        raise DispatchError(f"{fname}() cannot be compiled for arguments ({signature}): the call does not "
                            "make an instance of it") from None
    if any(f["name"] == "<module>" for f in meta["functions"]):
        raise DispatchError(f"{fname}() cannot be compiled for arguments ({signature}) from Python: "
                            f"{path.name} runs statements at import (module-level variables), and an instance "
                            "compiled apart would have its own copy of them; annotate the parameters of "
                            f"{fname} with types Python can pass ({_ALLOWED}) to export it with the module")
    meta["wrapper"], meta["adapt"] = WRAPPER + fname, adapt
    return meta, obj


# -- which functions Python can call, and why the others cannot --------------------------------

def _spelled_in_wrapper(t: T.Type, module: str) -> bool:
    """A parameter type a wrapper takes as it is, spelled by its name in the module's source: the
    ones the bridge converts (numbers, String, arrays, PythonObject, the module's own structs)."""
    from . import interop

    if isinstance(t, T.ScalarType) or interop.is_string(t) or interop.is_python_object(t) \
            or interop.is_span_of_scalars(t) or interop.is_buffer_of_scalars(t):
        return True
    if isinstance(t, T.PtrType):
        return isinstance(t.pointee, T.ScalarType)
    return (isinstance(t, T.StructType) and not isinstance(t, T.TupleType) and interop.python_layout(t) is None
            and t.module == module and "[" not in t.name and interop.crosses_as_value(t))


def _why_not(decl, inst, module: str) -> str | None:
    """Why the non-generic function `decl` (its instance `inst`) cannot be exported even through a
    wrapper; None when a wrapper can take it."""
    from . import interop

    if any(d.name == "kernel" for d in decl.decorators):
        return None
    for p, t in zip(decl.params, inst.param_types, strict=False):
        if p.convention == "mut":
            return (f"parameter '{p.name}' is `mut`: Python cannot lend a variable for pyx to change "
                    "(return the new value instead, or pass a NumPy array as a Span)")
        if p.convention == "var" and not interop.crosses_as_value(t):
            return f"parameter '{p.name}' takes ownership (`var`) of a {t.name}: take it without `var`"
        tree = tree_of(t)
        if not _spelled_in_wrapper(t, module) and (tree is None or not convertible(tree)):
            return _why_not_type(t, f"parameter '{p.name}'", "from")
    r = inst.return_type
    if interop.is_span_of_scalars(r):
        return "its result is a Span, whose memory may be gone once it returns: return a List"
    tree = tree_of(r)
    if not _crosses_directly(r) and (tree is None or not convertible(tree)):
        return _why_not_type(r, "its result", "to")
    if inst.gpu_use is not None:
        return "it runs on the GPU (call it from a kernel)"
    return None


def python_callables(program, module_ast, exported: list) -> tuple[list, list]:
    """(dispatchers, unexported) for the module's metadata: the top-level functions Python calls
    through a dispatcher (generic or unannotated ones, and those taking or returning containers,
    whose one signature is `fixed`), and those it cannot call, each with the reason."""
    from .build import docstring, literal_value
    from .syntax import ast

    done = {i.decl.name for i in exported}
    decls = [s for s in module_ast.body if isinstance(s, ast.FnDef)]
    dispatchers, unexported, seen = [], [], set()
    for decl in decls:
        if decl.name in done or decl.name in seen or decl.name.startswith("__pyx_") or decl.name == "<module>":
            continue
        seen.add(decl.name)
        params = []
        for p in decl.params:
            entry = {"name": p.name}
            if p.default is not None and literal_value(p.default) is not None:
                entry["default"] = literal_value(p.default)
            params.append(entry)
        common = {"name": decl.name, "params": params, "doc": docstring(decl), "line": decl.span.line}
        if any(d.name == "kernel" for d in decl.decorators):
            continue
        if decl.is_generic:
            mut = next((p for p in decl.params if p.convention == "mut"), None)
            if mut is not None:
                unexported.append({"name": decl.name, "reason": f"parameter '{mut.name}' is `mut`: Python cannot "
                                   "lend a variable for pyx to change (return the new value instead)"})
            else:
                dispatchers.append(dict(common, fixed=None))
            continue
        inst = next((i for i in program.instances if i.decl is decl and i.owner is None), None)
        if inst is None:
            continue
        reason = _why_not(decl, inst, program.module)
        if reason is not None:
            unexported.append({"name": decl.name, "reason": reason})
        else:
            dispatchers.append(dict(common, fixed=[render(tree_of(t)) if tree_of(t) is not None else t.name
                                                   for t in inst.param_types]))
    return dispatchers, unexported


def exports_report(comp) -> str:
    """`pyx check --exports`: one line per top-level function saying how Python calls it."""
    from . import interop
    from .class_exports import is_accessor

    exported = interop.exported_functions(comp.program)
    dispatch, unexported = python_callables(comp.program, comp.ast, exported)
    file = comp.source.name if hasattr(comp, "source") else ""
    rows = [(i.decl.span.line, f"{i.decl.name}: exported ({', '.join(t.name for t in i.param_types)})")
            for i in exported if i.decl.name != "<module>" and not is_accessor(i.decl.name)]
    rows += [(d["line"], f"{d['name']}: " + ("compiled for each new combination of argument types on call"
                                             if d["fixed"] is None else
                                             f"exported through a conversion wrapper ({', '.join(d['fixed'])})"))
             for d in dispatch]
    lines = {d.name: d.span.line for d in comp.ast.body if hasattr(d, "params")}
    rows += [(lines.get(u["name"], 0), f"{u['name']}: not callable from Python: {u['reason']}") for u in unexported]
    from .class_exports import report_rows

    rows += report_rows(comp, exported)
    return "".join(f"{file}:{line}: {text}\n" for line, text in sorted(rows))
