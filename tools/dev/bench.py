"""Benchmark: random games of a ruleset on one core.

    python -m provost.tools.dev.bench                       # caylus, 200 four-player games
    python -m provost.tools.dev.bench ys --games 100 --players 3 --profile
    python -m provost.tools.dev.bench caylus --json

Reports load (parse + check + compile) time, games/s, decisions/s, decisions
per game, mean rounds, the mean time of ``g.clone()`` and of a
``to_json``/``from_json`` round trip at random decision points, and the size of
``to_json()``.  The agents are the engine-side random policy (uniform over the
legal options with a seeded ``random.Random``), so the figures measure the
engine, not an agent.  ``--profile`` runs the games under cProfile and prints
the top 15 entries by internal time (tottime).  Rates are given per wall-clock
second and per CPU second of this process (the second is steadier on a busy machine).
"""
from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import random
import statistics
import sys
import time


def play_games(rs, games: int, players: int, seed: int, sample_every: int = 25):
    """Play ``games`` random games; returns (stats dict, sampled decision points)."""
    from provost.interpreter.engine import Game

    decisions = rounds = 0
    samples = []
    t0, c0 = time.perf_counter(), time.process_time()
    for i in range(games):
        g = Game.new(rs, players=players, seed=seed + i)
        rng = random.Random(seed + i)
        apply, legal = g.apply, g.legal_options
        while not g.s.finished:
            opts = legal()
            apply(opts[rng.randrange(len(opts))])
            if g.s.decisions % sample_every == 0 and len(samples) < 400:
                samples.append(g.clone())
        decisions += g.s.decisions
        rounds += g.s.round
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    return {"games": games, "players": players, "wall_s": wall, "cpu_s": cpu, "games_per_s": games / wall,
            "decisions_per_s": decisions / wall, "games_per_cpu_s": games / cpu,
            "decisions_per_cpu_s": decisions / cpu, "decisions_per_game": decisions / games,
            "mean_rounds": rounds / games}, samples


def time_clones(samples, repeat: int = 20) -> dict:
    from provost.interpreter.engine import Game

    clone_us, save_us, sizes = [], [], []
    for g in samples:
        t = time.perf_counter()
        for _ in range(repeat):
            g.clone()
        clone_us.append((time.perf_counter() - t) / repeat * 1e6)
        t = time.perf_counter()
        text = g.to_json()
        Game.from_json(text, g.rs)
        save_us.append((time.perf_counter() - t) * 1e6)
        sizes.append(len(text))
    if not samples:
        return {}
    return {"clone_us_mean": statistics.fmean(clone_us), "clone_us_median": statistics.median(clone_us),
            "save_load_us_mean": statistics.fmean(save_us),
            "to_json_bytes_mean": statistics.fmean(sizes), "to_json_bytes_max": max(sizes),
            "samples": len(samples)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m provost.tools.dev.bench", description="Random-game benchmark of a ruleset.")
    ap.add_argument("ruleset", nargs="?", default="caylus")
    ap.add_argument("--variant")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--profile", action="store_true", help="print the top 15 cProfile entries by tottime")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args(argv)

    from provost.dsl.loader import load_checked
    from provost.interpreter.program import program_for

    t = time.perf_counter()
    rs = load_checked(args.ruleset, args.variant)
    load_s = time.perf_counter() - t
    t = time.perf_counter()
    program_for(rs)
    compile_s = time.perf_counter() - t

    # one warm-up game so that caches (compiled lets, imports) are not billed to the first game
    play_games(rs, 1, args.players, args.seed + 10**6)
    prof = cProfile.Profile() if args.profile else None
    if prof:
        prof.enable()
    stats, samples = play_games(rs, args.games, args.players, args.seed)
    if prof:
        prof.disable()
    stats.update(time_clones(samples))
    from provost.interpreter.accelerate import status

    stats.update(ruleset=rs.name, variant=rs.variant, load_s=load_s, compile_s=compile_s,
                 profiled=bool(prof), python=sys.version.split()[0], engine=status())

    if args.json:
        print(json.dumps(stats, indent=1))
    else:
        print("%s%s, %d players, %d random games (seed %d)%s" % (
            rs.name, "/" + rs.variant if rs.variant else "", args.players, args.games, args.seed,
            "  [under cProfile: slower]" if prof else ""))
        print("  load (parse+check)  %8.3f s   compile %.3f s" % (load_s, compile_s))
        print("  engine              %s" % ("compiled (%d modules)" % len(stats["engine"]["compiled"])
                                             if stats["engine"]["compiled"] else "pure Python"))
        print("  games/s             %8.1f   (%.1f per CPU second)" % (stats["games_per_s"], stats["games_per_cpu_s"]))
        print("  decisions/s         %8.0f   (%.0f per CPU second)"
              % (stats["decisions_per_s"], stats["decisions_per_cpu_s"]))
        print("  decisions/game      %8.1f" % stats["decisions_per_game"])
        print("  mean rounds         %8.2f" % stats["mean_rounds"])
        if samples:
            print("  clone               %8.1f us mean (%.1f median, %d decision points)"
                  % (stats["clone_us_mean"], stats["clone_us_median"], stats["samples"]))
            print("  to_json+from_json   %8.1f us mean" % stats["save_load_us_mean"])
            print("  to_json size        %8.0f bytes mean (%d max)"
                  % (stats["to_json_bytes_mean"], stats["to_json_bytes_max"]))
    if prof:
        out = io.StringIO()
        pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(15)
        print(out.getvalue(), file=sys.stderr if args.json else sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
