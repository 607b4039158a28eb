"""The `pyx` command: run, check, build. Exit status: 0 ok, 1 user error, 2 usage, 101 internal error."""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

EXIT_OK, EXIT_USER, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 101
EXIT_INTERRUPTED = 130  # an uncaught KeyboardInterrupt (Ctrl-C): 128 + SIGINT, as a shell reports it
EMITS = ("ast", "ir", "llvm", "asm", "obj", "ptx", "spirv", "exe")


def _gpu_arch(text: str) -> str:
    """--gpu-arch's value, checked here: an architecture LLVM does not take is a usage error
    (exit 2), not a crash inside LLVM."""
    from .codegen.target import UnknownGpuArch, ptx_version_for

    try:
        ptx_version_for(text)
    except UnknownGpuArch as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def _parser() -> argparse.ArgumentParser:
    from .version import __version__

    p = argparse.ArgumentParser(prog="pyx", description="Compile and run pyx (.px) programs.")
    p.add_argument("--version", action="version", version=f"pyx {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    def common(sp, opt_default=3):
        sp.add_argument("file", help="the .px source file")
        sp.add_argument("-O", dest="opt", type=int, choices=range(4), default=opt_default, metavar="N",
                        help="optimization level 0-3 (default %(default)s)")
        sp.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                        help="colour diagnostics (default: auto; NO_COLOR and TERM=dumb turn it off)")
        sp.add_argument("--time", action="store_true", help="print how long each compiler pass took")
        sp.add_argument("--no-bounds-check", dest="bounds_check", action="store_false",
                        help="leave out the index checks of List and other containers (IndexError otherwise)")
        sp.add_argument("--memcheck", action="store_true",
                        help="check every memory access of GPU code run on the CPU (IndexError with the block "
                             "and thread); slow, for debugging")
        sp.add_argument("--racecheck", action="store_true",
                        help="report shared-memory races of GPU code run on the CPU (RuntimeError naming the "
                             "kernel, the array, both threads and both lines); slow, for debugging")
        sp.add_argument("--no-gpu-regions", dest="gpu_regions", action="store_false",
                        help="run kernels with barriers on the CPU as one coroutine per thread, without the "
                             "`gpu_regions` pass's loops over the block's threads; slower, for debugging")
        sp.add_argument("--debug-leaks", dest="debug_leaks", action="store_true",
                        default=os.environ.get("PYX_DEBUG_LEAKS", "") not in ("", "0"),
                        help="at the program's end, report on stderr the objects only reference cycles keep "
                             "alive, with the line that made them (also PYX_DEBUG_LEAKS=1); for debugging")

    run = sub.add_parser("run", help="compile a .px file and run its `fn main()`",
                         description="Compile FILE and run its `fn main()` in this process.")
    common(run)
    run.add_argument("--target", choices=("cpu", "cuda", "opencl", "auto"), default="cpu",
                     help="where `launch` runs kernels: cpu (default), cuda (the GPU, through cuda-python), "
                          "opencl (SPIR-V on an OpenCL device, through pyopencl) or auto (the GPU when there is one)")
    run.add_argument("args", nargs=argparse.REMAINDER, help="arguments for the program")

    tune = sub.add_parser("tune", help="run a program, timing every candidate of the `@autotune` functions it "
                                       "calls, and print the table",
                          description="Compile FILE and run its `fn main()`, timing each `@autotune` function's "
                                      "candidates again (cached choices are not used) on the arguments it is called "
                                      "with; save the choices for this machine and print every candidate's time.")
    common(tune)
    tune.add_argument("--target", choices=("cpu", "cuda", "opencl", "auto"), default="cpu",
                      help="where `launch` runs kernels, as for `pyx run`: kernels are timed where they run")
    tune.add_argument("args", nargs=argparse.REMAINDER, help="arguments for the program")

    check = sub.add_parser("check", help="report diagnostics without generating code")
    check.add_argument("file", help="the .px source file")
    check.add_argument("--color", choices=("auto", "always", "never"), default="auto")
    check.add_argument("--exports", action="store_true",
                       help="also list how Python can call each top-level function, and why it cannot")

    build = sub.add_parser("build", help="compile and print or write one stage's output",
                           description="Compile FILE and emit one stage of the pipeline.")
    common(build)
    build.add_argument("--emit", choices=EMITS, default="exe",
                       help="what to produce: ast, ir, llvm, asm, obj, ptx, spirv or exe (default: exe)")
    build.add_argument("-o", dest="output", help="output file (default: stdout for text, FILE.o / FILE for binaries)")
    build.add_argument("--target", choices=("cpu", "cuda", "opencl"), default=None,
                       help="code generation target (default: cpu; --emit=ptx implies cuda, --emit=spirv opencl)")
    build.add_argument("--gpu-arch", default="sm_80", type=_gpu_arch, metavar="ARCH",
                       help="GPU architecture for PTX, sm_60 to sm_121a (default: sm_80)")
    build.add_argument("--print-before", action="append", default=[], metavar="PASS",
                       help="print the input of the pass PASS to stderr (repeatable; `pyx passes` lists them)")
    build.add_argument("--print-after", action="append", default=[], metavar="PASS",
                       help="print the output of the pass PASS to stderr (repeatable)")

    passes = sub.add_parser("passes", help="list the compiler's passes, in the order they run",
                            description="Each pass: its name (for --time, --print-before and --print-after), what "
                                        "it does, what it reads and gives, and where it lives.")
    passes.add_argument("--color", default="never", help=argparse.SUPPRESS)

    fmt = sub.add_parser("fmt", help="lay out .px files as Black lays out Python (blank lines, line ends)",
                         description="Format .px files in place: Black's blank lines between definitions, no "
                                     "trailing whitespace, one newline at the end. Inside lines nothing changes "
                                     "yet (docs/getting-started.md says why).")
    fmt.add_argument("paths", nargs="*", help="files or directories (default: .)")
    fmt.add_argument("--check", action="store_true", help="change nothing; exit 1 if a file would change")
    fmt.add_argument("--diff", action="store_true", help="change nothing; print what would change")
    fmt.add_argument("--color", choices=("auto", "always", "never"), default="auto")

    test = sub.add_parser("test", help="run the test_* functions of test_*.px files",
                          description="Find test_*.px files under PATHS (default: .) and run each function "
                                      "named test_* that takes no arguments; a test fails when it raises.")
    test.add_argument("paths", nargs="*", help="files or directories (default: .)")
    test.add_argument("-k", dest="keyword", default=None, help="only tests whose name contains this text")
    test.add_argument("--color", choices=("auto", "always", "never"), default="auto")

    cache = sub.add_parser("cache", help="show or clear the cache of compiled modules",
                           description="Entries (compiled modules, and the standard library's parsed trees) live "
                                       "in __pycache__ beside each .px file, or in PYX_CACHE_DIR, or in the user "
                                       "cache directory. `clear` also removes what interrupted compiles left "
                                       "(*.pyxtmp), and removes symlinks themselves, never their targets.")
    cache.add_argument("action", choices=("info", "clear"))
    cache.add_argument("dirs", nargs="*", help="directories whose __pycache__ to include (default: .)")

    lsp = sub.add_parser("lsp", help="run the language server on stdin/stdout (for editors)",
                         description="Serve the Language Server Protocol over stdio. "
                                     "Needs `pip install pyx-llvm[lsp]`.")
    lsp.add_argument("--color", default="never", help=argparse.SUPPRESS)
    lsp.add_argument("--check", action="store_true",
                     help="only check that the server can start (exit 1, saying what is missing, when it cannot)")
    cache.add_argument("--color", default="never", help=argparse.SUPPRESS)
    return p


