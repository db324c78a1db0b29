"""Environment switches (``PROVOST_PURE_PYTHON``, ``PROVOST_NO_CACHE``, ...): one reading for all.

``1``, ``true``, ``yes`` and ``on`` (any case, spaces ignored) turn a switch on; unset, empty,
``0``, ``false``, ``no``, ``off`` or anything else leave it off, so ``NAME=0`` always means off.
"""
from __future__ import annotations

import os

ON = ("1", "true", "yes", "on")


def switch_on(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in ON
