"""Soak runs: many seeded bot games with the rules' invariants checked after every decision.

The invariants are the rule file's own ``invariant`` declarations (a variant inherits its base's),
so every game and every variant is soaked the same way, with nothing game-specific here.  For each
player count P and seed S a soak plays ``random`` in every seat, and with ``greedy`` also a game
with ``greedy`` in seat S mod P.  A failure records what reproduces it:
``provost play RULESET --players P --seed S --agents ... --check-invariants``.
"""
from __future__ import annotations

import multiprocessing
import signal
import time
import traceback


def tasks(player_counts, seeds: int, first_seed: int = 0, greedy: bool = False) -> list[tuple]:
    """``(players, seed, agents)`` for every game of a soak, in a fixed order."""
    out = []
    for p in player_counts:
        for seed in range(first_seed, first_seed + seeds):
            out.append((p, seed, ("random",) * p))
            if greedy:
                out.append((p, seed, tuple("greedy" if i == seed % p else "random" for i in range(p))))
    return out


def play_checked(rs, players: int, seed: int, agents) -> dict:
    """One game with the invariants checked before the first decision and after every one."""
    from provost.interpreter.agents import make_agent, play_game
    from provost.interpreter.engine import Game
    from provost.interpreter.invariants import InvariantChecker, InvariantViolated

    record = {"players": players, "seed": seed, "agents": list(agents), "ok": True}
    t = time.perf_counter()
    game = None
    try:
        game = Game.new(rs, players=players, seed=seed)
        checker = InvariantChecker(game)
        checker.check(game)
        bots = [make_agent(name, seed, seat) for seat, name in enumerate(agents)]
        play_game(game, bots, after=lambda g, player, option: checker.check(g))
        record.update(decisions=game.s.decisions, rounds=game.s.round, scores=game.scores())
    except InvariantViolated as e:
        record.update(ok=False, violation=e.violation.as_dict(), error=str(e), decisions=game.s.decisions)
    except Exception as e:  # noqa: BLE001 - an engine or rules failure is a finding to report
        record.update(ok=False, error="%s: %s" % (type(e).__name__, e), trace=traceback.format_exc(limit=6),
                      decisions=game.s.decisions if game is not None else 0)
    record["time"] = time.perf_counter() - t
    return record


_RULES = None


def _init(rs) -> None:
    """Pool initializer: keep the rules; leave Ctrl-C to the parent (which stops the pool), so that
    no worker prints a traceback of the KeyboardInterrupt it would get too."""
    global _RULES
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _RULES = rs


def _pool_job(task) -> dict:
    return play_checked(_RULES, *task)


def soak(rs, work: list[tuple], jobs: int = 1, progress=None) -> list[dict]:
    """Play every task (see ``tasks``); the records in task order."""
    if jobs > 1 and len(work) > 1:
        # Never more processes than games (a Pool starts all of its processes at once).
        with multiprocessing.get_context().Pool(min(jobs, len(work)), initializer=_init, initargs=(rs,)) as pool:
            return pool.map(_pool_job, work, chunksize=max(1, len(work) // (jobs * 4)))
    out = []
    for i, (players, seed, agents) in enumerate(work, 1):
        out.append(play_checked(rs, players, seed, agents))
        if progress is not None:
            progress(i, len(work))
    return out


def summary(records: list[dict]) -> dict:
    """Games, failures, decisions and time per player count and kind of game."""
    by_kind: dict = {}
    for r in records:
        key = "%d players, %s" % (r["players"], "greedy" if "greedy" in r["agents"] else "random")
        k = by_kind.setdefault(key, {"games": 0, "failures": 0, "decisions": 0, "time_s": 0.0})
        k["games"] += 1
        k["failures"] += not r["ok"]
        k["decisions"] += r.get("decisions", 0)
        k["time_s"] += r["time"]
    for k in by_kind.values():
        k["time_s"] = round(k["time_s"], 2)
    return by_kind