def main(argv: list[str] | None = None) -> int:
    import pyx

    from .foreign import foreign_package

    foreign = foreign_package(pyx)  # PyX's files in this package's folder: nothing would work as it should
    if foreign is not None:
        print(f"pyx: error: {foreign}", file=sys.stderr)
        return EXIT_USAGE
    args = _parser().parse_args(argv)
    from .diagnostics import CompileError, InternalCompilerError
    from .diagnostics.render import render_all

    try:
        status = {"run": cmd_run, "tune": cmd_tune, "check": cmd_check, "build": cmd_build, "lsp": cmd_lsp,
                  "cache": cmd_cache, "test": cmd_test, "passes": cmd_passes,
                  "fmt": cmd_fmt}[args.command](args)
    except CompileError as exc:
        print(render_all(exc.diagnostics, sys.stderr, args.color), file=sys.stderr)
        return EXIT_USER
    except InternalCompilerError as exc:
        return internal_error(exc.headline(), exc.cause)
    except KeyboardInterrupt:
        status = EXIT_INTERRUPTED
    except Exception as exc:  # noqa: BLE001
        return internal_error(f"internal compiler error in the driver: {type(exc).__name__}: {exc}", exc)
    if status == EXIT_INTERRUPTED and argv is None:  # the `pyx` command itself, not a caller in Python
        die_by_sigint()
    return status


