"""Every syntax error of a file at once, not only the first.

parser.parse() parses at full speed and, on its first syntax error, asks `more_errors` for the
rest: a second parse that recovers after each error and goes on. That parse drives Lark's
LALR parser token by token (its own `on_error` cannot be used: resuming starts a new post-lexer
and so forgets the indentation stack), with one post-lexer (parser._Indenter) that lives through
the whole parse; after an error the lexer is moved on in the text and a new token stream is
started from the same post-lexer.

Recovery, by where the error is:
- inside a statement: the statement is dropped. The text scanner below finds the end of its
  logical line (brackets, strings, comments, continuations); the parser's stack is popped back to
  where a statement can begin, and `pass` is fed in the dropped statement's place (`if True:`
  when the dropped line opened a block, so its indented block and an `else:` after it still
  parse); lexing goes on at that line's end.
- an unexpected indent: reported, and the indented lines are read as if they were not (the
  INDENT and its DEDENT are dropped).
- a block header with no indented block after it: reported, and `pass` is its body.
- a bracket or string never closed, an inconsistent dedent, an unterminated f-string: reported,
  and the search stops there (what follows depends on where the user meant the bracket, string
  or block to end, and guessing would report errors that are not there). An inconsistent dedent
  after another error is not reported: a dropped block header is its usual cause.

Cascades are avoided: an indented block after a dropped line is read as part of the enclosing
block, silently; a dropped block header that was followed by no block is not reported twice;
after a first error, an unexpected indent or end of block is recovered from but not reported
(the block structure is a guess by then, and Python itself reports only the first error).
At most MAX_ERRORS are reported. The checker does not run on a file with syntax errors: the
dropped statements would leave names undefined and report errors that are not in the file.
"""
from __future__ import annotations

from copy import copy

from lark import Token
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken
from lark.indenter import DedentError

from .. import cancel

MAX_ERRORS = 20


def logical_line_end(text: str, start: int) -> int | None:
    """The offset of the newline that ends the logical line starting at `start`: one outside
    brackets and strings, not escaped by a backslash. None when the text ends first (in an
    open bracket or a triple-quoted string)."""
    depth, i, n = 0, start, len(text)
    while i < n:
        c = text[i]
        if c == "#":
            i = text.find("\n", i)
            if i < 0:
                return None
            continue
        if c == "\\" and text.startswith(("\n", "\r\n"), i + 1):
            i += 2 if text[i + 1] == "\n" else 3
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth = max(0, depth - 1)
        elif c == "\n" and depth == 0:
            return i
        elif c in "\"'":
            after = _string_end(text, i)
            if after is None:
                return None
            i = after
            continue
        i += 1
    return None


def _string_end(text: str, i: int) -> int | None:
    """The offset after the string literal whose quote is at i (at the newline, for a single-quoted
    one never closed); None for a triple-quoted one never closed."""
    quote = text[i] * 3 if text.startswith(text[i] * 3, i) else text[i]
    j = i + len(quote)
    while j < len(text):
        if text[j] == "\\":
            j += 2
            continue
        if text.startswith(quote, j):
            return j + len(quote)
        if text[j] == "\n" and len(quote) == 1:
            return j
        j += 1
    return None if len(quote) == 3 else len(text)


def opens_block(text: str, start: int, end: int) -> bool:
    """Whether the logical line text[start:end] ends with `:` (comments aside): a block header."""
    line = text[start:end]
    while True:
        hash_at = line.rfind("#")
        newline_at = line.rfind("\n")
        if hash_at > newline_at and not any(q in line[hash_at:] for q in "\"'"):
            line = line[:hash_at]
            continue
        break
    return line.rstrip().endswith(":")


