"""Ys rules that had no test yet, each pinned to the rulebook sentence it checks.

Line numbers refer to ../shared/rules/ys_rulebook_en.txt ("EN") and
ys_tiles.md ("tiles").  Seats are the rulebook's colours (tests/test_ys_examples.py):
BLUE 0, ORANGE 1, PURPLE 2, YELLOW 3; with 2 players seat 2 is the neutral player.
"""
from __future__ import annotations

import pytest

from provost.interpreter.engine import Game

from test_ys_characters import FIRST_BROKER, PLAY, place_two
from test_ys_examples import BLUE, ORANGE, PURPLE, YELLOW, counting_position, piece, set_line_gems, ys, ys_variant

COLORS = ("blue", "green", "yellow", "red")
NEUTRAL = 2                      # the neutral player's seat in a 2-player game
COLUMN_CHOICE = "Choose the column that ranks higher"
WHITE_GEM = "The white gem becomes a gem of your choice"
SPY = "Spy: look at a face-down broker?"


def zero_gems(g: Game, seats) -> None:
    for p in seats:
        for c in COLORS + ("black", "vp"):
            g.s.counters[c][p] = 0


def market_position(pieces, quotation=(7, 7, 7, 7)) -> Game:
    """4 players about to count, with only ``pieces`` on the board: empty ports, no
    characters, no gems on the market lines.  Order of play Orange, Blue, Purple, Yellow."""
    g = Game.new(ys(), players=4, seed=0)
    s = g.s
    s.orders["turn_order"] = [ORANGE, BLUE, PURPLE, YELLOW]
    for p in range(4):
        s.counters["order_card"][p] = s.orders["turn_order"].index(p) + 1
    zero_gems(g, range(4))
    s.pieces = list(pieces)
    for n in ("n1", "n2", "n3", "n4"):
        s.zones["port"][n] = []
        s.zones["character_shown"][n] = []
    set_line_gems(g, {"line1": [], "line2": [], "line3": []})
    s.counters["quotation"] = list(quotation)
    return g


def two_player_counting(pieces, card=None, quotation=(7, 7, 7, 7), held=None) -> Game:
    """2 players and the neutral player, counting with only ``pieces`` on the board;
    ``card`` is the character shown in neighborhood 1, ``held`` {(seat, colour): n}."""
    g = Game.new(ys_variant("two_players"), players=2, seed=0)
    s = g.s
    zero_gems(g, range(3))
    for (p, c), n in (held or {}).items():
        s.counters[c][p] = n
    s.pieces = list(pieces)
    for n in ("n1", "n2", "n3"):
        s.zones["port"][n] = []
        s.zones["character_shown"][n] = []
    if card is not None:
        s.zones["character_shown"]["n1"] = [card]
    set_line_gems(g, {"line2": [], "line3": []})
    s.counters["quotation"] = list(quotation)
    g.start_phase("counting")
    return g


def kings_favor_placement(hands: dict) -> Game:
    """King's Favor, 4 players in seat order at the start of placement; each player already has
    one broker face down in the throne room (seat 0 a '0', the others a '1')."""
    g = Game.new(ys_variant("kings_favor"), players=4, seed=0)
    g.s.orders["turn_order"] = [0, 1, 2, 3]
    for p in range(4):
        g.s.counters["order_card"][p] = p + 1
        pc = next(pc for pc in g.s.pieces if pc[1] == p and pc[3] == "screen" and pc[2] == (0 if p == 0 else 1))
        pc[3], pc[4] = "throne", 0
    for p, cards in hands.items():
        g.s.zones["hand"][p] = list(cards)
    g.start_phase("placement")
    return g


def bank(g: Game, kind: str) -> int:
    return g.s.counters["bank"][g.prog.enums["gem_kinds"].index(kind)]


def set_bank(g: Game, kind: str, n: int) -> None:
    g.s.counters["bank"][g.prog.enums["gem_kinds"].index(kind)] = n


