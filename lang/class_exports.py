"""Class instances crossing to Python: the small pyx functions the bridge calls on an object.

An object of a class lives in pyx's memory and is shared by reference (docs/semantics.md,
"Classes"). Python holds one as a wrapper (runtime/objects.py) that owns one reference to it.
Everything Python does with the object goes through ordinary exported functions, written here
as pyx text for each class `C` of the module and appended to the module when it is compiled
for Python (`pyx.import_module`, `pyx check --exports`), so that the checker, the ownership
lowering and the export entry points treat them as any user function:

    def __pyx_release_C(var o: C):          # the wrapper was collected: drop its reference
        pass
    def __pyx_get_C__x(o: C) -> T:          # `w.x` (a copy of the attribute, as any result)
        return o.x
    def __pyx_set_C__x(o: C, v: T):         # `w.x = v`
        o.x = v
    def __pyx_repr_C(o: C) -> str:          # repr(w) / str(w), where the class defines them
        return repr(o)
    def __pyx_new_C(x: float, ...) -> C:    # `m.C(...)`, where `__init__`'s parameters are annotated
        return C(x, ...)

An accessor whose type cannot cross (a field holding a Dict, say) is simply not exported, and
the bridge says why when Python touches that attribute. The class crosses only when its
release function is exported (`crossing_classes`). If the generated text fails to check
(a field type whose values cannot be copied), the module is compiled again without it and its
classes stay in pyx, reported as before.
"""
from __future__ import annotations

from dataclasses import replace

from .passmanager import Pass, PassManager

GENERATED_FILE = "<class accessors>"
RELEASE = "__pyx_release_"
GET = "__pyx_get_"
SET = "__pyx_set_"
REPR = "__pyx_repr_"
STR = "__pyx_str_"
NEW = "__pyx_new_"
PREFIXES = (RELEASE, GET, SET, REPR, STR, NEW)


def getter(cls: str, field: str) -> str:
    return f"{GET}{cls}__{field}"


def setter(cls: str, field: str) -> str:
    return f"{SET}{cls}__{field}"


def is_accessor(name: str) -> bool:
    return name.startswith(PREFIXES)


def _classes(module) -> list[tuple]:
    """(handle, data struct) of each class the module declares itself."""
    from .syntax import ast
    from .syntax.classes import data_name, is_class_decl

    structs = {s.name: s for s in module.body if isinstance(s, ast.StructDef)}
    out = []
    for s in structs.values():
        if is_class_decl(s) and not s.ct_params and not s.name.startswith("__pyx_") \
                and data_name(s.name) in structs:
            out.append((s, structs[data_name(s.name)]))
    return out


def _text(node) -> str:
    return node.span.file.text[node.span.start:node.span.end]


def _attributes(data) -> list:
    from .syntax.classes import COUNT_FIELD
    from .syntax.inheritance import CLASS_ID_FIELD

    return [f for f in data.fields if f.name not in (COUNT_FIELD, CLASS_ID_FIELD) and not f.name.startswith("__pyx_")]


def _container(annotation) -> bool:
    from .syntax.classes import dotted

    head = annotation.value if type(annotation).__name__ == "Subscript" else annotation
    return dotted(head) in ("list", "dict", "set", "List", "Dict", "Set")


def _crossing_candidates(module, classes: list[tuple]) -> set[str]:
    """The classes a top-level function's annotations name, and those their attributes name in
    turn: the only ones whose objects can reach Python (a module using classes inside its
    functions alone compiles no accessors)."""
    from .syntax import ast

    names = {h.name for h, _ in classes}
    fields = {h.name: [f.annotation for f in _attributes(d)] for h, d in classes}
    stack: list = [p.annotation for f in module.body if isinstance(f, ast.FnDef) and not f.name.startswith("__pyx_")
                   for p in f.params if p.annotation is not None]
    stack += [f.returns for f in module.body if isinstance(f, ast.FnDef) and f.returns is not None]
    found: set[str] = set()
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Name) and node.id in names and node.id not in found:
            found.add(node.id)
            stack.extend(fields[node.id])
        stack.extend(ast.children(node))
    return found


def accessor_text(module) -> str:
    """The accessors of the module's classes that can reach Python, as pyx source ("" when none can)."""
    lines: list[str] = []
    classes = _classes(module)
    wanted = _crossing_candidates(module, classes)
    for handle, data in classes:
        if handle.name not in wanted:
            continue
        c = handle.name
        lines += [f"def {RELEASE}{c}(var o: {c}):", "    pass", ""]
        for f in _attributes(data):
            t = _text(f.annotation)
            # A container attribute reaches Python as a copy (as any List result does): said so
            # here, where pyx would otherwise refuse the silent copy of a shared attribute.
            read = f"o.{f.name}.copy()" if _container(f.annotation) else f"o.{f.name}"
            lines += [f"def {getter(c, f.name)}(o: {c}) -> {t}:", f"    return {read}", "",
                      f"def {setter(c, f.name)}(o: {c}, v: {t}):", f"    o.{f.name} = v", ""]
        methods = {m.name: m for m in handle.methods}
        if "__repr__" in methods:
            lines += [f"def {REPR}{c}(o: {c}) -> str:", "    return repr(o)", ""]
        if "__str__" in methods:
            lines += [f"def {STR}{c}(o: {c}) -> str:", "    return str(o)", ""]
        init = methods.get("__init__")
        params = init.params[1:] if init is not None else ()
        if all(p.annotation is not None and p.convention is None and not p.variadic for p in params):
            # (defaults are the bridge's: the signature carries them, as for any exported function)
            declared = ", ".join(f"{p.name}: {_text(p.annotation)}" + (f" = {_text(p.default)}" if p.default else "")
                                 for p in params)
            lines += [f"def {NEW}{c}({declared}) -> {c}:",
                      f"    return {c}({', '.join(p.name for p in params)})", ""]
    return "\n".join(lines)


