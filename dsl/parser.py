"""Text -> Lark parse tree.  The only module that talks to Lark's parser.

One parser is built per process (LALR, contextual lexer, positions kept,
parse tables cached as JSON in the user's cache directory) and every Lark exception is turned into a
positioned :class:`~provost.dsl.diagnostics.Diagnostic`, never raised to the caller.
"""
from __future__ import annotations

import functools
import hashlib
import json
import sys
from importlib import resources

from lark import Lark, Token, Tree
from lark.grammar import Rule
from lark.lexer import TerminalDef
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedInput, UnexpectedToken
from lark.indenter import DedentError, Indenter

from . import prebuilt, usercache
from .diagnostics import SHOWN_SUFFIXES, Diagnostic, explain, register
from .source import follow_indent, indent_width

register("P100", "error", "syntax error: unexpected token")
register("P101", "error", "syntax error: unexpected character")
register("P102", "error", "inconsistent indentation")
register("P103", "error", "nesting too deep")
register("P104", "error", "too many lines or tokens")
register("P105", "error", "number too large")
explain("P100", """
The parser met a word or a symbol where the rule language allows none there, and stopped: a
file that does not parse has no declarations to check, so this is the only error reported until
it is fixed.  The message names what came and what could have come; the mistakes made most are
said in the language's words: a `:` missing at the end of a line whose indented lines are its
block, or a line ending in `:` with no indented block after it.

    game g                 # error: missing `:` at the end of `game g`: the indented lines
        score pp           #        after it are its block

Fix: end the line with its `:` (`game g:`); for "expected an indented block", indent the lines
that belong to the statement, or write `nothing` as its block.""")
explain("P101", """
A character that begins no word, number, string or symbol of the rule language (`$`, `@`), or
a `"` that opens a string which does not end on its line: strings are one line, with `\\n` for
a line break.  The lexer cannot go past it, so nothing after it is read.

    let x = "unterminated  # error: unexpected character '"'; expected '(', '[', '{', end of
                           # line, minus, name, number, string

Fix: close the string on its line (`let x = "unterminated"`), or remove the character.""")
explain("P102", """
A line is indented less than the line before it, but to a column at which no enclosing block
starts, so the parser cannot tell which block it belongs to (a tab counts as 8 spaces).  Acting
on a guess would put the statement in a block it was not written for, which changes what the
rules do.

    if 1 > 0:
        nothing
      nothing              # error: unindent does not match any outer indentation level

Fix: indent the line exactly as far as the block it belongs to (level with the `if`, or with
the `nothing` above it), with spaces only.""")
explain("P103", """
Brackets nested more than 64 deep, or blocks more than 32 deep.  No game needs that much, and
the passes after the parser walk the rules recursively: the limit makes a generated or hostile
file an error at the place it goes too deep instead of a crash.

    let x = ((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((1))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))
    # error: brackets nested more than 64 deep

Fix: name the parts with `let` (`let part = ...`) or move a deep block into an `effect`, and use
the names.""")
explain("P104", """
A rule file holds at most 20,000 lines and 30,000 tokens (words, numbers and symbols), where
the largest shipped ruleset has under 800 lines and 5,000 tokens: the limits keep a
generated or wrong file from costing the parser and the checks unbounded time and memory.

    provost check huge.rules
    huge.rules:20001:1: error: file has 20002 lines; the limit is 20000 [P104]

Fix: split the rules into a base and variants (`variant NAME extends BASE:`), each a file of its
own; check that a generator writes what you meant.""")
explain("P105", """
A number in the rules has at most 9 digits: no board game counts as far as a billion, and a
longer number is a typing mistake (a doubled paste, a missing operator) that would otherwise
be played as written.

    let x = 12345678901    # error: number with 11 digits; numbers have at most 9

Fix: write the number you meant (`let x = 12345`).""")

# Limits that keep a hostile file from hanging the parser or exhausting memory.
MAX_LINES = 20_000
MAX_BRACKET_DEPTH = 64
MAX_INDENT_DEPTH = 32
MAX_TOKENS = 30_000        # Ys is 4,453 tokens; the 1,000-building benchmark (tools/dev/bench_graph.py) 24,724
MAX_INT_DIGITS = 9          # no board game counts beyond a billion; Python's int() refuses > 4300 digits


