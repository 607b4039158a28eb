"""Vectors wider than 16 lanes split for the SPIR-V target (OpenCL allows 2, 3, 4, 8 and 16 lanes).

LLVM's SPIR-V backend aborts the whole process on a wider vector (`<64 x float>`, the row of
`examples/flash_attn.px`), and llvmlite exposes no scalarizer pass. So after the optimizer has run,
every instruction of the device module that makes or takes a `<N x T>` with N > 16 (N a multiple of
16, as pyx's SIMD widths are) is rewritten as N/16 instructions on `<16 x T>` chunks: `%v` becomes
`%v.wv0` ... `%v.wv3`. Elementwise operations (arithmetic, comparisons, casts, selects, phis,
element-wise intrinsics such as `llvm.exp`) apply to each chunk; loads and stores address each
chunk's 16 elements; `insertelement`/`extractelement` pick the chunk of the lane (a lane only known
at run time selects among the chunks); a `shufflevector` gathers each chunk's lanes from the
input chunks that hold them (a splat: one shuffle per chunk); a reduction reduces chunk by chunk,
in lane order (so an ordered `llvm.vector.reduce.fadd` adds in the same order as before); an
`alloca` of the vector becomes an array of its elements (the same bytes). This runs on the
optimized module's text, after LLVM's passes (which would merge the chunks again) and before
emission. An instruction of another kind on a wide vector is E0226, as all wide vectors were before.
"""
from __future__ import annotations

import math
import re

WIDEST = 16  # the most lanes an OpenCL vector has
_VECTOR = re.compile(r"<(\d+) x ([^<>]+?)>")
_DEF = re.compile(r"^(\s*)(%(?:\"[^\"]*\"|[-\w$.]+)) = (.*)$")
_FLAGS = {"fast", "reassoc", "nnan", "ninf", "nsz", "arcp", "contract", "afn", "nsw", "nuw", "exact", "disjoint",
          "samesign", "nneg"}
_BINARY = {"add", "sub", "mul", "udiv", "sdiv", "urem", "srem", "shl", "lshr", "ashr", "and", "or", "xor",
           "fadd", "fsub", "fmul", "fdiv", "frem"}
_CASTS = {"trunc", "zext", "sext", "fptrunc", "fpext", "fptoui", "fptosi", "uitofp", "sitofp", "bitcast"}
_ELEM_BYTES = {"float": 4, "double": 8, "half": 2, "bfloat": 2, "i1": 1, "i8": 1, "i16": 2, "i32": 4, "i64": 8}
# The scalar that combines two chunks' reductions.
_COMBINE = {"add": "add", "mul": "mul", "and": "and", "or": "or", "xor": "xor", "smax": "llvm.smax",
            "smin": "llvm.smin", "umax": "llvm.umax", "umin": "llvm.umin", "fmax": "llvm.maxnum", "fmin": "llvm.minnum",
            "fmaximum": "llvm.maximum", "fminimum": "llvm.minimum"}


class WideVectorError(Exception):
    """An instruction on a wide vector this pass does not split."""


def _wide(text: str) -> bool:
    return any(int(m.group(1)) > WIDEST for m in _VECTOR.finditer(text))


def split_top(text: str, sep: str = ",") -> list[str]:
    """`text` split at `sep` outside brackets and quotes, each part stripped."""
    parts, depth, quoted, start = [], 0, False, 0
    for k, c in enumerate(text):
        if c == '"':
            quoted = not quoted
        elif quoted:
            continue
        elif c in "<([{":
            depth += 1
        elif c in ">)]}":
            depth -= 1
        elif c == sep and depth == 0:
            parts.append(text[start:k].strip())
            start = k + 1
    parts.append(text[start:].strip())
    return parts


def _mangled(t: str) -> str:
    if t.startswith("i"):
        return t
    return {"float": "f32", "double": "f64", "half": "f16", "bfloat": "bf16"}[t]


class _Vec:
    """A wide vector type `<n x elem>`."""

    def __init__(self, n: int, elem: str):
        if n % WIDEST:
            raise WideVectorError(f"a <{n} x {elem}> (lanes not a multiple of {WIDEST})")
        self.n, self.elem, self.k = n, elem, n // WIDEST
        self.chunk = f"<{WIDEST} x {elem}>"

    def __str__(self) -> str:
        return f"<{self.n} x {self.elem}>"


