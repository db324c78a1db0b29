"""`provost play` and `provost replay` (DESIGN.md section 6).

    provost play RULESET [--variant NAME] [--players N] [--seed S] [--agents a,b,...]
                         [--log FILE] [--format text|json] [--check-invariants]
    provost replay LOG [--format text|json]

Agents: one name per seat (``random``, ``greedy``, ``human``).  A list shorter
than the number of players is completed by repeating its last name
(``--agents greedy`` puts greedy in every seat; ``--agents human,random`` gives
one human and random bots elsewhere); without ``--agents`` every seat is
random.  More names than players is a usage error.  ``--check-invariants`` checks the rules'
``invariant`` declarations before the first decision and after every one; the first violated is
an E200 diagnostic at the invariant's declaration, naming the seed and the decision (exit 1).

Exit codes: 0 ok; 1 the rules have errors, the log is missing or the replay
diverged (the first diverging line of the log is named); 2 usage errors
(unknown agent, player count out of range, unwritable log, the input of a
human seat ended); 130 a human gave up (Ctrl-C or ``quit``).  With ``--format
json`` a failure is one JSON object too (``provost.tools.cli.failures.failure_object``).
"""
from __future__ import annotations

import argparse
import json
import os
import sys

from provost.dsl.diagnostics import UsageError, printable


def resolve_agents(names: list[str] | None, players: int) -> list[str]:
    """One agent name per seat: default all random; a short list repeats its last name."""
    from provost.interpreter.agents import AGENTS, UnknownAgent

    names = list(names) if names else ["random"]
    if len(names) > players:
        raise ValueError("%d agents given for %d players" % (len(names), players))
    for name in names:
        if name not in AGENTS:
            base, _, spec = name.partition(":")
            if spec and hasattr(AGENTS.get(base), "from_spec"):
                AGENTS[base].from_spec(0, 0, spec)      # a known agent's bad budget: its ValueError says why
            raise UnknownAgent(name)
    return names + [names[-1]] * (players - len(names))


def _decisions(game) -> str:
    n = game.s.decisions
    return "%d decision%s" % (n, "" if n == 1 else "s")


def _invariant_check(game, seed: int):
    """``after`` for play_game: the rules' invariants, a violation raised as an E200 diagnostic."""
    from provost.dsl.diagnostics import RulesError
    from provost.interpreter.invariants import InvariantChecker, violation_diagnostic

    checker = InvariantChecker(game)

    def after(g, player, option):
        v = checker.first_violation(g)
        if v is not None:
            raise RulesError([violation_diagnostic(v, seed)])
    return after


