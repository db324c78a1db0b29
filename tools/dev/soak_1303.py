"""Soak test for Caylus 1303: many complete games by bots, invariants checked after every decision.

    python -m provost.tools.dev.soak_1303                       # 2..5 players x 200 seeds, random agents
    python -m provost.tools.dev.soak_1303 --greedy --seeds 20   # plus a greedy agent in one seat
    python -m provost.tools.dev.soak_1303 --players 4 --seeds 50 --jobs 4 --json

After every decision (``Invariants1303.check``):

- workers: in hand + on the board (spaces and tiles) + in the camp == 15 for every player, and
  none of the three is negative (a worker taken beyond the 15th is lost, never counted);
- houses: left in stock + on buildings (owned tiles) + the one under the Guilds Bridge == 10,
  stock never negative;
- no negative resource, PP never below 0;
- capacity: a tile holds one worker, or two of different players when the second is the
  Journeyman's; a space no more than its slots and one worker per player where it says so;
- the road and the tile table agree; wood and stone buildings are conserved (supply + road);
  the road only gains tiles; the provost stays within 0..26;
- characters: the held ones, the board's and the draft's are players + 3 distinct tiles.

At the end: 9 rounds played, the score list agrees with the PP counters and the winners are the
players with the best score (a shared victory when tied).  Throughput is reported per kind of game.
Exit code 0 when every game passed, 1 otherwise.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
import traceback

WORKERS = 15
HOUSES = 10
PROVOST_MAX = 26


from provost.tools.dev.soak import InvariantError  # noqa: E402 - one error type for every soak


class Invariants1303:
    def __init__(self, game):
        self.prog = game.prog
        cats = {k: b["category"] for k, b in self.prog.buildings.items()}
        self.conserved = {k for k, c in cats.items() if c in ("wood", "stone")}
        self.base = self.tile_counts(game)
        self.road_size = sum(1 for t in game.s.road if t is not None)

    def tile_counts(self, game) -> dict:
        s = game.s
        counts = {k: max(0, s.supply.get(k, 0)) for k in self.conserved}
        for inst in s.road:
            if inst is not None and s.tiles[inst][0] in self.conserved:
                counts[s.tiles[inst][0]] += 1
        return counts

    def check(self, game) -> None:
        s, prog = game.s, self.prog
        n = s.players
        c = s.counters
        fail = []
        for r in prog.resources:
            for p in range(n):
                if c[r][p] < 0:
                    fail.append("player %d has %d %s" % (p, c[r][p], r))
        placed = [0] * n
        for where, seats in s.occ.items():
            for p in seats:
                placed[p] += 1
            d = prog.spaces.get(where)
            if d is not None:
                if len(seats) > d["slots"] + (1 if d["slots"] == 1 else 0):
                    fail.append("%s holds %d workers" % (where, len(seats)))
                if d["per_player"] is not None and any(seats.count(p) > d["per_player"] for p in seats):
                    fail.append("%s holds two workers of one player: %s" % (where, seats))
            elif seats:
                if where not in s.tiles:
                    fail.append("workers on %s, which is neither a space nor a tile" % where)
                if len(seats) > 2 or len(set(seats)) != len(seats):
                    fail.append("%s holds workers %s" % (where, seats))
        owned = [0] * n
        for kind, owner in s.tiles.values():
            if owner >= 0:
                owned[owner] += 1
        for p in range(n):
            hand, camp = c["workers"][p], c["camp"][p]
            if hand < 0 or camp < 0:
                fail.append("player %d: %d workers in hand, %d in the camp" % (p, hand, camp))
            if hand + placed[p] + camp != WORKERS:
                fail.append("player %d: %d in hand + %d placed + %d in the camp != %d"
                            % (p, hand, placed[p], camp, WORKERS))
            if c["houses"][p] < 0 or c["houses"][p] + owned[p] + 1 != HOUSES:
                fail.append("player %d: %d houses left + %d on buildings + 1 on the bridge != %d"
                            % (p, c["houses"][p], owned[p], HOUSES))
        on_road = [t for t in s.road if t is not None]
        if len(on_road) != len(set(on_road)) or set(on_road) != set(s.tiles):
            fail.append("road and tiles disagree: %s" % sorted(set(on_road) ^ set(s.tiles)))
        elif len(on_road) < self.road_size:
            fail.append("the road lost a tile: %d, was %d" % (len(on_road), self.road_size))
        else:
            self.road_size = len(on_road)
            now = self.tile_counts(game)
            for kind, was in self.base.items():
                if now.get(kind, 0) != was:
                    fail.append("%s: supply + road = %d, was %d" % (kind, now.get(kind, 0), was))
        if not 0 <= c["provost"] <= PROVOST_MAX:
            fail.append("the provost is at %d, off 0..%d" % (c["provost"], PROVOST_MAX))
        if s.round >= 1:
            held = [x for hand in s.zones["characters"] for x in hand]
            all_chars = held + s.zones["character_board"] + s.zones["offer"]
            if len(all_chars) != n + 3 or len(set(all_chars)) != n + 3:
                fail.append("characters: %s" % all_chars)
        if fail:
            raise InvariantError("; ".join(fail))

    def check_end(self, game) -> None:
        s = game.s
        if s.round != 9:
            raise InvariantError("the game ended after round %d" % s.round)
        sc = game.scores()
        if sc != s.counters["pp"]:
            raise InvariantError("scores() disagrees with the PP counters")
        best = max(sc)
        if game.winners() != [p for p, v in enumerate(sc) if v == best]:
            raise InvariantError("winners %s for scores %s" % (game.winners(), sc))


def play_checked(rs, players: int, seed: int, agent_names: list[str]):
    """One game with the 1303 invariants after every decision (the runner is provost.tools.dev.soak's)."""
    from provost.tools.dev.soak import play_checked as run
    return run(rs, players, seed, agent_names, invariants=Invariants1303)


def _job(task):
    players, seed, agents = task
    if _job.rs is None:
        from provost.dsl.loader import load_checked
        _job.rs = load_checked("caylus1303", _job.variant)
    t = time.perf_counter()
    try:
        g = play_checked(_job.rs, players, seed, agents)
        return {"players": players, "seed": seed, "agents": agents, "ok": True, "scores": g.scores(),
                "decisions": g.s.decisions, "time": time.perf_counter() - t}
    except Exception as e:  # noqa: BLE001 - every failure is a finding to report
        return {"players": players, "seed": seed, "agents": agents, "ok": False,
                "error": "%s: %s" % (type(e).__name__, e), "trace": traceback.format_exc(limit=8),
                "time": time.perf_counter() - t}


_job.rs = None
_job.variant = None  # set by main before any game (forked workers inherit it)


def tasks(player_counts, seeds: int, first_seed: int = 0, greedy: bool = False):
    for p in player_counts:
        for seed in range(first_seed, first_seed + seeds):
            yield p, seed, ["random"] * p
            if greedy:
                yield p, seed, ["greedy" if i == seed % p else "random" for i in range(p)]


def run(player_counts, seeds, first_seed=0, greedy=False, jobs=1, progress=False) -> dict:
    work = list(tasks(player_counts, seeds, first_seed, greedy))
    t0 = time.perf_counter()
    if jobs > 1:
        import multiprocessing as mp
        with mp.get_context("fork").Pool(jobs) as pool:
            results = pool.map(_job, work, chunksize=4)
    else:
        results = []
        for i, t in enumerate(work, 1):
            results.append(_job(t))
            if progress:
                print("\r%d/%d games" % (i, len(work)), end="", file=sys.stderr, flush=True)
        if progress:
            print(file=sys.stderr)
    wall = time.perf_counter() - t0
    failures = [r for r in results if not r["ok"]]
    summary = {"ruleset": "caylus1303", "variant": _job.variant, "games": len(results), "failures": len(failures),
               "wall_s": round(wall, 1), "by_kind": {}, "failed": failures}
    for r in results:
        key = "P%d %s" % (r["players"], "greedy" if "greedy" in r["agents"] else "random")
        k = summary["by_kind"].setdefault(key, {"games": 0, "failures": 0, "time_s": 0.0, "decisions": 0})
        k["games"] += 1
        k["failures"] += not r["ok"]
        k["time_s"] += r["time"]
        k["decisions"] += r.get("decisions", 0)
    for k in summary["by_kind"].values():
        k["games_per_s"] = round(k["games"] / k["time_s"], 2) if k["time_s"] else None
        k["decisions_per_s"] = round(k["decisions"] / k["time_s"]) if k["time_s"] else None
        k["time_s"] = round(k["time_s"], 2)
    return summary


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m provost.tools.dev.soak_1303", description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", help="a shipped variant of caylus1303, e.g. first_game")
    ap.add_argument("--players", type=int, nargs="*", default=[2, 3, 4, 5])
    ap.add_argument("--seeds", type=int, default=200, help="seeds per player count (default 200)")
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--greedy", action="store_true", help="also a game with a greedy agent in one seat per seed")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="print one JSON summary object")
    args = ap.parse_args(argv)
    _job.variant = args.variant
    summary = run(args.players, args.seeds, args.first_seed, args.greedy, args.jobs,
                  progress=sys.stderr.isatty() and not args.json)
    failures = summary["failed"]
    if args.json:
        summary["failed"] = [{k: r[k] for k in ("players", "seed", "agents", "error")} for r in failures]
        print(json.dumps(summary, indent=1))
    else:
        for key, k in sorted(summary["by_kind"].items()):
            print("%-10s %4d games  %3d failures  %6.1f games/s  %6.0f decisions/s  %4.0f decisions/game"
                  % (key, k["games"], k["failures"], k["games_per_s"] or 0, k["decisions_per_s"] or 0,
                     k["decisions"] / k["games"]))
        for r in failures[:20]:
            print("FAIL players=%d seed=%d agents=%s: %s" % (r["players"], r["seed"], ",".join(r["agents"]),
                                                             r["error"]))
        if failures:
            print(failures[0]["trace"])
        print("%d games, %d failures, %.1f s wall" % (summary["games"], len(failures), summary["wall_s"]))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
