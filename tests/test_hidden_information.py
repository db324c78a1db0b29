"""Hidden information: nothing a seat may not see changes what that seat is shown.

The generic test plays every shipped ruleset, variant and player count to random states, then
for each seat p builds other worlds that differ only in what p cannot see (``determinize`` re-deals
hidden pieces, hands and decks and the random state; the counters the rules keep from p are set
at random) and asserts that p is shown the same thing in all of them: its observation, its legal
options when it is to move, the text of the error for a wrong option, and the adapters' views.
The re-deal follows the rules' own declarations of what is hidden, so this test proves the engine
and adapters honour them everywhere; whether a declaration is right is the rules' matter, checked
below where a rulebook says a value is secret (a neutral broker's value must not change the other
player's view, whichever the placer chose).  The rest checks the particular cases: Ys for 2
players' neutral brokers, the Spy's looks, forced decisions that would give a hand away, and
observations that are copies.
"""
from __future__ import annotations

import json
import random

import pytest

from provost.dsl.loader import load_checked, shipped_configurations
from provost.interpreter import nodes as N
from provost.interpreter.engine import Game, IllegalOption
from provost.interpreter.program import program_for


CASES = [(r, v, p) for r, v, p, _ in shipped_configurations()]


def test_the_cases_cover_every_game_variant_and_count():
    names = {(r, v) for r, v, _ in CASES}
    assert {("caylus", None), ("caylus1303", None), ("ys", None), ("ys", "two_players"), ("ys", "strong_neutral"),
            ("caylus", "simplified_favor"), ("caylus1303", "first_game"), ("ys", "kings_favor")} <= names
    assert {p for r, _, p in CASES if r == "ys"} == {2, 3, 4} and {p for r, _, p in CASES if r == "caylus"} >= {2, 3, 4, 5}


def other_world(g: Game, viewer: int, k: int) -> Game:
    """A world that differs from g only in what ``viewer`` cannot see."""
    w = g.determinize(viewer, k)
    r = random.Random(k)
    for name, c in g.prog.counters.items():
        if c.get("visible", "public") == "owner" and c["scope"] == "player" and not g.s.finished:
            row = w.s.counters[name]
            for q in range(len(row)):
                if q != viewer and type(row[q]) is int:
                    row[q] = r.randrange(0, 40)
    return w


def wrong_option_text(g: Game) -> str:
    try:
        g.clone().apply("no-such-option")
    except IllegalOption as e:
        return str(e)
    raise AssertionError("a wrong option was accepted")


def states(rs, players: int, seed: int, stops: int = 3):
    g = Game.new(rs, players=players, seed=seed)
    r = random.Random(seed)
    marks = sorted(r.sample(range(1, 400), stops))
    n = 0
    while not g.finished and marks:
        if n == marks[0]:
            marks.pop(0)
            yield g
        g.apply(r.choice(g.legal_options()))
        n += 1


@pytest.mark.parametrize("ruleset, variant, players", CASES, ids=lambda x: str(x))
def test_no_seat_is_shown_what_it_may_not_see(ruleset, variant, players):
    rs = load_checked(ruleset, variant, players)
    for seed in (1, 2):
        for g in states(rs, players, seed):
            for viewer in range(g.s.humans):
                seen = g.observation(viewer)
                to_move = g.current_player() == viewer
                for k in (11, 12):
                    w = other_world(g, viewer, k)
                    # in the same order too: the order of a table's keys can tell a value
                    assert in_order(w.observation(viewer)) == in_order(seen), (ruleset, variant, players, viewer)
                    if to_move:
                        assert w.legal_options() == g.legal_options()
                        assert wrong_option_text(w) == wrong_option_text(g)


def in_order(obs: dict) -> str:
    return json.dumps(obs, default=str)


