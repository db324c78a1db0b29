"""A single-agent Gymnasium environment: one seat of a provost game against bundled bots.

    import gymnasium
    import provost.adapters.gym_env                       # registers the ids below
    env = gymnasium.make("provost/Caylus-v0", players=4, opponents="greedy")
    obs, info = env.reset(seed=1)
    action = info["action_mask"].nonzero()[0][0]
    obs, reward, terminated, truncated, info = env.step(action)

Registered ids: ``provost/Caylus-v0``, ``provost/Caylus1303-v0``, ``provost/Ys-v0`` (any other rule
file: ``ProvostEnv("path/to/my.rules")``).  Options: ``variant``, ``players``, ``opponents`` (an
agent name for every other seat, or one per seat: ``"random"``, ``"greedy"``, ``"policy"``,
``"mcts:50"``), ``seat`` (the learner's seat, default 0), ``reward`` (``"rank"`` or ``"score"``,
as in ``provost.interpreter.rewards``), ``max_decisions``, ``render_mode`` (``"ansi"``,
``"rgb_array"``).

- Observation: the learner's seat's observation vector (``provost.adapters.encoding``: only what
  that seat may see), a float32 Box.
- Action: an index into the ruleset's action catalogue; ``info["action_mask"]`` and
  ``env.action_masks()`` (the method sb3-contrib's MaskablePPO calls) give the legal ones.  An
  illegal index ends the episode with reward -1 and ``info["illegal_action"]`` naming the legal
  actions (as PettingZoo's TerminateIllegalWrapper does).
- The opponents play between the learner's decisions; the reward is 0 until the game ends, then
  the learner's final reward.  ``info`` holds the action mask; once the game is over also
  ``scores`` (one per player, in seat order), ``neutral_scores`` (the seats the rules play, Ys
  for 2) and ``winners``, as PettingZoo's ``info`` and ``Game.result`` give them.  ``reset(seed=S)`` plays engine game S's seed drawn from Gymnasium's
  seeded generator, opponents seeded from it, so an episode is reproducible from its seed.  S is
  what Gymnasium's generator takes, a Python int >= 0 of any size; another raises ``SeedError``,
  a ValueError that is also ``gymnasium.error.Error``.
"""
from __future__ import annotations

import gymnasium
import numpy as np
from gymnasium import spaces

from provost.dsl.loader import load_checked
from provost.interpreter.agents import make_agent
from provost.interpreter.engine import Game
from provost.interpreter.rewards import REWARD_KINDS, final_info, final_rewards

from .catalogue import DEFAULT_GAMES, catalogue_for
from .encoding import ObservationEncoder
from .pickling import PicklesAsSave, rules_arguments
from .rendering import board_image, board_text, require_pillow

#: The reward of an illegal action, which ends the episode: the worst a finished game gives.
ILLEGAL_REWARD = -1.0
ENV_IDS = {"provost/Caylus-v0": "caylus", "provost/Caylus1303-v0": "caylus1303", "provost/Ys-v0": "ys"}


class SeedError(ValueError, gymnasium.error.Error):
    """A seed ``reset`` cannot take: a ValueError, and the error Gymnasium's own seeding raises."""


