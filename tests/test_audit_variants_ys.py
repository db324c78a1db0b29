"""The Ys variants, sentence by sentence: the 3- and 2-player games, King's Favor and Ys Express.

Line numbers refer to ../shared/rules/ys_rulebook_en.txt ("EN"); a test that pins a decision the
rulebook leaves open names the `assumption:` comment of the overlay file.  With 2 players seat 2
is the neutral player.  Positions are set up by editing the state, as the other Ys tests do.
"""
from __future__ import annotations

import random
from collections import Counter

import pytest

from provost.dsl.loader import load_checked
from provost.interpreter.engine import Game

from test_ys_examples import piece, ys_variant
from test_ys_rules_more import COLORS, NEUTRAL, bank, two_player_counting


def final_account(g: Game, held: dict, quotation=(7, 7, 7, 7)) -> list:
    """Run only the end of the game's account on ``g``, each seat holding ``held`` {(seat, gem): n}."""
    for p in range(g.s.players):
        for c in COLORS + ("black", "vp"):
            g.s.counters[c][p] = 0
    for (p, c), n in held.items():
        g.s.counters[c][p] = n
    g.s.counters["quotation"] = list(quotation)
    g.s.stack = [[g.prog.root_id, 3, {"player": None}, None]]     # the final account
    g.s.pending = None
    g._run()
    assert g.finished
    return g.scores()


def market_of(variant: str, players: int, ship: str) -> tuple:
    """The turn's set-up run again with ``ship`` drawn after the ports' cards: the game, whose market
    ``ship`` filled, and the gems of each colour the market took from the bank."""
    g = Game.new(load_checked("ys", variant, players=players), players=players, seed=0)
    g.s.zones["ship_deck"].remove(ship)
    g.s.zones["ship_deck"].insert(len(g.s.zones["port"]), ship)
    before = {c: bank(g, c) for c in COLORS}
    g.start_phase("reveal")
    return g, {c: before[c] - bank(g, c) for c in COLORS}


# ------------------------------------------------------------------ 3 players
def test_three_players_the_market_takes_the_two_small_gems_on_lines_2_and_3():
    # EN 360: "To fill the market, you only use the two smaller gems on the 'Ship' card.  These
    # gems are placed on lines 2 and 3."  s05 is blue (large), yellow, red: blue stays in the bank.
    g, taken = market_of("three_players", 3, "s05")
    assert g.s.zones["line_gem"] == {"line2": ["yellow"], "line3": ["red"]}
    assert taken == {"blue": 0, "green": 0, "yellow": 1, "red": 1}


def test_three_players_a_white_small_gem_goes_on_line_2():
    # assumption (ys.three_players.rules): "a white small gem goes on line 2, as it goes on the
    # first line in use with 4 players" (EN 127 puts it on line 1 with 4).  s02: blue, green, white.
    g, taken = market_of("three_players", 3, "s02")
    assert g.s.zones["line_gem"] == {"line2": ["white"], "line3": ["green"]}
    assert taken == {"blue": 0, "green": 1, "yellow": 0, "red": 0}


# ------------------------------------------------------------------ 2 players: the neutral player
def test_two_players_each_places_the_four_neutral_brokers_one_a_placing_turn():
    # EN 366-368: each player takes "four brokers ('4', '2', '1' and '0') belonging to a third
    # color" and "places their two brokers as usual ... plus one neutral broker facedown".
    g = Game.new(ys_variant("two_players"), players=2, seed=6)
    r = random.Random(6)
    while g.s.phase != "placement":
        g.apply(r.choice(g.legal_options()))
    placed_by = Counter()
    while g.s.phase == "placement":
        if g.prompt() == "Place a neutral broker, face down":
            seat = g.current_player()
            placed_by[seat] += 1
            hand = g.s.zones["neutral_hand"][seat]
            assert len(hand) == 5 - placed_by[seat]                               # one less each time
            assert sorted(int(o.split(":")[1]) for o in g.legal_options()) == sorted(set(hand))
        where = g.prompt() == "Choose where the neutral broker goes"
        g.apply(r.choice(g.legal_options()))
        if where and g.s.phase == "placement":                  # it lies face down until the count
            assert all(pc[4] == 0 for pc in g.s.pieces if pc[1] == NEUTRAL and pc[3] != "screen")
    assert placed_by == {0: 4, 1: 4}
    neutral_on_board = [pc for pc in g.s.pieces if pc[1] == NEUTRAL and pc[3] != "screen"]
    assert sorted(pc[2] for pc in neutral_on_board) == [0, 0, 1, 1, 2, 2, 4, 4]
    assert g.s.zones["neutral_hand"] == [[], [], []]


