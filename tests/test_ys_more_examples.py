"""More of the Ys rulebook's worked examples, played through the engine, with its numbers.

Seats stand for the rulebook's colours: BLUE 0, ORANGE 1, PURPLE 2, YELLOW 3.
Sections refer to ../shared/rules/ys_rulebook_en.txt.

- Phase 1, ships: "two blue gems, one white gem and one red gem": a card's large gem
  counts twice, four gems to share (2, 1, 1).
- Phase 3: "each player will have placed eight brokers on the board (four of them
  face down, four of them face up)", the last one joining the two bid brokers.
- Phase 3 example: Purple places face up in the market's lower left-hand corner and
  face down in the city; Orange can place neither on line 0 nor on Purple's square.
- Phase 4: a lone '0' broker wins its market line; a column with a '0' broker beats
  the columns without one.
- End of the game: the point ladders of the first example (24/18/12/6, 20/15/10/5,
  16/12/8/4, 12/9/6/3), no gem no points, the black-gem table in full.
- 3 players: three gems a port; the first takes two, the second one, the third nothing.
- Setup: 11 brokers (three '2's stay in the box), order cards dealt at random, three
  character cards on each place and three put back unseen, the blue-edged cards aside,
  the quotations together, four ships in the ports and a fifth for the market.
- Phase 4: a neighborhood with one player: the bank keeps the gems left; an area without
  brokers discards its black gem or its card.
- 2 players: the humans hold order cards 1 and 2 and four neutral brokers each (4, 2, 1,
  0); the neutral player takes the ship's most valuable gems (white first, as the most
  valuable colour; the leftmost on a tie); the Intriguer beats it in a draw.
"""
from __future__ import annotations

import functools
import random
import re
from collections import Counter
from pathlib import Path

import pytest

from provost.dsl.loader import load_checked
from provost.interpreter.engine import Game

from test_ys_examples import set_line_gems

BLUE, ORANGE, PURPLE, YELLOW = range(4)
COLORS = ("blue", "green", "yellow", "red")
RULES = Path(__file__).resolve().parent.parent / "rulesets" / "ys.rules"


@functools.cache
def ys(variant=None):
    return load_checked("ys", variant)


def piece(owner, value, where, up=0):
    return ["broker", owner, value, where, up, 0, 0]   # kind, owner, value, where, face up, seen by, placed


def _clear_for_counting(g, neighborhoods=("n1", "n2", "n3", "n4")):
    s = g.s
    for p in range(g.s.players):
        s.counters["order_card"][p] = s.orders["turn_order"].index(p) + 1
        for c in COLORS + ("black", "vp"):
            s.counters[c][p] = 0
    for n in neighborhoods:
        s.zones["port"][n] = []
        s.zones["character_shown"][n] = []
    set_line_gems(g, {line: [] for line in s.zones["line_gem"]})
    s.counters["quotation"] = [7, 7, 7, 7]


# ---------------------------------------------------------------- phase 1: four gems a port

@pytest.fixture
def ys_with_the_examples_ship(tmp_path):
    """Ys whose card s02 is the rulebook's example: a large blue gem, a small red and a white one."""
    text = RULES.read_text()
    text, n = re.subn(r"s02: \[blue, \w+, white\]", "s02: [blue, red, white]", text)
    assert n == 1
    (tmp_path / "ys.rules").write_text(text)
    return load_checked(str(tmp_path / "ys.rules"))


