"""The policy agent: its fit imitates the teacher, it plays every shipped game, and provost train
writes weights that --agents policy then uses."""
from __future__ import annotations

import json

import pytest

from provost.interpreter.agents import make_agent, play_game
from provost.interpreter.agents.policy import PolicyAgent, default_weights, find_model, fit, imitation_accuracy
from provost.interpreter.engine import Game
from tests.cli_run import run_cli


def test_the_fit_learns_which_option_the_teacher_takes():
    # the teacher always takes the option with feature "good", whatever else is on offer
    samples = []
    for k in range(30):
        feats = [{"other": 1.0, "d:x": float(k % 3)}, {"good": 1.0}, {"null": 1.0}]
        samples.append((feats, 1))
    weights = fit(samples, epochs=5)
    assert weights["good"] > weights.get("other", 0) and weights["good"] > weights.get("null", 0)
    assert imitation_accuracy(samples, weights) == 1.0


@pytest.mark.parametrize("ruleset, players", [("caylus", 4), ("caylus1303", 3), ("ys", 4)])
def test_the_policy_plays_whole_games_reproducibly(ruleset, players):
    results = []
    for _ in range(2):
        game = Game.new(ruleset, players=players, seed=5)
        agents = [make_agent("policy", 5, 0)] + [make_agent("random", 5, s) for s in range(1, game.s.humans)]
        play_game(game, agents)
        results.append((game.scores(), game.s.decisions))
    assert results[0] == results[1]


def test_without_fitted_weights_it_plays_a_myopic_greedy(tmp_path, monkeypatch):
    monkeypatch.setenv("PROVOST_POLICY_DIR", str(tmp_path))
    game = Game.new("caylus", variant="simplified_favor", players=3, seed=1)
    agent = PolicyAgent(1, 0)
    agent.choose(game, game.current_player())
    assert find_model("caylus", "simplified_favor", 3) is None
    assert agent.weights == default_weights(game.prog) and agent.weights["d:pp"] == 1.0


def test_train_writes_weights_that_play_uses(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PROVOST_POLICY_DIR", str(tmp_path))
    code, out, err = run_cli(capsys, "train", "caylus", "--players", "3", "--games", "2", "--seed", "7")
    assert code == 0, err
    written = tmp_path / "caylus-3p.json"
    model = json.loads(written.read_text())
    assert model["games"] == 2 and model["players"] == 3 and model["decisions"] > 100 and model["weights"]
    assert "held-out" in out
    agent = PolicyAgent(0, 0)
    game = Game.new("caylus", players=3, seed=0)
    agent.choose(game, game.current_player())
    assert agent.model == model
    code, out, err = run_cli(capsys, "play", "caylus", "--players", "3", "--agents", "policy,random", "--seed", "2")
    assert code == 0, err
