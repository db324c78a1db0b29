"""Property tests (hypothesis): complete Caylus games by bots keep the game's invariants.

Random seeds, player counts 3..5 and agent line-ups drawn from random/greedy play
complete games; after every decision the invariants declared in rulesets/caylus.rules hold
(provost.interpreter.invariants): no negative deniers, cubes, gold or PP; 6 workers per player
in hand or on the board; no space or building holds more workers than it has room for; tiles
conserved (supply + road, except residences and neutral tiles); the provost and the bailiff on
the road.  Also: every finished game replays exactly from its log, and resuming from a save at a
drawn decision ends in the same state.

The default run keeps to a handful of examples; `provost soak caylus --seeds 200 --greedy`
plays 200 seeds per player count with random agents and with greedy in a seat.
"""
from __future__ import annotations

import functools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from provost.dsl.loader import load_checked
from provost.interpreter.agents import make_agent, play_game
from provost.interpreter.engine import Game
from provost.interpreter.gamelog import GameLogWriter, check_log
from provost.interpreter.invariants import InvariantChecker

SETTINGS = dict(deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


@functools.cache
def caylus():
    return load_checked("caylus")


def play_checked(rs, players, seed, names):
    """A complete game with the rules' invariants checked before and after every decision."""
    g = Game.new(rs, players=players, seed=seed)
    checker = InvariantChecker(g)
    checker.check(g)
    play_game(g, [make_agent(a, seed, i) for i, a in enumerate(names)], after=lambda g, p, o: checker.check(g))
    return g


@settings(max_examples=25, **SETTINGS)
@given(players=st.integers(3, 5), seed=st.integers(0, 2**32 - 1))
def test_random_games_keep_the_invariants(players, seed):
    g = play_checked(caylus(), players, seed, ["random"] * players)
    assert g.finished and all(v >= 0 for v in g.scores())
    assert g.winners() and all(g.scores()[w] == max(g.scores()) for w in g.winners())


@settings(max_examples=3, **SETTINGS)
@given(players=st.integers(3, 5), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_games_with_greedy_keep_the_invariants(players, seed, data):
    seat = data.draw(st.integers(0, players - 1), label="greedy seat")
    names = ["greedy" if i == seat else "random" for i in range(players)]
    g = play_checked(caylus(), players, seed, names)
    assert g.finished


@settings(max_examples=8, **SETTINGS)
@given(players=st.integers(3, 5), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_logs_replay_and_saves_resume_exactly(tmp_path_factory, players, seed, data):
    rs = caylus()
    path = tmp_path_factory.mktemp("prop") / "g.jsonl"
    g = Game.new(rs, players=players, seed=seed)
    agents = [make_agent("random", seed, i) for i in range(players)]
    with GameLogWriter(str(path), g, ["random"] * players) as log:
        play_game(g, agents, log=log)
    r = check_log(str(path), rs)
    assert r.ok, r.message
    assert r.game.to_json() == g.to_json()
    # save at a drawn decision, resume from JSON, continue with the same agent seeds
    k = data.draw(st.integers(0, g.s.decisions - 1), label="save at decision")
    a = Game.new(rs, players=players, seed=seed)
    play_game(a, [make_agent("random", seed, i) for i in range(players)], max_decisions=k)
    b = Game.from_json(a.to_json(), rs)
    play_game(a, [make_agent("random", seed + 1, i) for i in range(players)])
    play_game(b, [make_agent("random", seed + 1, i) for i in range(players)])
    assert a.to_json() == b.to_json()


def test_invariant_checker_catches_violations():
    """The declared invariants are not vacuous: breaking the state by hand is reported, by name."""
    rs = caylus()
    g = Game.new(rs, players=4, seed=1)
    assert InvariantChecker(g).first_violation(g) is None
    for breakage, name in [
        (lambda s: s.counters["denier"].__setitem__(0, -1), "no_debt"),
        (lambda s: s.counters["workers"].__setitem__(1, 5), "six_workers"),
        (lambda s: s.supply.__setitem__("wood_sawmill", s.supply["wood_sawmill"] + 1), "tiles_kept"),
        (lambda s: s.occ.__setitem__("trading_post", [0, 1]), "room_kept"),
    ]:
        checker = InvariantChecker(g)
        checker.check(g)                   # the baseline of the `constant` ones
        h = g.clone()
        breakage(h.s)
        found = {v.name: v for v in checker.violations(h)}
        assert name in found, (name, found)
        assert found[name].path.endswith("caylus.rules") and found[name].line > 1
