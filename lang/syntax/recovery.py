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
    """Whether the logical line text[start:end] ends with `:` (comments aside): a block header.
    Strings are skipped whole, so a quote or a `#` in a comment or a string misleads nothing."""
    last, i = "", start
    while i < end:
        c = text[i]
        if c == "#":
            newline = text.find("\n", i, end)
            i = end if newline < 0 else newline
            continue
        if c in "\"'":
            last, i = c, _string_end(text, i) or end
            continue
        if not c.isspace() and c != "\\":
            last = c
        i += 1
    return last == ":"


def more_errors(lark, text: str, report, found: list) -> list:
    """The syntax errors of `text` in order, as `report(exception)` makes them diagnostics (the first
    is the one a plain parse stops at), appended to `found` as they are met (so a caller keeps
    those found before anything unforeseen stops the search). `report` reads the post-lexer's
    state (what is open), which is this parse's while it runs."""
    search = _Recovery(lark, text, report, found)
    if search.run():  # the whole text was read
        try:
            search.ip.feed_eof(search.lexer_state.last_token)
        except UnexpectedInput as exc:
            found.append(report(exc))
    return found


class _Recovery:
    """The parse `more_errors` drives token by token, and how it recovers (the module's docstring)."""

    def __init__(self, lark, text: str, report, found: list):
        from .parser import recovering_indenter

        self.text, self.report, self.found = text, report, found
        self.ip = lark.parse_interactive(text)
        ps = self.ps = self.ip.parser_state
        ps.parse_conf = copy(ps.parse_conf)
        ps.parse_conf.callbacks = {}  # no tree: only whether the tokens parse
        self.states = ps.parse_conf.parse_table.states
        self.lexer_state = self.ip.lexer_thread.state
        self.contextual = self.ip.lexer_thread.lexer.lexer  # under the PostLexConnector
        self.ind = recovering_indenter(text)  # so `report` names what this parse has open
        self.phantom: list[int] = []  # indentation depths whose INDENT was dropped: their DEDENT is dropped too
        self.drop_next_indent = False  # after a dropped simple statement: its indented block is not an error
        self.quiet_block = False  # after a dropped block header: no block following it is not reported again
        self.stmt_start, self.at_line_start = 0, True
        self.stream = self.tokens()
        self.pending: Token | None = None
        self.recoveries = 0  # each moves on in the text; the bound is insurance against a loop in place

    def tokens(self):
        return self.ind._process(self.ind._modes(self.contextual.lex(self.lexer_state, self.ps)))

    def move_lexer(self, pos: int) -> None:
        counter = self.lexer_state.line_ctr
        counter.feed(self.text[counter.char_pos:pos]) if pos >= counter.char_pos else _reset(counter, self.text, pos)

    def pop_to_statement(self) -> None:
        ps = self.ps
        while len(ps.state_stack) > 1 and not {"PASS", "IF"} <= self.states[ps.state_stack[-1]].keys():
            ps.state_stack.pop()
            ps.value_stack.pop()

    def feed(self, kind: str, value: str, where: Token) -> None:
        self.ps.feed_token(Token.new_borrow_pos(kind, value, where))

    def without_block(self, exc: UnexpectedInput, where: Token, reported: bool) -> bool:
        """A block header with no block: the error reported where `reported`, and `pass` as its body;
        False where that cannot go."""
        if reported:
            self.found.append(self.report(exc))
        self.quiet_block = False
        try:
            self.pop_to_statement()
            self.feed("PASS", "pass", where)
            self.feed("_NEWLINE", "\n", where)
        except UnexpectedToken:
            return False
        return True

    def in_place_of_statement(self, where: Token, header: bool) -> None:
        """`if True:` in place of a dropped block header (its block and an `else:` after it still
        parse), `pass` in place of a dropped simple statement."""
        if header:
            for kind, value in (("IF", "if"), ("TRUE", "True"), ("COLON", ":")):
                self.feed(kind, value, where)
            self.quiet_block = True
        else:
            self.feed("PASS", "pass", where)
            self.drop_next_indent = True

    def drop_statement(self, where: Token, error_pos: int) -> bool:
        """Drop the statement that starts at stmt_start, and go on after its logical line.
        False when its end cannot be found."""
        text = self.text
        end = logical_line_end(text, self.stmt_start)
        if end is None:  # a bracket or string open to the end: where it was meant to close is a guess
            return False
        if end < error_pos:
            end = text.find("\n", error_pos)
            if end < 0:
                return False
        self.pop_to_statement()
        self.in_place_of_statement(where, opens_block(text, self.stmt_start, end))
        self.ind.paren_level, self.ind.open[:] = 0, []
        self.move_lexer(end)
        self.stream = self.tokens()
        return True

    def run(self) -> bool:
        """Parse on, recovering from each error: True once the whole text was read, False where the
        search stopped first."""
        from .parser import FStringError

        count = 0
        while len(self.found) < MAX_ERRORS and self.recoveries < 10 * MAX_ERRORS:
            count += 1
            if count & 4095 == 0:
                cancel.check()
            try:
                tok = self.pending if self.pending is not None else next(self.stream)
                self.pending = None
            except StopIteration:
                return True
            except (UnexpectedToken, UnexpectedCharacters) as exc:  # no token the parser takes here
                if not self.unlexed(exc):
                    return False
                continue
            except (FStringError, DedentError) as exc:
                if not (self.found and isinstance(exc, DedentError)):  # after an error, likely its consequence
                    self.found.append(self.report(exc))
                return False
            if not self.take(tok):
                return False
        return False

    def unlexed(self, exc: UnexpectedToken | UnexpectedCharacters) -> bool:
        """Recover from a token the lexer could not give; False where the search stops."""
        self.recoveries += 1
        where = exc.token if isinstance(exc, UnexpectedToken) else _token_at(self.text, exc.pos_in_stream or 0)
        if self.at_line_start:
            self.stmt_start = _start(where)
        if isinstance(exc, UnexpectedToken) and set(exc.expected) <= {"_INDENT", "_NEWLINE"} \
                and self.at_line_start:
            # a header with no block: `pass` is its body; `where` is lexed again
            if not self.without_block(exc, where, not self.quiet_block):
                return False
            self.move_lexer(_start(where))
            self.stream = self.tokens()
            return True
        self.found.append(self.report(exc))
        try:
            return self.drop_statement(where, _start(where))
        except UnexpectedToken:
            return False

    def take(self, tok: Token) -> bool:
        """Feed one token to the parser (dropping a phantom block's INDENT and DEDENT); False where
        the search stops."""
        kind = tok.type
        if kind == "_INDENT" and self.drop_next_indent:
            self.phantom.append(len(self.ind.indent_level))
            self.drop_next_indent = False
            return True
        if kind == "_DEDENT" and self.phantom and len(self.ind.indent_level) < self.phantom[-1]:
            self.phantom.pop()
            return True
        if kind not in ("_NEWLINE", "_INDENT", "_DEDENT"):
            self.drop_next_indent = False
            if self.at_line_start:
                self.stmt_start = _start(tok)
            self.at_line_start = False
        try:
            self.ps.feed_token(tok)
        except UnexpectedToken as exc:
            return self.unparsed(tok, exc)
        if kind in ("_NEWLINE", "_INDENT", "_DEDENT"):
            self.at_line_start = True
            if kind == "_INDENT":
                self.quiet_block = False
        elif kind != "COLON":
            self.quiet_block = False
        return True

    def unparsed(self, tok: Token, exc: UnexpectedToken) -> bool:
        """Recover from a token the parser does not take; False where the search stops."""
        self.recoveries += 1
        kind = tok.type
        # After an error, what the blocks are is a guess (a line was dropped, a block read as
        # its parent's): an indentation error then is most likely a consequence, not reported.
        if kind == "_INDENT":  # an unexpected indent: its lines are read as the enclosing block's
            if not self.found:
                self.found.append(self.report(exc))
            self.phantom.append(len(self.ind.indent_level))
            return True
        if kind == "_DEDENT" or set(exc.expected) <= {"_INDENT"}:  # a header with no block
            if not self.without_block(exc, tok, not self.quiet_block and not (self.found and kind == "_DEDENT")):
                return False
            self.pending = tok
            return True
        self.found.append(self.report(exc))
        try:
            if kind == "_NEWLINE":  # the statement ends here: `pass` in its place, and on
                self.pop_to_statement()
                # `if x > 1` (no `:`): a header all the same, so its block and `else:` parse
                self.in_place_of_statement(tok, opens_block(self.text, self.stmt_start, _start(tok))
                                           or "COLON" in exc.expected)
                self.pending = tok
            elif not self.drop_statement(tok, _start(tok)):
                return False
        except UnexpectedToken:
            return False
        return True


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
