"""Game.determinize: a world consistent with one seat's view, for bots that search."""
from __future__ import annotations

import random

import pytest

from provost.interpreter.engine import Game


@pytest.mark.parametrize("name", ["ys", "caylus1303", "caylus"])
def test_determinized_world_looks_the_same_to_the_viewer_and_plays_on(name):
    for seed in range(6):
        g = Game.new(name, players=4, seed=seed)
        r = random.Random(seed)
        for _ in range(r.randrange(1, 250)):
            if g.finished:
                break
            g.apply(r.choice(g.legal_options()))
        if g.finished:
            continue
        viewer = g.current_player()
        d = g.determinize(viewer, seed)
        assert d.observation(viewer) == g.observation(viewer)
        assert sorted((p[1], p[2]) for p in d.s.pieces) == sorted((p[1], p[2]) for p in g.s.pieces)
        while not d.finished:
            d.apply(r.choice(d.legal_options()))


def test_hidden_values_and_decks_are_redealt():
    g = Game.new("ys", players=4, seed=5)
    r = random.Random(5)
    while g.s.phase != "placement" or g.s.round < 2:
        g.apply(r.choice(g.legal_options()))
    viewer = g.current_player()
    changed_deck = changed_piece = False
    for k in range(20):
        d = g.determinize(viewer, k)
        changed_deck |= d.s.zones["ship_deck"] != g.s.zones["ship_deck"]
        changed_piece |= [p[2] for p in d.s.pieces] != [p[2] for p in g.s.pieces]
        assert d.s.rng != g.s.rng
    assert changed_deck and changed_piece
    # The viewer's own brokers never change.
    d = g.determinize(viewer, 1)
    mine = lambda game: [p for p in game.s.pieces if p[1] == viewer]  # noqa: E731
    assert mine(d) == mine(g)
