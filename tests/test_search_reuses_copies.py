"""The greedy and MCTS agents play their rollouts on from the copy their myopic policy already
made of the chosen option, instead of applying that option again: the values, and so the choices,
must be exactly those of the plain definition -- choose, then apply the choice to the game played
on -- with the random draws in the same order."""
from __future__ import annotations

import random

import pytest

from provost.dsl.loader import load_checked
from provost.interpreter.agents.base import NULL_OPTIONS
from provost.interpreter.agents.greedy import GreedyAgent
from provost.interpreter.agents.mcts import MCTSAgent
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


class ReapplyingMCTS(MCTSAgent):
    """The default policy as defined: its choice applied to the game played on."""

    def _play_default(self, game, player, options):
        game.apply(self._default(game, player, options)[0])
        return game


def _positions(name, players, count):
    """``count`` positions with a choice to make, from a seeded random game."""
    rs = load_checked(name, None, players)
    g = Game.new(rs, players=players, seed=5)
    rng = random.Random(5)
    found = 0
    while not g.s.finished and found < count:
        if len(g.legal_options()) > 1:
            yield g
            found += 1
        for _ in range(1 + rng.randrange(12)):          # on to a later position
            if g.s.finished:
                break
            options = g.legal_options()
            g.apply(options[rng.randrange(len(options))])
    assert found == count


@pytest.mark.parametrize("name,players", [("caylus", 4), ("caylus1303", 3), ("ys", 2)])
def test_greedy_rollouts_played_on_from_the_myopic_copy_value_options_as_defined(name, players):
    for g in _positions(name, players, 6):
        seat = g.s.pending["player"]
        fast, plain = GreedyAgent(seed=9, seat=seat), ReapplyingGreedy(seed=9, seat=seat)
        assert fast.choose_with_values(g, seat) == plain.choose_with_values(g, seat)
        assert fast.rng.getstate() == plain.rng.getstate()


@pytest.mark.parametrize("name,players,model", [("caylus", 4, "null"), ("caylus1303", 3, "greedy"),
                                                ("ys", 3, "greedy")])
def test_mcts_plays_on_from_the_myopic_copy_and_chooses_as_defined(name, players, model):
    for g in _positions(name, players, 3):
        seat = g.s.pending["player"]
        agents = [cls(seed=9, seat=seat, iterations=12) for cls in (MCTSAgent, ReapplyingMCTS)]
        for a in agents:
            a.opponent_model = model            # "greedy": the others' choices are myopic too
        fast, plain = agents
        assert fast.choose(g, seat) == plain.choose(g, seat)
        assert fast.rng.getstate() == plain.rng.getstate()
        assert fast.stats["iterations"] == plain.stats["iterations"]
