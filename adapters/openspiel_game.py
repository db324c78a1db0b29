"""OpenSpiel Python games for provost rulesets.

    import provost.adapters.openspiel_game          # registers python_provost_caylus, _caylus1303, _ys
    import pyspiel
    game = pyspiel.load_game("python_provost_ys", {"players": 4})
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)

``register(ruleset)`` registers any other ruleset (a shipped name or a path) as
``python_provost_<name>`` (``_<variant>`` added for a variant file, and the rules' digest when
other rules of that name are registered: an edited copy of a shipped game); its parameters are ``variant`` (a variant name, ""
for the base rules), ``players`` and ``seed`` (an OpenSpiel int, -2**31 to 2**31 - 1: another is a
ValueError naming that range from the game and from ``load(ruleset, **params)``, while
``pyspiel.load_game`` refuses an int too large itself, in pybind's words, before the game sees it).

GameType, and why:

- ``SEQUENTIAL``: one decision at a time; the engine says who decides.
- ``EXPLICIT_STOCHASTIC`` with one chance node, the first: its outcome k (one of
  ``DEALS``, equally likely) is the deal -- the engine game seeded from (``seed``,
  k).  The engine then draws every later shuffle from the generator held in its
  state (DESIGN.md section 5), so after the deal every transition is
  deterministic.  That makes a state's history (the deal, then the actions) all
  there is to it: OpenSpiel's own ``serialize``/``deserialize_state``, pickling and
  ``random_sim_test(serialize=True)`` work (a sampled-stochastic Python game cannot
  give OpenSpiel its generator's state).  Caveat: a cloned state carries the
  generator, so a search that clones states sees the *same* future deals; use
  ``provost.interpreter.agents.mcts`` (it resamples what the searching player
  cannot see) for fair search on hidden-information rules.
- ``IMPERFECT_INFORMATION`` when the rules hide anything (a counter, zone or
  piece place not public: Ys, Caylus 1303), else ``PERFECT_INFORMATION`` (Caylus:
  its one shuffle happens in the setup, before any decision, and is public).
- ``ZERO_SUM`` terminal utilities: the rank rewards of ``provost.interpreter.rewards``
  (+1 sole winner ... -1 last, ties by the game's tiebreak then shared).
- Observations (string and tensor) are what the player may see
  (``game.observation(p)``; tensor from ``provost.adapters.encoding``).
- Information-state strings (perfect recall) identify everything a player has
  seen: a chain of digests over the player's observation after the deal and
  after every decision, with the player's own choices (``ProvostState.recall``).
  Two histories give a player the same string exactly when (up to a 128-bit
  digest) they gave it the same observations and choices.  The chain is built on
  first use (replaying the history) and then extended at every action of that
  state and its clones, so games that never ask pay nothing.  A state from
  ``resample_from_infostate(p)`` keeps ``p``'s string; the others' strings
  there derive from ``p``'s (the re-dealt world has no true history for them).
  OpenSpiel's ``State::ResampleFromInfostate`` "resamples a new history" (its
  own games re-deal their chance outcomes and replay the actions), but here one
  chance outcome deals the public setup and the hidden cards together, and every
  deal shows each player a different first observation: the only root history a
  player cannot tell from the true one is the true one, which would hand a search
  the hidden cards (and other seats' secret choices are actions in it).  So a
  re-dealt world (hidden-information rules) has an empty ``history()``, and
  serializes as its engine state (OpenSpiel's Python states pickle their
  attributes), not as a replay; rules that hide nothing resample to a clone, as
  OpenSpiel's default for perfect-information games, with the full history.
  No information-state tensor: a fixed-size tensor cannot hold a whole history.
- Actions are indexes into the ruleset's action catalogue (``provost.adapters.catalogue``).
  An illegal one raises ``ValueError`` naming the legal ones as ``index (id)``; the state is unchanged.
- ``max_game_length`` is ``MAX_GAME_LENGTH`` decisions; a game still running
  then ends there, ranked by the scores at that moment (no shipped ruleset
  comes near it).
"""
from __future__ import annotations

