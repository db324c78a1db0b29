"""Diagnostics: positioned findings about user input, as plain values.

Every stage of the pipeline (source reading, parsing, schema validation, semantic and graph
checks, the engine) reports problems in the input as `Diagnostic` records that it returns rather
than raises, so one run can report many problems and printing stays separate from finding.
`RulesError` exists for the places where a stage cannot continue at all; it carries the same
records, and the CLI prints them instead of a traceback. Anything else that escapes is a bug.

Codes are registered in `CODES` by the module that emits them, so `write_codes_table_markdown`
can document every code from one place.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass

SEVERITIES = ("error", "warning", "note")
# The files whose lines a diagnostic may show: rule files, IR documents and game logs.
SHOWN_SUFFIXES = (".rules", ".json", ".yaml", ".yml", ".jsonl")


# Characters that print as something else or rewrite a terminal: C0 and C1 controls (but tab and
# line end), DEL, and the bidirectional overrides of "Trojan source".
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_CONTROL_OR_LINE = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def printable(text) -> str:
    """TEXT with every control character written as an escape (``\\x1b``, ``\\u202e``), newlines
    included: what provost prints of a file, a log, a save or an argument can never move the
    cursor, clear a terminal or fake a line of output."""
    text = str(text)
    if _CONTROL_OR_LINE.search(text) is None:
        return text
    return _CONTROL_OR_LINE.sub(lambda m: "\\x%02x" % ord(m.group()) if ord(m.group()) < 0x100
                                else "\\u%04x" % ord(m.group()), text)


def one_line(text) -> str:
    """TEXT for a place that holds one line (a table's cell, an option's label): the line breaks a
    rule's string may hold (``\\n``) as spaces, any other control character escaped as by
    ``printable``, so that it can neither break the layout nor fake a line of output."""
    return printable(str(text).replace("\r\n", " ").replace("\n", " "))


@dataclass(frozen=True)
class Diagnostic:
    """One finding at a source position (1-based line and column)."""

    path: str
    line: int
    col: int
    severity: str  # "error" | "warning" | "note"
    code: str
    message: str
    end_line: int | None = None
    end_col: int | None = None
    hint: str | None = None

    def __post_init__(self) -> None:
        if self.severity not in SEVERITIES:
            raise ValueError(f"unknown severity {self.severity!r}; expected one of {SEVERITIES}")

    def format_text(self) -> str:
        """`path:line:col: severity: message [code]`, the form editors and CI parse.

        Positions are clamped to 1 so that a stage that lost its position still yields a
        clickable location rather than `:0:0`.
        """
        return f"{self.place()}: {self.severity}: {printable(self.message)} [{self.code}]"

    def place(self) -> str:
        """`path:line:col`, the positions clamped to 1 as `format_text` gives them."""
        return f"{printable(self.path)}:{max(1, self.line)}:{max(1, self.col)}"

    def to_dict(self) -> dict:
        """A JSON-able dict with every field (used by `--format json`)."""
        return asdict(self)


_EXCERPT_MAX_BYTES = 1_000_000     # as dsl.source.MAX_BYTES: a file too large to check is not shown
_lines_cache: dict[tuple, list[str] | None] = {}


def _source_lines(path: str) -> list[str] | None:
    """The lines of a regular, readable, reasonably small UTF-8 file (cached by path, mtime and size)."""
    import os
    import stat
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    if not stat.S_ISREG(st.st_mode) or st.st_size > _EXCERPT_MAX_BYTES:
        return None                  # never open a pipe or a device to show an excerpt
    key = (path, st.st_mtime_ns, st.st_size)
    if key not in _lines_cache:
        try:
            with open(path, "rb") as fh:
                text = fh.read(_EXCERPT_MAX_BYTES + 1).decode("utf-8")
        except (OSError, UnicodeDecodeError):
            text = None
        if text is not None and text.startswith("\ufeff"):
            text = text[1:]
        _lines_cache[key] = text.replace("\r\n", "\n").split("\n") if text is not None else None
    return _lines_cache[key]


def _span_width(diag: Diagnostic, text: str, line: int, col: int) -> int:
    """How many characters to underline: the diagnostic's own span on its line, else the word at it."""
    start = col - 1
    if diag.end_line == line and diag.end_col is not None and diag.end_col > col:
        return max(1, min(diag.end_col, len(text) + 1) - col)
    end = start
    while end < len(text) and (text[end].isalnum() or text[end] == "_"):
        end += 1
    return max(1, end - start)


