"""`provost fmt [PATH...] [--check] [--diff]`: rule files in the canonical layout (provost.dsl.fmt).

Folders (the current one when no PATH is given) are searched for ``.rules`` files (IR documents
are data and are left alone); a file named on the command line is a rule file whatever its suffix,
but a ``.json``, ``.yaml`` or ``.yml`` file, which a note says is left alone.  Without ``--check`` or ``--diff`` every file whose layout differs is
rewritten in place (through a temporary file renamed over it); with ``--check`` nothing is written,
each such file is listed and the exit code is 1; ``--diff`` writes nothing either and prints the
changes as a unified diff on stdout (a patch: the file names go to stderr), as black and ruff do.  A file that cannot be formatted safely is
an error naming it (exit 1), and is left as it is; a syntax error is reported as ``check``
reports it (``path:line:col: error: ... [P1xx]``).
"""
from __future__ import annotations

import argparse
import difflib
import os
import stat
import sys

from provost.dsl.diagnostics import printable, render_text
from provost.dsl.fmt import Unformattable, format_text, refusals
from provost.dsl.atomic import write_atomically
from provost.dsl.source import read_source
from provost.tools.cli import collect_files


_BOM = b"\xef\xbb\xbf"
IR_SUFFIXES = (".json", ".yaml", ".yml")


def _as_written(path: str, new: str) -> tuple[str, bytes]:
    """The formatted text with the file's own line ends (CRLF where its first line has one) and
    byte-order mark: layout is what fmt changes, not how an editor on another system saves."""
    with open(path, "rb") as f:
        first = f.readline(1 << 16)
    if first.endswith(b"\r\n"):
        new = new.replace("\n", "\r\n")
    return new, _BOM if first.startswith(_BOM) else b""


def _write(path: str, text: str, prefix: bytes = b"") -> None:
    # The file itself is rewritten, with its permissions: a symbolic link stays a link to the
    # formatted file (not replaced by a copy), and a file readable by others stays so (the
    # temporary file is made private).
    path = os.path.realpath(path)
    write_atomically(path, prefix + text.encode("utf-8"), mode=stat.S_IMODE(os.stat(path).st_mode), prefix=".fmt-")


def _rule_files(files: list[str], named: list[str]) -> list[str]:
    """The files to lay out: the ``.rules`` files found in folders, and each file named on the
    command line whatever its suffix (as `check` reads it), but an IR document, which is data:
    a note says it is left alone, where it was silently passed over."""
    named_files = {p for p in named if not os.path.isdir(p)}
    out = []
    for path in files:
        if path.lower().endswith(".rules"):
            out.append(path)
        elif path in named_files:
            if path.lower().endswith(IR_SUFFIXES):
                print("provost: note: %s is an IR document (data): fmt lays out rule files only" % printable(path),
                      file=sys.stderr)
            else:
                out.append(path)
    return out


def run_fmt(args: argparse.Namespace) -> int:
    files, problems = collect_files(args.paths)
    failed = bool(problems)
    for d in problems:
        print(render_text(d), file=sys.stderr)
    changed = 0
    for path in _rule_files(files, args.paths):
        text, diags = read_source(path)
        if text is None:
            for d in diags:
                print(render_text(d), file=sys.stderr)
            failed = True
            continue
        syntax = refusals(text, path)
        if syntax:
            # Not a rule file the grammar reads: the positioned diagnostics `check` gives.
            for d in syntax:
                print(render_text(d), file=sys.stderr)
            failed = True
            continue
        try:
            new = format_text(text)         # (read_source reads CRLF ends as LF)
        except Unformattable as e:
            print("provost: error: cannot format %s: %s" % (printable(path), printable(e)), file=sys.stderr)
            failed = True
            continue
        if new == text:
            continue
        changed += 1
        if args.diff:
            # (the file's name as every message names it: its control characters escaped)
            name = printable(path)
            sys.stdout.writelines(difflib.unified_diff(text.splitlines(True), new.splitlines(True), name, name))
        if args.check or args.diff:
            print("would reformat %s" % printable(path), file=sys.stderr if args.diff else sys.stdout)
        else:
            try:
                _write(path, *_as_written(path, new))
            except OSError as exc:          # README: an output that cannot be written is a usage error
                from provost.tools.cli.failures import cannot_write
                raise cannot_write(printable(path), exc) from None
            print("reformatted %s" % printable(path))
    if args.check and changed:
        failed = True
    print("%d file%s %s" % (changed, "" if changed == 1 else "s",
                            "would be reformatted" if args.check or args.diff else "reformatted"), file=sys.stderr)
    return 1 if failed else 0
