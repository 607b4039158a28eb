"""Source text -> pyx AST: Lark's LALR parser, Python's indentation rules, our diagnostics."""
from __future__ import annotations

import copy
import functools
import io
import pickle
import re
import threading
import types
import unicodedata
from pathlib import Path

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.indenter import DedentError, PythonIndenter

from .. import cancel
from ..diagnostics import CompileError, DiagnosticBag
from ..source import SourceFile
from . import ast
from .build_ast import build
from .soft_keywords import SOFT_KEYWORDS, retag
from .validate import check_module_shape

GRAMMAR = Path(__file__).with_name("pyx.lark")

# Readable names for the terminals a syntax error mentions.
TOKEN_NAMES = {
    "_NEWLINE": "end of line", "_INDENT": "indentation", "_DEDENT": "end of block",
    "$END": "end of file", "NAME": "name", "DEC_NUMBER": "number", "FLOAT_NUMBER": "number",
    "STRING": "string",
}


class FStringError(Exception):
    """A mistake in an f-string seen in the token stream before the parser sees it."""

    def __init__(self, start: int, end: int, detail: str):
        super().__init__(detail)
        self.start, self.end, self.detail = start, end, detail


def _token_at(tok: Token, kind: str, text: str, offset: int) -> Token:
    """A one-character token at `offset` in `tok` (on its line)."""
    return Token(kind, text, tok.start_pos + offset, tok.line, tok.column + offset,
                 tok.line, tok.column + offset + 1, tok.start_pos + offset + 1)


def _single_quoted(fstring_start: Token) -> bool:
    return "T" not in fstring_start.type.rsplit("_", 1)[-1]  # FSTRING_START_D, _S, _RD, _RS


class _Indenter(PythonIndenter):
    """Python's indentation rules, f-string modes as Python's tokenizer keeps them, and a point
    where a long parse can be cancelled (see cancel.py): Lark parses a megabyte in seconds, and
    an editor may have moved on meanwhile."""

    text: str | None = None  # the text parsed, for soft keywords (soft_keywords.py); None: no lookahead

    def process(self, stream):
        self.open: list[tuple[str, Token]] = []  # what is open at this token: see _modes
        for count, token in enumerate(super().process(self._modes(stream))):
            if count & 4095 == 0:
                cancel.check()
            yield token

    def _modes(self, stream):
        """Keep the stack of open brackets and f-string parts ("f" for an f-string's text, "field"
        for its `{...}`, "spec" once the field's `:` is seen). The grammar tokenizes f-strings
        (pyx.lark); this stack only serves two checks: a newline in a single-quoted f-string's
        text or spec ends it unterminated (inside brackets the indenter would drop the newline
        and the text would go on on the next line), and an error names what was never closed."""
        open_ = self.open
        text = self.text
        for tok in stream:
            kind = tok.type
            if kind in SOFT_KEYWORDS and text is not None:  # `alias = 1` is a name (soft_keywords.py)
                tok = retag(tok, text, bool(open_))
                kind = tok.type
            if kind.startswith("FSTRING_START"):
                open_.append(("f", tok))
            elif kind.startswith("FSTRING_END"):
                if open_ and open_[-1][0] == "f":
                    open_.pop()
            elif kind in ("LPAR", "LSQB"):
                open_.append((kind, tok))
            elif kind == "LBRACE":
                open_.append(("field" if open_ and open_[-1][0] in ("f", "spec") else kind, tok))
            elif kind in ("RPAR", "RSQB", "RBRACE"):
                if open_ and open_[-1][0] != "f":
                    open_.pop()
            elif kind == "COLON" and open_ and open_[-1][0] == "field":
                open_[-1] = ("spec", open_[-1][1])
            elif tok == ":=" and open_ and open_[-1][0] == "field":
                # `f"{x:=5}"` is x with the spec `=5` (`=` alignment), as in Python: a walrus
                # needs brackets there. The lexer read `:=`; the parser gets `:` and spec text.
                open_[-1] = ("spec", open_[-1][1])
                fstring = next(t for k, t in reversed(open_) if k == "f")
                yield _token_at(tok, "COLON", ":", 0)
                yield _token_at(tok, "FSTRING_SPEC_" + fstring.type.rsplit("_", 1)[-1], "=", 1)
                continue
            elif kind == "_NEWLINE" and open_ and open_[-1][0] in ("f", "spec"):
                fstring = next(t for k, t in reversed(open_) if k == "f")
                if _single_quoted(fstring):
                    if open_[-1][0] == "f":
                        raise FStringError(fstring.start_pos, tok.start_pos, "unterminated f-string literal")
                    raise FStringError(tok.start_pos, tok.start_pos + 1,
                                        "a single-quoted f-string's format spec cannot go on on the next "
                                        "line; expected `}`")
            yield tok

    def innermost(self, *kinds: str) -> Token | None:
        """The token that opened the innermost open part of one of these kinds, after an error."""
        return next((tok for kind, tok in reversed(getattr(self, "open", ())) if kind in kinds), None)