def excerpt(diag: Diagnostic) -> str:
    """The source line a diagnostic points at with its span underlined, as rustc and ruff print it:

        12 |     gian 1 pp
           |     ^^^^

    Empty when the line cannot be shown (no such file or line, a pipe, a binary file), and for a
    file that is not one of provost's (a rule file, an IR document, a game log): a diagnostic
    never prints the content of a file that only happened to be named."""
    if not str(diag.path).lower().endswith(SHOWN_SUFFIXES):
        return ""
    lines = _source_lines(diag.path)
    line, col = max(1, diag.line), max(1, diag.col)       # clamped as format_text clamps them
    if lines is None or line > len(lines):
        return ""
    text = lines[line - 1].rstrip()
    if not text.strip() or len(text) > 300 or col > len(text) + 1:
        return ""
    text = text.replace("\t", " ")
    width = _span_width(diag, text, line, col)
    if CONTROL.search(text):       # a log's line, say: shown escaped, the span moved to match
        col, width = len(printable(text[:col - 1])) + 1, len(printable(text[col - 1:col - 1 + width]))
        text = printable(text)
    number = str(line)
    gutter = " " * len(number)
    underline = " " * (col - 1) + "^" * width
    return "%s |%s\n%s | %s" % (number, (" " + text) if text else "", gutter, underline)


def render_text(diag: Diagnostic, source: bool = True) -> str:
    """`format_text()`, followed (when `source`) by the excerpt of the line it points at: how every
    command prints a diagnostic, so each stage that reports one gets the excerpt for free."""
    head = diag.format_text()
    if not source:
        return head
    more = excerpt(diag)
    return head + "\n" + more if more else head


def sort_key(diag: Diagnostic) -> tuple[str, int, int]:
    """Order diagnostics by file, then position, as compilers print them."""
    return (diag.path, diag.line, diag.col)


class RulesError(Exception):
    """A problem in user input (rule file, IR file, log, option id) that stops a stage.

    Distinct from a bug: the CLI prints the diagnostics and exits 1, never a traceback.
    """

    def __init__(self, diagnostics: Iterable[Diagnostic]):
        self.diagnostics: list[Diagnostic] = list(diagnostics)
        first = self.diagnostics[0].format_text() if self.diagnostics else "rules error"
        more = len(self.diagnostics) - 1
        super().__init__(first + (f" (and {more} more)" if more > 0 else ""))


