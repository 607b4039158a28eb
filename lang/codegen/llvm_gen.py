"""pyx IR -> LLVM IR (llvmlite.ir), for any Target.

Calling convention: a function that cannot raise is an ordinary LLVM function. One
that can raise returns `i1` (true: an exception is pending) and writes its result
through a pointer passed first; callers test the flag and, on the way out, push
their frame onto the traceback. After inlining LLVM folds all of that away.
"""
from __future__ import annotations

from llvmlite import ir as ll

from .. import types as T
from ..ir import nodes as ir
from ..ir import ops
from ..ir.recursion import MESSAGE as RECURSION_MESSAGE
from ..semantics.exceptions import UNCATCHABLE
from ..semantics.globals import main_module_flag
from ..semantics.imports import is_stdlib_file
from ..types import ScalarType, Type
from . import device_hooks as hooks
from . import function_values
from .abi import ALLOC_HOOK, ENTRY_SYMBOL, LAUNCH_HOOK, kernel_entry, ptx_name
from .c_library import call_variadic
from .halfconv import double_to_half, from_bfloat16, to_bfloat16
from .platform_facts import PlatformFacts, facts_for
from .runtime_lib import CHARP, I1, I32, I64, RuntimeLib
from .target import Target


def _gpu_ops():
    """The lowering of GPU intrinsics (codegen/gpu_ops.py, with spirv.py and warp_ops.py): imported by
    a program that has them, not by every compile (issue 15)."""
    from . import gpu_ops

    return gpu_ops


_INT_PRED = {"eq": "==", "ne": "!=", "slt": "<", "sle": "<=", "sgt": ">", "sge": ">=",
             "ult": "<", "ule": "<=", "ugt": ">", "uge": ">="}
_FLOAT_PRED = {"oeq": "==", "une": "!=", "one": "!=", "olt": "<", "ole": "<=", "ogt": ">", "oge": ">=", "uno": "uno"}


# Operations LLVM has as intrinsics (lowered to instructions or to libm calls on the host).
LLVM_MATH = {"sqrt": "sqrt", "exp": "exp", "exp2": "exp2", "log": "log", "log2": "log2", "log10": "log10",
             "sin": "sin", "cos": "cos", "fabs": "fabs", "floor": "floor", "ceil": "ceil", "trunc": "trunc",
             "pow": "pow", "copysign": "copysign"}
# Those the NVPTX backend turns into instructions itself; the rest go through libdevice.
NVPTX_NATIVE = {"sqrt", "fabs", "floor", "ceil", "trunc", "copysign", "fma"}


