"""The ``policy`` agent: greedy's choices, learned, at a fraction of greedy's cost.

Greedy values each option by playing a copy of the game to the end of the round; that costs
hundreds of decisions per choice.  The policy looks one decision ahead only: it applies each
legal option to a copy of a world consistent with what its seat sees (``determinize``) and
scores the option with a linear function of its features, the option chosen being the one
with the best score.  The features are read from the rules, never from a game's names:

- what the option does at once: the change of each of the player's resources (the score
  included) and of the best other player's score;
- which option it is: its template (``place:gold_mine`` -> ``place:gold_mine``,
  ``broker:front:2`` -> ``broker:front``), the whole id, and the template at this stage of
  the game (rounds in threes);
- whether it is a null option (pass, skip...).

The weights are fitted to imitate a teacher (greedy) by softmax regression over the legal
options of every decision of the teacher's self-play games (``fit``; ``provost train``), and
stored as JSON, per ruleset, variant and player count: the shipped ones in ``policies/`` next to
this file, a user's own in the user's data directory (``provost train`` writes there).  A
ruleset with no fitted weights gets hand-set ones (the score, resources weighted as greedy
weights them, the best opponent's score against): a myopic greedy.  A weights file fitted on
other rules still plays (a feature it has not seen weighs nothing); its digest is recorded.
"""
from __future__ import annotations

import json
import math
import os
import random
from pathlib import Path

from .base import SeededAgent, is_null
from .greedy import resource_weights

SHIPPED_DIR = Path(__file__).resolve().parent / "policies"
DIR_ENV = "PROVOST_POLICY_DIR"


def template(option: str) -> str:
    return ":".join(option.split(":", 2)[:2])