class UsageError(Exception):
    """A command asked for something that is not there: an unknown name, an output that cannot be
    written. Not a fault of the rules; the CLI prints `provost: error: MESSAGE` and exits 2."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class UnknownName(RulesError, UsageError):
    """A ruleset or variant name that names nothing (L001).

    A `RulesError` for the engine's callers, who load rules by name; a usage error at the
    command line, where the name is an argument that was mistyped.
    """

    def __init__(self, diagnostic: Diagnostic):
        super().__init__([diagnostic])
        self.message = diagnostic.message


def did_you_mean(name: str, candidates: Iterable[str]) -> str:
    """A suffix for "unknown name" messages: `"; did you mean 'x'?"`, or `""` if nothing is close."""
    matches = difflib.get_close_matches(name, list(candidates), n=1)
    return f"; did you mean '{matches[0]}'?" if matches else ""


# code -> (severity, one-line summary). Modules that emit diagnostics register their codes here.
CODES: dict[str, tuple[str, str]] = {}


def register(code: str, severity: str, summary: str) -> None:
    """Register a diagnostic code; registering the same code differently is a bug."""
    if severity not in SEVERITIES:
        raise ValueError(f"unknown severity {severity!r} for code {code}")
    existing = CODES.get(code)
    if existing is not None and existing != (severity, summary):
        raise ValueError(f"diagnostic code {code} already registered as {existing}")
    CODES[code] = (severity, summary)


# code -> a longer explanation: what goes wrong, an example, and the fix (`provost check --explain`).
EXPLANATIONS: dict[str, str] = {}


def explain(code: str, text: str) -> None:
    """Register the long explanation of a registered code (its summary stays the table's line)."""
    EXPLANATIONS[code] = text.strip("\n")


def explanation(code: str) -> str | None:
    """What `provost check --explain CODE` prints, or None for an unknown code."""
    code = code.strip().upper()
    if code not in CODES:
        return None
    severity, summary = CODES[code]
    text = EXPLANATIONS.get(code)
    head = f"{code} ({severity}): {summary}"
    return head + ("\n\n" + text if text else "") + "\n"


def write_codes_table_markdown() -> str:
    """Render the registry as a markdown table, sorted by code, for the documentation."""
    rows = ["| Code | Severity | Meaning |", "| --- | --- | --- |"]
    for code in sorted(CODES):
        severity, summary = CODES[code]
        rows.append(f"| {code} | {severity} | {summary.replace('|', chr(92) + '|')} |")
    return "\n".join(rows) + "\n"


# Codes emitted by provost.dsl.source (reading files and parsing YAML/JSON IR documents).
register("P001", "error", "file too large")
register("P002", "error", "file is not valid UTF-8")
register("P003", "error", "binary content (NUL bytes)")
register("P004", "error", "empty file")
register("P005", "error", "file not found or unreadable")
register("P007", "error", "a control character in a rule file")
register("P006", "error", "a folder given to check holds no rule or IR file")
register("P010", "error", "YAML/JSON IR syntax error")
register("P011", "error", "an IR document that is not a mapping (null, a list, a scalar)")
explain("P001", """
A file larger than a million bytes is not read: the largest shipped ruleset is about 30,000
bytes, so a file this size is almost always the wrong file (a game log, a generated dump), and
refusing it by its size, before reading it, keeps a wrong argument from costing memory and time.
No more than a million and one bytes are ever read, so a device or a file that grows while it
is read is refused the same way.

    provost check huge.rules
    huge.rules:1:1: error: file too large (1008105 bytes; the limit is 1000000 bytes) [P001]

Fix: check the file you meant; rules that really grow this large are split into a base and
variants (`variant NAME extends BASE:`), each a file of its own.""")
explain("P002", """
Rule files are UTF-8.  A file saved in another encoding (Latin-1, Windows-1252) has bytes that
are no UTF-8 character, and guessing what they meant could change a name or a title without a
word, so the file is refused at the first such byte.

    provost check farm.rules          # `game café:` saved as Latin-1
    farm.rules:1:9: error: file is not valid UTF-8 (byte 0xe9) [P002]

Fix: save the file as UTF-8 (`iconv -f latin1 -t utf-8 farm.rules > farm-utf8.rules`, then
replace the file with it).""")
explain("P003", """
A NUL byte never occurs in text: the file is binary (an image, an archive, a compiled file) or
text in UTF-16, which puts a NUL beside every ASCII letter.  It is refused at the first NUL
rather than read as rules.

    provost check farm.rules          # saved as UTF-16
    farm.rules:1:4: error: binary content: NUL byte in file [P003]

Fix: name the rule file itself, or save it as UTF-8 (`iconv -f utf-16 -t utf-8`).""")
explain("P004", """
The file is empty, or holds only blanks and line ends: there is no game to check, and an empty
file is most often one that lost its content (a failed save, or a command's output redirected
onto the file it reads, `cmd x.rules > x.rules`, which empties the file before the command
runs).  An IR document that is empty says the same.

    provost check farm.rules
    farm.rules:1:1: error: empty file [P004]

Fix: restore the file's content (`git checkout farm.rules`, or the editor's backup).""")
explain("P005", """
The path names no readable file: it does not exist, it is not a regular file (a pipe, a socket, a
device), or it cannot be read.  The same for a game log given to `replay`, `explain`, `view` or
`serve --replay`.

    provost check nosuch.rules
    nosuch.rules:1:1: error: file not found [P005]

Fix: correct the path (a shipped ruleset is named without a path: `caylus`).""")
explain("P006", """
A folder given to `check` is searched, with its subfolders, for rule and IR files (`.rules`,
`.yaml`, `.yml`, `.json`; hidden folders and `__pycache__` are skipped).  When it holds none, the
check checked nothing, and passing would let a mistyped folder in a CI job pass unnoticed.

    provost check rulez/
    rulez/:1:1: error: no rule or IR files (.rules, .yaml, .yml, .json) in this folder [P006]

Fix: name the folder that holds the rules, or the files themselves (`provost check
rules/*.rules`: a file named on the command line is checked whatever its suffix).""")
explain("P007", """
A rule file is plain text: a control character (an escape, a backspace, a carriage return in a
line) could rewrite the terminal that prints the file's text or hide part of it, so the file is
refused at the character.  CRLF line ends are fine; a string of an IR document holding one
(JSON's `\\u001b`) is refused the same way.

    provost check title.rules         # the title holds ESC [2J, which clears a terminal
    title.rules:1:10: error: control character U+001B in the file: a rule file is plain text (such characters can rewrite a terminal or hide text) [P007]

Fix: remove the character (`cat -A FILE` shows it); write `\\n` in a string for a line break.""")
explain("P010", """
A YAML or JSON IR document could not be read as one: a syntax error, or something valid in YAML
that an IR document refuses because the rules would not be plain data -- anchors and aliases
(a few lines can expand to gigabytes), tags (`!!set`), keys that are not strings, more than one
document, nesting deeper than 200 levels, and numbers with a fraction (numbers in the rules are
whole numbers, as in rule text: 2.0 would be a float where the engine counts).

    - kind: game
      name: g
      players: [2.0, 4]    # error: 2.0 is not a whole number; numbers in the rules are integers

Fix: write the value as plain data (`players: [2, 4]`); an IR document is best written by
`provost export RULES --format yaml` and edited from there.""")
explain("P011", """
A YAML or JSON IR document is one mapping with `provost_ir` and `decls` (what `provost export`
writes); a document that is `null`, a list or a single value holds no ruleset.

    ~                      # error: an IR document is a mapping with provost_ir and decls, not null

Fix: export the rules again (`provost export RULES --format yaml`), or write the mapping.""")
