#!/usr/bin/env python3
"""Generate syntaxes/pyx.tmLanguage.json.

The grammar is written here rather than by hand in JSON because its regexes
read better as Python raw strings (JSON doubles every backslash) and because the
twelve string flavours (prefix x quote) are one loop instead of twelve copies.
The JSON is committed so the extension needs no build step; the tests fail when
it differs from what this script produces.

    python editors/vscode/scripts/build_grammar.py          # rewrite the JSON
    python editors/vscode/scripts/build_grammar.py --check  # exit 1 when stale
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "syntaxes" / "pyx.tmLanguage.json"

ID = r"[[:alpha:]_]\w*"
# A call may carry one level of compile-time parameters: f[T](x), x.load[W](i).
CALL_AHEAD = r"(?=\s*(?:\[[^\[\]]*\]\s*)?\()"

TYPES = [
    "Bool", "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32",
    "UInt64", "Float16", "BFloat16", "Float32", "Float64", "SIMD", "Scalar", "DType", "Ptr",
    "UnsafePointer", "List", "String", "StringLiteral", "Dict", "Optional", "Span", "Buffer",
    "DeviceBuffer", "Tuple", "PythonObject", "Python", "Self", "NoneType",
    "AnyType", "Copyable", "Movable", "EqualityComparable", "Comparable", "Hashable", "KeyElement", "Sized", "Stringable",
]
PY_TYPES = ["int", "float", "bool", "str"]
DTYPE_MEMBERS = [
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "bfloat16", "float32", "float64", "index", "invalid",
    "float8_e4m3fn", "float8_e4m3fnuz", "float8_e5m2", "float8_e5m2fnuz",
]
GPU_FUNCTIONS = [
    "barrier", "shared_array", "atomic_add", "atomic_sub", "atomic_max", "atomic_min",
    "atomic_cas", "atomic_exch", "shuffle_down", "shuffle_up", "shuffle_xor", "shuffle_idx",
    "warp_sum", "warp_max", "warp_min", "ballot", "lane_id", "syncwarp",
]
GPU_VARIABLES = ["thread_idx", "block_idx", "block_dim", "grid_dim", "global_idx"]
GPU_CONSTANTS = ["WARP_SIZE"]
BUILTINS = [
    "print", "range", "len", "abs", "min", "max", "simd_width_of", "parallel_for", "prange",
    "parallelize", "vectorize", "isinstance", "rebind", "sizeof", "bitcast", "normalize_index", "hash",
    "constrained", "external_call",
]
EXCEPTIONS = [
    "Error", "Exception", "ZeroDivisionError", "IndexError", "KeyError", "ValueError",
    "TypeError", "AssertionError", "OverflowError", "RuntimeError", "NotImplementedError",
    "AttributeError", "StopIteration", "MemoryError",
]
CONVENTIONS = ["mut", "var", "owned", "ref", "out"]
LAUNCH_KEYS = ["grid", "block", "shared_bytes", "stream", "cluster"]


def words(names: list[str], guard_dot: bool = True) -> str:
    # Longest first, so Int64 is never read as Int followed by 64.
    alts = "|".join(sorted(set(names), key=lambda s: (-len(s), s)))
    return (r"(?<!\.)" if guard_dot else "") + r"\b(?:" + alts + r")\b"


def ref(name: str) -> dict:
    return {"include": "#" + name}


def caps(*scopes: str) -> dict:
    return {str(i): {"name": s} for i, s in enumerate(scopes, 1) if s}


# --- strings -----------------------------------------------------------------

QUOTES = [  # (regex, scope word, single-line?)
    ('"""', "triple", False),
    ("'''", "triple", False),
    ('"', "double", True),
    ("'", "single", True),
]
KINDS = [  # (prefix regex, scope base, raw?, formatted?)
    (r"[rR][fF]|[fF][rR]", "string.interpolated.raw", True, True),
    (r"[fF]", "string.interpolated", False, True),
    (r"[rR][bB]?|[bB][rR]", "string.quoted.raw", True, False),
    (r"[uUbB]?", "string.quoted", False, False),
]


