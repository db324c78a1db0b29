"""JSON Lines game logs: write one while playing, replay one to verify it.

A log has one JSON object per line:

    {"type": "header", "log_format": 1, "ruleset": "caylus", "variant": null, "players": 4, "seed": 7,
     "ruleset_hash": "...", "engine": "3", "agents": ["greedy", "random", ...],
     "source": {"ruleset": "caylus", "variant": null}}
    {"type": "decision", "n": 1, "player": 2, "option": "place:gate", "round": 1, "phase": "placement"}
    ...
    {"type": "result", "scores": [...], "neutral_scores": [], "winners": [...], "rounds": 13, "decisions": 251}

``n`` counts decisions from 1; ``round`` and ``phase`` are the game's position
when the decision was asked.  The result's ``scores`` are the deciding seats'
(``players`` of them), ``neutral_scores`` the neutral seats' (Ys for 2: the
rules' third player), and ``winners`` deciding seats only: neutral players
score but never win (``Game.result``).  ``source`` says how the rules were named when the
game was played (a shipped name or a path, and the ``--variant`` given, a variant file
by its absolute path), so a replay loads the same files; ``ruleset_hash`` (the ruleset's digest) proves they
still hold the same rules.  Rules named by a path also give ``ruleset_hash_without_positions``: files
only laid out again since (`provost fmt`, a comment) still replay.

``replay(path)`` re-executes a log and returns ``(ok, message, game)``; it
never raises for a bad log -- bad JSON, a missing field, a truncated file, an
option that is not legal, another player to move, a different result or
changed rules all come back as ``ok = False`` with a message naming the first
line that diverges (``check_log`` returns the same with the line number apart).
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field

from provost.dsl.diagnostics import Diagnostic, RulesError, explain, register

register("R001", "error", "replay diverged: the log does not match what the rules do")
register("R002", "error", "malformed game log (bad JSON, missing or ill-typed field, truncated)")
register("R003", "error", "the game log was written with other rules (ruleset hash differs)")
explain("R001", """
`replay` plays a log's decisions again under the same rules and seed, and every line must come
out as the log says: the same player to decide, a legal option, the same round and phase, and
the same result.  A log that diverges does not record a game of these rules: it was edited, or
the engine that replays it plays differently from the one that wrote it (the header's `engine`).
The error is at the first line that differs.

    provost replay farm.jsonl
    farm.jsonl:6:1: error: the result differs: scores [1, 2] in the log, [0, 2] on replay [R001]

Fix: replay the log as it was written (an edited log cannot be mended); `provost explain LOG
OPTION --at N` says why an option is not legal at decision N.  An unchanged log of unchanged
rules that still diverges was written by another engine (the header's `engine`): replay it with
a provost of that engine.""")
explain("R002", """
The log is not a complete game log: a line is not JSON (cut short by a crash), a record lacks a
field or has one of the wrong type, the first line is not the header, or the log ends without
its `result` line.  A game stopped before its end leaves such a log, which records a game
nobody finished, so there is no result to verify.

    provost replay farm.jsonl
    farm.jsonl:5:1: error: the log ends without a result line after 3 decisions (truncated or abandoned); the game is not finished [R002]

Fix: replay the log of a finished game; a log cut short can still be asked about its decisions
(`provost explain LOG OPTION --at N`).""")
explain("R003", """
A log's header holds the hash of the rules the game was played with, and names them (a shipped
ruleset, or a rule file by its absolute path).  Those rules changed since, or cannot be loaded,
so a replay would test the log against other rules: its decisions could be illegal now, or its
result different, and neither would mean anything.  A file only laid out again (`provost fmt`, a
comment, blank lines) is not a change: the header of rules named by a path also holds their hash
without positions, and the log replays when that one matches.

    provost replay farm.jsonl         # farm.rules was edited after the game
    farm.jsonl:1:1: error: the rules changed since the game was played: ruleset hash 976cdefd72d50fce in the log, 4233358b8d34062c now [R003]

Fix: replay with the rules as they were (`git stash` the edit, or check out the commit of the
game); a log of the new rules comes from a new game (`provost play farm.rules`).""")

LOG_FORMAT = 1
"""Version of the log layout, written in the header as ``log_format``."""


# ------------------------------------------------------------------ writing
class GameLogWriter:
    """Writes a game's log as it is played: ``header`` once, ``decision`` per decision, ``result`` at the end.

    Lines are flushed as they are written, so an interrupted game leaves a valid
    (if result-less) prefix.  Use as a context manager or call ``close()``.
    """

    def __init__(self, target, game, agents: list[str], source: dict | None = None):
        if isinstance(target, (str, os.PathLike)):
            self._f = open(target, "w", encoding="utf-8")
            self._own = True
        else:
            self._f, self._own = target, False
        from .engine import ENGINE_VERSION
        self._write(header_record(game, agents, source, ENGINE_VERSION))

    def _write(self, rec: dict) -> None:
        self._f.write(json.dumps(rec, separators=(", ", ": ")) + "\n")
        self._f.flush()

    def decision(self, n: int, player: int, option: str, round_: int, phase: str) -> None:
        self._write({"type": "decision", "n": n, "player": player, "option": option,
                     "round": round_, "phase": phase})

    def result(self, game) -> None:
        self._write(result_record(game))

    def close(self) -> None:
        if self._own and not self._f.closed:
            self._f.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def header_record(game, agents, source, engine_version) -> dict:
    rs = game.rs
    header = {"type": "header", "log_format": LOG_FORMAT, "ruleset": rs.name, "variant": rs.variant,
              "players": game.s.humans, "seed": game.seed, "ruleset_hash": rs.digest,
              "engine": engine_version, "agents": list(agents),
              "source": source or {"ruleset": rs.name, "variant": rs.variant_source or rs.variant}}
    if rs.names_user_files():
        # The user's files may be laid out again (fmt, a comment) before the log is replayed.
        header["ruleset_hash_without_positions"] = rs.digest_without_positions()
    return header


def result_record(game) -> dict:
    return {"type": "result", **game.result()}


# ------------------------------------------------------------------ replaying
@dataclass
class ReplayReport:
    ok: bool
    message: str
    game: object = None
    line: int | None = None            # the first diverging line (1-based), None when ok
    code: str | None = None            # R001 / R002 / R003 (P005: no such file) when not ok
    decisions: int = 0                 # decisions replayed successfully
    header: dict = field(default_factory=dict)
    detail: str = ""                   # the message without its "line K: " prefix

    def diagnostic(self, path: str) -> Diagnostic:
        """The divergence as a positioned diagnostic (``LOG:line:1: error: ... [R00x]``)."""
        return Diagnostic(path, self.line or 1, 1, "error", self.code or "R001", self.detail or self.message)


class _Diverged(Exception):
    def __init__(self, line: int, message: str, code: str = "R001"):
        super().__init__(message)
        self.line, self.message, self.code = line, message, code


def _field(rec: dict, name: str, types, line: int, what: str):
    if name not in rec:
        raise _Diverged(line, "%s has no '%s' field" % (what, name), "R002")
    v = rec[name]
    if not isinstance(v, types) or (isinstance(v, bool) and bool not in _as_tuple(types)):
        raise _Diverged(line, "%s: '%s' should be %s, not %s" % (what, name, _type_names(types), json.dumps(v)),
                        "R002")
    return v


def _as_tuple(types):
    return types if isinstance(types, tuple) else (types,)


def _type_names(types) -> str:
    names = {int: "an integer", str: "a string", list: "a list", dict: "an object", type(None): "null"}
    return " or ".join(names.get(t, t.__name__) for t in _as_tuple(types))


# The longest line a log may hold: a record is one decision (a header a few kilobytes), so a longer
# line (an endless device, a corrupted file) is refused without reading it whole.
MAX_LINE = 1_000_000


def _records(path: str):
    """(line number, record) for every non-blank line; bad JSON raises _Diverged naming the line."""
    try:
        f = open(path, encoding="utf-8")
    except OSError as e:
        raise _Diverged(1, "cannot read the log: %s" % (e.strerror or e), "R002") from None
    with f:
        k = 0
        while True:
            try:
                text = f.readline(MAX_LINE + 1)
            except UnicodeDecodeError:
                raise _Diverged(k + 1, "not valid UTF-8", "R002") from None
            if not text:
                return
            k += 1
            if len(text) > MAX_LINE:
                raise _Diverged(k, "a line longer than %d characters is not a log record" % MAX_LINE, "R002")
            if not text.strip():
                continue
            try:
                rec = json.loads(text)
            except RecursionError:
                raise _Diverged(k, "not a log record: JSON nested too deeply", "R002") from None
            except ValueError as e:
                truncated = not text.endswith("\n")
                raise _Diverged(k, "not valid JSON%s: %s"
                                % (" (the log looks truncated)" if truncated else "", e), "R002") from None
            if not isinstance(rec, dict):
                raise _Diverged(k, "not a JSON object", "R002")
            yield k, rec


_SHIPPED_CACHE: dict = {}


def load_rules(ruleset: str, variant: str | None = None, players: int | None = None):
    """``load_checked``, remembering shipped rulesets for the life of the process.

    A path, as the ruleset or a variant, is always loaded afresh (the file may have changed, and
    replay and a running server's next game must notice); a shipped name is loaded once.  Which
    is which is the loader's rule (``provost.dsl.loader.shipped_game``): a file named ``caylus``
    in the current directory does not hide the shipped ``caylus``.
    """
    from provost.dsl.compose import names_a_file
    from provost.dsl.loader import load_checked, shipped_game

    if shipped_game(ruleset) is None or names_a_file(variant):
        return load_checked(ruleset, variant, players)
    key = (ruleset, variant, players)
    rs = _SHIPPED_CACHE.get(key)
    if rs is None:
        rs = _SHIPPED_CACHE[key] = load_checked(ruleset, variant, players)
    return rs


def _load_rules(header: dict):
    """The rules a header names: its ``source`` when that is a rule file that still exists, else
    the name.  A log is untrusted input: it never makes provost read a file that is not a rule
    file (``.rules``, ``.json``, ``.yaml``), whatever path it names."""
    from .savefile import RULE_FILE_SUFFIXES, is_rule_file_name, refuse_variant_files

    from provost.dsl.compose import names_a_file
    from provost.dsl.source import is_bare_name

    src = header.get("source")
    if isinstance(src, dict) and isinstance(src.get("variant"), str):
        refuse_variant_files(src["variant"], "<log>", "R003", "R003")
    # Variant files are named as the player asked for them, without the rules for the count that
    # `--players N` put under them: loaded for the log's count, they are put there again.
    count = header.get("players") if isinstance(src, dict) and names_a_file(src.get("variant")) else None
    if isinstance(src, dict) and isinstance(src.get("ruleset"), str) and not is_bare_name(src["ruleset"]) \
            and not is_rule_file_name(src["ruleset"]):
        # (`provost play rules.txt` plays the file its user named; a log never makes provost read it)
        raise RulesError([Diagnostic("<log>", 1, 1, "error", "R003", "the log's rules are in %r, which is not a "
                                     "rule file (%s): a log is replayed only from one" % (src["ruleset"], ", ".join(RULE_FILE_SUFFIXES)))])
    if isinstance(src, dict) and isinstance(src.get("ruleset"), str) and os.path.isfile(src["ruleset"]) \
            and is_rule_file_name(src["ruleset"]):
        variant = src.get("variant")
        return load_rules(src["ruleset"], variant if isinstance(variant, str) else None, count)
    if isinstance(src, dict) and isinstance(src.get("variant"), str) and isinstance(src.get("ruleset"), str) \
            and src["ruleset"] == header.get("ruleset"):
        return load_rules(src["ruleset"], src["variant"], count)     # a shipped game with a variant file
    from provost.dsl.loader import shipped_game
    name = header["ruleset"]
    if shipped_game(name) is None and not is_rule_file_name(name):
        # A name that is no shipped ruleset is never read as a path (`passwd`, from /etc, was).
        if isinstance(src, dict) and isinstance(src.get("ruleset"), str) and is_rule_file_name(src["ruleset"]):
            message = "the rule file this game was played with is gone: %s" % src["ruleset"]
        elif is_bare_name(name):
            from provost.dsl.loader import list_shipped
            message = "unknown ruleset %r (shipped: %s)" % (name, ", ".join(g["name"] for g in list_shipped()))
        else:
            message = "the log names its rules %r: neither a shipped ruleset nor a rule file" % name
        raise RulesError([Diagnostic("<log>", 1, 1, "error", "R003", message)])
    if isinstance(header["variant"], str):
        refuse_variant_files(header["variant"], "<log>", "R003", "R003")
    return load_rules(name, header["variant"])


def _said(e: RulesError, code: str | None = None) -> str:
    """What stopped the rules loading, in words: a finding about the log itself by its message
    alone (this diagnostic gives the log's position and code), one in a rule file with its place
    (and without its code when it is this diagnostic's ``code``: one finding, said once)."""
    d = e.diagnostics[0] if e.diagnostics else None
    if d is None or d.path == "<log>":
        return d.message if d is not None else str(e)
    if d.code == code and len(e.diagnostics) == 1:
        return "%s: %s" % (d.path, d.message)
    return str(e)


def rules_for_header(header: dict, line: int, rs=None):
    """The rules a log's header names (or ``rs``), refused unless their digest is the header's."""
    digest = _field(header, "ruleset_hash", str, line, "the header")
    without_positions = (_field(header, "ruleset_hash_without_positions", str, line, "the header")
                         if "ruleset_hash_without_positions" in header else None)
    if rs is None:
        try:
            rs = _load_rules(header)
        except RulesError as e:
            raise _Diverged(line, "cannot load the rules the log names: %s" % _said(e, "R003"), "R003") from None
    if not rs.matches_digests(digest, without_positions):
        raise _Diverged(line, "the rules changed since the game was played: ruleset hash %s in the log, %s now"
                        % (digest, rs.digest), "R003")
    return rs


def start_game(header: dict, line: int, rs=None):
    """The game a log's header (on ``line``) describes, at its start; ``_Diverged`` (R002: a field
    missing or of the wrong type, a seed out of range; R003: the rules; R001: the game cannot
    start) says what is wrong with it.  ``replay``, ``explain`` and ``view`` all start here."""
    from .engine import Game
    from .rng import SEED_LIMIT

    what = "the header"
    if "log_format" in header and _field(header, "log_format", int, line, what) != LOG_FORMAT:
        # A later layout may mean something else by the same lines: never replayed as this one.
        raise _Diverged(line, "the header: log_format %d is not a log layout this provost reads (it reads %d)"
                        % (header["log_format"], LOG_FORMAT), "R002")
    _field(header, "ruleset", str, line, what)
    _field(header, "variant", (str, type(None)), line, what)
    # (logs written before `source` have none, or null: their rules are named by `ruleset`)
    source = _field(header, "source", (dict, type(None)), line, what) if "source" in header else None
    if source is not None:
        _field(source, "ruleset", str, line, "the header's source")
        _field(source, "variant", (str, type(None)), line, "the header's source")
    if "agents" in header and not all(isinstance(a, str) for a in _field(header, "agents", list, line, what)):
        raise _Diverged(line, "the header: 'agents' should be a list of agent names (strings)", "R002")
    players = _field(header, "players", int, line, what)
    seed = _field(header, "seed", int, line, what)
    if not 0 <= seed < SEED_LIMIT:
        raise _Diverged(line, "the header: 'seed' should be a whole number from 0 to 2**64 - 1, not %d" % seed,
                        "R002")
    rs = rules_for_header(header, line, rs)
    try:
        return Game.new(rs, players=players, seed=seed)
    except RulesError as e:
        raise _Diverged(line, "cannot start the game the header describes: %s" % e) from None


def check_log(path: str, rs=None) -> ReplayReport:
    """Replay the log at ``path``; the report names the first line that diverges."""
    from provost.dsl.source import input_problem

    problem = input_problem(path)       # missing, or a folder: P005, as `check` reports it
    if problem is not None:
        return ReplayReport(False, problem.message, line=1, code=problem.code, detail=problem.message)
    report = ReplayReport(False, "")
    try:
        _replay_into(path, rs, report)
    except _Diverged as d:
        report.ok, report.line, report.code, report.detail = False, d.line, d.code, d.message
        report.message = "line %d: %s" % (d.line, d.message)
    return report


def replay(path: str, rs=None):
    """``(ok, message, game)`` for the log at ``path`` (see ``check_log``)."""
    r = check_log(path, rs)
    return r.ok, r.message, r.game


def _replay_into(path: str, rs, report: ReplayReport) -> None:
    from .engine import ENGINE_VERSION, IllegalOption

    records = _records(path)
    first = next(records, None)
    if first is None:
        raise _Diverged(1, "the log is empty", "R002")
    line, header = first
    if header.get("type") != "header":
        raise _Diverged(line, "the first line should be the header (type 'header'), not %s"
                        % json.dumps(header.get("type")), "R002")
    report.header = header
    game = start_game(header, line, rs)
    rs, players, seed = game.rs, header["players"], header["seed"]
    report.game = game
    engine_note = ""
    if header.get("engine") != ENGINE_VERSION:
        engine_note = " (written by engine %s, replayed by engine %s)" % (header.get("engine"), ENGINE_VERSION)
    try:
        result_seen, line = _replay_records(game, records, report, line, IllegalOption)
    except _Diverged as d:
        if engine_note and d.code == "R001":
            # An engine of another version plays some choices differently (ENGINE_VERSION): say so.
            d.message += engine_note
        raise
    if not result_seen:
        raise _Diverged(line + 1, "the log ends without a result line after %s (truncated or abandoned)%s"
                        % (_decisions(report.decisions), "; the game is not finished" if not game.finished else ""),
                        "R002")
    report.ok = True
    report.message = "replayed %s of %s%s with %d players, seed %d: identical result%s" % (
        _decisions(report.decisions), rs.name, "/" + rs.variant if rs.variant else "", players, seed, engine_note)


def _replay_records(game, records, report: ReplayReport, line: int, IllegalOption) -> tuple[bool, int]:
    """Play the log's decisions and check its result; whether a result line was seen, and the
    number of the last line read."""
    result_seen = False
    for line, rec in records:
        kind = rec.get("type")
        if result_seen:
            raise _Diverged(line, "a %s line after the result" % json.dumps(kind), "R002")
        if kind == "decision":
            _replay_decision(game, rec, line, IllegalOption)
            report.decisions += 1
        elif kind == "result":
            _check_result(game, rec, line)
            result_seen = True
        else:
            raise _Diverged(line, "unknown line type %s (expected 'decision' or 'result')" % json.dumps(kind),
                            "R002")
    return result_seen, line


def _decisions(n: int) -> str:
    return "%d decision%s" % (n, "" if n == 1 else "s")


_DECISION_FIELDS = ("type", "n", "player", "option", "round", "phase")


def _replay_decision(game, rec: dict, line: int, IllegalOption) -> None:
    what = "decision"
    unknown = [k for k in rec if k not in _DECISION_FIELDS]
    if unknown:
        raise _Diverged(line, "decision: unknown field %s (a decision has %s)"
                        % (json.dumps(unknown[0])[:80], ", ".join(_DECISION_FIELDS)), "R002")
    n = _field(rec, "n", int, line, what)
    player = _field(rec, "player", int, line, what)
    option = _field(rec, "option", str, line, what)
    if game.finished:
        raise _Diverged(line, "decision %d, but the game was already over" % n)
    expected = game.s.decisions + 1
    if n != expected:
        raise _Diverged(line, "decision number %d, expected %d" % (n, expected))
    who = game.current_player()
    if player != who:
        raise _Diverged(line, "decision %d is by player %s, but player %s is to decide (%s)"
                        % (n, player, who, game.prompt()))
    if "round" in rec and rec["round"] != game.s.round:
        raise _Diverged(line, "decision %d in round %s, but the game is in round %s" % (n, rec["round"], game.s.round))
    if "phase" in rec and rec["phase"] != game.s.phase:
        raise _Diverged(line, "decision %d in phase %s, but the game is in phase %s"
                        % (n, json.dumps(rec["phase"]), json.dumps(game.s.phase)))
    try:
        game.apply(option)
    except IllegalOption as e:
        raise _Diverged(line, "decision %d: %s" % (n, e)) from None
    except RulesError as e:
        raise _Diverged(line, "decision %d: the rules failed while playing '%s': %s" % (n, option, e)) from None


def _check_result(game, rec: dict, line: int) -> None:
    if not game.finished:
        raise _Diverged(line, "the log's result comes after %s, but the game is not finished (%s is to "
                        "decide: %s)" % (_decisions(game.s.decisions), game.current_player(), game.prompt()))
    want = result_record(game)
    for key in ("scores", "neutral_scores", "winners", "rounds", "decisions"):
        if key not in rec:
            if key == "neutral_scores" and not want[key]:
                continue        # logs written before neutral scores had their own key
            raise _Diverged(line, "the result has no '%s' field" % key, "R002")
        if rec[key] != want[key]:
            raise _Diverged(line, "the result differs: %s %s in the log, %s on replay"
                            % (key, json.dumps(rec[key]), json.dumps(want[key])))