def test_a_port_holds_four_gems_the_large_one_twice(ys_with_the_examples_ship):
    g = Game.new(ys_with_the_examples_ship, players=4, seed=0)
    deck = g.s.zones["ship_deck"]
    g.s.zones["ship_deck"] = ["s02"] + [card for card in deck if card != "s02"]
    g.start_phase("reveal")
    assert g.s.zones["port_card"]["n1"] == ["s02"]
    assert Counter(g.s.zones["port"]["n1"]) == {"blue": 2, "white": 1, "red": 1}
    assert all(len(g.s.zones["port"][n]) == 4 for n in ("n1", "n2", "n3", "n4"))

    # The highest bets share them: the first two gems, the second and third one each.
    _clear_for_counting(g, ("n2", "n3", "n4"))
    g.s.zones["character_shown"]["n1"] = []
    g.s.orders["turn_order"] = [BLUE, ORANGE, PURPLE, YELLOW]
    g.s.pieces = [piece(BLUE, 4, "n1_commerce"), piece(BLUE, 4, "n1_palace"),     # 8
                  piece(YELLOW, 4, "n1_port"), piece(YELLOW, 3, "n1_port"),        # 7
                  piece(PURPLE, 3, "n1_palace"), piece(PURPLE, 3, "n1_commerce"),  # 6
                  piece(ORANGE, 4, "n1_commerce")]                                 # 4
    g.start_phase("counting")
    assert g.current_player() == BLUE
    assert set(g.legal_options()) == {"gem:white", "gem:blue", "gem:red"}
    g.apply("gem:blue")
    assert "gem:blue" in g.legal_options()          # the second blue gem
    g.apply("gem:blue")
    assert g.current_player() == YELLOW and set(g.legal_options()) == {"gem:white", "gem:red"}
    g.apply("gem:white")
    g.apply("color:green")                           # the white gem becomes a gem of his choice
    # Purple, third, takes the last gem (a single choice is not asked).
    c = g.s.counters
    assert c["blue"][BLUE] == 2 and c["green"][YELLOW] == 1 and c["red"][PURPLE] == 1
    assert sum(c[x][ORANGE] for x in COLORS) == 0    # fourth: the port is empty
    assert g.s.zones["port"]["n1"] == []


# ---------------------------------------------------------------- phase 3: eight brokers, four up and four down

def _placement_only(seed):
    """A game at its first placement decision, whose control stops when the placement phase ends."""
    g = Game.new(ys(), players=4, seed=seed)
    r = random.Random(seed)
    while g.s.phase != "placement":
        g.apply(r.choice(g.legal_options()))
    assert g.s.stack[0][0] == g.prog.root_id
    g.s.stack.pop(0)                                 # no next phase: counting would turn brokers up
    return g, r


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_each_player_places_eight_brokers_four_face_up_four_face_down(seed):
    g, r = _placement_only(seed)
    while g.s.pending is not None:
        g.apply(r.choice(g.legal_options()))
    for p in range(4):
        mine = [pc for pc in g.s.pieces if pc[1] == p]
        on_board = [pc for pc in mine if pc[3] not in ("screen", "front", "bid", "aside")]
        assert len(on_board) == 8
        assert sorted(pc[4] for pc in on_board) == [0, 0, 0, 0, 1, 1, 1, 1]
        # The last broker joined the two bid brokers in front of the screen, face up.
        front = [pc for pc in mine if pc[3] == "front"]
        assert len(front) == 3 and all(pc[4] == 1 for pc in front)
        assert not any(pc[3] == "screen" for pc in mine)
        assert len(mine) == 11


# ---------------------------------------------------------------- phase 3 example: line 0 and an occupied square

def test_placement_example_market_square_taken_and_no_line_zero():
    g, r = _placement_only(4)
    purple = g.current_player()
    assert g.prompt() == "Choose your first broker and its face"
    vp = g.s.counters["vp"][purple]
    value = next(o for o in g.legal_options() if o.endswith(":up"))
    g.apply(value)
    # The market's lower left-hand corner: the leftmost (blue) column, its last line.
    assert "at:m_blue_3" in g.legal_options()
    g.apply("at:m_blue_3")
    assert g.s.counters["vp"][purple] == vp + 1      # a broker in the market: 1 VP at once
    g.apply(g.legal_options()[0])                    # the second broker, face down ...
    g.apply("at:n2_port")                            # ... in the city: no VP
    assert g.s.counters["vp"][purple] == vp + 1
    placed = {(pc[3], pc[4]) for pc in g.s.pieces if pc[1] == purple and pc[3] in ("m_blue_3", "n2_port")}
    assert placed == {("m_blue_3", 1), ("n2_port", 0)}
    # Orange, next: not on Purple's square, and there is no line 0 to place on.
    orange = g.current_player()
    assert orange != purple
    while not g.prompt().startswith("Choose where"):
        g.apply(g.legal_options()[0])
    targets = {o.split(":", 1)[1] for o in g.legal_options()}
    market = {t for t in targets if t.startswith("m_")}
    assert "m_blue_3" not in market
    assert market == {"m_%s_%d" % (c, i) for c in COLORS for i in (1, 2, 3)} - {"m_blue_3"}
    assert not any(t.endswith("_0") for t in targets)
    assert not any(s.endswith("_0") for s in g.prog.spaces)


