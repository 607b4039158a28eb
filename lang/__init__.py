"""pyx: a statically typed, Mojo-inspired Python subset compiled with LLVM.

Kept light on purpose: `import pyx` (and Pygments' plugin lookup) must not pull in
the compiler. The API below imports what it needs on first use.
"""
from .version import __version__

__all__ = ["CompileError", "ProgramStopped", "__version__", "compile_file", "compile_string", "get_num_threads",
           "import_module", "install", "run_file", "set_num_threads"]


def _warn_if_mixed_with_graphics_pyx() -> None:
    """PyX's files in this folder (foreign.py says why that breaks both): one stat on import."""
    import os

    folder = os.path.dirname(__file__)
    if os.path.exists(os.path.join(folder, "canvas.py")):
        import warnings

        from .foreign import ADVICE

        warnings.warn(ADVICE.format(folder=folder), RuntimeWarning, stacklevel=3)


_warn_if_mixed_with_graphics_pyx()


def __getattr__(name: str):
    if name == "CompileError":  # the ImportError subclass import_module raises for a broken .px file
        from .importer import PyxCompileError

        return PyxCompileError
    if name == "ProgramStopped":  # what a compiled function raises where pyx cannot go on as CPython does
        from .runtime.bridge import ProgramStopped

        return ProgramStopped
    raise AttributeError(f"module 'pyx' has no attribute {name!r}")


def import_module(name: str, target: str = "auto", path: list[str] | None = None, memcheck: bool = False):
    """Import `name.px` (found on sys.path) as a Python module of checked, compiled functions.
    target: "auto" (kernels on a GPU where there is one), "cpu", "cuda" or "opencl" (SPIR-V on an
    OpenCL device, through pyopencl). memcheck=True runs
    kernels on the CPU with every memory access checked."""
    from .importer import import_module as _import

    return _import(name, target, path, memcheck=memcheck)


def compile_string(source: str, name: str | None = None, target: str = "auto"):
    """Compile pyx source text as a module (what the `%%pyx` cell magic does) and return it."""
    from .notebook import compile_string as _compile

    return _compile(source, name, target)


def load_ipython_extension(ipython) -> None:
    """`%load_ext pyx` in IPython or Jupyter: the `%%pyx` cell magic."""
    from .notebook import load_ipython_extension as _load

    _load(ipython)


def install() -> None:
    """Install the import hook: after this, `import name` finds name.px."""
    from .importer import install as _install

    _install()


def set_num_threads(n: int) -> None:
    """Use at most n threads (the calling thread included) in each parallel loop (`prange`, GPU
    blocks on the CPU) of every imported module, from now on. All modules share one pool of
    `PYX_NUM_THREADS` threads (default: the cores this process may use); n may not exceed it."""
    from .runtime.pool import set_num_threads as _set

    _set(n)


def get_num_threads() -> int:
    """The threads a parallel loop uses now (set_num_threads's cap, else the pool's size)."""
    from .runtime.pool import get_num_threads as _get

    return _get()


def compile_file(path: str, opt_level: int = 3):
    """Compile a .px file for this machine; returns the Compilation (LLVM module, timings, IR)."""
    from . import pipeline
    from .options import CompileOptions
    from .source import SourceFile

    return pipeline.optimize(SourceFile.read(path), CompileOptions(opt_level=opt_level), entry=True)


def run_file(path: str, opt_level: int = 3) -> int:
    """Compile a .px file and run its `fn main()` in this process; returns the exit status."""
    from .cli import main

    return main(["run", f"-O{opt_level}", str(path)])
