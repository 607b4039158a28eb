"""Import .px modules from Python: `pyx.import_module(name)` and the `pyx.install()` hook.

A module is found on sys.path as `name.px` (or `pkg/__init__.px`, `pkg/sub.px`); a `.py`
of the same name in the same directory wins, as it would for Python. Compiled code is
cached on disk (runtime/cache.py), so a second process loads the object code directly.
"""
from __future__ import annotations

import importlib.abc
import importlib.util
import sys
import threading
from pathlib import Path

_lock = threading.Lock()


def find_source(fullname: str, search: list[str] | None = None) -> Path | None:
    parts = fullname.split(".")
    for entry in search if search is not None else sys.path:
        base = Path(entry or ".").joinpath(*parts[:-1]) if search is None else Path(entry or ".")
        for candidate in (base / f"{parts[-1]}.px", base / parts[-1] / "__init__.px"):
            if candidate.is_file():
                shadow = candidate.with_suffix(".py") if candidate.name != "__init__.px" \
                    else candidate.parent / "__init__.py"
                if shadow.exists():
                    return None  # a .py beside it wins
                return candidate
    return None


def load_compiled(path: Path, target: str = "auto", opt_level: int = 3, memcheck: bool = False) -> tuple[dict, object]:
    """(metadata, loaded code) for a .px file: from the cache when fresh, compiled (and cached)
    otherwise. A cached module whose shared library is there loads without LLVM (runtime/native.py)."""
    import llvmlite

    from .options import CompileOptions
    from .runtime import cache, native
    from .version import __version__

    options = CompileOptions(opt_level=opt_level, target="cpu", memcheck=memcheck)
    host = None
    host_key = native.remembered_host(llvmlite.__version__)
    if host_key is None:
        from . import pipeline

        host = pipeline.target_of(options)
        host_key = host.cache_key
        native.remember_host(llvmlite.__version__, host_key)
    text = path.read_text(encoding="utf-8")
    # The path is part of the key: the same text in another folder imports that folder's modules,
    # and the name as given is the one its tracebacks print.
    key = cache.cache_key(str(path.resolve()), str(path), text, __version__, llvmlite.__version__, host_key,
                          repr(options))

    def build():  # (a miss only: the compiler is imported when it compiles)
        from .build import build_module
        from .source import SourceFile

        return build_module(SourceFile(str(path), text), options)

    return load_or_build(cache.entry_path(path, key), key, build, options, opt_level, host)


def load_or_build(entry: Path, key: str, build, options, opt_level: int, host=None):
    """(metadata, loaded code) of a cache entry: from the cache, or built by `build()` once (under
    the entry's lock: processes needing it at once with a cold cache compile it once), linked as
    a shared library where a C compiler links it, else loaded through MCJIT."""
    from .runtime import cache, native

    library = entry.with_suffix(".so")
    found = cache.load(entry, key)
    if found is None:
        from .dispatch_build import entry_lock

        with entry_lock(entry):
            found = cache.load(entry, key)  # another process may have compiled it meanwhile
            if found is None:
                meta, obj = build()
                meta["key"] = key
                meta["shared"] = native.link_shared(obj, library)
                try:
                    cache.store(entry, meta, obj, key)
                except OSError:
                    pass  # an unwritable cache costs speed, not correctness
                found = meta, obj
    meta, obj = found
    program = native.SharedProgram.load(library, meta.get("shared"))
    if program is None:
        from . import pipeline
        from .runtime.jit import JitObject

        host = host or pipeline.target_of(options)
        program = JitObject(obj, host.target_machine(opt=opt_level))
    from .runtime import pool

    pool.share(program)  # one thread pool per process, whichever modules it loads
    return meta, program


def _device_for(target: str, source: Path):
    """The GPU a module's kernels run on: required for 'cuda', taken where there is one for
    'auto' (only modules with kernels look), none for 'cpu'."""
    if target == "cpu":
        return None
    if target == "opencl":  # asked for by name: its absence is an error (runtime/opencl.py says which part)
        from .runtime import opencl

        return opencl.open_device()
    text = source.read_text(encoding="utf-8")
    if target == "auto" and "@kernel" not in text and "launch" not in text:
        return None
    from .runtime import cuda

    try:
        return cuda.open_device()
    except cuda.CudaUnavailable:
        if target == "cuda":
            raise
        return None


