"""The ``policy`` agent: greedy's choices, learned, at a fraction of greedy's cost.

Greedy values each option by playing a copy of the game to the end of the round; that costs
hundreds of decisions per choice.  The policy does no search: it scores each legal option with
a linear function of features read from the rules, never from a game's names, and takes the
best:

- which option it is: its template (``place:gold_mine`` -> ``place:gold_mine``,
  ``broker:front:2`` -> ``broker:front``), the whole id, and the template at this stage of the
  game (rounds in threes); whether it is a null option (pass, skip...);
- the template against the player's situation: each of the player's counters, buildings by
  category, pieces and zone sizes (the value model's features) as steps (at least 1, 2, 3...), so that "place a worker
  on the castle" can be worth much with the goods for a batch and little without;
- where the option's target stands on the road against each road marker (a global counter
  declared over the road's slots, as the provost: ``m:place:provost:2``, two slots beyond
  him): what the rules will activate this round;
- at decisions with few options (``APPLY_AT_MOST``: taking a good, paying, choosing a reward,
  moving a marker), what the option does at once: it is applied to a copy of a world
  consistent with what the seat sees (``determinize``) and the change of each of the player's
  resources (the score included), of the best other player's score, and of the player's and
  the others' workers beyond each road marker are features.  Placement decisions, with
  dozens of options whose immediate effect is the same, skip this, which is most of the speed.

The weights are fitted to greedy's own valuation of every option (softmax regression on
targets ``softmax(value / TEMPERATURE)`` over the legal options of every decision of greedy's
self-play games and of games it played itself: ``train``, ``provost train``), and stored as
JSON, per ruleset, variant and player count: the shipped ones in ``policies/`` next to this
file, a user's own in the user's data directory (``provost train`` writes there); a variant or
player count without its own uses the nearest (``find_compiled``).  A ruleset with no fitted
weights gets hand-set ones (the score, resources weighted as greedy weights them, the best
opponent's score against) and reads immediate effects at every decision: a myopic greedy.  A weights file fitted on other rules still plays (a feature
it has not seen weighs nothing); its digest is recorded.
"""
from __future__ import annotations

import json
import math
import os
import random
from bisect import bisect_right
from operator import itemgetter
from pathlib import Path

from .base import SeededAgent, best_option, is_null
from .greedy import resource_weights
from .value_model import features_for

SHIPPED_DIR = Path(__file__).resolve().parent / "policies"
DIR_ENV = "PROVOST_POLICY_DIR"
#: Immediate effects are features only at decisions with at most this many options.
APPLY_AT_MOST = 8
#: A situation feature is read as "at least N" for each of these N: additive weights over such
#: steps can say "worth it with food and two other goods" where one weight per count cannot.
SITUATION_STEPS = (1, 2, 3, 5, 8)
#: Greedy's option values (points) are turned into target probabilities at this temperature
#: (``provost train --temperature``; lower: the fit aims harder at greedy's best option).
TEMPERATURE = 1.0
#: A target's distance to a road marker is read up to this many slots either way.
MARKER_REACH = 4


def template(option: str) -> str:
    return ":".join(option.split(":", 2)[:2])


def situation(game, player: int) -> list[str]:
    """The player's situation: for each of the value model's features, the steps it reaches
    (``counter:food>=2``); how many kinds of resource the player holds (``kinds>=3``: a
    building that takes food and two other goods is worth a visit only then); where the
    player's workers stand (``at:farm``: what they will bring before this round ends); and the
    declared orders (how many have passed, the player's place in turn order)."""
    prog = game.prog
    f = features_for(prog)
    names = _step_names(prog, f)
    steps = []
    for reached, x in zip(names, f.of(game, player)):
        if x >= 1:
            steps.extend(reached[:bisect_right(SITUATION_STEPS, x)])
    counters = game.s.counters
    kinds = sum(1 for r in prog.resources if r != prog.score and counters[r][player] > 0)
    steps.extend("kinds>=%d" % n for n in range(1, kinds + 1))
    for name, seats in game.s.orders.items():
        steps.extend("order:%s:len>=%d" % (name, n) for n in range(1, len(seats) + 1))
        if player in seats:
            steps.append("order:%s:at=%d" % (name, seats.index(player)))
    tiles = game.s.tiles
    for where, seats in game.s.occ.items():
        if player in seats:
            steps.append("at:" + (tiles[where][0] if where in tiles else where))
    return list(dict.fromkeys(steps))      # two workers on farms: one step, as in a feature dict


