"""A seeded random generator whose whole state is one integer.

splitmix64: tiny, fast enough, and trivially saved in JSON and copied on
clone (Python's Mersenne Twister carries 625 words of state).
"""
from __future__ import annotations

import operator
import secrets

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
#: Seeds are whole numbers below this: logs and saves hold them so (a larger one would alias the
#: seed it is congruent to, and a save of its game would not load).
SEED_LIMIT = 1 << 64


def _mix(z: int) -> int:
    """splitmix64's finaliser: a bijection of 64-bit integers that scatters every input bit."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def seed_state(seed: int, salt: int = 0) -> int:
    """The first state of the stream of SEED (a 64-bit integer; larger ones are taken modulo 2**64).

    The seed is hashed, then the salt (the game's player count) is mixed in and hashed again, so
    the streams of seeds s and s + 1, or of one seed with 3 and 4 players, are unrelated: with
    the seed used as the state directly, seed s + 1's stream was seed s's one draw later.
    """
    return _mix((_mix(seed & MASK) + (salt + 1) * GOLDEN) & MASK)


def checked_seed(seed) -> int:
    """``seed`` as an int if it is a whole number from 0 to 2**64 - 1 (numpy's integers too),
    else a ValueError that says so."""
    try:
        value = operator.index(seed) if not isinstance(seed, bool) else None
    except TypeError:
        value = None
    if value is None or not 0 <= value < SEED_LIMIT:
        raise ValueError("a seed is a whole number from 0 to 2**64 - 1, not %r" % (seed,))
    return value


def seed_span_problem(first: int, count: int) -> str | None:
    """Why games seeded ``first``, ``first + 1``, ... (``count`` of them) cannot all be played
    again alone, or None: the last seed must stay below 2**64."""
    if count > SEED_LIMIT:
        return "%d games are more than there are seeds (2**64): play fewer" % count
    if count > 0 and first + count - 1 >= SEED_LIMIT:
        return ("seeds %d..%d go past 2**64 - 1: take a smaller --seed (at most %d for %d games)"
                % (first, first + count - 1, SEED_LIMIT - count, count))
    return None


def fresh_seed() -> int:
    """A seed drawn from the operating system (63 bits: a sim's seeds S..S+G-1 stay below 2**64)."""
    return secrets.randbits(63)


def next_u64(state: int) -> tuple[int, int]:
    state = (state + GOLDEN) & MASK
    z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK    # _mix, written out: a hot path
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """A uniform integer in [0, n)."""
    state, x = next_u64(state)
    return state, x % n


def shuffle(state: int, items: list) -> int:
    """Fisher-Yates in place; returns the new state."""
    for i in range(len(items) - 1, 0, -1):
        state, j = below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state
