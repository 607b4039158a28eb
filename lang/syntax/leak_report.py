"""`pyx run --debug-leaks` (or `PYX_DEBUG_LEAKS=1`): at the program's end, a report on stderr of the
objects that only reference cycles keep alive (docs/semantics.md, "Reference cycles").

pyx frees an object when its reference count reaches zero and has no cycle collector, so objects
that refer to each other in a cycle are never freed. In a debug build the compiler, which knows
each class's attributes, generates (as pyx source, like the rest of a class: syntax/classes.py):

- a registry of the live objects, module-level lists (`__pyx_gc_objs`: each object's block,
  `__pyx_gc_kind`: its class, `__pyx_gc_line`: the line of the call that made it,
  `__pyx_gc_at`: where its index is kept in its block), which the
  class's `__init__` prologue appends to (`track`) and its `__del__` removes from before the data
  is destroyed (`forget`, a swap with the last entry: O(1)). Each object keeps its index in the
  registry in an attribute of its own, `__pyx_gc_slot`, the first after the count (and the class
  id), so the registry can update it without knowing the class;
- each call `C(...)` of a class of the module written `C.__pyx_gc_born(C(...), line)`, which records
  the line of the call in the registry;
- per class, `__pyx_gc_visit(block, out)`: the registry indices of the objects its attributes
  refer to (an attribute of a class type, and lists, sets, dicts and tuples of those, nested);
- `__pyx_gc_report()`, called at the end of the main module's script (a module whose entry is
  `main` gets a script that calls it). It is CPython's collector's trial deletion: each live
  object starts with its reference count; every reference from one live object to another is
  subtracted; an object with something left is referenced from outside the objects (a variable,
  a module-level variable, a container that is not an object's attribute) and so is everything it
  reaches; the rest is cyclic garbage. Nothing is printed when there is none.

An attribute whose type holds objects in a way the visit does not read (a struct holding an
object, say) is not subtracted: what it refers to counts as referenced from outside, so the
report can only miss a cycle through it, never name an object that is not garbage. Objects of
classes of imported modules are not registered (they are not seen either).

When the mode is off none of this is generated: the module is the same, to the byte.
"""
from __future__ import annotations

from dataclasses import fields, replace

from ..source import Span
from . import ast

PREFIX = "__pyx_gc_"  # of every name the mode generates
SLOT_FIELD = PREFIX + "slot"
_BORN = PREFIX + "born"
_VISIT = PREFIX + "visit"
_ID = PREFIX + "id"
REPORT = PREFIX + "report"  # the function the script calls at its end

# The mode is CompileOptions.debug_leaks (so part of every cache key), passed by the pipeline to the
# parse of the main module only (`syntax.parse(..., debug_leaks=True)`), which passes it on to the
# class expansion (syntax/classes.py: expand_classes).


def slot_index(hierarchy: bool) -> int:
    """Where `__pyx_gc_slot` is in an object's block, in Ints: after the count and, in a
    hierarchy, the class id (syntax/inheritance.py)."""
    return 2 if hierarchy else 1


def prologue_lines(kind: int, hierarchy: bool) -> list[str]:
    """Appended to the class's `__init__` prologue (the block is allocated and `self` holds it)."""
    return [f"        __pyx_gc_track(self.__pyx_obj, {slot_index(hierarchy)}, {kind})"]


def forget_lines(hierarchy: bool) -> list[str]:
    """The first statement of `__del__`'s last-reference branch (before the data is destroyed)."""
    return [f"                __pyx_gc_forget(self.__pyx_obj, {slot_index(hierarchy)})"]


def handle_lines(cls: str, hierarchy: bool, attributes: dict, classes: set[str]) -> list[str]:
    """The debug methods of class cls's handle (attributes: name -> annotation, as declared)."""
    at = slot_index(hierarchy)
    lines = [
        "",
        "    @staticmethod",
        f"    fn {_ID}(o: {cls}) -> Int:",
        "        if not o.__pyx_obj:",
        "            return -1",
        f"        return o.__pyx_obj[{at}]",
        "",
        # (takes the new object and gives it back: no second reference, which a temporary of the
        # script would keep until the script's end)
        "    @staticmethod",
        f"    fn {_BORN}(var o: {cls}, line: Int) -> {cls}:",
        f"        __pyx_gc_line[o.__pyx_obj[{at}]] = line",
        "        return o^",
        "",
        "    @staticmethod",
        f"    fn {_VISIT}(p: Ptr[Int], mut out: List[Int]) raises:",
        "        p[0] += 1  # (h's destructor takes it back)",
        f"        var h = {cls}.__pyx_null()",
        "        h.__pyx_obj = p",
    ]
    counter = [0]
    for name, annotation in attributes.items():
        lines += _visit(f"h.{name}", annotation, classes, "        ", counter)
    return lines


