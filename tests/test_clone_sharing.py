"""A shared clone (``Game.clone(shared=True)``) shares the lists of counters, zones, orders,
occupants and pieces with the game it was taken from until one side changes one (copy on write,
`State.own_*`): whatever either side plays, the other side's state stays byte for byte what it
was.  Searches rely on it: greedy and MCTS clone at every option, play the clone on and drop it.
A plain ``clone()`` owns every list, so a state edited by hand changes nothing else.
"""
from __future__ import annotations

import random

import pytest

from provost.dsl.loader import load_checked
from provost.interpreter.agents.mcts import determinize as mcts_determinize
from provost.interpreter.engine import Game
from provost.interpreter.prims_pieces import PieceIndex
from provost.interpreter.state import State


def _play(g, n, rng):
    for _ in range(n):
        if g.s.finished:
            return
        options = g.legal_options()
        g.apply(options[rng.randrange(len(options))])


@pytest.mark.parametrize("name,players", [("caylus", 4), ("caylus1303", 3), ("ys", 4), ("ys", 2)])
def test_clones_and_their_original_never_change_each_other(name, players):
    rs = load_checked(name, None, players)
    g = Game.new(rs, players=players, seed=21)
    rng = random.Random(21)
    checked = 0
    while not g.s.finished:
        before = g.to_json()
        # Several clones of one position, each played on a different way, and a clone of a clone.
        clones = [g.clone(shared=True) for _ in range(3)]
        for k, c in enumerate(clones):
            _play(c, 3 + 4 * k, random.Random(k))
        deeper = clones[0].clone(shared=True)
        kept = clones[0].to_json()
        _play(deeper, 6, random.Random(99))
        assert clones[0].to_json() == kept, "a clone of a clone changed the clone"
        assert g.to_json() == before, "playing on clones changed the original"
        # The original plays on: the clones keep the positions they reached.
        after = [c.to_json() for c in clones]
        _play(g, 1 + rng.randrange(4), rng)
        assert [c.to_json() for c in clones] == after, "playing on the original changed a clone"
        checked += 1
    assert checked > 10


@pytest.mark.parametrize("name", ["ys", "caylus1303"])
def test_determinized_copies_leave_the_game_alone(name):
    # Both determinizations deal hidden values and zone items anew in their copy: in place, on
    # lists the copy shares with the game until then.
    rs = load_checked(name)
    g = Game.new(rs, players=4, seed=5)
    rng = random.Random(5)
    while not g.s.finished:
        before = g.to_json()
        p = g.current_player()
        a = g.determinize(p, rng.randrange(1 << 30))
        b = mcts_determinize(g, p, random.Random(rng.randrange(1 << 30)))
        _play(a, 5, random.Random(1))
        _play(b, 5, random.Random(2))
        assert g.to_json() == before
        _play(g, 2, rng)


def test_the_piece_index_follows_pieces_copied_on_write():
    rs = load_checked("ys")
    g = Game.new(rs, players=4, seed=8)
    rng = random.Random(8)
    _play(g, 30, rng)
    c = g.clone(shared=True)
    _play(c, 12, random.Random(3))          # places, shows and gathers pieces of the clone
    for game in (g, c):
        ix = game.piece_index
        if ix is not None and ix.still_valid(game.s.pieces):
            assert ix.flat() == PieceIndex(game.s.pieces).flat()
    assert isinstance(c.piece_index, (PieceIndex, type(None)))


