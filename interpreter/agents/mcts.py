"""The MCTS agent: Monte Carlo tree search over option ids, for any ruleset.

    provost play caylus --agents mcts:200,greedy        # 200 iterations a decision
    provost play ys --agents mcts:0.5s,random           # half a second a decision

Budget: ``mcts`` (``DEFAULT_ITERATIONS`` iterations), ``mcts:N`` (N iterations,
reproducible) or ``mcts:Xs`` (X seconds of search a decision; not reproducible,
it depends on the machine).

The search:

- **Open loop, keyed by option ids.**  A node is the sequence of options from
  the root, not a stored state; each iteration replays it on a fresh copy.
  Selection only considers options legal in the iteration's copy and counts
  how often each was available (UCB with availability, as in ISMCTS), so the
  same tree serves every determinization.
- **Whose decisions are searched** (``opponents``): by default ("policy") the
  tree holds the searching player's decisions and the other players follow the
  default policy; "tree" searches every player's decisions (max^n: each node
  counts the value for the player who chose it).
- **Determinization for hidden information** (Ys, Caylus 1303).  Every
  iteration starts from ``determinize(game, player, rng)``: a copy in which
  everything the searching player cannot see is resampled consistently with
  what they can see (``game.observation(player)`` is unchanged): the values of
  other players' hidden pieces are shuffled among those pieces, the contents of
  hidden zones are shuffled among the hidden slots holding items of the same
  kind, counters kept from the other players are guessed (equal to the
  searching player's own), and the random generator is reseeded (future
  shuffles are unknown).
  The agent never reads a hidden value to decide.  For rules without hidden
  information (Caylus) the copy is a plain clone.
- **Default policy = the greedy agent's rollout policy**: the searching player
  answers myopically (the option whose immediate result is best, a prompt that
  once preferred doing nothing answered with its null option again), the
  others "do nothing" (their null option when they have one).
  ``opponent_model = "greedy"`` (an experiment, weaker so far) makes the others
  place workers on the spaces the greedy agent values most for them and answer
  other prompts myopically instead.
- **Progressive widening in the default policy's order.**  Below the root a
  node visited n times may have ``1 + widening * sqrt(n)`` children, tried
  in order: the default policy's choice first, then the others at random.  So
  the first visit of each root option values it exactly as the greedy agent
  would, and further visits search alternatives to the default continuation.
- **One horizon for every iteration**: the tree and the rollout both stop at
  the end of the current round (plus ``rounds_ahead``), so no line of play is
  valued later -- and so with more income -- than another.  The state is then
  valued per seat as in the greedy agent (score plus weighted resources, minus
  the best other score) plus what the buildings the seat owns will still pay
  it (``_tile_bonus``: for a building the others can work, what its owner gains
  when another player works it, read from the rules' triggers on worker
  placement and the building's ``owner:`` block), as
  ``(that - the same at the root) / scale``; a finished game adds the rank
  (+1 sole winner ... -1 last).  When a value model was learned for the rules
  and player count (``value_model``, ``evaluation = "learned"``, the default),
  a seat's value is instead its expected final score minus the best other
  seat's, which sees what pays after the round (tracks, presence, resources
  kept for later, and that they are worth less near the end).
- **Backup and choice**: when the search is a deterministic plan (nothing
  hidden, other players on the default policy) an option is worth its best
  continuation (max backup) and the best is chosen; otherwise values are
  averaged and the most visited option is chosen.

Nothing here knows a particular game: only the engine's general mechanisms
(the score counter, resources, rounds, turns, pieces, zones, buildings and
their categories, triggers).
"""
from __future__ import annotations

import math
import random
import time

from provost.dsl.diagnostics import RulesError

from .. import nodes as N
from .base import SeededAgent, is_null
from .greedy import GreedyAgent, resource_weights
from .value_model import ValueModel

DEFAULT_ITERATIONS = 100
# Budgets beyond these are mistakes (`mcts:infs`, a thousand digits), refused as usage errors.
MAX_ITERATIONS = 1_000_000
MAX_SECONDS = 3600


