"""The Ys rulebook's worked examples and rules, played through the engine.

Seats stand for the rulebook's colours: BLUE 0, ORANGE 1, PURPLE 2, YELLOW 3.
Sections refer to ../shared/rules/ys_rulebook_en.txt.

- Phase 4 example, neighborhood: Blue 4+3+2 = 9, Yellow 8, Purple 6,
  Orange 5: Blue takes two gems (blue and red), Yellow one (blue), Purple
  the last (green), Orange nothing.  Port area: Yellow's '4' takes the black
  gem.  Commercial area: Yellow and Orange tie 4-4, Yellow's 6 in front of
  the screen beats Orange's 5: Yellow scores 3.  Palace: Blue's '4' takes
  the character.
- Phase 4 example, market: line 1 Blue 3+1 = Orange 4, fronts 5 = 5, Orange
  holds order card 1 and takes the white gem as green; line 2 Yellow 3 beats
  Orange's 0; line 3 Purple's 1 takes red.  Columns: blue, red and green tie
  at 4; blue and red have three brokers, green one; Purple (best front)
  chooses blue: blue +2, red +1, green -1, yellow -2.  Highest bidder: Orange
  and Blue both 4 in the market and 5 in front; Orange's order card wins and
  Orange moves green up one.
- End of the game example: blue and red top the scale, blue leftmost: blue
  scores 24/18/12/6, red 20/15/10/5; A 6 blue gems, B and C 5, D 3: A 24,
  B and C 12 (the lowest of their places), D 6.  Black gems table.
- Rules: a lone '0' broker wins its area; one broker per market square;
  1 VP per market placement; bids are secret until revealed together;
  observations never show hidden brokers, screens or decks.
"""
from __future__ import annotations

import functools
import json
import random

import pytest

from provost.dsl.loader import load_checked
from provost.interpreter.engine import Game

BLUE, ORANGE, PURPLE, YELLOW = range(4)


@functools.cache
def ys():
    return load_checked("ys")


def piece(owner, value, where, up=0):
    return ["broker", owner, value, where, up, 0, 0]   # kind, owner, value, where, face up, seen by, placed


def set_line_gems(g, gems):
    """Put ``gems`` ({line: [gem]}) on the market lines as a turn's set-up does: the gems there go
    back to the bank and the new ones leave it (white gems are not counted)."""
    kinds, bank = g.prog.enums["gem_kinds"], g.s.counters["bank"]
    for sign, lines in ((1, g.s.zones["line_gem"]), (-1, gems)):
        for gem in (gem for on_line in lines.values() for gem in on_line if gem != "white"):
            bank[kinds.index(gem)] += sign
    g.s.zones["line_gem"] = {line: list(on_line) for line, on_line in gems.items()}


def counting_position():
    g = Game.new(ys(), players=4, seed=0)
    s = g.s
    s.orders["turn_order"] = [ORANGE, BLUE, PURPLE, YELLOW]
    for p in range(4):
        s.counters["order_card"][p] = s.orders["turn_order"].index(p) + 1
        for c in ("blue", "green", "yellow", "red", "black", "vp"):
            s.counters[c][p] = 0
    s.pieces = [
        # Neighborhood 1
        piece(YELLOW, 4, "n1_port"), piece(BLUE, 3, "n1_port"), piece(PURPLE, 3, "n1_port"),
        piece(YELLOW, 4, "n1_commerce"), piece(ORANGE, 4, "n1_commerce"), piece(PURPLE, 3, "n1_commerce"),
        piece(BLUE, 2, "n1_commerce"),
        piece(BLUE, 4, "n1_palace"), piece(ORANGE, 1, "n1_palace"),
        # The market
        piece(BLUE, 3, "m_blue_1"), piece(BLUE, 1, "m_red_1"), piece(ORANGE, 4, "m_green_1"),
        piece(ORANGE, 0, "m_blue_2"), piece(YELLOW, 3, "m_red_2"),
        piece(PURPLE, 1, "m_blue_3"), piece(BLUE, 0, "m_red_3"),
        # In front of the screens
        piece(YELLOW, 3, "front", 1), piece(YELLOW, 2, "front", 1), piece(YELLOW, 1, "front", 1),
        piece(ORANGE, 4, "front", 1), piece(ORANGE, 1, "front", 1), piece(ORANGE, 0, "front", 1),
        piece(BLUE, 1, "front", 1), piece(BLUE, 0, "front", 1), piece(BLUE, 4, "front", 1),
        piece(PURPLE, 4, "front", 1), piece(PURPLE, 4, "front", 1), piece(PURPLE, 0, "front", 1),
    ]
    for n in ("n1", "n2", "n3", "n4"):
        s.zones["port"][n] = []
        s.zones["character_shown"][n] = []
    s.zones["port"]["n1"] = ["blue", "blue", "red", "green"]
    s.zones["character_shown"]["n1"] = ["merchant"]
    set_line_gems(g, {"line1": ["white"], "line2": ["yellow"], "line3": ["red"]})
    s.counters["quotation"] = [7, 7, 7, 7]
    return g