def die_by_sigint() -> None:
    """End the process as CPython ends after an uncaught KeyboardInterrupt: by SIGINT with its
    default action, so the parent sees a death by signal (a shell: status 130) and a shell
    script running `pyx run` stops too."""
    import signal

    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGINT)


def internal_error(headline: str, cause: BaseException) -> int:
    """Report a bug in pyx itself (the exception `cause`), its traceback under PYX_DEBUG=1: the exit status."""
    print(f"error: {headline}", file=sys.stderr)
    print("note: this is a bug in pyx, not in your program; please report it to the pyx developers with the "
          "source file that triggers it", file=sys.stderr)
    if os.environ.get("PYX_DEBUG"):
        import traceback

        traceback.print_exception(type(cause), cause, cause.__traceback__, file=sys.stderr)
    else:
        print("note: set PYX_DEBUG=1 to see the compiler's traceback", file=sys.stderr)
    return EXIT_INTERNAL


def _read(path: str):
    from .diagnostics import CompileError, error
    from .source import InvalidUtf8, SourceFile

    try:
        return SourceFile.read(path)
    except InvalidUtf8 as exc:  # at the first bad byte's line and column
        bad = exc.object[exc.start]
        raise CompileError([error("E0901", exc.span, path=path,
                                  reason=f"not valid UTF-8 (byte 0x{bad:02x}: {exc.reason})")]) from None
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise CompileError([error("E0901", None, path=path, reason=reason)]) from None


def _no_main(source):
    """E0111 at the end of the file's text (where a `fn main()` could go), so it has a line and
    column like every diagnostic."""
    from .diagnostics import Note, error

    end = len(source.text.rstrip())
    note = Note("`pyx run` and `pyx build` start at `fn main()`; `pyx check` checks a file without one")
    return error("E0111", source.span(end, end), (note,), file=source.name)


def _print_timings(comp, extra: dict[str, float] | None = None) -> None:
    timings = dict(comp.timings)
    timings.update(extra or {})
    parts = ", ".join(f"{k} {v * 1000:.1f} ms" for k, v in timings.items())
    print(f"pyx: {parts}; total {sum(timings.values()) * 1000:.1f} ms", file=sys.stderr)


def cmd_test(args) -> int:
    import traceback

    from .diagnostics.render import render_all
    from .importer import PyxCompileError, import_module

    files: list[Path] = []
    for given in args.paths or ["."]:
        path = Path(given)
        if path.is_dir():
            files.extend(sorted(p for p in path.rglob("test_*.px") if "__pycache__" not in p.parts))
        elif path.is_file():
            files.append(path)
        else:
            print(f"pyx: error: {given}: no such file or directory", file=sys.stderr)
            return EXIT_USAGE
    passed = failed = errors = 0
    for file in files:
        try:
            module = import_module(file.stem, path=[str(file.parent)])
        except PyxCompileError as exc:
            errors += 1
            print(f"{file}: ERROR (does not compile)")
            print(render_all(exc.diagnostics, sys.stdout, args.color))
            continue
        tests = [n for n in vars(module) if n.startswith("test_") and callable(getattr(module, n))
                 and (args.keyword is None or args.keyword in n)]  # in the order they are defined
        for test_name in tests:
            fn = getattr(module, test_name)
            try:
                sys.stdout.flush()
                fn()
            except Exception as exc:  # noqa: BLE001 - a failing test, reported with its .px traceback
                failed += 1
                print(f"{file}::{test_name} FAILED")
                frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename.endswith(".px")]
                print("".join(traceback.format_list(frames)).rstrip())
                print(f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__)
            else:
                passed += 1
                print(f"{file}::{test_name} PASSED")
    summary = f"{passed} passed, {failed} failed" + (f", {errors} errors" if errors else "")
    print(summary)
    return EXIT_OK if not (failed or errors) else EXIT_USER