import hashlib
import json
import operator
import re
from hashlib import blake2b

import numpy as np
import pyspiel

from provost.dsl.loader import load_checked
from provost.interpreter.agents.mcts import hides_information
from provost.interpreter.engine import Game, IllegalOption

from .catalogue import catalogue_for
from .encoding import ObservationEncoder, canonical_observation
from provost.interpreter.rewards import rank_rewards

MAX_GAME_LENGTH = 20000
#: The chance node's outcomes: the deals a game can start from (each a seed of the engine game).
DEALS = 4096
SHIPPED = ("caylus", "caylus1303", "ys")

_registered: dict = {}      # short name -> (the rules' digest without positions, the game's class)


#: The ``seed`` parameter's range: OpenSpiel's int parameters are C++ ints (negative ones too).
SEED_MIN, SEED_MAX = -2 ** 31, 2 ** 31 - 1


def checked_game_seed(seed) -> int:
    """The ``seed`` parameter as an int, or a ValueError naming the range OpenSpiel can hold (a
    larger one made pybind fail with "Unable to cast Python instance"; a bool, a fraction or a
    string was silently made a number, where ``pyspiel.load_game`` refuses them)."""
    try:
        value = operator.index(seed) if not isinstance(seed, bool) else None
    except TypeError:
        value = None
    if value is None or not SEED_MIN <= value <= SEED_MAX:
        raise ValueError("the seed parameter is a whole number from -2**31 to 2**31 - 1 (an OpenSpiel int "
                         "parameter), not %r" % (seed,))
    return value


def _engine_seed(seed: int, k: int) -> int:
    h = hashlib.sha256(("provost-openspiel:%d:%d" % (seed, k)).encode()).digest()
    return int.from_bytes(h[:4], "big") & 0x7FFFFFFF


class _Box:
    """Holds the engine game; deep-copied (as OpenSpiel clones Python states) with the engine's cheap clone."""
    __slots__ = ("g",)

    def __init__(self, g):
        self.g = g

    def __deepcopy__(self, memo):
        return _Box(self.g.clone(shared=True) if self.g is not None else None)

    def __reduce__(self):
        # Pickled as the engine's save (its compiled rules hold closures); the rules are found
        # again by name and their digest checked.
        return _box_from_save, (self.g.to_json() if self.g is not None else None,)


def _box_from_save(saved):
    return _Box(Game.from_json(saved) if saved is not None else None)


def _load_game(ruleset: str, short: str, params: dict):
    # The name register gives in this process (``short`` was the pickling process's: another
    # ruleset of the same name registered first there gives this one a suffixed name here).
    return pyspiel.load_game(register(ruleset), params)


def load(ruleset: str = "caylus", **params) -> pyspiel.Game:
    """``pyspiel.load_game(register(ruleset), params)`` with the ``seed`` checked first: pybind
    refuses an int OpenSpiel cannot hold before the game sees it ("Unable to cast Python
    instance"), this says the range (``checked_game_seed``)."""
    if "seed" in params:
        params["seed"] = checked_game_seed(params["seed"])
    return pyspiel.load_game(register(ruleset), params)


