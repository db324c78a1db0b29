"""`provost play` and `provost replay` (DESIGN.md section 6).

    provost play RULESET [--variant NAME] [--players N] [--seed S] [--agents a,b,...]
                         [--log FILE] [--format text|json]
    provost replay LOG [--format text|json]

Agents: one name per seat (``random``, ``greedy``, ``human``).  A list shorter
than the number of players is completed by repeating its last name
(``--agents greedy`` puts greedy in every seat; ``--agents human,random`` gives
one human and random bots elsewhere); without ``--agents`` every seat is
random.  More names than players is a usage error.

Exit codes: 0 ok; 1 the rules have errors or the replay diverged (the first
diverging line of the log is named); 2 usage errors (unknown agent, player
count out of range, unwritable log); 130 a human gave up (Ctrl-D or ``quit``).
"""
from __future__ import annotations

import argparse
import json
import os
import sys


def _error(message: str) -> None:
    print("provost: error: %s" % message, file=sys.stderr)


def resolve_agents(names: list[str] | None, players: int) -> list[str]:
    """One agent name per seat: default all random; a short list repeats its last name."""
    from interpreter.agents import AGENTS, UnknownAgent

    names = list(names) if names else ["random"]
    if len(names) > players:
        raise ValueError("%d agents given for %d players" % (len(names), players))
    for name in names:
        if name not in AGENTS:
            raise UnknownAgent(name)
    return names + [names[-1]] * (players - len(names))


def run_play(args: argparse.Namespace) -> int:
    from interpreter.agents import HumanQuit, UnknownAgent, make_agent, play_game
    from interpreter.engine import Game
    from interpreter.gamelog import GameLogWriter, load_rules

    rs = load_rules(args.ruleset, args.variant)  # RulesError -> diagnostics, exit 1 (tools.cli)
    lo, hi = rs.game().get("players") or [1, 8]
    players = args.players
    if players is not None and not lo <= players <= hi:
        _error("%s is for %d to %d players, not %d" % (rs.name, lo, hi, players))
        return 2
    game = Game.new(rs, players=players, seed=args.seed)
    n = game.s.humans              # seats beyond are neutral players, played by the rules
    try:
        names = resolve_agents(args.agents, n)
    except (ValueError, UnknownAgent) as e:
        _error(str(e))
        return 2
    agents = [make_agent(name, args.seed, seat) for seat, name in enumerate(names)]

    log = None
    if args.log:
        # As the rules were named: a shipped name stays a name, a path becomes absolute.
        source = {"ruleset": args.ruleset if rs.source_path is None else os.path.abspath(args.ruleset),
                  "variant": args.variant}
        try:
            log = GameLogWriter(args.log, game, names, source)
        except OSError as e:
            _error("cannot write the log %s: %s" % (args.log, e.strerror or e))
            return 2
    try:
        play_game(game, agents, log=log)
    except HumanQuit:
        print("provost: game abandoned after %d decisions%s" % (
            game.s.decisions, " (the log has no result line)" if log else ""), file=sys.stderr)
        return 130
    finally:
        if log is not None:
            log.close()

    scores, winners = game.scores(), game.winners()
    if args.format == "json":
        print(json.dumps({"ruleset": rs.name, "variant": rs.variant, "players": n, "seed": args.seed,
                          "agents": names, "scores": scores, "neutral": list(range(n, game.s.players)), "winners": winners, "rounds": game.s.round,
                          "decisions": game.s.decisions, "ruleset_hash": rs.digest, "log": args.log}))
    else:
        title = rs.name + (" / " + rs.variant if rs.variant else "")
        print("%s, %d players, seed %d: %d rounds, %d decisions" % (title, n, args.seed, game.s.round,
                                                                   game.s.decisions))
        names = names + ["neutral"] * (game.s.players - n)
        width = max(len(a) for a in names)
        for seat, (name, score) in enumerate(zip(names, scores)):
            mark = "  winner" if seat in winners else ""
            print("  seat %d  %-*s  %4d %s%s" % (seat, width, name, score, rs.game().get("score", "points"), mark))
        who = ", ".join("seat %d (%s)" % (w, names[w]) for w in winners)
        print(("winners: " if len(winners) > 1 else "winner: ") + who)
        if args.log:
            print("log: %s" % args.log)
    return 0


def run_replay(args: argparse.Namespace) -> int:
    from interpreter.gamelog import check_log

    if not os.path.isfile(args.log):
        _error("no such log file: %s" % args.log)
        return 2
    r = check_log(args.log)
    if args.format == "json":
        out = {"log": args.log, "ok": r.ok, "line": r.line, "code": r.code, "message": r.message,
               "decisions": r.decisions}
        if r.ok and r.game is not None:
            out.update(scores=r.game.scores(), winners=r.game.winners(), rounds=r.game.s.round)
        print(json.dumps(out))
    elif r.ok:
        print("%s: ok: %s" % (args.log, r.message))
    else:
        print(r.diagnostic(args.log).format_text())
    return 0 if r.ok else 1