class _OnePerParse(_Indenter):
    """The postlexer the one Lark parser keeps, shared by every thread that parses. An _Indenter
    holds the state of one parse (parenthesis depth, indentation stack, open f-string parts), so
    each parse runs a fresh one; `innermost`, asked after an error, answers from the one this
    thread ran last (two compiles in two threads once broke each other's indentation here)."""

    def __init__(self) -> None:
        super().__init__()
        self._mine = threading.local()

    def process(self, stream):
        fresh = _Indenter()
        fresh.text = getattr(self._mine, "text", None)  # what parse() is parsing, for retag()
        self._mine.current = fresh
        return fresh.process(stream)

    def parsing(self, text: str | None) -> None:
        """Tell the next parse in this thread its text (soft keywords look ahead in it)."""
        self._mine.text = text

    def innermost(self, *kinds: str) -> Token | None:
        current = getattr(self._mine, "current", None)
        return current.innermost(*kinds) if current is not None else None


_INDENTER = _OnePerParse()


def _normalize_name(token: Token) -> Token:
    """Python reads every identifier in its NFKC form, so `ﬁ` (a ligature) and `fi` are one
    name; pyx must too, or a program using both would print something else than CPython."""
    if token.isascii():
        return token
    return Token.new_borrow_pos(token.type, unicodedata.normalize("NFKC", token), token)


@functools.lru_cache(maxsize=1)
def _parser() -> Lark:
    text = GRAMMAR.read_text()
    lark = _load_tables(text)
    if lark is None:  # building the LALR tables costs ~0.5 s: kept in this user's cache after
        lark = Lark(text, parser="lalr", start="file_input", maybe_placeholders=True, **_RUNTIME_OPTIONS)
        _store_tables(text, lark)
    _report_tokens_without_fstring_text(lark)
    return lark


def parse_tree(text: str) -> Tree:
    """Lark's tree of `text`, the post-lexer told the text first (soft keywords look ahead in it).
    Raises UnexpectedInput, FStringError or DedentError at the first syntax error."""
    _INDENTER.parsing(text)
    return _parser().parse(text)


def recovering_indenter(text: str) -> _Indenter:
    """A fresh post-lexer for a parse driven token by token (syntax/recovery.py), made this
    thread's current one, so an error found there names what that parse has open (`innermost`)."""
    ind = _Indenter()
    ind.text, ind.open, ind.paren_level, ind.indent_level = text, [], 0, [0]
    _INDENTER._mine.current = ind
    return ind


# What Lark cannot keep in its tables (objects of ours) and gets again when they are loaded.
_RUNTIME_OPTIONS: dict = {"postlex": _INDENTER, "propagate_positions": True,
                          "lexer_callbacks": {"NAME": _normalize_name}}


# The tables' format: the loaded parser itself, pickled (below). Part of the key, so a compiler that
# keeps Lark's own format (`Lark.save`) has a file of its own beside this one's in a shared directory.
_TABLES_FORMAT = "parser object 2 (actions shared), SRE code"


