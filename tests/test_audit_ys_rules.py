"""Ys rules the other Ys tests left uncovered, each pinned to the rulebook sentence it checks.

Line numbers refer to ../shared/rules/ys_rulebook_en.txt ("EN").  Seats are the rulebook's
colours (tests/test_ys_examples.py): BLUE 0, ORANGE 1, PURPLE 2, YELLOW 3; with 2 players seat 2
is the neutral player.  Positions are set up by editing the state, as the other Ys tests do.
"""
from __future__ import annotations

from provost.dsl.loader import load_checked
from provost.interpreter.engine import Game

from test_ys_characters import FIRST_BROKER, PLAY, counting, place_two, placement, until
from test_ys_examples import BLUE, ORANGE, PURPLE, YELLOW, piece, set_line_gems, ys_variant
from test_ys_rules_more import (COLORS, COLUMN_CHOICE, NEUTRAL, SPY, bank, market_position, set_bank,
                                two_player_counting)

WHITE_GEM = "The white gem becomes a gem of your choice"


def held(g: Game, seat: int) -> list:
    return [g.s.counters[c][seat] for c in COLORS]


def play_first_options_while(g: Game, phase: str, seen: list) -> None:
    """Play everyone's first option while the game is in ``phase``; record each (seat, prompt)."""
    for _ in range(2000):
        if g.s.phase != phase or g.finished:
            return
        seen.append((g.current_player(), g.prompt()))
        g.apply(g.legal_options()[0])
    raise AssertionError("phase %r never ended" % phase)


# ------------------------------------------------------------------ character cards: when
def test_cards_are_offered_in_the_order_of_play():
    # EN 297: "Cards are played according to the turn order.  So, before the beginning of the
    # broker phase ..., players are asked (according to their order) if they want to play".
    g = Game.new(load_checked("ys"), players=4, seed=0)
    g.s.orders["turn_order"] = [PURPLE, YELLOW, BLUE, ORANGE]
    g.s.zones["hand"][BLUE] = ["bishop"]
    g.s.zones["hand"][PURPLE] = ["captain"]
    g.start_phase("placement")
    assert (g.current_player(), g.prompt()) == (PURPLE, PLAY)
    g.apply("done")
    assert (g.current_player(), g.prompt()) == (BLUE, PLAY)       # Yellow holds no card
    g.apply("done")
    assert (g.current_player(), g.prompt()) == (PURPLE, FIRST_BROKER)


def test_two_cards_a_turn_count_over_the_whole_turn():
    # EN 281: "Each player can play up to two cards in a turn."  Two cards played at the start of
    # the placement leave none for the counting; one leaves the Merchant playable.
    g = placement({BLUE: ["bishop", "spy", "merchant"]})
    until(g, BLUE, PLAY)
    g.apply("play:bishop")
    g.apply("play:spy")
    seen = []
    play_first_options_while(g, "placement", seen)
    play_first_options_while(g, "counting", seen)
    assert (BLUE, PLAY) not in seen and g.s.zones["hand"][BLUE] == ["merchant"]

    h = placement({BLUE: ["bishop", "spy", "merchant"]})
    until(h, BLUE, PLAY)
    h.apply("play:bishop")
    h.apply("done")
    play_first_options_while(h, "placement", [])
    until(h, BLUE, PLAY)
    assert h.s.phase == "counting" and h.legal_options() == ["done", "play:merchant"]


def test_the_king_does_not_count_towards_the_two_cards():
    # EN 281: "The King card, the Prince card and the four blue-edged cards ... are not counted in
    # the two cards per turn limit."  Blue's '4' wins the palace of neighborhood 1.
    g = counting({})
    g.s.zones["character_shown"]["n1"] = ["king"]
    g.s.counters["cards_played"][BLUE] = 1
    g.start_phase("counting")
    while g.s.zones["character_shown"]["n1"]:
        g.apply(g.legal_options()[0])
    assert g.s.counters["vp"][BLUE] == 5 and g.s.counters["cards_played"][BLUE] == 1


def test_a_card_won_in_the_count_waits_for_the_next_turn():
    # EN 281: "'Character' cards can be played from the next turn on."  Blue's '4' wins the
    # Alchemist in neighborhood 1's palace; the Alchemist's moment, the end of this same counting
    # phase, comes and goes without Blue being asked.
    g = counting({})
    g.s.zones["character_shown"]["n1"] = ["alchemist"]
    g.start_phase("counting")
    seen = []
    play_first_options_while(g, "counting", seen)
    assert (BLUE, PLAY) not in seen and g.s.zones["hand"][BLUE] == ["alchemist"]
    assert g.s.round == 2