# ------------------------------------------------------------------ phase 1: setup of the turn
def test_last_turn_reveals_the_blue_edged_cards():
    # EN 112: "In the last turn, all the yellow-edged cards are exhausted.  At this point, the
    # four blue-edged 'character' cards are put into play."
    g = Game.new(ys(), players=4, seed=0)
    for n in ("n1", "n2", "n3", "n4"):
        g.s.zones["character_deck"][n] = []          # three turns used the three cards of each deck
    g.s.round = 4
    g.start_phase("reveal")
    assert g.s.zones["character_shown"] == {"n1": ["white_1"], "n2": ["white_2"], "n3": ["white_3"],
                                            "n4": ["white_4"]}
    assert g.s.zones["blue_cards"] == []


def test_third_turn_still_reveals_a_yellow_edged_card():
    # EN 110: "Characters: reveal the top card of each of the four decks" (turns 1-3).
    g = Game.new(ys(), players=4, seed=0)
    tops = {n: g.s.zones["character_deck"][n][0] for n in ("n1", "n2", "n3", "n4")}
    g.s.round = 3
    g.start_phase("reveal")
    assert g.s.zones["character_shown"] == {n: [c] for n, c in tops.items()}
    assert g.s.zones["blue_cards"] == ["white_1", "white_2", "white_3", "white_4"]


def test_blue_edged_card_is_exchanged_for_a_gem_at_once():
    # EN 112: "The players who obtain the majority in the four palaces will take these cards and
    # exchange them immediately with a blue, red, green or yellow gem taken from the bank."
    # EN 350: "... even if the player has already played two or more cards during the turn."
    g = counting_position()                        # Blue's '4' wins the palace of neighborhood 1
    g.s.zones["character_shown"]["n1"] = ["white_2"]
    g.s.counters["cards_played"][BLUE] = 2
    g.s.counters["quotation"] = [7, 8, 9, 6]
    g.start_phase("counting")
    g.apply("gem:blue")                            # Blue's two port gems,
    g.apply("gem:red")
    g.apply("gem:blue")                            # Yellow's (Purple's green is forced)
    assert g.current_player() == BLUE and g.prompt() == WHITE_GEM
    # The colours, most valuable first: yellow 9, green 8, blue 7, red 6.
    assert g.legal_options() == ["color:yellow", "color:green", "color:blue", "color:red"]
    g.apply("color:green")
    assert g.s.counters["green"][BLUE] == 1
    assert g.s.zones["hand"][BLUE] == []
    assert bank(g, "green") == 30 - 2              # Purple's port gem and Blue's


def test_white_gem_always_goes_on_market_line_one():
    # EN 129: "If there is a white gem on the card, place it on line 1.  The order of the other
    # gems is of no importance."  EN 134: "You have put one on line 1.  The other two stones are
    # placed on lines 2 and 3."  The fifth card drawn fills the market (EN 127); s02 shows
    # blue (large), green and white.
    g = Game.new(ys(), players=4, seed=0)
    g.s.zones["ship_deck"] = ["s01", "s03", "s05", "s07", "s02", "s09"]
    g.start_phase("reveal")
    assert g.s.zones["port_card"] == {"n1": ["s01"], "n2": ["s03"], "n3": ["s05"], "n4": ["s07"]}
    assert g.s.zones["line_gem"] == {"line1": ["white"], "line2": ["blue"], "line3": ["green"]}
    assert g.s.zones["ship_deck"] == ["s09"]


def test_the_market_gems_leave_the_bank_when_the_market_is_filled():
    # EN 127: "Draw a fifth 'Ship' card and take the three colors shown on the card from the
    # bank.  Place the corresponding gems on squares 1, 2 and 3 of the market."  s01 shows blue
    # (large), green and yellow; the bank has no yellow left, so line 3 stays empty.
    g = Game.new(ys(), players=4, seed=0)
    set_line_gems(g, {"line1": [], "line2": [], "line3": []})
    g.s.zones["ship_deck"] = ["s03", "s05", "s07", "s09", "s01", "s11"]
    set_bank(g, "yellow", 0)
    g.start_phase("reveal")
    assert g.s.zones["line_gem"] == {"line1": ["blue"], "line2": ["green"], "line3": []}
    assert [bank(g, k) for k in COLORS] == [29, 29, 0, 30]


