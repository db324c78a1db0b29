"""The Ys character cards, each as the rulebook's "Character Cards" section states it.

Sections quoted refer to ../shared/rules/ys_rulebook_en.txt.  Seats: 0-3; a player's hand is
set directly and the phase started with ``Game.start_phase``, so each test plays only the
decisions its rule is about (the other players take their first option).
"""
from __future__ import annotations

import functools

import pytest

from provost.dsl.loader import load_checked
from provost.interpreter.engine import Game
from tests.test_ys_examples import BLUE, ORANGE, PURPLE, YELLOW, counting_position

FIRST_BROKER = "Choose your first broker and its face"
WHERE = "Choose where the broker goes"
PLAY = "Play a character card?"


@functools.cache
def ys():
    return load_checked("ys")


def placement(hands: dict, seed: int = 0) -> Game:
    """A 4-player game at the start of the first placement phase, seat p holding hands[p]."""
    g = Game.new(ys(), players=4, seed=seed)
    for p, cards in hands.items():
        g.s.zones["hand"][p] = list(cards)
    g.start_phase("placement")
    return g


def counting(hands: dict) -> Game:
    """The rulebook's counting example (tests/test_ys_examples.py), seat p holding hands[p]."""
    g = counting_position()
    for p, cards in hands.items():
        g.s.zones["hand"][p] = list(cards)
    return g


def until(g: Game, player: int, prompt: str) -> None:
    """Play everyone's first option until ``player`` is asked ``prompt``."""
    for _ in range(500):
        if g.current_player() == player and g.prompt() == prompt:
            return
        g.apply(g.legal_options()[0])
    raise AssertionError("%r never asked of player %d" % (prompt, player))


def place_two(g: Game, first: str, first_at: str, second: str, second_at: str) -> None:
    g.apply(first)
    g.apply("at:" + first_at)
    g.apply(second)
    g.apply("at:" + second_at)


def test_cards_are_played_from_the_next_turn_on():
    # "'Character' cards can be played from the next turn on."
    g = Game.new(ys(), players=4, seed=0)
    g.s.zones["hand"][0] = ["bishop"]
    g.s.counters["card_round"][0][g.prog.enums["characters"].index("bishop")] = g.s.round
    g.start_phase("placement")
    assert not (g.current_player() == 0 and g.prompt() == PLAY)


def test_at_most_two_cards_a_turn():
    # "Each player can play up to two cards in a turn."
    g = placement({0: ["bishop", "spy", "conjurer"]})
    until(g, 0, PLAY)
    g.apply("play:bishop")
    assert g.prompt() == PLAY and g.current_player() == 0
    g.apply("play:spy")
    assert not (g.current_player() == 0 and g.prompt() == PLAY)      # the conjurer must wait
    assert g.s.zones["hand"][0] == ["conjurer"]


def test_bishop_leaves_each_brokers_face_free():
    # "The player may place all of their brokers face down ... (nevertheless, any number of
    # them may be placed face up)."
    g = placement({0: ["bishop"]})
    until(g, 0, PLAY)
    g.apply("play:bishop")
    until(g, 0, FIRST_BROKER)
    g.apply("broker:screen:3:up")
    g.apply("at:n1_port")
    assert g.prompt() == "Place your second broker face up or face down"
    assert g.legal_options() == ["face_up", "face_down"]
    # Without the Bishop, a face-up first broker makes the second one face down.
    h = placement({})
    until(h, 0, FIRST_BROKER)
    h.apply("broker:screen:3:up")
    h.apply("at:n1_port")
    assert h.prompt() == "Choose a broker to place"


