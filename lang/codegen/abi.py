"""Names shared by the code generator and the runtime that loads its output.

Kept in a module of its own so that loading cached code imports nothing of the compiler.
"""
ENTRY_SYMBOL = "__pyx_main_entry"  # int entry(void): runs fn main(), prints an uncaught exception
EXPORT_PREFIX = "__pyx_export."  # int32 __pyx_export.f(args..., out*): one per exported function
LAUNCH_PREFIX = "__pyx_launch."  # int32 __pyx_launch.k(args..., gx, gy, gz, bx, by, bz, shared): one per kernel
# Function-pointer globals a runtime sets to send launches and allocations to a GPU (device_hooks.py).
LAUNCH_HOOK, ALLOC_HOOK, FREE_HOOK = "__pyx_device_launch", "__pyx_device_alloc", "__pyx_device_free"
# void __pyx_release(i8*): frees memory a List returned to Python owned (malloc's, or a device hook's).
RELEASE_SYMBOL = "__pyx_release"
# The program's argc and argv (sys.argv): an executable's C `main` fills them, `pyx run` from Python.
ARGC_GLOBAL, ARGV_GLOBAL = "__pyx_argc_value", "__pyx_argv_value"
# --memcheck programs: add and remove a live array (memcheck.py).
MEMCHECK_REGISTER, MEMCHECK_UNREGISTER = "__pyx_memcheck_register", "__pyx_memcheck_unregister"


def ptx_name(name: str) -> str:
    """A symbol as PTX can spell it: [A-Za-z0-9_] only, anything else escaped as _xx_."""
    return "".join(c if c.isascii() and (c.isalnum() or c == "_") else f"_{ord(c):02x}_" for c in name)


def kernel_entry(symbol: str) -> str:
    """The PTX `.entry` of a kernel instance (what the CUDA driver looks up)."""
    return ptx_name(symbol + ".kernel")
