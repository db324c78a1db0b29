"""The MCTS agent: budgets and registry, determinization, reproducibility, whole games, the CLI."""
from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from provost.interpreter.agents import AGENTS, MCTSAgent, UnknownAgent, make_agent, play_game
from provost.interpreter.agents.mcts import determinize, hides_information, parse_budget
from provost.interpreter.engine import Game

ROOT = Path(__file__).resolve().parent.parent


def test_budgets():
    assert parse_budget("200") == (200, None)
    assert parse_budget("0.5s") == (None, 0.5)
    assert parse_budget(None)[0] > 0
    for bad in ["x", "0", "-3", "1.5", "0s"]:
        with pytest.raises(ValueError):
            parse_budget(bad)


def test_registry_and_make_agent():
    assert "mcts" in AGENTS and "mcts:50" in AGENTS and "mcts:0.2s" in AGENTS
    assert "mcts:abc" not in AGENTS and "greedy:3" not in AGENTS
    a = make_agent("mcts:7", 3, 1)
    assert isinstance(a, MCTSAgent) and a.iterations == 7 and a.seat == 1
    assert make_agent("mcts:0.25s").seconds == 0.25
    with pytest.raises(UnknownAgent):
        make_agent("greedy:3")
    with pytest.raises(ValueError):
        make_agent("mcts:soon")


def test_hidden_information_is_detected():
    assert not hides_information(Game.new("caylus", players=4, seed=1).prog)
    assert hides_information(Game.new("ys", players=4, seed=1).prog)
    assert hides_information(Game.new("caylus1303", players=4, seed=1).prog)


@pytest.mark.parametrize("ruleset", ["ys", "caylus1303"])
def test_determinize_keeps_the_observation(ruleset):
    g = Game.new(ruleset, players=4, seed=11)
    r = random.Random(0)
    for k in range(120):
        if g.finished:
            break
        if k % 10 == 0:
            for p in range(4):
                h = determinize(g, p, random.Random(k))
                assert h.observation(p) == g.observation(p)
                assert h.legal_options() == g.legal_options() or g.current_player() != p
        g.apply(r.choice(g.legal_options()))


def test_same_seed_same_choice():
    g = Game.new("caylus", players=4, seed=2)
    p = g.current_player()
    a, b = make_agent("mcts:15", 2, p), make_agent("mcts:15", 2, p)
    assert a.choose(g, p) == b.choose(g, p)
    assert g.s.decisions == 0            # the agent never touches the game


@pytest.mark.parametrize("ruleset,variant,players", [("caylus", None, 3), ("ys", "two_players", 2),
                                                     ("caylus1303", None, 2)])
def test_whole_game(ruleset, variant, players):
    g = Game.new(ruleset, players=players, seed=5, variant=variant)
    agents = [make_agent("mcts:3", 5, 0)] + [make_agent("random", 5, i) for i in range(1, players)]
    play_game(g, agents)
    assert g.finished and agents[0].stats["decisions"] > 0


def test_time_budget():
    g = Game.new("caylus", players=4, seed=3)
    a = make_agent("mcts:0.05s", 3, g.current_player())
    a.choose(g, g.current_player())
    assert a.stats["iterations"] >= 1 and a.stats["seconds"] < 2.0


def test_cli_play_with_mcts():
    out = subprocess.run([sys.executable, "-m", "provost.tools.cli", "play", "caylus", "--players", "3", "--seed", "4",
                          "--agents", "mcts:2,random", "--format", "json"],
                         cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert d["agents"][0] == "mcts:2" and len(d["scores"]) == 3


def _first_placement(seed=2):
    g = Game.new("caylus", players=4, seed=seed)
    assert MCTSAgent._in_turns(g)            # Caylus starts with the placement of workers
    return g


def test_turn_model_follows_the_greedy_values():
    g = _first_placement()
    p = g.current_player()
    a = make_agent("mcts:5", 2, p)
    a._prepare(g)
    a._me = (p + 1) % 4                      # model ``p`` as another player
    options = g.legal_options()
    values = a._greedy_values(g, p, options)
    choice = a._turn_choice(g, p, options)
    assert values[choice] == max(values.values())
    # Values are cached relative to passing; an option met later is valued then.
    cached = a._turn_values[(p, g.s.round)]
    assert cached["pass"] == 0.0 and set(cached) == set(options)


def test_other_share_spends_less_outside_turns():
    g = _first_placement()
    while MCTSAgent._in_turns(g) or len(g.legal_options()) < 2:
        g.apply("pass" if "pass" in g.legal_options() else g.legal_options()[0])
    p = g.current_player()
    a = make_agent("mcts:20", 2, p)
    a.other_share = 0.25
    a.choose(g, p)
    assert a.stats["iterations"] == 5


def test_owned_buildings_are_valued_from_the_rules():
    g = Game.new("caylus", players=4, seed=1)
    a = MCTSAgent(1, 0)
    a.tile_uses, a.income_rounds = 2.0, 3.0
    a._prepare(g)
    w = dict(a._weights)
    # Another player's worker on one's building gains its owner 1 PP (a trigger on worker placement) ...
    assert a._tile_bonus("wood_sawmill") == pytest.approx(2.0 * 1)
    # ... and a stone farm also gives its owner a cube (its ``owner:`` block).
    assert a._tile_bonus("stone_farm") == pytest.approx(2.0 * (1 + w["food"]))
    # A residence is not workable; its income (1) counts for ``income_rounds`` at the cheapest weight.
    assert a._tile_bonus("residence") == pytest.approx(3.0 * 1 * min(w.values()))
    # The evaluation counts the buildings a player owns.
    before = a._heuristic(g, 0)
    g.s.tiles["x"] = ["wood_sawmill", 0]
    assert a._heuristic(g, 0) == pytest.approx(before + 2.0)
    a.tile_uses = a.income_rounds = 0
    a._tile_bonuses = {}
    assert a._heuristic(g, 0) == pytest.approx(before)


@pytest.mark.parametrize("spec", ["nans", "infs", "nan", "inf", "-1s", "0", "1e9s", "9" * 1000])
def test_budgets_that_never_end_are_refused(spec):
    from provost.interpreter.agents.mcts import parse_budget
    with pytest.raises(ValueError, match="bad mcts budget"):
        parse_budget(spec)