def _visit(value: str, annotation: ast.Node, classes: set[str], indent: str, counter: list) -> list[str]:
    """Lines appending to `out` the registry index of each object `value` (of type annotation) refers to."""
    if isinstance(annotation, ast.Name) and annotation.id in classes:
        return [f"{indent}out.append({annotation.id}.{_ID}({value}))"]
    if not isinstance(annotation, ast.Subscript):
        return []
    head = _dotted(annotation.value)
    items = annotation.items
    counter[0] += 1
    var = f"x{counter[0]}"
    if head in ("list", "List") and len(items) == 1:  # (by index: an item that is a list is not copied)
        inner = _visit(f"{value}[{var}]", items[0], classes, indent + "    ", counter)
        return [f"{indent}for {var} in range(len({value})):", *inner] if inner else []
    if head in ("set", "Set") and len(items) == 1:
        inner = _visit(var, items[0], classes, indent + "    ", counter)
        return [f"{indent}for {var} in {value}:", *inner] if inner else []
    if head in ("dict", "Dict") and len(items) == 2:
        keys = _visit(var, items[0], classes, indent + "    ", counter)
        values = _visit(f"{value}[{var}]", items[1], classes, indent + "    ", counter)
        return [f"{indent}for {var} in {value}:", *keys, *values] if keys or values else []
    if head in ("tuple", "Tuple") and items and not any(isinstance(i, ast.EllipsisLit) for i in items):
        out: list[str] = []
        for k, item in enumerate(items):
            out += _visit(f"{value}[{k}]", item, classes, indent, counter)
        return out
    return []


def _dotted(node: ast.Node) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    return ""


def module_text(kinds: list[str], file: str) -> str:
    """The registry, its functions and the report (kinds: the classes, by kind number)."""
    visits = "\n".join(f"    {'if' if k == 0 else 'elif'} k == {k}:\n"
                       f"        {cls}.{_VISIT}(__pyx_gc_objs[i], out)" for k, cls in enumerate(kinds))
    names = ", ".join(repr(c) for c in kinds)
    file = file.replace("\\", "\\\\").replace('"', '\\"').replace("{", "{{").replace("}", "}}")  # (inside an f-string)
    return f'''\
import sys as __pyx_gc_sys

__pyx_gc_objs: list[Ptr[Int]] = []
__pyx_gc_kind: list[int] = []
__pyx_gc_line: list[int] = []
__pyx_gc_at: list[int] = []


def __pyx_gc_track(p: Ptr[Int], at: Int, kind: Int):
    p[at] = len(__pyx_gc_objs)
    __pyx_gc_objs.append(p)
    __pyx_gc_kind.append(kind)
    __pyx_gc_line.append(0)
    __pyx_gc_at.append(at)


def __pyx_gc_forget(p: Ptr[Int], at: Int):
    var slot = p[at]
    var last = len(__pyx_gc_objs) - 1
    if slot != last:
        var q = __pyx_gc_objs[last]
        __pyx_gc_objs[slot] = q
        __pyx_gc_kind[slot] = __pyx_gc_kind[last]
        __pyx_gc_line[slot] = __pyx_gc_line[last]
        __pyx_gc_at[slot] = __pyx_gc_at[last]
        q[__pyx_gc_at[slot]] = slot
    _ = __pyx_gc_objs.pop()
    _ = __pyx_gc_kind.pop()
    _ = __pyx_gc_line.pop()
    _ = __pyx_gc_at.pop()


def __pyx_gc_refers(i: Int) -> list[int]:
    """The registry indices of the live objects object i refers to (-1 for None)."""
    var out: list[int] = []
    var k = __pyx_gc_kind[i]
{visits}
    return out


def {REPORT}():
    var n = len(__pyx_gc_objs)
    var refs: list[int] = []
    for i in range(n):
        refs.append(__pyx_gc_objs[i][0])
    for i in range(n):
        for j in __pyx_gc_refers(i):
            if j >= 0:
                refs[j] -= 1
    var reached: list[bool] = []
    var todo: list[int] = []
    for i in range(n):
        reached.append(refs[i] > 0)
        if refs[i] > 0:
            todo.append(i)
    while len(todo) > 0:
        var i = todo.pop()
        for j in __pyx_gc_refers(i):
            if j >= 0 and not reached[j]:
                reached[j] = True
                todo.append(j)
    var names: list[str] = [{names}]
    var codes: list[int] = []  # line * (number of classes) + class, sorted: by line, then class
    for i in range(n):
        if not reached[i]:
            codes.append(__pyx_gc_line[i] * len(names) + __pyx_gc_kind[i])
    if len(codes) == 0:
        return
    codes.sort()
    var alive = "1 object is" if n == 1 else f"{{n}} objects are"
    var cyclic = "it is" if n == 1 else ("all of them are" if len(codes) == n else (
        "1 of them is" if len(codes) == 1 else f"{{len(codes)}} of them are"))
    print(f"pyx --debug-leaks: {{alive}} still alive at the end of the program; {{cyclic}} kept alive only by reference cycles, and never freed:", file=__pyx_gc_sys.stderr)
    var k = 0
    while k < len(codes):
        var same = k
        while same < len(codes) and codes[same] == codes[k]:
            same += 1
        var count = same - k
        var line = codes[k] // len(names)
        var where = str(line) if line > 0 else "?"
        var objects = "object" if count == 1 else "objects"
        print(f"  {file}:{{where}}: {{count}} {{names[codes[k] % len(names)]}} {{objects}} made here", file=__pyx_gc_sys.stderr)
        k = same
    print("advice: break each cycle before its objects are dropped: set one of its references to None (`a.other = None`), or restructure (keep back-references as indices or keys)", file=__pyx_gc_sys.stderr)
'''


