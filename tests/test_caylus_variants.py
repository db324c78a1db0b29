"""The Caylus variants of the rulebook's last page, as rulebook statements."""
from __future__ import annotations

import functools

import pytest

from provost.dsl.loader import load_checked
from provost.interpreter.engine import Game, IllegalOption

from caylus_scenarios import BLUE, RED, choose, counter, empty_road_after_neutrals, give, occupy


@functools.cache
def variant(name):
    return load_checked("caylus", name)


def test_simplified_favor_joust_gives_three_prestige_and_no_table():
    g = Game.new(variant("simplified_favor"), players=3, seed=0)
    occupy(g, "joust_field", RED)
    give(g, RED, denier=1, cloth=1, pp=0)
    g.start_phase("specials")
    choose(g, "joust")
    assert counter(g, "pp", RED) == 3
    assert "favor_level" not in g.s.counters


def test_simplified_favor_several_favors_are_three_each():
    g = Game.new(variant("simplified_favor"), players=3, seed=0)
    give(g, RED, pp=0)
    g.run_effect("favor", RED, 2)
    assert counter(g, "pp", RED) == 6


def test_two_players_start_with_five_deniers():
    g = Game.new(variant("two_players"), players=2, seed=3)
    assert [counter(g, "denier", p) for p in (0, 1)] == [5 + 2, 5 + 2]   # after the first income


def test_two_players_only():
    from provost.dsl.diagnostics import RulesError
    with pytest.raises(RulesError):
        Game.new(variant("two_players"), players=3, seed=0)


def test_two_players_first_player_alternates():
    g = Game.new(variant("two_players"), players=2, seed=1)
    first = g.s.orders["turn_order"][0]
    assert g.current_player() == first
    while g.s.round == 1:
        g.apply("pass" if "pass" in g.legal_options() else g.legal_options()[0])
    assert g.s.orders["turn_order"][0] != first
    assert g.current_player() != first


def test_two_players_no_stables_and_three_deniers_after_a_pass():
    g = Game.new(variant("two_players"), players=2, seed=0)
    order = g.s.orders["turn_order"]
    a, b = order
    empty_road_after_neutrals(g)
    g.put_tile("wood_sawmill", 9, b)
    give(g, b, denier=10)
    give(g, a, denier=10)
    g.start_phase("placement")
    assert "place:stables" not in g.legal_options()
    choose(g, "pass")                              # a passes (and takes 1 denier)
    choose(g, "place:trading_post")                # b pays 3 for a building not his own
    assert counter(g, "denier", b) == 7
    choose(g, "place:wood_sawmill")                # his own: 1
    assert counter(g, "denier", b) == 6
    with pytest.raises(IllegalOption):
        g.apply("place:stables")


def test_two_players_inn_keeps_its_power():
    g = Game.new(variant("two_players"), players=2, seed=0)
    a, b = g.s.orders["turn_order"]
    occupy(g, "inn_right", b)
    give(g, b, denier=10)
    g.start_phase("placement")
    choose(g, "pass")
    choose(g, "place:trading_post")
    assert counter(g, "denier", b) == 9


def test_first_edition_has_one_architect_and_no_jeweller():
    g = Game.new(variant("first_edition"), players=3, seed=0)
    assert "jeweller" not in g.s.supply and g.s.supply["architect"] == 1


STONE = ("stone_farm", "park", "workshop", "alchemist", "bank", "jeweller", "tailor", "church", "architect")


def _stone_tiles(g):
    return {k: g.s.supply.get(k, 0) for k in STONE if g.s.supply.get(k, 0)}


def test_each_printing_of_the_stone_buildings():
    # The base: the second edition, 10 tiles (two Architects).
    base = _stone_tiles(Game.new(load_checked("caylus"), players=3, seed=0))
    assert sum(base.values()) == 10 and base["architect"] == 2 and base["jeweller"] == 1
    # The first edition: 8 tiles, no Jeweller, one Architect.
    first = _stone_tiles(Game.new(variant("first_edition"), players=3, seed=0))
    assert sum(first.values()) == 8 and "jeweller" not in first and first["architect"] == 1
    # The rulebook in ../shared/rules: "9 stone tiles", a Jeweller and one Architect.
    book = _stone_tiles(Game.new(variant("one_architect"), players=3, seed=0))
    assert sum(book.values()) == 9 and book["jeweller"] == 1 and book["architect"] == 1
    assert set(book) == set(STONE)


def test_one_architect_the_second_cannot_be_built():
    g = Game.new(variant("one_architect"), players=3, seed=0)
    empty_road_after_neutrals(g)
    g.put_tile("mason", 9, RED)
    g.s.counters["provost"] = 9
    occupy(g, g.s.road[9], RED)
    give(g, RED, stone=2, food=2, cloth=1)
    g.start_phase("activation")
    assert "build:architect" in g.legal_options() and "build:jeweller" in g.legal_options()
    choose(g, "build:architect")
    assert g.s.supply.get("architect", 0) == 0


def test_one_architect_is_listed_and_plays_to_the_end(capsys):
    from provost.tools.cli import main
    assert main(["variants", "caylus"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if "one_architect" in x)
    assert "9 stone buildings" in line
    g = Game.new(variant("one_architect"), players=4, seed=5)
    while not g.finished:
        g.apply(g.legal_options()[0])
    assert len(g.scores()) == 4


def test_the_diff_of_a_printing_says_how_many_tiles(capsys):
    from provost.tools.cli import main
    assert main(["diff", "caylus", "one_architect"]) == 0
    out = capsys.readouterr().out
    # the changed rule line by line: the base's line removed, the variant's added
    assert "- Architect (stone building): costs 1 stone, 1 food, worth 6 prestige, 2 tiles\n" in out
    assert "+ Architect (stone building): costs 1 stone, 1 food, worth 6 prestige\n" in out
