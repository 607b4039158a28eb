"""The C functions pyx's generated code calls, declared in one place, and how a variadic one is called.

`PROTOTYPES`: every C library function the generated runtime (runtime_lib.py, parallel.py,
gpu_cpu.py, memcheck.py, the recursion guard) calls, with its C prototype and the LLVM signature
it is declared with (`RuntimeLib.libc(name)`). The sizes behind the types (`size_t` and
`pthread_t` 64 bits, `pthread_key_t` and `pthread_once_t` 32) hold on every target of
platform_facts.py (LP64 glibc: `tests/codegen/test_platform_facts.py` checks them); a call site
that names a signature of its own must name this one.

A variadic C function, from generated code or `external_call["snprintf", Int32](...)` in the
stdlib or a program, must be called as C calls it: declared variadic, its extra arguments
promoted (a float to double, a small integer or a Bool to int), and on x86-64 with the number of
vector registers used in %al, which only a variadic call sets. Calling `snprintf` as if it took
exactly the arguments given leaves %al whatever it was, and glibc then skips saving the vector
registers: a double argument prints as garbage. The C library's variadic functions that pyx code
may call are listed here with their fixed parameter count (from their prototypes in <stdio.h>).
"""
from __future__ import annotations

from dataclasses import dataclass

from llvmlite import ir as ll

from .. import types as T

_VOID, _I32, _I64, _F64 = ll.VoidType(), ll.IntType(32), ll.IntType(64), ll.DoubleType()
_P = ll.IntType(8).as_pointer()  # any data pointer (`void *`, `char *`, `FILE *`, `locale_t`, ...)


@dataclass(frozen=True)
class CFunction:
    name: str
    c: str  # its prototype, as the C library's headers declare it
    result: ll.Type
    params: tuple[ll.Type, ...]
    variadic: bool = False

    @property
    def function_type(self) -> ll.FunctionType:
        return ll.FunctionType(self.result, self.params, var_arg=self.variadic)


def _fn(*params: ll.Type, result: ll.Type = _VOID) -> ll.PointerType:
    return ll.FunctionType(result, params).as_pointer()