def test_two_players_a_neutral_broker_on_the_market_scores_for_the_neutral_player():
    # EN 172: a broker placed in the market scores 1 VP; assumption (ys.two_players.rules): "a
    # neutral broker placed on the market scores its VP for the neutral player", not the placer.
    g = Game.new(ys_variant("two_players"), players=2, seed=5)
    r = random.Random(5)
    while g.prompt() != "Place a neutral broker, face down":
        g.apply(r.choice(g.legal_options()))
    seat = g.current_player()
    mine, neutral = g.s.counters["vp"][seat], g.s.counters["vp"][NEUTRAL]
    g.apply(g.legal_options()[0])
    target = next(o for o in g.legal_options() if o.startswith("at:m_") and o.endswith("_2"))
    g.apply(target)
    assert g.s.counters["vp"][NEUTRAL] == neutral + 1
    assert g.s.counters["vp"][seat] == mine


def test_two_players_a_draw_for_a_colour_with_the_neutral_player_is_shared_at_the_end():
    # EN 268: "If several players are tied, they all win the number of points corresponding to the
    # lowest place they occupy."  EN 372's "The neutral player wins all the ties" is one of the
    # modifications for the counting phase; assumption (ys.two_players.rules): at the end of the
    # game a draw with the neutral player is shared like any other.  Blue is the strongest colour
    # (24/18/12): seat 0 and the neutral hold 2 each, seat 1 holds 1.
    g = Game.new(ys_variant("two_players"), players=2, seed=0)
    scores = final_account(g, {(0, "blue"): 2, (NEUTRAL, "blue"): 2, (1, "blue"): 1}, (9, 7, 7, 7))
    # Blue: 18, 12, 18; the other colours: the neutral, without a gem, scores third (EN 380).
    assert scores == [18, 12, 18 + 10 + 8 + 6]


def test_two_players_the_neutral_player_scores_but_never_wins():
    # assumption (ys.two_players.rules): the neutral player's score is reported, the better of
    # the two players wins.
    g = Game.new(ys_variant("two_players"), players=2, seed=0)
    scores = final_account(g, {(0, "blue"): 1, (1, "green"): 2, (NEUTRAL, "black"): 7}, (9, 8, 7, 7))
    assert scores[NEUTRAL] > max(scores[:2])
    assert g.winners() == [0] and g.result()["neutral_scores"] == [scores[NEUTRAL]]


@pytest.mark.parametrize("variant,values", [("two_players", [0, 0, 1, 1, 2, 2, 4, 4]),
                                            ("strong_neutral", [0, 0, 1, 1, 3, 3, 4, 4])])
def test_the_neutral_level_is_the_value_of_the_neutral_brokers(variant, values):
    # EN 366: neutral brokers '4', '2', '1' and '0'; EN 382: skilled players "can raise the neutral
    # player's 'level' by changing the value of the neutral brokers each of them places, to 4, 3,
    # 1 and 0".  A whole turn: the brokers placed for the neutral player are these, twice.
    g = Game.new(load_checked("ys", variant, players=2), players=2, seed=8)
    r = random.Random(8)
    while g.s.phase != "counting":
        g.apply(r.choice(g.legal_options()))
    assert sorted(pc[2] for pc in g.s.pieces if pc[1] == NEUTRAL and pc[3] != "screen") == values


