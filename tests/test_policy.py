"""The policy agent: its fit imitates the teacher, it plays every shipped game, and provost train
writes weights that --agents policy then uses."""
from __future__ import annotations

import json
import math
import zlib

import pytest

from provost.interpreter.agents import make_agent, play_game
from provost.interpreter.agents import policy
from provost.interpreter.agents.policy import (PolicyAgent, default_weights, find_model, fit, imitation_accuracy,
                                               record_decisions)
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
    monkeypatch.setattr(policy, "SHIPPED_DIR", tmp_path / "none")
    game = Game.new("caylus", variant="simplified_favor", players=3, seed=1)
    agent = PolicyAgent(1, 0)
    agent.choose(game, game.current_player())
    assert find_model("caylus", "simplified_favor", 3) is None
    assert agent.weights == default_weights(game.prog) and agent.weights["d:pp"] == 1.0
    # hand-set weights read what an option does even where there are many options: placing a
    # worker costs a denier now, passing nothing
    options = game.legal_options()
    assert len(options) > policy.APPLY_AT_MOST
    scores = dict(zip(options, agent.option_scores(game, game.current_player(), options)))
    assert scores["place:neutral_farm"] < scores["pass"]


def test_a_variant_or_player_count_without_a_model_uses_the_base_games(tmp_path, monkeypatch):
    monkeypatch.setenv("PROVOST_POLICY_DIR", str(tmp_path))
    (tmp_path / "caylus-4p.json").write_text(json.dumps({"weights": {"t:pass": 1.0}}))
    (tmp_path / "caylus.simplified_favor-3p.json").write_text(json.dumps({"weights": {"t:pass": 2.0}}))
    assert find_model("caylus", "simplified_favor", 4)["weights"] == {"t:pass": 1.0}
    assert find_model("caylus", None, 3)["weights"] == {"t:pass": 1.0}
    assert find_model("caylus", "simplified_favor", 3)["weights"] == {"t:pass": 2.0}
    # another count of the same variant comes before the base game at another count
    assert find_model("caylus", "simplified_favor", 5)["weights"] == {"t:pass": 2.0}
    assert find_model("caylus", "two_players", 5)["weights"] == {"t:pass": 1.0}


@pytest.mark.parametrize("ruleset, players", [("caylus", 4), ("ys", 3), ("caylus1303", 4)])
def test_the_fast_scores_are_the_features_weighed(ruleset, players):
    # CompiledWeights scores without building feature names; it must give what the fit meant
    game = Game.new(ruleset, players=players, seed=3)
    teacher = [make_agent("random", 3, s) for s in range(game.s.humans)]
    samples: list = []
    record_decisions(game, teacher, samples)
    weights: dict = {}
    for k, (feats, _) in enumerate(samples[:200]):
        for j, fs in enumerate(feats):
            for f in fs:
                weights.setdefault(f, ((zlib.crc32(f.encode()) + k + j) % 17 - 8) / 8.0)
    agent = PolicyAgent(0, 0, weights)
    game = Game.new(ruleset, players=players, seed=3)
    checked = 0
    while not game.finished and checked < 150:
        player, options = game.current_player(), game.legal_options()
        if len(options) > 1:
            world = game if policy.applies_options(options) else None
            row = policy.situation(game, player)
            slow = [policy.score(weights, policy.option_features(game, player, o, row, world)) for o in options]
            agent._prepare(game)
            fast = agent._compiled.scores(game, player, options, row, world)
            assert fast == pytest.approx(slow, abs=1e-9)
            checked += 1
        game.apply(teacher[player].choose(game, player))
    assert checked > 50


def test_the_fit_follows_the_teachers_values_not_only_its_choice():
    # two options the teacher values 0 and 1 point: the target gives the second e/(1+e)
    targets = policy.soft_targets(["a", "b"], {"a": 0.0, "b": 1.0}, "b")
    assert targets[1] == pytest.approx(math.e / (1 + math.e))
    assert policy.soft_targets(["a", "b"], None, "a") == [1.0, 0.0]


def test_the_shipped_caylus_policy_places_on_the_castle_with_the_goods_for_a_batch():
    # fitted to greedy's values: the castle is worth a worker with food and two other goods
    game = Game.new("caylus", players=4, seed=11)
    agent = PolicyAgent(0, 0)
    player = game.current_player()
    options = game.legal_options()
    assert "place:castle" in options
    s = game.s
    for r in ("food", "wood", "cloth"):
        s.counters[r][player] = 0
    before = dict(zip(options, agent.option_scores(game, player, options)))
    for r in ("food", "wood", "cloth"):
        s.counters[r][player] = 1
    after = dict(zip(options, agent.option_scores(game, player, options)))
    assert after["place:castle"] - after["pass"] > before["place:castle"] - before["pass"] + 0.5


