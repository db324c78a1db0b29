"""Soak test for Ys and its variants: many seeded games by bots, invariants after every decision.

    python -m provost.tools.dev.soak_ys                          # 4 players, 200 seeds, random and greedy-in-a-seat
    python -m provost.tools.dev.soak_ys --variant kings_favor --seeds 50 --agents random
    python -m provost.tools.dev.soak_ys --variant two_players --players 2

Invariants: every gem is in the bank or with a player (the bank's 30/30/30/30/20
never change in total); no negative count; victory points never go down; every
seat keeps its brokers (11, or the variant's count); an observation never shows
another seat's face-down broker unless the Spy showed it.
"""
from __future__ import annotations

import argparse
import random
import sys
import time

from provost.dsl.loader import load_checked
from provost.interpreter.agents import make_agent
from provost.interpreter.engine import Game

TOTALS = {"blue": 30, "green": 30, "yellow": 30, "red": 30, "black": 20}


def check(g, brokers, last_vp):
    s = g.s
    kinds = g.prog.enums["gem_kinds"]
    for i, k in enumerate(kinds):
        if k in TOTALS:
            held = sum(s.counters[k])
            assert held + s.counters["bank"][i] == TOTALS[k], "gems of %s not conserved" % k
            assert min(s.counters[k]) >= 0 and s.counters["bank"][i] >= 0
    assert all(v >= w for v, w in zip(s.counters["vp"], last_vp)), "victory points went down"
    for seat, n in brokers.items():
        assert sum(1 for pc in s.pieces if pc[1] == seat) == n, "brokers of seat %d not conserved" % seat
    viewer = s.pending["player"] if s.pending else 0
    obs = g.observation(viewer)
    seen = {(pc[1], pc[3], pc[2]) for pc in s.pieces if (pc[5] >> viewer) & 1}
    for _, owner, value, where, up in obs["pieces"]:
        if owner != viewer and not up and value is not None:
            assert (owner, where, value) in seen, "observation of %d leaks a broker of %d" % (viewer, owner)
    return list(s.counters["vp"])


def play(rs, players, seed, agents):
    g = Game.new(rs, players=players, seed=seed)
    bots = [make_agent(a, seed, seat) for seat, a in enumerate(agents)]
    brokers = {seat: sum(1 for pc in g.s.pieces if pc[1] == seat) for seat in range(g.s.players)}
    vp = check(g, brokers, [0] * g.s.players)
    while not g.finished:
        p = g.current_player()
        g.apply(bots[p].choose(g, p))
        vp = check(g, brokers, vp)
    return g


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seeds", type=int, default=200)
    ap.add_argument("--agents", choices=("random", "greedy", "both"), default="both")
    args = ap.parse_args(argv)
    rs = load_checked("ys", args.variant, args.players)
    failures, games, decisions, t0 = 0, 0, 0, time.time()
    kinds = ["random", "greedy"] if args.agents == "both" else [args.agents]
    for kind in kinds:
        for seed in range(args.seeds):
            agents = ["random"] * args.players
            if kind == "greedy":
                agents[seed % args.players] = "greedy"
            try:
                g = play(rs, args.players, seed, agents)
                games += 1
                decisions += g.s.decisions
            except Exception as e:  # report every failure with what reproduces it
                failures += 1
                print("FAIL ys/%s P=%d seed=%d agents=%s: %s: %s" % (args.variant, args.players, seed,
                                                                     ",".join(agents), type(e).__name__, e))
    dt = time.time() - t0
    print("ys/%s %d players: %d games, %d decisions, %d failures in %.1f s" % (
        args.variant or "base", args.players, games, decisions, failures, dt))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