def _declaration(stmt: ast.Stmt) -> bool:
    return (isinstance(stmt, (ast.FnDef, ast.Comptime, ast.Pass, ast.StructDef, ast.Import, ast.TraitDef))
            or type(stmt).__name__.endswith("Def")
            or (isinstance(stmt, ast.ExprStmt) and isinstance(stmt.expr, ast.StrLit)))


def instrument(items: tuple, kinds: list[str], parse) -> tuple:
    """The module's items (classes expanded) with the registry first, each `C(...)` of a class of
    kinds recording its line, and the report at the end of the script (made to call `main` where
    `main` was the entry)."""
    if not items:
        return items
    file = items[0].span.file
    classes = set(kinds)
    items = tuple(_born(item, classes) for item in items)
    ending = f"{REPORT}()\n"
    if all(_declaration(s) for s in items) and any(isinstance(s, ast.FnDef) and s.name == "main" for s in items):
        ending = f'if __name__ == "__main__":\n    main()\n{ending}'  # (`main` is the entry otherwise)
    end = len(file.text)
    return (_at(_statements(parse(module_text(kinds, file.name))), Span(file, 0, 0)) + items
            + _at(_statements(parse(ending)), Span(file, end, end)))


def _at(node, span: Span):
    """node with every span moved to span, in the user's file: an import is resolved from the file
    its statement is in, and the checker orders a module's statements by where they are."""
    if isinstance(node, tuple):
        return tuple(_at(x, span) for x in node)
    if not isinstance(node, ast.Node):
        return node
    changes = {f.name: span if f.name in ("span", "name_span") else _at(getattr(node, f.name), span)
               for f in fields(node)}
    return replace(node, **changes)


def _statements(parsed: tuple) -> tuple:
    """Parsed generated text as the statements written: the parser gathers a module's statements
    into its script function, and these join the user's module's statements."""
    from ..script import SCRIPT

    out: list = []
    for item in parsed:
        out.extend(item.body if isinstance(item, ast.FnDef) and item.name == SCRIPT else (item,))
    return tuple(out)


def _born(node, classes: set[str]):
    """node with each call `C(...)` (C in classes) written `C.__pyx_gc_born(C(...), line)`."""
    if isinstance(node, tuple):
        new = tuple(_born(x, classes) for x in node)
        return node if all(a is b for a, b in zip(new, node, strict=True)) else new
    if not isinstance(node, ast.Node) or node.span.file.name.startswith("<"):
        return node  # (generated code makes no objects the user wrote)
    changes = {}
    for f in fields(node):
        if f.name in ("span", "name_span"):
            continue
        value = getattr(node, f.name)
        new = _born(value, classes)
        if new is not value:
            changes[f.name] = new
    node = replace(node, **changes) if changes else node
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in classes:
        s = node.span
        return ast.Call(s, ast.Attribute(s, node.func, _BORN), (node, ast.IntLit(s, s.line)), ())
    return node
