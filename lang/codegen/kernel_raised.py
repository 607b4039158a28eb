"""An exception raised in a kernel on a device target, carried to the host.

A GPU thread (an OpenCL work-item) that raises returns from its kernel with the exception in
the module's exception state, which the host cannot see. So a device module whose kernels can
raise has one externally visible global, the status record

    __pyx_kernel_raised = { i32 flag, i32 owner, i32 depth, i32 used, i32 lines[FRAMES],
                            i8 text[TEXT_BYTES] }

`text` holds NUL-terminated pieces (`used` bytes of it): the exception's type name, its
message, then each frame's function and file, innermost first, `lines` their lines (the first
`depth` frames, at most FRAMES; a piece that does not fit is cut short). `flag` is RECORDED
when the record holds the exception of a thread that left its kernel raising it.

- NVPTX (llvm_gen.define_kernel_entries): every thread shares the module's one exception
  state, and the kernel entry, when its body returned raising, takes `flag` from 0 to 1 by
  compare-exchange; only that first thread copies the state into the record.
- SPIR-V (spirv.define_kernel_entries): LLVM's backend gives each function its own copy of a
  private-space module global, so the state is not readable in the entry; instead
  `__pyx_raise` claims the record for its work-item (`owner`, by compare-exchange) and writes
  the type and message, and `__pyx_tb_push` adds the frames as the exception unwinds
  (`attach_raise_notes`); the entry sets RECORDED if its work-item owns the record, else
  UNRECORDED (the owner caught its exception, and the host says so).

The record starts zeroed; the host reads and clears it after each launch
(runtime/kernel_raised.py): CUDA through cuModuleGetGlobal and copies, OpenCL through the
one-work-item kernel `__pyx_kernel_raised_take`, which copies the record to a buffer and
zeroes it. Modules whose kernels cannot raise have neither.

On the host, a `launch` of a whole program (`pyx run --target=cuda|opencl`) learns of it from
the launch hook's reply (device_hooks.py): a reply starting with byte 1 is not an error message
but a raised exception, `\\1\\0TYPE\\0MESSAGE\\0` then `FUNC\\0FILE\\0LINE\\0` per frame and an
empty piece; `raise_launch_failure` raises it in the program, with the kernel's frames.
"""
from __future__ import annotations

from llvmlite import ir as ll

from .runtime_lib import CHARP, I8, I32, I64, VOID

RECORD_SYMBOL = "__pyx_kernel_raised"
TAKE_SYMBOL = "__pyx_kernel_raised_take"
FRAMES = 8
TEXT_BYTES = 1024
# flag, owner, depth, used (bytes of text written), lines, text
RECORD = ll.LiteralStructType([I32, I32, I32, I32, ll.ArrayType(I32, FRAMES), ll.ArrayType(I8, TEXT_BYTES)])
FLAG, OWNER, RDEPTH, USED, RLINES, TEXT = range(6)
HEADER_BYTES = 16
RECORD_BYTES = HEADER_BYTES + 4 * FRAMES + TEXT_BYTES
RECORDED, UNRECORDED = 1, 2  # flag values
GLOBAL_SPACE = 1  # NVPTX's global and SPIR-V's CrossWorkgroup: memory the host can reach
REPLY_MARK = 1  # the first byte of a launch hook's reply that carries a kernel's exception
RAISE_FROM_DEVICE = "__pyx_raise_from_device"


def record(mg) -> ll.GlobalVariable:
    """The module's status record, created (with OpenCL's take kernel) on first use."""
    g = mg.module.globals.get(RECORD_SYMBOL)
    if g is None:
        g = ll.GlobalVariable(mg.module, RECORD, name=RECORD_SYMBOL, addrspace=GLOBAL_SPACE)
        g.initializer = ll.Constant(RECORD, None)
        g.align = 4
        if mg.target.name == "opencl":
            _define_take_kernel(mg, g)
    return g