def option_features(world, player: int, option: str) -> dict[str, float]:
    """The features of ``option`` for ``player`` in ``world`` (applied to a copy of it)."""
    s = world.s
    prog = world.prog
    after = world.clone()
    after.apply(option)
    counters, new = s.counters, after.s.counters
    score = prog.score
    tpl = template(option)
    feats = {"t:" + tpl: 1.0, "id:" + option: 1.0, "t:%s@%d" % (tpl, s.round // 3): 1.0}
    if is_null(option):
        feats["null"] = 1.0
    for r in prog.resources:
        d = new[r][player] - counters[r][player]
        if d:
            feats["d:" + r] = float(d)
    before_other = max((v for q, v in enumerate(counters[score]) if q != player), default=0)
    after_other = max((v for q, v in enumerate(new[score]) if q != player), default=0)
    if after_other != before_other:
        feats["d:opp"] = float(after_other - before_other)
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


def find_model(ruleset: str, variant: str | None, players: int) -> dict | None:
    """The fitted weights for these rules: the user's own first, then the shipped ones."""
    name = model_name(ruleset, variant, players)
    for base in (user_dir(), SHIPPED_DIR):
        if base is None:
            continue
        try:
            with open(base / name, encoding="utf-8") as f:
                model = json.load(f)
        except (OSError, ValueError):
            continue
        if isinstance(model, dict) and isinstance(model.get("weights"), dict):
            return model
    return None


class PolicyAgent(SeededAgent):
    name = "policy"

    def __init__(self, seed: int = 0, seat: int = 0, weights: dict[str, float] | None = None):
        super().__init__(seed, seat)
        self._fixed = weights
        self._prog = None
        self.weights: dict[str, float] = {}
        self.model: dict | None = None

    def _prepare(self, game) -> None:
        if game.prog is self._prog:
            return
        self._prog = game.prog
        if self._fixed is not None:
            self.weights = self._fixed
            return
        rs = game.rs
        self.model = find_model(rs.name, rs.variant, game.s.humans)
        self.weights = self.model["weights"] if self.model else default_weights(game.prog)

    def score(self, feats: dict[str, float]) -> float:
        w = self.weights
        return sum(w.get(f, 0.0) * x for f, x in feats.items())

    def choose(self, game, player: int) -> str:
        options = game.legal_options()
        if len(options) == 1:
            return options[0]
        self._prepare(game)
        world = game.determinize(player, self.rng.randrange(1 << 30))
        best, best_v = [], None
        for opt in options:
            v = self.score(option_features(world, player, opt))
            if best_v is None or v > best_v + 1e-9:
                best, best_v = [opt], v
            elif v >= best_v - 1e-9:
                best.append(opt)
        return best[0] if len(best) == 1 else best[self.rng.randrange(len(best))]


# ------------------------------------------------------------------ fitting
def record_decisions(game, agents, samples: list) -> None:
    """Play ``game`` with ``agents``; append ``(features of every option, chosen index)`` per decision."""
    while not game.finished:
        player = game.current_player()
        options = game.legal_options()
        option = agents[player].choose(game, player)
        if len(options) > 1:
            samples.append(([option_features(game, player, o) for o in options], options.index(option)))
        game.apply(option)


def fit(samples: list, epochs: int = 12, rate: float = 0.1, l2: float = 1e-4, seed: int = 0) -> dict[str, float]:
    """Softmax regression over each decision's options (AdaGrad), imitating the chosen ones."""
    w: dict[str, float] = {}
    g2: dict[str, float] = {}
    order = list(range(len(samples)))
    rng = random.Random(seed)
    for _ in range(epochs):
        rng.shuffle(order)
        for i in order:
            feats, chosen = samples[i]
            scores = [sum(w.get(f, 0.0) * x for f, x in fs.items()) for fs in feats]
            top = max(scores)
            exps = [math.exp(v - top) for v in scores]
            total = sum(exps)
            grad: dict[str, float] = {}
            for k, fs in enumerate(feats):
                p = exps[k] / total - (1.0 if k == chosen else 0.0)
                if p:
                    for f, x in fs.items():
                        grad[f] = grad.get(f, 0.0) + p * x
            for f, gv in grad.items():
                gv += l2 * w.get(f, 0.0)
                g2[f] = g2.get(f, 0.0) + gv * gv
                w[f] = w.get(f, 0.0) - rate * gv / math.sqrt(g2[f] + 1e-8)
    return {f: round(v, 6) for f, v in sorted(w.items()) if abs(v) > 1e-6}


def imitation_accuracy(samples: list, weights: dict[str, float]) -> float:
    """The share of decisions where the fitted weights pick the teacher's option."""
    if not samples:
        return 0.0
    hits = 0
    for feats, chosen in samples:
        scores = [sum(weights.get(f, 0.0) * x for f, x in fs.items()) for fs in feats]
        hits += scores.index(max(scores)) == chosen
    return hits / len(samples)


def teacher_game(rs, players: int, seed: int, teacher: str = "greedy") -> list:
    """The samples of one self-play game of the teacher, seeded ``seed``."""
    from provost.interpreter.agents import make_agent
    from provost.interpreter.engine import Game

    game = Game.new(rs, players=players, seed=seed)
    agents = [make_agent(teacher, seed, seat) for seat in range(game.s.humans)]
    samples: list = []
    record_decisions(game, agents, samples)
    return samples


def train(rs, players: int, games: int, seed: int = 0, jobs: int = 1, teacher: str = "greedy",
          holdout: float = 0.2) -> dict:
    """Fit the policy on ``games`` teacher games (the last ``holdout`` share held out to measure
    how often it picks the teacher's option); the model, ready to be written as JSON."""
    seeds = list(range(seed, seed + games))
    if jobs > 1:
        from concurrent.futures import ProcessPoolExecutor
        with ProcessPoolExecutor(jobs) as pool:
            per_game = list(pool.map(teacher_game, [rs] * games, [players] * games, seeds, [teacher] * games))
    else:
        per_game = [teacher_game(rs, players, s, teacher) for s in seeds]
    cut = games - max(1, int(games * holdout)) if games > 1 else games
    fitted = fit([x for g in per_game[:cut] for x in g], seed=seed)
    held = [x for g in per_game[cut:] for x in g]
    weights = fit([x for g in per_game for x in g], seed=seed)     # the shipped fit uses every game
    return {"ruleset": rs.name, "variant": rs.variant, "players": players, "digest": rs.digest,
            "teacher": teacher, "games": games, "first_seed": seed,
            "holdout_accuracy": round(imitation_accuracy(held, fitted), 4) if held else None,
            "decisions": sum(len(g) for g in per_game), "weights": weights}