class ProvostEnv(PicklesAsSave, gymnasium.Env):
    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 2}
    EPISODE = ("_np_random", "_np_random_seed", "_game_seed", "_decisions", "_illegal")

    def __init__(self, ruleset: str = "caylus", variant: str | None = None, players: int | None = None,
                 opponents="random", seat: int = 0, reward: str = "rank", max_decisions: int | None = None,
                 render_mode: str | None = None, catalogue_games: int = DEFAULT_GAMES):
        if reward not in REWARD_KINDS:
            raise ValueError("unknown reward '%s' (known: %s)" % (reward, ", ".join(REWARD_KINDS)))
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError("unknown render_mode '%s' (known: %s)" % (render_mode, ", ".join(self.metadata["render_modes"])))
        if render_mode == "rgb_array":
            require_pillow()
        self.rs = load_checked(ruleset, variant, players) if isinstance(ruleset, str) else ruleset
        self._arguments = dict(rules_arguments(self.rs), players=players, opponents=opponents, seat=seat, reward=reward,
                               max_decisions=max_decisions, render_mode=render_mode, catalogue_games=catalogue_games)
        first = Game.new(self.rs, players=players, seed=0)
        self.players = first.s.humans
        if not 0 <= seat < self.players:
            raise ValueError("seat %d: the learner sits at one of seats 0..%d" % (seat, self.players - 1))
        names = [opponents] * self.players if isinstance(opponents, str) else list(opponents)
        if len(names) == self.players - 1:
            names.insert(seat, "learner")
        if len(names) != self.players:
            raise ValueError("opponents: one name, or one per other seat (%d)" % (self.players - 1))
        for k, name in enumerate(names):
            if k != seat:
                if name == "human":             # it would wait on stdin inside step() (or a worker process)
                    raise ValueError("opponents: 'human' is for provost play (or provost serve); the opponents "
                                     "of an environment are bots (random, greedy, policy, mcts:N)")
                make_agent(name, 0, k)          # an unknown name fails here, naming the known ones
        self.opponent_names, self.seat = names, seat
        self.catalogue = catalogue_for(self.rs, players=self.players, games=catalogue_games)
        self.encoder = ObservationEncoder(first, self.catalogue)
        self.observation_space = spaces.Box(low=-np.inf, high=np.inf, shape=(self.encoder.size,), dtype=np.float32)
        self.action_space = spaces.Discrete(len(self.catalogue))
        self.reward_kind, self.max_decisions, self.render_mode = reward, max_decisions, render_mode
        self.game: Game | None = None
        self._opponents: dict = {}
        self._game_seed = 0
        self._decisions = 0
        self._illegal = False

    # ------------------------------------------------------------ episode
    def reset(self, seed: int | None = None, options: dict | None = None):
        if seed is not None and not (isinstance(seed, int) and seed >= 0):
            # What Gymnasium's own generator accepts, said before it refuses it in its words.
            raise SeedError("reset(seed=...) takes None or a whole number >= 0, a Python int as Gymnasium's "
                            "seeding takes; not %r" % (seed,))
        super().reset(seed=seed)
        self._game_seed = int(self.np_random.integers(0, 2 ** 63))
        self.game = Game.new(self.rs, players=self.players, seed=self._game_seed)
        self._opponents = self._new_opponents()
        self._decisions = 0
        self._illegal = False
        self._play_opponents()
        return self._observation(), self._info()

    def step(self, action):
        g = self.game
        if g is None:
            raise RuntimeError("call reset() before step()")
        if g.finished or self._illegal:
            raise RuntimeError("the episode is over: call reset()")
        legal = g.legal_options()
        option = self.catalogue.option_at(action)
        if option not in legal:
            # As PettingZoo's TerminateIllegalWrapper: the episode ends, lost, and says why.
            info = self._info()
            info["illegal_action"] = self.catalogue.illegal(action, legal, "seat %d" % self.seat)
            self._illegal = True
            return self._observation(), ILLEGAL_REWARD, True, False, info
        g.apply(option)
        self._decisions += 1
        self._play_opponents()
        terminated = g.finished
        truncated = not terminated and self.max_decisions is not None and self._decisions >= self.max_decisions
        reward = float(final_rewards(g, self.reward_kind)[self.seat]) if terminated else 0.0
        return self._observation(), reward, terminated, truncated, self._info()

    def _new_opponents(self) -> dict:
        return {k: make_agent(name, self._game_seed, k) for k, name in enumerate(self.opponent_names) if k != self.seat}

    def __getstate__(self) -> dict:
        # The opponents are made again from their names and the game's seed: their generators'
        # states (plain data) are what they carry from one decision to the next.
        return dict(super().__getstate__(), opponents={k: a.rng.getstate() for k, a in self._opponents.items()})

    def __setstate__(self, state: dict) -> None:
        super().__setstate__(state)
        self._opponents = self._new_opponents() if state["opponents"] else {}
        for k, rng in state["opponents"].items():
            self._opponents[k].rng.setstate(rng)

    def _play_opponents(self) -> None:
        g = self.game
        while not g.finished and g.current_player() != self.seat:
            player = g.current_player()
            g.apply(self._opponents[player].choose(g, player))

    # ------------------------------------------------------------ views
    def action_masks(self) -> np.ndarray:
        mask = np.zeros(len(self.catalogue), dtype=bool)
        g = self.game
        if g is not None and not g.finished and g.current_player() == self.seat:
            mask[self.catalogue.legal_indices(g)] = True
        return mask

    def _observation(self) -> np.ndarray:
        return np.asarray(self.encoder.encode(self.game.observation(self.seat)), dtype=np.float32)

    def _info(self) -> dict:
        g = self.game
        info = {"action_mask": self.action_masks()}
        if g.finished:
            info.update(final_info(g))
        return info

    def render(self):
        if self.render_mode is None or self.game is None:
            return None
        return board_image(self.game) if self.render_mode == "rgb_array" else board_text(self.game)


def register_envs() -> None:
    """Register the shipped games' ids (run on import; ``gymnasium.make("provost.adapters.gym_env:
    provost/Ys-v0")`` imports the module itself)."""
    for env_id, ruleset in ENV_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point="provost.adapters.gym_env:ProvostEnv",
                               kwargs={"ruleset": ruleset})


register_envs()