def _tables_entry(text: str) -> tuple[Path, str]:
    """Where this grammar's tables are kept, and the key they are sealed with. Not Lark's own
    `cache=True`: that unpickles a file at a predictable name in the shared temp directory, which
    another local user could plant (docs/security.md). Ours is sealed with this user's secret in
    this user's cache directory, like every other cache file (runtime/cache.py)."""
    import hashlib
    import sys

    import lark

    from ..runtime.cache import user_cache_dir

    key = hashlib.sha256(f"{lark.__version__}\0{sys.version_info[:2]}\0{_TABLES_FORMAT}\0{text}".encode()).hexdigest()
    return user_cache_dir() / f"grammar-{key[:32]}.lark", key


# The parser is kept as the object Lark's own loader builds (`Lark._load` of `Lark.save`'s tables),
# pickled whole: unpickling it costs about a fifth of what `Lark._load` does (its deserialization
# builds 908 parse states' tables and 226 contextual lexers from plain data: 45 ms of CPU on every
# cold start). What is not data is left out and given again on loading: our postlexer, Lark's
# parse-table actions (compared by identity), the tree builder's callbacks (closures, made again by
# `Lark._prepare_callbacks`, 3 ms) and the `re` module, for which the lexers get a `_Regexes`. Only
# Lark's classes and this module's two functions can come out (`_TablesUnpickler.find_class`), and
# the file is sealed (above).
def _lark_action(name: str):
    """Lark's parse-table action `name` (Shift or Reduce): the parser compares them by identity."""
    from lark.parsers import lalr_analysis

    if name not in ("Shift", "Reduce"):
        raise pickle.UnpicklingError(f"Lark has no parse-table action {name!r}")
    return getattr(lalr_analysis, name)


class _Regexes:
    """The `re` module as Lark's lexers use it (`compile`, `match`, `error`), with their regular
    expressions compiled when the tables were built. A contextual lexer's scanner is one regular
    expression joining every terminal its parser state accepts, compiled by Python's `re` (in
    Python) on its first use: the first parse in a process spent 10 to 20 ms of CPU there, however
    short the file. `re` compiles in two steps, the pattern to SRE code (Python) and that code to a
    pattern object (`_sre.compile`, C, which validates the code); the first step's results are kept
    in the tables file, keyed by what Lark asks for, and only the second runs here, on first use. A
    pattern not kept (a scanner of the error path) is compiled by `re` as before."""

    error = re.error

    def __init__(self, compiled: dict[tuple[str, int], tuple] | None = None, record: bool = False):
        self._compiled = compiled or {}  # (pattern, flags) -> _sre.compile's arguments
        self._made: dict[tuple[str, int], re.Pattern] = {}
        self._record = record  # (when the tables are built) keep what each compile asked for

    def compile(self, pattern: str, flags: int = 0) -> re.Pattern:
        key = (pattern, flags)
        made = self._made.get(key)
        if made is None:
            if self._record:
                self._compiled[key] = _sre_arguments(pattern, flags)
            arguments = self._compiled.get(key)
            try:
                made = _sre_compile(arguments) if arguments is not None else None
            except (RuntimeError, TypeError, ValueError, OverflowError):  # code _sre refuses: `re` compiles it
                made = None
            made = self._made[key] = made or re.compile(pattern, flags)
        return made

    def match(self, pattern: str, string: str, flags: int = 0) -> re.Match | None:
        return self.compile(pattern, flags).match(string)

    def arguments(self) -> dict[tuple[str, int], tuple]:
        return dict(self._compiled)


def _sre_arguments(pattern: str, flags: int) -> tuple:
    """What `re._compiler.compile(pattern, flags)` hands `_sre.compile` (Python 3.11 to 3.13)."""
    from re import _compiler, _parser  # type: ignore[attr-defined]

    parsed = _parser.parse(pattern, flags)
    groupindex = dict(parsed.state.groupdict)
    indexgroup = [None] * parsed.state.groups
    for name, index in groupindex.items():
        indexgroup[index] = name
    code = [int(word) for word in _compiler._code(parsed, flags)]  # (the opcodes are int subclasses)
    return pattern, int(flags | parsed.state.flags), code, parsed.state.groups - 1, groupindex, tuple(indexgroup)