def test_another_seats_secret_bid_leaves_the_observation_alike_key_for_key():
    """The private places' counts are keyed in one order whatever the bid: in the order met,
    the owner's smallest broker came first, and a bid of 0 showed."""
    from provost.interpreter.boardview import board_view
    rs = load_checked("ys", None, 4)
    g = Game.new(rs, players=4, seed=5)
    while not any(o.startswith("bid:") for o in g.legal_options()):
        g.apply(g.legal_options()[0])
    bidder = g.current_player()
    views = set()
    for opt in g.legal_options():
        c = g.clone()
        c.apply(opt)
        for viewer in range(4):
            if viewer != bidder:
                obs = c.observation(viewer)
                views.add((viewer, in_order(obs), in_order(board_view(rs.decls, obs))))
    assert len(views) == 3


def test_the_log_shows_a_choice_the_next_prompt_names():
    """Playing a character card is public: the prompt that follows names the card, so the log
    does not hide it from anyone."""
    from provost.interpreter.boardview import who_sees
    rs = load_checked("ys", None, 4)
    found = 0
    for seed in range(6):
        g = Game.new(rs, players=4, seed=seed)
        r = random.Random(seed)
        while not g.finished:
            options = g.legal_options()
            plays = [o for o in options if o.startswith("play:")]
            if len(plays) >= 2:
                prompts = {}
                for o in plays:
                    c = g.clone()
                    c.apply(o)
                    prompts[o] = c.prompt()
                for o in plays:
                    if list(prompts.values()).count(prompts[o]) == 1:
                        assert who_sees(g, g.current_player(), o) == [0, 1, 2, 3], (seed, o, prompts[o])
                        found += 1
            g.apply(r.choice(options))
    assert found


def test_the_adapters_show_a_seat_no_more_than_its_observation():
    pytest.importorskip("pettingzoo")
    from provost.adapters.pettingzoo_env import raw_env
    for ruleset, players in (("caylus1303", 3), ("ys", 4), ("ys", 2)):
        env = raw_env(ruleset, players=players, render_mode="ansi", catalogue_games=2)
        env.reset(seed=3)
        for g in states(env.rs, players, 5):
            for viewer in range(g.s.humans):
                agent = env.possible_agents[viewer]
                env.game = g
                seen, shown = env.observe(agent), env.render()
                for k in (1, 2):
                    env.game = other_world(g, viewer, k)
                    other = env.observe(agent)
                    assert (other["observation"] == seen["observation"]).all()
                    assert (other["action_mask"] == seen["action_mask"]).all()
                    assert env.render() == shown


def test_caylus1303_points_are_not_rendered_until_the_end():
    pytest.importorskip("pettingzoo")
    from provost.adapters.pettingzoo_env import raw_env
    env = raw_env("caylus1303", players=3, render_mode="ansi", catalogue_games=2)
    env.reset(seed=1)
    assert "scores: [None, None, None]" in env.render()


# ------------------------------------------------------------------ Ys for 2 players
def two_player_game(variant=None, seed=4) -> Game:
    g = Game.new(load_checked("ys", variant, 2), players=2, seed=seed)
    r = random.Random(seed)
    while g.s.phase != "placement":
        g.apply(r.choice(g.legal_options()))
    return g


def test_each_players_neutral_brokers_are_theirs_to_see():
    g = two_player_game()
    for viewer in (0, 1):
        hands = g.observation(viewer)["zones"]["neutral_hand"]
        assert sorted(hands[viewer]) == [0, 1, 2, 4]
        assert hands[1 - viewer] == 4               # the other hand: how many, never which


def test_placing_a_neutral_broker_tells_the_other_player_nothing_of_its_value():
    g = two_player_game()
    r = random.Random(1)
    while not g.prompt().startswith("Place a neutral broker"):
        g.apply(r.choice(g.legal_options()))
    placer = g.current_player()
    views = []
    for option in g.legal_options():                # each value the placer could choose
        h = g.clone()
        h.apply(option)
        h.apply(h.legal_options()[0])               # ... at the same place
        views.append(h.observation(1 - placer))
    assert all(v == views[0] for v in views)


def test_the_strong_neutral_variant_deals_4_3_1_0():
    g = two_player_game("strong_neutral")
    assert sorted(g.s.zones["neutral_hand"][0]) == [0, 1, 3, 4]
    assert sorted(p[2] for p in g.s.pieces if p[1] == 2) == [0, 0, 1, 1, 3, 3, 4, 4]