def register(ruleset: str = "caylus") -> str:
    """Register the ruleset as an OpenSpiel game; returns its short name: ``python_provost_<name>``,
    with ``_<variant>`` for a variant file, and the rules' digest after it when other rules of
    that name are registered already (an edited copy of a shipped game, two variant files)."""
    base = load_checked(ruleset)
    key = base.digest_without_positions()
    name = base.name + ("_" + base.variant if base.variant else "")
    short = "python_provost_" + re.sub(r"[^a-z0-9_]", "_", name.lower())
    if short in _registered and _registered[short][0] != key:
        short += "_" + key[:8]          # once: the shipped game's name, and its rules, were given back
    if short in _registered:
        return short
    g0 = Game.new(base, seed=0)
    lo, hi = g0.prog.game["players"] or [1, 8]
    info = (pyspiel.GameType.Information.IMPERFECT_INFORMATION if hides_information(g0.prog)
            else pyspiel.GameType.Information.PERFECT_INFORMATION)
    game_type = pyspiel.GameType(
        short_name=short,
        long_name="provost %s" % (g0.prog.game.get("title") or base.name),
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=info,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=hi,
        min_num_players=lo,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"variant": "", "players": g0.s.humans, "seed": 0},
        default_loadable=True,
        provides_factored_observation_string=False)

    class ProvostGame(pyspiel.Game):
        """One provost ruleset (with a variant and player count from the parameters)."""

        def __init__(self, params=None):
            params = dict(params or {})
            self.seed = checked_game_seed(params.get("seed", 0))        # before the rules are loaded
            variant = params.get("variant") or None
            players = int(params.get("players", g0.s.humans))
            self.rs = load_checked(ruleset, variant, players)
            first = Game.new(self.rs, players=players, seed=0)
            self.players = first.s.humans
            self.catalogue = catalogue_for(self.rs, players=self.players)
            self.encoder = ObservationEncoder(first, self.catalogue)
            game_info = pyspiel.GameInfo(
                num_distinct_actions=len(self.catalogue),
                max_chance_outcomes=DEALS,
                num_players=self.players,
                min_utility=-1.0,
                max_utility=1.0,
                utility_sum=0.0,
                max_game_length=MAX_GAME_LENGTH + 1)
            super().__init__(game_type, game_info, {"variant": variant or "", "players": self.players,
                                                    "seed": self.seed})

        def new_initial_state(self):
            return ProvostState(self, None)      # the deal is the chance node's outcome

        def __reduce__(self):
            # Pickled as its name and parameters (its compiled rules hold closures): loading it
            # again compiles the same rules, found by name.
            return _load_game, (ruleset, short, dict(self.get_parameters()))

        def deal(self, k: int) -> Game:
            return Game.new(self.rs, players=self.players, seed=_engine_seed(self.seed, k))

        def make_py_observer(self, iig_obs_type=None, params=None):
            # None for what is not provided, as OpenSpiel's own games answer (generate_playthrough
            # and the observation utilities ask for every kind and skip the ones that are None).
            if iig_obs_type is not None and iig_obs_type.perfect_recall:
                return RecallObserver() if game_type.provides_information_state_string else None
            if iig_obs_type is not None and iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
                return None
            return ProvostObserver(self)

    ProvostGame.__name__ = "ProvostGame_" + short
    pyspiel.register_game(game_type, ProvostGame)
    _registered[short] = (key, ProvostGame)
    return short