def test_a_line_gem_nobody_wins_goes_back_to_the_bank():
    # assumption in rulesets/ys.rules: the rulebook refills the squares each turn and says nothing
    # of a gem left on a line without brokers.  Only line 2 has a broker: its gem goes to Orange,
    # the gems of lines 1 and 3 go back to the bank.
    g = market_position([piece(ORANGE, 1, "m_blue_2")])
    set_line_gems(g, {"line1": ["red"], "line2": ["green"], "line3": ["blue"]})
    assert [bank(g, k) for k in COLORS] == [29, 29, 30, 29]
    g.start_phase("counting")
    assert g.s.counters["green"][ORANGE] == 1
    assert [bank(g, k) for k in COLORS] == [30, 29, 30, 30]
    assert g.s.zones["line_gem"] == {"line1": [], "line2": [], "line3": []}


# ------------------------------------------------------------------ phase 2: turn order
def test_bid_draw_lowest_order_card_chooses_first_and_order_cards_follow_the_places():
    # EN 146: "The player who owns the card with the lowest value chooses first."
    # EN 148: "The winner of the auction chooses and announces his/her order of play ... The
    # other players, following the order determined through the auction (and thanks to the
    # 'order' cards, in case of draw), choose their order of play."
    # EN 150: "The player who has chosen the first place takes card 1, and so on..."
    g = Game.new(ys(), players=4, seed=0)
    g.s.orders["turn_order"] = [BLUE, ORANGE, PURPLE, YELLOW]
    g.s.counters["order_card"] = [3, 2, 4, 1]      # Blue 3, Orange 2, Purple 4, Yellow 1
    g.start_phase("bidding")
    for bid in ("bid:3+4", "bid:3+4", "bid:0+0", "bid:4+4"):   # Blue 7, Orange 7, Purple 0, Yellow 8
        g.apply(bid)
    # Yellow (8) first, then the 7-7 draw: Orange's card 2 before Blue's card 3, then Purple.
    assert g.current_player() == YELLOW
    assert g.legal_options() == ["place:1", "place:2", "place:3", "place:4"]
    g.apply("place:4")
    assert g.current_player() == ORANGE and g.legal_options() == ["place:1", "place:2", "place:3"]
    g.apply("place:1")
    assert g.current_player() == BLUE and g.legal_options() == ["place:2", "place:3"]
    g.apply("place:3")
    # Purple's last place is forced; placement begins with Orange.
    assert g.s.orders["turn_order"] == [ORANGE, PURPLE, BLUE, YELLOW]
    assert g.s.counters["order_card"] == [3, 1, 2, 4]
    assert g.s.phase == "placement" and g.current_player() == ORANGE and g.prompt() == FIRST_BROKER


# ------------------------------------------------------------------ phase 4: the market
def test_column_with_only_a_zero_broker_beats_an_empty_column():
    # EN 216: "A column with a '0' broker is stronger than a column with no broker."
    # Blue 3 (blue column), Purple 1 (red column), Orange's lone '0' (green column), yellow empty.
    g = market_position([piece(BLUE, 3, "m_blue_1"), piece(PURPLE, 1, "m_red_3"), piece(ORANGE, 0, "m_green_2")])
    g.start_phase("counting")
    # No draw to settle: the ranking is blue, red, green, yellow; Blue (3) is the highest bidder.
    assert g.s.zones["column_rank"] == ["blue", "red", "green", "yellow"]
    assert g.s.counters["quotation"] == [7 + 2, 7 - 1, 7 - 2, 7 + 1]
    assert g.current_player() == BLUE and g.prompt() == "Move one gem's quotation one step"


def test_intriguer_chooses_among_the_tied_columns():
    # EN 324: "This rule does not apply to the columns in the market.  However, if players
    # cannot determine in the usual ways (the column with the largest number of brokers) which
    # column is the strongest, the player who has played the intriguer chooses."
    # In the rulebook's counting example Purple (best front) chooses between the blue and red
    # columns; with the Intriguer played, Orange chooses.
    g = counting_position()
    g.s.zones["hand"][ORANGE] = ["intriguer"]
    g.start_phase("counting")
    assert g.current_player() == ORANGE and g.prompt() == PLAY
    g.apply("play:intriguer")
    g.apply("gem:blue")                            # Blue, first in neighborhood 1
    g.apply("gem:red")
    g.apply("gem:blue")                            # Yellow; Purple's green is forced
    assert g.current_player() == ORANGE and g.prompt() == WHITE_GEM     # line 1
    g.apply("color:green")
    assert g.current_player() == ORANGE and g.prompt() == COLUMN_CHOICE
    assert g.legal_options() == ["column:blue", "column:red"]
    g.apply("column:red")
    assert g.s.zones["column_rank"] == ["red", "blue", "green", "yellow"]


