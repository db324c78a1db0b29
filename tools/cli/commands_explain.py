"""`provost explain LOG --at N OPTION`: why OPTION was not legal at decision N of a logged game.

The log is read as `provost replay` reads it (`provost.interpreter.gamelog`): its header and the
decisions before N are checked the same way, and a problem with them is the same positioned
diagnostic (`LOG:line:1: error: ... [R00x]`, exit 1).  Text printed from the log and from the
command line has its control characters escaped.
"""
from __future__ import annotations

import json

from provost.dsl.diagnostics import Diagnostic, RulesError, UsageError, printable
from provost.dsl.source import input_problem
from provost.interpreter.engine import IllegalOption
from provost.interpreter.explain import explain
from provost.interpreter.gamelog import _Diverged, _records, _replay_decision, start_game


def _log_error(log: str, line: int, code: str, message: str) -> RulesError:
    return RulesError([Diagnostic(log, line, 1, "error", code, message)])


def run_explain(args) -> int:
    problem = input_problem(args.log)   # missing, or a folder: P005, as `check` reports it
    if problem is not None:
        raise RulesError([problem])
    try:
        records = _records(args.log)
        first = next(records, None)
        if first is None:
            raise _Diverged(1, "the log is empty", "R002")
        if first[1].get("type") != "header":
            raise _log_error(args.log, first[0], "R002", "not a game log header")
        game = start_game(first[1], first[0])
        for line, rec in records:
            if rec.get("type") != "decision" or game.s.decisions + 1 >= args.at:
                break
            _replay_decision(game, rec, line, IllegalOption)
    except _Diverged as d:
        raise _log_error(args.log, d.line, d.code, d.message) from None
    if game.s.decisions + 1 != args.at or game.finished:     # after the last one: no decision
        raise UsageError("the log has no decision %d (it has %d%s)" % (
            args.at, game.s.decisions, "; the game is over" if game.finished else ""))
    reason = explain(game, args.option)
    legal = args.option in game.legal_options()
    if args.format == "json":
        print(json.dumps({"ok": True, "decision": args.at, "player": game.current_player(), "prompt": game.prompt(),
                          "option": args.option, "legal": legal, "reason": reason,
                          "legal_options": game.legal_options()}))
    else:
        print(printable("decision %d, player %s, %s (round %d, %s):" % (
            args.at, game.current_player(), game.prompt(), game.s.round, game.s.phase)))
        print("  " + printable(reason))
        if not legal:
            print("  legal options: " + printable(", ".join(game.legal_options())))
    return 0