def _at(b: ll.IRBuilder, base, *indices) -> ll.Value:
    return b.gep(base, [I32(0)] + [i if isinstance(i, ll.Value) else I32(i) for i in indices], inbounds=True)


def _append(mg, b: ll.IRBuilder, rec, src) -> None:
    """Append the NUL-terminated `src` (null: empty) to the record's text, cut short where it is full."""
    fn = b.function
    src = b.select(b.icmp_unsigned("==", src, ll.Constant(src.type, None)), mg.rt.cstr(b, ""), src)
    start = b.block
    head, body, end = (fn.append_basic_block(x) for x in ("byte", "byte_copy", "byte_end"))
    b.branch(head)
    b.position_at_end(head)
    j = b.phi(I32)
    j.add_incoming(I32(0), start)
    used = b.load(_at(b, rec, USED))
    c = b.load(b.gep(src, [j], inbounds=True))
    room = b.icmp_unsigned("<", used, I32(TEXT_BYTES - 1))
    b.cbranch(b.and_(room, b.icmp_unsigned("!=", c, I8(0))), body, end)
    b.position_at_end(body)
    b.store(c, _at(b, rec, TEXT, used))
    b.store(b.add(used, I32(1)), _at(b, rec, USED))
    j.add_incoming(b.add(j, I32(1)), body)
    b.branch(head)
    b.position_at_end(end)
    used = b.load(_at(b, rec, USED))
    b.store(I8(0), _at(b, rec, TEXT, used))
    b.store(b.select(b.icmp_unsigned("<", used, I32(TEXT_BYTES - 1)), b.add(used, I32(1)), used), _at(b, rec, USED))


def note_raise(mg, b: ll.IRBuilder, raised: ll.Value) -> None:
    """In a kernel entry, after its body returned `raised` (i1), the builder left where the entry
    goes on. NVPTX: the first raising thread copies the module's exception state (one global
    that every thread shares there) into the record. SPIR-V: there each function has its own
    copy of a module global in the private space, so the raise helpers record the exception as
    it is raised (`attach_raise_notes`), and the entry only confirms it."""
    fn = b.function
    note, done = fn.append_basic_block("raised"), fn.append_basic_block("noted")
    b.cbranch(raised, note, done)
    b.position_at_end(note)
    rec = record(mg)
    if mg.target.name == "opencl":
        mine = b.icmp_unsigned("==", b.load(_at(b, rec, OWNER)), _thread_number(mg, b))
        with b.if_else(mine) as (owner, other):
            with owner:  # what it raised is in the record
                b.atomic_rmw("xchg", _at(b, rec, FLAG), I32(RECORDED), "monotonic")
            with other:  # its exception is not: the owner's was caught (or there is none)
                b.cmpxchg(_at(b, rec, FLAG), I32(0), I32(UNRECORDED), "monotonic", "monotonic")
        b.branch(done)
        b.position_at_end(done)
        return
    copy = fn.append_basic_block("first_to_raise")
    pair = b.cmpxchg(_at(b, rec, FLAG), I32(0), I32(RECORDED), "monotonic", "monotonic")
    b.cbranch(b.extract_value(pair, 1), copy, done)
    b.position_at_end(copy)
    rt = mg.rt
    st = rt.state(b)
    depth = b.load(rt.exc_at(b, st, "depth"))
    n = b.select(b.icmp_unsigned("<", depth, I32(FRAMES)), depth, I32(FRAMES))
    b.store(n, _at(b, rec, RDEPTH))
    _append(mg, b, rec, b.load(rt.exc_at(b, st, "kind")))
    _append(mg, b, rec, b.load(rt.exc_at(b, st, "message")))
    start = b.block
    head, body = fn.append_basic_block("frame"), fn.append_basic_block("frame_copy")
    b.branch(head)
    b.position_at_end(head)
    m = b.phi(I32)
    m.add_incoming(I32(0), start)
    b.cbranch(b.icmp_unsigned("<", m, n), body, done)
    b.position_at_end(body)
    b.store(b.load(rt.exc_at(b, st, "lines", m)), _at(b, rec, RLINES, m))
    _append(mg, b, rec, b.load(rt.exc_at(b, st, "functions", m)))
    _append(mg, b, rec, b.load(rt.exc_at(b, st, "files", m)))
    m.add_incoming(b.add(m, I32(1)), b.block)
    b.branch(head)
    b.position_at_end(done)


