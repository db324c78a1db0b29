"""How close the policy agent plays to greedy, and at what cost.

    python -m provost.tools.dev.bench_policy [RULESET] [--games 40] [--players 4] [--first-seed 50000]

Each game seats the agent under test in one seat (rotating over the seats) and greedy in every
other; the same seeds are played with ``policy`` and with ``greedy`` in the tested seat, so
the two rows differ only by that agent.  Reported per agent: the tested seat's mean score and
win rate (Wilson 95% interval) and the CPU time the tested agent spent choosing, per game.
Seeds default far from those ``provost train`` fits on, so the games are fresh.
"""
from __future__ import annotations

import argparse
import json
import time

from provost.dsl.loader import load_checked
from provost.interpreter.agents import make_agent, play_game
from provost.interpreter.engine import Game
from provost.tools.sim.stats import wilson


class _Timed:
    """An agent whose choosing time is added up."""

    def __init__(self, agent):
        self.agent, self.name, self.seconds = agent, agent.name, 0.0

    def choose(self, game, player):
        t = time.process_time()
        try:
            return self.agent.choose(game, player)
        finally:
            self.seconds += time.process_time() - t


def measure(ruleset: str, tested: str, games: int, players: int, first_seed: int) -> dict:
    rs = load_checked(ruleset)
    scores, wins, seconds = [], 0, 0.0
    for i in range(games):
        seed, seat = first_seed + i, i % players
        game = Game.new(rs, players=players, seed=seed)
        timed = _Timed(make_agent(tested, seed, seat))
        agents = [timed if s == seat else make_agent("greedy", seed, s) for s in range(game.s.humans)]
        play_game(game, agents)
        scores.append(game.scores()[seat])
        wins += seat in game.winners()
        seconds += timed.seconds
    low, high = wilson(wins, games)
    return {"agent": tested, "games": games, "mean_score": sum(scores) / games, "win_rate": wins / games,
            "win_rate_95": [low, high], "cpu_s_per_game": seconds / games}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m provost.tools.dev.bench_policy", description=__doc__.split("\n")[0])
    ap.add_argument("ruleset", nargs="?", default="caylus")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--first-seed", type=int, default=50_000)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    rows = [measure(a.ruleset, agent, a.games, a.players, a.first_seed) for agent in ("policy", "greedy")]
    if a.json:
        print(json.dumps(rows))
        return 0
    for r in rows:
        print("%-7s %3d games: score %6.2f, win rate %5.1f%% [%.1f, %.1f], %.3f CPU s a game choosing"
              % (r["agent"], r["games"], r["mean_score"], 100 * r["win_rate"], 100 * r["win_rate_95"][0],
                 100 * r["win_rate_95"][1], r["cpu_s_per_game"]))
    p, g = rows
    print("policy / greedy: score %.3f, speed %.1fx" % (p["mean_score"] / g["mean_score"] if g["mean_score"] else 0,
                                                       g["cpu_s_per_game"] / p["cpu_s_per_game"] if p["cpu_s_per_game"] else 0))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