def test_quotation_is_clamped_to_the_scale():
    # tiles 38-40: "Quotation scale: 15 steps ... steps 0..14, start at 7, movement clamped at the
    # ends".  EN 208: the highest column "moves up two steps", the last "goes down two steps".
    g = market_position([piece(BLUE, 4, "m_blue_1"), piece(PURPLE, 3, "m_yellow_3"), piece(ORANGE, 1, "m_red_2")],
                        quotation=(14, 0, 7, 7))
    g.start_phase("counting")
    assert g.s.zones["column_rank"] == ["blue", "yellow", "red", "green"]
    assert g.s.counters["quotation"] == [14, 0, 8, 6]      # blue +2 and green -2 stay on the scale
    # EN 212: the highest bidder (Blue, 4) moves one gem a step: blue up stays at 14.
    assert g.current_player() == BLUE
    g.apply("move:blue:1")
    assert g.s.counters["quotation"] == [14, 0, 8, 6]


# ------------------------------------------------------------------ the bank
def test_white_gem_only_becomes_a_colour_left_in_the_bank():
    # EN 100: "a player who wins a white gem chooses immediately a gem of their choice among the
    # colors available in the bank"; tiles 31: "The bank is limited by these counts."
    g = counting_position()
    g.s.zones["port"]["n1"] = ["yellow", "yellow", "red", "red"]     # nothing exhausted in the port
    set_bank(g, "blue", 0)
    set_bank(g, "green", 0)
    g.start_phase("counting")
    g.apply("gem:yellow")                          # Blue
    g.apply("gem:red")
    g.apply("gem:yellow")                          # Yellow; Purple's red is forced
    assert g.current_player() == ORANGE and g.prompt() == WHITE_GEM     # line 1
    assert g.legal_options() == ["color:yellow", "color:red"]
    g.apply("color:red")
    assert g.s.counters["red"][ORANGE] == 1
    assert bank(g, "blue") == 0 and bank(g, "green") == 0


def test_an_exhausted_black_gem_gives_nothing_but_a_line_gem_has_left_the_bank_already():
    # tiles 31: "30 each of blue, green, yellow, red; 20 black; 5 white.  The bank is limited by
    # these counts."  No yellow and no black gem is left in the bank: Yellow wins the port area
    # and receives no black gem; Yellow also wins market line 2, whose yellow gem was taken from
    # the bank when the market was filled (EN 127: "take the three colors shown on the card from
    # the bank"), so Yellow receives it.  The bank never goes below 0.
    g = counting_position()
    set_bank(g, "yellow", 0)
    set_bank(g, "black", 0)
    g.start_phase("counting")
    g.apply("gem:blue")                            # Blue
    g.apply("gem:red")
    g.apply("gem:blue")                            # Yellow; Purple's green is forced
    c = g.s.counters
    assert c["black"][YELLOW] == 0                 # the port area
    assert g.current_player() == ORANGE and g.prompt() == WHITE_GEM     # line 1
    assert g.legal_options() == ["color:blue", "color:green", "color:red"]
    g.apply("color:green")
    assert g.prompt() == COLUMN_CHOICE             # lines 2 and 3 are counted
    assert c["yellow"][YELLOW] == 1                # line 2
    assert c["red"][PURPLE] == 1                   # line 3
    assert bank(g, "yellow") == 0 and bank(g, "black") == 0


def test_port_offers_only_colours_left_in_the_bank():
    # EN 192: the winner "may choose two gems from the bank, among the four gems proposed in the
    # corresponding port"; tiles 31: "The bank is limited by these counts."  A colour the bank
    # has run out of cannot be chosen.
    g = counting_position()                        # neighborhood 1's port: blue, blue, red, green
    set_bank(g, "blue", 0)
    g.start_phase("counting")
    assert g.current_player() == BLUE and g.prompt() == "Take a gem from the port"
    assert g.legal_options() == ["gem:green", "gem:red"]


