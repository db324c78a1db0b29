"""A seeded random generator whose whole state is one integer.

splitmix64: tiny, fast enough, and trivially saved in JSON and copied on
clone (Python's Mersenne Twister carries 625 words of state).
"""
from __future__ import annotations

MASK = (1 << 64) - 1


def seed_state(seed: int) -> int:
    return (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & MASK


def next_u64(state: int) -> tuple[int, int]:
    state = (state + 0x9E3779B97F4A7C15) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
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
