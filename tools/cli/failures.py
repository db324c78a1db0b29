"""How a command fails: the exceptions commands raise and the CLI turns into exit codes.

- ``provost.dsl.diagnostics.RulesError``: the input has errors -- exit 1, its diagnostics printed;
- ``provost.dsl.diagnostics.UsageError``: the command was asked for something that is not there (an
  unknown name, an output that cannot be written, a human seat without input) -- exit 2;
- ``Interrupted``: the user stopped it (Ctrl-C, or ``quit`` at a human prompt) -- exit 130.

With ``--format json`` the CLI also prints the failure as one JSON object (``failure_object``).
"""
from __future__ import annotations

import errno
import os
import stat
from collections.abc import Sequence

from provost.dsl.diagnostics import Diagnostic, UsageError

EXIT_CODES = {"input": 1, "usage": 2, "internal": 2, "interrupted": 130}
"""The kinds of failure in a JSON failure object, and the exit code of each."""


class Interrupted(Exception):
    """The user stopped the command: exit 130 after printing the message."""


def failure_object(kind: str, message: str, diagnostics: Sequence[Diagnostic] = (),
                   report: dict | None = None) -> dict:
    """The JSON object of a failed command: ``{"ok": false, ...report, "error": {"kind", "exit",
    "message"}, "diagnostics": [...]}``; one shape for every command (README, Commands)."""
    return {**(report or {}), "ok": False,
            "error": {"kind": kind, "exit": EXIT_CODES[kind], "message": message},
            "diagnostics": [d.to_dict() for d in diagnostics]}


def cannot_write(path: str, exc: OSError) -> UsageError:
    return UsageError("cannot write %s: %s" % (path, exc.strerror or exc))


def check_seed_span(first: int, count: int) -> None:
    """A usage error if games seeded ``first``, ``first + 1``, ... (``count`` of them) go past the
    last seed: each game must be one ``provost play --seed`` can play again."""
    from provost.interpreter.rng import seed_span_problem
    problem = seed_span_problem(first, count)
    if problem:
        raise UsageError(problem)


def check_player_count(rs, players) -> None:
    """A usage error when ``players`` (asked for with --players) cannot play the rules ``rs``, as
    `provost play` says it: a rulebook, a diff, an export or a compiled module of rules for a
    count they are not for would describe a game nobody can play."""
    if players is None or rs is None:
        return
    from provost.dsl.loader import players_out_of_range
    problem = players_out_of_range(rs, players)
    if problem:
        raise UsageError(problem)


_PIPES_HELD: list[int] = []
"""Named pipes found read: held open for writing until the command ends (``release_pipes``), so
that their reader does not see the end of its input before the command writes there."""


def release_pipes() -> None:
    while _PIPES_HELD:
        os.close(_PIPES_HELD.pop())


def _check_pipe_read(path: str) -> None:
    """Opening a named pipe nobody reads waits for a reader for ever: a usage error instead."""
    try:
        _PIPES_HELD.append(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            raise UsageError("cannot write %s: a named pipe that nothing reads" % path) from None
        raise cannot_write(path, exc) from None


def check_writable(path: str) -> None:
    """Fail now, before any long work, when ``path`` cannot be written (no such folder, a folder,
    no permission, a named pipe nothing reads); leaves nothing behind."""
    try:
        if stat.S_ISFIFO(os.stat(path).st_mode):
            return _check_pipe_read(path)
    except OSError:
        pass                # (not there yet, or not to be looked at: open says why below)
    existed = os.path.lexists(path)
    try:
        with open(path, "a", encoding="utf-8"):
            pass
    except OSError as exc:
        raise cannot_write(path, exc) from None
    if not existed:
        os.remove(path)


def write_text(path: str, text: str) -> None:
    try:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
    except OSError as exc:
        raise cannot_write(path, exc) from None