def _use_gpu(module, meta: dict, source: Path, device) -> None:
    """Compile the module's kernels to PTX for `device`, load them, and launch there."""
    from . import pipeline
    from .options import CompileOptions
    from .runtime import cache, cuda
    from .source import SourceFile

    text = source.read_text(encoding="utf-8")
    # The PTX is cached beside the module's entry (same key: path, source, compiler, options),
    # sealed and checked like the entry itself.
    cached = cache.entry_path(source, meta["key"]).with_suffix(f".{device.arch}.ptx") if "key" in meta else None
    ptx = cache.load_ptx(cached, meta["key"], device.arch) if cached is not None else None
    if ptx is None:
        options = CompileOptions(opt_level=3, target="cuda", gpu_arch=device.arch)
        comp = pipeline.optimize(SourceFile(str(source), text), options, entry=False)
        ptx = pipeline.target_of(options).target_machine(opt=3).emit_assembly(comp.llvm_module)
        if cached is not None:
            cache.store_ptx(cached, meta["key"], device.arch, ptx, comp.program.dependencies)
    key = f"{source}:{device.arch}:{cache.file_digest(text)}"
    handle = device.load(ptx, key=key)
    for kmeta in meta["kernels"]:
        setattr(module, kmeta["name"], cuda.CudaKernel(kmeta, device, handle, getattr(module, kmeta["name"])))
    launching = [f["name"] for f in meta["functions"] if f.get("launches")]
    if launching:  # pyx functions that launch: their kernels too go to the GPU, their arrays in managed memory
        from .runtime.cuda_program import HostFunctionOnDevice, ProgramOnDevice

        on_device = ProgramOnDevice(module.__pyx__["library"].jit, device, ptx, key)
        module.__pyx__["device"] = on_device  # its callbacks live as long as the module
        for name in launching:
            setattr(module, name, HostFunctionOnDevice(getattr(module, name), on_device))
    module.__pyx__["target"] = f"cuda ({device.arch})"


class PyxCompileError(ImportError):
    """A .px module failed to compile: the message holds the rendered diagnostics."""

    def __init__(self, message: str, diagnostics: list, name: str | None = None, path: str | None = None):
        super().__init__(message, name=name, path=path)
        self.diagnostics = diagnostics


def import_module(name: str, target: str = "auto", path: list[str] | None = None, memcheck: bool = False):
    """Find `name.px`, compile it (or load it from the cache), and return a module of callables.
    `memcheck=True` runs kernels on the CPU with every memory access checked (IndexError naming
    the block and thread)."""
    source = find_source(name, path)
    if source is None:
        raise ModuleNotFoundError(f"No pyx module named {name!r} (looked for {name.replace('.', '/')}.px on "
                                  f"{'the given path' if path is not None else 'sys.path'})", name=name)
    return load_source(name, source, target, memcheck=memcheck)


def load_source(name: str, source: Path, target: str = "auto", memcheck: bool = False):
    """The pyx module `name` compiled from the file `source` (or loaded from the cache), one
    compile at a time in this process."""
    with _lock:
        return _load(name, source, target, memcheck=memcheck)


TARGETS = ("auto", "cpu", "cuda", "opencl")