# ------------------------------------------------------------------ character cards: powers
def test_herald_and_magician_have_no_hold_on_the_queens_area():
    # EN 344: "Brokers which had been placed in the area before it was locked remain where they
    # are.  Even the herald and the magician have no hold over them.  Points are counted normally
    # in the area.  The card will be discarded once the points have been counted in the
    # neighborhood."  The Queen locked neighborhood 1's commercial area, where Orange has a '4'.
    g = counting({ORANGE: ["herald"]})
    g.s.zones["locked"] = ["n1_commerce"]
    g.start_phase("counting")
    g.apply("play:herald")
    moves = g.legal_options()
    assert "move:4:m_green_1:n2_port" in moves
    assert not any(":n1_commerce:" in o or o.endswith(":n1_commerce") for o in moves)
    g.apply("move:4:m_green_1:n2_port")
    g.apply("gem:blue")                            # Blue's two port gems,
    g.apply("gem:red")
    g.apply("gem:blue")                            # Yellow's; Purple's green is forced
    # The locked area is counted as usual (Yellow beats Orange on the front brokers), then freed.
    assert g.s.counters["vp"][YELLOW] == 3 and g.s.counters["vp"][ORANGE] == 0
    assert g.s.zones["locked"] == []

    m = placement({BLUE: ["magician"]})
    until(m, BLUE, FIRST_BROKER)
    place_two(m, "broker:screen:4:up", "n1_port", "broker:screen:0", "n2_port")
    m.apply("done")
    until(m, BLUE, FIRST_BROKER)
    place_two(m, "broker:screen:3:up", "n3_port", "broker:screen:1", "n4_port")
    m.s.zones["locked"] = ["n1_port"]
    m.apply("play:magician")
    assert m.legal_options() == ["keep", "swap:n2_port:n3_port:0:3", "swap:n2_port:n4_port:0:1",
                                 "swap:n3_port:n4_port:3:1"]


def test_banker_stays_on_the_quotation_scale():
    # EN 302: one gem "go up one square", another "go down one square"; the scale has 15 steps
    # (ys_tiles.md): a colour at the top or the bottom stays there.
    g = counting({ORANGE: ["banker"]})
    g.start_phase("counting")
    until(g, ORANGE, PLAY)
    g.s.counters["quotation"] = [14, 0, 7, 7]
    g.apply("play:banker")
    g.apply("move:blue:green")
    assert g.s.counters["quotation"] == [14, 0, 7, 7]


def test_mercenary_broker_counts_five_on_the_market():
    # EN 340: "In the next counting phase, this broker will have a value of five."  Orange's
    # marked '1' on line 1 beats Blue's '4' there, and makes Orange the highest bidder.
    marked = piece(ORANGE, 1, "m_blue_1") + [5]
    g = market_position([marked, piece(BLUE, 4, "m_green_1")])
    g.s.zones["line_gem"]["line1"] = ["white"]
    g.start_phase("counting")
    assert (g.current_player(), g.prompt()) == (ORANGE, WHITE_GEM)
    g.apply("color:red")
    assert g.s.counters["red"][ORANGE] == 1
    assert g.s.zones["column_rank"] == ["blue", "green"]              # 5 before 4
    g.apply("column:yellow")                       # the two empty columns' draw
    assert (g.current_player(), g.prompt()) == (ORANGE, "Move one gem's quotation one step")


def test_spy_cannot_look_at_a_neutral_broker():
    # EN 368: "A neutral broker can be placed anywhere, but once it is on the board, no player
    # can check its value."  EN 314: the Spy's brokers "may belong to one or several opponents".
    g = Game.new(ys_variant("two_players"), players=2, seed=0)
    g.s.zones["hand"][0] = ["spy"]
    g.start_phase("placement")
    until(g, 0, PLAY)
    g.apply("play:spy")
    until(g, 0, SPY)
    on_board = [pc for pc in g.s.pieces if pc[1] == NEUTRAL and pc[3] not in ("screen", "front")]
    assert on_board and not any(pc[4] for pc in on_board)             # face down, on the board
    looks = g.legal_options()[1:]
    assert looks and all(o.startswith("look:1+") for o in looks)