def _step_names(prog, features) -> list[list[str]]:
    """For each feature, the names of its steps in ``SITUATION_STEPS`` order (built once)."""
    names = getattr(prog, "_policy_step_names", None)
    if names is None:
        names = prog._policy_step_names = [["%s>=%d" % (name, n) for n in SITUATION_STEPS] for name in features.names]
    return names


def road_markers(prog) -> list[str]:
    """The global counters that mark a slot of the road (declared over a range that spans its
    slots: the provost, the bailiff); what lies beyond such a marker may not be activated."""
    found = getattr(prog, "_road_markers", None)
    if found is None:
        n = prog.road_length
        found = [name for name, c in prog.counters.items()
                 if n and c.get("scope") == "global" and not c.get("by") and c.get("max") is not None
                 and (c.get("min") or 0) <= 1 and c["max"] >= n]
        prog._road_markers = found
    return found


def road_index(game) -> dict:
    """Each tile on the road and its slot."""
    return {t: i for i, t in enumerate(game.s.road) if t is not None}


def marker_steps(game, option: str, markers, on_road: dict) -> list[str]:
    """Where the option's targets on the road stand against each marker (``m:place:provost:2``)."""
    name, _, rest = option.partition(":")
    out = []
    if rest:
        counters = game.s.counters
        for part in rest.split(":"):
            i = on_road.get(part)
            if i is not None:
                for m in markers:
                    d = max(-MARKER_REACH, min(MARKER_REACH, i - counters[m]))
                    out.append("m:%s:%s:%d" % (name, m, d))
    return out


def workers_beyond(game, player: int, marker: str) -> tuple[int, int]:
    """The player's workers and the others' on road slots beyond the marker."""
    s = game.s
    road, occ = s.road, s.occ
    own = others = 0
    for i in range(s.counters[marker] + 1, len(road)):
        t = road[i]
        if t is not None:
            seats = occ.get(t)
            if seats:
                mine = seats.count(player)
                own += mine
                others += len(seats) - mine
    return own, others


def applies_options(options) -> bool:
    """Whether the options are applied to a copy to read what they do at once."""
    return len(options) <= APPLY_AT_MOST


def effects_baseline(world, player: int) -> tuple:
    """What ``immediate_effects`` compares against, read once a decision: the best other
    player's score and the workers beyond each road marker."""
    s, prog = world.s, world.prog
    best_other = max((v for q, v in enumerate(s.counters[prog.score]) if q != player), default=0)
    return best_other, [(m, workers_beyond(world, player, m)) for m in road_markers(prog)]


def immediate_effects(world, player: int, option: str, baseline: tuple | None = None) -> dict[str, float]:
    """The change of each of ``player``'s resources and of the best other score, ``option``
    applied; ``baseline`` is ``effects_baseline(world, player)`` when the caller has it."""
    s = world.s
    prog = world.prog
    before_other, beyond = baseline if baseline is not None else effects_baseline(world, player)
    after = world.clone(shared=True)
    after.apply(option)
    counters, new = s.counters, after.s.counters
    out = {}
    for r in prog.resources:
        d = new[r][player] - counters[r][player]
        if d:
            out["d:" + r] = float(d)
    after_other = max((v for q, v in enumerate(new[prog.score]) if q != player), default=0)
    if after_other != before_other:
        out["d:opp"] = float(after_other - before_other)
    for m, (own0, others0) in beyond:
        own1, others1 = workers_beyond(after, player, m)
        if own1 != own0:
            out["d:beyond:%s:own" % m] = float(own1 - own0)
        if others1 != others0:
            out["d:beyond:%s:others" % m] = float(others1 - others0)
    return out