# ---------------------------------------------------------------- phase 4: a lone '0' broker in the market

def test_a_lone_zero_broker_wins_its_market_line_and_its_column_ranks_first():
    g = Game.new(ys(), players=4, seed=0)
    g.s.orders["turn_order"] = [BLUE, ORANGE, PURPLE, YELLOW]
    _clear_for_counting(g)
    set_line_gems(g, {"line1": [], "line2": ["yellow"], "line3": []})
    g.s.pieces = [piece(ORANGE, 0, "m_green_2"),
                  piece(BLUE, 4, "front", 1), piece(BLUE, 3, "front", 1)]
    g.start_phase("counting")
    c = g.s.counters
    assert c["yellow"][ORANGE] == 1                  # line 2: Orange's lone '0' takes the yellow gem
    # Columns: the green column, with its '0', beats the three empty ones, which tie:
    # Blue, with the most before the screen, orders them.
    assert g.current_player() == BLUE and g.prompt() == "Choose the column that ranks higher"
    assert set(g.legal_options()) == {"column:blue", "column:yellow", "column:red"}
    assert g.s.zones["column_rank"] == ["green"]
    g.apply("column:red")
    g.apply("column:blue")
    assert g.s.zones["column_rank"] == ["green", "red", "blue", "yellow"]
    assert c["quotation"] == [7 - 1, 7 + 2, 7 - 2, 7 + 1]
    # The highest bidder in the market is Orange too (a '0', alone there).
    assert g.current_player() == ORANGE and g.prompt() == "Move one gem's quotation one step"


# ---------------------------------------------------------------- end of the game: the first example in full

def _final(players, holdings, quotation, black=None, variant=None):
    g = Game.new(ys(variant), players=players, seed=0)
    for p in range(g.s.players):
        g.s.counters["vp"][p] = 0
        for i, color in enumerate(COLORS):
            g.s.counters[color][p] = holdings[p][i]
        g.s.counters["black"][p] = black[p] if black else 0
    g.s.counters["quotation"] = list(quotation)
    g.s.stack = [[g.prog.root_id, 3, {"player": None}, None]]
    g.s.pending = None
    g._run()
    assert g.finished
    return g


# "Blue gems and red gems are at the top of the scale (followed by yellow gems, then by the green ones)."
EXAMPLE_QUOTATION = [10, 4, 7, 10]                  # blue, green, yellow, red


@pytest.mark.parametrize("color,ladder", [("blue", [24, 18, 12, 6]), ("red", [20, 15, 10, 5]),
                                          ("yellow", [16, 12, 8, 4]), ("green", [12, 9, 6, 3])])
def test_end_example_point_ladders(color, ladder):
    i = COLORS.index(color)
    holdings = [[0] * 4 for _ in range(4)]
    for p, n in enumerate((4, 3, 2, 1)):             # four different holders: first to fourth
        holdings[p][i] = n
    assert _final(4, holdings, EXAMPLE_QUOTATION).scores() == ladder


def test_end_example_all_ladders_at_once_and_no_gem_no_points():
    holdings = [[4, 4, 4, 4], [3, 3, 3, 3], [2, 2, 2, 2], [0, 0, 0, 0]]
    g = _final(4, holdings, EXAMPLE_QUOTATION)
    assert g.scores() == [24 + 20 + 16 + 12, 18 + 15 + 12 + 9, 12 + 10 + 8 + 6, 0]


