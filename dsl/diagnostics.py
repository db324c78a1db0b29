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
from collections.abc import Iterable
from dataclasses import asdict, dataclass

SEVERITIES = ("error", "warning", "note")


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
        line = max(1, self.line)
        col = max(1, self.col)
        return f"{self.path}:{line}:{col}: {self.severity}: {self.message} [{self.code}]"

    def to_dict(self) -> dict:
        """A JSON-able dict with every field (used by `--format json`)."""
        return asdict(self)


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
register("P006", "error", "a folder given to check holds no rule or IR file")
register("P010", "error", "YAML/JSON IR syntax error")
register("P011", "error", "an IR document that is not a mapping (null, a list, a scalar)")