def test_two_players_a_neutral_broker_counts_its_value_in_the_city():
    # EN 368: a neutral broker's value counts once revealed: a neutral '4' against seat 0's '3' in
    # a port area, and the neutral player takes the black gem.
    g = two_player_counting([piece(NEUTRAL, 4, "n1_port"), piece(0, 3, "n1_port")])
    assert g.s.counters["black"][NEUTRAL] == 1 and g.s.counters["black"][0] == 0


# ------------------------------------------------------------------ Ys Express
def test_express_four_turns_use_every_ship_card_left():
    # EN 409: "Also remove 'Ship' cards with a white gem": 20 cards, five a turn (four ports and
    # the market) for four turns.
    g = Game.new(ys_variant("express"), players=4, seed=9)
    assert len(g.s.zones["ship_deck"]) + 5 == 20
    r = random.Random(9)
    while not g.finished:
        g.apply(r.choice(g.legal_options()))
    assert g.s.zones["ship_deck"] == [] and g.s.round == 4


# ------------------------------------------------------------------ the King's Favor
def test_kings_favor_the_throne_counts_after_the_black_gems_and_decides_the_winner():
    # EN 405: "The player with the most points once black and colored gems and the King's favor
    # have been counted up wins the game."  Seat 1 has 4 black gems (12 VP) but seat 0's throne
    # (12 VP) with 1 blue gem (24 VP) wins; seat 2 and seat 3 share third place: (3 + 0) // 2.
    g = Game.new(ys_variant("kings_favor"), players=4, seed=0)
    g.s.pieces = [piece(0, 4, "throne"), piece(1, 3, "throne"), piece(2, 1, "throne"), piece(3, 1, "throne")]
    scores = final_account(g, {(0, "blue"): 1, (1, "black"): 4}, (9, 7, 7, 7))
    assert scores == [24 + 12, 12 + 7, 1, 1]
    assert g.winners() == [0]



def test_kings_favor_a_mercenary_broker_swapped_into_the_throne_counts_its_own_value():
    # EN 340, Mercenary: "In the next counting phase, this broker will have a value of five.  The
    # effect ceases right after the counting phase, and the broker recovers its former value."
    # EN 396: the Magician may swap with the throne room.  Seat 0 marks its '3' and swaps it with
    # its '0' in the throne: at the final account the '3' counts 3, not 5.
    from test_ys_characters import place_two
    from test_ys_rules_more import kings_favor_placement
    g = kings_favor_placement({0: ["mercenary", "magician"]})
    place_two(g, "broker:screen:4:up", "n1_port", "broker:screen:3", "n2_port")
    g.apply("play:mercenary")
    g.apply("hire:n2_port:3")
    g.apply("play:magician")
    g.apply("swap:n2_port:throne:3:0")
    assert sorted(pc[2] for pc in g.s.pieces if pc[1] == 0 and pc[3] == "throne") == [3]
    # The final account, with only these throne brokers: seat 0's 3 against the others' 1 and a 4.
    g.s.pieces = [pc for pc in g.s.pieces if pc[3] != "throne" or pc[1] == 0] + [
        piece(1, 4, "throne"), piece(2, 1, "throne"), piece(3, 1, "throne")]
    scores = final_account(g, {})
    assert scores == [7, 12, 1, 1]              # seat 1's 4 first, seat 0's 3 second, 1 and 1 share third


def test_two_players_the_mercenary_marks_one_of_the_players_own_two_brokers():
    # EN 340: "The player puts a marker ... on one of the brokers they have just placed"; EN 368:
    # the neutral broker is placed "plus" the two, and "no player can check its value".
    # assumption (ys.two_players.rules): the card comes after the neutral broker and marks one of
    # the player's own two.
    g = Game.new(ys_variant("two_players"), players=2, seed=0)
    g.s.orders["turn_order"] = [0, 1]
    g.s.zones["hand"][0] = ["mercenary"]
    g.start_phase("placement")
    for option in ("broker:screen:4:up", "at:n1_port", "broker:screen:3", "at:n2_port", "neutral:4", "at:n3_port"):
        g.apply(option)
    g.apply("play:mercenary")
    assert g.legal_options() == ["hire:n1_port:4", "hire:n2_port:3"]
