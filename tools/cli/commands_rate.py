"""`provost rate RULESET --agents a,b,...`: a seeded round robin and the agents' ratings.

    provost rate RULESET --agents random,greedy,mcts:100 [--variant V] [--players N]
                         [--games G] [--jobs J] [--seed S] [--format text|json]

``--games`` games in all, spread evenly over the seatings of ``provost.tools.sim.ratings``;
the games of seating ``k`` take the seeds that follow those of seating ``k-1``, starting at S,
so every game can be replayed alone with ``provost play``.  The games run on the simulation's
own backend (``--jobs``), and the ratings fold them in seed order, so they are the same
whatever ``--jobs``.  Exit codes as ``provost sim``: 1 when a game raised an engine error.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import sys

from provost.dsl.diagnostics import UsageError, printable
from provost.tools.cli.failures import check_seed_span, failure_object
from provost.tools.cli.progress import ProgressBar


def _games_failed(n: int) -> str:
    return "%d game%s raised an engine error (see errors)" % (n, "" if n == 1 else "s")


def _plan(games: int, arrangements: list) -> list[tuple[int, tuple, int]]:
    """(first seed offset, seating, games) for every seating that gets games."""
    per, extra = divmod(games, len(arrangements))
    plan, offset = [], 0
    for k, seating in enumerate(arrangements):
        count = per + (1 if k < extra else 0)
        if count:
            plan.append((offset, seating, count))
        offset += count
    return plan


def run_rate(args: argparse.Namespace) -> int:
    from provost.tools.cli.commands_sim import _spec_for
    from provost.tools.sim.ratings import Ratings, RatingsUnavailable, render_text, require_openskill, seatings
    from provost.tools.sim.runner import NEUTRAL, make_backend, make_tasks

    try:
        require_openskill()
    except RatingsUnavailable as e:
        raise UsageError(str(e)) from None
    pool = list(dict.fromkeys(args.agents))
    if len(pool) < 2:
        raise UsageError("--agents: name at least two different agents to rate")
    check_seed_span(args.seed, args.games)
    # More agents than seats is a round robin too (ratings.seatings: every seating of every group):
    # the rules and each name are checked one name at a time, never as one agent per seat.
    probe = _spec_for(args.ruleset, args.variant, args.players, pool[:1], args.seed)
    for name in pool[1:]:
        _spec_for(args.ruleset, args.variant, args.players, [name], args.seed)     # validates the name
    humans, neutral = probe.players, len(probe.agents) - probe.players
    plan = _plan(args.games, seatings(pool, humans))
    specs = [dataclasses.replace(probe, agents=tuple(seating) + (NEUTRAL,) * neutral, seed=args.seed + offset)
             for offset, seating, _ in plan]

    records: dict[tuple[int, int], dict] = {}

    bar = ProgressBar("rate", sum(count for _, _, count in plan))

    def on_result(spec_index: int, batch: list) -> None:
        for record in batch:
            records[(spec_index, record["game"])] = record
        bar.advance(len(batch))

    tasks = ((k, start, n) for k, (_, _, count) in enumerate(plan)
             for (_, start, n) in make_tasks([specs[k]], count, args.jobs))
    with bar:
        make_backend("local", args.jobs).run(specs, tasks, on_result)

    ratings = Ratings(pool)
    errors = []
    for (k, index), record in sorted(records.items(), key=lambda kv: kv[1]["seed"]):
        if "error" in record:
            errors.append({"seed": record["seed"], "error": record["error"]})
            continue
        ratings.add(plan[k][1], record)
    rows = ratings.table()
    title = probe.label + " (%d players)" % humans
    if args.format == "json":
        out = {"ruleset": probe.rules.name, "variant": probe.rules.variant, "players": humans,
               "seed": args.seed, "games": ratings.games, "agents": rows, "errors": errors,
               "seatings": [{"agents": list(seating), "games": count, "first_seed": args.seed + offset}
                            for offset, seating, count in plan]}
        # "ok" first, and on failure the "error" every command's JSON report has
        out = {**(failure_object("input", _games_failed(len(errors))) if errors else {"ok": True}), **out}
        print(json.dumps(out))
    else:
        print(render_text(title, ratings.games, len(errors), rows))
        for e in errors[:10]:
            print("seed %d: %s" % (e["seed"], printable(e["error"])), file=sys.stderr)
    return 1 if errors else 0