def run_play(args: argparse.Namespace) -> int:
    from provost.interpreter.agents import HumanAgent, HumanInputEnded, HumanQuit, UnknownAgent, make_agent, play_game
    from provost.interpreter.engine import Game, players_out_of_range
    from provost.interpreter.gamelog import GameLogWriter, load_rules
    from provost.tools.cli.failures import Interrupted, cannot_write, check_writable

    from provost.interpreter.rng import fresh_seed

    if args.log:
        check_writable(args.log)     # (a named pipe nothing reads would wait for ever)
    rs = load_rules(args.ruleset, args.variant, args.players)  # RulesError -> diagnostics, exit 1 (provost.tools.cli)
    if args.seed is None:
        args.seed = fresh_seed()   # reported at the end (never before: a seed tells every hidden card)
    problem = players_out_of_range(rs, args.players) if args.players is not None else None
    if problem:
        raise UsageError(problem)
    game = Game.new(rs, players=args.players, seed=args.seed)
    n = game.s.humans              # seats beyond are neutral players, played by the rules
    try:
        names = resolve_agents(args.agents, n)
    except (ValueError, UnknownAgent) as e:
        raise UsageError(str(e)) from None
    agents = [make_agent(name, args.seed, seat) for seat, name in enumerate(names)]
    if args.format == "json":
        for agent in agents:
            if isinstance(agent, HumanAgent):
                agent.stdout = sys.stderr    # stdout holds the one JSON object, nothing else

    log = None
    # DESIGN: every game writes a log; without --log, a new file in the user's data folder.
    log_path = args.log or (None if args.no_log else default_log_path(rs.name, args.seed))
    if log_path:
        # As the rules were named: a shipped name stays a name, a path becomes absolute.
        source = {"ruleset": args.ruleset if rs.source_path is None else os.path.abspath(args.ruleset),
                  "variant": (rs.variant_source or rs.variant) if args.variant or args.players else None}
        try:
            if not args.log:
                os.makedirs(os.path.dirname(log_path), exist_ok=True)
            log = GameLogWriter(log_path, game, names, source)
        except OSError as e:
            if args.log:
                raise cannot_write(args.log, e) from None
            # The log nobody asked for by name does not stop the game: say why there is none.
            print("provost: warning: no game log: cannot write %s: %s (--log FILE names another place)"
                  % (printable(log_path), e.strerror or e), file=sys.stderr)
            log_path = None
    unfinished = " (the log has no result line)" if log else ""
    after = None
    if getattr(args, "check_invariants", False):
        after = _invariant_check(game, args.seed)
        after(game, None, None)          # the state before the first decision too
    try:
        play_game(game, agents, log=log, after=after)
    except HumanInputEnded:
        # End of input is not a human's decision to stop: stdin was empty or ran out (a pipe,
        # /dev/null, a script with too few answers), so it is a usage error, not 130.
        raise UsageError("the input ended after %s, before the game did: a human seat reads its answers "
                         "from stdin (a terminal, or one answer per line)%s"
                         % (_decisions(game), unfinished)) from None
    except HumanQuit:
        raise Interrupted("game abandoned after %s%s" % (_decisions(game), unfinished)) from None
    finally:
        if log is not None:
            log.close()

    if args.format == "json":
        # scores: the deciding seats (len == players); a neutral seat's score is apart and never wins.
        print(json.dumps({"ok": True, "ruleset": rs.name, "variant": rs.variant, "players": n, "seed": args.seed,
                          "agents": names, **game.result(), "neutral": list(range(n, game.s.players)),
                          "ruleset_hash": rs.digest, "log": log_path}))
    else:
        scores, winners = game.scores(), game.winners()
        title = rs.name + (" / " + rs.variant if rs.variant else "")
        print("%s, %d players, seed %d: %d rounds, %d decisions" % (title, n, args.seed, game.s.round,
                                                                   game.s.decisions))
        names = names + ["neutral"] * (game.s.players - n)
        width = max(len(a) for a in names)
        for seat, (name, score) in enumerate(zip(names, scores)):
            mark = "  winner" if seat in winners else ("  (never wins)" if seat >= n else "")
            print("  seat %d  %-*s  %4d %s%s" % (seat, width, name, score, rs.game().get("score", "points"), mark))
        who = ", ".join("seat %d (%s)" % (w, names[w]) for w in winners)
        print(("winners: " if len(winners) > 1 else "winner: ") + who)
        if log_path:
            print("log: %s" % printable(log_path))
    return 0


def default_log_path(ruleset: str, seed: int) -> str:
    """A new file for a game's log in the user's data folder (``provost/logs``): the rules' name,
    the seed and the time it started, and the process, so that two games never share one."""
    import time

    from platformdirs import user_data_dir
    stem = os.path.join(user_data_dir("provost"), "logs", "%s-seed%d-%s-%d" % (
        os.path.basename(ruleset), seed, time.strftime("%Y%m%dT%H%M%SZ", time.gmtime()), os.getpid()))
    path, k = stem + ".jsonl", 1
    while os.path.lexists(path):        # (the same game again within the second, in one process)
        path, k = "%s-%d.jsonl" % (stem, k), k + 1
    return path


def run_replay(args: argparse.Namespace) -> int:
    from provost.interpreter.gamelog import check_log
    from provost.tools.cli.failures import failure_object

    r = check_log(args.log)     # a missing log or a folder is a P005 diagnostic, as in `check`
    if args.format == "json":
        out = {"log": args.log, "ok": r.ok, "line": r.line, "code": r.code, "message": r.message,
               "decisions": r.decisions}
        if r.ok and r.game is not None:
            out.update(r.game.result())
        else:
            out = failure_object("input", r.message, [r.diagnostic(args.log)], out)
        print(json.dumps(out))
    elif r.ok:
        print("%s: ok: %s" % (printable(args.log), printable(r.message)))
    else:
        print(r.diagnostic(args.log).format_text())
    return 0 if r.ok else 1
