"""Pygments lexer for pyx (``*.px``).

Registered through the ``pygments.lexers`` entry point as ``px`` / ``pyx-lang``
(Pygments' own Cython lexer already owns the alias ``pyx``). It imports nothing
but Pygments, because Pygments imports this module for every plugin lookup.

It extends Pygments' PythonLexer: strings, f-strings, numbers with underscores,
comments and operators are Python's; pyx adds declarations with compile-time
parameter lists, argument conventions, ``launch k[grid=..., block=...](...)``,
built-in types, DType members and the GPU intrinsics.
"""
import re
from typing import ClassVar

from pygments.lexer import bygroups, default, include, inherit, words
from pygments.lexers.python import PythonLexer
from pygments.token import (
    Comment,
    Keyword,
    Name,
    Operator,
    Punctuation,
    Whitespace,
)

__all__ = ["PyxLexer"]

IDENT = r"[^\W\d]\w*"

TYPES = (
    "Bool", "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32",
    "UInt64", "Float16", "BFloat16", "Float32", "Float64", "SIMD", "Scalar", "DType", "Ptr",
    "UnsafePointer", "List", "String", "StringLiteral", "Dict", "Optional", "Span", "Buffer",
    "DeviceBuffer", "Tuple", "PythonObject", "Python", "Self", "NoneType",
    "AnyType", "Copyable", "Movable", "EqualityComparable", "Comparable", "Hashable", "KeyElement", "Sized",
    "Stringable",
)
PY_TYPES = ("int", "float", "bool", "str")
DTYPE_MEMBERS = (
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "bfloat16", "float32", "float64", "index", "invalid",
    "float8_e4m3fn", "float8_e4m3fnuz", "float8_e5m2", "float8_e5m2fnuz",
)
GPU_FUNCTIONS = (
    "barrier", "shared_array", "atomic_add", "atomic_sub", "atomic_max", "atomic_min",
    "atomic_cas", "atomic_exch", "shuffle_down", "shuffle_up", "shuffle_xor", "shuffle_idx",
    "warp_sum", "warp_max", "warp_min", "ballot", "lane_id", "syncwarp",
)
GPU_VARIABLES = ("thread_idx", "block_idx", "block_dim", "grid_dim", "global_idx")
BUILTINS = (
    "print", "range", "len", "abs", "min", "max", "simd_width_of", "parallel_for", "prange",
    "parallelize", "vectorize", "isinstance", "rebind", "sizeof", "bitcast", "normalize_index", "hash",
    "constrained", "external_call",
)
CONVENTIONS = ("mut", "var", "owned", "ref", "out")


def _parameter_list(close):
    """Rules inside ``(...)`` or ``[...]`` of a declaration, up to ``close``."""
    return [
        (re.escape(close), Punctuation, "#pop"),
        (r"[(\[]", Punctuation, "nested"),
        # `out` and `ref` are ordinary names elsewhere (`out: Ptr[Float32]`),
        # so a convention is only a convention when a name follows it.
        (words(CONVENTIONS, suffix=r"\b(?=[^\S\n]+" + IDENT + ")"), Keyword.Pseudo),
        (r"\n", Whitespace),
        (r"#.*$", Comment.Single),
        include("expr"),
    ]


