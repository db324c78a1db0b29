"""How complete the action catalogues are: every legal option at every decision of many games.

    python -m provost.tools.dev.catalogue_soak [--games N] [--greedy K] [RULESET ...]

For every shipped ruleset, variant and player count (or those named), plays N games with a policy
that prefers the options whose kind it has met least (so rare options are reached: a sixth favor
column, a fourth face-down broker in one area) and K with a greedy agent in every seat, and checks
that every legal option of every decision is in the catalogue the adapters use.  Prints each
configuration's decisions and misses, and the missing ids; exits 1 if any is missing.
"""
from __future__ import annotations

import argparse
import random
import sys
from collections import Counter

from provost.adapters.catalogue import catalogue_for
from provost.dsl.loader import shipped_configurations
from provost.interpreter.agents import make_agent
from provost.interpreter.engine import Game
from provost.tools.sim.runner import option_key


def rare_choice(options: list[str], met: Counter, rng: random.Random) -> str:
    least = min(met[option_key(o)] for o in options)
    pick = rng.choice([o for o in options if met[option_key(o)] == least])
    met[option_key(pick)] += 1
    return pick


def soak(rs, players: int, games: int, greedy: int, seed: int) -> tuple[int, set]:
    cat = catalogue_for(rs, players=players)
    decisions, missing = 0, set()
    met: Counter = Counter()
    for k in range(games + greedy):
        g = Game.new(rs, players=players, seed=seed + k)
        rng = random.Random(seed + k)
        agents = [make_agent("greedy", seed + k, s) for s in range(g.s.humans)] if k >= games else None
        while not g.finished:
            options = g.legal_options()
            missing.update(o for o in options if o not in cat)
            decisions += 1
            p = g.current_player()
            g.apply(agents[p].choose(g, p) if agents else rare_choice(options, met, rng))
    return decisions, missing


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m provost.tools.dev.catalogue_soak", description=__doc__.splitlines()[0])
    ap.add_argument("rulesets", nargs="*")
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--greedy", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1000)
    args = ap.parse_args(argv)
    bad = False
    for name, variant, players, rs in shipped_configurations(args.rulesets):
        decisions, missing = soak(rs, players, args.games, args.greedy, args.seed)
        print("%-10s %-22s %dp: %7d decisions, %d ids missing%s" % (
            name, variant or "-", players, decisions, len(missing),
            (": " + ", ".join(sorted(missing)[:8])) if missing else ""))
        bad |= bool(missing)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
