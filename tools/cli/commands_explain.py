"""`provost explain LOG --at N OPTION`: why OPTION was not legal at decision N of a logged game."""
from __future__ import annotations

import json

from provost.dsl.diagnostics import Diagnostic, RulesError, UsageError
from provost.dsl.source import input_problem
from provost.interpreter.engine import Game, IllegalOption
from provost.interpreter.explain import explain
from provost.interpreter.gamelog import _Diverged, _records, rules_for_header


def _log_error(log: str, line: int, code: str, message: str) -> RulesError:
    return RulesError([Diagnostic(log, line, 1, "error", code, message)])


def run_explain(args) -> int:
    problem = input_problem(args.log)   # missing, or a folder: P005, as `check` reports it
    if problem is not None:
        raise RulesError([problem])
    try:
        records = _records(args.log)
        first = next(records, None)
        if first is None or first[1].get("type") != "header":
            raise _log_error(args.log, 1, "R002", "not a game log header")
        header = first[1]
        game = Game.new(rules_for_header(header, first[0]), players=header["players"], seed=header["seed"])
        for line, rec in records:
            if rec.get("type") != "decision" or game.s.decisions + 1 >= args.at:
                break
            game.apply(rec["option"])
    except _Diverged as d:
        raise _log_error(args.log, d.line, d.code, d.message) from None
    except (IllegalOption, KeyError, TypeError) as e:
        raise _log_error(args.log, 1, "R001", "the log does not replay: %s" % e) from None
    if game.s.decisions + 1 != args.at:
        raise UsageError("the log has no decision %d (it has %d)" % (args.at, game.s.decisions))
    reason = explain(game, args.option)
    legal = args.option in game.legal_options()
    if args.format == "json":
        print(json.dumps({"ok": True, "decision": args.at, "player": game.current_player(), "prompt": game.prompt(),
                          "option": args.option, "legal": legal, "reason": reason,
                          "legal_options": game.legal_options()}))
    else:
        print("decision %d, player %s, %s (round %d, %s):" % (args.at, game.current_player(), game.prompt(),
                                                             game.s.round, game.s.phase))
        print("  " + reason)
        if not legal:
            print("  legal options: " + ", ".join(game.legal_options()))
    return 0
