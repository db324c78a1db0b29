"""The seeds of the games a server sets up without one of their own.

``provost serve --seed S`` makes a reproducible table: the k-th such game (k = 0, 1, ...) since
the server started is played on a seed derived from S and k, so the same ``--seed`` deals the same
games again.  Never on S itself: a finished game's log holds its seed, and one game's seed must
tell nothing of another's, so S is never sent to any page or answer.  Without ``--seed`` each
game's seed is drawn from the operating system.
"""
from __future__ import annotations

import hashlib
import threading


class SeedSource:
    def __init__(self, base: int | None):
        self._base = base
        self._count = 0
        self._lock = threading.Lock()       # (new games may be set up from worker threads)

    def next(self) -> int:
        if self._base is None:
            from provost.interpreter.rng import fresh_seed
            return fresh_seed()
        with self._lock:
            k, self._count = self._count, self._count + 1
        digest = hashlib.sha256(("provost-serve:%d:%d" % (self._base, k)).encode()).digest()
        return int.from_bytes(digest[:8], "big")