def test_own_copies_once_after_a_clone_and_never_before():
    s = State(2)
    s.counters["coins"] = [3, 4]
    s.zones["deck"] = ["a", "b"]
    s.orders["turn_order"] = [0, 1]
    s.occ["inn"] = [1]
    s.pieces = [["broker", 0, 2, "screen", 0, 0, 0]]
    lists = (s.counters["coins"], s.zones["deck"], s.orders["turn_order"], s.occ["inn"], s.pieces[0])
    # A state never cloned owns every list.
    assert s.own_counter("coins") is lists[0] and s.own_zone("deck") is lists[1]
    assert s.own_order("turn_order") is lists[2] and s.own_occupants("inn") is lists[3]
    assert s.own_piece(0) is lists[4]
    c = s.clone(shared=True)
    for state in (s, c):
        mine = (state.own_counter("coins"), state.own_zone("deck"), state.own_order("turn_order"),
                state.own_occupants("inn"), state.own_piece(0))
        assert all(m is not shared and m == shared for m, shared in zip(mine, lists))
        # The second time, the list is already the state's own.
        again = (state.own_counter("coins"), state.own_zone("deck"), state.own_order("turn_order"),
                 state.own_occupants("inn"), state.own_piece(0))
        assert all(x is y for x, y in zip(mine, again))
    assert c.own_occupants("castle") is None
    new = c.own_occupants("castle", True)
    assert new == [] and c.occ["castle"] is new and "castle" not in s.occ


def test_a_plain_clone_can_be_edited_by_hand():
    rs = load_checked("ys")
    g = Game.new(rs, players=4, seed=4)
    _play(g, 40, random.Random(4))
    g.clone(shared=True)            # a search ran on the game: its lists were shared for a while
    before = g.to_json()
    h = g.clone()
    h.s.pieces[0][3] = "elsewhere"
    for name, v in h.s.counters.items():
        if type(v) is list and v and type(v[0]) is int:
            v[0] += 1
    for v in h.s.zones.values():
        if type(v) is list:
            v.append("x")
    for v in list(h.s.orders.values()) + list(h.s.occ.values()):
        v.append(9)
    assert g.to_json() == before
    assert h.s.owned is None


def _lists_within(v):
    """Every list inside ``v`` (a zone, a tile's entry), the outer one included."""
    if type(v) is dict:
        for x in v.values():
            yield from _lists_within(x)
    elif type(v) is list:
        yield v
        for x in v:
            yield from _lists_within(x)


@pytest.mark.parametrize("name,moves", [("ys", 12), ("caylus", 60)])
def test_a_plain_clone_owns_the_lists_inside_cards_and_tiles(name, moves):
    """A card made of a list (a Ys placement card, [space, value]) or a tile's entry (its
    owner), edited by hand in a plain clone, leaves the game alone."""
    g = Game.new(name, players=4, seed=4)
    _play(g, moves, random.Random(4))
    g.clone(shared=True)
    before = g.to_json()
    h = g.clone()
    inner = [x for v in list(h.s.zones.values()) + list(h.s.tiles.values()) for x in _lists_within(v)]
    if name == "ys":        # a card that is a list: [space, value] in `just_placed`
        assert any(type(card) is list for row in h.s.zones["just_placed"] for card in row)
    for x in inner:
        x.append("x")
    assert g.to_json() == before


@pytest.mark.parametrize("distinct", [3, 40])
def test_a_clone_copies_each_frames_bindings_once_and_keeps_them_shared(distinct):
    """Frames that share their bindings share the copies too, and no copy is the original's:
    a few bindings (a game's usual stack) and more than a clone looks up in a list (a deep
    recursion), which it then finds through a table."""
    g = Game.new("ys", players=4, seed=3)
    s = g.s
    envs = [{"player": 0, "depth": k, "kept": [k, k + 1]} for k in range(distinct)]
    top = s.stack[-1]
    # Each binding under two frames, as the frames of one block share their scope's bindings.
    s.stack = s.stack[:-1] + [[top[0], 0, env, None] for env in envs for _ in range(2)] + [top]
    s.deferred = [["nowhere", top[0], envs[0]]]
    copy = s.clone(shared=True)
    copied = [f[2] for f in copy.stack[-1 - 2 * distinct:-1]]
    for k, env in enumerate(envs):
        first, second = copied[2 * k], copied[2 * k + 1]
        assert first is second and first is not env and first == env
        assert first["kept"] is not env["kept"]          # a list the rules keep: a copy of its own
    assert copy.deferred[0][2] is copied[0]
    copied[0]["depth"] = -1
    assert envs[0]["depth"] == 0