def _parse_type(text: str) -> _Vec | None:
    m = _VECTOR.fullmatch(text.strip())
    if m and int(m.group(1)) > WIDEST:
        return _Vec(int(m.group(1)), m.group(2))
    return None


def _chunk_name(name: str, k: int) -> str:
    if name.startswith('%"'):
        return f'{name[:-1]}.wv{k}"'
    return f"{name}.wv{k}"


def _lanes_of_constant(value: str, n: int) -> list[str] | None:
    """The lanes of a constant vector `<T a, T b, ...>` or `splat (T a)`, each as `T a`; None for others."""
    value = value.strip()
    if value.startswith("<") and value.endswith(">"):
        return split_top(value[1:-1])
    if value.startswith("splat (") and value.endswith(")"):
        return [value[len("splat ("):-1].strip()] * n
    return None


def _chunk(value: str, t: _Vec, k: int) -> str:
    """Chunk k of a wide operand."""
    value = value.strip()
    if value in ("zeroinitializer", "poison", "undef"):
        return value
    if value.startswith("%"):
        return _chunk_name(value, k)
    lanes = _lanes_of_constant(value, t.n)
    if lanes is None:
        raise WideVectorError(f"the constant {value[:40]}")
    return "<" + ", ".join(lanes[k * WIDEST:(k + 1) * WIDEST]) + ">"


def _mask(text: str, m: int) -> list[int | None]:
    """A shufflevector mask `<m x i32> ...` as lanes (None: poison)."""
    _, _, value = text.strip().partition("> ")
    value = value.strip()
    if value == "zeroinitializer":
        return [0] * m
    if value in ("poison", "undef"):
        return [None] * m
    lanes = _lanes_of_constant(value, m)
    if lanes is None:
        raise WideVectorError(f"the shuffle mask {value[:40]}")
    out: list[int | None] = []
    for lane in lanes:
        v = lane.split()[-1]
        out.append(None if v in ("poison", "undef") else int(v))
    return out


def _take_flags(words: list[str]) -> tuple[list[str], list[str]]:
    flags = []
    while words and words[0] in _FLAGS:
        flags.append(words.pop(0))
    return flags, words