def _load(name: str, source: Path, target: str = "auto", module=None, memcheck: bool = False):
    from .diagnostics import CompileError
    from .diagnostics.render import render_all
    from .runtime.bridge import make_module

    if target not in TARGETS:
        raise ValueError(f"pyx: target must be one of {', '.join(map(repr, TARGETS))}, not {target!r}")
    if memcheck and target in ("cuda", "opencl"):
        raise ValueError("pyx: memcheck=True checks kernels run on the CPU; use target='cpu' or 'auto' "
                         "(on a GPU, NVIDIA's compute-sanitizer does this)")
    device = None if memcheck else _device_for(target, source)
    try:
        meta, jit = load_compiled(source, target, memcheck=memcheck)
        fresh = make_module(name, meta, jit, str(source))
        if device is not None and (meta.get("kernels") or any(f.get("launches") for f in meta["functions"])):
            if target == "opencl":
                from .runtime.opencl import use_opencl

                use_opencl(fresh, meta, source, device)
            else:
                _use_gpu(fresh, meta, source, device)
    except CompileError as exc:
        text = render_all(exc.diagnostics, color="never")
        raise PyxCompileError(f"cannot import {name!r}: {source} does not compile\n{text}", exc.diagnostics,
                              name=name, path=str(source)) from None
    fresh.__pyx__.setdefault("target", "cpu")
    fresh.__pyx__["origin"]["target"] = target  # how its functions pickle (runtime/dispatch.py)
    if jit.global_address("__pyx_autotune_hook"):  # `@autotune` dispatchers, timed where kernels run
        from .runtime import autotune

        autotune.attach(jit, source, None, target=fresh.__pyx__["target"])
    _remember(name, source, target, memcheck, fresh)
    # The module's own statements (semantics/globals.py) run once, now, as CPython runs a module's
    # body at import; they are not one of its functions.
    from .script import SCRIPT

    script = fresh.__dict__.pop(SCRIPT, None)
    if module is None:
        module = fresh
    else:
        module.__dict__.update({k: v for k, v in fresh.__dict__.items() if k not in ("__name__", "__spec__",
                                                                                     "__loader__")})
    sys.modules[name] = module
    if script is not None:
        try:
            script()
        except BaseException:
            sys.modules.pop(name, None)  # as CPython does when a module's body raises
            raise
    return module


class PyxLoader(importlib.abc.Loader):
    def __init__(self, source: Path, target: str = "auto", memcheck: bool = False):
        self.source = source
        self.target, self.memcheck = target, memcheck

    def create_module(self, spec):
        return None

    def exec_module(self, module) -> None:
        with _lock:
            _load(module.__name__, self.source, self.target, module=module, memcheck=self.memcheck)


_IMPORTED: dict[str, tuple[Path, str, bool]] = {}  # what pyx.import_module loaded: name -> (file, options)


def _remember(name: str, source: Path, target: str, memcheck: bool, module) -> None:
    """Give a module pyx.import_module made a spec, so that `importlib.reload` recompiles it
    whether or not pyx.install() was called (reload looks the name up on sys.meta_path)."""
    _IMPORTED[name] = (source, target, memcheck)
    if getattr(module, "__spec__", None) is None:
        module.__spec__ = importlib.util.spec_from_file_location(name, source,
                                                                 loader=PyxLoader(source, target, memcheck))
        module.__loader__ = module.__spec__.loader
    if not any(isinstance(f, _ImportedFinder) for f in sys.meta_path):
        sys.meta_path.append(_ImportedFinder())  # last: it finds only names pyx imported already


class _ImportedFinder(importlib.abc.MetaPathFinder):
    """Finds the modules pyx.import_module imported (for importlib.reload), with their options."""

    def find_spec(self, fullname, path, target=None):
        found = _IMPORTED.get(fullname)
        if found is None or not found[0].is_file():
            return None
        source, target_name, memcheck = found
        return importlib.util.spec_from_file_location(fullname, source,
                                                      loader=PyxLoader(source, target_name, memcheck))


class PyxFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path, target=None):
        source = find_source(fullname, list(path) if path is not None else None)
        if source is None:
            return None
        return importlib.util.spec_from_file_location(fullname, source, loader=PyxLoader(source),
                                                      submodule_search_locations=[str(source.parent)]
                                                      if source.name == "__init__.px" else None)


def install() -> None:
    """Let `import name` find name.px (a .py of the same name still wins), here and in the worker
    processes multiprocessing starts from now on (spawn and forkserver start fresh interpreters)."""
    if not any(isinstance(f, PyxFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, PyxFinder())
    _carry_into_workers()


class _InstallInWorker:
    """Unpickled in a worker process, installs the hook: multiprocessing's spawn and forkserver
    workers unpickle the "preparation data" before they import anything of the parent's (its
    main module, the module of the function they run), so `import stats` there finds stats.px."""

    def __reduce__(self):
        return install, ()


def _carry_into_workers() -> None:
    import multiprocessing.spawn as spawn

    if getattr(spawn.get_preparation_data, "_pyx_install", False):
        return
    original = spawn.get_preparation_data

    def get_preparation_data(name):
        data = original(name)
        data["pyx_install"] = _InstallInWorker()  # spawn.prepare() reads only the keys it knows
        return data

    get_preparation_data._pyx_install = True
    spawn.get_preparation_data = get_preparation_data