def test_neighborhood_and_market_counting_example():
    g = counting_position()
    g.start_phase("counting")
    c = g.s.counters
    # Blue, first with 9, takes two gems: blue and red.
    assert g.current_player() == BLUE and set(g.legal_options()) == {"gem:blue", "gem:red", "gem:green"}
    g.apply("gem:blue")
    g.apply("gem:red")
    # Yellow, second with 8, takes the other blue gem; Purple the green one; Orange nothing.
    assert g.current_player() == YELLOW and set(g.legal_options()) == {"gem:blue", "gem:green"}
    g.apply("gem:blue")
    assert [c["blue"][BLUE], c["red"][BLUE], c["blue"][YELLOW], c["green"][PURPLE]] == [1, 1, 1, 1]
    assert c["blue"][ORANGE] + c["green"][ORANGE] + c["red"][ORANGE] == 0
    # Port area: Yellow's black gem; commercial area: Yellow beats Orange on the front brokers.
    assert c["black"][YELLOW] == 1
    assert c["vp"][YELLOW] == 3                 # the shop's 3 (market VPs came at placement)
    assert c["vp"][ORANGE] == 0
    # Palace: Blue takes the character.
    assert "merchant" in g.s.zones["hand"][BLUE]
    # Market line 1: Orange wins the tie on the order card and turns the white gem into green.
    assert g.current_player() == ORANGE and g.prompt().startswith("The white gem")
    g.apply("color:green")
    assert c["green"][ORANGE] == 1
    assert c["yellow"][YELLOW] == 1          # line 2
    assert c["red"][PURPLE] == 1             # line 3
    # Columns: blue, red and green tie at 4; blue and red have more brokers; Purple chooses.
    assert g.current_player() == PURPLE and set(g.legal_options()) == {"column:blue", "column:red"}
    g.apply("column:blue")
    # Highest bidder: Orange, on the order card; green up one.
    assert g.current_player() == ORANGE and g.prompt().startswith("Move one gem")
    g.apply("move:green:1")
    assert c["quotation"] == [9, 7, 5, 8]    # blue +2, green -1 +1, yellow -2, red +1


def test_lone_zero_broker_wins_its_area():
    g = counting_position()
    g.s.pieces = [piece(ORANGE, 0, "n2_port")] + [p for p in g.s.pieces if not p[3].startswith("n1")]
    g.s.zones["port"]["n2"] = ["red", "red", "blue", "green"]
    g.start_phase("counting")
    assert g.current_player() == ORANGE and g.prompt() == "Take a gem from the port"
    g.apply("gem:red")
    g.apply("gem:blue")
    assert g.s.counters["black"][ORANGE] == 1      # the port area's black gem too


def _final_position(holdings, quotation, black=(0, 0, 0, 0)):
    g = Game.new(ys(), players=4, seed=0)
    for p in range(4):
        g.s.counters["vp"][p] = 0
        for i, color in enumerate(("blue", "green", "yellow", "red")):
            g.s.counters[color][p] = holdings[p][i]
        g.s.counters["black"][p] = black[p]
    g.s.counters["quotation"] = list(quotation)
    g.s.stack = [[g.prog.root_id, 3, {"player": None}, None]]
    g.s.pending = None
    g._run()
    return g


def test_final_scoring_ties_take_the_lowest_place():
    # Blue gems top the scale: A 6, B and C 5, D 3 -> 24, 12, 12, 6.
    g = _final_position([[6, 0, 0, 0], [5, 0, 0, 0], [5, 0, 0, 0], [3, 0, 0, 0]], [10, 5, 6, 4])
    assert g.finished and g.scores() == [24, 12, 12, 6]


def test_final_scoring_equal_quotations_leftmost_first():
    # Blue and red top the scale: blue (leftmost) scores 24..., red 20...; yellow 16..., green 12...
    g = _final_position([[1, 0, 0, 0], [0, 0, 0, 1], [0, 0, 1, 0], [0, 1, 0, 0]], [9, 3, 5, 9])
    assert g.scores() == [24, 20, 16, 12]