def test_mercenary_marks_one_of_the_brokers_just_placed():
    # "The player puts a marker ... on one of the brokers they have just placed.  In the next
    # counting phase, this broker will have a value of five."
    g = placement({0: ["mercenary"]})
    until(g, 0, FIRST_BROKER)
    place_two(g, "broker:screen:0:up", "n1_port", "broker:screen:1", "n1_palace")
    assert g.prompt() == PLAY
    g.apply("done")                                           # not after the first placement
    until(g, 0, FIRST_BROKER)
    place_two(g, "broker:screen:3:down", "n1_port", "broker:screen:4", "n2_palace")
    g.apply("play:mercenary")
    # Only this placement's brokers: not the '0' placed on n1_port or the '1' on n1_palace before.
    assert sorted(g.legal_options()) == ["hire:n1_port:3", "hire:n2_palace:4"]
    g.apply("hire:n1_port:3")
    hired = [pc for pc in g.s.pieces if len(pc) > 7]
    assert [(pc[1], pc[2], pc[3], pc[7]) for pc in hired] == [(0, 3, "n1_port", 5)]
    assert sorted(pc[2] for pc in g.s.pieces if pc[1] == 0 and pc[3] == "n1_port") == [0, 3]


def test_mercenary_broker_counts_five_then_recovers_its_value():
    g = counting({})
    s = g.s
    mercenary = next(pc for pc in s.pieces if pc[1] == PURPLE and pc[3] == "n1_port")
    mercenary.append(5)                       # Purple's '3' on the port area now counts 5
    g.start_phase("counting")
    for _ in range(40):                       # Blue (9) and Yellow (8) take their gems first
        if g.s.counters["black"][PURPLE] or g.s.phase != "counting" or g.current_player() is None:
            break
        g.apply(g.legal_options()[0])
    # Port area: Purple 5 beats Yellow's 4 and takes the black gem.
    assert g.s.counters["black"][PURPLE] == 1 and g.s.counters["black"][YELLOW] == 0
    assert len(mercenary) == 7 and mercenary[2] == 3          # back behind the screen as a "3", no override


def test_queen_locks_an_area_for_everyone():
    # "The card is placed in an area of the city.  This area is now locked.  No broker can be
    # placed in it anymore until the end of the turn (including the player's brokers)."
    g = placement({0: ["queen"]})
    until(g, 0, PLAY)
    assert g.legal_options()[0] == "done"
    g.apply("play:queen")
    assert "lock:n1_port" in g.legal_options() and not any(o.startswith("lock:m_") for o in g.legal_options())
    g.apply("lock:n1_port")
    assert g.s.zones["locked"] == ["n1_port"]
    g.apply(g.legal_options()[0])
    assert g.prompt() == WHERE and "at:n1_port" not in g.legal_options()
    until(g, 1, WHERE)
    assert "at:n1_port" not in g.legal_options() and "at:n1_commerce" in g.legal_options()


def test_herald_moves_a_broker_and_scores_only_from_city_to_market():
    # "If need be, pawns may be moved from the market to the city (with no victory point loss)
    # or conversely (in this case, the player earns a victory point).  ... from one area of the
    # market to another, the player does not win any point."
    g = counting({ORANGE: ["herald"]})
    g.s.zones["locked"] = ["n2_port"]
    g.start_phase("counting")
    assert g.current_player() == ORANGE and g.prompt() == PLAY
    g.apply("play:herald")
    options = g.legal_options()
    # "The player moves one of their brokers": a move, not a "may" (the Alchemist's "he doesn't
    # have to", the Magician's "may"), so there is no option to leave them where they are.
    assert options and all(o.startswith("move:") for o in options)
    assert "move:1:n1_palace:m_yellow_1" in options       # city to the market
    assert "move:4:m_green_1:n2_port" not in options      # the Queen's area is forbidden
    assert "move:4:m_green_1:m_blue_1" not in options     # one broker per market square
    vp = g.s.counters["vp"][ORANGE]
    h = g.clone()
    g.apply("move:1:n1_palace:m_yellow_1")
    assert g.s.counters["vp"][ORANGE] == vp + 1
    h.apply("move:4:m_green_1:m_yellow_3")                # market to market: nothing
    assert h.s.counters["vp"][ORANGE] == vp
    k = counting({ORANGE: ["herald"]})
    k.start_phase("counting")
    k.apply("play:herald")
    k.apply("move:4:m_green_1:n3_port")                   # market to city: the point stays
    assert k.s.counters["vp"][ORANGE] == vp


def _neighborhood_1_counted(card: str) -> Game:
    """The counting example with Orange playing ``card`` first, played until neighborhood 1's
    areas are counted (Yellow's black gem from the port area marks it)."""
    g = counting({ORANGE: [card]})
    g.start_phase("counting")
    g.apply("play:" + card)
    while not g.s.counters["black"][YELLOW]:
        g.apply(g.legal_options()[0])             # the port's gems
    return g