def cmd_cache(args) -> int:
    from .runtime import cache

    places = []
    if os.environ.get("PYX_CACHE_DIR"):
        places.append(Path(os.environ["PYX_CACHE_DIR"]))
    places.append(cache.user_cache_dir())
    for d in args.dirs or ["."]:
        # rglob does not descend into symlinked folders; a symlink named __pycache__ is skipped
        # too, so `clear` never removes files in a folder some link points at.
        places.extend(p for p in Path(d).rglob("__pycache__") if not p.is_symlink() and p.is_dir())
    total_files, total_leftovers, total_bytes = 0, 0, 0
    for place in dict.fromkeys(places):
        found = cache.entries(place)
        files = [f for p in found for f in cache.files_of(p)]
        leftovers = cache.leftovers(place)  # temporary files of compiles that were killed
        size = sum(cache.size_of(f) for f in files + leftovers)
        total_files += len(found)
        total_leftovers += len(leftovers)
        total_bytes += size
        if args.action == "clear":
            for f in files + leftovers:
                cache.remove(f)  # a symlink is removed itself, its target never touched
        elif found or leftovers:
            more = f", {len(leftovers)} leftovers of interrupted compiles" if leftovers else ""
            print(f"{place}: {len(found)} entries, {size / 1024:.1f} KiB{more}")
    verb = "removed" if args.action == "clear" else "total"
    more = f", {total_leftovers} leftovers" if total_leftovers else ""
    print(f"{verb}: {total_files} entries, {total_bytes / 1024:.1f} KiB{more}")
    return EXIT_OK


def cmd_lsp(args) -> int:
    try:
        from .lsp import main as serve
    except ImportError as exc:
        print(f"pyx: error: the language server needs pygls ({exc.name} is not installed); "
              "install it with: pip install 'pyx-llvm[lsp]'", file=sys.stderr)
        return EXIT_USER
    if args.check:  # what editors ask before starting the server (editors/vscode/extension.js)
        from importlib.metadata import version

        print(f"pyx lsp: ready (pygls {version('pygls')})")
        return EXIT_OK
    return serve()


def cmd_fmt(args) -> int:
    from .fmt import main as fmt_main

    return fmt_main(args.paths, check=args.check, diff=args.diff, color=args.color)


def cmd_passes(args) -> int:
    from .passmanager import describe

    sys.stdout.write(describe())
    return EXIT_OK


def cmd_check(args) -> int:
    from . import pipeline

    if getattr(args, "exports", False):
        from .build import compile_for_python
        from .dispatch_build import exports_report

        # As `pyx.import_module` compiles it: with its classes' accessors (class_exports.py).
        comp = compile_for_python(_read(args.file), None,
                                  lambda src, _, passes: pipeline.check(src, passes=passes))
        sys.stdout.write(exports_report(comp))
        return EXIT_OK
    pipeline.check(_read(args.file))
    return EXIT_OK


