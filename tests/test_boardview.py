"""The board description (interpreter/boardview.py) and its terminal drawing, for any rule file."""
from __future__ import annotations

import io

import pytest

from provost.interpreter.agents.board_text import print_board
from provost.interpreter.boardview import board_view
from provost.interpreter.engine import Game


def _played(name, players, n, seed=1):
    g = Game.new(name, players=players, seed=seed)
    for _ in range(n):
        g.apply(g.legal_options()[-1])
    return g


@pytest.mark.parametrize("name,players", [("caylus", 3), ("caylus1303", 3), ("ys", 4),
                                          ("rulesets/examples/caylus.brewery.rules", 3)])
def test_every_game_draws_for_every_seat(name, players):
    g = _played(name, players, 40)
    for seat in range(g.s.humans):
        v = board_view(g.rs.decls, g.observation(seat), humans=g.s.humans)
        assert v["seat"] == seat and len(v["panels"]) >= players
        out = io.StringIO()
        print_board(v, out)
        assert v["title"] in out.getvalue()


def test_caylus_road_has_the_provost_and_bailiff_as_markers():
    g = _played("caylus", 3, 10)
    v = board_view(g.rs.decls, g.observation(0))
    road = v["tracks"][0]
    assert len(road["cells"]) == 28
    assert {m["name"] for m in road["markers"]} == {"provost", "bailiff"}
    assert [m["at"] for m in road["markers"] if m["name"] == "provost"] == [g.s.counters["provost"]]
    out = io.StringIO()
    print_board(v, out)
    assert "[provost]" in out.getvalue()


def test_a_single_number_scale_prints_its_name_once():
    g = _played("caylus", 3, 10)
    out = io.StringIO()
    print_board(board_view(g.rs.decls, g.observation(0)), out)
    text = out.getvalue()
    section = g.s.counters["current_section"]
    assert "current section: %d" % section in text and "current section: current section" not in text
    assert "favor columns: %d" % g.s.counters["favor_columns"] in text


def test_a_new_building_appears_with_no_layout_work():
    g = Game.new("rulesets/examples/caylus.brewery.rules", players=3, seed=1)
    v = board_view(g.rs.decls, g.observation(0))
    assert any(s["kind"] == "brewery" and s["title"] == "Brewery" for s in v["shared"]["supply"])


def test_others_hidden_values_are_face_down():
    g = _played("caylus1303", 3, 30)
    v = board_view(g.rs.decls, g.observation(0))
    for p in v["panels"]:
        score = next(r for r in p["resources"] if r["score"])
        assert (score["value"] == {"hidden": True}) == (p["seat"] != 0)
    g = _played("ys", 4, 40)
    v = board_view(g.rs.decls, g.observation(0))
    hidden = [pc for grp in v["groups"] for sp in grp["spaces"] for pc in sp["pieces"] if pc["hidden"]]
    assert hidden and all(pc["owner"] != 0 and pc["value"] is None for pc in hidden)


def _every_variant():
    from provost.dsl.loader import list_shipped
    out = []
    for g in list_shipped():
        out.append((g["name"], None))
        out += [(g["name"], v["name"]) for v in g["variants"]]
    return out


@pytest.mark.parametrize("name,variant", _every_variant())
def test_every_shipped_variant_draws_through_a_whole_game(name, variant):
    import random

    g = Game.new(name, seed=2, variant=variant)
    rng = random.Random(2)
    k = 0
    while True:
        if k % 40 == 0 or g.finished:
            for seat in range(g.s.humans):
                v = board_view(g.rs.decls, g.observation(seat), g.prompt(), g.legal_options()
                               if g.current_player() == seat else [], g.s.humans)
                print_board(v, io.StringIO())
                assert len(v["panels"]) == g.s.players
        if g.finished:
            break
        g.apply(rng.choice(g.legal_options()))
        k += 1


def test_the_terminal_human_sees_the_board_and_the_moves_it_may_know(capsys, monkeypatch):
    import sys

    from cli_run import run_cli

    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 12))
    code, out, _ = run_cli(capsys, "play", "ys", "--agents", "human,random", "--seed", "2")
    assert code == 2                     # the input ran out: a usage error, after the boards
    assert "Ys — round 1" in out and "Player 1 (you)" in out
    assert "last moves:" in out and "Bid two brokers (secretly): hidden" in out
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 3))
    code, out, _ = run_cli(capsys, "play", "caylus", "--players", "3", "--agents", "human,random", "--seed", "2")
    assert "[provost]" in out and "[bailiff]" in out and "(Place: Gate)" in out


def test_options_that_read_alike_say_where_or_else_their_id():
    from provost.interpreter.boardview import Names, option_labels

    names = Names([{"kind": "space", "name": "a", "title": "Well"}, {"kind": "space", "name": "b", "title": "Well"},
                   {"kind": "space", "name": "c", "title": "Gate"}])
    options = ["take:a", "take:b", "take:c"]
    assert option_labels(names, options, {"a": "road 2", "b": "road 9, Player 2's"}) == [
        "Take: Well (road 2)", "Take: Well (road 9, Player 2's)", "Take: Gate"]
    assert option_labels(names, options, {"a": "Market", "b": "Market"}) == [
        "Take: Well (Market) (take:a)", "Take: Well (Market) (take:b)", "Take: Gate"]
    assert option_labels(names, options) == ["Take: Well (take:a)", "Take: Well (take:b)", "Take: Gate"]


def test_a_copy_of_a_tile_is_named_by_its_kind_and_told_apart_by_its_place():
    # Caylus 1303 lays a second starting Market (`start_market_2`): its button reads as a Market,
    # not as its instance's id, and the two Markets are told apart by where they stand.
    g = Game.new("caylus1303", players=3, seed=1)
    while not any(o.startswith("place:start_market_2") for o in g.legal_options()):
        g.apply(g.legal_options()[-1])
    view = board_view(g.rs.decls, g.observation(g.current_player()), g.prompt(), g.legal_options(),
                      humans=g.s.humans)
    labels = {o["id"]: o["label"] for o in view["options"]}
    road = g.observation(g.current_player())["road"]
    assert labels["place:start_market_2"] == "Place: Market (road %d)" % road.index("start_market_2")
    assert labels["place:start_market"] == "Place: Market (road %d)" % road.index("start_market")
    assert not any("_" in label for label in labels.values())
