"""`provost soak`: seeded bot games with the rules' invariants checked after every decision.

    provost soak RULESET [--variant V] [--players N ...] [--seeds K] [--seed S] [--greedy]
                         [--jobs J] [--format text|json]

For each player count (default: every count the rules allow, the counts a variant of the game
gives its own rules included: Caylus for 2, Ys for 2 and 3) and each seed S.. S+K-1 it plays
random agents in every seat, and with ``--greedy`` also greedy in seat S mod P.  The invariants are
the rule file's ``invariant`` declarations (provost.tools.sim.soak).  A violation is reported as
``path:line:col: error: invariant 'NAME' violated for player P (seed S, decision D): MESSAGE
(detail) [E200]`` with the command that replays the game.

Exit codes: 0 every game kept every invariant; 1 the rules have errors, or a game broke an
invariant or failed in the engine; 2 usage errors (a player count the rules do not allow).
"""
from __future__ import annotations

import argparse
import json
import shlex
import sys
import time

from provost.dsl.diagnostics import RulesError, UsageError, printable


def _replay_command(args, r: dict) -> str:
    """The command that plays the game again, quoted for a shell (a path may hold spaces)."""
    variant = ["--variant", args.variant] if args.variant else []
    return shlex.join(["provost", "play", args.ruleset, *variant, "--players", str(r["players"]), "--seed",
                       str(r["seed"]), "--agents", ",".join(r["agents"]), "--check-invariants"])


def run_soak(args: argparse.Namespace) -> int:
    from provost.interpreter.engine import Game, players_out_of_range
    from provost.interpreter.gamelog import load_rules
    from provost.interpreter.invariants import InvariantChecker, Violation, violation_diagnostic
    from provost.tools.cli.failures import check_seed_span, failure_object
    from provost.tools.sim import soak

    rs = load_rules(args.ruleset, args.variant)  # RulesError -> diagnostics, exit 1 (provost.tools.cli)
    # Each count plays its own rules (a variant's `for_players` rules for that count).
    rules = {}
    for n in args.players or _player_counts(rs):
        try:
            rules[n] = load_rules(args.ruleset, args.variant, n)
            problem = players_out_of_range(rules[n], n)
        except UsageError as e:
            problem = str(e)
        except RulesError:
            if args.players:
                raise
            problem = "no rules for %d players" % n   # a variant that excludes the count's own rules
        if problem:
            if args.players:
                raise UsageError(problem)
            rules.pop(n, None)          # a count these rules do not cover: not soaked by default
    if not rules:
        raise UsageError("no player count of %s can be played" % args.ruleset)
    counts = sorted(rules)
    invariants = InvariantChecker(Game.new(rules[counts[0]], players=counts[0], seed=args.seed)).names()
    check_seed_span(args.seed, args.seeds)
    work = soak.tasks(counts, args.seeds, args.seed, args.greedy)
    progress = None
    if sys.stderr.isatty() and args.format == "text":
        def progress(i, total):
            print("\r%d/%d games" % (i, total), end="" if i < total else "\n", file=sys.stderr, flush=True)
    t0 = time.perf_counter()
    records = []
    for n in counts:
        records += soak.soak(rules[n], [w for w in work if w[0] == n], args.jobs, progress)
    wall = time.perf_counter() - t0
    failed = [r for r in records if not r["ok"]]
    diags = [violation_diagnostic(Violation(**_fields(r["violation"])), r["seed"]) for r in failed if "violation" in r]
    title = rs.name + (" / " + rs.variant if rs.variant else "")
    by_kind = soak.summary(records)
    if args.format == "json":
        report = {"ok": not failed, "ruleset": rs.name, "variant": rs.variant, "invariants": invariants,
                  "games": len(records), "failures": len(failed), "by_kind": by_kind,
                  "failed": [{k: r[k] for k in ("players", "seed", "agents", "error", "decisions")}
                             | ({"violation": r["violation"]} if "violation" in r else {})
                             | {"replay": _replay_command(args, r)} for r in failed],
                  "timing": {"wall_s": round(wall, 2), "jobs": args.jobs}}
        if failed:
            report = failure_object("input", "%d of %d games failed" % (len(failed), len(records)), diags, report)
        print(json.dumps(report))
    else:
        print("%s: %d invariant%s (%s)" % (title, len(invariants), "" if len(invariants) == 1 else "s",
                                            ", ".join(invariants) or "none declared"))
        for key, k in by_kind.items():
            print("  %-22s %4d games  %3d failed  %6.0f decisions/game  %6.3f s/game"
                  % (key, k["games"], k["failures"], k["decisions"] / k["games"], k["time_s"] / k["games"]))
        for r in failed[:20]:
            if "violation" in r:
                print(violation_diagnostic(Violation(**_fields(r["violation"])), r["seed"]).format_text())
            else:
                print("error: %s players, seed %d: %s" % (r["players"], r["seed"], printable(r["error"])))
            print("  replay: " + printable(_replay_command(args, r)))
        print("%d games, %d failed, %.2f s" % (len(records), len(failed), wall))
    return 1 if failed else 0


def _player_counts(rs) -> list[int]:
    """Every count the rules allow: the game's own, and those a variant of the game gives rules
    for (`for_players`: Caylus for 2, Ys for 2 and 3), as `provost play --players N` takes them."""
    from provost.dsl.loader import variants_of

    lo, hi = rs.game().get("players") or [1, 8]
    counts = set(range(lo, hi + 1))
    if rs.chain:
        counts |= {n for v in variants_of(rs.chain[0]) for n in v.get("for_players") or ()}
    return sorted(counts)


def _fields(v: dict) -> dict:
    return {"name": v["invariant"], "message": v["message"], "path": v["path"], "line": v["line"], "col": v["col"],
            "decision": v["decision"], "seat": v["player"], "detail": v["detail"]}