def cmd_run(args) -> int:
    import llvmlite

    from . import pipeline
    from .codegen.abi import ENTRY_SYMBOL
    from .diagnostics import CompileError
    from .options import CompileOptions
    from .runtime import cache, native
    from .version import __version__

    if args.racecheck and args.target != "cpu":  # a GPU would run the kernels unchecked: no silent "no race"
        print(f"pyx: error: --racecheck checks kernels run on the CPU; it cannot be used with --target={args.target}",
              file=sys.stderr)
        return EXIT_USAGE
    source = _read(args.file)
    options = CompileOptions(opt_level=args.opt, memcheck=args.memcheck, bounds_check=args.bounds_check,
                             racecheck=args.racecheck, debug_leaks=args.debug_leaks, gpu_regions=args.gpu_regions)
    start = time.perf_counter()
    host = None
    host_key = native.remembered_host(llvmlite.__version__)
    if host_key is None:  # ask LLVM (imports its binding) and remember the answer for next time
        host = pipeline.target_of(options)
        host_key = host.cache_key
        native.remember_host(llvmlite.__version__, host_key)
    # The path is part of the key: the same text in another folder imports that folder's modules,
    # and the name as given is the one its tracebacks print.
    resolved = Path(args.file).resolve()
    key = cache.cache_key(str(resolved), source.name, source.text, __version__, llvmlite.__version__, host_key,
                          repr(options), "run")
    entry = cache.entry_path(resolved, key)
    library = entry.with_suffix(".so")
    found = None if os.environ.get("PYX_NO_CACHE") else cache.load(entry, key)
    timings: dict[str, float] = {}
    program = None
    finish_entry: Callable[[], None] | None = None  # a cold start stores its cache entry after the run
    if found is not None:
        obj = found[1]
        program = native.SharedProgram.load(library, found[0].get("shared"))
        timings["cache"] = time.perf_counter() - start
    else:
        host = host or pipeline.target_of(options)
        comp = pipeline.optimize(source, options, entry=True)
        if comp.program.main is None:
            raise CompileError([_no_main(source)])
        timings.update(comp.timings)
        start = time.perf_counter()
        obj = host.target_machine(opt=args.opt).emit_object(comp.llvm_module)
        timings["object"] = time.perf_counter() - start
        if not os.environ.get("PYX_NO_CACHE"):
            # The shared library lets a warm start skip LLVM altogether. It is linked while this
            # start loads and runs the program, and the entry naming it is stored after the run.
            link = native.BackgroundLink(obj, library)
            timings["link"] = 0.0
            meta = {"format": 1, "kind": "run", "source": source.name, "dependencies": comp.program.dependencies}

            def store_entry() -> None:
                shared = link.result()
                timings["link"] = link.seconds
                try:
                    cache.store(entry, {**meta, "shared": shared}, obj, key)
                except OSError:
                    pass  # an unwritable cache costs speed, not correctness

            finish_entry = store_entry
    start = time.perf_counter()
    if program is None:
        from .runtime.jit import JitObject

        host = host or pipeline.target_of(options)
        program = JitObject(obj, host.target_machine(opt=args.opt))
    timings["load"] = time.perf_counter() - start
    on_device = None
    if args.target != "cpu":
        start = time.perf_counter()
        on_device = _on_device(args, source, entry, program, key)
        if on_device is False:
            if finish_entry is not None:
                finish_entry()
            return 1
        timings["gpu"] = time.perf_counter() - start
    start = time.perf_counter()
    sys.stdout.flush()
    from .runtime import interrupt

    interrupt.attach(program)  # Ctrl-C raises KeyboardInterrupt in the program (exit status 130)
    if program.global_address("__pyx_autotune_hook"):  # `@autotune` dispatchers (runtime/autotune.py)
        from .runtime import autotune

        autotune.attach(program, resolved, source.text, getattr(args, "tuner", None),
                        args.target if on_device is not None else "cpu")
    interrupt.standalone(True)
    _argv_alive = _pass_arguments(program, [str(args.file), *args.args])  # a local: alive while it runs
    try:
        status = program.run_entry(ENTRY_SYMBOL)
    finally:
        interrupt.standalone(False)
        if on_device is not None:
            on_device.detach()
        run_seconds = time.perf_counter() - start
        if finish_entry is not None:
            finish_entry()
    timings["run"] = run_seconds
    if args.time:
        parts = ", ".join(f"{k} {v * 1000:.1f} ms" for k, v in timings.items())
        print(f"pyx: {parts}; total {sum(timings.values()) * 1000:.1f} ms", file=sys.stderr)
    return status