def string_rules() -> list[dict]:
    rules = []
    for quote, word, single_line in QUOTES:
        for prefix, base, raw, formatted in KINDS:
            patterns = []
            patterns.append(ref("raw-escape") if raw else ref("string-escape"))
            if formatted:
                patterns.append(ref("fstring-brace-escape"))
                patterns.append(ref("fstring-interpolation-line" if single_line else "fstring-interpolation"))
            rule = {
                "name": f"{base}.{word}.pyx",
                "begin": r"(?<![\w])(" + prefix + r")(" + quote + r")",
                "beginCaptures": caps("storage.type.string.pyx", "punctuation.definition.string.begin.pyx"),
                "patterns": patterns,
            }
            if single_line:
                # An unterminated one-line string stops at the line end instead of
                # swallowing the rest of the file.
                rule["end"] = r"(" + quote + r")|(\n)"
                rule["endCaptures"] = caps("punctuation.definition.string.end.pyx", "invalid.illegal.newline.pyx")
            else:
                rule["end"] = r"(" + quote + r")"
                rule["endCaptures"] = caps("punctuation.definition.string.end.pyx")
            rules.append(rule)
    return rules


def interpolation(single_line: bool) -> dict:
    return {
        "name": "meta.interpolation.pyx",
        "begin": r"(\{)",
        "beginCaptures": caps("punctuation.section.interpolation.begin.pyx"),
        "end": r"(\})" + (r"|(?=\n)" if single_line else ""),
        "endCaptures": caps("punctuation.section.interpolation.end.pyx"),
        # meta.embedded makes themes drop the string colour inside the braces.
        "contentName": "meta.embedded.line.pyx",
        "patterns": [
            {
                "match": r"(?:(![rsa])(?:(:)([^{}\n]*))?|(:)([^{}\n]*))(?=\})",
                "captures": caps(
                    "storage.type.format.conversion.pyx", "punctuation.separator.format-spec.pyx",
                    "constant.other.format-spec.pyx", "punctuation.separator.format-spec.pyx",
                    "constant.other.format-spec.pyx",
                ),
            },
            ref("expression"),
        ],
    }


# --- declarations ------------------------------------------------------------


def parameter_list(name: str, open_: str, close: str, param_scope: str) -> dict:
    stop = "," + close
    return {
        "name": name,
        "begin": r"(" + open_ + r")",
        "beginCaptures": caps("punctuation.definition.parameters.begin.pyx"),
        "end": r"(" + close + r")",
        "endCaptures": caps("punctuation.definition.parameters.end.pyx"),
        "patterns": [
            ref("comment"),
            {
                # `out` and `ref` are ordinary names elsewhere (`out: Ptr[Float32]`),
                # so a convention is only a convention when a name follows it.
                "match": r"\b(" + "|".join(CONVENTIONS) + r")\s+(?=[[:alpha:]_])",
                "captures": caps("storage.modifier.convention.pyx"),
            },
            {"match": r"\bself\b", "name": "variable.language.self.pyx"},
            {
                "begin": r"(:)(?!=)",
                "beginCaptures": caps("punctuation.separator.annotation.pyx"),
                "end": r"(?=[" + stop + r"=])|$",
                "name": "meta.annotation.pyx",
                "patterns": [ref("expression")],
            },
            {
                "begin": r"(=)(?!=)",
                "beginCaptures": caps("keyword.operator.assignment.pyx"),
                "end": r"(?=[" + stop + r"])",
                "name": "meta.parameter.default.pyx",
                "patterns": [ref("expression")],
            },
            {"match": r"(\*\*|\*|//|/)", "name": "keyword.operator.parameter.pyx"},
            {"match": r",", "name": "punctuation.separator.parameters.pyx"},
            {"match": ID, "name": param_scope},
            ref("expression"),
        ],
    }


COMPTIME_PARAMETERS = "comptime-parameters"


def function_declaration() -> dict:
    return {
        "name": "meta.function.pyx",
        "begin": r"\b(fn|def)\s+(" + ID + r")",
        "beginCaptures": caps("storage.type.function.pyx", "entity.name.function.pyx"),
        "end": r"(:)|(?=\n)",
        "endCaptures": caps("punctuation.section.function.begin.pyx"),
        "patterns": [
            ref("comment"),
            ref(COMPTIME_PARAMETERS),
            parameter_list("meta.function.parameters.pyx", r"\(", r"\)", "variable.parameter.function.pyx"),
            {"match": r"\braises\b", "name": "storage.modifier.raises.pyx"},
            {
                "begin": r"(->)",
                "beginCaptures": caps("punctuation.separator.annotation.result.pyx"),
                "end": r"(?=:(?!=))|(?=\n)",
                "name": "meta.function.return-type.pyx",
                "patterns": [ref("expression")],
            },
        ],
    }