def test_train_writes_weights_that_play_uses(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PROVOST_POLICY_DIR", str(tmp_path))
    code, out, err = run_cli(capsys, "train", "caylus", "--players", "3", "--games", "3", "--seed", "7")
    assert code == 0, err
    written = tmp_path / "caylus-3p.json"
    model = json.loads(written.read_text())
    assert model["games"] == 3 and model["mixed_games"] == 1 and model["players"] == 3 and model["decisions"] > 100 and model["weights"]
    assert "held-out" in out
    agent = PolicyAgent(0, 0)
    game = Game.new("caylus", players=3, seed=0)
    agent.choose(game, game.current_player())
    assert agent.model == model
    code, out, err = run_cli(capsys, "play", "caylus", "--players", "3", "--agents", "policy,random", "--seed", "2")
    assert code == 0, err


def test_options_on_the_road_are_read_against_its_markers():
    """The provost and the bailiff are road markers (global counters over the road's slots); an
    option's target is placed against them, and moving a marker says whose workers it strands."""
    from provost.interpreter.agents.policy import marker_steps, road_index, road_markers, immediate_effects
    game = Game.new("caylus", players=4, seed=3)
    assert road_markers(game.prog) == ["provost", "bailiff"]
    assert road_markers(Game.new("ys", players=4, seed=0).prog) == []
    on_road = road_index(game)
    tile, slot = next((t, i) for t, i in on_road.items() if i > game.s.counters["provost"] + 1)
    steps = marker_steps(game, "place:" + tile, ["provost"], on_road)
    assert steps == ["m:place:provost:%d" % min(4, slot - game.s.counters["provost"])]
    assert marker_steps(game, "pass", ["provost"], on_road) == []
    # at decisions to move the provost, each move says how many workers it strands or saves
    import random
    rng = random.Random(5)
    checked = 0
    for seed in range(40):
        game = Game.new("caylus", players=4, seed=seed)
        while not game.finished and checked < 12:
            options = game.legal_options()
            if any(o.startswith("provost:") for o in options):
                me, road, at = game.current_player(), game.s.road, game.s.counters["provost"]
                for o in options:
                    k = int(o.split(":")[1]) if o.startswith("provost:") else 0
                    lo, hi = sorted((at, at + k))
                    moved = [w for i in range(lo + 1, hi + 1) if road[i] for w in game.s.occ.get(road[i], ())]
                    sign = 1 if k < 0 else -1          # pulled back: those slots fall beyond him
                    effects = immediate_effects(game, me, o)
                    assert effects.get("d:beyond:provost:own", 0.0) == sign * moved.count(me)
                    assert effects.get("d:beyond:provost:others", 0.0) == sign * (len(moved) - moved.count(me))
                    checked += bool(moved)
            game.apply(rng.choice(options))
    assert checked >= 12


def test_a_lower_temperature_aims_the_targets_at_greedys_best_option():
    values = {"a": 3.0, "b": 2.0, "c": 0.0}
    warm = policy.soft_targets(list(values), values, "a", temperature=1.0)
    cool = policy.soft_targets(list(values), values, "a", temperature=0.5)
    assert abs(sum(cool) - 1) < 1e-12 and cool[0] > warm[0] and cool[2] < warm[2]
    assert abs(warm[0] / warm[1] - math.e) < 1e-9 and abs(cool[0] / cool[1] - math.e ** 2) < 1e-9


def test_train_refuses_an_output_it_cannot_write_before_training(tmp_path, capsys, monkeypatch):
    from provost.interpreter.agents import policy

    monkeypatch.setattr(policy, "train", lambda *a, **k: pytest.fail("trained before checking -o"))
    code, out, err = run_cli(capsys, "train", "caylus", "--players", "3", "--games", "2",
                             "-o", str(tmp_path / "nodir" / "w.json"))
    assert code == 2 and "cannot write" in err and not (tmp_path / "nodir").exists()


def test_train_makes_the_data_folder_it_writes_to_by_default(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PROVOST_POLICY_DIR", str(tmp_path / "new" / "policies"))
    code, out, err = run_cli(capsys, "train", "caylus", "--players", "3", "--games", "2", "--seed", "7")
    assert code == 0, err
    assert (tmp_path / "new" / "policies" / "caylus-3p.json").exists()


def test_train_records_its_temperature(tmp_path, capsys):
    out_file = tmp_path / "w.json"
    code, out, err = run_cli(capsys, "train", "caylus", "--players", "3", "--games", "2", "--seed", "7",
                             "--temperature", "0.5", "-o", str(out_file))
    assert code == 0, err
    assert json.loads(out_file.read_text())["temperature"] == 0.5
