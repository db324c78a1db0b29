"""Agents that choose options for players, and the loop that plays a game with them.

    from provost.interpreter.agents import make_agent, play_game
    agents = [make_agent(name, seed=7, seat=i) for i, name in enumerate(["greedy", "random", "random"])]
    play_game(Game.new("caylus", players=3, seed=7), agents)

Agents: ``random`` (uniform over the legal options), ``greedy`` (one-ply search
with short rollouts and a generic evaluation, for any ruleset), ``policy`` (greedy's
choices learned: one decision ahead, a fraction of greedy's cost), ``mcts`` and ``human``
(a terminal prompt).  Every agent's randomness comes from the game seed and its
seat, so bot games are reproducible.
"""
from __future__ import annotations

from .base import NULL_OPTIONS, Agent, SeededAgent, agent_seed, is_null
from .greedy import GreedyAgent
from .human import HumanAgent, HumanInputEnded, HumanQuit
from .mcts import MCTSAgent
from .policy import PolicyAgent
from .random_agent import RandomAgent


class _Registry(dict):
    """Agent names -> classes; ``NAME:SPEC in AGENTS`` is true for a class with ``from_spec`` (``mcts:200``)."""

    def __contains__(self, name) -> bool:
        if dict.__contains__(self, name):
            return True
        if isinstance(name, str) and ":" in name:
            base, _, spec = name.partition(":")
            cls = self.get(base)
            if cls is not None and hasattr(cls, "from_spec"):
                try:
                    cls.from_spec(0, 0, spec)
                except ValueError:
                    return False
                return True
        return False


AGENTS = _Registry({"random": RandomAgent, "greedy": GreedyAgent, "human": HumanAgent, "mcts": MCTSAgent,
                    "policy": PolicyAgent})
"""Registered agent names -> classes taking ``(seed, seat)``; ``mcts:200`` / ``mcts:0.5s`` set a budget."""


class UnknownAgent(ValueError):
    """An agent name that is not registered; the message lists the known ones."""

    def __init__(self, name: str):
        from provost.dsl.diagnostics import did_you_mean
        super().__init__("unknown agent '%s'%s (known agents: %s)"
                         % (name, did_you_mean(name, AGENTS), ", ".join(AGENTS)))
        self.agent = name


def make_agent(name: str, seed: int = 0, seat: int = 0) -> Agent:
    """A fresh agent ``name`` for ``seat`` of a game seeded ``seed``; ``UnknownAgent`` if unknown."""
    cls = AGENTS.get(name)
    if cls is None and ":" in name:
        base, _, spec = name.partition(":")
        cls = AGENTS.get(base)
        if cls is not None and hasattr(cls, "from_spec"):
            return cls.from_spec(seed, seat, spec)    # a bad budget raises ValueError naming the forms
        raise UnknownAgent(name)
    if cls is None:
        raise UnknownAgent(name)
    return cls(seed, seat)


def play_game(game, agents, log=None, max_decisions: int | None = None, after=None, before=None):
    """Play ``game`` to the end (or ``max_decisions`` more decisions) with one agent per seat.

    ``log`` (a ``gamelog.GameLogWriter``) records every decision and, when the game
    is over, the result.  ``before(game, player)`` is called when a player is to decide, before
    its agent chooses; ``after(game, player, option)`` after each decision (tests check
    invariants there).  Returns the game.
    """
    n = 0
    watchers = [a for a in agents if hasattr(a, "saw")]
    while not game.finished:
        if max_decisions is not None and n >= max_decisions:
            return game
        player = game.current_player()
        if player is None:
            raise RuntimeError("the game is not finished but nobody is to decide")
        if before is not None:
            before(game, player)
        option = agents[player].choose(game, player)
        rnd, phase = game.s.round, game.s.phase
        if watchers:                 # humans see the moves they may know of (boardview.who_sees)
            from provost.interpreter.boardview import who_sees
            seen, prompt = who_sees(game, player, option), game.prompt()
            for w in watchers:
                w.saw(player, option if w.seat in seen else None, prompt)
        game.apply(option)
        n += 1
        if log is not None:
            log.decision(game.s.decisions, player, option, rnd, phase)
        if after is not None:
            after(game, player, option)
    if log is not None:
        log.result(game)
    return game


__all__ = ["AGENTS", "NULL_OPTIONS", "Agent", "GreedyAgent", "HumanAgent", "HumanInputEnded", "HumanQuit",
           "MCTSAgent", "RandomAgent", "SeededAgent", "UnknownAgent", "agent_seed", "is_null", "make_agent",
           "play_game"]