def _thread_number(mg, b: ll.IRBuilder) -> ll.Value:
    """SPIR-V: this work-item's number in the launch, plus 1 (0 is no owner), as an i32."""
    def builtin(name, axis):
        return b.call(mg.rt.libc(name, I64, [I32]), [I32(axis)])

    linear = builtin("_Z13get_global_idj", 2)
    for axis in (1, 0):
        linear = b.add(b.mul(linear, builtin("_Z15get_global_sizej", axis)), builtin("_Z13get_global_idj", axis))
    return b.add(b.trunc(linear, I32), I32(1))


def attach_raise_notes(mg) -> None:
    """SPIR-V, when some kernel can raise: `__pyx_raise(type, msg, ...)` first claims the record
    for its work-item (the first to raise owns it; its own later raises write it again) and
    writes the type and message; `__pyx_tb_push(func, file, line)` then adds each frame while the
    exception unwinds, if its work-item owns the record."""
    if RECORD_SYMBOL not in mg.module.globals:
        return
    rec = mg.module.globals[RECORD_SYMBOL]
    raise_ = mg.module.globals.get("__pyx_raise")
    push = mg.module.globals.get("__pyx_tb_push")
    if isinstance(raise_, ll.Function) and raise_.blocks:
        note = ll.Function(mg.module, ll.FunctionType(VOID, [CHARP, CHARP]), "__pyx_kernel_raise_note")
        note.linkage = "internal"
        b = ll.IRBuilder(note.append_basic_block("entry"))
        me = _thread_number(mg, b)
        pair = b.cmpxchg(_at(b, rec, OWNER), I32(0), me, "monotonic", "monotonic")
        owner = b.extract_value(pair, 0)
        with b.if_then(b.or_(b.extract_value(pair, 1), b.icmp_unsigned("==", owner, me))):
            b.store(I32(0), _at(b, rec, RDEPTH))
            b.store(I32(0), _at(b, rec, USED))
            _append(mg, b, rec, note.args[0])
            _append(mg, b, rec, note.args[1])
        b.ret_void()
        b = ll.IRBuilder(raise_.entry_basic_block)
        b.position_at_start(raise_.entry_basic_block)
        b.call(note, [raise_.args[0], raise_.args[1]])
    if isinstance(push, ll.Function) and push.blocks:
        note = ll.Function(mg.module, ll.FunctionType(VOID, [CHARP, CHARP, I32]), "__pyx_kernel_frame_note")
        note.linkage = "internal"
        b = ll.IRBuilder(note.append_basic_block("entry"))
        depth = b.load(_at(b, rec, RDEPTH))
        mine = b.icmp_unsigned("==", b.load(_at(b, rec, OWNER)), _thread_number(mg, b))
        with b.if_then(b.and_(mine, b.icmp_unsigned("<", depth, I32(FRAMES)))):
            func, file, line = note.args
            b.store(line, _at(b, rec, RLINES, depth))
            b.store(b.add(depth, I32(1)), _at(b, rec, RDEPTH))
            _append(mg, b, rec, func)
            _append(mg, b, rec, file)
        b.ret_void()
        b = ll.IRBuilder(push.entry_basic_block)
        b.position_at_start(push.entry_basic_block)
        b.call(note, list(push.args))


