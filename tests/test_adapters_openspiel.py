"""The OpenSpiel Python games: GameType, OpenSpiel's random_sim_test, observations.

Skipped (with the reason) when open_spiel is not installed: ``pip install -e .[openspiel]``.
"""
from __future__ import annotations

import json
import random

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="optional: pip install provost[openspiel]")

import provost.adapters.openspiel_game as osg  # noqa: E402
from provost.interpreter.agents.mcts import determinize  # noqa: E402

GT = pyspiel.GameType


@pytest.mark.parametrize("name,info", [("caylus", GT.Information.PERFECT_INFORMATION),
                                       ("caylus1303", GT.Information.IMPERFECT_INFORMATION),
                                       ("ys", GT.Information.IMPERFECT_INFORMATION)])
def test_game_type(name, info):
    game = pyspiel.load_game("python_provost_" + name)
    t = game.get_type()
    assert t.dynamics == GT.Dynamics.SEQUENTIAL
    assert t.chance_mode == GT.ChanceMode.SAMPLED_STOCHASTIC
    assert t.information == info
    assert t.utility == GT.Utility.ZERO_SUM
    assert game.num_distinct_actions() == len(game.catalogue)


@pytest.mark.parametrize("name", ["caylus", "caylus1303", "ys"])
def test_random_sim(name):
    game = pyspiel.load_game("python_provost_" + name, {"players": 4})
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_variant_and_players_parameters():
    game = pyspiel.load_game("python_provost_ys", {"variant": "two_players", "players": 2})
    assert game.num_players() == 2
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_new_states_are_new_deals_reproducibly():
    a = pyspiel.load_game("python_provost_caylus", {"seed": 3})
    b = pyspiel.load_game("python_provost_caylus", {"seed": 3})
    sa = [a.new_initial_state().engine.seed for _ in range(3)]
    sb = [b.new_initial_state().engine.seed for _ in range(3)]
    assert sa == sb and len(set(sa)) == 3


def test_play_to_the_end_with_returns():
    game = pyspiel.load_game("python_provost_caylus", {"players": 3})
    s = game.new_initial_state()
    r = random.Random(1)
    while not s.is_terminal():
        s.apply_action(r.choice(s.legal_actions()))
    ret = s.returns()
    assert abs(sum(ret)) < 1e-9 and -1.0 <= min(ret) <= max(ret) <= 1.0


def test_observations_do_not_leak_hidden_values():
    game = pyspiel.load_game("python_provost_ys", {"players": 4})
    s = game.new_initial_state()
    r = random.Random(2)
    checked = 0
    for step in range(300):
        if s.is_terminal():
            break
        if step % 13 == 0:
            for p in range(4):
                text, tensor = s.observation_string(p), list(s.observation_tensor(p))
                other = s.clone()
                other._box.g = determinize(s.engine, p, random.Random(step))
                assert other.observation_string(p) == text
                assert list(other.observation_tensor(p)) == tensor
                json.loads(text)
                checked += 1
        s.apply_action(r.choice(s.legal_actions()))
    assert checked > 10


def test_clone_is_independent():
    game = pyspiel.load_game("python_provost_caylus")
    s = game.new_initial_state()
    c = s.clone()
    c.apply_action(c.legal_actions()[0])
    assert s.history() == [] and len(c.history()) == 1
    assert s.engine.s.decisions == 0
