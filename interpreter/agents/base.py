"""The agent protocol and what every agent shares.

An agent is anything with ``choose(game, player) -> option id``.  Agents never
touch the game: the driver (``provost.interpreter.agents.play_game``) applies the id
they return.  Every agent owns a ``random.Random`` seeded from the game seed
and its seat (``agent_seed``), so a game played by bots is reproducible from
(ruleset, players, seed, agent names) alone, in any process.
"""
from __future__ import annotations

import hashlib
import random
from typing import Protocol, runtime_checkable

#: Option ids that mean "do nothing here" in the shipped rule files (the engine's
#: own builders use ``skip`` and ``pass``).  Agents use this to prefer doing something
#: productive; it is a convention on ids, not knowledge of any one game.
NULL_OPTIONS = frozenset({"pass", "skip", "stop", "stay", "back", "none", "nothing", "done", "no", "decline"})


def is_null(option: str) -> bool:
    """True for an option that just passes, skips or stops."""
    return option in NULL_OPTIONS


def agent_seed(seed: int, seat: int) -> int:
    """A 64-bit seed for the agent in ``seat`` of a game seeded ``seed``.

    Derived with SHA-256 rather than ``hash()`` so that it is the same in every
    process (``PYTHONHASHSEED`` does not matter).
    """
    digest = hashlib.sha256(("provost-agent:%d:%d" % (seed, seat)).encode()).digest()
    return int.from_bytes(digest[:8], "big")


@runtime_checkable
class Agent(Protocol):
    """Chooses one of the legal options for ``player`` (the player to move)."""

    name: str

    def choose(self, game, player: int) -> str:  # pragma: no cover - a protocol
        ...


class SeededAgent:
    """Base class: remembers the seat and owns the seeded random generator."""

    name = "agent"

    def __init__(self, seed: int = 0, seat: int = 0):
        self.seed, self.seat = seed, seat
        self.rng = random.Random(agent_seed(seed, seat))

    def choose(self, game, player: int) -> str:
        raise NotImplementedError

    def __repr__(self) -> str:
        return "%s(seed=%d, seat=%d)" % (type(self).__name__, self.seed, self.seat)


def best_option(scored, rng: random.Random) -> str:
    """The option of ``(option, value)`` pairs with the highest value; near-ties (within 1e-9)
    broken with ``rng``, drawing only when there is a tie."""
    best, best_v = [], None
    for opt, v in scored:
        if best_v is None or v > best_v + 1e-9:
            best, best_v = [opt], v
        elif v >= best_v - 1e-9:
            best.append(opt)
    return best[0] if len(best) == 1 else best[rng.randrange(len(best))]