def test_black_gems_table():
    g = _final_position([[0] * 4] * 4, [7, 7, 7, 7], black=(1, 3, 7, 9))
    assert g.scores() == [1, 8, 24, 24]


def test_draw_goes_to_the_most_gems():
    g = _final_position([[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]], [7, 7, 7, 7], black=(0, 2, 0, 0))
    # 24 for A's blue gem vs 4 for B's two black gems: no draw; make one:
    g2 = _final_position([[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]], [7, 7, 7, 7], black=(1, 1, 0, 0))
    assert g2.scores()[:2] == [1, 1] and g2.winners() == [0, 1]
    assert g.winners() == [0]


def _play_to_placement(seed=3):
    g = Game.new(ys(), players=4, seed=seed)
    r = random.Random(seed)
    while g.s.phase != "placement":
        g.apply(r.choice(g.legal_options()))
    return g, r


def test_market_square_holds_one_broker_and_pays_one_vp():
    g, r = _play_to_placement()
    p = g.current_player()
    vp = g.s.counters["vp"][p]
    while not g.prompt().startswith("Choose where"):
        g.apply(g.legal_options()[0])
    market = [o for o in g.legal_options() if ":m_" in o]
    g.apply(market[0])
    assert g.s.counters["vp"][p] == vp + 1
    square = market[0].rsplit(":", 1)[1]
    while not g.prompt().startswith("Choose where"):
        g.apply(g.legal_options()[0])
    assert not any(o.endswith(":" + square) for o in g.legal_options())


def test_bids_are_secret_until_revealed():
    g = Game.new(ys(), players=4, seed=11)
    first = g.current_player()
    g.apply(g.legal_options()[-1])             # the first bidder's two brokers
    second = g.current_player()
    obs = g.observation(second)
    text = json.dumps(obs)
    assert "bid" not in [pc[3] for pc in obs["pieces"] if pc[1] == first]
    assert obs["private_piece_counts"]["broker:%d:bid" % first] == 2
    assert '"ship_deck": [' not in text            # the deck shows only its size


def test_observations_never_leak_hidden_values():
    for seed in range(3):
        g = Game.new(ys(), players=4, seed=seed)
        r = random.Random(seed)
        while not g.finished:
            for viewer in range(4):
                obs = g.observation(viewer)
                shown = {(pc[1], pc[3], pc[2]) for pc in g.s.pieces if (pc[5] >> viewer) & 1}   # the Spy's looks
                for kind, owner, value, where, up in obs["pieces"]:
                    if owner != viewer and not up and value is not None:
                        assert (owner, where, value) in shown, (seed, viewer, owner, where)
                for name in ("ship_deck", "character_deck", "character_pool"):
                    z = obs["zones"][name]
                    assert isinstance(z, (int, dict)) and all(isinstance(v, int) for v in (z.values() if isinstance(z, dict) else [z]))
                for p, hand in enumerate(obs["zones"]["hand"]):
                    if p != viewer:
                        assert isinstance(hand, int)
            g.apply(r.choice(g.legal_options()))


def test_gems_are_conserved():
    totals = {"blue": 30, "green": 30, "yellow": 30, "red": 30, "black": 20}
    for seed in range(5):
        g = Game.new(ys(), players=4, seed=seed)
        r = random.Random(seed)
        while not g.finished:
            g.apply(r.choice(g.legal_options()))
            kinds = g.prog.enums["gem_kinds"]
            on_market = [gem for on_line in g.s.zones["line_gem"].values() for gem in on_line]
            for i, k in enumerate(kinds):
                if k in totals:
                    assert sum(g.s.counters[k]) + g.s.counters["bank"][i] + on_market.count(k) == totals[k]


# ------------------------------------------------------------------ variants
@functools.cache
def ys_variant(name):
    return load_checked("ys", name)


def test_kings_favor_throne_shares_split_and_round_down():
    g = Game.new(ys_variant("kings_favor"), players=4, seed=0)
    for p in range(4):
        g.s.counters["vp"][p] = 0
        for color in ("blue", "green", "yellow", "red", "black"):
            g.s.counters[color][p] = 0
    g.s.pieces = [piece(0, 4, "throne"), piece(1, 4, "throne"), piece(2, 3, "throne"), piece(3, 0, "throne")]
    g.s.stack = [[g.prog.root_id, 3, {"player": None}, None]]
    g.s.pending = None
    g._run()
    # Two players share first place: (12 + 7) // 2 = 9 each; the third scores 3, the last 0.
    assert g.scores() == [9, 9, 3, 0]