class PyxLexer(PythonLexer):
    """Lexer for pyx, the statically typed Python subset for CPUs and GPUs."""

    name = "pyx"
    aliases: ClassVar[list] = ["px", "pyx-lang"]
    filenames: ClassVar[list] = ["*.px"]
    mimetypes: ClassVar[list] = ["text/x-pyx"]
    url = ""
    version_added = ""

    tokens: ClassVar[dict] = {
        "root": [
            (r"(fn|def)((?:\s|\\\s)+)", bygroups(Keyword.Declaration, Whitespace), "funcname"),
            (r"(struct|trait)((?:\s|\\\s)+)", bygroups(Keyword.Declaration, Whitespace), "classname"),
            (r"(launch)((?:\s|\\\s)+)", bygroups(Keyword, Whitespace), "launch"),
            (r"(comptime|alias)([^\S\n]+)(" + IDENT + r")(?=\s*[:=\[])",
             bygroups(Keyword.Declaration, Whitespace, Name.Constant)),
            inherit,
        ],
        "keywords": [
            (r"comptime(?=\s+(?:for|if|while|assert)\b)", Keyword),
            (words(("var", "comptime", "alias", "fn", "def", "struct", "trait"), suffix=r"\b"),
             Keyword.Declaration),
            (words(("raises", "launch"), suffix=r"\b"), Keyword),
            inherit,
        ],
        "expr": [
            (r"(DType)(\s*)(\.)(\s*)(" + "|".join(sorted(DTYPE_MEMBERS, key=len, reverse=True)) + r")\b",
             bygroups(Keyword.Type, Whitespace, Operator, Whitespace, Name.Constant)),
            (r"\.\.\.", Name.Builtin.Pseudo),
            # Python's rules split these into one-character operators.
            (r"\*\*=?|//=?|>>=?|<<=?|[-+*/%@&|^]=|->|:=", Operator),
            inherit,
        ],
        # Python 3.12 (PEP 701) allows a comment inside an f-string's `{...}`; Pygments' own
        # lexer marks its `#` as an error.
        "expr-inside-fstring": [(r"#.*$", Comment.Single), inherit],
        "expr-inside-fstring-inner": [(r"#.*$", Comment.Single), inherit],
        "builtins": [
            (words(TYPES, prefix=r"(?<!\.)", suffix=r"\b"), Keyword.Type),
            # int(x) converts, `x: int` annotates: the same word is a builtin or a type.
            (words(PY_TYPES, prefix=r"(?<!\.)", suffix=r"\b(?=\s*\()"), Name.Builtin),
            (words(PY_TYPES, prefix=r"(?<!\.)", suffix=r"\b"), Keyword.Type),
            (words(GPU_FUNCTIONS, prefix=r"(?<!\.)", suffix=r"\b"), Name.Builtin),
            (words(GPU_VARIABLES, prefix=r"(?<!\.)", suffix=r"\b"), Name.Builtin.Pseudo),
            (r"(?<!\.)\bWARP_SIZE\b", Name.Constant),
            (words(BUILTINS, prefix=r"(?<!\.)", suffix=r"\b"), Name.Builtin),
            (r"(?<!\.)\bError\b", Name.Exception),
            inherit,
        ],
        # After `fn`/`def`: the name, then the signature up to its colon.
        "funcname": [
            (r"__\w+__\b", Name.Function.Magic, ("#pop", "signature")),
            (IDENT, Name.Function, ("#pop", "signature")),
            default("#pop"),
        ],
        "classname": [
            (IDENT, Name.Class, "#pop"),
            default("#pop"),
        ],
        "signature": [
            (r"\[", Punctuation, "comptime-parameters"),
            (r"\(", Punctuation, "parameters"),
            (r"raises\b", Keyword),
            (r"->", Operator, "return-type"),
            (r":", Punctuation, "#pop"),
            (r"[^\S\n]+", Whitespace),
            default("#pop"),
        ],
        "return-type": [
            (r":", Punctuation, "#pop:2"),
            (r"\n", Whitespace, "#pop:2"),
            (r"[(\[]", Punctuation, "nested"),
            include("expr"),
        ],
        "parameters": _parameter_list(")"),
        "comptime-parameters": _parameter_list("]"),
        "nested": [
            (r"[)\]}]", Punctuation, "#pop"),
            (r"[(\[{]", Punctuation, "#push"),
            (r"\n", Whitespace),
            (r"#.*$", Comment.Single),
            include("expr"),
        ],
        # After `launch`: the kernel, then its launch configuration in brackets.
        "launch": [
            (r"(" + IDENT + r"(?:\s*\.\s*" + IDENT + r")*)(\s*)(\[)",
             bygroups(Name.Function, Whitespace, Punctuation), ("#pop", "launch-config")),
            default("#pop"),
        ],
        "launch-config": [
            (r"\]", Punctuation, "#pop"),
            (r"[(\[{]", Punctuation, "nested"),
            (r"(" + IDENT + r")(\s*)(=)(?!=)", bygroups(Name.Attribute, Whitespace, Operator)),
            (r"\n", Whitespace),
            (r"#.*$", Comment.Single),
            include("expr"),
        ],
    }

    def analyse_text(text):
        # PythonLexer's own guess ("import " anywhere) would claim every Python
        # file for pyx too; only pyx-specific syntax counts here.
        score = 0.0
        if re.search(r"^[ \t]*fn[ \t]+\w+[ \t]*[\[(]", text, re.M):
            score += 0.4
        if re.search(r"^[ \t]*(?:var|comptime)[ \t]+\w+", text, re.M):
            score += 0.3
        if re.search(r"^[ \t]*@kernel\b|\blaunch[ \t]+\w+\[", text, re.M):
            score += 0.2
        return score