def type_declaration(keyword: str) -> dict:
    return {
        "name": f"meta.{keyword}.pyx",
        "begin": r"\b(" + keyword + r")\s+(" + ID + r")",
        "beginCaptures": caps(f"storage.type.{keyword}.pyx", f"entity.name.type.{keyword}.pyx"),
        "end": r"(:)|(?=\n)",
        "endCaptures": caps(f"punctuation.section.{keyword}.begin.pyx"),
        "patterns": [
            ref("comment"),
            ref(COMPTIME_PARAMETERS),
            {
                "name": "meta.inheritance.pyx",
                "begin": r"(\()",
                "beginCaptures": caps("punctuation.definition.inheritance.begin.pyx"),
                "end": r"(\))",
                "endCaptures": caps("punctuation.definition.inheritance.end.pyx"),
                "patterns": [
                    ref("comment"),
                    {"match": r",", "name": "punctuation.separator.inheritance.pyx"},
                    {"match": ID + r"(?!\s*=)", "name": "entity.other.inherited-class.pyx"},
                    ref("expression"),
                ],
            },
        ],
    }


def launch() -> dict:
    return {
        "name": "meta.launch.pyx",
        "begin": r"\b(launch)\s+((?:" + ID + r"\s*\.\s*)*" + ID + r")\s*(\[)",
        "beginCaptures": caps(
            "keyword.other.launch.pyx", "entity.name.function.kernel.pyx",
            "punctuation.section.launch.begin.pyx",
        ),
        "end": r"(\])",
        "endCaptures": caps("punctuation.section.launch.end.pyx"),
        "patterns": [
            ref("comment"),
            {
                "match": r"\b(" + ID + r")\s*(=)(?!=)",
                "captures": caps("variable.parameter.launch.pyx", "keyword.operator.assignment.pyx"),
            },
            ref("expression"),
        ],
    }


