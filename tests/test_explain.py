"""'Why is this illegal?': scripted illegal moves get the reason from the rules."""
from __future__ import annotations

import random

import pytest

from provost.interpreter.engine import Game, IllegalOption
from provost.interpreter.explain import explain

from caylus_scenarios import (BLUE, GREEN, RED, choose, empty_road_after_neutrals, give, new_game, occupy)


def _placement(players=3, order=(RED, BLUE, GREEN), money=10):
    g = new_game(players=players, turn_order=list(order))
    for p in order:
        give(g, p, denier=money)
    return g


def reason(g, option):
    with pytest.raises(IllegalOption) as e:
        g.apply(option)
    assert e.value.reason == explain(g, option)
    return e.value.reason


def test_unknown_space():
    g = _placement()
    g.start_phase("placement")
    r = reason(g, "place:nowhere")
    assert "not a possible choice" in r and "caylus.rules:" in r


def test_full_space():
    g = _placement()
    occupy(g, "gate", BLUE)
    g.start_phase("placement")
    assert "Gate is full" in reason(g, "place:gate")


def test_per_player_limit():
    g = _placement()
    g.start_phase("placement")
    choose(g, "place:stables")            # Red
    choose(g, "pass", "pass")              # Blue, Green
    assert "already has a worker on Stables" in reason(g, "place:stables")


def test_the_caller_names_the_seats():
    # The engine names a seat by its index, as current_player() does; the web board passes
    # its own names ("Player 1" for seat 0), so that its explanations match the rest of the page.
    g = _placement()
    g.start_phase("placement")
    choose(g, "place:stables")            # Red
    choose(g, "pass", "pass")              # Blue, Green
    assert "player %d already has a worker" % RED in explain(g, "place:stables")
    named = explain(g, "place:stables", lambda p: "Seat #%d" % (p + 1))
    assert "Seat #%d already has a worker on Stables" % (RED + 1) in named and "player" not in named


def test_space_that_takes_no_workers():
    g = _placement()
    g.start_phase("placement")
    assert "takes no workers" in reason(g, "place:inn_right")


def test_option_of_another_phase():
    g = _placement()
    g.start_phase("placement")
    r = reason(g, "provost:2")
    assert "Move the provost" in r and "not an option of 'Place a worker or pass'" in r


def test_missing_parameter():
    g = _placement()
    g.start_phase("placement")
    assert "takes 1 value" in reason(g, "place")


def test_cannot_pay_the_provost():
    g = new_game(players=3)
    g.s.counters["provost"] = 10
    g.s.orders["passing_order"] = [RED]
    give(g, RED, denier=1)
    g.start_phase("provost_moves")
    r = reason(g, "provost:3")
    assert "not a possible choice" in r or "cannot pay" in r


def test_cannot_afford_a_batch():
    g = new_game(players=3)
    give(g, RED, food=1, wood=1, stone=1, cloth=0)
    occupy(g, "castle", RED)
    g.start_phase("build_castle")
    r = reason(g, "batch:food+wood+cloth")
    assert "cannot pay" in r and "needs 1 cloth, has 0" in r


def test_building_not_affordable():
    g = new_game(players=3)
    empty_road_after_neutrals(g)
    g.s.counters["provost"] = 8
    occupy(g, "carpenter", RED)
    give(g, RED, wood=1, food=1, stone=0, cloth=0)
    g.start_phase("activation")
    r = reason(g, "build:lawyer")
    assert "cannot pay lawyer's cost" in r and "1 cloth" in r


def test_building_of_another_category():
    g = new_game(players=3)
    empty_road_after_neutrals(g)
    g.s.counters["provost"] = 8
    occupy(g, "carpenter", RED)
    give(g, RED, wood=1, food=1)
    g.start_phase("activation")
    assert "is a stone building" in reason(g, "build:park")


def test_joust_needs_cloth():
    g = new_game(players=3)
    occupy(g, "joust_field", RED)
    occupy(g, "gate", BLUE)                  # a decision first, so the joust choice is asked later
    give(g, RED, denier=3, cloth=0)
    g.start_phase("specials")
    choose(g, "back")
    # With no cloth the joust option was never offered: the worker just came home.
    assert RED not in g.s.occ.get("joust_field", [])