def test_kings_favor_sends_a_front_broker_to_the_throne_each_turn():
    g = Game.new(ys_variant("kings_favor"), players=4, seed=2)
    r = random.Random(2)
    while g.s.round == 1 or g.s.phase != "reveal" and g.s.round < 2:
        g.apply(r.choice(g.legal_options()))
    for p in range(4):
        mine = [pc for pc in g.s.pieces if pc[1] == p]
        assert sum(1 for pc in mine if pc[3] == "throne") == 1
        assert sum(1 for pc in mine if pc[3] == "reserve") == 2
        assert sum(1 for pc in mine if pc[3] == "screen") == 11


def test_express_has_nine_brokers_and_three_placement_rounds():
    g = Game.new(ys_variant("express"), players=4, seed=1)
    assert sorted(pc[2] for pc in g.s.pieces if pc[1] == 0) == [0, 0, 1, 1, 2, 3, 3, 4, 4]
    r = random.Random(1)
    while g.s.phase != "counting":
        g.apply(r.choice(g.legal_options()))
    on_board = [pc for pc in g.s.pieces if pc[1] == 0 and pc[3] not in ("screen", "front")]
    assert len(on_board) == 6                      # three rounds of two
    assert not any(w in g.s.zones["ship_deck"] for w in ("s02", "s08", "s14", "s20"))


def test_three_players_ports_hold_three_gems_and_line_one_is_closed():
    g = Game.new(ys_variant("three_players"), players=3, seed=4)
    assert all(len(g.s.zones["port"][n]) == 3 for n in ("n1", "n2", "n3", "n4"))
    assert set(g.s.zones["line_gem"]) == {"line2", "line3"}
    r = random.Random(4)
    while not g.prompt().startswith("Choose where"):
        g.apply(r.choice(g.legal_options()))
    assert not any(o.endswith("_1") for o in g.legal_options())


@pytest.mark.parametrize("variant", ["kings_favor", "express", "kings_favor+express"])
def test_three_player_variants_keep_the_three_player_rules(variant):
    # King's Favor and Ys Express are "for three or four players": with three, the 3-player
    # rules hold (three gems a port, the first two take 2 and 1, line 1 closed).
    g = Game.new(load_checked("ys", variant, players=3), players=3, seed=4)
    assert g.rs.variant == "three_players+" + variant
    assert all(len(g.s.zones["port"][n]) == 3 for n in ("n1", "n2", "n3", "n4"))
    assert set(g.s.zones["line_gem"]) == {"line2", "line3"}
    assert g.prog.let_value("port_takes")(g, {}) == [2, 1, 0]
    assert "m_blue_1" not in g.prog.spaces
    r = random.Random(4)
    while not g.prompt().startswith("Choose where"):
        g.apply(r.choice(g.legal_options()))
    assert not any(o.endswith("_1") for o in g.legal_options())


def test_kings_favor_with_three_adds_the_throne_phase_and_the_reserve():
    g = Game.new(load_checked("ys", "kings_favor", players=3), players=3, seed=2)
    assert "kings_favor" in g.prog.rounds
    assert sorted(pc[2] for pc in g.s.pieces if pc[1] == 0 and pc[3] == "reserve") == [2, 2, 2]
    r = random.Random(2)
    while not g.finished:
        g.apply(r.choice(g.legal_options()))
    assert all(sum(1 for pc in g.s.pieces if pc[1] == p and pc[3] == "throne") == 4 for p in range(3))


def test_express_with_three_has_nine_brokers_and_no_white_ships():
    g = Game.new(load_checked("ys", "express", players=3), players=3, seed=1)
    assert sorted(pc[2] for pc in g.s.pieces if pc[1] == 0) == [0, 0, 1, 1, 2, 3, 3, 4, 4]
    assert not any(w in g.s.zones["ship_deck"] for w in ("s02", "s08", "s14", "s20"))


@pytest.mark.parametrize("variant", ["kings_favor", "express"])
def test_variants_loaded_without_the_three_player_rules_refuse_three_players(variant):
    with pytest.raises(Exception, match="without the rules for 3 players"):
        Game.new(ys_variant(variant), players=3, seed=0)


@pytest.mark.parametrize("variant", ["kings_favor", "express"])
def test_variants_for_three_or_four_refuse_two_players(variant):
    with pytest.raises(Exception, match="no player count suits both"):
        load_checked("ys", variant, players=2)


def test_three_players_short_uses_three_neighborhoods():
    g = Game.new(ys_variant("three_players_short"), players=3, seed=4)
    assert set(g.s.zones["port"]) == {"n1", "n2", "n3"}


