"""The learned value: features, the ridge fit, the trainer's reproducibility, the shipped model, fallbacks."""
from __future__ import annotations

import json
import math
import random

import pytest

from provost.interpreter.agents import MCTSAgent, make_agent
from provost.interpreter.agents.value_model import ValueModel, features_for, fit, ridge, solve
from provost.interpreter.engine import Game
from provost.tools.dev import train_value


def _play_randomly(g, decisions, seed=0):
    r = random.Random(seed)
    for _ in range(decisions):
        if g.finished:
            break
        g.apply(r.choice(g.legal_options()))
    return g


def test_features_are_read_from_the_rules():
    g = Game.new("caylus", players=4, seed=1)
    f = features_for(g.prog)
    assert len(set(f.names)) == len(f.names)
    assert "counter:" + g.prog.score in f.names
    assert any(n.startswith("buildings:") for n in f.names)
    for p in range(4):
        assert len(f.of(g, p)) == len(f.names)
    ys = Game.new("ys", players=4, seed=1)
    assert len(features_for(ys.prog).of(ys, 0)) == len(features_for(ys.prog).names)


def test_solve_and_ridge_recover_a_linear_rule():
    assert [round(x, 9) for x in solve([[2.0, 1.0], [1.0, 3.0]], [3.0, 5.0])] == [0.8, 1.4]
    r = random.Random(3)
    xs = [[r.random(), r.random(), 1.0] for _ in range(200)]    # the last feature is constant
    ys = [4.0 + 2.0 * a - 3.0 * b for a, b, _ in xs]
    intercept, w = ridge(xs, ys, 0.0)
    assert math.isclose(intercept, 4.0, abs_tol=1e-9)
    assert [round(x, 9) for x in w] == [2.0, -3.0, 0.0]
    # one-player states: the relative target is the score itself
    states = [(k % 3 + 1, [x], [y]) for k, (x, y) in enumerate(zip(xs, ys))]
    rounds = fit(states, ["a", "b", "c"], penalty=0.0, window=0)
    assert sorted(rounds) == ["1", "2", "3"] and round(rounds["2"]["weights"][0], 6) == 2.0
    # two players: only the difference between them is fitted
    pairs = [(1, [xs[k], xs[k + 1]], [ys[k] + 7.0, ys[k + 1] + 7.0]) for k in range(0, 200, 2)]
    rel = fit(pairs, ["a", "b", "c"], penalty=0.0, window=0)["1"]
    assert [round(x, 6) for x in rel["weights"]] == [2.0, -3.0, 0.0] and abs(rel["intercept"]) < 1e-9


def test_the_trainer_reproduces_its_model(tmp_path, monkeypatch):
    args = ["--ruleset", "caylus", "--players", "3", "--games", "4", "--first-seed", "10000",
            "--agents", "random", "--window", "2"]
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    assert train_value.main(args + ["--out", str(a)]) == 0
    assert train_value.main(args + ["--out", str(b), "--samples", str(tmp_path / "s.jsonl")]) == 0
    assert a.read_bytes() == b.read_bytes()
    # a refit from the recorded samples is the same model too
    assert train_value.main(args + ["--out", str(b), "--samples", str(tmp_path / "s.jsonl")]) == 0
    assert a.read_bytes() == b.read_bytes()
    g = Game.new("caylus", players=3, seed=5)
    model = ValueModel(json.loads(a.read_text()))
    assert model.names == features_for(g.prog).names and len(model.values(g)) == 3
    # without --out the model is written where the agents look for it
    monkeypatch.setenv("PROVOST_VALUE_DIR", str(tmp_path / "values"))
    assert ValueModel.load(g) is None
    assert train_value.main(args + ["--samples", str(tmp_path / "s.jsonl")]) == 0
    assert ValueModel.load(g).data == model.data


def test_the_shipped_caylus_model_values_real_states():
    g = _play_randomly(Game.new("caylus", players=4, seed=7), 150)
    model = ValueModel.load(g)
    assert model is not None, "no learned value shipped for 4-player Caylus"
    v = model.values(g)
    assert len(v) == 4 and all(math.isfinite(x) for x in v)
    # more of the score now means a higher expected final score
    g.s.counters[g.prog.score][0] += 5
    assert model.values(g)[0] > v[0]
    end = _play_randomly(g, 100000)
    assert end.finished and model.values(end) == [float(x) for x in end.scores()]


def test_fallback_without_a_model(tmp_path, monkeypatch):
    g = Game.new("caylus", players=4, seed=2)
    monkeypatch.setenv("PROVOST_VALUE_DIR", str(tmp_path))        # an empty directory: no model
    assert ValueModel.load(g) is None
    a = make_agent("mcts:5", 2, 0)
    assert a.choose(g, 0) in g.legal_options() and a._model is None
    monkeypatch.delenv("PROVOST_VALUE_DIR")
    b = make_agent("mcts:5", 2, 0)
    b.evaluation = "greedy"
    assert b.choose(g, 0) in g.legal_options() and b._model is None


def test_mcts_with_the_learned_value_plays_legal_moves():
    g = Game.new("caylus", players=4, seed=9)
    agents = [MCTSAgent(9, 0, iterations=4)] + [make_agent("random", 9, i) for i in range(1, 4)]
    for _ in range(60):
        if g.finished:
            break
        p = g.current_player()
        opt = agents[p].choose(g, p)
        assert opt in g.legal_options()
        g.apply(opt)
    assert agents[0]._model is not None


def test_rotated_agents_sit_in_every_seat_in_turn():
    agents = ["mcts:100", "greedy", "greedy", "greedy"]
    assert [train_value.seating(agents, 4, seed, True).index("mcts:100") for seed in range(8)] == \
        [0, 1, 2, 3, 0, 1, 2, 3]
    assert train_value.seating(["greedy"], 3, 5, False) == ["greedy"] * 3


def test_more_sample_files_join_the_fit(tmp_path):
    base = ["--ruleset", "caylus", "--players", "3", "--games", "3", "--agents", "random"]
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    assert train_value.main(base + ["--first-seed", "1", "--samples", str(one), "--out", str(tmp_path / "1.json")]) == 0
    assert train_value.main(base + ["--first-seed", "4", "--samples", str(two), "--out", str(tmp_path / "2.json")]) == 0
    both = tmp_path / "both.json"
    assert train_value.main(base + ["--first-seed", "1", "--samples", str(one), "--also", str(two),
                                    "--out", str(both)]) == 0
    model = json.loads(both.read_text())
    assert model["also"] == [{"agents": ["random"], "first_seed": 4, "games": 3}]
    alone = json.loads((tmp_path / "1.json").read_text())
    assert sum(r["samples"] for r in model["rounds"].values()) > sum(r["samples"] for r in alone["rounds"].values())
    # samples of another player count are refused
    other = tmp_path / "other.jsonl"
    assert train_value.main(["--ruleset", "caylus", "--players", "4", "--games", "1", "--agents", "random",
                             "--first-seed", "1", "--samples", str(other), "--out", str(tmp_path / "o.json")]) == 0
    with pytest.raises(SystemExit, match="other rules"):
        train_value.main(base + ["--first-seed", "1", "--samples", str(one), "--also", str(other),
                                 "--out", str(both)])