class _RulesIndenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB", "LBRACE"]
    CLOSE_PAREN_types = ["RPAR", "RSQB", "RBRACE"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 8

    def process(self, stream):
        # Bound nesting and size before the parser (and later the recursive passes) see them.
        self.tokens = 0
        for tok in super().process(stream):
            # The indenter counts an opening bracket after yielding it: count it here.
            depth = self.paren_level + (1 if tok.type in self.OPEN_PAREN_types else 0)
            if depth > MAX_BRACKET_DEPTH:
                raise _TooDeep(tok, "brackets nested more than %d deep" % MAX_BRACKET_DEPTH)
            if len(self.indent_level) > MAX_INDENT_DEPTH + 1:
                raise _TooDeep(tok, "blocks nested more than %d deep" % MAX_INDENT_DEPTH)
            self.tokens += 1
            if self.tokens > MAX_TOKENS:
                raise _TooDeep(tok, "more than %d tokens; split the rules into a base and variants" % MAX_TOKENS,
                               code="P104")
            if tok.type == "INT" and len(tok) > MAX_INT_DIGITS:
                raise _TooDeep(tok, "number with %d digits; numbers have at most %d" % (len(tok), MAX_INT_DIGITS),
                               code="P105")
            yield tok


class _TooDeep(Exception):
    """A limit exceeded while reading tokens (nesting, number size)."""

    def __init__(self, tok: Token, message: str, code: str = "P103"):
        super().__init__(message)
        self.tok = tok
        self.message = message
        self.code = code


_PARSER_OPTIONS = dict(parser="lalr", lexer="contextual", propagate_positions=True, maybe_placeholders=True)


def _tables_key(grammar: str) -> str:
    """The cache file of this grammar's tables: a change of grammar, Lark or Python is a new file."""
    import lark
    text = "%s|%s|%s|%r" % (grammar, lark.__version__, sys.version_info[:2], sorted(_PARSER_OPTIONS.items()))
    return "grammar-%s.json" % hashlib.sha256(text.encode("utf-8")).hexdigest()[:24]


def _int_keys(pairs):
    # JSON turns the tables' integer keys (states, memo ids) into strings: turn them back.
    return {int(k) if k.isdigit() else k: v for k, v in pairs}


def _from_tables(document) -> Lark | None:
    """The parser from its tables as ``_to_tables`` made them, read back with ``_int_keys``."""
    if not isinstance(document, dict) or set(document) != {"data", "memo"}:
        return None
    try:
        return Lark.__new__(Lark)._load(document, postlex=_RulesIndenter())
    except Exception:       # a damaged cache file: rebuild
        return None


def _to_tables(parser: Lark) -> dict:
    data, memo = parser.memo_serialize([TerminalDef, Rule])
    data["options"] = {k: v for k, v in data["options"].items() if k != "postlex"}
    return {"data": data, "memo": memo}


@functools.cache
def get_parser() -> Lark:
    """The rule-file parser.  Its LALR tables are cached as JSON in the user's cache directory
    (``usercache``), and installed with provost (``prebuilt``): building them takes about 0.1 s,
    reading them back a tenth of that; no pickle is ever read."""
    grammar = resources.files(__package__).joinpath("grammar.lark").read_text(encoding="utf-8")
    key = _tables_key(grammar)
    parser = _from_tables(prebuilt.read_json(key, object_pairs_hook=_int_keys))
    if parser is None:
        parser = Lark(grammar, postlex=_RulesIndenter(), **_PARSER_OPTIONS)
        usercache.write_json(key, _to_tables(parser))
    return parser


_TOKEN_NAMES = {
    "_NL": "end of line", "_INDENT": "indented block", "_DEDENT": "end of block", "$END": "end of file",
    "NAME": "name", "INT": "number", "STRING": "string", "COLON": "':'", "COMMA": "','",
    "LPAR": "'('", "RPAR": "')'", "LSQB": "'['", "RSQB": "']'", "LBRACE": "'{'", "RBRACE": "'}'",
    "EQUAL": "'='", "SET_OP": "'=', '+=' or '-='", "COMP_OP": "comparison",
}


def _describe(names) -> str:
    # Lark's anonymous terminals (__ANON_0...) mean nothing to a rule author: leave them out.
    shown = sorted({_TOKEN_NAMES.get(n, n.lower().strip("_") if n.isupper() else n) for n in names
                    if not n.startswith("__ANON")})
    if len(shown) > 8:
        shown = shown[:8] + ["..."]
    return ", ".join(shown)


def _shows_content(path) -> bool:
    """Whether a message may quote the file's text: only for provost's own file types (a file that
    was only named, a token file say, never has a piece of it printed)."""
    return str(path).lower().endswith(SHOWN_SUFFIXES)


def _token_text(tok: Token) -> str:
    if tok.type == "$END":
        return "end of file"
    if tok.type in ("_NL",):
        return "end of line"
    if tok.type in ("_INDENT", "_DEDENT"):
        return "change of indentation"
    return repr(str(tok))


def parse_text(text: str, path: str) -> tuple[Tree | None, list[Diagnostic]]:
    """Parse rule-file text; return the tree or the syntax diagnostics."""
    n_lines = text.count("\n") + (0 if text.endswith("\n") else 1)
    if n_lines > MAX_LINES:
        return None, [Diagnostic(path, MAX_LINES + 1, 1, "error", "P104",
                                 "file has %d lines; the limit is %d" % (n_lines, MAX_LINES))]
    if not text.endswith("\n"):
        text += "\n"
    try:
        return get_parser().parse(text), []
    except _TooDeep as e:
        return None, [Diagnostic(path, e.tok.line or 1, e.tok.column or 1, "error", e.code, e.message)]
    except UnexpectedToken as e:
        tok = e.token
        line, col = _position_of(e, tok, text)
        expected = _describe(e.accepts or e.expected)
        what = _token_text(tok) if _shows_content(path) else _describe([tok.type]) or "token"
        msg = _in_our_words(e, tok, text, line) or "unexpected %s; expected %s" % (what, expected)
        return None, [Diagnostic(path, line, col, "error", "P100", msg)]
    except UnexpectedCharacters as e:
        ch = text[e.pos_in_stream] if 0 <= e.pos_in_stream < len(text) else "?"
        msg = "unexpected character %r" % ch if _shows_content(path) else "unexpected character"
        if e.allowed:
            msg += "; expected %s" % _describe(e.allowed)
        return None, [Diagnostic(path, e.line, e.column, "error", "P101", msg)]
    except DedentError as e:
        line = _line_of_bad_dedent(text)
        return None, [Diagnostic(path, line, 1, "error", "P102", "unindent does not match any outer indentation level")]
    except UnexpectedInput as e:  # pragma: no cover - other LALR input errors
        return None, [Diagnostic(path, max(e.line, 1), max(e.column, 1), "error", "P100", str(e).splitlines()[0])]
    except RecursionError:
        return None, [Diagnostic(path, 1, 1, "error", "P103", "expression nested too deeply")]
    except LarkError as e:  # pragma: no cover
        return None, [Diagnostic(path, 1, 1, "error", "P100", str(e).splitlines()[0])]


def _code_line(lines: list[str], n: int) -> str:
    """Line `n` (1-based) without its comment and trailing blanks."""
    return lines[n - 1].split("#", 1)[0].rstrip() if 1 <= n <= len(lines) else ""


def _previous_code_line(lines: list[str], before: int) -> int | None:
    """The last line before line `before` that holds code, or None."""
    for n in range(min(before, len(lines) + 1) - 1, 0, -1):
        if _code_line(lines, n).strip():
            return n
    return None


def _in_our_words(e: UnexpectedToken, tok: Token, text: str, line: int) -> str | None:
    """The syntax errors a rule author makes most, said in the rule language's words (a block
    missing after `NAME:`, a `:` missing at the end of a line that has a block), else None."""
    expected = set(e.accepts or e.expected or ())
    lines = text.split("\n")
    if "_INDENT" in expected and tok.type != "_INDENT":
        # A token that starts a line (a name) follows the line that lacks its block; an end of
        # line, an end of block or the end of the file is at the end of that line itself.
        at = line + 1 if tok.type in ("_NL", "_DEDENT", "$END") else getattr(tok, "line", None) or line
        prev = _previous_code_line(lines, at)
        if prev is not None and _code_line(lines, prev).endswith(":"):
            head = _code_line(lines, prev).strip()
            return "expected an indented block after `%s` on line %d" % (head[-40:], prev)
    if tok.type == "_INDENT":
        # Reported at the end of the line before the indented block: the line that lacks its `:`.
        head = _code_line(lines, line).strip()
        if head and not head.endswith(":"):
            return "missing `:` at the end of `%s`: the indented lines after it are its block" % head[-40:]
    if tok.type == "_NL" and expected == {"COLON"}:
        head = _code_line(lines, line).strip()
        return "missing `:` at the end of `%s`" % head[-40:]
    return None


def _position_of(e: UnexpectedToken, tok: Token, text: str) -> tuple[int, int]:
    line = getattr(tok, "line", None) or e.line
    col = getattr(tok, "column", None) or e.column
    if tok.type == "$END" or not line or line < 1:
        # Truncated input: point just past the last non-blank character.  (An end of block has
        # the position of the line end before it, where the block was expected: kept.)
        stripped = text.rstrip()
        line = stripped.count("\n") + 1
        col = len(stripped) - (stripped.rfind("\n") + 1) + 1
    return max(line, 1), max(col, 1)


def _line_of_bad_dedent(text: str) -> int:
    stack = [0]
    for i, raw in enumerate(text.splitlines(), 1):
        body = raw.split("#", 1)[0]
        if not body.strip():
            continue
        width = indent_width(raw)
        if not follow_indent(stack, width):
            return i
    return 1
