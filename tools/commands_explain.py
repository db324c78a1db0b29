"""`provost explain LOG --at N OPTION`: why OPTION was not legal at decision N of a logged game."""
from __future__ import annotations

import json
import sys

from interpreter.engine import Game, IllegalOption
from interpreter.explain import explain
from interpreter.gamelog import _Diverged, _load_rules, _records


def run_explain(args) -> int:
    try:
        records = _records(args.log)
        first = next(records, None)
        if first is None or first[1].get("type") != "header":
            print("provost: error: %s: line 1: not a game log header" % args.log, file=sys.stderr)
            return 1
        header = first[1]
        game = Game.new(_load_rules(header), players=header["players"], seed=header["seed"])
        for line, rec in records:
            if rec.get("type") != "decision" or game.s.decisions + 1 >= args.at:
                break
            game.apply(rec["option"])
    except _Diverged as d:
        print("provost: error: %s:%d: %s" % (args.log, d.line, d.message), file=sys.stderr)
        return 1
    except (IllegalOption, KeyError, TypeError) as e:
        print("provost: error: %s: the log does not replay: %s" % (args.log, e), file=sys.stderr)
        return 1
    if game.s.decisions + 1 != args.at:
        print("provost: error: the log has no decision %d (it has %d)" % (args.at, game.s.decisions), file=sys.stderr)
        return 1
    reason = explain(game, args.option)
    legal = args.option in game.legal_options()
    if args.format == "json":
        print(json.dumps({"decision": args.at, "player": game.current_player(), "prompt": game.prompt(),
                          "option": args.option, "legal": legal, "reason": reason,
                          "legal_options": game.legal_options()}))
    else:
        print("decision %d, player %s, %s (round %d, %s):" % (args.at, game.current_player(), game.prompt(),
                                                             game.s.round, game.s.phase))
        print("  " + reason)
        if not legal:
            print("  legal options: " + ", ".join(game.legal_options()))
    return 0