def test_ys_option_of_another_decision():
    g = Game.new("ys", players=4, seed=1)
    r = reason(g, "gem:blue")
    assert "not an option of 'Bid two brokers (secretly)'" in r and "belongs to the decision" in r


def test_ys_bid_with_brokers_not_held():
    g = Game.new("ys", players=4, seed=1)
    r = reason(g, "bid:4+4+4")
    assert "takes 1 value" in r or "not a possible choice" in r


def test_ys_market_square_taken():
    g = Game.new("ys", players=4, seed=3)
    rnd = random.Random(3)
    while not g.prompt().startswith("Choose where"):
        g.apply(rnd.choice(g.legal_options()))
    market = [o for o in g.legal_options() if ":m_" in o][0]
    g.apply(market)
    while not g.prompt().startswith("Choose where"):
        g.apply(g.legal_options()[0])
    r = reason(g, market)
    assert "not a possible choice" in r


def test_finished_game():
    g = new_game(players=3)
    g.s.finished = True
    g.s.pending = None
    with pytest.raises(IllegalOption):
        g.apply("pass")
    assert explain(g, "pass") == "the game is over"


def test_explain_command_on_a_log(tmp_path, capsys):
    from provost.tools.cli import main
    log = tmp_path / "g.jsonl"
    assert main(["play", "caylus", "--seed", "5", "--log", str(log), "--format", "json"]) == 0
    capsys.readouterr()
    assert main(["explain", str(log), "--at", "1", "provost:9", "--format", "json"]) == 0
    import json
    out = json.loads(capsys.readouterr().out)
    assert out["legal"] is False and out["decision"] == 1 and "not an option" in out["reason"]


def test_explain_command_after_the_last_decision_of_a_finished_game(tmp_path, capsys):
    # A finished game has no decision after its last one: no 'player None' with an empty prompt.
    from provost.tools.cli import main
    log = tmp_path / "g.jsonl"
    assert main(["play", "caylus", "--seed", "5", "--log", str(log), "--format", "json"]) == 0
    import json
    decisions = json.loads(capsys.readouterr().out)["decisions"]
    assert main(["explain", str(log), "--at", str(decisions), "pass"]) == 0
    assert "player None" not in capsys.readouterr().out
    assert main(["explain", str(log), "--at", str(decisions + 1), "pass"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "the log has no decision %d (it has %d; the game is over)" % (decisions + 1, decisions) in err


# ------------------------------------------------------------------ Caylus 1303
def _c1303_at(prompt_start, seed=2):
    g = Game.new("caylus1303", players=4, seed=seed)
    rnd = random.Random(seed)
    while not g.prompt().startswith(prompt_start):
        g.apply(rnd.choice(g.legal_options()))
    return g


def test_1303_character_not_on_offer():
    g = _c1303_at("Choose a character")
    offered = {o.split(":")[1] for o in g.legal_options()}
    absent = next(c for c in g.prog.enums["character_tiles"] if c not in offered)
    assert "not a possible choice" in reason(g, "character:" + absent)


def test_1303_place_without_workers():
    g = _c1303_at("Place a worker or pass")
    p = g.current_player()
    g.s.counters["workers"][p] = 0
    g.s.pending["options"] = ["pass"]           # as the engine would offer with no worker
    r = reason(g, "place:fairground")
    assert "cannot pay" in r or "condition" in r or "not a possible choice" in r


def test_1303_option_of_another_phase():
    g = _c1303_at("Place a worker or pass")
    r = reason(g, "bundle:food+wood+stone")
    assert "not an option of 'Place a worker or pass'" in r and "Deliver a bundle" in r


def test_1303_provost_beyond_the_guilds_bridge_limit():
    g = _c1303_at("Guilds Bridge: move the provost")
    r = reason(g, "provost:5")
    assert "not a possible choice" in r and "-3" in r