def parse_budget(spec: str | None) -> tuple[int | None, float | None]:
    """``"200"`` -> (200, None); ``"1.5s"`` -> (None, 1.5); None/"" -> default iterations."""
    if spec is None or spec == "":
        return DEFAULT_ITERATIONS, None
    text = spec.strip().lower()
    try:
        if text.endswith("s"):
            seconds = float(text[:-1])
            if not 0 < seconds <= MAX_SECONDS:         # also false for nan; inf is above the cap
                raise ValueError
            return None, seconds
        iterations = int(text)
        if not 0 < iterations <= MAX_ITERATIONS:
            raise ValueError
        return iterations, None
    except ValueError:
        raise ValueError("bad mcts budget '%s': use iterations (mcts:200, at most %d) or seconds (mcts:0.5s, at most %d)"
                         % (spec, MAX_ITERATIONS, MAX_SECONDS)) from None


# ------------------------------------------------------------------ hidden information
def hides_information(prog) -> bool:
    """True when the rules keep something from some player (a counter, zone or piece place not public)."""
    if any(c.get("visible", "public") != "public" for c in prog.counters.values()):
        return True
    if any(z.get("visible", "public") != "public" for z in prog.zones.values()):
        return True
    return any(d.get("private") for d in prog.pieces.values())


def _item_classes(prog) -> dict:
    """item -> class key: the constant lists and enums that hold it (items swap only within a class)."""
    cached = getattr(prog, "_mcts_item_classes", None)
    if cached is not None:
        return cached
    holders: dict = {}
    for name, values in prog.enums.items():
        for v in values:
            holders.setdefault(v, set()).add("enum:" + name)
    for name, d in prog.lets.items():
        if d.get("params"):
            continue
        try:
            v = prog.let_value(name)(None, {})
        except Exception:                  # noqa: BLE001 - not a constant list
            continue
        if isinstance(v, list):
            for x in v:
                if isinstance(x, str):
                    holders.setdefault(x, set()).add("let:" + name)
    out = {k: tuple(sorted(v)) for k, v in holders.items()}
    try:
        prog._mcts_item_classes = out
    except AttributeError:                 # pragma: no cover - a program with slots
        pass
    return out


def _hidden_slots(g, player):
    """[(zone name, container, key)] of every zone slot whose items ``player`` cannot see."""
    out = []
    for name, z in g.prog.zones.items():
        vis = z.get("visible", "public")
        if vis == "public":
            continue
        value = g.s.own_zone(name)      # the caller deals new items into it
        if z["scope"] == "player":
            owners = [(q, value[q]) for q in range(len(value)) if vis == "none" or q != player]
        else:
            owners = [(None, value)]
        for _, v in owners:
            if isinstance(v, dict):
                out.extend((name, v, k) for k in v)
            else:
                out.append((name, v, None))
    return out


def determinize(game, player: int, rng: random.Random, across_places: bool = True, zones: bool = True):
    """A copy of ``game`` with what ``player`` cannot see resampled; ``player``'s observation is unchanged.

    ``across_places=False`` keeps the values in each place (only zones and the generator are
    resampled): the fallback when the control position already refers to a hidden value (a
    rule in the middle of placing a chosen piece), which moving values between places would break.
    """
    from ..prims_pieces import own_piece, visible_value

    g = game.clone(shared=True)
    s = g.s
    # Pieces: the values of another player's hidden pieces of a kind are shuffled among those pieces.
    groups: dict = {}
    for i, pc in enumerate(s.pieces):
        if pc[1] != player and visible_value(g, pc, player) is None:
            key = (pc[0], pc[1]) if across_places else (pc[0], pc[1], pc[3])
            groups.setdefault(key, []).append(i)
    for at in groups.values():
        if len(at) > 1:
            values = [s.pieces[i][2] for i in at]
            rng.shuffle(values)
            for i, v in zip(at, values):
                own_piece(g, i)[2] = v
    # Zones: items in slots the player cannot see are shuffled among those slots, kind by kind.
    classes = _item_classes(g.prog)
    slots = _hidden_slots(g, player) if zones else []
    if slots:
        pools: dict = {}
        places = []
        for _, container, key in slots:
            items = container[key] if key is not None else container
            if not isinstance(items, list):
                continue
            for i, item in enumerate(items):
                cls = classes.get(item, ("item", repr(item))) if isinstance(item, str) else ("item", repr(item))
                pools.setdefault(cls, []).append(item)
                places.append((items, i, cls))
        for pool in pools.values():
            rng.shuffle(pool)
        taken: dict = {}
        for items, i, cls in places:
            k = taken.get(cls, 0)
            items[i] = pools[cls][k]
            taken[cls] = k + 1
    # Counters kept from the other players (``visible owner``: Caylus 1303's face-down prestige
    # points): the searching player cannot know them, so every other player is guessed to hold
    # what the searching player holds (a neutral guess; nothing better is public).
    for name, c in g.prog.counters.items():
        if c.get("visible", "public") == "owner" and c["scope"] == "player":
            row = s.own_counter(name)
            mine = row[player]
            for q in range(len(row)):
                if q != player:
                    row[q] = mine[:] if type(mine) is list else mine
    # Future shuffles are unknown too.
    s.rng = rng.getrandbits(64)
    return g