PROTOTYPES: dict[str, CFunction] = {f.name: f for f in (
    # <stdlib.h>, <string.h>
    CFunction("malloc", "void *malloc(size_t size)", _P, (_I64,)),
    CFunction("calloc", "void *calloc(size_t count, size_t size)", _P, (_I64, _I64)),
    CFunction("free", "void free(void *block)", _VOID, (_P,)),
    CFunction("memcpy", "void *memcpy(void *to, const void *from, size_t size)", _P, (_P, _P, _I64)),
    CFunction("memmove", "void *memmove(void *to, const void *from, size_t size)", _P, (_P, _P, _I64)),
    CFunction("memset", "void *memset(void *block, int byte, size_t size)", _P, (_P, _I32, _I64)),
    CFunction("memchr", "void *memchr(const void *block, int byte, size_t size)", _P, (_P, _I32, _I64)),
    CFunction("strcmp", "int strcmp(const char *a, const char *b)", _I32, (_P, _P)),
    CFunction("strlen", "size_t strlen(const char *text)", _I64, (_P,)),
    CFunction("strerror", "char *strerror(int errnum)", _P, (_I32,)),
    CFunction("strtod", "double strtod(const char *text, char **end)", _F64, (_P, _P.as_pointer())),
    CFunction("strtol", "long strtol(const char *text, char **end, int base)", _I64, (_P, _P.as_pointer(), _I32)),
    CFunction("strtoll", "long long strtoll(const char *text, char **end, int base)", _I64,
              (_P, _P.as_pointer(), _I32)),
    CFunction("strtof", "float strtof(const char *text, char **end)", ll.FloatType(), (_P, _P.as_pointer())),
    CFunction("getenv", "char *getenv(const char *name)", _P, (_P,)),
    # <stdio.h>, <stdio_ext.h>
    CFunction("printf", "int printf(const char *format, ...)", _I32, (_P,), True),
    CFunction("dprintf", "int dprintf(int fd, const char *format, ...)", _I32, (_I32, _P), True),
    CFunction("snprintf", "int snprintf(char *out, size_t size, const char *format, ...)", _I32, (_P, _I64, _P),
              True),
    CFunction("fwrite", "size_t fwrite(const void *data, size_t size, size_t count, FILE *stream)", _I64,
              (_P, _I64, _I64, _P)),
    CFunction("fflush", "int fflush(FILE *stream)", _I32, (_P,)),
    CFunction("ferror", "int ferror(FILE *stream)", _I32, (_P,)),
    CFunction("clearerr", "void clearerr(FILE *stream)", _VOID, (_P,)),
    CFunction("__fpurge", "void __fpurge(FILE *stream)", _VOID, (_P,)),
    # <errno.h>, <locale.h>, <unistd.h>, <sched.h>
    CFunction("__errno_location", "int *__errno_location(void)", _I32.as_pointer(), ()),
    CFunction("newlocale", "locale_t newlocale(int mask, const char *locale, locale_t base)", _P,
              (_I32, _P, _P)),
    CFunction("uselocale", "locale_t uselocale(locale_t locale)", _P, (_P,)),
    CFunction("getpid", "pid_t getpid(void)", _I32, ()),
    CFunction("sysconf", "long sysconf(int name)", _I64, (_I32,)),
    CFunction("sched_getaffinity", "int sched_getaffinity(pid_t pid, size_t size, cpu_set_t *mask)", _I32,
              (_I32, _I64, _P)),
    # <signal.h>, <setjmp.h>, <ucontext.h>
    CFunction("signal", "void (*signal(int sig, void (*handler)(int)))(int)", _fn(_I32), (_I32, _fn(_I32))),
    CFunction("sigaction", "int sigaction(int sig, const struct sigaction *act, struct sigaction *old)", _I32,
              (_I32, _P, _P)),
    CFunction("raise", "int raise(int sig)", _I32, (_I32,)),
    CFunction("_setjmp", "int _setjmp(jmp_buf env)", _I32, (_P,)),
    CFunction("longjmp", "void longjmp(jmp_buf env, int value)", _VOID, (_P, _I32)),
    CFunction("getcontext", "int getcontext(ucontext_t *context)", _I32, (_P,)),
    CFunction("makecontext", "void makecontext(ucontext_t *context, void (*start)(void), int argc, ...)", _VOID,
              (_P, _fn(), _I32), True),
    # <pthread.h>
    CFunction("pthread_create", "int pthread_create(pthread_t *thread, const pthread_attr_t *attr, "
              "void *(*start)(void *), void *arg)", _I32, (_I64.as_pointer(), _P, _fn(_P, result=_P), _P)),
    CFunction("pthread_join", "int pthread_join(pthread_t thread, void **result)", _I32, (_I64, _P.as_pointer())),
    CFunction("pthread_self", "pthread_t pthread_self(void)", _I64, ()),
    CFunction("pthread_once", "int pthread_once(pthread_once_t *once, void (*init)(void))", _I32,
              (_I32.as_pointer(), _fn())),
    CFunction("pthread_key_create", "int pthread_key_create(pthread_key_t *key, void (*destructor)(void *))",
              _I32, (_I32.as_pointer(), _fn(_P))),
    CFunction("pthread_key_delete", "int pthread_key_delete(pthread_key_t key)", _I32, (_I32,)),
    CFunction("pthread_getspecific", "void *pthread_getspecific(pthread_key_t key)", _P, (_I32,)),
    CFunction("pthread_setspecific", "int pthread_setspecific(pthread_key_t key, const void *value)", _I32,
              (_I32, _P)),
    CFunction("pthread_mutex_init", "int pthread_mutex_init(pthread_mutex_t *mutex, const pthread_mutexattr_t *a)",
              _I32, (_P, _P)),
    CFunction("pthread_mutex_lock", "int pthread_mutex_lock(pthread_mutex_t *mutex)", _I32, (_P,)),
    CFunction("pthread_mutex_unlock", "int pthread_mutex_unlock(pthread_mutex_t *mutex)", _I32, (_P,)),
    CFunction("pthread_cond_init", "int pthread_cond_init(pthread_cond_t *cond, const pthread_condattr_t *a)",
              _I32, (_P, _P)),
    CFunction("pthread_cond_wait", "int pthread_cond_wait(pthread_cond_t *cond, pthread_mutex_t *mutex)", _I32,
              (_P, _P)),
    CFunction("pthread_cond_broadcast", "int pthread_cond_broadcast(pthread_cond_t *cond)", _I32, (_P,)),
    CFunction("pthread_getattr_np", "int pthread_getattr_np(pthread_t thread, pthread_attr_t *attr)", _I32,
              (_I64, _P)),
    CFunction("pthread_attr_getstack", "int pthread_attr_getstack(const pthread_attr_t *attr, void **low, "
              "size_t *size)", _I32, (_P, _P.as_pointer(), _I64.as_pointer())),
    CFunction("pthread_attr_destroy", "int pthread_attr_destroy(pthread_attr_t *attr)", _I32, (_P,)),
    # <sched.h>
    CFunction("sched_yield", "int sched_yield(void)", _I32, ()),
    # Python's C API (<Python.h>): the entry points' conversions (stdlib/runtime_python.px, pyentry.py)
    CFunction("PyErr_Occurred", "PyObject *PyErr_Occurred(void)", _P, ()),
    CFunction("PyErr_Clear", "void PyErr_Clear(void)", _VOID, ()),
    CFunction("PyLong_AsLongLong", "long long PyLong_AsLongLong(PyObject *obj)", _I64, (_P,)),
    CFunction("PyLong_AsUnsignedLongLong", "unsigned long long PyLong_AsUnsignedLongLong(PyObject *obj)", _I64,
              (_P,)),
    CFunction("PyFloat_AsDouble", "double PyFloat_AsDouble(PyObject *obj)", _F64, (_P,)),
    CFunction("PyObject_Type", "PyObject *PyObject_Type(PyObject *obj)", _P, (_P,)),
    CFunction("PyType_IsSubtype", "int PyType_IsSubtype(PyTypeObject *a, PyTypeObject *b)", _I32, (_P, _P)),
    CFunction("PyTuple_GetItem", "PyObject *PyTuple_GetItem(PyObject *tuple, Py_ssize_t index)", _P, (_P, _I64)),
    CFunction("Py_DecRef", "void Py_DecRef(PyObject *obj)", _VOID, (_P,)),
    CFunction("PyObject_GetBuffer", "int PyObject_GetBuffer(PyObject *obj, Py_buffer *view, int flags)", _I32,
              (_P, _P, _I32)),
)}