def test_end_example_ties_take_the_lowest_place():
    # "Player A has six gems, B and C both have five gems and D owns three gems."
    g = _final(4, [[6, 0, 0, 0], [5, 0, 0, 0], [5, 0, 0, 0], [3, 0, 0, 0]], EXAMPLE_QUOTATION)
    assert g.scores() == [24, 12, 12, 6]


@pytest.mark.parametrize("blacks,points", [((0, 1, 2, 3), [0, 1, 4, 8]), ((4, 5, 6, 7), [12, 16, 20, 24]),
                                           ((8, 9, 12, 20), [24, 24, 24, 24])])
def test_black_gem_table_in_full(blacks, points):
    g = _final(4, [[0] * 4] * 4, [7, 7, 7, 7], black=blacks)
    assert g.scores() == points


# ---------------------------------------------------------------- 3 players: the third player gets nothing

def test_three_players_three_gems_a_port_and_the_third_gets_nothing():
    g = Game.new(ys("three_players"), players=3, seed=4)
    ports = g.s.zones["port"]
    ship_gems = g.prog.let_value("ship_gems")(g, {})
    for n in ("n1", "n2", "n3", "n4"):               # "the large stone now only counts as one gem"
        card = g.s.zones["port_card"][n][0]
        assert len(ports[n]) == 3 and sorted(ports[n]) == sorted(ship_gems[card])
    g.s.orders["turn_order"] = [BLUE, ORANGE, PURPLE]
    _clear_for_counting(g)
    g.s.zones["port"]["n1"] = ["blue", "green", "red"]
    bank = list(g.s.counters["bank"])
    g.s.pieces = [piece(BLUE, 4, "n1_commerce"), piece(BLUE, 4, "n1_palace"),       # 8: two gems
                  piece(ORANGE, 4, "n1_port"), piece(ORANGE, 2, "n1_port"),          # 6: one gem
                  piece(PURPLE, 3, "n1_palace"), piece(PURPLE, 1, "n1_commerce")]    # 4: nothing
    g.start_phase("counting")
    assert g.current_player() == BLUE and set(g.legal_options()) == {"gem:blue", "gem:green", "gem:red"}
    g.apply("gem:blue")
    g.apply("gem:red")
    # Orange, second, takes the last gem (a single choice is not asked); Purple, third, nothing.
    c = g.s.counters
    assert [c["blue"][BLUE], c["red"][BLUE], c["green"][ORANGE]] == [1, 1, 1]
    assert sum(c[x][PURPLE] for x in COLORS) == 0    # the third player wins nothing
    assert g.s.zones["port"]["n1"] == []
    kinds = g.prog.enums["gem_kinds"]
    taken = {k: bank[i] - c["bank"][i] for i, k in enumerate(kinds) if bank[i] != c["bank"][i]}
    assert taken == {"blue": 1, "green": 1, "red": 1, "black": 1}   # Orange's port area: a black gem
    assert c["black"][ORANGE] == 1
    assert c["vp"][BLUE] == 3                        # the commercial area


# ---------------------------------------------------------------- setup

BROKER_VALUES = [0, 0, 1, 1, 1, 2, 3, 3, 3, 4, 4]      # 11 brokers; three '2's stay in the box
YELLOW_EDGED = {"alchemist", "banker", "captain", "bishop", "spy", "herald", "conjurer", "intriguer",
                "jeweller", "magician", "merchant", "mercenary", "queen", "prince", "king"}