class _Splitter:
    def __init__(self):
        self.declare: dict[str, str] = {}  # name -> declaration line of intrinsics the chunks call
        self.fresh = 0

    def temp(self, base: str) -> str:
        """A fresh name for an intermediate value, after `base`."""
        self.fresh += 1
        return f'{base[:-1]}.wvt{self.fresh}"' if base.startswith('%"') else f"{base}.wvt{self.fresh}"

    def need(self, name: str, ret: str, args: list[str]) -> None:
        self.declare.setdefault(name, f"declare {ret} @{name}({', '.join(args)})")

    # ---- one instruction ----
    def instruction(self, indent: str, result: str | None, text: str) -> list[str]:
        op = text.split(" ", 1)[0]
        words = text.split(" ")
        if op == "load":
            return self._load(indent, result, text)
        if op == "store":
            return self._store(indent, text)
        if op in _BINARY:
            flags, rest = _take_flags(words[1:])
            return self._elementwise(indent, result, op, flags, " ".join(rest), 2)
        if op in ("fneg", "freeze"):
            flags, rest = _take_flags(words[1:])
            return self._elementwise(indent, result, op, flags, " ".join(rest), 1)
        if op in ("fcmp", "icmp"):
            flags, rest = _take_flags(words[1:])
            return self._elementwise(indent, result, f"{op} {rest[0]}", flags, " ".join(rest[1:]), 2, result_elem="i1")
        if op == "select":
            return self._select(indent, result, text)
        if op == "phi":
            return self._phi(indent, result, text)
        if op in _CASTS:
            return self._cast(indent, result, op, text)
        if op == "insertelement":
            return self._insert(indent, result, text)
        if op == "extractelement":
            return self._extract(indent, result, text)
        if op == "shufflevector":
            return self._shuffle(indent, result, text)
        if op == "alloca":
            return [f"{indent}{result} = " + _VECTOR.sub(
                lambda m: f"[{m.group(1)} x {m.group(2)}]" if int(m.group(1)) > WIDEST else m.group(0), text, count=1)]
        if op in ("call", "tail", "musttail", "notail"):
            return self._call(indent, result, text)
        raise WideVectorError(f"the LLVM instruction {op}")

    def _typed(self, operand: str) -> tuple[_Vec, str]:
        """`<N x T> value` -> (type, value)."""
        m = _VECTOR.match(operand.strip())
        if not m:
            raise WideVectorError(f"the operand {operand[:40]}")
        t = _parse_type(m.group(0))
        if t is None:
            raise WideVectorError(f"the operand {operand[:40]}")
        return t, operand.strip()[m.end():].strip()

    def _address(self, indent, base_ptr: str, t: _Vec, k: int, align: int | None, out: list[str]):
        ptr_type, _, ptr = base_ptr.rpartition(" ")
        if k == 0:
            at = ptr
        else:
            at = self.temp(ptr if ptr.startswith("%") else "%addr")
            out.append(f"{indent}{at} = getelementptr inbounds {t.elem}, {ptr_type} {ptr}, i64 {k * WIDEST}")
        chunk_align = None
        if align is not None:
            chunk_align = math.gcd(align, k * WIDEST * _ELEM_BYTES.get(t.elem, 1)) if k else align
        return f"{ptr_type} {at}", chunk_align

    def _load(self, indent, result, text):
        parts = split_top(text[len("load "):])
        t = _parse_type(parts[0])
        if t is None or " atomic " in f" {text} " or " volatile " in f" {text} ":
            raise WideVectorError("this load")
        align = next((int(p.split()[1]) for p in parts[2:] if p.startswith("align ")), None)
        out: list[str] = []
        for k in range(t.k):
            ptr, a = self._address(indent, parts[1], t, k, align, out)
            out.append(f"{indent}{_chunk_name(result, k)} = load {t.chunk}, {ptr}" + (f", align {a}" if a else ""))
        return out

    def _store(self, indent, text):
        parts = split_top(text[len("store "):])
        t, value = self._typed(parts[0])
        if " atomic " in f" {text} " or " volatile " in f" {text} ":
            raise WideVectorError("this store")
        align = next((int(p.split()[1]) for p in parts[2:] if p.startswith("align ")), None)
        out: list[str] = []
        for k in range(t.k):
            ptr, a = self._address(indent, parts[1], t, k, align, out)
            out.append(f"{indent}store {t.chunk} {_chunk(value, t, k)}, {ptr}" + (f", align {a}" if a else ""))
        return out

    def _elementwise(self, indent, result, op, flags, rest, arity, result_elem=None):
        parts = split_top(rest)
        t, first = self._typed(parts[0])
        values = [first] + parts[1:]
        if len(values) != arity:
            raise WideVectorError(f"the LLVM instruction {op}")
        head = " ".join([op] + flags)
        return [f"{indent}{_chunk_name(result, k)} = {head} {t.chunk} "
                + ", ".join(_chunk(v, t, k) for v in values) for k in range(t.k)]

    def _select(self, indent, result, text):
        words = text.split(" ")
        flags, rest = _take_flags(words[1:])
        parts = split_top(" ".join(rest))
        cond_type, cond = parts[0].rsplit(" ", 1) if not parts[0].startswith("<") else (None, None)
        t, a = self._typed(parts[1])
        _, b = self._typed(parts[2])
        c_vec = None
        if parts[0].startswith("<"):
            c_vec, cond = self._typed(parts[0])
        head = " ".join(["select"] + flags)
        out: list[str] = []
        scalar = None if c_vec else self._splat_condition(indent, result, f"{cond_type} {cond}", out)
        for k in range(t.k):
            c = f"{c_vec.chunk} {_chunk(cond, c_vec, k)}" if c_vec else scalar
            out.append(f"{indent}{_chunk_name(result, k)} = {head} {c}, {t.chunk} {_chunk(a, t, k)}, "
                       f"{t.chunk} {_chunk(b, t, k)}")
        return out

    def _phi(self, indent, result, text):
        words = text.split(" ")
        flags, rest = _take_flags(words[1:])
        rest_text = " ".join(rest)
        m = _VECTOR.match(rest_text)
        t = _parse_type(m.group(0)) if m else None
        if t is None:
            raise WideVectorError("this phi")
        incoming = split_top(rest_text[m.end():])
        pairs = []
        for item in incoming:
            value, block = split_top(item.strip()[1:-1])
            pairs.append((value, block))
        head = " ".join(["phi"] + flags)
        return [f"{indent}{_chunk_name(result, k)} = {head} {t.chunk} "
                + ", ".join(f"[ {_chunk(v, t, k)}, {blk} ]" for v, blk in pairs) for k in range(t.k)]

    def _cast(self, indent, result, op, text):
        source, _, target = text[len(op) + 1:].rpartition(" to ")
        t, value = self._typed(source)
        u = _parse_type(target)
        if u is None or u.n != t.n:
            raise WideVectorError(f"the LLVM instruction {op} to {target}")
        return [f"{indent}{_chunk_name(result, k)} = {op} {t.chunk} {_chunk(value, t, k)} to {u.chunk}"
                for k in range(t.k)]

    def _insert(self, indent, result, text):
        vec, elem, index = split_top(text[len("insertelement "):])
        t, value = self._typed(vec)
        index_type, index_value = index.rsplit(" ", 1)
        out = []
        if re.fullmatch(r"-?\d+", index_value):
            lane = int(index_value)
            for k in range(t.k):
                if k == lane // WIDEST:
                    out.append(f"{indent}{_chunk_name(result, k)} = insertelement {t.chunk} {_chunk(value, t, k)}, "
                               f"{elem}, {index_type} {lane % WIDEST}")
                else:  # unchanged: an identity shuffle names the same lanes
                    out.append(self._copy(indent, _chunk_name(result, k), t, _chunk(value, t, k)))
            return out
        for k in range(t.k):  # a lane known at run time: each chunk takes it if it is one of its own
            local, inside, put = (self.temp(result) for _ in range(3))
            out += [f"{indent}{local} = sub {index_type} {index_value}, {k * WIDEST}",
                    f"{indent}{inside} = icmp ult {index_type} {local}, {WIDEST}",
                    f"{indent}{put} = insertelement {t.chunk} {_chunk(value, t, k)}, {elem}, {index_type} {local}"]
            mask = self._splat_condition(indent, result, f"i1 {inside}", out)
            out.append(f"{indent}{_chunk_name(result, k)} = select {mask}, {t.chunk} {put}, "
                       f"{t.chunk} {_chunk(value, t, k)}")
        return out

    def _splat_condition(self, indent, base: str, cond: str, out: list[str]) -> str:
        """`i1 %c` as a `<16 x i1>` of it: SPIR-V 1.3's OpSelect takes a vector condition for vectors."""
        one, every = self.temp(base), self.temp(base)
        out += [f"{indent}{one} = insertelement <{WIDEST} x i1> poison, {cond}, i64 0",
                f"{indent}{every} = shufflevector <{WIDEST} x i1> {one}, <{WIDEST} x i1> poison, "
                f"<{WIDEST} x i32> zeroinitializer"]
        return f"<{WIDEST} x i1> {every}"

    def _copy(self, indent, name, t: _Vec, value: str) -> str:
        identity = ", ".join(f"i32 {j}" for j in range(WIDEST))
        return f"{indent}{name} = shufflevector {t.chunk} {value}, {t.chunk} poison, <{WIDEST} x i32> <{identity}>"

    def _extract(self, indent, result, text):
        vec, index = split_top(text[len("extractelement "):])
        t, value = self._typed(vec)
        index_type, index_value = index.rsplit(" ", 1)
        if re.fullmatch(r"-?\d+", index_value):
            lane = int(index_value)
            return [f"{indent}{result} = extractelement {t.chunk} {_chunk(value, t, lane // WIDEST)}, "
                    f"{index_type} {lane % WIDEST}"]
        out = []
        local, which = self.temp(result), self.temp(result)
        out += [f"{indent}{local} = and {index_type} {index_value}, {WIDEST - 1}",
                f"{indent}{which} = lshr {index_type} {index_value}, {WIDEST.bit_length() - 1}"]
        picked = None
        for k in range(t.k):
            lane = self.temp(result)
            out.append(f"{indent}{lane} = extractelement {t.chunk} {_chunk(value, t, k)}, {index_type} {local}")
            if picked is None:
                picked = lane
                continue
            hit, chosen = self.temp(result), self.temp(result) if k < t.k - 1 else result
            out += [f"{indent}{hit} = icmp eq {index_type} {which}, {k}",
                    f"{indent}{chosen} = select i1 {hit}, {t.elem} {lane}, {t.elem} {picked}"]
            picked = chosen
        return out

    def _shuffle(self, indent, result, text):
        a, b, mask_text = split_top(text[len("shufflevector "):])
        m_a = _VECTOR.match(a)
        n = int(m_a.group(1))
        elem = m_a.group(2)
        in_type = _parse_type(m_a.group(0))
        va, vb = a[m_a.end():].strip(), b[_VECTOR.match(b).end():].strip()
        m = int(_VECTOR.match(mask_text).group(1))
        mask = _mask(mask_text, m)

        def source(lane):  # (operand piece, lane in it) of a lane of a ++ b
            if lane is None:
                return None
            value, lane = (va, lane) if lane < n else (vb, lane - n)
            if in_type is None:
                return (value, None), lane
            return (value, lane // WIDEST), lane % WIDEST

        def piece(p) -> str:
            value, k = p
            return value if k is None else _chunk(value, in_type, k)

        piece_type = in_type.chunk if in_type is not None else f"<{n} x {elem}>"
        out_wide = m > WIDEST
        outputs = [(k, mask[k * WIDEST:(k + 1) * WIDEST]) for k in range(m // WIDEST)] if out_wide else [(None, mask)]
        if out_wide and m % WIDEST:
            raise WideVectorError(f"a shuffle to <{m} x {elem}>")
        out = []
        for k, lanes in outputs:
            name = _chunk_name(result, k) if k is not None else result
            width = len(lanes)
            sources = [source(lane) for lane in lanes]
            pieces: list = []
            for s in sources:
                if s is not None and s[0] not in pieces:
                    pieces.append(s[0])
            if len(pieces) <= 2:
                first = piece(pieces[0]) if pieces else "poison"
                second = piece(pieces[1]) if len(pieces) > 1 else "poison"
                width_in = WIDEST if in_type is not None else n
                lanes_text = ", ".join("i32 poison" if s is None else f"i32 {pieces.index(s[0]) * width_in + s[1]}"
                                       for s in sources)
                out.append(f"{indent}{name} = shufflevector {piece_type} {first}, {piece_type} {second}, "
                           f"<{width} x i32> <{lanes_text}>")
                continue
            current = "poison"  # lanes from more than two pieces: one at a time
            for j, s in enumerate(sources):
                if s is None:
                    continue
                lane, built = self.temp(result), self.temp(result)
                out += [f"{indent}{lane} = extractelement {piece_type} {piece(s[0])}, i32 {s[1]}",
                        f"{indent}{built} = insertelement <{width} x {elem}> {current}, {elem} {lane}, i32 {j}"]
                current = built
            out.append(self._copy(indent, name, _Vec(WIDEST, elem), current) if width == WIDEST else
                       f"{indent}{name} = shufflevector <{width} x {elem}> {current}, <{width} x {elem}> poison, "
                       f"<{width} x i32> <{', '.join(f'i32 {j}' for j in range(width))}>")
        return out

    def _call(self, indent, result, text):
        m = re.match(r"^((?:tail |musttail |notail )?call)((?: [a-z]+)*?) (\S+|<\d+ x [^>]+>) @([\w.$]+)\((.*)\)(.*)$",
                     text)
        if not m or not m.group(4).startswith("llvm."):
            raise WideVectorError("a call with a wide vector (a device function that was not inlined)")
        call, flags, ret, name, args_text, _attributes = m.groups()
        args = split_top(args_text) if args_text.strip() else []
        ret_vec = _parse_type(ret)
        narrow_name = re.sub(r"v(\d+)", lambda x: f"v{WIDEST}" if int(x.group(1)) > WIDEST else x.group(0), name)
        if name.startswith("llvm.vector.reduce."):
            return self._reduce(indent, result, call, flags, ret, name, narrow_name, args)
        if ret_vec is None:
            raise WideVectorError(f"the LLVM intrinsic {name}")
        out = []
        arg_types = []
        for k in range(ret_vec.k):
            chunk_args = []
            for arg in args:
                typed = _VECTOR.match(arg)
                t = _parse_type(typed.group(0)) if typed else None
                if t is None:
                    chunk_args.append(arg)
                    if k == 0:
                        arg_types.append(arg.rsplit(" ", 1)[0])
                else:
                    chunk_args.append(f"{t.chunk} {_chunk(arg[typed.end():], t, k)}")
                    if k == 0:
                        arg_types.append(t.chunk)
            out.append(f"{indent}{_chunk_name(result, k)} = {call}{flags} {ret_vec.chunk} @{narrow_name}("
                       + ", ".join(chunk_args) + ")")
        self.need(narrow_name, ret_vec.chunk, arg_types)
        return out

    def _reduce(self, indent, result, call, flags, ret, name, narrow_name, args):
        kind = name[len("llvm.vector.reduce."):].split(".")[0]
        typed = args[-1]
        t, value = self._typed(typed)
        out = []
        if kind in ("fadd", "fmul"):  # ordered from a start value: chain the chunks in lane order
            acc = args[0]
            for k in range(t.k):
                name_k = result if k == t.k - 1 else self.temp(result)
                out.append(f"{indent}{name_k} = {call}{flags} {ret} @{narrow_name}({acc}, {t.chunk} "
                           f"{_chunk(value, t, k)})")
                acc = f"{ret} {name_k}"
            self.need(narrow_name, ret, [ret, t.chunk])
            return out
        combine = _COMBINE.get(kind)
        if combine is None:
            raise WideVectorError(f"the LLVM intrinsic {name}")
        parts = []
        for k in range(t.k):
            part = self.temp(result)
            out.append(f"{indent}{part} = {call}{flags} {ret} @{narrow_name}({t.chunk} {_chunk(value, t, k)})")
            parts.append(part)
        self.need(narrow_name, ret, [t.chunk])
        acc = parts[0]
        for k, part in enumerate(parts[1:], start=1):
            name_k = result if k == len(parts) - 1 else self.temp(result)
            if combine.startswith("llvm."):
                scalar = f"{combine}.{_mangled(ret)}"
                out.append(f"{indent}{name_k} = call{flags} {ret} @{scalar}({ret} {acc}, {ret} {part})")
                self.need(scalar, ret, [ret, ret])
            else:
                out.append(f"{indent}{name_k} = {combine} {ret} {acc}, {part}")
            acc = name_k
        return out


def split_wide_vectors(text: str) -> str:
    """The module's text with every vector wider than 16 lanes split (the text itself when it has none)."""
    if not _wide(text):
        return text
    splitter = _Splitter()
    out: list[str] = []
    in_function = False
    for line in text.split("\n"):
        stripped = line.strip()
        if line.startswith("define "):
            if _wide(line):
                raise WideVectorError("a function parameter or result of a vector type wider than 16 lanes")
            in_function = True
            out.append(line)
            continue
        if in_function and stripped == "}":
            in_function = False
        if not in_function:
            if line.startswith("declare ") and _wide(line):
                continue  # the intrinsics at the wide types: no longer called
            if _wide(line):
                raise WideVectorError("a global of a vector type wider than 16 lanes")
            out.append(line)
            continue
        if not _wide(line):
            out.append(line)
            continue
        body, _, _meta = line.partition(", !")  # metadata attachments are dropped from split instructions
        m = _DEF.match(body)
        if m:
            indent, result, rest = m.groups()
        else:
            indent, result, rest = body[:len(body) - len(body.lstrip())], None, body.strip()
        if rest.startswith("ret "):
            raise WideVectorError("a function result of a vector type wider than 16 lanes")
        out.extend(splitter.instruction(indent, result, rest))
    declared = {m.group(1) for line in out if line.startswith("declare ")
                and (m := re.search(r"@([\w.$]+)\(", line)) is not None}
    out.extend(d for name, d in splitter.declare.items() if name not in declared)
    return "\n".join(out)


def legalized_module(module, tm):
    """The optimized device module (llvmlite's binding) with its wide vectors split, re-parsed."""
    import llvmlite.binding as llvm

    text = str(module)
    if not _wide(text):
        return module
    # Every value named (LLVM's instnamer): an unnamed `%7` has no `%7.wv0`.
    pm = llvm.create_new_module_pass_manager()
    pm.add_instruction_namer_pass()
    pm.run(module, llvm.create_pass_builder(tm, llvm.create_pipeline_tuning_options(speed_level=0)))
    text = str(module)
    try:
        split = split_wide_vectors(text)
    except WideVectorError as exc:
        from .llvm_gen import UnsupportedOnTarget

        raise UnsupportedOnTarget(f"{exc} on a vector wider than 16 lanes", None) from None
    if split is text:
        return module
    legal = llvm.parse_assembly(split)
    legal.verify()
    return legal