# name -> the number of fixed parameters before the `...`: the variadic PROTOTYPES, and two more
# that pyx code may call.
VARIADIC: dict[str, int] = {
    **{f.name: len(f.params) for f in PROTOTYPES.values() if f.variadic},
    "fprintf": 2,    # int fprintf(FILE *stream, const char *format, ...)
    "sprintf": 2,    # int sprintf(char *out, const char *format, ...)
}


def call_variadic(b: ll.IRBuilder, symbol: str, ret: ll.Type, args: list, types: list[T.Type],
                  module: ll.Module) -> ll.Value | None:
    """The call of a known variadic C function with C's default argument promotions applied to
    its variadic arguments; None when `symbol` is not one (or is called with too few arguments)."""
    fixed = VARIADIC.get(symbol)
    if fixed is None or len(args) < fixed:
        return None
    promoted = list(args[:fixed])
    for value, t in zip(args[fixed:], types[fixed:], strict=True):
        if isinstance(t, T.ScalarType) and t.is_float and t != T.BFLOAT16 and t.bits < 64:
            value = b.fpext(value, ll.DoubleType())  # a BFloat16 stays its 16 bits: C has no such type
        elif isinstance(t, T.ScalarType) and not t.is_float and t.bits < 32:
            value = b.sext(value, ll.IntType(32)) if t.is_signed else b.zext(value, ll.IntType(32))
        promoted.append(value)
    fnty = ll.FunctionType(ret, [a.type for a in promoted[:fixed]], var_arg=True)
    fn = module.globals.get(symbol)
    if fn is None:
        fn = ll.Function(module, fnty, symbol)
    if fn.function_type != fnty:  # declared otherwise elsewhere in the module: call it as C does
        fn = b.bitcast(fn, fnty.as_pointer())
    return b.call(fn, promoted)
