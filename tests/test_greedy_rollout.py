"""The greedy agent plays its rollouts on from the copy its myopic policy already made of the
chosen option, instead of applying that option again: the values, and so the choices, must be
exactly those of the plain definition -- choose myopically, then apply the choice to the rollout's
game -- with the random draws in the same order."""
from __future__ import annotations

import random

import pytest

from provost.dsl.loader import load_checked
from provost.interpreter.agents.base import NULL_OPTIONS
from provost.interpreter.agents.greedy import GreedyAgent
from provost.interpreter.engine import Game


class ReapplyingGreedy(GreedyAgent):
    """The rollout as defined: every choice applied to the rollout's own game."""

    def _rollout(self, game, player, round_, horizon):
        s = game.s
        for _ in range(horizon):
            if s.finished or s.round != round_:
                break
            options = s.pending["options"]
            if len(options) == 1:
                opt = options[0]
            elif s.pending["player"] == player:
                opt = self._myopic(game, player, options)[0]
            else:
                opt = next((o for o in options if o in NULL_OPTIONS), None)
                if opt is None:
                    opt = options[self.rng.randrange(len(options))]
            game.apply(opt)
        return game


@pytest.mark.parametrize("name,players", [("caylus", 4), ("caylus1303", 3), ("ys", 2)])
def test_rollouts_played_on_from_the_myopic_copy_value_options_as_defined(name, players):
    rs = load_checked(name, None, players)
    g = Game.new(rs, players=players, seed=5)
    rng = random.Random(5)
    compared = 0
    while not g.s.finished and compared < 6:
        options = g.legal_options()
        if len(options) > 1:
            seat = g.s.pending["player"]
            fast, plain = GreedyAgent(seed=9, seat=seat), ReapplyingGreedy(seed=9, seat=seat)
            assert fast.choose_with_values(g, seat) == plain.choose_with_values(g, seat)
            assert fast.rng.getstate() == plain.rng.getstate()
            compared += 1
        for _ in range(1 + rng.randrange(12)):          # on to a later position
            if g.s.finished:
                break
            options = g.legal_options()
            g.apply(options[rng.randrange(len(options))])
    assert compared == 6