# What recursion.guard_recursion's entries keep in their frame: a jmp_buf (its size and alignment
# are the target's PlatformFacts: glibc's is 200 bytes on x86-64, 312 on aarch64), the stack limit,
# where the recursion ran out (function, file, line) for the traceback, the guard this one hides
# (this thread's innermost before it) and the thread's ExcState it is registered in (null when
# none: see RuntimeLib.recursion_begin).
def guard_type(facts: PlatformFacts) -> ll.LiteralStructType:
    jmp_buf = ll.ArrayType(ll.IntType(8 * facts.jmp_buf_align), -(-facts.jmp_buf_bytes // facts.jmp_buf_align))
    return ll.LiteralStructType([jmp_buf, ll.IntType(64), CHARP, CHARP, I32, CHARP, CHARP])


GUARD_LIMIT, GUARD_FUNC, GUARD_FILE, GUARD_LINE, GUARD_PREV, GUARD_STATE = range(1, 7)
# The parameter of a recursion body (ir/recursion.py) that carries the limit down the recursion:
# passed as `swiftself`, which the swiftcc convention keeps in a callee-saved register (r13 on
# x86-64, x20 on aarch64). A body passes it on unchanged, so it stays in that register through the
# whole recursion: no move and no save per call, and the prologue check is one compare with the
# stack pointer (issue 14 measured the check at 16-28% of fib(32) with a plain parameter or a load).


class UnsupportedOnTarget(Exception):
    def __init__(self, what: str, span):
        super().__init__(what)
        self.what = what
        self.span = span


class ExceptionTypeInDeviceCode(UnsupportedOnTarget):
    """`except E`, `except ... as e` or `raise e` in GPU code built for a device (E0913). They read
    the exception's type and message from the module's exception state, which a device cannot keep
    per thread: on CUDA one global shared by every thread, on SPIR-V a private-space global that
    LLVM's backend copies into each function (the handler read its own, empty copy; Intel's CPU
    runtime crashed the process on it), and the type is compared by the C library's `strcmp`,
    which neither device has. A bare `except:` needs only the raising call's flag, and works."""


def _is_double_to_half(source: ll.Type, dest: ll.Type) -> bool:
    if isinstance(source, ll.VectorType):
        source, dest = source.element, dest.element
    return isinstance(source, ll.DoubleType) and isinstance(dest, ll.HalfType)


def _suffix(t: ll.Type) -> str:
    if isinstance(t, ll.VectorType):
        return f"v{t.count}{_suffix(t.element)}"
    if isinstance(t, ll.IntType):
        return f"i{t.width}"
    return {ll.HalfType: "f16", ll.FloatType: "f32", ll.DoubleType: "f64"}[type(t)]


def _align(t: Type) -> int:
    """Element alignment: pointers promise no more than their element type's natural alignment."""
    if isinstance(t, T.ScalarType):
        return max(1, t.bits // 8)
    return 8


def llvm_type(t: Type, device: bool = False, spaces=None) -> ll.Type:
    """The LLVM type of a pyx type; `device`: for a GPU target, where pointers keep their address space
    (`spaces`: the target's numbering of pyx's address spaces, where it differs: SPIR-V's)."""
    if isinstance(t, ScalarType):
        if t.is_bool:
            return I1
        if t == T.BFLOAT16:
            return ll.IntType(16)  # its bits: ir.bfloat16 leaves only moves and two casts
        if t.is_float:
            return {16: ll.HalfType(), 32: ll.FloatType(), 64: ll.DoubleType()}[t.bits]
        return ll.IntType(t.bits)
    if isinstance(t, T.SIMDType):
        return ll.VectorType(llvm_type(t.elem, device, spaces), t.width)
    if isinstance(t, T.PtrType):
        pointee = ll.IntType(8) if t.pointee == T.NONE else llvm_type(t.pointee, device, spaces)
        # Address spaces mean something on the GPU only; on the CPU shared memory is ordinary memory.
        space = t.address_space if device else 0
        return pointee.as_pointer(spaces(space) if spaces is not None and device else space)
    if isinstance(t, T.StructType):
        return ll.LiteralStructType([llvm_type(ft, device, spaces) for _, ft in t.fields])
    if t == T.STRING_LITERAL:
        return CHARP
    if t == T.EXCEPTION:
        return ll.LiteralStructType([CHARP, CHARP, CHARP, I32])  # class name, message, object, shown (runtime_exc.px)
    if t == T.NONE:
        return ll.VoidType()
    raise TypeError(f"no LLVM type for {t}")


class ModuleCodegen:
    def __init__(self, module: ir.Module, target: Target, data_layout: str | None = None):
        self.ir_module = module
        self.target = target
        self.device = not target.host  # pointers keep their address space only on a GPU
        self.module = ll.Module(name=module.name)
        self.module.triple = target.triple
        if data_layout:
            self.module.data_layout = data_layout
        self.rt = RuntimeLib(self.module, target.host, facts_for(target))  # E0906 for an unknown host
        self.functions: dict[str, ll.Function] = {}
        self.ir_functions = {f.symbol: f for f in module.functions}
        self.thunks: dict[str, ll.Function] = {}
        self._gpu_cpu = None
        self._pool = None
        layout = _shared_layout(module, lambda: data_layout or target.data_layout)
        self.shared_offsets, self.static_shared_bytes = layout
        self.shared_globals: dict[str, ll.GlobalVariable] = {}
        self.recursion_sites: dict[tuple[str, str, int], int] = {}
        self._recursion_overflow: ll.Function | None = None
        self.racecheck = None
        if target.host and any(isinstance(i, ir.Intrinsic) and i.name in ("racecheck", "racecheck.barrier")
                               for f in module.functions for b in f.blocks for i in b.instrs):
            from .racecheck import RacecheckRuntime

            # Compiled with --racecheck; made before the GPU runtime, whose block loops call its hook.
            self.racecheck = RacecheckRuntime(self)
        self.memcheck = None
        if target.host and any(isinstance(i, ir.Intrinsic) and i.name == "memcheck"
                               for f in module.functions for b in f.blocks for i in b.instrs):
            from .memcheck import MemcheckRuntime

            self.memcheck = MemcheckRuntime(self.rt, self.gpu_cpu)  # compiled with --memcheck

    def llvm_type(self, t: Type) -> ll.Type:
        """The LLVM type of a pyx type for this module's target."""
        return llvm_type(t, self.device, self.target.llvm_address_space if self.target.name == "opencl" else None)

    @property
    def gpu_cpu(self):
        if self._gpu_cpu is None:
            from .gpu_cpu import CpuGpuRuntime

            self._gpu_cpu = CpuGpuRuntime(self.rt, self.pool)
        return self._gpu_cpu

    @property
    def pool(self):
        if self._pool is None:
            from .parallel import ThreadPool

            self._pool = ThreadPool(self.rt)
        return self._pool

    def kernel_synchronizes(self, symbol: str) -> bool:
        """Whether a kernel, or anything it calls, waits for other threads (a barrier or a warp
        operation): only those need a coroutine per thread on the CPU."""
        seen, stack = set(), [symbol]
        while stack:
            f = self.ir_functions[stack.pop()]
            if f.symbol in seen:
                continue
            seen.add(f.symbol)
            for block in f.blocks:
                for i in block.instrs:
                    if ops.synchronizes(i):
                        return True
                    if isinstance(i, ir.Call):
                        stack.append(i.callee)
        return False

    def cpu_kernel(self, symbol: str) -> tuple[ir.Function, int]:
        """What a CPU launch of kernel `symbol` runs, and how (`__pyx_gpu_launch`'s `mode`): its
        `$regions` companion once per block (ir/gpu_regions.py), else one coroutine per thread if it
        synchronizes, else each thread as a plain call."""
        from ..ir.gpu_regions import region_symbol
        from .gpu_cpu import COROUTINES, DIRECT, REGIONS

        regions = self.ir_functions.get(region_symbol(symbol))
        if regions is not None:
            return regions, REGIONS
        return self.ir_functions[symbol], COROUTINES if self.kernel_synchronizes(symbol) else DIRECT

    def piece_thunk(self, f: ir.Function) -> ll.Function:
        """`bool thunk(i8* args, lo, hi, piece)`: unpack a prange's captured values and run one piece."""
        from .parallel import PIECE

        thunk = ll.Function(self.module, PIECE, f.symbol + ".thunk")
        thunk.linkage = "internal"
        b = ll.IRBuilder(thunk.append_basic_block("entry"))
        rest = f.params[3:]
        pack = ll.LiteralStructType([self.llvm_type(p.type) for p in rest])
        packed = b.bitcast(thunk.args[0], pack.as_pointer())
        args = list(thunk.args[1:]) + [b.load(b.gep(packed, [I32(0), I32(k)])) for k in range(len(rest))]
        if f.raises:
            b.ret(b.call(self.functions[f.symbol], args))
        else:
            b.call(self.functions[f.symbol], args)
            b.ret(ll.Constant(I1, 0))
        return thunk

    def kernel_thunk(self, f: ir.Function) -> ll.Function:
        """`bool thunk(i8* args)`: unpack a launch's arguments and run one thread of the kernel."""
        found = self.thunks.get(f.symbol)
        if found is not None:
            return found
        from .gpu_cpu import THUNK

        thunk = ll.Function(self.module, THUNK, f.symbol + ".thunk")
        thunk.linkage = "internal"
        b = ll.IRBuilder(thunk.append_basic_block("entry"))
        pack = ll.LiteralStructType([self.llvm_type(p.type) for p in f.params])
        packed = b.bitcast(thunk.args[0], pack.as_pointer())
        args = [b.load(b.gep(packed, [I32(0), I32(k)])) for k in range(len(f.params))]
        if f.raises:
            b.ret(b.call(self.functions[f.symbol], args))
        else:
            b.call(self.functions[f.symbol], args)
            b.ret(ll.Constant(I1, 0))
        self.thunks[f.symbol] = thunk
        return thunk

    def define_kernel_entries(self) -> None:
        """NVPTX: each kernel becomes a `.entry` (a void function marked in nvvm.annotations)."""
        for f in self.ir_module.functions:
            if not f.kernel:
                continue
            inner = self.functions[f.symbol]
            params = [self.llvm_type(p.type) for p in f.params]
            entry = ll.Function(self.module, ll.FunctionType(ll.VoidType(), params), self.symbol(f.symbol + ".kernel"))
            b = ll.IRBuilder(entry.append_basic_block("entry"))
            if f.raises:  # the exception goes to the status record the host reads (kernel_raised.py)
                from .kernel_raised import note_raise

                slot = [b.alloca(self.llvm_type(f.return_type))] if f.return_type != T.NONE else []
                note_raise(self, b, b.call(inner, slot + list(entry.args)))
            else:
                b.call(inner, list(entry.args))
            b.ret_void()
            self.module.add_named_metadata("nvvm.annotations", [entry, "kernel", I32(1)])

    def generate(self, entry: bool = False, c_main: bool = False, exports: list[str] = (),
                 python_entries: list[str] = (), kernels: list[str] = ()) -> ll.Module:
        for f in self.ir_module.functions:
            self.declare(f)
        for f in self.ir_module.functions:
            FunctionCodegen(self, f).generate()
        if self.target.name == "opencl":
            from .spirv import define_kernel_entries

            define_kernel_entries(self)  # spir_kernel entries (spirv.py)
        elif not self.target.host:
            self.define_kernel_entries()
        if not self.target.host:
            from .convergent import mark_convergent

            mark_convergent(self)  # after the entries, which it marks too
        if self.target.name == "cuda":
            from .device_raise import inline_raise_helpers

            inline_raise_helpers(self.module)  # a call costs registers in every PTX kernel
        if self._recursion_overflow is not None:
            self.define_recursion_overflow()
        if exports or kernels:
            from .exports import define_exception_accessors, define_export, define_kernel_launcher, define_release

            for symbol in exports:
                f = self.ir_functions[symbol]
                define_export(self.module, f, self.functions[symbol], self.llvm_type)
            for symbol in kernels:
                define_kernel_launcher(self, self.ir_functions[symbol], self.llvm_type)
            define_exception_accessors(self.rt)
            define_release(self.rt)
        if python_entries:
            from .pyentry import define_python_entry

            for symbol in python_entries:
                define_python_entry(self.module, self.ir_functions[symbol], self.functions[symbol], self.llvm_type,
                                    self.rt.libc)
        if entry and self.ir_module.main is not None:
            main = self._as_main_module(self.functions[self.ir_module.main])
            entry_fn = self.rt.define_entry(ENTRY_SYMBOL, main, self.ir_functions[self.ir_module.main].raises)
            if c_main:
                self.rt.define_c_main(entry_fn)
        return self.module

    def _as_main_module(self, main: ll.Function) -> ll.Function:
        """`main` run as the program: first the module's `__name__ == "__main__"` flag is set (a
        script's guard reads it: semantics/globals.py), which stays false when Python imports it."""
        flag = self.module.globals.get(main_module_flag(self.ir_module.name))
        if flag is None:
            return main
        wrapper = ll.Function(self.module, main.function_type, "pyx.run_as_main")
        wrapper.linkage = "internal"
        b = ll.IRBuilder(wrapper.append_basic_block("entry"))
        b.store(ll.Constant(flag.value_type, 1), flag)
        result = b.call(main, [])
        b.ret_void() if isinstance(main.function_type.return_type, ll.VoidType) else b.ret(result)
        return wrapper

    def recursion_site(self, func: str, file: str, line: int) -> int:
        return self.recursion_sites.setdefault((func, file, line), len(self.recursion_sites))

    def recursion_overflow(self) -> ll.Function:
        """`noreturn void __pyx_recursion_overflow(i32 site)`, what a recursion body calls when the
        stack is full; defined once every site is known (define_recursion_overflow)."""
        if self._recursion_overflow is None:
            fn = ll.Function(self.module, ll.FunctionType(ll.VoidType(), [I32]), "__pyx_recursion_overflow")
            fn.linkage = "internal"
            for attribute in ("noinline", "cold", "noreturn", "nounwind"):
                fn.attributes.add(attribute)
            self._recursion_overflow = fn
        return self._recursion_overflow

    def define_recursion_overflow(self) -> None:
        """Note the site (function, file and line of the recursive call whose callee found the
        stack full; none for NO_SITE, the entry's own call) in this thread's innermost guard and
        longjmp to it. That guard is the one the body was called under: entries register theirs
        (RuntimeLib.recursion_begin) for as long as they run, and a body checks only where its
        entry found the thread's ExcState (a limit of 0 never fails)."""
        rt, fn = self.rt, self._recursion_overflow
        site_type = ll.LiteralStructType([CHARP, CHARP, I32])
        sites = sorted(self.recursion_sites.items(), key=lambda item: item[1])
        table_type = ll.ArrayType(site_type, max(len(sites), 1))
        entries = [ll.Constant(site_type, [rt.cstr_constant(func), rt.cstr_constant(file), I32(line)])
                   for (func, file, line), _ in sites] or [ll.Constant(site_type, None)]
        table = ll.GlobalVariable(self.module, table_type, "__pyx_recursion_sites")
        table.linkage, table.global_constant, table.initializer = "internal", True, ll.Constant(table_type, entries)
        b = ll.IRBuilder(fn.append_basic_block("entry"))
        site = fn.args[0]
        state = rt.state(b)
        guard = b.bitcast(b.load(rt.exc_at(b, state, "guards")), guard_type(rt.facts).as_pointer())
        known = b.icmp_signed(">=", site, I32(0))
        index = b.select(known, site, I32(0))
        for k, field in ((GUARD_FUNC, 0), (GUARD_FILE, 1), (GUARD_LINE, 2)):
            value = b.load(b.gep(table, [I32(0), index, I32(field)]))
            nothing = ll.Constant(value.type, None) if field < 2 else I32(-1)
            b.store(b.select(known, value, nothing), b.gep(guard, [I32(0), I32(k)]))
        longjmp = rt.libc("longjmp", ll.VoidType(), [CHARP, I32])
        longjmp.attributes.add("noreturn")
        b.call(longjmp, [b.bitcast(b.gep(guard, [I32(0), I32(0)]), CHARP), I32(1)])
        b.unreachable()

    def intrinsic(self, name: str, overloads: list, fnty: ll.FunctionType) -> ll.Function:
        """Declare `name.<suffixes>` (llvm.floor.v8f64): LLVM's overloaded-intrinsic naming."""
        full = ".".join([name] + [_suffix(t) for t in overloads])
        fn = self.module.globals.get(full)
        return fn if fn is not None else ll.Function(self.module, fnty, full)

    def symbol(self, name: str) -> str:
        """PTX identifiers allow only [A-Za-z0-9_$]; other targets keep the readable name."""
        if self.target.host:
            return name
        return ptx_name(name)

    def global_slot(self, var: ir.Var, span) -> ll.Value:
        """A module-level variable's storage: one zero-initialised global per name, which every
        function using it shares (its `.defined` flag starts false, so a read before the script
        assigns it raises NameError)."""
        if not self.target.host:
            raise UnsupportedOnTarget(f"module-level variable `{var.name}`", span)
        slot = self.module.globals.get(var.global_symbol)
        if slot is None:
            ty = self.llvm_type(var.type)
            slot = ll.GlobalVariable(self.module, ty, var.global_symbol)
            slot.initializer = ll.Constant(ty, None)
            slot.linkage = "internal"
        return slot

    def declare(self, f: ir.Function) -> None:
        params = [self.llvm_type(p.type).as_pointer() if p.by_ref else self.llvm_type(p.type) for p in f.params]
        ret = self.llvm_type(f.return_type)
        if f.raises:
            if f.return_type != T.NONE:
                params.insert(0, ret.as_pointer())
            ret = I1
        fn = ll.Function(self.module, ll.FunctionType(ret, params), self.symbol(f.symbol))
        if not f.exported:
            fn.linkage = "internal"
        if f.recursion_limit is not None and self.target.host:
            fn.calling_convention = "swiftcc"
            fn.args[f.params.index(f.recursion_limit) - len(f.params)].add_attribute("swiftself")
        if f.inline:
            fn.attributes.add("alwaysinline" if f.inline == "always" else "noinline")
        if f.raises and f.return_type != T.NONE:
            fn.args[0].add_attribute("noalias")
        if f.noalias:
            offset = 1 if f.raises and f.return_type != T.NONE else 0
            for p, arg in zip(f.params, fn.args[offset:]):
                if isinstance(p.type, T.PtrType):
                    arg.add_attribute("noalias")
        self.functions[f.symbol] = fn


def local_name(name: str) -> str:
    """The name of a variable's slot or argument. LLVM cuts local names at 1024 bytes when it reads
    IR text, so two long names that differ only after that would become one ("multiple definition"):
    a long name keeps its start and gets a digest of the whole, unique and the same every run."""
    if len(name.encode("utf-8")) <= _MAX_LOCAL_NAME:
        return name
    import hashlib

    return f"{name[:64]}.{hashlib.sha256(name.encode('utf-8')).hexdigest()[:16]}"


# A caught exception's fields (T.EXCEPTION's LLVM struct), read from and written back to the state.
EXC_FIELDS = ("kind", "message", "payload", "shown")
_MAX_LOCAL_NAME = 256


class FunctionCodegen:
    def __init__(self, mg: ModuleCodegen, f: ir.Function):
        self.mg = mg
        self.f = f
        self.fn = mg.functions[f.symbol]
        self.temps: dict[int, ll.Value] = {}
        self.slots: dict[ir.Var, ll.Value] = {}
        self.blocks: dict[ir.Block, ll.Block] = {}
        self.has_out = f.raises and f.return_type != T.NONE
        self.hidden = is_stdlib_file(f.file) or f.frameless  # no traceback frames of its own

    def generate(self) -> None:
        entry = self.fn.append_basic_block("alloca")
        self.b = ll.IRBuilder(entry)
        for block in self.f.blocks:
            self.blocks[block] = self.fn.append_basic_block(block.label)
        args = list(self.fn.args[1:] if self.has_out else self.fn.args)
        for var in self.f.params + [v for v in self.f.vars if v not in self.f.params]:
            if var.global_symbol is not None:
                self.slots[var] = self.mg.global_slot(var, self.f.span)
            elif not var.by_ref:
                self.slots[var] = self.b.alloca(self.mg.llvm_type(var.type), name=local_name(var.name))
        for var, arg in zip(self.f.params, args):
            arg.name = local_name(var.name)
            if var.by_ref:
                # `mut`: the caller's variable is the slot; LLVM sees no alias between two of them
                # because the checker refuses one variable passed to two `mut` parameters.
                arg.add_attribute("noalias")
                self.slots[var] = arg
            else:
                self.b.store(arg, self.slots[var])
        self.b.branch(self.blocks[self.f.blocks[0]])
        for block in self.f.blocks:
            self.b.position_at_end(self.blocks[block])
            for instr in block.instrs:
                self.instr(instr)
            self.term(block.term)

    # ---- values ----
    def value(self, v: ir.Value) -> ll.Value:
        if isinstance(v, ir.Temp):
            return self.temps[v.id]
        if isinstance(v, ir.Ref):
            return self.slots[v.var]
        if isinstance(v, ir.Undef):
            return ll.Constant(self.mg.llvm_type(v.type), ll.Undefined)
        if v.type == T.STRING_LITERAL:
            return self.mg.rt.cstr(self.b, v.value)
        value = T.bfloat16_bits(v.value) if T.elem_type(v.type) == T.BFLOAT16 else v.value
        if isinstance(v.type, T.SIMDType):
            lane = ll.Constant(self.mg.llvm_type(v.type.elem), value)
            return ll.Constant(self.mg.llvm_type(v.type), [lane] * v.type.width)
        return ll.Constant(self.mg.llvm_type(v.type), value)

    def define(self, result: ir.Temp | None, value: ll.Value) -> None:
        if result is not None:
            self.temps[result.id] = value

    # ---- instructions ----
    def instr(self, i: ir.Instr) -> None:
        getattr(self, "instr_" + type(i).__name__)(i)

    def instr_Load(self, i: ir.Load):
        self.define(i.result, self.b.load(self.slots[i.var]))

    def instr_Store(self, i: ir.Store):
        self.b.store(self.value(i.value), self.slots[i.var])

    def instr_AddressOf(self, i: ir.AddressOf):
        self.define(i.result, self.slots[i.var])  # (a pointer: every Ptr is an opaque `ptr`)

    def instr_FnAddr(self, i: ir.FnAddr):  # functions chosen at run time (codegen/function_values.py)
        function_values.address(self, i)

    def instr_CallFn(self, i: ir.CallFn):
        function_values.call(self, i)

    def instr_BindRef(self, i: ir.BindRef):
        # The variable has no alloca (by_ref): its slot is this address, in the entry block,
        # before any block that uses it is generated.
        self.slots[i.var] = self.value(i.ptr)

    def instr_BinOp(self, i: ir.BinOp):
        a, b = self.value(i.a), self.value(i.b)
        if self.f.fastmath and i.op in ("fadd", "fsub", "fmul", "fdiv", "frem"):
            op = {"fadd": self.b.fadd, "fsub": self.b.fsub, "fmul": self.b.fmul, "fdiv": self.b.fdiv,
                  "frem": self.b.frem}[i.op]
            self.define(i.result, op(a, b, flags=("fast",)))
            return
        op = {"add": self.b.add, "sub": self.b.sub, "mul": self.b.mul, "sdiv": self.b.sdiv, "udiv": self.b.udiv,
              "srem": self.b.srem, "urem": self.b.urem, "fadd": self.b.fadd, "fsub": self.b.fsub,
              "fmul": self.b.fmul, "fdiv": self.b.fdiv, "frem": self.b.frem, "and": self.b.and_,
              "or": self.b.or_, "xor": self.b.xor, "shl": self.b.shl, "ashr": self.b.ashr,
              "lshr": self.b.lshr}[i.op]
        self.define(i.result, op(a, b))

    def instr_Cmp(self, i: ir.Cmp):
        a, b = self.value(i.a), self.value(i.b)
        if i.pred in _FLOAT_PRED:
            if i.pred.startswith("u"):
                self.define(i.result, self.b.fcmp_unordered(_FLOAT_PRED[i.pred], a, b))
            else:
                self.define(i.result, self.b.fcmp_ordered(_FLOAT_PRED[i.pred], a, b))
        elif i.pred.startswith("u"):
            self.define(i.result, self.b.icmp_unsigned(_INT_PRED[i.pred], a, b))
        else:
            self.define(i.result, self.b.icmp_signed(_INT_PRED[i.pred], a, b))

    def instr_Cast(self, i: ir.Cast):
        a = self.value(i.a)
        to = self.mg.llvm_type(i.result.type)
        if i.kind == "bitcast":
            self.define(i.result, self.b.bitcast(a, to) if a.type != to else a)  # pointers, float bits
            return
        if T.elem_type(i.result.type) == T.BFLOAT16:  # from Float32 or Float64 (ir.bfloat16)
            self.define(i.result, to_bfloat16(self.b, a))
            return
        if T.elem_type(i.a.type) == T.BFLOAT16:  # to Float32
            self.define(i.result, from_bfloat16(self.b, a))
            return
        if i.kind == "fptrunc" and self.mg.target.host and _is_double_to_half(a.type, to):
            self.define(i.result, double_to_half(self.b, a))
            return
        self.define(i.result, getattr(self.b, i.kind)(a, to))

    def instr_Extract(self, i: ir.Extract):
        self.define(i.result, self.b.extract_value(self.value(i.agg), i.index))

    def instr_Insert(self, i: ir.Insert):
        self.define(i.result, self.b.insert_value(self.value(i.agg), self.value(i.value), i.index))

    def element_address(self, ptr: ir.Value, index: ir.Value, value_type: Type) -> ll.Value:
        address = self.b.gep(self.value(ptr), [self.value(index)])
        if isinstance(value_type, T.SIMDType):
            # The LLVM pointer's own address space: on the CPU, GPU shared memory is ordinary memory.
            address = self.b.bitcast(address, self.mg.llvm_type(value_type).as_pointer(address.type.addrspace))
        return address

    def instr_PtrOffset(self, i: ir.PtrOffset):
        self.define(i.result, self.b.gep(self.value(i.ptr), [self.value(i.index)]))

    def instr_PtrLoad(self, i: ir.PtrLoad):
        address = self.element_address(i.ptr, i.index, i.result.type)
        self.define(i.result, self.b.load(address, align=_align(i.ptr.type.pointee)))

    def instr_PtrStore(self, i: ir.PtrStore):
        address = self.element_address(i.ptr, i.index, i.value.type)
        self.b.store(self.value(i.value), address, align=_align(i.ptr.type.pointee))

    def instr_Alloc(self, i: ir.Alloc):
        if not self.mg.target.host:
            raise UnsupportedOnTarget("Ptr.alloc", i.span)
        i64 = ll.IntType(64)
        pty = self.mg.llvm_type(i.result.type)
        size = self.b.ptrtoint(self.b.gep(ll.Constant(pty, None), [I32(1)]), i64)
        # count * sizeof(T) must not wrap: alloc(2**61 + 1) of Int would get 8 bytes and the
        # writes after it would run off the heap. The lowering has already refused count < 0, so
        # an unsigned overflow is the only way the product can be wrong; it yields the null
        # pointer, which the lowering turns into MemoryError (what CPython raises for `[0] * 2**62`).
        umul = self.mg.intrinsic("llvm.umul.with.overflow", [i64],
                                 ll.FunctionType(ll.LiteralStructType([i64, I1]), [i64, i64]))
        product = self.b.call(umul, [size, self.value(i.count)])
        nbytes, overflow = self.b.extract_value(product, 0), self.b.extract_value(product, 1)
        # At least one byte: malloc(0) may return NULL (C allows it), which would read as
        # MemoryError for `[]` or alloc(0).
        request = self.b.select(self.b.icmp_unsigned("==", nbytes, ll.Constant(i64, 0)), ll.Constant(i64, 1), nbytes)
        malloc = self.mg.rt.libc("malloc", CHARP, [i64])
        if i.align > 16:  # beyond malloc's own: C11's aligned_alloc wants a multiple of it
            aligned_alloc = self.mg.rt.libc("aligned_alloc", CHARP, [i64, i64])
            mask = ll.Constant(i64, i.align - 1)
            rounded = self.b.and_(self.b.add(request, mask), self.b.not_(mask))
            if_huge = self.b.icmp_unsigned("<", rounded, request)  # the rounding wrapped
            overflow = self.b.or_(overflow, if_huge)
            request = rounded
        with self.b.if_else(overflow, likely=False) as (too_big, fits):
            with too_big:
                too_big_end = self.b.block
            with fits:
                allocated = hooks.device_or_cpu(self.b, self.mg.module, ALLOC_HOOK, hooks.ALLOC,
                                                lambda alloc: self.b.call(alloc, [request]),
                                                lambda: self.b.call(malloc, [request]) if i.align <= 16 else
                                                self.b.call(aligned_alloc, [ll.Constant(i64, i.align), request]))
                if self.mg.memcheck is not None:
                    # Only memory that exists: a null pointer registered as [0, n) would make
                    # every low address look valid once a MemoryError has been caught.
                    with self.b.if_then(self.b.icmp_unsigned("!=", allocated, ll.Constant(CHARP, None))):
                        self.b.call(self.mg.memcheck.register, [allocated, nbytes])
                fits_end = self.b.block
        raw = self.b.phi(CHARP)
        raw.add_incoming(ll.Constant(CHARP, None), too_big_end)
        raw.add_incoming(allocated, fits_end)
        self.define(i.result, self.b.bitcast(raw, pty))

    def instr_Free(self, i: ir.Free):
        if not self.mg.target.host:
            raise UnsupportedOnTarget("Ptr.free", i.span)
        raw = self.b.bitcast(self.value(i.ptr), CHARP)
        if self.mg.memcheck is not None:
            self.b.call(self.mg.memcheck.unregister, [raw])
        hooks.free(self.b, self.mg.module, self.mg.rt.libc, raw)

    def instr_Splat(self, i: ir.Splat):
        vty = self.mg.llvm_type(i.result.type)
        one = self.b.insert_element(ll.Constant(vty, ll.Undefined), self.value(i.value), I32(0))
        zeros = ll.Constant(ll.VectorType(I32, i.result.type.width), [I32(0)] * i.result.type.width)
        self.define(i.result, self.b.shuffle_vector(one, ll.Constant(vty, ll.Undefined), zeros))

    def instr_ExtractLane(self, i: ir.ExtractLane):
        self.define(i.result, self.b.extract_element(self.value(i.vector), self.value(i.index)))

    def instr_InsertLane(self, i: ir.InsertLane):
        self.define(i.result, self.b.insert_element(self.value(i.vector), self.value(i.value), self.value(i.index)))

    def instr_Shuffle(self, i: ir.Shuffle):
        v = self.value(i.vector)
        mask = ll.Constant(ll.VectorType(I32, len(i.lanes)), [I32(x) for x in i.lanes])
        self.define(i.result, self.b.shuffle_vector(v, ll.Constant(v.type, ll.Undefined), mask))

    def instr_Reduce(self, i: ir.Reduce):
        vt = i.vector.type
        et = vt.elem
        vector = self.value(i.vector)
        ety, vty = self.mg.llvm_type(et), self.mg.llvm_type(vt)
        if et.is_float and i.kind in ("add", "mul"):
            # Tree order, like every SIMD library: exact sequential order would forbid vector code.
            name = "llvm.vector.reduce.f" + i.kind
            fn = self.mg.intrinsic(name, [vty], ll.FunctionType(ety, [ety, vty]))
            start = ll.Constant(ety, 0.0 if i.kind == "add" else 1.0)
            self.define(i.result, self.b.call(fn, [start, vector], fastmath=("reassoc",)))
            return
        if et.is_float:
            kind = "f" + i.kind
        elif i.kind in ("min", "max"):
            kind = ("s" if et.is_signed else "u") + i.kind
        else:
            kind = i.kind
        fn = self.mg.intrinsic("llvm.vector.reduce." + kind, [vty], ll.FunctionType(ety, [vty]))
        self.define(i.result, self.b.call(fn, [vector]))

    def instr_Select(self, i: ir.Select):
        self.define(i.result, self.b.select(self.value(i.cond), self.value(i.a), self.value(i.b)))

    def instr_Intrinsic(self, i: ir.Intrinsic):
        """Lower an operation of ir/ops.py's table by its entry: the targets it runs on, and the
        handler of its family (`op_<lowering>`), which returns its value (None if it gives none)."""
        spec = ops.spec_of(i)
        if spec is None:  # the verifier reports this with the instruction; here it can only be a bug
            raise AssertionError(f"unknown operation {i.name}")
        if (ops.HOST if self.mg.target.host else ops.DEVICE) not in spec.targets:
            raise UnsupportedOnTarget(spec.feature, i.span)
        value = getattr(self, "op_" + spec.lowering)(i, spec, [self.value(a) for a in i.args])
        if i.result is not None:
            self.define(i.result, value)

    def line_of(self, i: ir.Instr) -> int:
        """The source line a run-time error reports: -1 in code that has no traceback frame."""
        return i.span.line if i.span is not None and not self.hidden else -1

    def op_prefetch(self, i: ir.Intrinsic, spec: ops.OpSpec, args):
        """`p.prefetch(i)`: llvm.prefetch for a read, kept in every cache level (locality 3), of data.
        Only a hint, so a GPU target drops it rather than depend on each backend taking it."""
        if not self.mg.target.host:
            return None
        i8p, i32 = ll.IntType(8).as_pointer(), ll.IntType(32)
        fn = self.mg.intrinsic("llvm.prefetch.p0", [], ll.FunctionType(ll.VoidType(), [i8p, i32, i32, i32]))
        self.b.call(fn, [self.b.bitcast(args[0], i8p), ll.Constant(i32, 0), ll.Constant(i32, 3), ll.Constant(i32, 1)])
        return None

    def op_fneg(self, i: ir.Intrinsic, spec: ops.OpSpec, args):
        return self.b.fneg(args[0])

    def op_llvm_math(self, i: ir.Intrinsic, spec: ops.OpSpec, args):
        return self.math(spec.variant, args, i.result.type)

    def op_math_function(self, i: ir.Intrinsic, spec: ops.OpSpec, args):
        return self.math_function(spec.variant, args, i.args[0].type, i.result.type, i.span)

    def op_gpu_index(self, i: ir.Intrinsic, spec: ops.OpSpec, args):
        return _gpu_ops().index(self, spec.variant, i.attrs["axis"])

    def op_gpu_lane_id(self, i: ir.Intrinsic, spec: ops.OpSpec, args):
        return _gpu_ops().lane_id(self)

    def op_gpu_barrier(self, i: ir.Intrinsic, spec: ops.OpSpec, args):
        return _gpu_ops().barrier(self, i)

    def op_gpu_warp(self, i: ir.Intrinsic, spec: ops.OpSpec, args):
        return _gpu_ops().warp(self, i, spec.variant, args)

    def op_gpu_atomic(self, i: ir.Intrinsic, spec: ops.OpSpec, args):
        return _gpu_ops().atomic(self, i, spec.variant, args)

    def op_gpu_shared_array(self, i: ir.Intrinsic, spec: ops.OpSpec, args):
        return _gpu_ops().shared_array(self, i)

    def op_gpu_dynamic_shared(self, i: ir.Intrinsic, spec: ops.OpSpec, args):
        return _gpu_ops().dynamic_shared(self, i)

    def op_gpu_region(self, i: ir.Intrinsic, spec: ops.OpSpec, args):
        return self.mg.gpu_cpu.region_op(self, i, spec.variant, args)  # a kernel's thread loops (gpu_cpu.py)

    def op_racecheck(self, i: ir.Intrinsic, spec: ops.OpSpec, args):
        return self.mg.racecheck.op(self, i, spec.variant, args)  # --racecheck (codegen/racecheck.py)

    def op_memcheck(self, i: ir.Intrinsic, spec: ops.OpSpec, args):
        ptr = i.args[0]
        pty = self.mg.llvm_type(ptr.type)
        elem_bytes = self.b.ptrtoint(self.b.gep(ll.Constant(pty, None), [I32(1)]), ll.IntType(64))
        rt, line = self.mg.rt, i.span.line if i.span is not None else 0
        return self.b.call(self.mg.memcheck.check, [
            self.b.ptrtoint(args[0], ll.IntType(64)), args[1], elem_bytes, args[2], self.b.zext(args[3], I32),
            I32(ptr.type.address_space), rt.cstr(self.b, str(ptr.type.pointee)), rt.cstr(self.b, self.f.name),
            rt.cstr(self.b, self.f.file), I32(line)])

    def op_exc_matches(self, i: ir.Intrinsic, spec: ops.OpSpec, args):
        if self.mg.device:
            raise ExceptionTypeInDeviceCode("`except` naming an exception type", i.span)
        rt, strcmp = self.mg.rt, self.mg.rt.libc("strcmp", I32, [CHARP, CHARP])
        current = self.b.load(rt.exc_field(self.b, "kind"))
        hit = ll.Constant(I1, 0)
        for name in args:
            hit = self.b.or_(hit, self.b.icmp_signed("==", self.b.call(strcmp, [current, name]), I32(0)))
        return hit

    def op_exc_is(self, i: ir.Intrinsic, spec: ops.OpSpec, args):
        if self.mg.device:
            raise ExceptionTypeInDeviceCode("`isinstance` of a caught exception", i.span)
        strcmp = self.mg.rt.libc("strcmp", I32, [CHARP, CHARP])
        kind = self.b.extract_value(args[0], 0)
        hit = ll.Constant(I1, 0)
        for name in args[1:]:
            hit = self.b.or_(hit, self.b.icmp_signed("==", self.b.call(strcmp, [kind, name]), I32(0)))
        return hit

    def op_exc_stopping(self, i: ir.Intrinsic, spec: ops.OpSpec, args):
        if self.mg.device:
            return ll.Constant(I1, 0)
        rt, strcmp = self.mg.rt, self.mg.rt.libc("strcmp", I32, [CHARP, CHARP])
        current = self.b.load(rt.exc_field(self.b, "kind"))
        return self.b.icmp_signed("==", self.b.call(strcmp, [current, rt.cstr(self.b, UNCATCHABLE)]), I32(0))

    def op_exc_kind(self, i: ir.Intrinsic, spec: ops.OpSpec, args):
        return self.b.extract_value(args[0], 0)

    def op_exc_value(self, i: ir.Intrinsic, spec: ops.OpSpec, args):
        if self.mg.device:
            raise ExceptionTypeInDeviceCode("`except ... as` binding the exception", i.span)
        pair = ll.Constant(self.mg.llvm_type(T.EXCEPTION), ll.Undefined)
        state = self.mg.rt.state(self.b)
        for k, name in enumerate(EXC_FIELDS):
            pair = self.b.insert_value(pair, self.b.load(self.mg.rt.exc_at(self.b, state, name)), k)
        return pair

    def op_exc_restore(self, i: ir.Intrinsic, spec: ops.OpSpec, args):
        if self.mg.device:
            raise ExceptionTypeInDeviceCode("`raise` of a caught exception value", i.span)
        state = self.mg.rt.state(self.b)
        for k, name in enumerate(EXC_FIELDS):
            self.b.store(self.b.extract_value(args[0], k), self.mg.rt.exc_at(self.b, state, name))

    def op_exc_payload(self, i: ir.Intrinsic, spec: ops.OpSpec, args):
        if self.mg.device:
            raise ExceptionTypeInDeviceCode("an attribute of a caught exception", i.span)
        return self.b.bitcast(self.b.extract_value(args[0], 2), self.mg.llvm_type(i.result.type))

    def op_exc_set_payload(self, i: ir.Intrinsic, spec: ops.OpSpec, args):
        if self.mg.device:
            raise ExceptionTypeInDeviceCode("`raise` of an exception class with an `__init__`", i.span)
        self.b.call(self.mg.rt.exc_keep(), [self.b.bitcast(args[0], CHARP), self.payload_drop(i.attrs["drop"])])

    def payload_drop(self, symbol: str) -> ll.Value:
        """`void drop(payload)` for `__pyx_exc_keep`: one reference to the object taken away, by its
        handle's `__del__` (`symbol`, which frees it with the last)."""
        name = "__pyx_exc_drop." + symbol
        fn = self.mg.module.globals.get(name)
        if fn is None:
            fn = ll.Function(self.mg.module, ll.FunctionType(ll.VoidType(), [CHARP]), name)
            fn.linkage = "internal"
            b = ll.IRBuilder(fn.append_basic_block("entry"))
            destructor = self.mg.functions[symbol]
            handle = destructor.function_type.args[0]
            value = b.insert_value(ll.Constant(handle, ll.Undefined), b.bitcast(fn.args[0], handle.elements[0]), 0)
            b.call(destructor, [value], cconv="swiftcc" if destructor.calling_convention == "swiftcc" else None)
            b.ret_void()
        return self.b.bitcast(fn, CHARP)

    def op_raise_text(self, i: ir.Intrinsic, spec: ops.OpSpec, args):
        rt = self.mg.rt
        self.b.call(rt.raise_text, [*args, rt.cstr(self.b, self.f.name), rt.cstr(self.b, self.f.file),
                                    I32(self.line_of(i))])

    def op_exc_message(self, i: ir.Intrinsic, spec: ops.OpSpec, args):
        return self.b.extract_value(args[0], 1)

    def op_exc_shown(self, i: ir.Intrinsic, spec: ops.OpSpec, args):
        return self.b.zext(self.b.extract_value(args[0], EXC_FIELDS.index("shown")), ll.IntType(64))

    def op_exc_set_shown(self, i: ir.Intrinsic, spec: ops.OpSpec, args):
        if self.mg.device:
            raise ExceptionTypeInDeviceCode("`raise` of an exception value", i.span)
        self.b.store(self.b.trunc(args[0], I32), self.mg.rt.exc_field(self.b, "shown"))

    def op_texts_mark(self, i: ir.Intrinsic, spec: ops.OpSpec, args):
        return self.b.load(self.mg.rt.exc_field(self.b, "texts"))

    def op_texts_release(self, i: ir.Intrinsic, spec: ops.OpSpec, args):
        self.b.call(self.mg.rt.texts_release, args)

    def frame_of(self, i: ir.Intrinsic) -> list[ll.Value]:
        """Function, file and line, for the runtime's traceback entry."""
        rt = self.mg.rt
        return [rt.cstr(self.b, self.f.name), rt.cstr(self.b, self.f.file), I32(self.line_of(i))]

    def op_stdout_failed(self, i: ir.Intrinsic, spec: ops.OpSpec, args):
        if not self.mg.target.host:
            from . import device_print

            return device_print.flush(self)  # the print statement's one vprintf
        return self.b.call(self.mg.rt.stdout_check(), self.frame_of(i))

    def op_text_unencodable(self, i: ir.Intrinsic, spec: ops.OpSpec, args):
        """A String about to be printed: text that is all ASCII (as many bytes as code points), or
        has no byte 0xED (C's memchr; a surrogate's first byte, as a few Hangul's), is written as it
        is; other text is looked at for a lone surrogate (runtime_lib.text_check)."""
        b, rt = self.b, self.mg.rt
        data, size, length = args
        fine = ll.Constant(I1, 0)
        before = b.block
        with b.if_then(b.icmp_signed("!=", size, length), likely=False):
            found = b.call(rt.libc("memchr"), [data, I32(0xED), size])
            searched = b.block
            with b.if_then(b.icmp_unsigned("!=", found, ll.Constant(CHARP, None)), likely=False):
                raised = b.call(rt.text_check(), [data, size, *self.frame_of(i)])
                looked = b.block
            inner = b.phi(I1)
            inner.add_incoming(fine, searched)
            inner.add_incoming(raised, looked)
            wide = b.block
        result = b.phi(I1)
        result.add_incoming(fine, before)
        result.add_incoming(inner, wide)
        return result

    def op_interrupt_poll(self, i: ir.Intrinsic, spec: ops.OpSpec, args):
        return self.mg.rt.interrupt_poll(self.b, *self.frame_of(i))

    def op_print_exception(self, i: ir.Intrinsic, spec: ops.OpSpec, args):
        self.b.call(self.mg.rt.print_fn("print_str"), [self.b.extract_value(args[0], 1)])

    def op_print(self, i: ir.Intrinsic, spec: ops.OpSpec, args):
        if not self.mg.target.host:
            from . import device_print

            return device_print.add(self, i, spec, args)
        self.b.call(self.mg.rt.print_fn(spec.variant), args)

    def frame_address(self) -> ll.Value:
        """The stack pointer, to compare with the stack limit. Read with `llvm.read_register` marked
        as reading no memory: within one function the stack pointer is the same wherever it is read
        (the frame is fixed; pyx makes no dynamic allocas), and saying so lets LLVM hoist a body's
        check out of the loop it made of a recursive call, and merge the checks of bodies inlined
        into one another. (Not the address of a local: a local whose address is taken keeps LLVM
        from turning a recursive call into a loop; not `llvm.stacksave`, which LLVM must keep in
        place.)"""
        register = self.mg.rt.facts.stack_pointer_register if self.mg.target.host else None
        if register is None:
            stacksave = self.mg.module.globals.get("llvm.stacksave.p0") or ll.Function(
                self.mg.module, ll.FunctionType(CHARP, []), "llvm.stacksave.p0")
            return self.b.ptrtoint(self.b.call(stacksave, []), I64)
        read = self.mg.module.globals.get("llvm.read_register.i64") or ll.Function(
            self.mg.module, ll.FunctionType(I64, [ll.MetaDataType()]), "llvm.read_register.i64")
        name = self.mg.module.add_metadata([ll.MetaDataString(self.mg.module, register)])
        return self.b.call(read, [name], attrs=("readnone", "nounwind"))

    # The stack guard of ir/recursion.py: an entry's operand is a RecursionGuard in its frame.
    def guard_of(self, args) -> ll.Value:
        return self.b.bitcast(args[0], guard_type(self.mg.rt.facts).as_pointer())

    def op_recursion_guard(self, i: ir.Intrinsic, spec: ops.OpSpec, args):
        with self.b.goto_entry_block():
            slot = self.b.alloca(guard_type(self.mg.rt.facts), name="recursion.guard")
            slot.align = 16
        guard = self.b.bitcast(slot, CHARP)
        self.b.call(self.mg.rt.recursion_begin(guard_type(self.mg.rt.facts)), [guard])
        return guard

    def op_recursion_enter(self, i: ir.Intrinsic, spec: ops.OpSpec, args):
        guard = self.guard_of(args)
        limit = self.b.load(self.b.gep(guard, [I32(0), I32(GUARD_LIMIT)]))
        ran_out, setjmp_bb, after = (self.fn.append_basic_block(n) for n in ("stack.full", "setjmp", "entered"))
        self.b.cbranch(self.b.icmp_unsigned("<", self.frame_address(), limit), ran_out, setjmp_bb)
        self.b.position_at_end(ran_out)  # a cycle through entries (a prange body calling f): no frame here
        for k, value in ((GUARD_FUNC, ll.Constant(CHARP, None)), (GUARD_FILE, ll.Constant(CHARP, None)),
                         (GUARD_LINE, I32(-1))):
            self.b.store(value, self.b.gep(guard, [I32(0), I32(k)]))
        self.b.branch(after)
        self.b.position_at_end(setjmp_bb)
        buffer = self.b.bitcast(self.b.gep(guard, [I32(0), I32(0)]), CHARP)
        setjmp = self.mg.rt.libc("_setjmp", I32, [CHARP])
        setjmp.attributes.add("returns_twice")
        jumped = self.b.icmp_signed("!=", self.b.call(setjmp, [buffer]), I32(0))
        self.b.branch(after)
        self.b.position_at_end(after)
        over = self.b.phi(I1)
        over.add_incoming(ll.Constant(I1, 1), ran_out)
        over.add_incoming(jumped, setjmp_bb)
        return over

    def op_recursion_limit(self, i: ir.Intrinsic, spec: ops.OpSpec, args):
        return self.b.load(self.b.gep(self.guard_of(args), [I32(0), I32(GUARD_LIMIT)]))

    def op_recursion_leave(self, i: ir.Intrinsic, spec: ops.OpSpec, args):
        """The guard this entry registered stops being the thread's innermost (it was not
        registered where the thread has no ExcState of its own)."""
        guard = self.guard_of(args)
        state = self.b.load(self.b.gep(guard, [I32(0), I32(GUARD_STATE)]))
        with self.b.if_then(self.b.icmp_unsigned("!=", state, ll.Constant(CHARP, None))):
            slot = self.mg.rt.exc_at(self.b, self.b.bitcast(state, self.mg.rt.main_state.type), "guards")
            self.b.store(self.b.load(self.b.gep(guard, [I32(0), I32(GUARD_PREV)])), slot)

    def op_recursion_raise(self, i: ir.Intrinsic, spec: ops.OpSpec, args):
        rt, guard = self.mg.rt, self.guard_of(args)
        func, file, at = (self.b.load(self.b.gep(guard, [I32(0), I32(k)])) for k in (GUARD_FUNC, GUARD_FILE,
                                                                                     GUARD_LINE))
        self.b.call(rt.raise_, [rt.cstr(self.b, "RecursionError"), rt.cstr(self.b, RECURSION_MESSAGE), func,
                                file, at])

    def op_recursion_site(self, i: ir.Intrinsic, spec: ops.OpSpec, args):
        """A recursive call's number in this module's table of sites (function, file, line): what
        the callee's check reports if the call finds the stack full."""
        return I32(self.mg.recursion_site(self.f.name, self.f.file, self.line_of(i)))

    def op_recursion_check(self, i: ir.Intrinsic, spec: ops.OpSpec, args):
        """A body's prologue: below the limit, longjmp to the thread's innermost guard (cold)."""
        limit, site = args
        ran_out = self.b.icmp_unsigned("<", self.frame_address(), limit)
        with self.b.if_then(ran_out, likely=False):
            self.b.call(self.mg.recursion_overflow(), [site])
            self.b.unreachable()

    def op_extern_ptr(self, i: ir.Intrinsic, spec: ops.OpSpec, args):
        """A call through a C function pointer (semantics/c_functions.py), typed by its arguments."""
        ret = self.mg.llvm_type(i.result.type) if i.result is not None else ll.VoidType()
        fnty = ll.FunctionType(ret, [a.type for a in args[1:]])
        return self.b.call(self.b.bitcast(args[0], fnty.as_pointer()), args[1:])

    def op_host_atomic(self, i: ir.Intrinsic, spec: ops.OpSpec, args):
        """Host atomics with C11's orderings (semantics/c_functions.py)."""
        b, ordering, kind = self.b, i.attrs["ordering"], spec.variant
        pointee = i.args[0].type.pointee
        size = pointee.bits // 8 if isinstance(pointee, ScalarType) else 8  # (an integer, or a host pointer)
        if kind == "load":
            return b.load_atomic(args[0], ordering, size)
        if kind == "store":
            b.store_atomic(args[1], args[0], ordering, size)
            return None
        if kind == "cmpxchg":  # the failure ordering: the strongest a load may have, as C's default
            failure = {"acq_rel": "acquire", "release": "monotonic"}.get(ordering, ordering)
            return b.extract_value(b.cmpxchg(args[0], args[1], args[2], ordering, failure), 1)
        return b.atomic_rmw(kind, args[0], args[1], ordering)

    def op_extern(self, i: ir.Intrinsic, spec: ops.OpSpec, args):
        """A C function by name: libc and libm resolve in the process; the runtime's own helpers
        (`__pyx_format_f64`, ...) are defined in this module on first use."""
        symbol = i.attrs["symbol"]
        ret = self.mg.llvm_type(i.result.type) if i.result is not None else ll.VoidType()
        variadic = call_variadic(self.b, symbol, ret, args, [a.type for a in i.args], self.mg.module)
        if variadic is not None:  # snprintf and friends: called as C calls a variadic function
            return variadic
        fnty = ll.FunctionType(ret, [a.type for a in args])
        fn = self.mg.rt.helper(symbol) if symbol.startswith("__pyx_") else None
        if fn is None:
            fn = self.mg.module.globals.get(symbol)
            if fn is None:
                fn = ll.Function(self.mg.module, fnty, symbol)
        if fn.function_type != fnty:  # another call site declared it differently: call it as this one
            fn = self.b.bitcast(fn, fnty.as_pointer())
        return self.b.call(fn, args)

    def math(self, name: str, args, t: Type) -> ll.Value:
        ty = self.mg.llvm_type(t)
        if name == "pow" and self.mg.target.host and t == T.FLOAT64 and not self.f.fastmath:
            # Python's float `**` is C's pow(). LLVM rewrites `llvm.pow` with a constant operand:
            # pow(x, 0.5) as sqrt(x), pow(2.0, x) as exp2(x), which round otherwise than glibc's pow in
            # about one case in a thousand, and a simulation then drifts from CPython's (examples/nbody.py
            # did after 80000 steps). A `nobuiltin` call of libm's pow is left as written.
            fn = self.mg.rt.libc("pow", ty, [ty, ty])
            fn.attributes.add("nobuiltin")
            return self.b.call(fn, args)
        if not self.mg.target.host and name not in NVPTX_NATIVE and self.mg.target.name != "opencl":
            return self.math_function({"pow": "pow"}.get(name, name), args, t, t, None)
        fnty = ll.FunctionType(ty, [ty] * len(args))
        fn = self.mg.intrinsic("llvm." + name, [ty], fnty)
        return self.b.call(fn, args, fastmath=("fast",) if self.f.fastmath else ())

    def math_function(self, op: str, args, arg_type: Type, result_type: Type, span) -> ll.Value:
        et = T.elem_type(arg_type)
        if op in ("isnan", "isinf", "isfinite"):
            x = args[0]
            if op == "isnan":
                return self.b.fcmp_unordered("uno", x, x)
            inf = ll.Constant(x.type, [ll.Constant(self.mg.llvm_type(et), float("inf"))] * arg_type.width) \
                if isinstance(arg_type, T.SIMDType) else ll.Constant(x.type, float("inf"))
            magnitude = self.math("fabs", [x], arg_type)
            return self.b.fcmp_ordered("==" if op == "isinf" else "<", magnitude, inf)
        if op == "fmod":
            return self.b.frem(args[0], args[1])
        host = self.mg.target.host
        if op == "exp" and host and isinstance(arg_type, T.SIMDType) and et.bits == 32 and arg_type.width >= 4:
            from .vmath import vector_expf

            return vector_expf(self, args[0], arg_type.width)
        opencl = self.mg.target.name == "opencl"  # its math builtins: LLVM's intrinsics become OpenCL.std
        if op in LLVM_MATH and (host or op in NVPTX_NATIVE or opencl):
            return self.math(LLVM_MATH[op], args, arg_type)
        # A libm (host), libdevice (NVPTX) or OpenCL (SPIR-V) function, called per lane on vectors.
        suffix = "f" if et.bits == 32 else ""
        name = (f"__nv_{op}{suffix}" if not host else f"{op}{suffix}")
        if opencl:
            from .spirv import math_name

            name = math_name(op, self.mg.llvm_type(T.FLOAT32 if et.bits == 16 else et), len(args))
        compute = T.FLOAT32 if et.bits == 16 else et
        cty = self.mg.llvm_type(compute)
        fn = self.mg.rt.libc(name, cty, [cty] * len(args))

        def scalar_call(values):
            if et.bits == 16:
                values = [self.b.fpext(v, cty) for v in values]
            out = self.b.call(fn, values)
            return self.b.fptrunc(out, self.mg.llvm_type(et)) if et.bits == 16 else out

        if not isinstance(arg_type, T.SIMDType):
            return scalar_call(args)
        vector = ll.Constant(self.mg.llvm_type(arg_type), ll.Undefined)
        for lane in range(arg_type.width):
            lanes = [self.b.extract_element(a, I32(lane)) for a in args]
            vector = self.b.insert_element(vector, scalar_call(lanes), I32(lane))
        return vector

    def instr_Call(self, i: ir.Call):
        callee_ir = self.mg.ir_functions[i.callee]
        callee = self.mg.functions[i.callee]
        args = [self.value(a) for a in i.args]
        cconv = "swiftcc" if callee.calling_convention == "swiftcc" else None  # a recursion body
        if not callee_ir.raises:
            result = self.b.call(callee, args, cconv=cconv)
            self.define(i.result, result)
            return
        out = None
        if callee_ir.return_type != T.NONE:
            with self.b.goto_entry_block():
                out = self.b.alloca(self.mg.llvm_type(callee_ir.return_type))
            args.insert(0, out)
        self.on_error(self.b.call(callee, args, cconv=cconv), i.span, i.handler)
        if out is not None:
            self.define(i.result, self.b.load(out))

    def pack(self, values: list[ir.Value]) -> ll.Value:
        """The values in a struct on the stack, as the `i8*` a thunk unpacks (launches, prange)."""
        pack = ll.LiteralStructType([self.mg.llvm_type(v.type) for v in values])
        with self.b.goto_entry_block():
            packed = self.b.alloca(pack)
        for k, v in enumerate(values):
            self.b.store(self.value(v), self.b.gep(packed, [I32(0), I32(k)]))
        return self.b.bitcast(packed, CHARP)

    def instr_Launch(self, i: ir.Launch):
        if not self.mg.target.host:
            raise UnsupportedOnTarget("launch", i.span)
        runs, mode = self.mg.cpu_kernel(i.callee)
        thunk = self.mg.kernel_thunk(runs)
        packed = self.pack(i.args)
        dims = [self.value(v) for v in i.grid + i.block]

        def on_cpu():
            shared = self.b.add(self.value(i.shared_bytes), ll.Constant(ll.IntType(64), self.mg.static_shared_bytes))
            direct = ll.Constant(ll.IntType(64), mode)
            name = self.mg.rt.cstr(self.b, self.mg.ir_functions[i.callee].name)  # for a deadlock's report
            return self.b.call(self.mg.gpu_cpu.launch_fn, [thunk, packed, *dims, shared, direct, name])

        def on_device(launch):
            # cuLaunchKernel's kernelParams: one pointer per parameter, to a value of its type.
            with self.b.goto_entry_block():
                slots = self.b.alloca(ll.ArrayType(CHARP, max(len(i.args), 1)))
            pack = ll.LiteralStructType([self.mg.llvm_type(a.type) for a in i.args])
            struct = self.b.bitcast(packed, pack.as_pointer())
            for k in range(len(i.args)):
                self.b.store(self.b.bitcast(self.b.gep(struct, [I32(0), I32(k)]), CHARP),
                             self.b.gep(slots, [I32(0), I32(k)]))
            rt = self.mg.rt
            message = self.b.call(launch, [rt.cstr(self.b, kernel_entry(i.callee)),
                                           rt.cstr(self.b, self.mg.ir_functions[i.callee].name),
                                           self.b.gep(slots, [I32(0), I32(0)]), *dims,
                                           self.value(i.shared_bytes), self.value(i.stream)])
            failed = self.b.icmp_unsigned("!=", message, ll.Constant(CHARP, None))
            with self.b.if_then(failed, likely=False):
                from .kernel_raised import raise_launch_failure

                raise_launch_failure(self, message)  # the kernel's exception, or the runtime's error
            return self.b.zext(failed, I32)

        status = hooks.device_or_cpu(self.b, self.mg.module, LAUNCH_HOOK, hooks.LAUNCH, on_device, on_cpu)
        self.on_error(self.b.icmp_signed("!=", status, I32(0)), i.span, i.handler)

    def instr_ParallelFor(self, i: ir.ParallelFor):
        if not self.mg.target.host:
            raise UnsupportedOnTarget("prange", i.span)
        body = self.mg.ir_functions[i.callee]
        thunk = self.mg.piece_thunk(body)
        status = self.b.call(self.mg.pool.parallel_for, [thunk, self.pack(i.args), self.value(i.count),
                                                         self.value(i.chunks)])
        if not body.raises:
            return
        # The outlined body already put this function's frame (at the failing line) on the traceback.
        self.on_error(self.b.icmp_signed("!=", status, I32(0)), i.span, i.handler, frame=False)

    def on_error(self, failed: ll.Value, span, handler, frame: bool = True) -> None:
        """After a call or launch that can raise: on failure add this frame to the traceback and
        go to the handler (inside a try) or leave the function; otherwise go on."""
        propagate, ok = self.fn.append_basic_block("propagate"), self.fn.append_basic_block("ok")
        self.b.cbranch(failed, propagate, ok)
        self.b.position_at_end(propagate)
        if frame:
            self.push_frame(span)
        if handler is not None:
            self.b.branch(self.blocks[handler])
        else:
            self.return_error()
        self.b.position_at_end(ok)

    def push_frame(self, span) -> None:
        if self.hidden:
            return
        line = span.line if span is not None else 0
        self.b.call(self.mg.rt.tb_push, [self.mg.rt.cstr(self.b, self.f.name), self.mg.rt.cstr(self.b, self.f.file),
                                         I32(line)])

    def return_error(self) -> None:
        self.b.ret(ll.Constant(I1, 1))

    # ---- terminators ----
    def term(self, t: ir.Terminator) -> None:
        if isinstance(t, ir.Jump):
            self.b.branch(self.blocks[t.target])
        elif isinstance(t, ir.Branch):
            self.b.cbranch(self.value(t.cond), self.blocks[t.then], self.blocks[t.orelse])
        elif isinstance(t, ir.Ret):
            if self.f.raises:
                if t.value is not None:
                    self.b.store(self.value(t.value), self.fn.args[0])
                self.b.ret(ll.Constant(I1, 0))
            elif t.value is None:
                self.b.ret_void()
            else:
                self.b.ret(self.value(t.value))
        elif isinstance(t, ir.Raise):
            rt = self.mg.rt
            # -1: a compiler helper or the stdlib, no frame of its own
            line = t.span.line if t.span is not None and not self.hidden else -1
            self.b.call(rt.raise_, [rt.cstr(self.b, t.exc), rt.cstr(self.b, t.message),
                                    rt.cstr(self.b, self.f.name), rt.cstr(self.b, self.f.file), I32(line)])
            if t.handler is not None:
                self.b.branch(self.blocks[t.handler])
            else:
                self.return_error()
        elif isinstance(t, ir.Reraise):
            if t.handler is not None:
                self.b.branch(self.blocks[t.handler])
            else:
                self.return_error()
        elif isinstance(t, ir.Unreachable):
            self.b.unreachable()
        else:
            raise AssertionError(t)


def generate(module: ir.Module, target: Target, entry: bool = False, c_main: bool = False,
             data_layout: str | None = None, exports: list[str] = (), python_entries: list[str] = (),
             kernels: list[str] = ()) -> ll.Module:
    return ModuleCodegen(module, target, data_layout).generate(entry=entry, c_main=c_main, exports=exports,
                                                              python_entries=python_entries, kernels=kernels)


def generate_text(*args, **kwargs) -> str:
    """The pass `codegen`: `generate`, as LLVM IR text. Printing the module belongs to the pass: it
    recurses as deep as the program's types nest, so it runs on the pass's big-stack thread."""
    return str(generate(*args, **kwargs))


def _shared_layout(module: ir.Module, data_layout) -> tuple[dict, int]:
    """Where each shared_array lives in a block's shared memory (CPU): offsets aligned to 16."""
    offsets, total, target_data = {}, 0, None
    for f in module.functions:
        for block in f.blocks:
            for i in block.instrs:
                if isinstance(i, ir.Intrinsic) and i.name == "gpu.shared_array":
                    site, count = shared_site(i), i.attrs["count"]
                    if site in offsets:
                        continue
                    if target_data is None:
                        import llvmlite.binding as llvm

                        target_data = llvm.create_target_data(data_layout())  # only for shared arrays
                    # The element's real size (a struct of three Float64 is 24 bytes): its
                    # alignment, used before, undercounted structs and SIMD values, so the
                    # block's buffer was too small for them.
                    size = llvm_type(i.result.type.pointee).get_abi_size(target_data)
                    offsets[site] = total
                    total += (count * size + 15) // 16 * 16
    return offsets, total


def shared_site(i: ir.Intrinsic) -> str:
    """A shared array's name in the module: its declaration and the function instance holding it.
    ptx_name never writes `$`, so the two parts cannot run together."""
    return f"{i.attrs['site']}${ptx_name(i.attrs['owner'])}"
