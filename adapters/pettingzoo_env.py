"""A PettingZoo AEC environment for any provost ruleset and variant.

    from provost.adapters.pettingzoo_env import env
    e = env("caylus", players=4)
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else policy(obs["observation"], obs["action_mask"])
        e.step(action)

- Agents are ``player_0`` ... one per deciding seat (neutral seats are played by the rules).
  Multi-step turns (place a worker, then choose what the building gives) keep
  ``agent_selection`` on the same agent; whose turn it is always comes from the engine.
- Observations: ``{"observation": float32[...], "action_mask": int8[len(catalogue)]}``.
  The vector encodes only ``game.observation(seat)`` (``provost.adapters.encoding``), so it
  never holds another player's hidden values; the mask is all zeros except for
  the agent to move.
- Actions: indexes into the ruleset's fixed action catalogue (``provost.adapters.catalogue``);
  ``env.unwrapped.catalogue.action_of(i)`` is the option id.  An illegal index
  raises ``ValueError`` naming the legal options (wrap the env with PettingZoo's
  ``TerminateIllegalWrapper`` to punish instead); a legal option missing from the
  catalogue raises ``ActionNotInCatalogue``.
- Rewards: 0 until the game ends, then ``reward="rank"`` (default: +1 sole winner ...
  -1 last, zero-sum, ties by the game's tiebreak then shared) or ``"score"`` (own score
  minus the best other's); see ``provost.interpreter.rewards``.
- Seeding: ``reset(seed=S)`` plays the engine game seeded ``S``; a later ``reset()``
  without a seed draws the next game seed from a generator seeded by the last
  ``S``, so a run is reproducible from its first seed.
- ``max_decisions`` (optional) truncates a game after that many decisions.
- ``state()`` (with ``state_space``): every seat's observation vector side by side, for
  centralised critics.  ``render_mode``: ``"ansi"`` and ``"human"`` draw the board as a
  spectator sees it (text), ``"rgb_array"`` the same as an image (Pillow).
"""
from __future__ import annotations

import random

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from provost.dsl.loader import load_checked
from provost.interpreter.engine import Game
from provost.interpreter.rng import checked_seed

from .catalogue import DEFAULT_GAMES, catalogue_for
from .encoding import ObservationEncoder
from .pickling import PicklesAsSave, rules_arguments
from .rendering import board_image, board_text, require_pillow
from provost.interpreter.rewards import REWARD_KINDS, final_info, final_rewards


class ProvostAECEnv(PicklesAsSave, AECEnv):
    metadata = {"name": "provost_v0", "render_modes": ["ansi", "human", "rgb_array"], "is_parallelizable": False}
    EPISODE = ("_seeds", "agents", "rewards", "_cumulative_rewards", "terminations", "truncations", "infos",
               "agent_selection", "_decisions")

    def __init__(self, ruleset: str = "caylus", variant: str | None = None, players: int | None = None,
                 reward: str = "rank", max_decisions: int | None = None, render_mode: str | None = None,
                 catalogue_games: int = DEFAULT_GAMES):
        super().__init__()
        if reward not in REWARD_KINDS:
            raise ValueError("unknown reward '%s' (known: %s)" % (reward, ", ".join(REWARD_KINDS)))
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError("unknown render_mode '%s'" % render_mode)
        if render_mode == "rgb_array":
            require_pillow()
        self.rs = load_checked(ruleset, variant, players) if isinstance(ruleset, str) else ruleset
        self._arguments = dict(rules_arguments(self.rs), players=players, reward=reward, max_decisions=max_decisions,
                               render_mode=render_mode, catalogue_games=catalogue_games)
        g0 = Game.new(self.rs, players=players, seed=0)
        self.players = g0.s.humans
        self.catalogue = catalogue_for(self.rs, players=self.players, games=catalogue_games)
        self.encoder = ObservationEncoder(g0, self.catalogue)
        self.reward_kind = reward
        self.max_decisions = max_decisions
        self.render_mode = render_mode
        self.metadata = dict(self.metadata, name="provost_%s_v0" % (self.rs.name + ("_" + self.rs.variant if self.rs.variant else "")))
        self.possible_agents = ["player_%d" % i for i in range(self.players)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        n_actions = len(self.catalogue)
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(low=-np.inf, high=np.inf, shape=(self.encoder.size,), dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(n_actions,), dtype=np.int8),
            }) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n_actions) for a in self.possible_agents}
        # state(): every seat's observation vector, side by side (for centralised critics).
        self.state_space = spaces.Box(low=-np.inf, high=np.inf, shape=(self.encoder.size * self.players,),
                                      dtype=np.float32)
        self.game: Game | None = None
        self._seeds = random.Random()
        self.agents = []

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # ------------------------------------------------------------ episode
    def reset(self, seed: int | None = None, options: dict | None = None):
        if seed is not None:
            game_seed = checked_seed(seed)      # numpy's integers too; 1.5, "1" or True refused
            self._seeds = random.Random(game_seed)
        else:
            game_seed = self._seeds.randrange(2 ** 31)
        self.game = Game.new(self.rs, players=self.players, seed=game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._decisions = 0
        if self.game.finished:                # a game with no decision at all
            self._finish()
        else:
            self.agent_selection = self.possible_agents[self.game.current_player()]

    def observe(self, agent):
        seat = self.agent_name_mapping[agent]
        g = self.game
        vec = np.asarray(self.encoder.encode(g.observation(seat)), dtype=np.float32)
        mask = np.zeros(len(self.catalogue), dtype=np.int8)
        if not g.finished and g.current_player() == seat:
            mask[self.catalogue.legal_indices(g)] = 1
        return {"observation": vec, "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        g = self.game
        legal = g.legal_options()
        option = self.catalogue.option_at(action)
        if option is None or option not in legal:
            raise ValueError(self.catalogue.illegal(action, legal, agent))
        self._cumulative_rewards[agent] = 0.0
        g.apply(option)
        self._decisions += 1
        if g.finished:
            self._finish()
        elif self.max_decisions is not None and self._decisions >= self.max_decisions:
            for a in self.agents:
                self.truncations[a] = True
            self.agent_selection = agent
        else:
            self.agent_selection = self.possible_agents[g.current_player()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _finish(self):
        g = self.game
        rewards = final_rewards(g, self.reward_kind)
        for a in self.agents:
            i = self.agent_name_mapping[a]
            self.rewards[a] = float(rewards[i])
            self.terminations[a] = True
            self.infos[a] = final_info(g)
        self.agent_selection = self.agents[0]

    # ------------------------------------------------------------ views
    def state(self) -> np.ndarray:
        """The global state for centralised training: every seat's observation vector in seat
        order (so all that any seat holds privately; a deck's order, seen by nobody, is not in it)."""
        g = self.game
        return np.concatenate([np.asarray(self.encoder.encode(g.observation(seat)), dtype=np.float32)
                               for seat in range(self.players)])

    def render(self):
        """The board as a spectator sees it (``provost.adapters.rendering``): text for "ansi" and
        "human", an RGB array for "rgb_array"; scores the rules hide stay hidden."""
        if self.render_mode is None or self.game is None:
            return None
        if self.render_mode == "rgb_array":
            return board_image(self.game)
        text = board_text(self.game)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        self.game = None


def raw_env(ruleset: str = "caylus", **kwargs) -> ProvostAECEnv:
    return ProvostAECEnv(ruleset, **kwargs)


def env(ruleset: str = "caylus", **kwargs):
    """The environment with PettingZoo's standard out-of-bounds and order-enforcing wrappers."""
    e = raw_env(ruleset, **kwargs)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)