class ProvostState(pyspiel.State):
    """An engine game seen through OpenSpiel's State API (actions are catalogue indexes)."""

    def __init__(self, game, engine_game):
        super().__init__(game)
        self._box = _Box(engine_game)
        self._catalogue = game.catalogue
        self._players = game.players
        self._decisions = 0
        self._recall: list | None = None     # per player, the digest chain of what they have seen

    @property
    def engine(self) -> Game | None:
        """The engine game, None before the deal (the chance node)."""
        return self._box.g

    def current_player(self):
        g = self._box.g
        if g is None:
            return pyspiel.PlayerId.CHANCE
        if g.finished or self._decisions >= MAX_GAME_LENGTH:
            return pyspiel.PlayerId.TERMINAL
        return g.current_player()

    def chance_outcomes(self):
        p = 1.0 / DEALS
        return [(k, p) for k in range(DEALS)]

    def _legal_actions(self, player):
        return sorted(self._catalogue.legal_indices(self._box.g))

    def _apply_action(self, action):
        g = self._box.g
        if g is None:
            if not 0 <= action < DEALS:
                raise ValueError("deal %r is not one of 0..%d" % (action, DEALS - 1))
            self._box.g = self.get_game().deal(action)
            return
        actor = g.current_player()
        try:
            option = self._catalogue.action_of(action)
            g.apply(option)
        except (IndexError, IllegalOption):      # named as the caller names actions: by index
            raise ValueError(self._catalogue.illegal(action, g.legal_options(), "player %d" % actor)) from None
        self._decisions += 1
        if self._recall is not None:
            self._recall = _extended(self._recall, g, actor, option)

    def recall(self, player: int) -> str:
        """``player``'s perfect-recall information state: a digest of every observation they had
        (after the deal and after each decision) and every choice they made."""
        g = self._box.g
        if g is None:
            return "before the deal"
        if self._recall is None:
            self._recall = self._replayed()
        return "decision %d, seen %s" % (self._decisions, self._recall[player])

    def _replayed(self) -> list:
        history = self.history()
        if not history:
            raise ValueError("this state has no history to recall (a resampled state keeps its own)")
        g = self.get_game().deal(history[0])
        chain = [_digest("", _seen(g, q)) for q in range(self._players)]
        for action in history[1:]:
            option = self._catalogue.action_of(action)
            actor = g.current_player()
            g.apply(option)
            chain = _extended(chain, g, actor, option)
        return chain

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return "deal %d" % action
        return self._catalogue.action_of(action)

    def is_terminal(self):
        g = self._box.g
        return g is not None and (g.finished or self._decisions >= MAX_GAME_LENGTH)

    def returns(self):
        g = self._box.g
        if not self.is_terminal():
            return [0.0] * self._players
        return rank_rewards(g)

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state ``player_id`` cannot tell from this one: everything hidden from it re-dealt
        (``Game.determinize``: hidden pieces' values, hands and decks, the future draws), the
        sampler's number choosing the re-deal.  For ISMCTS and other information-set searches.

        Rules that hide nothing (``PERFECT_INFORMATION``) give a clone, as OpenSpiel's own
        default does: the same world, with its history from the root.  A re-dealt world has no
        history from the root (module docstring), so its ``history()`` is empty."""
        g = self._box.g
        if g is None or self.get_game().get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION:
            return self.clone()
        seed = int(probability_sampler() * (1 << 31))
        other = ProvostState(self.get_game(), g.determinize(player_id, seed))
        other._decisions = self._decisions
        if self._recall is None:
            self._recall = self._replayed()
        mine = self._recall[player_id]
        other._recall = [mine if q == player_id else _digest(mine, "resampled for %d" % q)
                         for q in range(self._players)]
        return other

    def __str__(self):
        g = self._box.g
        if g is None:
            return "before the deal"
        return "round %s %s; scores %s; to move %s; decisions %d" % (         # public scores only
            g.s.round, g.s.phase or "setup", g.public_scores(), g.current_player(), self._decisions)


def _seen(g, player) -> str:
    return json.dumps(canonical_observation(g.observation(player)), sort_keys=True, separators=(",", ":"))


def _digest(chain: str, text: str) -> str:
    h = blake2b(digest_size=16)
    h.update(chain.encode())
    h.update(b"\x00")
    h.update(text.encode())
    return h.hexdigest()


def _extended(chain: list, g, actor, option: str) -> list:
    """Each player's chain after a decision: what they see now, and the choice if it was theirs."""
    return [_digest(c, ("chose %s\x00" % option if q == actor else "") + _seen(g, q)) for q, c in enumerate(chain)]


class RecallObserver:
    """Perfect-recall information states as strings (``ProvostState.recall``); no tensor."""

    def __init__(self):
        self.tensor = None
        self.dict = {}

    def set_from(self, state, player):
        pass

    def string_from(self, state, player):
        return state.recall(player)


class ProvostObserver:
    """What one player may see: ``game.observation(p)`` as a tensor and a canonical JSON string."""

    def __init__(self, game):
        self.encoder = game.encoder
        self.tensor = np.zeros(self.encoder.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        if state.engine is None:              # before the deal: nothing to see yet
            self.tensor[:] = 0
            return
        self.tensor[:] = self.encoder.encode(state.engine.observation(player))

    def string_from(self, state, player):
        if state.engine is None:
            return "{}"
        obs = canonical_observation(state.engine.observation(player))
        return json.dumps(obs, sort_keys=True, separators=(",", ":"))


for _name in SHIPPED:
    register(_name)
