"""pyx in notebooks: `pyx.compile_string(source, name=...)` and the `%%pyx` cell magic.

`%load_ext pyx` registers the magic. A cell starting with `%%pyx` is compiled as a module (its
source kept as a `.px` file in the user's cache directory, so a re-run cell, a restarted kernel
and a worker process unpickling one of its functions all load it from the disk cache) and its
functions, kernels and struct classes are bound in the notebook's namespace. A cell that does
not compile shows its diagnostics, with the caret, instead of a traceback.
"""
from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

_NAME = re.compile(r"[A-Za-z_][A-Za-z_0-9]*\Z")


def source_dir() -> Path:
    """Where compile_string keeps the sources it compiles: private to this user."""
    from .runtime import cache

    folder = Path(os.environ.get("PYX_CACHE_DIR") or cache.user_cache_dir()) / "strings"
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    return folder


def compile_string(source: str, name: str | None = None, target: str = "auto"):
    """Compile pyx source text as a module named `name` (by default one named after the text's
    hash) and return it, as `pyx.import_module` returns a module found on sys.path."""
    from . import importer

    if name is None:
        name = "_pyx_" + hashlib.sha256(source.encode()).hexdigest()[:12]
    if not _NAME.match(name):
        raise ValueError(f"pyx.compile_string: the module name must be an identifier, not {name!r}")
    folder = source_dir()
    path = folder / f"{name}.px"
    if not path.exists() or path.read_text(encoding="utf-8") != source:
        temporary = folder / f".{name}.{os.getpid()}.pxtmp"
        temporary.write_text(source, encoding="utf-8")
        os.replace(temporary, path)  # whole: a concurrent reader sees the old text or the new
    return importer.import_module(name, target=target, path=[str(folder)])


def public_names(module) -> dict:
    """What a cell binds: the module's functions, kernels and struct classes (not its dunders)."""
    return {k: v for k, v in vars(module).items() if not k.startswith("_")}


def cell_magic(line: str, cell: str, shell=None):
    """`%%pyx [module_name]`: compile the cell, bind its names in the notebook; diagnostics shown
    (HTML in a notebook, text in a terminal) in place of a traceback."""
    from .importer import PyxCompileError

    name = line.strip() or None
    try:
        module = compile_string(cell, name=name)
    except PyxCompileError as exc:
        show_diagnostics(exc, shell)
        return None
    names = public_names(module)
    if shell is not None:
        shell.user_ns.update(names)
    return None


def show_diagnostics(exc, shell=None) -> None:
    import sys

    from .diagnostics.render import render_all

    text = render_all(exc.diagnostics, color="never")
    if getattr(exc, "path", None):  # the cell's source is a file of the cache's: name it as the cell
        text = text.replace(exc.path, "<pyx cell>")
    if shell is not None and type(shell).__name__ == "ZMQInteractiveShell":  # a notebook front end
        import html

        from IPython.display import HTML, display

        display(HTML(f'<pre style="color: #b00">{html.escape(text)}</pre>'))
    else:
        print(text, file=sys.stderr, end="" if text.endswith("\n") else "\n")


def load_ipython_extension(ipython) -> None:
    """`%load_ext pyx`."""
    ipython.register_magic_function(lambda line, cell: cell_magic(line, cell, ipython), "cell", "pyx")
