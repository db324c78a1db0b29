"""`provost fmt`: one layout for rule files, that never changes what they say.

The formatter changes only whitespace, and only where the grammar ignores it, so the tokens the
parser reads are the same before and after and so is the IR (positions aside):

- block indentation becomes 4 spaces a level (the levels are read as the parser's indenter reads
  them; a line inside open brackets or after a ``\\`` keeps its own alignment);
- between two tokens of a line: one space after a comma, none before a comma, a closing bracket
  or a colon, none after an opening bracket,
  none around ``..`` and ``.``, one after ``;``, one around ``=``, ``==``, ``!=``, ``<``,
  ``<=``, ``>``, ``>=``, ``+=``, ``-=``, ``*``, ``//``, ``%`` and ``|``, one between two words;
  ``+`` and ``-`` (binary or a sign) and a ``(`` or ``[`` after a word (a call ``f(x)``, or a
  statement's argument ``gain (n) vp``) keep their spacing;
- comments and strings are kept as written, a comment after code at least one space away;
- trailing spaces go, runs of blank lines become one, the file ends with one newline.

A file the formatter cannot read safely (an unknown character, an indentation that does not
match any open block) is left as it is.  ``format_text`` is idempotent.
"""
from __future__ import annotations

import re

from .diagnostics import Diagnostic
from .source import checked_text, follow_indent, indent_width

INDENT = "    "
TOKEN = re.compile(r'''
    (?P<string>"(?:[^"\\\n]|\\.)*")
  | (?P<comment>\#.*)
  | (?P<word>[A-Za-z0-9_]*(?:\{[A-Za-z_][A-Za-z0-9_]*\}[A-Za-z0-9_]*)+|[A-Za-z_][A-Za-z0-9_]*|[0-9]+)
  | (?P<op>\.\.|==|!=|<=|>=|\+=|-=|//|[()\[\]{},:;|.+\-*%<>=])
  | (?P<space>[ \t\f]+)
''', re.VERBOSE)
SPACED = frozenset({"=", "==", "!=", "<", "<=", ">", ">=", "+=", "-=", "*", "//", "%", "|"})
OPEN, CLOSE = frozenset("([{"), frozenset(")]}")


class Unformattable(ValueError):
    """The text cannot be formatted safely (it is left as it is)."""


def _tokens(code: str) -> list[tuple[str, str, str]]:
    """``(kind, text, gap before it)`` for each token of one physical line (no trailing newline)."""
    out, pos, gap = [], 0, ""
    while pos < len(code):
        m = TOKEN.match(code, pos)
        if m is None:
            raise Unformattable("unexpected character %r" % code[pos])
        kind = m.lastgroup
        if kind == "space":
            gap = m.group()
        else:
            out.append((kind, m.group(), gap))
            gap = ""
        pos = m.end()
    return out


def _gap(prev: tuple[str, str, str], tok: tuple[str, str, str]) -> str:
    pk, pt, _ = prev
    k, t, original = tok
    if k == "comment":
        return original if original else " "
    if t in (",", ":", ";") or t in CLOSE:
        return ""
    if pt in (",", ";"):
        return " "
    if pt in OPEN:
        return ""
    if t == ".." or pt == ".." or t == "." or pt == ".":
        return ""
    if t in "([" and pk == "word":
        # f(x), x[1] or a statement's argument (gain (n) vp, put [x], z): as written.
        return original
    if t in "([" and pt in CLOSE:
        return ""
    if t in ("+", "-") or pt in ("+", "-"):
        return original
    if t in SPACED or pt in SPACED:
        return " "
    return " "


def _format_code(tokens: list[tuple[str, str, str]]) -> str:
    out = [tokens[0][1]]
    for prev, tok in zip(tokens, tokens[1:]):
        out.append(_gap(prev, tok) + tok[1])
    return "".join(out)


def _width(leading: str) -> int:
    return indent_width(leading)


def refusals(text: str, path: str) -> list[Diagnostic]:
    """Why a rule file's TEXT is not laid out at all (none: it may be): it is no rule text the
    checker reads (too large, binary, a control character such as a lone carriage return) or it
    does not parse.  `provost fmt` and the language server's formatting ask the same."""
    from .parser import parse_text

    text, problems = checked_text(path, text)
    return problems if text is None else parse_text(text, path)[1]


def format_text(text: str) -> str:
    """TEXT in the canonical layout (module docstring); raises Unformattable when unsafe."""
    lines = text.replace("\r\n", "\n").split("\n")
    out: list[str] = []
    stack = [0]                 # indentation widths of the open blocks, as the indenter keeps them
    depth = 0                   # open brackets carried over from earlier lines
    continued = False           # the previous line ended with a backslash
    blank = 0
    for line in lines:
        body = line.strip(" \t\f")
        if not body:
            blank += 1
            continue
        if out and blank:
            out.append("")
        blank = 0
        leading = line[:len(line) - len(line.lstrip(" \t\f"))]
        # A backslash at the end continues the line, unless a comment ends there (it is the comment's).
        continues = body.endswith("\\")
        tokens = _tokens(body[:-1].rstrip() if continues else body)
        if continues and tokens and tokens[-1][0] == "comment":
            continues, tokens = False, _tokens(body)
        if depth or continued:
            indent = leading          # a continuation keeps its alignment
        elif tokens[0][0] == "comment":
            indent = INDENT * _level_of_comment(stack, _width(leading))
        else:
            if not follow_indent(stack, _width(leading)):
                raise Unformattable("an indentation that matches no open block: %r" % line)
            indent = INDENT * (len(stack) - 1)
        code = _format_code(tokens) if tokens else ""
        if continues:
            code += " \\"
        out.append(indent + code)
        for kind, t, _ in tokens:
            if kind == "op" and t in OPEN:
                depth += 1
            elif kind == "op" and t in CLOSE:
                depth = max(0, depth - 1)
        continued = continues
    return "\n".join(out) + "\n" if out else ""


def _level_of_comment(stack: list[int], width: int) -> int:
    """A comment line's level: a new block's if it is deeper than the open ones, else the
    deepest open block it does not go left of."""
    if width > stack[-1]:
        return len(stack)
    level = 0
    for i, w in enumerate(stack):
        if w <= width:
            level = i
    return level
