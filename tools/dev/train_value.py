"""Train the learned value (``interpreter/agents/value_model.py``) from seeded bot games.

    python -m provost.tools.dev.train_value --ruleset caylus --players 4 --games 150 --first-seed 10000

Plays ``--games`` games with ``--agents`` in every seat (greedy by default),
records every player's features at the start of every round and fits, per round,
their final score on them (relative to the others', ``--target``).  Writes ``interpreter/agents/values/<ruleset>-<digest>-<n>p.json``
(``--out`` elsewhere).  The same arguments give the same file, bit for bit.
``--samples F.jsonl`` keeps the recorded samples (and reuses them when the
file exists and was recorded for the same games), so another penalty or window
is refitted without replaying.
"""
from __future__ import annotations

import argparse
import json
import os
import sys


def seating(agents: list[str], players: int, seed: int, rotate: bool) -> list[str]:
    """The agent in each seat: ``agents`` in turn, or with ``rotate`` turned round the table
    by the seed (so one ``mcts`` among greedy agents plays every seat in turn)."""
    names = [agents[i % len(agents)] for i in range(players)]
    if rotate:
        shift = seed % players
        names = names[-shift:] + names[:-shift] if shift else names
    return names


def record(ruleset, players, seed, agents, variant=None, rotate=False):
    """[(round, every player's features, every player's final score)] at the start of every round of one game."""
    from provost.interpreter.agents import make_agent
    from provost.interpreter.agents.value_model import features_for
    from provost.interpreter.engine import Game

    g = Game.new(ruleset, players=players, seed=seed, variant=variant)
    seats = [make_agent(name, seed, i) for i, name in enumerate(seating(agents, players, seed, rotate))]
    feats = features_for(g.prog)
    states = []
    last = None
    while not g.finished:
        if g.s.round != last:
            last = g.s.round
            states.append((last, feats.every(g)[:players]))
        p = g.current_player()
        g.apply(seats[p].choose(g, p))
    final = g.scores()
    return [(r, f, final) for r, f in states]


def _read_samples(path: str) -> tuple[dict, list]:
    """(header, samples) of a file written by ``--samples``."""
    with open(path) as f:
        header = json.loads(f.readline())
        return header, [tuple(json.loads(line)) for line in f if line.strip()]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--ruleset", default="caylus")
    ap.add_argument("--variant")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=150)
    ap.add_argument("--first-seed", type=int, default=10000)
    ap.add_argument("--agents", default="greedy", help="comma-separated agents, one per seat in turn")
    ap.add_argument("--penalty", type=float, default=0.01, help="ridge penalty on standardized features")
    ap.add_argument("--window", type=int, default=1, help="rounds on each side pooled into a round's fit")
    ap.add_argument("--target", choices=["relative", "absolute"], default="relative",
                    help="fit the final score minus the others' mean (relative) or the final score")
    ap.add_argument("--rotate", action="store_true",
                    help="turn the agents round the table with the seed (agent k in seat (k + seed) mod players)")
    ap.add_argument("--samples", help="a JSONL file of recorded samples (written, or reused when it matches)")
    ap.add_argument("--also", nargs="+", default=[], metavar="JSONL",
                    help="more sample files (from --samples runs of the same rules and player count) added to the fit")
    ap.add_argument("--out", help="the model file (default: the agents' values directory)")
    a = ap.parse_args(argv)

    from provost.interpreter.agents.value_model import features_for, fit, model_path
    from provost.interpreter.engine import Game

    g = Game.new(a.ruleset, players=a.players, seed=a.first_seed, variant=a.variant)
    names = features_for(g.prog).names
    agents = a.agents.split(",")
    seeds = range(a.first_seed, a.first_seed + a.games)
    header = {"ruleset": a.ruleset, "variant": a.variant, "digest": g.rs.digest, "players": a.players,
              "agents": agents, "first_seed": a.first_seed, "games": a.games, "features": names}
    if a.rotate:
        header["rotate"] = True
    samples = None
    if a.samples and os.path.exists(a.samples):
        recorded, kept = _read_samples(a.samples)
        if recorded == header:
            samples = kept
    if samples is None:
        samples = []
        for seed in seeds:
            samples.extend(record(a.ruleset, a.players, seed, agents, a.variant, a.rotate))
            print("game %d: %d states" % (seed, len(samples)), file=sys.stderr)
        if a.samples:
            with open(a.samples, "w") as f:
                f.write(json.dumps(header) + "\n")
                for s in samples:
                    f.write(json.dumps(s) + "\n")
    also = []
    for path in a.also:
        more_header, more = _read_samples(path)
        same = {k: header[k] for k in ("ruleset", "variant", "digest", "players", "features")}
        if {k: more_header.get(k) for k in same} != same:
            raise SystemExit("%s: samples of other rules, players or features" % path)
        also.append({k: more_header[k] for k in ("agents", "first_seed", "games", "rotate") if k in more_header})
        samples = samples + more
    model = dict(header, penalty=a.penalty, window=a.window, target=a.target,
                 rounds=fit(samples, names, penalty=a.penalty, window=a.window, target=a.target))
    if also:
        model["also"] = also
    out = a.out or str(model_path(g.rs, a.players))
    os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
    with open(out, "w") as f:
        json.dump(model, f, indent=1)
        f.write("\n")
    print(out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
