"""The greedy agent: one-ply search with short rollouts and a generic evaluation.

For every legal option the agent clones the game, applies the option and plays
the clone forward with a cheap default policy until the round ends (or a
decision budget runs out), then scores the resulting state:

    own score + sum(weight[r] * own r for the other resources) - best opponent's score

The default policy inside a rollout is *myopic* for the agent's own decisions
(the option whose immediate result evaluates best, without further lookahead)
and "do nothing" for the other players (their null option -- pass, skip,
stop ... -- when they have one, else a random option).  So an option is valued
by what it brings this round on its own: a worker placed on a building is
worth what the agent will take there during activation, minus what it cost.

Nothing here knows any particular game: the score counter is the game's
declared score resource (``game.prog.score``), the other resources come from
``game.prog.resources``, and resource weights come from ``resource_weights``
(by role -- money, precious, ordinary -- guessed from common names, and
overridable per agent).
"""
from __future__ import annotations

from .base import NULL_OPTIONS, SeededAgent, best_option, is_null

#: Resource names taken as money (cheap: usually plentiful and converted at a poor rate at the end).
MONEY_NAMES = frozenset({"denier", "deniers", "money", "coin", "coins", "gold_coins", "florin", "florins",
                         "ducat", "ducats", "silver", "cash", "drachma", "drachmas"})
#: Resource names taken as precious (scarce, worth several ordinary resources).
PRECIOUS_NAMES = frozenset({"gold", "gem", "gems", "jewel", "jewels", "diamond", "diamonds"})

WEIGHT_MONEY = 0.3
WEIGHT_ORDINARY = 0.6
WEIGHT_PRECIOUS = 2.0


def resource_weights(prog) -> dict[str, float]:
    """Weight of each resource other than the score, for the evaluation."""
    out = {}
    for name in prog.resources:
        if name == prog.score:
            continue
        low = name.lower()
        if low in MONEY_NAMES:
            out[name] = WEIGHT_MONEY
        elif low in PRECIOUS_NAMES or low.startswith("gem"):
            out[name] = WEIGHT_PRECIOUS
        else:
            out[name] = WEIGHT_ORDINARY
    return out


class GreedyAgent(SeededAgent):
    name = "greedy"

    #: Subtracted from a null option's value, so doing something wins ties and near-ties.
    null_penalty = 0.05
    #: Weight of the best opponent's score in the evaluation.
    opponent_weight = 1.0
    #: At most this many decisions are played in one rollout ...
    horizon = 60
    #: ... and at most about this many in all the rollouts of one choice (never fewer than
    #: ``min_horizon`` per option), so games with many options per decision stay quick.
    budget = 1000
    min_horizon = 12
    #: Inside a rollout, the myopic policy looks at no more than this many options (null options
    #: always, a random sample of the rest).
    max_myopic = 12

    def __init__(self, seed: int = 0, seat: int = 0, weights: dict[str, float] | None = None):
        super().__init__(seed, seat)
        self._weights_override = weights
        self._cache_prog = None
        self._weights: list = []
        self._null_prompts: set = set()

    # ------------------------------------------------------------ evaluation
    def _prepare(self, game):
        prog = game.prog
        if prog is not self._cache_prog:
            w = resource_weights(prog)
            if self._weights_override:
                w.update(self._weights_override)
            self._weights = [(r, x) for r, x in w.items() if x]
            self._cache_prog = prog

    def evaluate(self, game, player: int) -> float:
        """The generic value of ``game`` for ``player`` (higher is better)."""
        counters = game.s.counters
        sc = counters[game.prog.score]
        others = sc[:player] + sc[player + 1:]      # (a slice, not a generator: called per option)
        value = sc[player] - self.opponent_weight * (max(others) if others else 0)
        for r, w in self._weights:
            value += w * counters[r][player]
        return value

    # ------------------------------------------------------------ policies
    def _myopic(self, game, player, options, disposable=False):
        """The option whose immediate result is best for ``player`` (no lookahead), and the
        copy of ``game`` it was applied to (None when no copy was made).  ``disposable``: the
        caller plays on from that copy and drops ``game``, so the last option evaluated is
        applied to ``game`` itself, one copy fewer (the same state: a copy is exact).

        A prompt for which doing nothing was best once in this search is answered with
        its null option again without evaluating (placing a worker or moving a token
        costs now and pays later, so the myopic answer there is always "pass").
        """
        prompt = game.s.pending["prompt"]
        if prompt in self._null_prompts:
            for opt in options:
                if is_null(opt):
                    return opt, None
        if len(options) > self.max_myopic:
            nulls = [o for o in options if is_null(o)]
            others = [o for o in options if not is_null(o)]
            options = nulls + self.rng.sample(others, max(1, self.max_myopic - len(nulls)))
        best, best_v, best_game = options[0], None, None
        last = len(options) - 1 if disposable else -1
        for i, opt in enumerate(options):
            c = game if i == last else game.clone(shared=True)
            c.apply(opt)
            v = self.evaluate(c, player) - (self.null_penalty if is_null(opt) else 0.0)
            if best_v is None or v > best_v:
                best, best_v, best_game = opt, v, c
        if is_null(best):
            self._null_prompts.add(prompt)
        return best, best_game

    def _rollout(self, game, player, round_, horizon):
        """Play ``game`` on with the default policy to the round's end or the horizon; the game
        reached (the copy the myopic policy made of its choice is played on rather than
        applying that choice again: the same state, one application fewer)."""
        s = game.s
        rng = self.rng
        for _ in range(horizon):
            if s.finished or s.round != round_:
                break
            pend = s.pending
            options = pend["options"]
            if len(options) == 1:
                opt = options[0]
            elif pend["player"] == player:
                opt, played = self._myopic(game, player, options, disposable=True)
                if played is not None:
                    game, s = played, played.s
                    continue
            else:
                for opt in options:         # the first null option, else a random one
                    if opt in NULL_OPTIONS:
                        break
                else:
                    opt = options[rng.randrange(len(options))]
            game.apply(opt)
        return game

    def option_values(self, game, player: int, options) -> dict:
        """Each option's value for ``player``: applied to a copy, played on to the round's end
        (or the horizon, shorter when there are many options), then evaluated."""
        round_ = game.s.round
        horizon = min(self.horizon, max(self.min_horizon, self.budget // len(options)))
        out = {}
        for opt in options:
            c = game.clone(shared=True)
            c.apply(opt)
            c = self._rollout(c, player, round_, horizon)
            out[opt] = self.evaluate(c, player) - (self.null_penalty if is_null(opt) else 0.0)
        return out

    def choose(self, game, player: int) -> str:
        return self.choose_with_values(game, player)[0]

    def choose_with_values(self, game, player: int) -> tuple[str, dict | None]:
        """The chosen option and every option's value (None when there was only one option);
        the ``policy`` agent learns from the values."""
        options = game.legal_options()
        if len(options) == 1:
            return options[0], None
        self._prepare(game)
        self._null_prompts = set()
        # Search a world consistent with what this seat sees: hidden values, hidden
        # cards and future draws re-dealt at random (the real state stays unread).
        world = game.determinize(player, self.rng.randrange(1 << 30))
        values = self.option_values(world, player, options)
        return best_option(values.items(), self.rng), values