# ------------------------------------------------------------------ the market columns
def test_column_draw_between_equal_fronts_goes_to_the_lowest_order_card():
    # EN 208: a draw of columns with as many brokers: "the player with the highest total before
    # their screen chooses (again, draws are settled as in the city, using 'Order' cards if
    # necessary)".  Blue and Orange both have 5 before their screens; Orange holds card 1.
    front = [piece(BLUE, 4, "front", 1), piece(BLUE, 1, "front", 1),
             piece(ORANGE, 3, "front", 1), piece(ORANGE, 2, "front", 1), piece(PURPLE, 4, "front", 1)]
    g = market_position([piece(YELLOW, 2, "m_blue_1"), piece(PURPLE, 2, "m_red_2")] + front)
    g.start_phase("counting")
    assert (g.current_player(), g.prompt()) == (ORANGE, COLUMN_CHOICE)
    assert g.legal_options() == ["column:blue", "column:red"]
    g.apply("column:red")
    # The two empty columns are a draw too: Orange chooses again.
    assert (g.current_player(), g.legal_options()) == (ORANGE, ["column:green", "column:yellow"])
    g.apply("column:yellow")
    assert g.s.zones["column_rank"] == ["red", "blue", "yellow", "green"]
    assert g.s.counters["quotation"] == [8, 5, 6, 9]


# ------------------------------------------------------------------ 2 players: the neutral player
def test_neutral_player_takes_the_strongest_colour_left_in_the_bank():
    # EN 374: "If the neutral player wins another card, it is discarded and the player immediately
    # gets a gem instead ... the neutral player automatically takes the strongest color on the
    # market."  Yellow (9) is the strongest but the bank has none left: the neutral still gets a
    # gem, of green (8), the strongest colour left (assumption in ys.two_players.rules).
    g = Game.new(ys_variant("two_players"), players=2, seed=0)
    set_bank(g, "yellow", 0)
    g.s.counters["yellow"][0] += 30 - sum(g.s.counters["yellow"])   # all yellow gems are seat 0's
    _neutral_wins_the_palace(g, "spy", (7, 8, 9, 7))
    g.start_phase("counting")
    assert held(g, NEUTRAL) == [0, 1, 0, 0]
    assert bank(g, "yellow") == 0 and g.s.counters["yellow"][0] == 30
    assert g.s.zones["hand"] == [[], [], []]


def _neutral_wins_the_palace(g: Game, card: str, quotation) -> None:
    """Set ``g`` (2 players) to count only the neutral's '1' on neighborhood 1's palace, showing ``card``."""
    s = g.s
    for c in COLORS + ("black", "vp"):
        s.counters[c][NEUTRAL] = 0
    s.pieces = [piece(NEUTRAL, 1, "n1_palace")]
    for n in ("n1", "n2", "n3"):
        s.zones["port"][n] = []
        s.zones["character_shown"][n] = []
    s.zones["character_shown"]["n1"] = [card]
    for line in s.zones["line_gem"]:
        for gem in s.zones["line_gem"][line]:
            if gem != "white":
                s.counters["bank"][g.prog.enums["gem_kinds"].index(gem)] += 1
        s.zones["line_gem"][line] = []
    s.counters["quotation"] = list(quotation)


def test_neutral_player_wins_its_draws_on_the_market():
    # EN 372: "The neutral player wins all the ties in which it is involved": a market line (EN 206)
    # and the highest bidder (EN 212), even against seat 0's 4 + 4 + 3 before the screen.  The
    # draw of columns is not one it is in: seat 0, with the most before the screen, chooses (EN 208).
    g = Game.new(ys_variant("two_players"), players=2, seed=0)
    _neutral_wins_the_palace(g, "spy", (7, 7, 7, 7))
    g.s.pieces = [piece(0, 3, "m_blue_2"), piece(NEUTRAL, 3, "m_green_2"), piece(0, 4, "front", 1),
                  piece(0, 4, "front", 1), piece(0, 3, "front", 1)]
    g.s.zones["character_shown"]["n1"] = []
    set_line_gems(g, {"line2": ["red"], "line3": []})
    g.start_phase("counting")
    assert g.s.counters["red"][NEUTRAL] == 1 and g.s.counters["red"][0] == 0
    assert (g.current_player(), g.legal_options()) == (0, ["column:blue", "column:green"])
    g.apply("column:blue")
    assert (g.current_player(), g.legal_options()) == (0, ["column:yellow", "column:red"])
    g.apply("column:yellow")
    # Blue +2, green +1, yellow -1, red -2; then the neutral, highest bidder, moves its red up.
    assert g.s.counters["quotation"] == [9, 8, 6, 6]
    assert g.s.phase == "bidding"


