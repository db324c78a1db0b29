"""Benchmark of `provost sim`: random games per second on one core, clone time, and --jobs scaling.

    python -m provost.tools.dev.bench_sim                         # caylus, caylus1303, ys; 4 players; 200 games
    python -m provost.tools.dev.bench_sim --games 100 --jobs 1,2 --json
    python -m provost.tools.dev.bench_sim ys --games 400
    python -m provost.tools.dev.bench_sim ys --players 2 --games 400   # the rules for 2, as `provost play` picks them

For each ruleset, 4-player games by ``random`` agents (the same code path as ``provost sim``:
``provost.tools.sim.runner.play_one``, i.e. ``play_game`` with seeded agents and the option counting
of the report):

- **one core**: games played in this process; games/s and decisions/s by wall clock and by
  CPU time of this process (the CPU figure is what the engine costs when other processes
  compete for the cores; the wall figure is what a user waits for);
- **clone**: the mean and median time of ``Game.clone()`` at decision points of those games
  (``provost.tools.dev.bench.time_clones``);
- **scaling**: the same games through the local backend with ``--jobs 1`` and ``--jobs 2``
  (worker start-up included, as a user sees it), and the speed-up; the start-up of a pool
  (J workers playing one game each) is measured apart, and the speed-up without it is given
  too (the figure that matters for long sims).  The CPU time per game, in this process or summed
  over the workers, gives the speed-up J workers would reach on idle cores
  (J x CPU per game with 1 job / CPU per game with J jobs): on a busy machine it is the only
  figure that means anything.

The machine's load average is printed before and after: on a shared machine, other processes
take cores and the scaling figures mean little unless the load is below the core count.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

RULESETS = ("caylus", "caylus1303", "ys")


def _load() -> list[float] | None:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except (AttributeError, OSError):
        return None


def one_core(spec, games: int) -> dict:
    from provost.tools.sim.runner import play_one

    play_one(spec, 10**6)  # warm-up: compiled lets and imports are not billed to the first game
    decisions = 0
    w, c = time.perf_counter(), time.process_time()
    for i in range(games):
        r = play_one(spec, i)
        if "error" in r:
            raise RuntimeError("game %d failed: %s" % (i, r["error"]))
        decisions += r["decisions"]
    wall, cpu = time.perf_counter() - w, time.process_time() - c
    return {"games": games, "wall_s": round(wall, 3), "cpu_s": round(cpu, 3),
            "games_per_s": round(games / wall, 1), "decisions_per_s": round(decisions / wall),
            "games_per_cpu_s": round(games / cpu, 1), "decisions_per_cpu_s": round(decisions / cpu),
            "decisions_per_game": round(decisions / games, 1)}


def clone_time(rs, players: int, seed: int) -> dict:
    from provost.tools.dev.bench import play_games, time_clones

    _, samples = play_games(rs, 20, players, seed)
    t = time_clones(samples)
    return {"clone_us_mean": round(t["clone_us_mean"], 1), "clone_us_median": round(t["clone_us_median"], 1),
            "samples": t["samples"]}


def scaling(spec, games: int, jobs_list: list[int]) -> dict:
    from provost.tools.sim.runner import LocalBackend, make_tasks

    out = {}
    for jobs in jobs_list:
        n = [0]

        def on_result(k, records):
            n[0] += len(records)

        startup = 0.0
        if jobs > 1:  # a pool of `jobs` workers playing one game each: start-up and first game
            t = time.perf_counter()
            LocalBackend(jobs).run([spec], [(0, 10**6 + j, 1) for j in range(jobs)], on_result)
            startup = time.perf_counter() - t
            n[0] = 0
        backend = LocalBackend(jobs)
        t = time.perf_counter()
        backend.run([spec], make_tasks([spec], games, jobs), on_result)
        wall = time.perf_counter() - t
        assert n[0] == games
        out[str(jobs)] = {"wall_s": round(wall, 3), "games_per_s": round(games / wall, 1),
                          "startup_s": round(startup, 3), "cpu_ms_per_game": round(1000 * backend.cpu_s / games, 2)}
    first = out[str(jobs_list[0])]
    for jobs in jobs_list:
        e = out[str(jobs)]
        e["speedup"] = round(first["wall_s"] / e["wall_s"], 2)
        e["speedup_without_startup"] = round(first["wall_s"] / max(e["wall_s"] - e["startup_s"], 1e-9), 2)
        # On idle cores, J workers each paying cpu_ms_per_game would run this much faster than the
        # first job count: the figure that does not depend on what else the machine is doing.
        e["speedup_on_idle_cores"] = round(jobs / jobs_list[0] * first["cpu_ms_per_game"] / e["cpu_ms_per_game"], 2)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m provost.tools.dev.bench_sim", description=__doc__.split("\n")[0])
    ap.add_argument("rulesets", nargs="*", default=list(RULESETS), metavar="RULESET")
    ap.add_argument("--players", type=int, default=4, help="the player count, and the rules for it (default 4)")
    ap.add_argument("--variant", metavar="NAME", help="a variant of each ruleset (A+B for several)")
    ap.add_argument("--games", type=int, default=200, help="games per measurement (default 200)")
    ap.add_argument("--jobs", default="1,2", help="job counts for the scaling run (default 1,2)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args(argv)
    jobs_list = [int(j) for j in args.jobs.split(",") if j.strip()]

    from provost.interpreter.engine import Game
    from provost.interpreter.gamelog import load_rules
    from provost.tools.sim.runner import SimSpec

    from provost.interpreter.accelerate import status

    result = {"python": sys.version.split()[0], "cpus": os.cpu_count(), "load_before": _load(),
              "engine": status(), "players": args.players, "variant": args.variant, "games": args.games,
              "rulesets": {}}
    for name in args.rulesets:
        rs = load_rules(name, args.variant, args.players)
        seats = Game.new(rs, players=args.players, seed=0).s.players  # neutral seats included
        spec = SimSpec(rs, args.players, ("random",) * seats, args.seed)
        entry = {"one_core": one_core(spec, args.games), "clone": clone_time(rs, args.players, args.seed),
                 "jobs": scaling(spec, args.games, jobs_list)}
        result["rulesets"][name] = entry
        if not args.json:
            o, c = entry["one_core"], entry["clone"]
            label = "%s --variant %s" % (name, args.variant) if args.variant else name
            print("%s, %d players, %d random games, seeds %d..%d" % (label, args.players, args.games, args.seed,
                                                                   args.seed + args.games - 1))
            print("  one core    %7.1f games/s  %7d decisions/s (wall);  %7.1f games/s  %7d decisions/s (CPU)"
                  % (o["games_per_s"], o["decisions_per_s"], o["games_per_cpu_s"], o["decisions_per_cpu_s"]))
            print("  decisions/game %.1f;  clone %.1f us mean, %.1f us median (%d points)"
                  % (o["decisions_per_game"], c["clone_us_mean"], c["clone_us_median"], c["samples"]))
            for j, v in entry["jobs"].items():
                print("  --jobs %s    %.2f s, %.1f games/s, x%.2f (x%.2f without %.2f s start-up); %.2f CPU ms/game"
                      " -> x%.2f on idle cores" % (j, v["wall_s"], v["games_per_s"], v["speedup"],
                                                   v["speedup_without_startup"], v["startup_s"], v["cpu_ms_per_game"],
                                                   v["speedup_on_idle_cores"]))
            sys.stdout.flush()
    result["load_after"] = _load()
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        compiled = result["engine"]["compiled"]
        print("engine: %s" % ("compiled modules %s" % ", ".join(compiled) if compiled else "pure Python"))
        print("cpus %s; load average (1, 5, 15 min) before %s, after %s%s" % (
            result["cpus"], result["load_before"], result["load_after"],
            "  -- other processes were competing for the cores: wall and scaling figures are pessimistic"
            if (result["load_before"] or [0])[0] > 1 or (result["load_after"] or [0])[0] > 1.5 else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