# ------------------------------------------------------------------ the Spy and forced decisions
def test_face_down_pieces_are_listed_in_the_order_they_were_placed():
    from provost.interpreter.prims_pieces import PLACED, _hidden_at
    g = Game.new("ys", players=4, seed=2)
    mine = [pc for pc in g.s.pieces if pc[1] == 1 and pc[3] == "screen"]
    high, low = max(mine, key=lambda pc: pc[2]), min(mine, key=lambda pc: pc[2])
    for pc, placed in ((high, 5), (low, 9)):
        pc[3], pc[4], pc[PLACED] = "n1_port", 0, placed
    g.piece_index = None
    assert [pc[2] for pc in _hidden_at(g, "broker", 1, "n1_port")] == [high[2], low[2]]
    high[PLACED], low[PLACED] = 9, 5
    assert [pc[2] for pc in _hidden_at(g, "broker", 1, "n1_port")] == [low[2], high[2]]


def test_a_spy_holder_may_look_after_other_players_placements():
    g = Game.new("ys", players=4, seed=8)
    r = random.Random(8)
    while g.s.phase != "placement":
        g.apply(r.choice(g.legal_options()))
    spy_holder = g.s.orders["turn_order"][-1]
    g.s.counters["spy_peeks"][spy_holder] = 3
    looks_at = set()
    for _ in range(200):
        if g.s.phase != "placement" or g.finished:
            break
        if g.prompt().startswith("Spy"):
            looks_at.add(g.current_player())
            assert g.current_player() == spy_holder
            g.apply("done")
            g.s.counters["spy_peeks"][spy_holder] = 3
            continue
        g.apply(r.choice(g.legal_options()))
    assert spy_holder in looks_at


def test_a_single_option_that_depends_on_hidden_information_is_still_asked():
    prog = program_for(load_checked("ys"))
    asked = {n.title for n in prog.nodes if isinstance(n, N.Choose) and n.ask_always}
    assert {"Conjurer: which broker goes before the screen (face up)?", "Play a character card?",
            "Choose a broker to place"} <= asked
    assert not any(n.ask_always for n in program_for(load_checked("caylus")).nodes if isinstance(n, N.Choose))
    # In play, every decision with a single option is one of those.
    g = Game.new("ys", players=4, seed=3)
    r = random.Random(3)
    titles = {n.title for n in prog.nodes if isinstance(n, N.Choose) and not n.ask_always}
    while not g.finished:
        if len(g.legal_options()) == 1:
            assert g.prompt() not in titles or g.prompt() in asked
        g.apply(r.choice(g.legal_options()))


def test_an_observation_is_a_copy():
    g = Game.new("ys", players=4, seed=1)
    before = g.to_json()
    view = g.observation(0)
    view["counters"]["vp"][1] = 99
    view["orders"]["turn_order"].append(9)
    view["zones"]["hand"][0].append("king")
    view["pieces"][0][2] = 99
    assert g.to_json() == before


def test_a_forced_move_is_logged_as_the_same_move_with_a_choice_would_be():
    """Whether a decision was forced may hang on what the others may not see (the values behind
    a screen).  The Conjurer's broker put before the screen is public when there was a choice; a
    forced one is judged in the worlds each seat holds possible: where the owner had a choice
    there, the seat is told it too, and where it never had one, the seat knew it was forced."""
    from provost.interpreter.boardview import _told_in_possible_worlds, who_sees
    rs = load_checked("ys", None, 4)
    told = {1: set(), 2: set()}
    for seed in (0, 6, 10):
        g = Game.new(rs, players=4, seed=seed)
        r = random.Random(seed)
        while not g.finished:
            options = g.legal_options()
            if g.prompt().startswith("Conjurer: which broker"):
                p = g.current_player()
                seen = who_sees(g, p, options[0])
                told[min(len(options), 2)].add(tuple(seen))
                if len(options) == 1:
                    for q in range(4):
                        if q != p:
                            assert (q in seen) == _told_in_possible_worlds(g, p, options[0], q)
            g.apply(r.choice(options))
    assert told[2] == {(0, 1, 2, 3)} and told[1]