def test_neutral_player_turns_a_blue_edged_card_into_the_strongest_colour():
    # EN 112: the blue-edged cards are exchanged "immediately with a blue, red, green or yellow
    # gem"; EN 374: the neutral player "automatically takes the strongest color on the market".
    g = two_player_counting([piece(NEUTRAL, 1, "n1_palace")], card="white_3", quotation=(7, 7, 9, 7))
    assert held(g, NEUTRAL) == [0, 0, 1, 0]
    assert g.s.phase == "bidding"                  # nobody was asked


# ------------------------------------------------------------------ 3 players on three neighborhoods
def test_three_neighborhoods_use_three_character_places():
    # EN 356: "in which case neighborhood #4 will not be used"; EN 69: three cards are dealt on
    # each place, the rest go back unseen; EN 112: the blue-edged cards come out in the last turn
    # (assumption in ys.three_players_short.rules: one on each of the three places).
    g = Game.new(ys_variant("three_players_short"), players=3, seed=0)       # turn 1 revealed
    assert {n: len(d) for n, d in g.s.zones["character_deck"].items()} == {"n1": 2, "n2": 2, "n3": 2}
    assert {n: len(d) for n, d in g.s.zones["character_shown"].items()} == {"n1": 1, "n2": 1, "n3": 1}
    assert len(g.s.zones["character_pool"]) == 15 - 9
    for n in ("n1", "n2", "n3"):
        g.s.zones["character_deck"][n] = []
    g.s.round = 4
    g.start_phase("reveal")
    assert g.s.zones["character_shown"] == {"n1": ["white_1"], "n2": ["white_2"], "n3": ["white_3"]}
    assert g.s.zones["blue_cards"] == ["white_4"]


# ------------------------------------------------------------------ Ys Express
def test_express_leaves_three_brokers_before_the_screen():
    # EN 411: "each player has nine brokers ... only three placing turns instead of four": two bid,
    # six placed, and the last one joins the bid brokers for the draws (EN 178).
    g = Game.new(ys_variant("express"), players=4, seed=3)
    while g.s.phase != "counting":
        g.apply(g.legal_options()[0])
    for p in range(4):
        mine = [pc for pc in g.s.pieces if pc[1] == p]
        assert sum(1 for pc in mine if pc[3] == "front") == 3
        assert sum(1 for pc in mine if pc[3] == "screen") == 0


# ------------------------------------------------------------------ the King's Favor
def _throne_scores(variant: str, players: int, throne: list) -> list:
    g = Game.new(load_checked("ys", variant, players=players), players=players, seed=0)
    for p in range(players):
        for c in COLORS + ("black", "vp"):
            g.s.counters[c][p] = 0
    g.s.pieces = [piece(p, v, "throne") for p, v in enumerate(throne)]
    g.s.stack = [[g.prog.root_id, 3, {"player": None}, None]]     # the final account
    g.s.pending = None
    g._run()
    assert g.finished
    return g.scores()


def test_kings_favor_three_way_draw_for_second_place_rounds_down():
    # EN 403: "if there is a draw, points are shared between players (rounded down if necessary)":
    # three players share places 2-4: (7 + 3 + 0) // 3 = 3 each.
    assert _throne_scores("kings_favor", 4, [4, 2, 2, 2]) == [12, 3, 3, 3]


def test_kings_favor_with_three_players_uses_the_first_three_places():
    # EN 400-401: 12, 7, 3 for the first three places; all three tied: (12 + 7 + 3) // 3 = 7.
    assert _throne_scores("kings_favor", 3, [4, 2, 0]) == [12, 7, 3]
    assert _throne_scores("kings_favor", 3, [1, 1, 1]) == [7, 7, 7]


def test_kings_favor_herald_cannot_reach_the_throne_room():
    # EN 392: "Characters have no power in the throne room (e.g. the herald cannot be used to take
    # away or bring in a broker)."  Blue has a '4' in the throne room and a '3' on the board.
    g = Game.new(ys_variant("kings_favor"), players=4, seed=0)
    g.s.pieces = [pc for pc in g.s.pieces if pc[1] != BLUE] + [piece(BLUE, 4, "throne"), piece(BLUE, 3, "n1_port")]
    g.s.zones["hand"][BLUE] = ["herald"]
    g.s.orders["turn_order"] = [BLUE, ORANGE, PURPLE, YELLOW]
    g.start_phase("counting")
    assert (g.current_player(), g.prompt()) == (BLUE, PLAY)
    g.apply("play:herald")
    moves = g.legal_options()[1:]
    assert "move:3:n1_port:n2_port" in moves and "move:3:n1_port:m_blue_1" in moves
    assert not any("throne" in o for o in moves)
