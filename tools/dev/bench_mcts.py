"""MCTS against greedy: one MCTS seat (rotating) and greedy elsewhere, many seeded games.

    python -m provost.tools.dev.bench_mcts --games 40 --budget 100 --players 4 --out mcts.jsonl
    python -m provost.tools.dev.bench_mcts --summary mcts.jsonl

Each game prints one JSON line: seed, MCTS seat, scores, winners, the MCTS
seat's rank, how many greedy seats it outscored, wall time and the MCTS
agent's decisions, iterations and thinking seconds.  ``--summary`` reports the
win rate (MCTS among the winners; a shared win counts 1/k), the pairwise rate
(greedy opponents outscored, ties half) with Wilson 95% intervals, the mean
rank, the wall and CPU seconds per game (the whole game, all four agents) and
the MCTS decisions per second.  ``--set NAME=VALUE`` overrides an attribute of
the MCTS agent (experiments); ``--summary`` accepts several files.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
import time


def wilson(k: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    c = p + z * z / (2 * n)
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (c - h) / d, (c + h) / d


def _parse_value(text: str):
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return text


def play_one(ruleset, players, seed, seat, spec, policy=None, variant=None, settings=None):
    from provost.interpreter.agents import make_agent, play_game
    from provost.interpreter.engine import Game

    names = ["greedy"] * players
    names[seat] = spec
    agents = [make_agent(n, seed, i) for i, n in enumerate(names)]
    if policy:
        agents[seat].policy = policy
    for key, value in (settings or {}).items():
        if not hasattr(agents[seat], key):
            raise SystemExit("the mcts agent has no setting '%s'" % key)
        setattr(agents[seat], key, value)
    t = time.perf_counter()
    cpu = time.process_time()
    g = Game.new(ruleset, players=players, seed=seed, variant=variant)
    play_game(g, agents)
    wall = time.perf_counter() - t
    cpu = time.process_time() - cpu
    sc = g.scores()
    winners = g.winners()
    m = agents[seat]
    beaten = sum(1.0 if sc[seat] > sc[q] else 0.5 if sc[seat] == sc[q] else 0.0 for q in range(players) if q != seat)
    rank = 1 + sum(1 for q in range(players) if sc[q] > sc[seat])
    return {"seed": seed, "seat": seat, "budget": spec, "policy": policy or m.policy, "scores": sc, "winners": winners,
            "win": (1.0 / len(winners)) if seat in winners else 0.0, "beaten": beaten, "opponents": players - 1,
            "rank": rank, "wall": round(wall, 2), "cpu": round(cpu, 2), "settings": settings or {}, "mcts_decisions": m.stats["decisions"],
            "mcts_iterations": m.stats["iterations"], "mcts_seconds": round(m.stats["seconds"], 2),
            "mcts_cpu_seconds": round(m.stats.get("cpu_seconds", 0.0), 2)}


def summary(paths) -> dict:
    if isinstance(paths, str):
        paths = [paths]
    rows = [json.loads(x) for path in paths for x in open(path) if x.strip()]
    n = len(rows)
    wins = sum(r["win"] for r in rows)
    pairs = sum(r["opponents"] for r in rows)
    beaten = sum(r["beaten"] for r in rows)
    dec = sum(r["mcts_decisions"] for r in rows)
    secs = sum(r["mcts_seconds"] for r in rows)
    its = sum(r["mcts_iterations"] for r in rows)
    cpu = sum(r.get("mcts_cpu_seconds", r["mcts_seconds"]) for r in rows)
    return {"games": n, "win_rate": wins / n if n else 0, "win_ci95": wilson(wins, n),
            "pairwise_rate": beaten / pairs if pairs else 0, "pairwise_ci95": wilson(beaten, pairs),
            "mean_rank": sum(r["rank"] for r in rows) / n if n else 0,
            "seconds_per_game": sum(r["wall"] for r in rows) / n if n else 0,
            "cpu_seconds_per_game": sum(r.get("cpu", r["wall"]) for r in rows) / n if n else 0,
            "cpu_seconds_max": max((r.get("cpu", r["wall"]) for r in rows), default=0),
            "mcts_seconds_per_game": secs / n if n else 0,
            "mcts_decisions_per_second": dec / secs if secs else 0,
            "mcts_cpu_seconds_per_game": cpu / n if n else 0,
            "mcts_decisions_per_cpu_second": dec / cpu if cpu else 0,
            "iterations_per_decision": its / dec if dec else 0}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--ruleset", default="caylus")
    ap.add_argument("--variant")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--budget", default="100", help="mcts budget: iterations (100) or seconds (0.3s)")
    ap.add_argument("--policy", choices=["eager", "myopic"])
    ap.add_argument("--out")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="set an attribute of the mcts agent (an experiment), e.g. --set exploration=0.5")
    ap.add_argument("--summary", metavar="JSONL", nargs="+")
    a = ap.parse_args(argv)
    if a.summary:
        print(json.dumps(summary(a.summary), indent=1))
        return 0
    settings = {}
    for item in a.set:
        key, eq, value = item.partition("=")
        if not eq:
            raise SystemExit("--set takes NAME=VALUE, not '%s'" % item)
        settings[key] = _parse_value(value)
    out = open(a.out, "a") if a.out else sys.stdout
    for seed in range(a.first_seed, a.first_seed + a.games):
        row = play_one(a.ruleset, a.players, seed, seed % a.players, "mcts:" + a.budget, a.policy, a.variant,
                       settings)
        out.write(json.dumps(row) + "\n")
        out.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