# ------------------------------------------------------------------ the search
class _Node:
    __slots__ = ("who", "n", "w", "best", "avail", "children", "order")

    def __init__(self, who):
        self.who = who          # the seat that chose the option leading here
        self.n = 0
        self.w = 0.0
        self.best = -2.0        # the best value seen through this node
        self.avail = 0
        self.children: dict = {}
        self.order: list | None = None   # options in the order they may be tried (default policy's first)


class MCTSAgent(SeededAgent):
    name = "mcts"

    #: UCB exploration constant (values are in [-1, 1]).
    exploration = 0.35
    #: Search values are changes of (own value - best other's score) since the root, divided by this.
    scale = 10.0
    #: At most this many decisions in one rollout.
    horizon = 80
    #: Subtracted from a null option's myopic value, so doing something wins ties.
    null_penalty = 0.05
    #: The same in search values (``null_penalty / scale``): a null option must be better by that much.
    null_penalty_value = 0.005
    #: Rollout policy outside rounds of turns: "myopic" (best immediate result, one copy per
    #: option: strong but slow) or "eager" (a random option other than pass/skip: cheap).
    policy = "myopic"
    #: Progressive widening below the root: a node visited n times may have
    #: ``1 + widening * sqrt(n)`` children, tried in order: the default policy's choice first, then
    #: the others at random.  So a few iterations already value each root option by its default
    #: continuation, and more iterations search alternatives to it.
    widening = 0.5
    #: "max" (an option is worth its best continuation), "mean" (the average), or "auto": max when the
    #: search is a deterministic plan (nothing hidden, others on the default policy), else mean.
    backup = "auto"
    #: Every iteration is valued at the same moment: the end of the current round plus this many
    #: rounds (the tree stops there too, so no line of play is valued later than another).
    rounds_ahead = 0
    #: Other players' decisions: "policy" (the default policy plays them, the tree holds only the
    #: searching player's decisions) or "tree" (max^n: every player's decisions are searched).
    opponents = "policy"
    #: How the other players act inside the search: "null" (their null option: the greedy agent's
    #: rollout assumption) or "greedy" (in a round of turns -- placing workers -- they take the
    #: option the greedy agent values most, from values computed once per player and round;
    #: elsewhere the option whose immediate result is best for them).
    opponent_model = "null"
    #: The searching player's own default policy in a round of turns: "myopic" (the immediate
    #: result: always the null option when acting costs now and pays later) or "greedy" (as the
    #: other players under ``opponent_model = "greedy"``).
    own_turns = "myopic"
    #: Within one search, a myopic answer is remembered by (player, prompt, legal options) and
    #: reused without copying states (the same choice among the same options is nearly always
    #: the same answer; it saves most of the copies).
    memo_myopic = False
    #: Share of the budget spent on a decision outside a round of turns (what a building gives,
    #: the provost, favors ...): they are many, mostly clear, and weigh less than the placements.
    other_share = 1.0
    #: Search values compare a seat with the other deciding seats: "max" (the best of them, as the
    #: greedy agent) or "mean" (all of them: taking from any rival counts) ...
    rival = "max"
    #: ... counting their "score" (as the greedy agent) or "heuristic" (score and weighted
    #: resources, as one's own: denying a rival resources counts).
    rival_value = "score"
    #: The greedy agent's resource weights are multiplied by this in the search's evaluation.
    resource_scale = 1.0
    #: Owned buildings in the evaluation (see ``_tile_bonus``): what the owner gains when another
    #: player works one, counted ``tile_uses`` times, and its income counted ``income_rounds``
    #: times (0 and 0: as the greedy agent).
    tile_uses = 1.0
    income_rounds = 0.0
    #: The value of a state at the search's horizon: "learned" (the rules' learned value model,
    #: see ``value_model``: each seat's expected final score minus the best other's, when a model
    #: was trained for these rules and player count; else as "greedy") or "greedy" (the hand-set
    #: evaluation above: score, weighted resources and owned buildings).
    evaluation = "learned"
    #: What the searching player's myopic default policy compares: "greedy" (the hand-set margin,
    #: as the greedy agent) or "learned" (the learned margin, when there is a model; weaker so far:
    #: the model is fitted at round starts, not on half-played rounds).
    policy_value = "greedy"

    def __init__(self, seed: int = 0, seat: int = 0, iterations: int | None = DEFAULT_ITERATIONS,
                 seconds: float | None = None):
        super().__init__(seed, seat)
        if iterations is None and seconds is None:
            iterations = DEFAULT_ITERATIONS
        self.iterations, self.seconds = iterations, seconds
        self._prog = None
        self._weights: list = []
        self._hidden = False
        self._null_prompts: set = set()
        self._me = seat
        self._greedy = None
        self._turn_values: dict = {}
        self._myopic_memo = None
        self._tile_bonuses: dict = {}
        self._owner_gain = None
        self._model = None
        self.stats = {"decisions": 0, "iterations": 0, "seconds": 0.0, "cpu_seconds": 0.0}

    @classmethod
    def from_spec(cls, seed: int, seat: int, spec: str | None) -> "MCTSAgent":
        iterations, seconds = parse_budget(spec)
        return cls(seed, seat, iterations=iterations, seconds=seconds)

    def __repr__(self) -> str:
        budget = "%gs" % self.seconds if self.seconds is not None else "%d" % self.iterations
        return "MCTSAgent(seed=%d, seat=%d, budget=%s)" % (self.seed, self.seat, budget)

    # ------------------------------------------------------------ evaluation
    def _prepare(self, game):
        prog = game.prog
        if prog is not self._prog:
            self._prog = prog
            self._weights = [(r, w * self.resource_scale) for r, w in resource_weights(prog).items() if w]
            self._hidden = hides_information(prog)
            self._tile_bonuses = {}
            self._owner_gain = None
            self._greedy = GreedyAgent(self.seed, self.seat)
            self._greedy.rng = self.rng
            self._greedy._prepare(game)
            self._model = ValueModel.load(game) if self.evaluation == "learned" else None

    def _gain_value(self, body, weights=None) -> float:
        """The value of what a block of rule statements gains (``gain`` calls, the best branch of a
        choice or a condition), at the evaluation's weights (the score resource counts 1)."""
        if weights is None:
            weights = dict(self._weights)
            weights[self._prog.score] = 1.0
        total = 0.0
        for st in body or []:
            kind = st.get("s")
            if kind == "call" and st.get("name") == "gain":
                for a in st.get("args", []):
                    n = a.get("n") if isinstance(a, dict) else None
                    if a.get("e") == "amount" and isinstance(n, dict) and n.get("e") == "int":
                        total += n["v"] * weights.get(a.get("what"), 0.0)
            elif kind == "choose":
                total += max((self._gain_value(o.get("body"), weights) for o in st.get("options", [])), default=0.0)
            elif kind == "if":
                branches = [b[1] for b in st.get("branches", [])] + [st.get("else")]
                total += max((self._gain_value(b, weights) for b in branches), default=0.0)
            elif kind == "as":
                total += self._gain_value(st.get("body"), weights)
        return total

    def _tile_bonus(self, kind) -> float:
        """What owning a building of ``kind`` is worth beyond the prestige it scored when built.

        Derived from the rules: a building others can work pays its owner, on each use by
        another player, what the triggers on worker placement gain (Caylus: 1 prestige point) and
        what the building's ``owner:`` block gains (a stone building's cube); that is counted
        ``tile_uses`` times.  Its income is counted ``income_rounds`` times at the cheapest
        resource's weight.
        """
        b = self._prog.buildings.get(kind)
        if b is None:
            return 0.0
        cat = self._prog.categories.get(b.get("category"), {})
        v = 0.0
        if cat.get("workable") and self.tile_uses:
            if self._owner_gain is None:
                self._owner_gain = sum(self._gain_value(t.get("body")) for t in self._prog.rs.decls
                                       if t.get("kind") == "trigger" and t.get("event") == "worker_placed")
            v += self.tile_uses * (self._owner_gain + self._gain_value(b.get("owner")))
        money = min((w for _, w in self._weights if w > 0), default=0.0)
        return v + (b.get("income") or 0) * money * self.income_rounds

    def _tiles_value(self, game, p) -> float:
        if not self.tile_uses and not self.income_rounds:
            return 0.0
        bonus = self._tile_bonuses
        v = 0.0
        for kind, owner in game.s.tiles.values():
            if owner == p:
                b = bonus.get(kind)
                if b is None:
                    b = bonus[kind] = self._tile_bonus(kind)
                v += b
        return v

    def _heuristic(self, game, p) -> float:
        counters = game.s.counters
        v = float(counters[game.prog.score][p])
        for r, w in self._weights:
            v += w * counters[r][p]
        return v + self._tiles_value(game, p)

    def _margin(self, game, p) -> float:
        """The greedy agent's evaluation: own score and weighted resources minus the best other score."""
        sc = game.s.counters[game.prog.score]
        return self._heuristic(game, p) - max((sc[q] for q in range(game.s.humans) if q != p), default=0)

    def _margins(self, game) -> list[float]:
        """Per seat: own heuristic value minus the rivals' (``rival``, ``rival_value``), or with a
        learned model its expected final score minus the rivals'."""
        humans = game.s.humans
        if self._model is not None:
            own = self._model.values(game) + [0.0] * (game.s.players - humans)
            return self._relative(own, own[:humans])
        own = [self._heuristic(game, p) for p in range(game.s.players)]
        others = own[:humans] if self.rival_value == "heuristic" else game.s.counters[game.prog.score][:humans]
        return self._relative(own, others)

    def _relative(self, own, others) -> list[float]:
        """Each seat's ``own`` value minus the best (``rival = "max"``) or mean of the ``others``."""
        humans = len(others)
        out = []
        for p, v in enumerate(own):
            rest = [others[q] for q in range(humans) if q != p]
            if not rest:
                out.append(v)
            elif self.rival == "mean":
                out.append(v - sum(rest) / len(rest))
            else:
                out.append(v - max(rest))
        return out

    def _values(self, game, base: list[float]) -> list[float]:
        """A value for every seat: how much its margin grew since the root, over ``scale``.

        Linear, not squashed: a squashing function would flatten the differences between
        options exactly when much is at stake (early in a round, when its income is still ahead).
        A finished game adds the rank (+1 sole winner ... -1 last).
        """
        n = game.s.players
        out = [(m - b) / self.scale for m, b in zip(self._margins(game), base)]
        if game.finished:
            # The rank decides; the margin still tells a close second from a distant last.
            from provost.interpreter.rewards import rank_rewards
            ranks = rank_rewards(game) + [0.0] * (n - game.s.humans)
            out = [r + v for r, v in zip(ranks, out)]
        return out

    # ------------------------------------------------------------ default policy
    @staticmethod
    def _in_turns(game) -> bool:
        """True when the pending decision is a turn in a ``turns ... until all passed`` loop (not inside an activation)."""
        nodes = game.prog.nodes
        for f in reversed(game.s.stack):
            node = nodes[f[0]]
            if isinstance(node, N.Activate):
                return False
            if isinstance(node, N.Turns):
                return True
        return False

    def _myopic(self, game, player, options):
        """The option whose immediate result is best for ``player``, and the copy of ``game``
        it was applied to (None when no copy was made)."""
        prompt = (player, game.s.pending["prompt"])
        if prompt in self._null_prompts:
            for opt in options:
                if is_null(opt):
                    return opt, None
        memo = self._myopic_memo
        if memo is not None:
            key = (prompt, tuple(options))
            hit = memo.get(key)
            if hit is not None:
                return hit, None
        # The searching player prefers doing something on ties (its alternatives are searched);
        # another player is modelled doing nothing unless acting pays at once (a free move whose
        # effect comes later -- moving the provost -- would otherwise be taken blindly).
        pen = self.null_penalty if player == self._me else -self.null_penalty
        learned = self._model is not None and self.policy_value == "learned"
        best, best_v, best_game = options[0], None, None
        for opt in options:
            c = game.clone(shared=True)
            c.apply(opt)
            v = (self._margins(c)[player] if learned else self._margin(c, player)) - (pen if is_null(opt) else 0.0)
            if best_v is None or v > best_v:
                best, best_v, best_game = opt, v, c
        if is_null(best):
            self._null_prompts.add(prompt)
        if memo is not None:
            memo[key] = best
        return best, best_game

    def _greedy_values(self, game, player, options) -> dict:
        """The greedy agent's value of each option for ``player`` (its one-ply rollouts to the round's end)."""
        self._greedy._null_prompts = set()
        return self._greedy.option_values(game, player, options)

    def _turn_choice(self, game, player, options):
        """In a round of turns: the legal option the greedy agent values most for ``player``.

        Values are kept relative to the null option (pass) valued in the same state, computed
        the first time ``player`` meets an option in this round during one search and reused (a
        worker placement's value hardly depends on the placements before it; taken spaces and
        costs out of reach are no longer legal).  An option not yet valued (a space that was
        taken in the state where the others were valued) is valued when first met.
        """
        key = (player, game.s.round)
        values = self._turn_values.get(key)
        if values is None:
            values = self._turn_values[key] = {}
        missing = [o for o in options if o not in values]
        if missing:
            null = next((o for o in options if is_null(o)), None)
            if null is not None and null not in missing:
                missing.append(null)
            v = self._greedy_values(game, player, missing)
            anchor = v[null] if null is not None else 0.0
            if null is not None and null in values:
                anchor -= values[null]
            for o in missing:
                if o not in values:
                    values[o] = v[o] - anchor
        best, best_v = None, None
        for o in options:
            v = values[o]
            if best_v is None or v > best_v:
                best, best_v = o, v
        return best

    def _rollout(self, game, last_round):
        """Play ``game`` on with the default policy to the end of ``last_round`` (or the
        horizon); the game reached."""
        for _ in range(self.horizon):
            s = game.s
            if s.finished or s.round > last_round:
                break
            options = s.pending["options"]
            if len(options) == 1:
                game.apply(options[0])
            else:
                game = self._play_default(game, s.pending["player"], options)
        return game

    def _play_default(self, game, player, options):
        """``game`` after the default policy's choice: the copy the myopic policy already
        applied it to when it made one (the same state, one application fewer), else ``game``
        with the choice applied."""
        opt, played = self._default(game, player, options)
        if played is not None:
            return played
        game.apply(opt)
        return game

    def _default(self, game, player, options):
        """The default policy (the greedy agent's rollout policy): the searching player myopic,
        the others "do nothing" (their null option, else a random one).  The option, and the
        copy of ``game`` it was already applied to (None when none was made)."""
        rng = self.rng
        if player == self._me:
            if self.own_turns == "greedy" and self._in_turns(game):
                return self._turn_choice(game, player, options), None
            if self.policy == "myopic":
                return self._myopic(game, player, options)
            busy = [o for o in options if not is_null(o)]
            return (busy[rng.randrange(len(busy))] if busy else options[rng.randrange(len(options))]), None
        if self.opponent_model == "greedy" and player < game.s.humans:
            if self._in_turns(game):
                return self._turn_choice(game, player, options), None
            return self._myopic(game, player, options)
        opt = next((o for o in options if is_null(o)), None)
        return (opt if opt is not None else options[rng.randrange(len(options))]), None

    # ------------------------------------------------------------ search
    def choose(self, game, player: int) -> str:
        options = game.legal_options()
        if len(options) == 1:
            return options[0]
        self._prepare(game)
        self._me = player
        self._null_prompts = set()
        self._turn_values = {}
        self._myopic_memo = {} if self.memo_myopic else None
        start = time.perf_counter()
        cpu = time.process_time()
        root = _Node(None)
        # Max backup when the search is a deterministic plan (nothing hidden, other players on the
        # default policy): an option is worth its best continuation, not the average of the tried ones.
        use_max = self.backup == "max" or (self.backup == "auto" and not self._hidden and self.opponents == "policy")
        level = 0
        done = 0
        share = 1.0 if self.other_share >= 1.0 or self._in_turns(game) else self.other_share
        seconds = self.seconds * share if self.seconds is not None else None
        iterations = max(1, int(round(self.iterations * share))) if self.iterations is not None else None
        while True:
            if seconds is not None:
                if done > 0 and time.perf_counter() - start >= seconds:
                    break
            elif done >= iterations:
                break
            done += 1
            try:
                self._iterate(game, player, root, use_max, level)
            except RulesError:
                if level >= 2:
                    raise
                level += 1            # this position refers to hidden values: resample less
        # Ties (common: two cubes of equal weight) are broken at random, not by the order of expansion.
        pen = self.null_penalty_value
        if use_max:
            key = lambda oc: (round(oc[1].best - (pen if is_null(oc[0]) else 0.0), 6), self.rng.random())  # noqa: E731
        else:
            key = lambda oc: (oc[1].n, self.rng.random())  # noqa: E731
        choice = max(((o, ch) for o, ch in sorted(root.children.items()) if o in options), key=key)[0]
        self.stats["decisions"] += 1
        self.stats["iterations"] += done
        self.stats["seconds"] += time.perf_counter() - start
        self.stats["cpu_seconds"] += time.process_time() - cpu
        return choice

    def _iterate(self, game, player, root, use_max, level):
        """One iteration: copy (determinized), descend the tree, expand, roll out, back up."""
        rng = self.rng
        c = self.exploration
        if not self._hidden:
            g = game.clone(shared=True)
        else:
            g = determinize(game, player, rng, across_places=level == 0, zones=level <= 1)
        base = self._margins(g)       # from the copy: the real state may hold values hidden from the player
        node = root
        path = [root]
        taken: list = []              # the option leading to each node of the path after the root
        round_ = g.s.round + self.rounds_ahead
        while not g.finished and g.s.round <= round_:
            opts = g.s.pending["options"]
            mover = g.s.pending["player"]
            if len(opts) == 1:
                g.apply(opts[0])
                continue
            if mover != player and self.opponents == "policy":
                g = self._play_default(g, mover, opts)
                continue
            children = node.children
            if node is root:
                untried = [o for o in opts if o not in children]
            else:
                if node.order is None:
                    first = self._default(g, mover, opts)[0]
                    rest = [o for o in opts if o != first]
                    rng.shuffle(rest)
                    node.order = [first] + rest
                else:
                    node.order.extend(o for o in opts if o not in node.order)
                allowed = 1 + int(self.widening * math.sqrt(node.n))
                untried = []
                if len(children) < allowed:
                    untried = [o for o in node.order if o in opts and o not in children][:1]
                if not any(o in children for o in opts) and not untried:
                    untried = [next(o for o in node.order if o in opts)]
                opts = [o for o in opts if o in children] or opts
            for o in opts:
                ch = children.get(o)
                if ch is not None:
                    ch.avail += 1
            if untried:
                opt = untried[0] if node is not root else untried[rng.randrange(len(untried))]
                g.apply(opt)              # first: an option that fails leaves no child behind
                child = children[opt] = _Node(mover)
                child.avail = 1
                path.append(child)
                taken.append(opt)
                break
            best, best_u = None, None
            for o in opts:
                ch = children[o]
                if ch.n == 0:             # its first iteration failed (see choose): try it again
                    best = o
                    break
                u = (ch.best if use_max else ch.w / ch.n) + c * math.sqrt(math.log(ch.avail) / ch.n)
                if best_u is None or u > best_u:
                    best, best_u = o, u
            node = children[best]
            g.apply(best)
            path.append(node)
            taken.append(best)
        if not g.finished and g.s.round <= round_:
            g = self._rollout(g, round_)
        values = self._values(g, base)
        for nd, edge in zip(path, [None] + taken):
            nd.n += 1
            if nd.who is not None:
                v = values[nd.who] - (self.null_penalty_value if is_null(edge) else 0.0)
                nd.w += v
                if v > nd.best:
                    nd.best = v