def test_merchant_makes_every_commercial_area_yield_five():
    # "For the duration of this phase, every commercial area yields five points (instead of
    # three) for players who have the majority in it" -- whoever played the card.
    g = _neighborhood_1_counted("merchant")
    assert g.s.counters["vp"][YELLOW] == 5          # Yellow wins the commercial area, not Orange
    assert g.s.counters["vp"][ORANGE] == 0


def test_intriguer_wins_every_draw():
    # "The player automatically wins in case of draw."  The commercial area is a 4-4 draw that
    # Yellow wins on the brokers in front of the screen; with the Intriguer, Orange wins it.
    g = _neighborhood_1_counted("intriguer")
    assert g.s.counters["vp"][ORANGE] == 3 and g.s.counters["vp"][YELLOW] == 0


def test_jeweller_takes_two_coloured_gems():
    # "The player takes two gems of their choice (neither white nor black) from the bank."
    g = counting({ORANGE: ["jeweller"]})
    g.start_phase("counting")
    until(g, ORANGE, PLAY)
    assert g.prompt() == PLAY and "play:jeweller" in g.legal_options()
    g.apply("play:jeweller")
    assert g.legal_options() == ["gem:blue", "gem:green", "gem:yellow", "gem:red"]
    before = [g.s.counters[c][ORANGE] for c in ("blue", "red")]
    g.apply("gem:blue")
    g.apply("gem:red")
    assert [g.s.counters[c][ORANGE] for c in ("blue", "red")] == [before[0] + 1, before[1] + 1]


def test_alchemist_exchanges_one_coloured_gem_or_none():
    # "The player replaces one of their gems with another gem of their choice.  Black and white
    # gems cannot be exchanged.  If the player does not want to exchange any gem, he doesn't
    # have to."
    g = counting({ORANGE: ["alchemist"]})
    g.start_phase("counting")
    until(g, ORANGE, PLAY)
    g.s.counters["black"][ORANGE] = 2
    g.apply("play:alchemist")
    options = g.legal_options()
    assert options[0] == "keep"
    assert all(o.split(":")[1] in ("blue", "green", "yellow", "red") for o in options[1:])
    assert not any("black" in o or "white" in o for o in options)
    held = {c: g.s.counters[c][ORANGE] for c in ("blue", "green", "yellow", "red")}
    give = next(c for c, n in held.items() if n > 0)
    take = next(c for c in held if c != give)
    g.apply("exchange:%s:%s" % (give, take))
    assert g.s.counters[give][ORANGE] == held[give] - 1 and g.s.counters[take][ORANGE] == held[take] + 1
    assert "alchemist" not in g.s.zones["hand"][ORANGE]


def test_banker_moves_one_quotation_up_and_another_down():
    # "The player chooses a gem and makes its value go up one square in the market, then chooses
    # another one and makes its value go down one square.  The player has to do both."
    g = counting({ORANGE: ["banker"]})
    g.start_phase("counting")
    until(g, ORANGE, PLAY)
    g.apply("play:banker")
    options = g.legal_options()
    assert "move:blue:blue" not in options and len(options) == 12        # 4 x 3, no "keep"
    before = list(g.s.counters["quotation"])
    g.apply("move:yellow:red")
    after = g.s.counters["quotation"]
    assert (after[2], after[3]) == (before[2] + 1, before[3] - 1)


def test_captain_swaps_two_ships():
    # "The player swaps two 'Ship' cards of their choice among those which are in the ports."
    g = placement({0: ["captain"]})
    ports = {n: list(g.s.zones["port"][n]) for n in ("n1", "n3")}
    cards = {n: list(g.s.zones["port_card"][n]) for n in ("n1", "n3")}
    until(g, 0, PLAY)
    g.apply("play:captain")
    assert "swap:n1:n3" in g.legal_options() and "swap:n3:n1" not in g.legal_options()
    g.apply("swap:n1:n3")
    assert g.s.zones["port"]["n1"] == ports["n3"] and g.s.zones["port"]["n3"] == ports["n1"]
    assert g.s.zones["port_card"]["n1"] == cards["n3"] and g.s.zones["port_card"]["n3"] == cards["n1"]