def cmd_tune(args) -> int:
    """`pyx tune FILE`: `pyx run` with a tuner that times every candidate again (runtime/autotune.py),
    then the table of candidates and times."""
    from .diagnostics import CompileError, DiagnosticBag, error
    from .runtime import autotune
    from .syntax.autotune import PREFIX
    from .syntax.parser import parse

    source = _read(args.file)
    diags = DiagnosticBag()
    parsed = parse(source, diags)  # (its errors, a refused `@autotune` among them, are the run's to report)
    if not diags.has_errors and not any(getattr(item, "name", "").startswith(PREFIX) for item in parsed.body):
        raise CompileError([error("E0907", None, path=args.file)])
    tuner = args.tuner = autotune.Tuner(Path(args.file), source.text, force=True)  # (its target: cmd_run's)
    status = cmd_run(args)
    if status != 0:
        return status
    if not tuner.results:
        raise CompileError([error("E0908", None, path=args.file)])
    saved = tuner.saved_to
    try:
        sys.stdout.flush()
        print(tuner.table())
        print(f"saved for this machine in {saved}" if saved else "not saved (PYX_NO_CACHE, or no usable cache folder)")
        sys.stdout.flush()
    except BrokenPipeError:  # `pyx tune f.px | head`: the reader left (what Python's docs advise)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return 0


def _pass_arguments(program, words: list[str]):
    """sys.argv for the program (quick_run.pass_arguments: the quick start path shares it)."""
    from .quick_run import pass_arguments

    return pass_arguments(program, words)


def _on_device(args, source, entry: Path, program, key: str):
    """Point the program's launches and allocations at the GPU (`--target=cuda`, or `auto` where
    there is one): None to stay on the CPU, False after reporting why the GPU cannot be used."""
    from . import pipeline
    from .options import CompileOptions
    from .runtime import cache, cuda, cuda_program

    if args.target == "opencl":  # SPIR-V on an OpenCL device (runtime/opencl_program.py)
        from .runtime.opencl_program import run_on_opencl

        return run_on_opencl(source, program, args.opt, entry, key)
    if not cuda_program.uses_device(program):
        return None  # no launch anywhere: nothing would run on the GPU
    try:
        device = cuda.open_device()
    except cuda.CudaUnavailable as exc:
        if args.target == "auto":
            return None
        print(f"pyx: error: {str(exc).removeprefix('pyx: ')}", file=sys.stderr)
        return False
    except cuda.CudaError as exc:  # a driver that is there but fails (a busy or broken GPU)
        print(f"pyx: error: {str(exc).removeprefix('pyx: ')}", file=sys.stderr)
        return False
    ptx_path = entry.with_suffix(f".{device.arch}.ptx")  # beside the host program's cache entry
    ptx = None if os.environ.get("PYX_NO_CACHE") else cache.load_ptx(ptx_path, key, device.arch)
    if ptx is None:
        options = CompileOptions(opt_level=args.opt, target="cuda", gpu_arch=device.arch)
        comp = pipeline.optimize(source, options, entry=False)
        ptx = pipeline.target_of(options).target_machine(opt=args.opt).emit_assembly(comp.llvm_module)
        if not os.environ.get("PYX_NO_CACHE"):
            cache.store_ptx(ptx_path, key, device.arch, ptx, comp.program.dependencies)
    try:
        return cuda_program.ProgramOnDevice(program, device, ptx, key=f"{entry}:{device.arch}")
    except cuda.CudaError as exc:
        print(f"pyx: error: {str(exc).removeprefix('pyx: ')}", file=sys.stderr)
        return False