def option_features(game, player: int, option: str, situation_row, world=None, on_road=None) -> dict[str, float]:
    """The features of ``option`` for ``player``; ``world`` (a determinized copy of ``game``, or
    ``game`` itself) is given when the decision's options are applied (``applies_options``);
    ``on_road`` is ``road_index(game)`` (computed once a decision)."""
    tpl = template(option)
    feats = {"t:" + tpl: 1.0, "id:" + option: 1.0, "t:%s@%d" % (tpl, game.s.round // 3): 1.0}
    if is_null(option):
        feats["null"] = 1.0
    for step in situation_row:
        feats["x:%s|%s" % (tpl, step)] = 1.0
    for step in marker_steps(game, option, road_markers(game.prog), road_index(game) if on_road is None else on_road):
        feats[step] = feats.get(step, 0.0) + 1.0
    if world is not None:
        feats.update(immediate_effects(world, player, option))
    return feats


def default_weights(prog) -> dict[str, float]:
    """The hand-set weights: a myopic greedy."""
    w = {"d:" + r: x for r, x in resource_weights(prog).items()}
    w["d:" + prog.score] = 1.0
    w["d:opp"] = -1.0
    w["null"] = -0.05
    return w


def model_name(ruleset: str, variant: str | None, players: int) -> str:
    return "%s%s-%dp.json" % (ruleset, "." + variant if variant else "", players)


def user_dir() -> Path | None:
    if os.environ.get(DIR_ENV):
        return Path(os.environ[DIR_ENV])
    try:
        import platformdirs
    except ImportError:     # pragma: no cover - a declared dependency
        return None
    return Path(platformdirs.user_data_dir("provost", appauthor=False)) / "policies"


#: Models read in this process, by file and its size and time (every agent of a study shares one).
_loaded: dict = {}


def _read_model(path: Path) -> dict | None:
    try:
        st = path.stat()
    except OSError:
        return None
    key = (str(path), st.st_size, st.st_mtime_ns)
    if key not in _loaded:
        try:
            with open(path, encoding="utf-8") as f:
                model = json.load(f)
        except (OSError, ValueError):
            model = None
        ok = isinstance(model, dict) and isinstance(model.get("weights"), dict)
        _loaded[key] = (model, CompiledWeights(model["weights"])) if ok else None
    return _loaded[key]


#: When no model was fitted for a player count, the nearest fitted count is used, this first.
FALLBACK_PLAYERS = (4, 3, 5, 2)


def find_compiled(ruleset: str, variant: str | None, players: int) -> tuple[dict, "CompiledWeights"] | None:
    """The fitted model for these rules and its weights ready to score: the user's own first,
    then the shipped ones; with none for this variant, the base game's (a variant mostly keeps
    the option templates, so their weights still say much); with none for this player count,
    another count's."""
    names = [model_name(ruleset, variant, players)]
    if variant:
        names.append(model_name(ruleset, None, players))
    names.extend(model_name(ruleset, v, n) for v in dict.fromkeys([variant, None])
                 for n in FALLBACK_PLAYERS if n != players)
    for name in names:
        for base in (user_dir(), SHIPPED_DIR):
            if base is not None:
                found = _read_model(base / name)
                if found is not None:
                    return found
    return None


def find_model(ruleset: str, variant: str | None, players: int) -> dict | None:
    """The fitted weights for these rules: the user's own first, then the shipped ones."""
    found = find_compiled(ruleset, variant, players)
    return found[0] if found else None


def score(weights: dict[str, float], feats: dict[str, float]) -> float:
    return sum(weights.get(f, 0.0) * x for f, x in feats.items())


class CompiledWeights:
    """The weights arranged for scoring without building feature names: ``score(weights,
    option_features(...))`` computed from a few lookups, summed in the same order
    (``test_policy`` checks they agree)."""

    def __init__(self, weights: dict[str, float]):
        self.flat: dict[str, float] = {}
        cross: dict[str, dict[str, float]] = {}          # template -> situation step -> weight
        self.staged: dict[int, dict[str, float]] = {}    # stage -> template -> weight
        self.marker: dict[tuple, float] = {}             # (option name, marker, slots) -> weight
        for f, v in weights.items():
            if f.startswith("x:"):
                tpl, _, step = f[2:].rpartition("|")
                cross.setdefault(tpl, {})[step] = v
                continue
            self.flat[f] = v
            if f.startswith("t:") and "@" in f:
                tpl, _, stage = f[2:].rpartition("@")
                if stage.isdigit():
                    self.staged.setdefault(int(stage), {})[tpl] = v
            elif f.startswith("m:") and f.count(":") == 3:
                name, marker, slots = f[2:].split(":")
                if slots.lstrip("-").isdigit():
                    self.marker[(name, marker, int(slots))] = v
        # a template's situation weights as a row over every step the model knows, so that a
        # decision picks the player's steps from each row at C speed (``itemgetter``)
        self.step_index = {step: i for i, step in enumerate(dict.fromkeys(
            step for inner in cross.values() for step in inner))}
        self.cross_rows: dict[str, list[float]] = {}
        for tpl, inner in cross.items():
            row = self.cross_rows[tpl] = [0.0] * len(self.step_index)
            for step, v in inner.items():
                row[self.step_index[step]] = v
        self._keys: dict[str, tuple] = {}
        self._road_key: tuple | None = None
        self._beyond: dict = {}
        self._marker_totals: dict = {}

    def keys(self, option: str) -> tuple:
        """The option's template, its weights that hold at every decision, its name and the
        parts of its id that may be tiles on the road."""
        k = self._keys.get(option)
        if k is None:
            tpl = template(option)
            name, _, rest = option.partition(":")
            k = self._keys[option] = (tpl, self.flat.get("t:" + tpl, 0.0) + self.flat.get("id:" + option, 0.0)
                                      + (self.flat.get("null", 0.0) if is_null(option) else 0.0),
                                      name, rest.split(":") if rest else ())
        return k

    def _marker_sums(self, game, markers) -> dict:
        """The options' marker weights summed, for the road and markers as they stand: they
        move a few times a round, so the sums are kept until they do."""
        counters = game.s.counters
        key = (tuple(game.s.road), tuple((m, counters[m]) for m in markers))
        if key != self._road_key:
            self._road_key, reach = key, MARKER_REACH
            # each road tile's slots beyond each marker, clamped as ``marker_steps`` does
            self._beyond = {t: [(m, max(-reach, min(reach, i - a))) for m, a in key[1]]
                            for i, t in enumerate(game.s.road) if t is not None}
            self._marker_totals = {}
        return self._marker_totals

    def scores(self, game, player: int, options, situation_row, world) -> list[float]:
        cross_rows, marker_w = self.cross_rows, self.marker
        # the player's steps the model weighs, in the situation's order: the sums below add
        # the same non-zero weights in the same order as a sum over every step would
        known = self.step_index
        picked = [known[step] for step in situation_row if step in known]
        pick = itemgetter(*picked) if len(picked) > 1 else None
        staged = self.staged.get(game.s.round // 3, {})
        markers = road_markers(game.prog)
        marker_sums = self._marker_sums(game, markers) if markers else None
        baseline = effects_baseline(world, player) if world is not None else None
        flat = self.flat
        out = []
        for opt in options:
            tpl, base, name, parts = self.keys(opt)
            v = base + staged.get(tpl, 0.0)
            if markers:
                ms = marker_sums.get(opt)
                if ms is None:
                    beyond = self._beyond
                    ms = marker_sums[opt] = sum(marker_w.get((name, m, d), 0.0)
                                                for part in parts if part in beyond for m, d in beyond[part])
                v += ms
            if picked:
                inner = cross_rows.get(tpl)
                if inner is not None:
                    v += sum(pick(inner)) if pick is not None else inner[picked[0]]
            if world is not None:
                v += sum(flat.get(f, 0.0) * x for f, x in immediate_effects(world, player, opt, baseline).items())
            out.append(v)
        return out


class PolicyAgent(SeededAgent):
    name = "policy"

    def __init__(self, seed: int = 0, seat: int = 0, weights: dict[str, float] | None = None):
        super().__init__(seed, seat)
        self._fixed = weights
        self._prog = None
        self.weights: dict[str, float] = {}
        self._compiled: CompiledWeights | None = None
        self._hand_set = False
        self.model: dict | None = None

    def _prepare(self, game) -> None:
        if game.prog is self._prog:
            return
        self._prog = game.prog
        found = None
        if self._fixed is None:
            rs = game.rs
            found = find_compiled(rs.name, rs.variant, game.s.humans)
        self._hand_set = not found and self._fixed is None
        if found:
            self.model, self._compiled = found
            self.weights = self.model["weights"]
        else:
            self.weights = self._fixed if self._fixed is not None else default_weights(game.prog)
            self._compiled = CompiledWeights(self.weights)

    def option_scores(self, game, player: int, options) -> list[float]:
        """Each option's score (what ``choose`` maximises)."""
        self._prepare(game)
        # the hand-set weights read nothing but immediate effects: read them at every decision
        applies = self._hand_set or applies_options(options)
        world = game.determinize(player, self.rng.randrange(1 << 30)) if applies else None
        return self._compiled.scores(game, player, options, situation(game, player), world)

    def choose(self, game, player: int) -> str:
        options = game.legal_options()
        if len(options) == 1:
            return options[0]
        return best_option(zip(options, self.option_scores(game, player, options)), self.rng)


# ------------------------------------------------------------------ fitting
def soft_targets(options, values: dict | None, chosen: str, temperature: float = TEMPERATURE) -> list[float]:
    """What the fit aims at: ``softmax(value / temperature)`` over the options when the teacher
    valued them, else all on the chosen option."""
    if not values:
        return [1.0 if o == chosen else 0.0 for o in options]
    vs = [values[o] / temperature for o in options]
    top = max(vs)
    exps = [math.exp(v - top) for v in vs]
    total = sum(exps)
    return [e / total for e in exps]


def record_decisions(game, agents, samples: list, teachers=None, temperature: float = TEMPERATURE) -> None:
    """Play ``game`` with ``agents``; append ``(features of every option, target probabilities)``
    per decision with a choice.  The targets come from ``teachers`` (one per seat) when given:
    the teacher values the states the agent steers into, and the agent's choice is played."""
    while not game.finished:
        player = game.current_player()
        options = game.legal_options()
        agent = agents[player]
        teacher = teachers[player] if teachers else agent
        if hasattr(teacher, "choose_with_values"):
            option, values = teacher.choose_with_values(game, player)
        else:
            option, values = teacher.choose(game, player), None
        if teacher is not agent and len(options) > 1:
            option = agent.choose(game, player)
        if len(options) > 1:
            row = situation(game, player)
            # What the options do at once is read, as in play, on a world re-dealt for the player
            # (its seed from the decision, so that a training run is reproducible).
            world = game.determinize(player, game.s.decisions * 8 + player) if applies_options(options) else None
            on_road = road_index(game)
            feats = [option_features(game, player, o, row, world, on_road) for o in options]
            samples.append((feats, soft_targets(options, values, option, temperature)))
        game.apply(option)


def fit(samples: list, epochs: int = 4, rate: float = 0.1, l2: float = 1e-4, seed: int = 0) -> dict[str, float]:
    """Softmax regression over each decision's options (AdaGrad) towards its target probabilities
    (a list per decision, or the index of the one chosen option)."""
    w: dict[str, float] = {}
    g2: dict[str, float] = {}
    order = list(range(len(samples)))
    rng = random.Random(seed)
    sqrt = math.sqrt
    for _ in range(epochs):
        rng.shuffle(order)
        for i in order:
            feats, target = samples[i]
            if isinstance(target, int):
                target = [1.0 if k == target else 0.0 for k in range(len(feats))]
            scores = [score(w, fs) for fs in feats]
            top = max(scores)
            exps = [math.exp(v - top) for v in scores]
            total = sum(exps)
            grad: dict[str, float] = {}
            for k, fs in enumerate(feats):
                p = exps[k] / total - target[k]
                if p:
                    for f, x in fs.items():
                        grad[f] = grad.get(f, 0.0) + p * x
            for f, gv in grad.items():
                gv += l2 * w.get(f, 0.0)
                g2[f] = g2.get(f, 0.0) + gv * gv
                w[f] = w.get(f, 0.0) - rate * gv / sqrt(g2[f] + 1e-8)
    return {f: round(v, 6) for f, v in sorted(w.items()) if abs(v) > 1e-6}


def fit_averaged(samples: list, fits: int = 3) -> dict[str, float]:
    """The mean of ``fits`` fits that see the decisions in different orders: one fit's weights
    depend on its order by a few points of game score; their mean plays like the best of them."""
    runs = [fit(samples, seed=k) for k in range(fits)]
    keys = sorted(set().union(*runs))
    mean = {f: round(sum(w.get(f, 0.0) for w in runs) / fits, 6) for f in keys}
    return {f: v for f, v in mean.items() if abs(v) > 1e-6}


def imitation_accuracy(samples: list, weights: dict[str, float]) -> float:
    """The share of decisions where the fitted weights pick the option the target favours most."""
    if not samples:
        return 0.0
    hits = 0
    for feats, target in samples:
        best = target if isinstance(target, int) else target.index(max(target))
        scores = [score(weights, fs) for fs in feats]
        hits += scores.index(max(scores)) == best
    return hits / len(samples)


def teacher_game(rs, players: int, seed: int, teacher: str = "greedy", weights: dict | None = None,
                 temperature: float = TEMPERATURE) -> list:
    """The samples of one game seeded ``seed``: the teacher's self-play, or with ``weights``,
    a game where the policy so weighted plays half the seats (from the seed's parity on) and
    the teacher labels every decision, the policy's included: the policy learns to recover from
    the situations its own choices lead to, which the teacher's games never show it."""
    from provost.interpreter.agents import make_agent
    from provost.interpreter.engine import Game

    game = Game.new(rs, players=players, seed=seed)
    seats = range(game.s.humans)
    teachers = [make_agent(teacher, seed, seat) for seat in seats]
    agents = teachers
    if weights is not None:
        agents = [PolicyAgent(seed, seat, weights) if (seat + seed) % 2 else teachers[seat] for seat in seats]
    samples: list = []
    record_decisions(game, agents, samples, teachers, temperature)
    return samples


#: The mixed games (the policy in half the seats) are seeded from here on past the first seed.
MIXED_SEED_OFFSET = 100_000


def _games(rs, players: int, seeds, teacher: str, weights, jobs: int, temperature: float) -> list:
    n = len(seeds)
    if jobs > 1 and n > 1:
        from concurrent.futures import ProcessPoolExecutor
        with ProcessPoolExecutor(jobs) as pool:
            return list(pool.map(teacher_game, [rs] * n, [players] * n, seeds, [teacher] * n, [weights] * n,
                                 [temperature] * n))
    return [teacher_game(rs, players, s, teacher, weights, temperature) for s in seeds]


def train(rs, players: int, games: int, seed: int = 0, jobs: int = 1, teacher: str = "greedy",
          holdout: float = 0.2, mixed: float = 0.4, temperature: float = TEMPERATURE) -> dict:
    """Fit the policy on ``games`` games: first the teacher's self-play (seeds ``seed``..), the
    last ``holdout`` share of them held out; a first fit on the others; then the ``mixed`` share
    of the games played by that fit in half the seats and labelled by the teacher (seeds
    ``seed + MIXED_SEED_OFFSET``..); the model is fitted (``fit_averaged``) on all but the held-out games, and the
    held-out ones measure how often it picks the teacher's best option.  The model, ready to be
    written as JSON; the same arguments give the same model."""
    n_mixed = int(games * mixed) if games > 2 else 0
    n_self = games - n_mixed
    own = _games(rs, players, list(range(seed, seed + n_self)), teacher, None, jobs, temperature)
    n_held = max(1, int(n_self * holdout)) if n_self > 1 else 0
    kept, held = own[:n_self - n_held], [x for g in own[n_self - n_held:] for x in g]
    samples = [x for g in kept for x in g]
    if n_mixed:
        first = fit(samples)
        start = seed + MIXED_SEED_OFFSET
        samples += [x for g in _games(rs, players, list(range(start, start + n_mixed)), teacher, first, jobs,
                                      temperature) for x in g]
    weights = fit_averaged(samples)
    return {"format": 2, "ruleset": rs.name, "variant": rs.variant, "players": players, "digest": rs.digest,
            "teacher": teacher, "games": games, "first_seed": seed, "mixed_games": n_mixed,
            "temperature": temperature,
            "holdout_accuracy": round(imitation_accuracy(held, weights), 4) if held else None,
            "decisions": len(samples) + len(held), "weights": weights}