def _sre_compile(arguments: tuple) -> re.Pattern:
    import _sre  # type: ignore[import-not-found]

    return _sre.compile(*arguments)


def _regexes_key() -> str:
    """What the kept SRE code depends on: the `re` engine's version."""
    import _sre

    return f"sre {_sre.MAGIC} {_sre.CODESIZE}"


class _TablesPickler(pickle.Pickler):
    def __init__(self, file, lark: Lark):
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self._actions = {id(_lark_action(name)): name for name in ("Shift", "Reduce")}
        self._given = {id(_INDENTER): "postlex", id(lark._callbacks): "callbacks",
                       id(lark._parse_tree_builder): "tree builder", id(re): "regexes"}

    def reducer_override(self, obj):
        name = self._actions.get(id(obj))
        return (_lark_action, (name,)) if name is not None else NotImplemented  # (pickled once, then memoized)

    def persistent_id(self, obj):
        given = self._given.get(id(obj))
        if given is None and isinstance(obj, types.ModuleType):
            raise pickle.PicklingError(f"a parser referring to module {obj.__name__}")
        return given


class _TablesUnpickler(pickle.Unpickler):
    def __init__(self, file, regexes: _Regexes):
        super().__init__(file)
        self.callbacks: dict = {}  # filled once the rules are back
        self._given = {"postlex": _INDENTER, "callbacks": self.callbacks, "tree builder": None, "regexes": regexes}

    def persistent_load(self, pid):
        if pid not in self._given:
            raise pickle.UnpicklingError(f"unknown reference {pid!r}")
        return self._given[pid]

    def find_class(self, module, name):
        if (module, name) in ((__name__, "_normalize_name"), (__name__, "_lark_action")):
            return super().find_class(module, name)
        if (module == "lark" or module.startswith("lark.")) and "." not in name:
            found = super().find_class(module, name)
            # only Lark's own classes: a module lark imports (`lark.utils.os`) or a function is no parser part
            if isinstance(found, type) and (found.__module__ == "lark" or found.__module__.startswith("lark.")):
                return found
        raise pickle.UnpicklingError(f"{module}.{name} is not part of a parser")


class _PlainData(pickle.Unpickler):
    """Tuples, lists, dicts, strings and numbers only."""

    def find_class(self, module, name):
        raise pickle.UnpicklingError(f"{module}.{name} in plain data")


def _load_tables(text: str) -> Lark | None:
    import gc

    from ..runtime import cache

    path, key = _tables_entry(text)
    payload = cache.unseal(cache.read_trusted(path), "grammar", key, path)
    if payload is None:
        return None
    collecting = gc.isenabled()
    gc.disable()  # some 10^5 objects, none garbage: the collector would walk them again and again
    try:
        data = io.BytesIO(payload)
        sre_key, compiled = _PlainData(data).load()
        unpickler = _TablesUnpickler(data, _Regexes(compiled if sre_key == _regexes_key() else None))
        lark = unpickler.load()
        if not isinstance(lark, Lark):
            return None
        lark._prepare_callbacks()
    except Exception:  # noqa: BLE001 - tables of another Lark version: build them again
        return None
    finally:
        if collecting:
            gc.enable()
    unpickler.callbacks.update(lark._callbacks)  # the dict the parser holds, pickled as a reference
    lark._callbacks = unpickler.callbacks
    return lark


