"""Instructions per random game, counted by valgrind: a speed figure that other processes cannot disturb.

    python -m provost.tools.dev.bench_instructions                    # caylus, caylus1303, ys; 10 four-player games each
    python -m provost.tools.dev.bench_instructions ys --games 20 --json
    git worktree add /tmp/before HEAD~5 && python -m provost.tools.dev.bench_instructions --tree /tmp/before   # a past engine
    python -m provost.tools.dev.bench_instructions ys --greedy 12    # the first 12 decisions of a greedy game
    python -m provost.tools.dev.bench_instructions ys --players 2    # the rules for 2 players, as `provost play` picks them
    python -m provost.tools.dev.bench_instructions caylus --variant simplified_favor

Wall-clock and even CPU-time rates move by 10-30% when other processes share the cores (caches,
hyper-threads, frequency); the number of instructions the interpreter executes for the same seeded
games does not.  So an optimisation is measured here, on the same games before and after, and
``provost.tools.dev.bench_sim`` gives the rates a user sees.

Each ruleset is run twice under ``valgrind --tool=callgrind``: once loading the rules (from a cache
filled by a first run outside valgrind, with a fixed hash seed) and creating a game, once doing the
same and then playing ``--games`` random games (seeds 0.., uniform over the
legal options with a seeded ``random.Random``); the difference divided by the games is the figure.  Needs
valgrind on the PATH; about a minute per ruleset.  ``--greedy N`` measures a search instead: the first
N decisions of one game (seed 0) in which every seat is the greedy agent, per decision.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

RULESETS = ("caylus", "caylus1303", "ys")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")
_DECISIONS = re.compile(r"provost-bench decisions: (\d+)")


# The measured work, run inside valgrind from a checkout given as argv[1] (so a past commit's engine can
# be measured with today's tool): load the rules (argv[5] the variant, or ""; the rules for argv[4]
# players, as `provost play` picks them), create a game, then argv[3] random games.
_CHILD = """
import random, sys, types
# The checkout as the provost package without installing it (its folders are provost's subpackages).
sys.path.insert(0, sys.argv[1])
provost = sys.modules["provost"] = types.ModuleType("provost")
provost.__path__ = [sys.argv[1]]
from provost.dsl.loader import load_checked
from provost.interpreter.engine import Game
players = int(sys.argv[4])
rs = load_checked(sys.argv[2], variant=sys.argv[5] or None, players=players)
g = Game.new(rs, players=players, seed=0)
if sys.argv[6:] == ["greedy"]:
    from provost.interpreter.agents import make_agent
    agents = [make_agent("greedy", 0, seat) for seat in range(players)]
    for _ in range(int(sys.argv[3])):
        if g.s.finished:
            break
        seat = g.s.pending["player"]
        g.apply(agents[seat].choose(g, seat))
    # The game may end before N decisions: the figure is per decision played.
    sys.stderr.write("provost-bench decisions: %d\\n" % g.s.decisions)
else:
    for seed in range(int(sys.argv[3])):
        g = Game.new(rs, players=players, seed=seed)
        rng = random.Random(seed)
        while not g.s.finished:
            options = g.legal_options()
            g.apply(options[rng.randrange(len(options))])