def build() -> dict:
    repo: dict[str, dict] = {}

    repo["statement"] = {"patterns": [
        ref("decorator"), ref("function-declaration"), ref("struct-declaration"),
        ref("trait-declaration"), ref("launch"), ref("declaration-keywords"), ref("expression"),
    ]}
    repo["expression"] = {"patterns": [
        ref("comment"), ref("strings"), ref("numbers"), ref("ellipsis"), ref("dtype-member"),
        ref("member-access"), ref("keywords"), ref("builtin-types"), ref("builtin-functions"),
        ref("gpu-intrinsics"), ref("self"), ref("exceptions"), ref("magic-names"),
        ref("caps-constant"), ref("function-call"), ref("brackets"), ref("operators"),
        ref("punctuation"),
    ]}

    repo["comment"] = {
        "match": r"(#).*$",
        "name": "comment.line.number-sign.pyx",
        "captures": caps("punctuation.definition.comment.pyx"),
    }

    repo["decorator"] = {
        "match": r"^\s*(@)\s*((?:" + ID + r"\s*\.\s*)*" + ID + r")",
        "name": "meta.decorator.pyx",
        "captures": caps("punctuation.definition.decorator.pyx", "entity.name.function.decorator.pyx"),
    }
    repo["function-declaration"] = function_declaration()
    repo["struct-declaration"] = type_declaration("struct")
    repo["trait-declaration"] = type_declaration("trait")
    repo[COMPTIME_PARAMETERS] = parameter_list(
        "meta.parameters.comptime.pyx", r"\[", r"\]", "variable.parameter.comptime.pyx")
    repo["launch"] = launch()

    repo["declaration-keywords"] = {"patterns": [
        {
            "match": r"\b(comptime)\b(?=\s+(?:for|if|while|assert)\b)",
            "captures": caps("keyword.control.comptime.pyx"),
        },
        {
            "match": r"\b(comptime)\s+(" + ID + r")(?=\s*[:=\[])",
            "captures": caps("storage.modifier.comptime.pyx", "variable.other.constant.pyx"),
        },
        {
            "match": r"\b(alias)\s+(" + ID + r")(?=\s*[:=\[])",
            "captures": caps("storage.modifier.alias.pyx", "variable.other.constant.pyx"),
        },
    ]}

    repo["keywords"] = {"patterns": [
        {"match": r"\b(?:fn|def)\b", "name": "storage.type.function.pyx"},
        {"match": r"\bstruct\b", "name": "storage.type.struct.pyx"},
        {"match": r"\btrait\b", "name": "storage.type.trait.pyx"},
        {"match": r"\bvar\b", "name": "storage.type.var.pyx"},
        {"match": r"\bcomptime\b", "name": "storage.modifier.comptime.pyx"},
        {"match": r"\balias\b", "name": "storage.modifier.alias.pyx"},
        {"match": r"\braises\b", "name": "storage.modifier.raises.pyx"},
        {"match": r"\blaunch\b", "name": "keyword.other.launch.pyx"},
        {"match": r"\b(?:if|elif|else)\b", "name": "keyword.control.conditional.pyx"},
        {"match": r"\b(?:for|while|break|continue)\b", "name": "keyword.control.loop.pyx"},
        {"match": r"\b(?:pass|return|assert|with)\b", "name": "keyword.control.flow.pyx"},
        {"match": r"\b(?:raise|try|except|finally)\b", "name": "keyword.control.exception.pyx"},
        {"match": r"\b(?:from|import)\b", "name": "keyword.control.import.pyx"},
        {"match": r"\bas\b", "name": "keyword.control.as.pyx"},
        {"match": r"\b(?:and|or|not|is|in)\b", "name": "keyword.operator.logical.pyx"},
        {"match": r"\b(?:True|False|None)\b", "name": "constant.language.pyx"},
    ]}

    repo["dtype-member"] = {
        "match": r"\b(DType)\s*(\.)\s*(" + "|".join(sorted(DTYPE_MEMBERS, key=lambda s: (-len(s), s))) + r")\b",
        "captures": caps("support.type.pyx", "punctuation.accessor.pyx", "support.constant.dtype.pyx"),
    }
    repo["member-access"] = {"patterns": [
        {
            "match": r"(\.)\s*(__\w+__)\b",
            "captures": caps("punctuation.accessor.pyx", "support.function.magic.pyx"),
        },
        {
            "match": r"(\.)\s*(" + ID + r")" + CALL_AHEAD,
            "name": "meta.function-call.pyx",
            "captures": caps("punctuation.accessor.pyx", "entity.name.function.call.pyx"),
        },
        {
            "match": r"(\.)\s*(" + ID + r")",
            "captures": caps("punctuation.accessor.pyx", "variable.other.member.pyx"),
        },
    ]}
    repo["builtin-types"] = {"patterns": [
        {"match": words(TYPES), "name": "support.type.pyx"},
        # int(x) converts, `x: int` annotates: the same word is a builtin or a type.
        {"match": words(PY_TYPES) + r"(?=\s*\()", "name": "support.function.builtin.pyx"},
        {"match": words(PY_TYPES), "name": "support.type.pyx"},
    ]}
    repo["builtin-functions"] = {"match": words(BUILTINS), "name": "support.function.builtin.pyx"}
    repo["gpu-intrinsics"] = {"patterns": [
        {"match": words(GPU_FUNCTIONS), "name": "support.function.gpu.pyx"},
        {"match": words(GPU_VARIABLES), "name": "support.variable.gpu.pyx"},
        {"match": words(GPU_CONSTANTS), "name": "support.constant.gpu.pyx"},
    ]}
    repo["self"] = {"match": r"(?<!\.)\bself\b", "name": "variable.language.self.pyx"}
    repo["exceptions"] = {"match": words(EXCEPTIONS), "name": "support.type.exception.pyx"}
    repo["magic-names"] = {"match": r"\b__\w+__\b", "name": "support.function.magic.pyx"}
    repo["caps-constant"] = {
        "match": r"(?<!\.)\b_*[[:upper:]][[:upper:][:digit:]]*(?:_[[:upper:][:digit:]]+)*\b(?<=\w\w)",
        "name": "constant.other.caps.pyx",
    }
    repo["function-call"] = {
        "match": r"\b(" + ID + r")" + CALL_AHEAD,
        "name": "meta.function-call.pyx",
        "captures": caps("entity.name.function.call.pyx"),
    }

    repo["numbers"] = {"patterns": [
        {"match": r"\b0[xX](?:_?[0-9a-fA-F])+\b", "name": "constant.numeric.integer.hexadecimal.pyx"},
        {"match": r"\b0[oO](?:_?[0-7])+\b", "name": "constant.numeric.integer.octal.pyx"},
        {"match": r"\b0[bB](?:_?[01])+\b", "name": "constant.numeric.integer.binary.pyx"},
        {
            "match": r"(?:(?<![\w.])(?:[0-9](?:_?[0-9])*\.(?:[0-9](?:_?[0-9])*)?|\.[0-9](?:_?[0-9])*)"
                     r"(?:[eE][+-]?[0-9](?:_?[0-9])*)?"
                     r"|\b[0-9](?:_?[0-9])*[eE][+-]?[0-9](?:_?[0-9])*)(?![\w.])",
            "name": "constant.numeric.float.pyx",
        },
        {"match": r"\b[0-9](?:_?[0-9])*\b", "name": "constant.numeric.integer.decimal.pyx"},
    ]}
    repo["ellipsis"] = {"match": r"\.\.\.", "name": "constant.other.ellipsis.pyx"}

    repo["brackets"] = {"patterns": [
        {
            "begin": r"(\()",
            "beginCaptures": caps("punctuation.parenthesis.begin.pyx"),
            "end": r"(\))",
            "endCaptures": caps("punctuation.parenthesis.end.pyx"),
            "patterns": [ref("keyword-argument"), ref("statement")],
        },
        {
            "begin": r"(\[)",
            "beginCaptures": caps("punctuation.section.brackets.begin.pyx"),
            "end": r"(\])",
            "endCaptures": caps("punctuation.section.brackets.end.pyx"),
            "patterns": [ref("keyword-argument"), ref("statement")],
        },
        {
            "begin": r"(\{)",
            "beginCaptures": caps("punctuation.section.braces.begin.pyx"),
            "end": r"(\})",
            "endCaptures": caps("punctuation.section.braces.end.pyx"),
            "patterns": [ref("statement")],
        },
    ]}
    repo["keyword-argument"] = {
        "match": r"(?<=[(\[,]|^)\s*(" + ID + r")\s*(=)(?!=)",
        "captures": caps("variable.parameter.function-call.pyx", "keyword.operator.assignment.pyx"),
    }

    repo["operators"] = {"patterns": [
        {"match": r"->", "name": "punctuation.separator.annotation.result.pyx"},
        {"match": r":=", "name": "keyword.operator.assignment.walrus.pyx"},
        {"match": r"\*\*=|//=|>>=|<<=|[-+*/%@&|^]=", "name": "keyword.operator.assignment.augmented.pyx"},
        {"match": r"<<|>>|&|\||\^|~", "name": "keyword.operator.bitwise.pyx"},
        {"match": r"==|!=|<=|>=|<|>", "name": "keyword.operator.comparison.pyx"},
        {"match": r"\*\*|//|[-+*/%@]", "name": "keyword.operator.arithmetic.pyx"},
        {"match": r"=", "name": "keyword.operator.assignment.pyx"},
    ]}
    repo["punctuation"] = {"patterns": [
        {"match": r"\\$", "name": "punctuation.separator.continuation.line.pyx"},
        {"match": r",", "name": "punctuation.separator.comma.pyx"},
        {"match": r":", "name": "punctuation.separator.colon.pyx"},
        {"match": r";", "name": "punctuation.terminator.statement.pyx"},
        {"match": r"\.", "name": "punctuation.accessor.pyx"},
    ]}

    repo["strings"] = {"patterns": string_rules()}
    repo["string-escape"] = {
        "match": r"\\(?:[\\'\"abfnrtv]|[0-7]{1,3}|x\h{2}|u\h{4}|U\h{8}|N\{[^}\n]+\}|\n)",
        "name": "constant.character.escape.pyx",
    }
    # In raw strings a backslash still keeps the next quote from closing the string.
    repo["raw-escape"] = {"match": r"\\[\\'\"\n]"}
    repo["fstring-brace-escape"] = {"match": r"\{\{|\}\}", "name": "constant.character.escape.pyx"}
    repo["fstring-interpolation"] = interpolation(single_line=False)
    repo["fstring-interpolation-line"] = interpolation(single_line=True)

    return {
        "$schema": "https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json",
        "name": "pyx",
        "scopeName": "source.pyx",
        "fileTypes": ["px"],
        "comment": "Generated by editors/vscode/scripts/build_grammar.py; edit that file, not this one.",
        "patterns": [ref("statement")],
        "repository": dict(sorted(repo.items())),
    }


def render() -> str:
    return json.dumps(build(), indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    text = render()
    if "--check" in argv:
        if not OUT.exists() or OUT.read_text(encoding="utf-8") != text:
            print(f"{OUT} is stale: run python {Path(__file__).as_posix()}", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