# ------------------------------------------------------------------ 2 players: the neutral player
def test_two_players_neutral_discards_a_character_for_the_strongest_colour():
    # EN 374: "If the neutral player wins another card, it is discarded and the player
    # immediately gets a gem instead.  When it has to choose a gem color, the neutral player
    # automatically takes the strongest color on the market."
    g = two_player_counting([piece(NEUTRAL, 1, "n1_palace")], card="spy", quotation=(7, 7, 9, 7))
    assert [g.s.counters[c][NEUTRAL] for c in COLORS] == [0, 0, 1, 0]     # yellow, at 9
    assert g.s.zones["hand"] == [[], [], []]
    assert bank(g, "yellow") == 29


def test_two_players_neutral_takes_the_leftmost_of_tied_strongest_colours():
    # EN 374: "If several colors are tied, the leftmost gem is automatically taken (blue, then
    # green, then yellow, then red)."
    g = two_player_counting([piece(NEUTRAL, 1, "n1_palace")], card="spy", quotation=(7, 8, 8, 7))
    assert [g.s.counters[c][NEUTRAL] for c in COLORS] == [0, 1, 0, 0]     # green before yellow
    assert g.s.zones["hand"] == [[], [], []]


def test_two_players_neutral_scores_the_king_and_the_prince():
    # EN 372: "If the neutral player wins the 'Prince' or 'King' cards, points are normally scored."
    for card, points in (("king", 5), ("prince", 4)):
        g = two_player_counting([piece(NEUTRAL, 1, "n1_palace")], card=card)
        assert g.s.counters["vp"][NEUTRAL] == points, card
        assert [g.s.counters[c][NEUTRAL] for c in COLORS] == [0, 0, 0, 0], card


def test_two_players_neutral_highest_bidder_moves_its_most_held_colour_up():
    # EN 378: "If the neutral player has to alter the quotations on the market, priority is given
    # to the colors it owns in the largest amounts."  The neutral (4 on the red column) is the
    # highest bidder against seat 0 (3) and seat 1 (2 + 1); it holds 3 green and 2 yellow gems.
    g = two_player_counting([piece(NEUTRAL, 4, "m_red_3"), piece(0, 3, "m_blue_2"), piece(1, 2, "m_yellow_2"),
                             piece(1, 1, "m_green_3")],
                            held={(NEUTRAL, "green"): 3, (NEUTRAL, "yellow"): 2})
    assert g.s.zones["column_rank"] == ["red", "blue", "yellow", "green"]
    # Columns: red +2, blue +1, yellow -1, green -2; then the neutral's green +1.
    assert g.s.counters["quotation"] == [8, 7 - 2 + 1, 6, 9]
    assert g.s.phase == "bidding"                  # nobody was asked: the rules chose for the neutral


# ------------------------------------------------------------------ the King's Favor
def test_kings_favor_spy_may_look_into_the_throne_room():
    # EN 394: "The player who plays the spy may take a look at brokers hidden in the throne room.
    # The spy's three-brokers limit is still valid."
    g = kings_favor_placement({0: ["spy"]})
    assert g.current_player() == 0 and g.prompt() == PLAY
    g.apply("play:spy")
    place_two(g, "broker:screen:4:up", "n1_port", "broker:screen:3", "n2_port")
    assert g.prompt() == SPY
    assert g.legal_options() == ["done", "look:1+throne+0", "look:2+throne+0", "look:3+throne+0"]
    g.apply("look:1+throne+0")
    assert g.s.counters["spy_peeks"][0] == 2
    assert g.legal_options() == ["done", "look:2+throne+0", "look:3+throne+0"]
    seen_by_0 = {x[1]: x[2] for x in g.observation(0)["pieces"] if x[3] == "throne"}
    seen_by_3 = {x[1]: x[2] for x in g.observation(3)["pieces"] if x[3] == "throne"}
    assert seen_by_0 == {0: 0, 1: 1, 2: None, 3: None}
    assert seen_by_3 == {0: None, 1: None, 2: None, 3: 1}