def test_two_players_neutral_broker_is_placed_face_down_and_hidden():
    g = Game.new(ys_variant("two_players"), players=2, seed=5)
    assert g.s.players == 3 and g.s.orders["turn_order"] in ([0, 1], [1, 0])
    r = random.Random(5)
    while not g.prompt().startswith("Place a neutral broker"):
        g.apply(r.choice(g.legal_options()))
    g.apply(g.legal_options()[0])
    g.apply(g.legal_options()[0])
    placed = [pc for pc in g.s.pieces if pc[1] == 2 and pc[3] not in ("screen",)]
    assert len(placed) == 1 and placed[0][4] == 0
    for viewer in (0, 1):
        obs = g.observation(viewer)
        assert all(v is None for _, owner, v, where, up in obs["pieces"] if owner == 2 and where != "screen")


def test_two_players_neutral_wins_ties_and_chooses_by_the_rules():
    g = Game.new(ys_variant("two_players"), players=2, seed=0)
    s = g.s
    for p in range(3):
        for c in ("blue", "green", "yellow", "red", "black", "vp"):
            s.counters[c][p] = 0
    s.pieces = [piece(0, 3, "n1_port"), piece(2, 3, "n1_port"), piece(0, 4, "front", 1)]
    for n in ("n1", "n2", "n3"):
        s.zones["port"][n] = []
        s.zones["character_shown"][n] = []
    s.zones["port"]["n1"] = ["green", "red", "white"]
    set_line_gems(g, {"line2": [], "line3": []})
    s.counters["quotation"] = [7, 7, 9, 7]           # yellow is the most valuable colour
    g.start_phase("counting")
    c = s.counters
    # The neutral player wins the 3-3 draw despite Blue's front brokers, and takes
    # the white gem first, as the most valuable colour (yellow), then the best of the rest.
    assert c["yellow"][2] == 1 and c["black"][2] == 1
    assert c["green"][2] + c["red"][2] == 1
    assert c["green"][0] + c["red"][0] == 1           # Blue, second, takes one gem


def _column_draw(front):
    """Two players: the blue and red columns tie (one '2' each); seat 0 and the neutral hold red."""
    g = Game.new(ys_variant("two_players"), players=2, seed=0)
    s = g.s
    for p in range(3):
        for c in ("blue", "green", "yellow", "red", "black", "vp"):
            s.counters[c][p] = 0
    s.counters["red"][2] = 3
    s.pieces = [piece(0, 2, "m_blue_2"), piece(1, 2, "m_red_3")] + front
    for n in ("n1", "n2", "n3"):
        s.zones["port"][n] = []
        s.zones["character_shown"][n] = []
    set_line_gems(g, {"line2": [], "line3": []})
    s.counters["quotation"] = [7, 7, 7, 7]
    g.start_phase("counting")
    return g


def test_two_players_column_draw_is_chosen_by_the_most_before_the_screen():
    # "the player with the highest total before their screen chooses": seat 0 (4 + 4), not the
    # neutral player, which has nothing before a screen.
    g = _column_draw([piece(0, 4, "front", 1), piece(0, 4, "front", 1), piece(1, 0, "front", 1)])
    assert g.current_player() == 0
    assert g.prompt() == "Choose the column that ranks higher"
    assert g.legal_options() == ["column:blue", "column:red"]
    g.apply("column:red")
    assert g.s.zones["column_rank"][:2] == ["red", "blue"]


def test_two_players_neutral_chooses_only_a_draw_it_wins_and_by_its_gems():
    # Nobody has anything before the screen: the neutral wins that draw and ranks red (the
    # colour it holds most) first ("priority is given to the colors it owns in the largest amounts").
    g = _column_draw([])
    assert g.s.zones["column_rank"][:2] == ["red", "blue"]
    assert g.s.counters["quotation"][3] == 7 + 2


def test_two_players_neutral_scores_third_place_without_gems():
    g = Game.new(ys_variant("two_players"), players=2, seed=0)
    for p in range(3):
        g.s.counters["vp"][p] = 0
        for color in ("blue", "green", "yellow", "red", "black"):
            g.s.counters[color][p] = 0
    g.s.counters["blue"][0] = 1
    g.s.counters["quotation"] = [9, 7, 7, 7]
    g.s.stack = [[g.prog.root_id, 3, {"player": None}, None]]
    g.s.pending = None
    g._run()
    # Blue first: 24 for seat 0; the neutral player has no gems: third place of every colour.
    assert g.scores()[0] == 24
    assert g.scores()[2] == 12 + 10 + 8 + 6