def with_accessors(module, diags):
    """The module with its classes' accessors appended (the module itself when it has no class)."""
    text = accessor_text(module)
    if not text:
        return module
    from .source import SourceFile
    from .syntax.classes import nullable
    from .syntax.parser import parse

    # `Node | None` and "Node" in the annotations copied from `__init__`: the class, as
    # `expand_classes` writes them across the module.
    names = {handle.name for handle, _ in _classes(module)}
    generated = tuple(nullable(item, names) for item in parse(SourceFile(GENERATED_FILE, text), diags).body)
    return replace(module, body=tuple(module.body) + generated)


def _parse_with_accessors(source, diags=None, debug_leaks: bool = False):
    from .syntax import parse

    return with_accessors(parse(source, diags, debug_leaks), diags)


def passes(base: PassManager | None = None) -> PassManager:
    """The standard passes, with `parse` also appending the class accessors."""
    base = base or PassManager()
    parse = base.get("parse")
    swapped = Pass(parse.name, parse.description + "; class accessors appended for Python",
                   _parse_with_accessors, parse.takes, parse.gives, parse.applies)
    return PassManager(tuple(swapped if p is parse else p for p in base.passes), base.print_before,
                       base.print_after, base.out, base.verify)


def failed_in_accessors(error) -> bool:
    """Whether a compile error is (also) about the generated accessors."""
    diags = getattr(error, "diagnostics", None) or getattr(error, "diags", None) or ()
    return any(getattr(getattr(getattr(d, "span", None), "file", None), "name", None) == GENERATED_FILE
               for d in diags)


def crossing_classes(program) -> set[str]:
    """The names of the module's classes whose objects Python can hold: those whose release
    function was compiled."""
    return {i.decl.name[len(RELEASE):] for i in program.instances
            if i.owner is None and i.decl.name.startswith(RELEASE) and i.module == program.module}


def describe(program, module, exported: list) -> list[dict]:
    """The metadata the bridge reads for each crossing class of `module` (the AST): its accessors
    (the exported functions' names), and for each attribute that cannot cross, why."""
    names = {i.decl.name for i in exported}
    crossing = crossing_classes(program)
    results = {i.decl.name: i.return_type for i in program.instances if i.owner is None
               and i.module == program.module and i.decl.name.startswith(GET)}
    out = []
    for handle, data in _classes(module):
        cls = handle.name
        if cls not in crossing or RELEASE + cls not in names:
            continue
        fields = []
        for f in _attributes(data):
            field, name = f.name, getter(cls, f.name)
            t = results.get(name)
            shown = t.name if t is not None else _text(f.annotation)
            entry = {"name": field, "get": name if name in names else None,
                     "set": setter(cls, field) if setter(cls, field) in names else None, "type": shown}
            if entry["get"] is None:
                entry["why"] = (f"attribute '{field}' is a {shown}, which cannot cross to Python (read what "
                                "you need from it through a pyx function)")
            elif entry["set"] is None:
                entry["why"] = (f"attribute '{field}' is a {shown}, which Python reads as a copy and cannot "
                                "set (change it through a pyx function)")
            fields.append(entry)
        out.append({"name": cls, "release": RELEASE + cls, "fields": fields,
                    "repr": REPR + cls if REPR + cls in names else None,
                    "str": STR + cls if STR + cls in names else None,
                    "new": NEW + cls if NEW + cls in names else None})
    return out


def report_rows(comp, exported: list) -> list[tuple[int, str]]:
    """`pyx check --exports` rows for the classes whose objects cross, and what of each does."""
    rows = []
    lines = {h.name: min((m.span.line for m in h.methods if m.span.file.name == comp.source.name), default=0)
             for h, _ in _classes(comp.ast)}
    for info in describe(comp.program, comp.ast, exported):
        fields = info["fields"]
        parts = [f"attributes {', '.join(f['name'] for f in fields if f['set'])}"] \
            if any(f["set"] for f in fields) else []
        if any(f["get"] and not f["set"] for f in fields):
            parts.append(f"read only {', '.join(f['name'] for f in fields if f['get'] and not f['set'])}")
        if any(not f["get"] for f in fields):
            parts.append(f"not reachable {', '.join(f['name'] for f in fields if not f['get'])}")
        made = "made from Python" if info["new"] else "not made from Python"
        rows.append((lines.get(info["name"], 0), f"class {info['name']}: objects cross by reference ({made}"
                     + "".join(f"; {p}" for p in parts) + ")"))
    return rows