def _store_tables(text: str, lark: Lark) -> None:
    """Keep `lark` (a parser just built from the grammar) as the object Lark's loader makes of it,
    with the SRE code of every contextual lexer's scanner."""
    from lark.lark import _LOAD_ALLOWED_OPTIONS

    from ..runtime import cache

    path, key = _tables_entry(text)
    tables = io.BytesIO()
    lark.save(tables, exclude_options=_LOAD_ALLOWED_OPTIONS)
    tables.seek(0)
    loaded = Lark.__new__(Lark)._load(tables, **_RUNTIME_OPTIONS)
    _share_actions(loaded)
    data = io.BytesIO()
    try:
        pickle.Pickler(data, protocol=pickle.HIGHEST_PROTOCOL).dump((_regexes_key(), _scanner_code(loaded)))
        _TablesPickler(data, loaded).dump(loaded)
    except (pickle.PicklingError, TypeError, AttributeError):  # a Lark whose parser holds what we cannot keep
        return  # (the next process builds the tables again)
    try:
        cache.write_atomic(path, cache.seal("grammar", key, data.getvalue()))
    except OSError:  # no trusted cache directory: the next process builds the tables again
        pass


def _share_actions(lark: Lark) -> None:
    """One tuple per distinct action of the LALR table (`(Shift, 12)`, `(Reduce, rule)`), which the
    pickle then stores once: the table's 29,097 entries are 1,640 actions, and a tuple each was
    three quarters of the parser's 40,800 objects, which every process loads, the collector walks
    and the interpreter frees at exit (what kept a cold `import_module` slower than cb07bd1's)."""
    shared: dict[tuple, tuple] = {}
    for actions in lark.parser.parser.parser.parse_table.states.values():
        for token, action in actions.items():
            kind, argument = action  # a state number, or a Rule (the same Rule object: by identity)
            key = (kind, argument if isinstance(argument, int) else id(argument))
            actions[token] = shared.setdefault(key, action)


def _scanner_code(lark: Lark) -> dict[tuple[str, int], tuple]:
    """The SRE code of every contextual lexer's scanner (`_Regexes`), each built as its first use
    builds it, then dropped again (the lexers are pickled as they were). Empty where this Python's
    `re` is not what `_sre_arguments` reads: the scanners are then compiled on first use."""
    recorder = _Regexes(record=True)
    lexers = {id(x): x for x in lark.parser.lexer.lexer.lexers.values()}.values()
    try:
        for lexer in lexers:
            lexer.re = recorder
            lexer._build_scanner()  # (what its first use does: Lark's scanner, its `unless` callbacks)
    except (ImportError, AttributeError, TypeError, ValueError):
        return {}
    finally:
        for lexer in lexers:
            lexer.re, lexer._scanner = re, None
            lexer.__dict__.pop("callback", None)  # as before its first use (and it holds a lambda)
    return recorder.arguments()


def _report_tokens_without_fstring_text(lark: Lark) -> None:
    """When no token the parser expects matches, Lark's contextual lexer reads the text again
    with every terminal to say what it found ("unexpected name `print`"). An f-string's text
    terminals match nearly any character and have a high priority (they must win over spaces
    and comments inside an f-string), so they would be found instead: that second reading
    leaves them out. (Lark's internals: if they change, errors only name less precisely.)"""
    contextual = getattr(getattr(lark.parser, "lexer", None), "lexer", None)
    root = getattr(contextual, "root_lexer", None)
    if root is None:
        return
    conf = copy.copy(lark.lexer_conf)
    conf.terminals = [t for t in conf.terminals
                      if not t.name.startswith(("FSTRING_MIDDLE", "FSTRING_SPEC", "FSTRING_END"))]
    conf.skip_validation = True
    contextual.root_lexer = type(root)(conf)