def test_spy_looks_at_three_hidden_brokers_over_the_phase():
    # "This card allows you to have a peek at three hidden brokers ... the player does not have
    # to check three brokers in a go."
    g = placement({2: ["spy"]})
    until(g, 2, PLAY)
    g.apply("play:spy")
    looked = 0
    for _ in range(400):
        if g.s.phase != "placement":
            break
        if g.current_player() == 2 and g.prompt() == "Spy: look at a face-down broker?":
            options = g.legal_options()
            assert options[0] == "done"
            owner, place, n = options[1].split(":")[1].split("+")      # look:OWNER+PLACE+N
            g.apply(options[1])
            looked += 1
            seen = [pc for pc in g.s.pieces if pc[1] == int(owner) and pc[3] == place and not pc[4]]
            assert any((pc[5] >> 2) & 1 for pc in seen)
            visible = [b for b in g.observation(2)["pieces"] if b[1] == int(owner) and b[3] == place]
            assert any(b[2] is not None for b in visible if not b[4])
        else:
            g.apply(g.legal_options()[0])
    assert looked == 3


def test_conjurer_places_a_broker_from_before_the_screen():
    # "The player takes one of these brokers, puts it on the board ..., and replaces it with one
    # of the brokers available behind the screen (this one is placed face up)."
    g = Game.new(ys(), players=4, seed=0)
    g.s.zones["hand"][0] = ["conjurer"]
    front = [pc for pc in g.s.pieces if pc[1] == 0 and pc[2] in (4, 2)][:2]
    for pc in front:
        pc[3], pc[4] = "front", 1
    g.start_phase("placement")
    until(g, 0, PLAY)
    g.apply("play:conjurer")
    until(g, 0, FIRST_BROKER)
    assert "broker:front:4:down" in g.legal_options()
    g.apply("broker:front:4:down")
    g.apply("at:n1_port")
    # The player picks the replacement among the values behind the screen.
    assert g.prompt() == "Conjurer: which broker goes before the screen (face up)?"
    assert g.legal_options() == ["replace:0", "replace:1", "replace:3", "replace:4"]
    g.apply("replace:3")
    mine = [pc for pc in g.s.pieces if pc[1] == 0]
    assert sorted(pc[2] for pc in mine if pc[3] == "front") == [2, 3]
    assert all(pc[4] for pc in mine if pc[3] == "front")
    assert [(pc[2], pc[4]) for pc in mine if pc[3] == "n1_port"] == [(4, 0)]


def test_magician_swaps_two_of_the_players_brokers():
    # "The player may swap two of their brokers on the board (notice that the magician has no
    # hold on the Queen's area)."
    g = placement({0: ["magician"]})
    until(g, 0, FIRST_BROKER)
    place_two(g, "broker:screen:4:up", "n1_port", "broker:screen:0", "m_blue_1")
    g.apply("play:magician")
    options = g.legal_options()
    assert options == ["keep", "swap:n1_port:m_blue_1:4:0"]
    g.apply(options[1])
    mine = {pc[3]: pc[2] for pc in g.s.pieces if pc[1] == 0 and pc[3] in ("n1_port", "m_blue_1")}
    assert mine == {"n1_port": 0, "m_blue_1": 4}


@pytest.mark.parametrize("card,points", [("king", 5), ("prince", 4)])
def test_king_and_prince_score_at_once(card, points):
    # "Prince and King: Immediately yield four points (for the Prince) or five points (for the
    # King), even if the player has already played two or more cards during the turn."
    g = counting({})
    g.s.zones["character_shown"]["n1"] = [card]
    g.s.counters["cards_played"][BLUE] = 2
    g.start_phase("counting")
    for _ in range(6):
        if g.s.zones["character_shown"]["n1"] == [] or g.s.counters["vp"][BLUE]:
            break
        g.apply(g.legal_options()[0])
    assert g.s.counters["vp"][BLUE] == points                 # Blue's '4' wins the palace
    assert card not in g.s.zones["hand"][BLUE]