def test_kings_favor_magician_may_swap_with_the_throne_room():
    # EN 396: "One of the brokers the magician can swap may come from the throne room."
    g = kings_favor_placement({0: ["magician"]})
    place_two(g, "broker:screen:4:up", "n1_port", "broker:screen:3", "n2_port")
    assert g.current_player() == 0 and g.prompt() == PLAY
    g.apply("play:magician")
    assert g.legal_options() == ["keep", "swap:n1_port:n2_port:4:3", "swap:n1_port:throne:4:0",
                                 "swap:n2_port:throne:3:0"]
    g.apply("swap:n2_port:throne:3:0")
    mine = sorted((pc[3], pc[2]) for pc in g.s.pieces if pc[1] == 0 and pc[3] in ("n1_port", "n2_port", "throne"))
    assert mine == [("n1_port", 4), ("n2_port", 0), ("throne", 3)]
    assert [x[2] for x in g.observation(1)["pieces"] if x[1] == 0 and x[3] == "throne"] == [None]


def test_kings_favor_broker_swapped_into_the_throne_room_is_hidden():
    # EN 390: throne brokers lie "face down in the throne room"; EN 398: "brokers hidden in the
    # throne room".  EN 396: "One of the brokers the magician can
    # swap may come from the throne room."
    g = kings_favor_placement({0: ["magician"]})
    place_two(g, "broker:screen:4:up", "n1_port", "broker:screen:3", "n2_port")
    g.apply("play:magician")
    g.apply("swap:n1_port:throne:4:0")           # the face-up '4' goes to the throne room
    assert sorted((pc[3], pc[2]) for pc in g.s.pieces if pc[1] == 0 and pc[3] in ("n1_port", "throne")) == \
        [("n1_port", 0), ("throne", 4)]
    for viewer in (1, 2, 3):
        assert [x[2] for x in g.observation(viewer)["pieces"] if x[1] == 0 and x[3] == "throne"] == [None]


def test_kings_favor_throne_broker_is_hidden_from_the_others():
    # EN 390: "Each player places one of them face down in the throne room ... The two remaining
    # brokers are put back behind the screen.  Finally, each player takes one of their '2'
    # brokers standing next to the board and puts it behind their screen."
    g = Game.new(ys_variant("kings_favor"), players=4, seed=0)
    g.s.orders["turn_order"] = [0, 1, 2, 3]
    for p in range(4):
        for v in (4, 3, 0):
            pc = next(pc for pc in g.s.pieces if pc[1] == p and pc[3] == "screen" and pc[2] == v)
            pc[3], pc[4] = "front", 1
    g.start_phase("kings_favor")
    assert g.current_player() == 0 and g.legal_options() == ["send:0", "send:3", "send:4"]
    g.apply("send:4")
    mine = [pc for pc in g.s.pieces if pc[1] == 0]
    assert [(pc[2], pc[4]) for pc in mine if pc[3] == "throne"] == [(4, 0)]
    assert sum(1 for pc in mine if pc[3] == "screen") == 8 + 2 + 1       # 8 kept, 0 and 3 back, a '2'
    assert sum(1 for pc in mine if pc[3] == "reserve") == 2
    assert [x[2] for x in g.observation(0)["pieces"] if x[1] == 0 and x[3] == "throne"] == [4]
    for viewer in (1, 2, 3):
        assert [x[2] for x in g.observation(viewer)["pieces"] if x[1] == 0 and x[3] == "throne"] == [None]


def test_kings_favor_four_throne_brokers_each_by_the_end():
    # EN 390 (one broker to the throne room each turn, one '2' from beside the board) over the
    # four turns (EN 106); EN 398: "the value of brokers hidden in the throne room is revealed".
    # The game is played with each decision's first option (deterministic).
    g = Game.new(ys_variant("kings_favor"), players=4, seed=0)
    while not g.finished:
        g.apply(g.legal_options()[0])
    assert g.s.round == 4
    for p in range(4):
        mine = [pc for pc in g.s.pieces if pc[1] == p]
        assert len(mine) == 14
        throne = [pc for pc in mine if pc[3] == "throne"]
        assert len(throne) == 4 and all(pc[4] == 1 for pc in throne)      # revealed at the end
        assert not any(pc[3] == "reserve" for pc in mine)