def parse(source: SourceFile, diags: DiagnosticBag | None = None, debug_leaks: bool = False) -> ast.Module:
    """Parse a file. Syntax errors raise at once; with `diags` given, errors about
    constructs pyx does not support are collected there and parsing returns a module
    the checker can go on with (the caller raises later, with everything it found).
    `debug_leaks`: the classes get the registry of `--debug-leaks` (syntax/leak_report.py)."""
    keep_going = diags is not None
    diags = diags if diags is not None else DiagnosticBag()
    text = source.text if source.text.endswith("\n") else source.text + "\n"
    try:
        tree = parse_tree(text)
    except (UnexpectedInput, FStringError, DedentError) as exc:
        first = _syntax_diagnostic(source, exc)
        diags.add(first)
        for diag in _more_syntax_errors(source, text, first):
            diags.add(diag)
        diags.raise_if_errors()
        raise
    body = build(tree, source, diags, debug_leaks)
    module = ast.Module(source.span(0, len(source.text)), Path(source.name).stem, body)
    if not check_module_shape(module, diags) or not keep_going:
        # Too deep (E0003) stops here even when the caller goes on after errors: the checker and
        # the lowering recurse over the tree, and it is deeper than they are built to walk.
        diags.raise_if_errors()
    return module


def _syntax_diagnostic(source: SourceFile, exc: Exception):
    from ..diagnostics import error

    if isinstance(exc, FStringError):
        return error("E0004", source.span(exc.start, max(exc.end, exc.start + 1)), detail=exc.detail)
    if isinstance(exc, DedentError):
        return error("E0005", _last_line_span(source))
    return _syntax_error(source, exc)


def _more_syntax_errors(source: SourceFile, text: str, first) -> list:
    """The syntax errors after the first (recovery.py): the first parse stops at its first error."""
    from .recovery import more_errors

    found: list = []
    try:
        more_errors(_parser(), text, lambda exc: _syntax_diagnostic(source, exc), found)
    except Exception:  # noqa: BLE001 - recovery is a best effort: what it found until here stands
        pass
    start = first.span.start if first.span is not None else -1
    return [d for d in found if d.span is not None and d.span.start > start]


def _last_line_span(source: SourceFile):
    return source.span(max(0, len(source.text.rstrip()) - 1), len(source.text.rstrip()))


def _unclosed_bracket() -> int | None:
    """Offset of the innermost bracket still open where the parse stopped (the indenter's
    stack, so brackets inside f-strings count as Python 3.12 counts them)."""
    opener = _INDENTER.innermost("LPAR", "LSQB", "LBRACE", "field", "spec")
    return opener.start_pos if opener is not None else None


def _describe(token) -> str:
    if token.type in TOKEN_NAMES:
        name = TOKEN_NAMES[token.type]
        return f"{name} `{token}`" if token.type in ("NAME", "DEC_NUMBER", "FLOAT_NUMBER") else name
    return f"`{token}`"


def _syntax_error(source: SourceFile, exc: UnexpectedInput):
    from ..diagnostics import error

    pos = getattr(exc, "pos_in_stream", None)
    fstring = _fstring_error(source, exc)
    if fstring is not None:
        return fstring
    if isinstance(exc, UnexpectedToken):
        tok = exc.token
        if tok.type in ("$END", "_DEDENT"):
            opener = _unclosed_bracket()
            if opener is not None:
                return error("E0001", source.span(opener, opener + 1),
                             detail=f"`{source.text[opener]}` was never closed")
        if tok.type in ("_INDENT", "_DEDENT") and tok.end_pos is not None:
            # Indentation tokens borrow the newline's position; point at the line they start.
            start = tok.end_pos
            end = source.text.find("\n", start)
            span = source.span(start, end if end > start else start + 1)
            if tok.type == "_INDENT":
                return error("E0005", span)
            return error("E0001", span, detail="unexpected end of block")
        before = source.text[:tok.start_pos].rstrip()
        if (exc.expected and (set(exc.expected) <= {"_INDENT"} or before.endswith(":")) and tok.column == 1) \
                or set(exc.expected) <= {"_INDENT"} \
                or (set(exc.expected) <= {"_INDENT", "_NEWLINE"} and before.endswith(":")):  # lexed at a header's end
            return error("E0001", source.span(tok.start_pos, tok.end_pos), detail="expected an indented block")
        if tok.type == "$END" or pos is None:
            span = _last_line_span(source)
        else:
            span = source.span(tok.start_pos, tok.end_pos if tok.end_pos is not None else tok.start_pos + 1)
        detail = f"unexpected {_describe(tok)}"
        expected = _expected(exc)
        if expected:
            detail += f"; expected {expected}"
        if tok.type in ("_INDENT", "_DEDENT"):
            return error("E0005", span)
        return error("E0001", span, detail=detail)
    if isinstance(exc, UnexpectedCharacters):
        return _bad_character(source, exc.pos_in_stream)
    if isinstance(exc, UnexpectedEOF):
        return error("E0001", _last_line_span(source), detail="unexpected end of file")
    return error("E0001", _last_line_span(source), detail=str(exc))


