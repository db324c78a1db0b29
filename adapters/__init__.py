"""provost games in the AI ecosystem.

- ``provost.adapters.catalogue``: the fixed action catalogue (option id <-> integer) of a ruleset.
- ``provost.adapters.encoding``: a flat numeric vector of what one player may see.
- ``provost.interpreter.rewards``: final rewards (rank or score difference).
- ``provost.adapters.pettingzoo_env``: a PettingZoo AEC environment (``pip install provost[pettingzoo]``).
- ``provost.adapters.openspiel_game``: an OpenSpiel Python game (``pip install provost[openspiel]``).

Nothing is imported eagerly: the optional libraries are imported only by their own modules.
"""
from __future__ import annotations

__all__ = ["ActionNotInCatalogue", "Catalogue", "catalogue_for"]


def __getattr__(name):
    if name in __all__:
        from . import catalogue
        return getattr(catalogue, name)
    raise AttributeError(name)
