"""Primitives for lists of symbols: decks, hands, supplies of cards (any game)."""
from __future__ import annotations