def _fstring_error(source: SourceFile, exc: UnexpectedInput):
    """Python 3.12's f-string errors, in pyx's words, or None when the error is not one."""
    from ..diagnostics import error

    if not isinstance(exc, UnexpectedToken):
        return None
    tok, expected = exc.token, set(exc.expected) - {"_NEWLINE"}
    if tok.type in ("$END", "_DEDENT"):
        start = _INDENTER.innermost("f")
        if start is None:
            return None
        return error("E0004", source.span(start.start_pos, start.end_pos),
                     detail=("unterminated triple-quoted f-string literal" if not _single_quoted(start)
                             else "unterminated f-string literal"))
    ch = source.text[tok.start_pos:tok.start_pos + 1]
    span = source.span(tok.start_pos, tok.start_pos + 1)
    if ch == "}" and any(t.startswith("FSTRING_MIDDLE") for t in expected):
        return error("E0004", span, detail="a single `}` is not allowed in an f-string (`}}` is a literal `}`)")
    before = source.text[:tok.start_pos].rstrip()
    if before.endswith("{") and ch in "}!:=" and "RBRACE" not in expected:
        return error("E0004", span, detail=f"an f-string field needs an expression before `{ch}`")
    if before.endswith("!") and expected == {"NAME"}:
        return error("E0004", span, detail="missing conversion character after `!` (`r`, `s` or `a`)")
    if tok.type.startswith(("FSTRING_MIDDLE", "FSTRING_SPEC", "FSTRING_END")):
        # Lark's contextual lexer read nothing the parser could take here, and then read the
        # text with every terminal: an f-string's text matches nearly anything, so what is
        # wrong is the character here.
        return _bad_character(source, tok.start_pos)
    return None


def _bad_character(source: SourceFile, pos: int):
    """The error at a character that starts no token the parser can take there."""
    from ..diagnostics import error

    ch = source.text[pos] if pos < len(source.text) else "?"
    number = re.match(r"0\d[\d_]*", source.text[pos:])
    if number:
        return error("E0004", source.span(pos, pos + number.end()),
                     detail="leading zeros in decimal integer literals are not permitted; "
                            "use an 0o prefix for octal integers")
    if ch in "\"'":
        fstring, field = _INDENTER.innermost("f"), _INDENTER.innermost("field", "spec")
        if fstring is not None and field is not None and field.start_pos > fstring.start_pos:
            return error("E0004", source.span(pos, pos + 1), detail="expected `}` before the end of the f-string")
        return error("E0004", source.span(pos, pos + 1), detail="unterminated string literal")
    shown = f"`{ch}`" if ch.isprintable() else f"U+{ord(ch):04X}"  # a NUL or an escape code, named
    return error("E0001", source.span(pos, pos + 1), detail=f"unexpected character {shown}")


def _expected(exc: UnexpectedToken) -> str:
    lark = _parser()
    names = []
    for term in sorted(exc.expected):
        if term in TOKEN_NAMES:
            names.append(TOKEN_NAMES[term])
            continue
        try:
            pattern = lark.get_terminal(term).pattern
        except KeyError:
            continue
        if pattern.type == "str":
            names.append(f"`{pattern.value}`")
    if not names or len(names) > 5:
        return ""
    return ", ".join(names[:-1]) + (" or " if len(names) > 1 else "") + names[-1]


def parse_file(path: str) -> ast.Module:
    return parse(SourceFile.read(path))


__all__ = ["CompileError", "parse", "parse_file"]
