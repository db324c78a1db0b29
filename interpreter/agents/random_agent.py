"""The random agent: a uniformly random legal option (the baseline every bot must beat)."""
from __future__ import annotations

from .base import SeededAgent


class RandomAgent(SeededAgent):
    name = "random"

    def choose(self, game, player: int) -> str:
        options = game.legal_options()
        return options[self.rng.randrange(len(options))]