def cmd_build(args) -> int:
    from . import pipeline
    from .options import CompileOptions
    from .passmanager import PassManager, UnknownPass

    try:
        passes = PassManager(print_before=args.print_before, print_after=args.print_after)
    except UnknownPass as exc:
        print(f"pyx: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    source = _read(args.file)
    target = args.target or {"ptx": "cuda", "spirv": "opencl"}.get(args.emit, "cpu")
    if args.racecheck and target != "cpu":  # device code is never instrumented: no silent "no race"
        print(f"pyx: error: --racecheck checks kernels run on the CPU; it cannot be used with --target={target}",
              file=sys.stderr)
        return EXIT_USAGE
    options = CompileOptions(opt_level=args.opt, target=target, gpu_arch=args.gpu_arch, memcheck=args.memcheck,
                             bounds_check=args.bounds_check, racecheck=args.racecheck, debug_leaks=args.debug_leaks,
                             gpu_regions=args.gpu_regions)
    emit = args.emit
    if emit == "ast":
        from .syntax.printer import format_ast

        comp = pipeline.parse(source, options, passes=passes)
        _note_passes_not_run(comp)
        return _write_text(args, format_ast(comp.ast))
    if emit == "ir":
        from .ir import print_module

        comp = pipeline.lower(source, options, passes)
        _note_passes_not_run(comp)
        return _write_text(args, print_module(comp.ir))
    if target == "cuda" and emit not in ("llvm", "ptx", "asm"):
        print(f"pyx: error: --emit={emit} is not available for the cuda target (use ptx or llvm)", file=sys.stderr)
        return EXIT_USAGE
    if (target == "opencl") != (emit == "spirv") and emit not in ("llvm", "asm"):
        print(f"pyx: error: --emit={emit} is not available for the {target} target"
              + (" (use spirv, asm or llvm)" if target == "opencl" else ""), file=sys.stderr)
        return EXIT_USAGE
    comp = pipeline.optimize(source, options, entry=True, c_main=(emit == "exe"), passes=passes)
    _note_passes_not_run(comp)
    if args.time:
        _print_timings(comp)
    module = comp.llvm_module
    if emit == "llvm":
        return _write_text(args, str(module))
    if target == "opencl" and emit == "spirv":  # a binary module: SPIR-V's words
        from .codegen.spirv import emit_spirv

        out = Path(args.output or Path(args.file).with_suffix(".spv").name)
        out.write_bytes(emit_spirv(module, opt=args.opt))
        return EXIT_OK
    tm = pipeline.target_of(options).target_machine(opt=args.opt, reloc="pic", codemodel="default")
    if emit in ("asm", "ptx"):
        return _write_text(args, tm.emit_assembly(module))
    obj = tm.emit_object(module)
    if emit == "obj":
        out = Path(args.output or Path(args.file).with_suffix(".o").name)
        out.write_bytes(obj)
        return EXIT_OK
    return _link_exe(args, comp, obj)


def _note_passes_not_run(comp) -> None:
    """A pass named in --print-before/--print-after that this compile did not run printed nothing: say so."""
    for name in sorted(comp.passes.print_before | comp.passes.print_after):
        if name not in comp.timings:
            print(f"pyx: note: pass `{name}` did not run in this compile (see `pyx passes`)", file=sys.stderr)


def _write_text(args, text: str) -> int:
    if args.output:
        Path(args.output).write_text(text)
    else:
        sys.stdout.write(text)
    return EXIT_OK


def _python_use(comp):
    """(span, what) of the program's first use of a Python object, in source order (the main
    file's before an imported module's), when its code calls Python's C API; else None."""
    if not any(f.is_declaration and f.name.startswith(("Py", "_Py")) for f in comp.llvm_module.functions):
        return None
    uses = []
    for f in comp.ir.functions:
        for block in f.blocks:
            for i in block.instrs:
                callee, span = getattr(i, "callee", None), getattr(i, "span", None)
                if isinstance(callee, str) and callee.startswith("python.") and span is not None:
                    name = callee.removeprefix("python.").split("[")[0]
                    if not name.endswith(("__del__", "__copyinit__", "__moveinit__")):
                        uses.append((span.file.name != comp.source.name, span.start, span, name))
    if not uses:
        return None, "Python"
    _, _, span, name = min(uses, key=lambda u: u[:2])
    return span, name


def _link_exe(args, comp, obj: bytes) -> int:
    from .diagnostics import CompileError, error

    if comp.program.main is None:
        raise CompileError([_no_main(comp.source)])
    uses_python = _python_use(comp)
    if uses_python is not None:  # the linker would list every Py* function the interpreter has
        raise CompileError([error("E0187", uses_python[0], what=uses_python[1])])
    tried = [c for c in (os.environ.get("CC"), "cc", "gcc", "clang") if c]
    cc = next((shutil.which(c) for c in tried if shutil.which(c)), None)
    if cc is None:
        raise CompileError([error("E0902", None, tried=", ".join(tried))])
    out = args.output or Path(args.file).stem
    with tempfile.TemporaryDirectory() as tmp:
        obj_path = Path(tmp) / "main.o"
        obj_path.write_bytes(obj)
        result = subprocess.run([cc, str(obj_path), "-o", str(out), "-lm", "-lpthread"], capture_output=True, text=True)
    if result.returncode != 0:
        raise CompileError([error("E0903", None, detail=(result.stderr or result.stdout).strip())])
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