@pytest.mark.parametrize("seed", range(4))
def test_setup_brokers_order_cards_characters_ships_and_market(seed):
    g = Game.new(ys(), players=4, seed=seed)
    s, z = g.s, g.s.zones
    assert s.round == 1 and s.phase == "bidding"
    for p in range(4):
        mine = [pc for pc in s.pieces if pc[1] == p]
        assert sorted(pc[2] for pc in mine) == BROKER_VALUES
        assert {pc[3] for pc in mine} == {"screen"}
        assert s.counters["vp"][p] == 0
    assert sorted(s.counters["order_card"]) == [1, 2, 3, 4]            # dealt at random
    # Three face-down cards on each of the four places (the top one is turned up in phase 1),
    # three put back unseen, the four blue-edged cards beside the board.
    dealt = set()
    for n in ("n1", "n2", "n3", "n4"):
        cards = z["character_shown"][n] + z["character_deck"][n]
        assert len(z["character_shown"][n]) == 1 and len(cards) == 3
        dealt |= set(cards)
    assert len(dealt) == 12 and len(z["character_pool"]) == 3
    assert dealt | set(z["character_pool"]) == YELLOW_EDGED
    assert len(z["blue_cards"]) == 4
    # One colored gem on each starting square of the quotation table.
    assert len(set(s.counters["quotation"])) == 1
    # Four ships in the ports (a large gem counts twice: 4 gems of 3 kinds, white at most once),
    # a fifth for the market's lines 1-3, then discarded: 24 - 5 cards left.
    for n in ("n1", "n2", "n3", "n4"):
        port = Counter(z["port"][n])
        assert sum(port.values()) == 4 and sorted(port.values()) == [1, 1, 2]
        assert port["white"] <= 1 and port["black"] == 0
    lines = [z["line_gem"]["line%d" % i] for i in (1, 2, 3)]
    assert all(len(gem) == 1 for gem in lines) and len({gem[0] for gem in lines}) == 3
    assert "white" not in lines[1] + lines[2]
    assert len(z["ship_deck"]) == 24 - 5


def test_two_players_setup_order_cards_three_neighborhoods_and_neutral_brokers():
    g = Game.new(ys("two_players"), players=2, seed=1)
    s, z = g.s, g.s.zones
    assert s.players == 3                                               # two players + the neutral one
    assert sorted(s.counters["order_card"][:2]) == [1, 2]               # "take the '1' and '2' Order Cards"
    assert sorted(z["port"]) == ["n1", "n2", "n3"]                      # "play on three neighborhoods"
    assert all(sorted(Counter(z["port"][n]).values()) == [1, 1, 1] for n in z["port"])   # 3 gems a port
    assert sorted(z["line_gem"]) == ["line2", "line3"]
    for p in (0, 1):
        assert sorted(pc[2] for pc in s.pieces if pc[1] == p) == BROKER_VALUES
        assert sorted(z["neutral_hand"][p]) == [0, 1, 2, 4]            # '4', '2', '1' and '0'
    assert sorted(pc[2] for pc in s.pieces if pc[1] == 2) == [0, 0, 1, 1, 2, 2, 4, 4]


# ---------------------------------------------------------------- phase 4: few brokers in a neighborhood

def _one_player_neighborhood():
    """4 players about to count: only Blue has a broker in neighborhood 1 (a '3' in the commercial
    area); its port holds blue, blue, red, green and its palace shows the Spy."""
    g = Game.new(ys(), players=4, seed=0)
    s = g.s
    s.orders["turn_order"] = [ORANGE, BLUE, PURPLE, YELLOW]
    _clear_for_counting(g)
    s.pieces = [piece(BLUE, 3, "n1_commerce")]
    s.zones["port"]["n1"] = ["blue", "blue", "red", "green"]
    s.zones["character_shown"]["n1"] = ["spy"]
    return g


def test_a_lone_player_takes_two_gems_and_the_bank_keeps_the_rest():
    # "if there are only one or two players in the neighborhood, the bank keeps whatever gems are left"
    g = _one_player_neighborhood()
    bank = list(g.s.counters["bank"])
    g.start_phase("counting")
    assert g.current_player() == BLUE and g.prompt() == "Take a gem from the port"
    g.apply("gem:blue")
    g.apply("gem:red")
    c = g.s.counters
    assert [c[color][BLUE] for color in COLORS] == [1, 0, 0, 1]
    assert all(c[color][p] == 0 for color in COLORS for p in (ORANGE, PURPLE, YELLOW))
    assert c["bank"][:4] == [bank[0] - 1, bank[1], bank[2], bank[3] - 1]   # blue and green stay in the bank
    assert c["vp"] == [3, 0, 0, 0]                                      # the commercial area