"""


def _child(tree: str, ruleset: str, games: int, players: int, cache: str, under_valgrind: bool,
           greedy: bool = False, variant: str | None = None) -> str:
    """Run the measured work (inside valgrind, or not to fill the cache); valgrind's report.
    ``games``: random games, or with ``greedy`` decisions of a greedy game."""
    cmd = [sys.executable, "-c", _CHILD, tree, ruleset, str(games), str(players), variant or ""] \
        + (["greedy"] if greedy else [])
    if under_valgrind:
        cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + os.devnull] + cmd
    # Both measured runs load the rules from the same cache, filled beforehand, so that their
    # difference is the games' alone; a fixed hash seed, since the order of sets changes the
    # work of loading from run to run.
    env = dict(os.environ, PROVOST_CACHE_DIR=cache, PYTHONHASHSEED="0")
    env.pop("PROVOST_NO_CACHE", None)
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=tree, env=env)
    if done.returncode != 0:
        raise RuntimeError("the game run failed for %s: %s" % (ruleset, done.stderr.strip()[-400:]))
    return done.stderr


def _instructions(tree: str, ruleset: str, games: int, players: int, cache: str,
                  greedy: bool = False, variant: str | None = None) -> tuple[int, int | None]:
    """The instructions of one run, and with ``greedy`` the decisions it played."""
    report = _child(tree, ruleset, games, players, cache, under_valgrind=True, greedy=greedy, variant=variant)
    found = _COLLECTED.search(report)
    if found is None:
        raise RuntimeError("valgrind failed for %s: %s" % (ruleset, report.strip()[-400:]))
    if not greedy:
        return int(found.group(1)), None
    played = _DECISIONS.search(report)
    if played is None:
        raise RuntimeError("the greedy game of %s did not say how many decisions it played: %s"
                           % (ruleset, report.strip()[-400:]))
    return int(found.group(1)), int(played.group(1))


def _counts(tree: str, ruleset: str, n: int, players: int, greedy: bool,
            variant: str | None = None) -> tuple[int, int, int | None]:
    """Instructions of the run without the measured work and with it (``n`` games or decisions),
    and with ``greedy`` the decisions the measured run played (fewer than ``n`` if the game ended)."""
    with tempfile.TemporaryDirectory(prefix="provost-bench-") as cache:
        os.chmod(cache, 0o700)
        _child(tree, ruleset, 0, players, cache, under_valgrind=False, greedy=greedy, variant=variant)
        base = _instructions(tree, ruleset, 0, players, cache, greedy, variant)[0]
        total, played = _instructions(tree, ruleset, n, players, cache, greedy, variant)
        return base, total, played


def measure(tree: str, ruleset: str, games: int, players: int, variant: str | None = None) -> dict:
    base, total, _ = _counts(tree, ruleset, games, players, False, variant)
    return {"games": games, "players": players, "variant": variant, "load_minstr": round(base / 1e6),
            "minstr_per_game": round((total - base) / games / 1e6, 1)}


def measure_greedy(tree: str, ruleset: str, decisions: int, players: int, variant: str | None = None) -> dict:
    """Instructions a decision over the first ``decisions`` of a game of greedy agents (all of
    them when the game ends before; ``greedy_decisions`` says how many were played)."""
    base, total, played = _counts(tree, ruleset, decisions, players, True, variant)
    return {"greedy_decisions": played, "players": players, "variant": variant, "load_minstr": round(base / 1e6),
            "minstr_per_decision": round((total - base) / played / 1e6, 1)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m provost.tools.dev.bench_instructions", description=__doc__.split("\n")[0])
    ap.add_argument("rulesets", nargs="*", default=list(RULESETS), metavar="RULESET")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--players", type=int, default=4, help="the player count, and the rules for it (default 4)")
    ap.add_argument("--variant", metavar="NAME", help="a variant of each ruleset (A+B for several)")
    ap.add_argument("--greedy", type=int, metavar="N",
                    help="measure the first N decisions of a game of greedy agents instead of random games")
    ap.add_argument("--tree", default=ROOT, help="the checkout whose engine is measured (default: this one)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args(argv)
    if args.games < 1:
        ap.error("--games must be at least 1")
    if args.greedy is not None and args.greedy < 1:
        ap.error("--greedy must be at least 1")
    if shutil.which("valgrind") is None:
        print("bench_instructions: valgrind is not installed (apt-get install valgrind)", file=sys.stderr)
        return 2
    out = {}
    for name in args.rulesets:
        label = "%s --variant %s" % (name, args.variant) if args.variant else name
        if args.greedy is not None:
            out[name] = r = measure_greedy(os.path.abspath(args.tree), name, args.greedy, args.players, args.variant)
            if not args.json:
                which = ("first %d" % args.greedy if r["greedy_decisions"] == args.greedy
                         else "all %d of the game" % r["greedy_decisions"])
                print("%-10s %2d players  %7.1f M instructions a greedy decision (%s; load %d M)"
                      % (label, args.players, r["minstr_per_decision"], which, r["load_minstr"]), flush=True)
            continue
        out[name] = r = measure(os.path.abspath(args.tree), name, args.games, args.players, args.variant)
        if not args.json:
            print("%-10s %2d players  %7.1f M instructions a random game  (load %d M)"
                  % (label, args.players, r["minstr_per_game"], r["load_minstr"]), flush=True)
    if args.json:
        print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
