"""The engine: executable rules, game state, agents.

Before any engine module is imported, compiled copies that no longer match their sources
are set aside (interpreter/accelerate.py).
"""
from .accelerate import install as _install

_install()