def test_an_area_without_brokers_discards_its_black_gem_and_its_character():
    # "If no broker was placed in this area, the gem is discarded." ... "the card is discarded."
    g = _one_player_neighborhood()
    black = g.s.counters["bank"][4]
    g.start_phase("counting")
    g.apply("gem:blue")
    g.apply("gem:red")
    assert g.s.counters["black"] == [0, 0, 0, 0] and g.s.counters["bank"][4] == black
    assert g.s.zones["hand"] == [[], [], [], []]
    assert g.s.zones["character_shown"]["n1"] == []


# ---------------------------------------------------------------- 2 players: the neutral player's choices

def _two_players_before_the_count(pieces, port):
    """2 players, nothing held by anyone, only PIECES on the board, PORT the gems of neighborhood
    1's port and no other gems or characters on offer: the count is to start."""
    g = Game.new(ys("two_players"), players=2, seed=0)
    s = g.s
    for p in range(3):
        for color in COLORS + ("black", "vp"):
            s.counters[color][p] = 0
    s.pieces = pieces
    for n in ("n1", "n2", "n3"):
        s.zones["port"][n] = []
        s.zones["character_shown"][n] = []
    s.zones["port"]["n1"] = list(port)
    set_line_gems(g, {"line2": [], "line3": []})
    return g


def _neutral_wins_neighborhood_1(port, quotation):
    """2 players: the neutral player's '3' beats seat 0's '2' in neighborhood 1; seat 0 is second."""
    g = _two_players_before_the_count([piece(2, 3, "n1_palace"), piece(0, 2, "n1_commerce")], port)
    g.s.counters["quotation"] = list(quotation)
    g.start_phase("counting")
    return g


@pytest.mark.parametrize("port, quotation, neutral, second", [
    # "the two gems with the highest values on the market are chosen among those featured on the
    # 'Ship' card": green 9 and red 8 before blue 5 ...
    (["green", "red", "blue"], (5, 9, 7, 8), {"green": 1, "red": 1}, "blue"),
    # ... the leftmost of two tied colours (blue 8 first, then green and red tie at 7: green) ...
    (["green", "red", "blue"], (8, 7, 7, 7), {"blue": 1, "green": 1}, "red"),
    # ... a white gem first, as the most valuable colour (red 9), then red again before green.
    (["green", "red", "white"], (7, 8, 5, 9), {"red": 2}, "green"),
])
def test_two_players_neutral_takes_the_most_valuable_gems_of_the_ship(port, quotation, neutral, second):
    g = _neutral_wins_neighborhood_1(port, quotation)
    c = g.s.counters
    assert {color: c[color][2] for color in COLORS if c[color][2]} == neutral
    assert {color: c[color][0] for color in COLORS if c[color][0]} == {second: 1}   # forced: one gem left


def test_two_players_intriguer_beats_the_neutral_player_in_a_draw():
    # "The neutral player wins all the ties in which it is involved (there is only one exception:
    # the neutral player can still be beaten by a player who owns the 'Intriguer' card)."
    g = _two_players_before_the_count([piece(0, 3, "n1_port"), piece(2, 3, "n1_port")], ["green", "red", "blue"])
    s = g.s
    s.zones["hand"][0] = ["intriguer"]
    g.start_phase("counting")
    assert g.current_player() == 0 and g.prompt() == "Play a character card?"
    g.apply("play:intriguer")
    # Seat 0 wins the 3-3 draw: it chooses two gems first, and the port area's black gem is its.
    assert g.current_player() == 0 and g.prompt() == "Take a gem from the port"
    g.apply("gem:blue")
    g.apply("gem:red")
    c = s.counters
    assert (c["blue"][0], c["red"][0], c["black"][0]) == (1, 1, 1)
    assert c["green"][2] == 1 and c["black"][2] == 0