def _define_take_kernel(mg, rec: ll.GlobalVariable) -> None:
    """OpenCL: `__pyx_kernel_raised_take(global int* out)`, run by one work-item after a launch:
    the record copied to `out`, and zeroed for the next launch (OpenCL has no host access to a
    program's globals)."""
    words_type = ll.PointerType(I32, GLOBAL_SPACE)
    entry = ll.Function(mg.module, ll.FunctionType(VOID, [words_type]), TAKE_SYMBOL)
    entry.calling_convention = "spir_kernel"
    out = entry.args[0]
    b = ll.IRBuilder(entry.append_basic_block("entry"))
    words = b.bitcast(rec, words_type)
    slot = b.alloca(I32)
    b.store(I32(0), slot)
    head, body, done = (entry.append_basic_block(x) for x in ("word", "copy", "done"))
    b.branch(head)
    b.position_at_end(head)
    w = b.load(slot)
    b.cbranch(b.icmp_unsigned("<", w, I32(RECORD_BYTES // 4)), body, done)
    b.position_at_end(body)
    at = b.gep(words, [w], inbounds=True)
    b.store(b.load(at), b.gep(out, [w], inbounds=True))
    b.store(I32(0), at)
    b.store(b.add(w, I32(1)), slot)
    b.branch(head)
    b.position_at_end(done)
    b.ret_void()


def raise_launch_failure(cg, message: ll.Value) -> None:
    """Host code after a device launch whose hook replied `message` (not null): a kernel's
    exception when it carries REPLY_MARK, else the runtime's error as RuntimeError. Either way
    the exception state is set and no frame of the launching function is added (on_error does)."""
    b, rt = cg.b, cg.mg.rt
    kernel_raised = b.icmp_unsigned("==", b.load(message), I8(REPLY_MARK))
    with b.if_else(kernel_raised) as (from_device, runtime_error):
        with from_device:
            b.call(_raise_from_device(cg.mg), [message])
        with runtime_error:
            # The runtime keeps the message alive; -1: no frame here.
            b.call(rt.raise_, [rt.cstr(b, "RuntimeError"), message, rt.cstr(b, cg.f.name), rt.cstr(b, cg.f.file),
                               I32(-1)])


def _raise_from_device(mg) -> ll.Function:
    """`void __pyx_raise_from_device(i8* reply)`: raise the exception a launch hook's reply
    carries, with the kernel's frames (innermost first, as `__pyx_raise` and `__pyx_tb_push` build them)."""
    fn = mg.module.globals.get(RAISE_FROM_DEVICE)
    if fn is not None:
        return fn
    rt = mg.rt
    fn = ll.Function(mg.module, ll.FunctionType(VOID, [CHARP]), RAISE_FROM_DEVICE)
    fn.linkage = "internal"
    fn.attributes.add("noinline")
    fn.attributes.add("cold")
    b = ll.IRBuilder(fn.append_basic_block("entry"))
    strlen = rt.libc("strlen")
    strtol = rt.libc("strtol")

    def after(text):
        return b.gep(text, [b.add(b.call(strlen, [text]), I64(1))])

    kind = b.gep(fn.args[0], [I64(2)])  # after the mark and its NUL
    message = after(kind)
    first = after(message)
    b.call(rt.raise_, [kind, message, rt.cstr(b, ""), rt.cstr(b, ""), I32(-1)])
    head, body, done = (fn.append_basic_block(x) for x in ("frame", "push", "done"))
    start = b.block
    b.branch(head)
    b.position_at_end(head)
    at = b.phi(CHARP)
    at.add_incoming(first, start)
    b.cbranch(b.icmp_unsigned("!=", b.load(at), I8(0)), body, done)
    b.position_at_end(body)
    func = at
    file = after(func)
    line_text = after(file)
    line = b.trunc(b.call(strtol, [line_text, ll.Constant(CHARP.as_pointer(), None), I32(10)]), I32)
    b.call(rt.tb_push, [func, file, line])
    at.add_incoming(after(line_text), b.block)
    b.branch(head)
    b.position_at_end(done)
    b.ret_void()
    return fn
