"""Soak test: many complete Caylus games by bots, invariants checked after every decision.

    python -m provost.tools.dev.soak                      # P in 3..5, 200 seeds each, all-random and greedy-in-a-seat
    python -m provost.tools.dev.soak --seeds 20 --players 4 --jobs 2

For every player count P and seed S it plays two games: all random agents, and
greedy in seat S mod P with random elsewhere.  After every decision it checks
(``CaylusInvariants``):

- no negative resource (deniers, cubes, gold) and PP >= 0;
- workers in hand + workers on spaces (occurrences in ``occ``) == 6 per player;
- spaces and buildings never hold more workers than they allow (tiles: one);
- the road and the tile table agree (every road tile is known, every known tile is on the road);
- tiles are conserved: for every building kind, supply + instances on the road
  is constant, except residences (unlimited) and neutral tiles, which the lawyer
  may discard (their count may only go down);
- the provost and the bailiff stay on the road.

Failures are reported with the player count, seed, agents and decision number,
enough to reproduce with ``provost play caylus --players P --seed S --agents ...``.
Exit code 0 when every game passed, 1 otherwise.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
import traceback

WORKERS = 6


class InvariantError(AssertionError):
    pass


class CaylusInvariants:
    """Invariants of a Caylus game, against a baseline taken when the game starts."""

    def __init__(self, game):
        self.prog = game.prog
        self.unlimited = {k for k, v in game.s.supply.items() if v < 0}
        self.neutral = {k for k, b in self.prog.buildings.items() if b["category"] == "neutral"}
        self.base = self.tile_counts(game)
        self.workers = self.prog.counters["workers"]["start"] if "workers" in self.prog.counters else WORKERS

    def tile_counts(self, game) -> dict:
        s = game.s
        counts = {k: max(0, s.supply.get(k, 0)) for k in self.prog.buildings}
        for inst in s.road:
            if inst is not None:
                kind = s.tiles[inst][0]
                counts[kind] = counts.get(kind, 0) + 1
        return counts

    def check(self, game) -> None:
        s, prog = game.s, self.prog
        n = s.players
        fail = []
        for r in prog.resources:
            row = s.counters[r]
            for p in range(n):
                if row[p] < 0:
                    fail.append("player %d has %d %s" % (p, row[p], r))
        # workers conserved
        placed = [0] * n
        for where, seats in s.occ.items():
            for p in seats:
                placed[p] += 1
        hand = s.counters["workers"]
        for p in range(n):
            if hand[p] < 0:
                fail.append("player %d has %d workers in hand" % (p, hand[p]))
            if hand[p] + placed[p] != self.workers:
                fail.append("player %d: %d workers in hand + %d placed != %d"
                            % (p, hand[p], placed[p], self.workers))
        # capacity
        for where, seats in s.occ.items():
            d = prog.spaces.get(where)
            cap = d["slots"] if d is not None else 1
            if 0 <= cap < len(seats):          # cap < 0: unlimited
                fail.append("%s holds %d workers (room for %d)" % (where, len(seats), cap))
            if where not in prog.spaces and seats and where not in s.tiles:
                fail.append("workers on %s, which is neither a space nor a tile on the road" % where)
        # road and tiles agree
        on_road = [t for t in s.road if t is not None]
        if len(on_road) != len(set(on_road)):
            fail.append("a tile is on the road twice: %s" % on_road)
        if set(on_road) != set(s.tiles):
            fail.append("road and tiles disagree: %s" % sorted(set(on_road) ^ set(s.tiles)))
        else:
            now = self.tile_counts(game)
            for kind, was in self.base.items():
                if kind in self.unlimited:
                    continue
                have = now.get(kind, 0)
                if kind in self.neutral:
                    if have > was:
                        fail.append("%d %s tiles, more than the %d at the start" % (have, kind, was))
                elif have != was:
                    fail.append("%s: supply + road = %d, was %d" % (kind, have, was))
            for kind, v in s.supply.items():
                if v < -1:
                    fail.append("supply of %s is %d" % (kind, v))
        # tokens on the road
        length = len(s.road) - 1
        for tok in ("provost", "bailiff"):
            if tok in s.counters and not 1 <= s.counters[tok] <= length:
                fail.append("the %s is on space %d, off the road 1..%d" % (tok, s.counters[tok], length))
        if fail:
            raise InvariantError("; ".join(fail))


def play_checked(rs, players: int, seed: int, agent_names: list[str], invariants=None):
    """Play one game checking the invariants after every decision; returns the game.

    ``invariants`` is a class built from the new game with ``check(game)`` (and, optionally,
    ``check_end(game)``); Caylus's by default.  Raises ``InvariantError`` (with the decision
    number) on the first violation.
    """
    from provost.interpreter.agents import make_agent, play_game
    from provost.interpreter.engine import Game

    game = Game.new(rs, players=players, seed=seed)
    inv = (invariants or CaylusInvariants)(game)
    inv.check(game)
    agents = [make_agent(a, seed, i) for i, a in enumerate(agent_names)]

    def after(g, player, option):
        try:
            inv.check(g)
        except InvariantError as e:
            raise InvariantError("after decision %d (player %d chose %s, round %d, phase %s): %s"
                                 % (g.s.decisions, player, option, g.s.round, g.s.phase, e)) from None

    play_game(game, agents, after=after)
    if game.scores() != [game.s.counters[game.prog.score][p] for p in range(players)]:
        raise InvariantError("scores() disagrees with the score counter")
    if hasattr(inv, "check_end"):
        inv.check_end(game)
    return game


def _job(task):
    ruleset, players, seed, agents = task
    from provost.dsl.loader import load_checked

    rs = _job.rs.get(ruleset)
    if rs is None:
        rs = _job.rs[ruleset] = load_checked(ruleset)
    t = time.perf_counter()
    try:
        g = play_checked(rs, players, seed, agents)
        return {"players": players, "seed": seed, "agents": agents, "ok": True, "scores": g.scores(),
                "decisions": g.s.decisions, "rounds": g.s.round, "time": time.perf_counter() - t}
    except Exception as e:  # noqa: BLE001 - every failure is a finding to report
        return {"players": players, "seed": seed, "agents": agents, "ok": False,
                "error": "%s: %s" % (type(e).__name__, e), "trace": traceback.format_exc(limit=6),
                "time": time.perf_counter() - t}


_job.rs = {}


def tasks(ruleset: str, player_counts, seeds: int, first_seed: int = 0, greedy: bool = True):
    for p in player_counts:
        for seed in range(first_seed, first_seed + seeds):
            yield ruleset, p, seed, ["random"] * p
            if greedy:
                seat = seed % p
                yield ruleset, p, seed, ["greedy" if i == seat else "random" for i in range(p)]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m provost.tools.dev.soak", description=__doc__.split("\n\n")[0])
    ap.add_argument("--ruleset", default="caylus")
    ap.add_argument("--players", type=int, nargs="*", default=[3, 4, 5])
    ap.add_argument("--seeds", type=int, default=200, help="seeds per player count (default 200)")
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--no-greedy", action="store_true", help="only all-random games")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="print one JSON summary object")
    args = ap.parse_args(argv)

    work = list(tasks(args.ruleset, args.players, args.seeds, args.first_seed, not args.no_greedy))
    t0 = time.perf_counter()
    if args.jobs > 1:
        import multiprocessing as mp
        with mp.get_context("fork").Pool(args.jobs) as pool:
            results = pool.map(_job, work, chunksize=4)
    else:
        results = []
        tty = sys.stderr.isatty()
        for i, t in enumerate(work, 1):
            results.append(_job(t))
            if tty:
                print("\r%d/%d games" % (i, len(work)), end="", file=sys.stderr, flush=True)
        if tty:
            print(file=sys.stderr)
    wall = time.perf_counter() - t0
    failures = [r for r in results if not r["ok"]]
    summary = {"ruleset": args.ruleset, "games": len(results), "failures": len(failures), "wall_s": round(wall, 1),
               "by_kind": {}}
    for r in results:
        key = "P%d %s" % (r["players"], "greedy" if "greedy" in r["agents"] else "random")
        k = summary["by_kind"].setdefault(key, {"games": 0, "failures": 0, "time_s": 0.0, "decisions": 0})
        k["games"] += 1
        k["failures"] += not r["ok"]
        k["time_s"] += r["time"]
        k["decisions"] += r.get("decisions", 0)
    if args.json:
        summary["failed"] = [{k: r[k] for k in ("players", "seed", "agents", "error")} for r in failures]
        print(json.dumps(summary, indent=1))
    else:
        for key, k in sorted(summary["by_kind"].items()):
            print("%-10s %4d games  %3d failures  %6.3f s/game  %5.0f decisions/game"
                  % (key, k["games"], k["failures"], k["time_s"] / k["games"], k["decisions"] / k["games"]))
        for r in failures[:20]:
            print("FAIL players=%d seed=%d agents=%s: %s" % (r["players"], r["seed"], ",".join(r["agents"]),
                                                             r["error"]))
        if failures:
            print(failures[0]["trace"])
        print("%d games, %d failures, %.1f s wall" % (len(results), len(failures), wall))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