def more_errors(lark, text: str, report, found: list) -> list:
    """The syntax errors of `text` in order, as `report(exception)` makes them diagnostics (the first
    is the one a plain parse stops at), appended to `found` as they are met (so a caller keeps
    those found before anything unforeseen stops the search). `report` reads the post-lexer's
    state (what is open), which is this parse's while it runs."""
    from .parser import _INDENTER, _FStringError, _Indenter

    ip = lark.parse_interactive(text)
    ps = ip.parser_state
    ps.parse_conf = copy(ps.parse_conf)
    ps.parse_conf.callbacks = {}  # no tree: only whether the tokens parse
    states = ps.parse_conf.parse_table.states
    lexer_state = ip.lexer_thread.state
    contextual = ip.lexer_thread.lexer.lexer  # under the PostLexConnector

    ind = _Indenter()
    ind.text, ind.open, ind.paren_level, ind.indent_level = text, [], 0, [0]
    _INDENTER._mine.current = ind  # so `report` names what this parse has open

    def tokens():
        return ind._process(ind._modes(contextual.lex(lexer_state, ps)))

    def move_lexer(pos: int) -> None:
        counter = lexer_state.line_ctr
        counter.feed(text[counter.char_pos:pos]) if pos >= counter.char_pos else _reset(counter, text, pos)

    def pop_to_statement() -> None:
        while len(ps.state_stack) > 1 and not {"PASS", "IF"} <= states[ps.state_stack[-1]].keys():
            ps.state_stack.pop()
            ps.value_stack.pop()

    def feed(kind: str, value: str, where: Token) -> None:
        ps.feed_token(Token.new_borrow_pos(kind, value, where))

    phantom: list[int] = []  # indentation depths whose INDENT was dropped: their DEDENT is dropped too
    drop_next_indent = False  # after a dropped simple statement: its indented block is not an error
    quiet_block = False  # after a dropped block header: no block following it is not reported again
    stmt_start, at_line_start, count = 0, True, 0
    stream = tokens()
    pending: Token | None = None

    def drop_statement(where: Token, error_pos: int) -> bool:
        """Drop the statement that starts at stmt_start, and go on after its logical line.
        False when its end cannot be found."""
        nonlocal stream, drop_next_indent, quiet_block
        end = logical_line_end(text, stmt_start)
        if end is None:  # a bracket or string open to the end: where it was meant to close is a guess
            return False
        if end < error_pos:
            end = text.find("\n", error_pos)
            if end < 0:
                return False
        pop_to_statement()
        if opens_block(text, stmt_start, end):
            for kind, value in (("IF", "if"), ("TRUE", "True"), ("COLON", ":")):
                feed(kind, value, where)
            quiet_block = True
        else:
            feed("PASS", "pass", where)
            drop_next_indent = True
        ind.paren_level, ind.open[:] = 0, []
        move_lexer(end)
        stream = tokens()
        return True

    finished = False  # the whole text was read
    recoveries = 0  # each moves on in the text; the bound is insurance against a loop in place
    while len(found) < MAX_ERRORS and recoveries < 10 * MAX_ERRORS:
        count += 1
        if count & 4095 == 0:
            cancel.check()
        try:
            tok = pending if pending is not None else next(stream)
            pending = None
        except StopIteration:
            finished = True
            break
        except (UnexpectedToken, UnexpectedCharacters) as exc:  # no token the parser takes here
            recoveries += 1
            where = exc.token if isinstance(exc, UnexpectedToken) else _token_at(text, exc.pos_in_stream or 0)
            if at_line_start:
                stmt_start = _start(where)
            if isinstance(exc, UnexpectedToken) and set(exc.expected) <= {"_INDENT", "_NEWLINE"} \
                    and at_line_start:
                if not quiet_block:  # a header with no block: `pass` is its body; `where` is lexed again
                    found.append(report(exc))
                quiet_block = False
                try:
                    pop_to_statement()
                    feed("PASS", "pass", where)
                    feed("_NEWLINE", "\n", where)
                except UnexpectedToken:
                    break
                move_lexer(_start(where))
                stream = tokens()
                continue
            found.append(report(exc))
            try:
                if not drop_statement(where, _start(where)):
                    break
            except UnexpectedToken:
                break
            continue
        except (_FStringError, DedentError) as exc:
            if not (found and isinstance(exc, DedentError)):  # after an error, likely its consequence
                found.append(report(exc))
            break

        kind = tok.type
        if kind == "_INDENT" and drop_next_indent:
            phantom.append(len(ind.indent_level))
            drop_next_indent = False
            continue
        if kind == "_DEDENT" and phantom and len(ind.indent_level) < phantom[-1]:
            phantom.pop()
            continue
        if kind not in ("_NEWLINE", "_INDENT", "_DEDENT"):
            drop_next_indent = False
            if at_line_start:
                stmt_start = _start(tok)
            at_line_start = False
        try:
            ps.feed_token(tok)
        except UnexpectedToken as exc:
            recoveries += 1
            # After an error, what the blocks are is a guess (a line was dropped, a block read as
            # its parent's): an indentation error then is most likely a consequence, not reported.
            if kind == "_INDENT":  # an unexpected indent: its lines are read as the enclosing block's
                if not found:
                    found.append(report(exc))
                phantom.append(len(ind.indent_level))
                continue
            if kind == "_DEDENT" or set(exc.expected) <= {"_INDENT"}:  # a header with no block
                if not quiet_block and not (found and kind == "_DEDENT"):
                    found.append(report(exc))
                quiet_block = False
                try:
                    pop_to_statement()
                    feed("PASS", "pass", tok)
                    feed("_NEWLINE", "\n", tok)
                except UnexpectedToken:
                    break
                pending = tok
                continue
            found.append(report(exc))
            try:
                if kind == "_NEWLINE":  # the statement ends here: `pass` in its place, and on
                    pop_to_statement()
                    # `if x > 1` (no `:`): a header all the same, so its block and `else:` parse
                    if opens_block(text, stmt_start, _start(tok)) or "COLON" in exc.expected:
                        for k, v in (("IF", "if"), ("TRUE", "True"), ("COLON", ":")):
                            feed(k, v, tok)
                        quiet_block = True
                    else:
                        feed("PASS", "pass", tok)
                        drop_next_indent = True
                    pending = tok
                elif not drop_statement(tok, _start(tok)):
                    break
            except UnexpectedToken:
                break
            continue
        if kind in ("_NEWLINE", "_INDENT", "_DEDENT"):
            at_line_start = True
            if kind == "_INDENT":
                quiet_block = False
        elif kind != "COLON":
            quiet_block = False
    if finished:
        try:
            ip.feed_eof(lexer_state.last_token)
        except UnexpectedInput as exc:
            found.append(report(exc))
    return found


def _start(tok: Token) -> int:
    return tok.start_pos if tok.start_pos is not None else 0


def _token_at(text: str, pos: int) -> Token:
    """A token standing for the character at pos (an error where no token could be read)."""
    line = text.count("\n", 0, pos) + 1
    col = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return Token("ERROR", text[pos:pos + 1], pos, line, col, line, col + 1, pos + 1)


def _reset(counter, text: str, pos: int) -> None:
    """Move a Lark LineCounter back to `pos` (to read a token again)."""
    counter.char_pos = pos
    counter.line = text.count("\n", 0, pos) + 1
    counter.line_start_pos = text.rfind("\n", 0, pos) + 1
    counter.column = pos - counter.line_start_pos + 1
