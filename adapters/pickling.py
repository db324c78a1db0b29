"""Pickling an environment as what rebuilds it.

The compiled rules an environment holds are closures, which do not pickle, and the engine's
objects are no format to keep.  An environment is pickled instead as

- its construction arguments, the rules named as a save names them (a shipped name, or the rule
  file's absolute path, and the variants), so that unpickling loads and compiles the same rules;
- its game as the engine saves it (``Game.to_json``), resumed with ``Game.from_json``, which
  checks the save against the rules (their digest included) as it checks any save;
- the episode's own plain data the class lists in ``EPISODE`` (counts, flags, random generators).

Unpickling runs ``__init__`` with the arguments, resumes the game and puts the episode's data
back: the same observations, masks and continuation (gymnasium's AsyncVectorEnv with the
``spawn`` context, Ray, ``copy.deepcopy``).  As any pickle, unpickle only what you pickled.
"""
from __future__ import annotations

from provost.interpreter.engine import Game


def rules_arguments(rs) -> dict:
    """The ``ruleset`` and ``variant`` arguments that load ``rs`` again, in any process."""
    return {"ruleset": rs.source_path or rs.name, "variant": rs.variant_source or rs.variant}


class PicklesAsSave:
    """Pickling for an environment that keeps its construction arguments in ``_arguments``, its
    rules in ``rs`` and its engine game (or None) in ``game``."""

    #: The attributes holding the episode's plain data, pickled as they are.
    EPISODE: tuple[str, ...] = ()

    def __getstate__(self) -> dict:
        return {"arguments": self._arguments, "game": None if self.game is None else self.game.to_json(),
                "episode": {k: getattr(self, k) for k in self.EPISODE if hasattr(self, k)}}

    def __setstate__(self, state: dict) -> None:
        self.__init__(**state["arguments"])
        self.game = None if state["game"] is None else Game.from_json(state["game"], self.rs)
        self.__dict__.update(state["episode"])
