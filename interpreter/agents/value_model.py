"""A learned value for any ruleset: a player's expected final score from what they hold.

The greedy evaluation (score plus fixed weights times resources) cannot see what
pays later: a level on a track, a presence that scores at the next count, the
cubes kept for next round's building, resources worth less as the end nears.
This model learns it from games:

- **Features** of a player, read from the compiled program, never from a
  game's names: every per-player counter (each element of one kept per enum
  value), the number of buildings the player owns in each building category,
  the number of pieces they own of each kind and the number of items in each of
  their zones.
- **One linear model per round number**, fitted on the states at the start of
  that round (and the neighbouring ones, ``window``) with the player's final
  score as target, relative to the other players' (see ``fit``): the same cube
  is worth more early than late.
- **Fitted on the games it will judge**: greedy games, then games of the search
  itself among greedy agents (``tools/train_value.py --also``): a value fitted on
  greedy play alone misjudges the states the search steers into, and the search
  exploits those errors.
- **Stored** as JSON under ``values/`` (next to this file), keyed by the
  ruleset's digest and the player count, so a changed rule file simply has no
  model (the agents then fall back to their hand-set evaluation).
  ``tools/train_value.py`` regenerates a file bit for bit from its seeds.

Fitting is ridge regression on standardized features, solved by Gaussian
elimination in pure Python (a few dozen features; no numpy needed).
"""
from __future__ import annotations

import json
import os
from pathlib import Path

VALUES_DIR = Path(__file__).resolve().parent / "values"


# ------------------------------------------------------------------ features
class Features:
    """The feature extractor of one program: names, and a vector per player."""

    def __init__(self, prog):
        self.counters = []          # (name, number of elements or None for a scalar)
        names = []
        for name, c in prog.counters.items():
            if c.get("scope") != "player":
                continue
            by = c.get("by")
            if by:
                values = prog.enums.get(by) or []
                self.counters.append((name, len(values)))
                names.extend("counter:%s:%s" % (name, v) for v in values)
            else:
                self.counters.append((name, None))
                names.append("counter:" + name)
        cats = list(prog.categories)
        self.category_of = {kind: cats.index(b["category"]) for kind, b in prog.buildings.items()
                            if b.get("category") in cats}
        self.n_cats = len(cats)
        names.extend("buildings:" + c for c in cats)
        kinds = list(prog.pieces)
        self.piece_index = {k: i for i, k in enumerate(kinds)}
        names.extend("pieces:" + k for k in kinds)
        self.zones = [z for z, d in prog.zones.items() if d.get("scope") == "player"]
        names.extend("zone:" + z for z in self.zones)
        self.names = names

    def of(self, game, p: int) -> list[float]:
        """The features of player ``p`` in ``game``, in the order of ``names``."""
        return self.every(game, (p,))[0]

    def every(self, game, seats=None) -> list[list[float]]:
        """The features of each of ``seats`` (default every seat), in one pass over the tiles
        and pieces (not one per seat)."""
        s = game.s
        seats = range(s.players) if seats is None else seats
        row_of = {p: i for i, p in enumerate(seats)}
        out: list = [[] for _ in seats]
        counters = s.counters
        for name, n in self.counters:
            per_seat = counters[name]
            for i, p in enumerate(seats):
                if n is None:
                    out[i].append(per_seat[p])
                else:
                    out[i].extend(per_seat[p])
        cats = [[0] * self.n_cats for _ in seats]
        cat_of = self.category_of
        for kind, owner in s.tiles.values():
            i = cat_of.get(kind)
            if i is not None and owner in row_of:
                cats[row_of[owner]][i] += 1
        pieces = [[0] * len(self.piece_index) for _ in seats]
        for pc in s.pieces:
            i = self.piece_index.get(pc[0])
            if i is not None and pc[1] in row_of:
                pieces[row_of[pc[1]]][i] += 1
        for i, p in enumerate(seats):
            row = out[i]
            row.extend(cats[i])
            row.extend(pieces[i])
            for z in self.zones:
                row.append(_count_items(s.zones[z][p]))
        return out


def _count_items(value) -> int:
    if isinstance(value, dict):
        return sum(_count_items(v) for v in value.values())
    if isinstance(value, list):
        return len(value)
    return 1 if value else 0


def features_for(prog) -> Features:
    f = getattr(prog, "_value_features", None)
    if f is None:
        f = prog._value_features = Features(prog)
    return f


# ------------------------------------------------------------------ the model
def model_path(rs, players: int, directory: Path | str | None = None) -> Path:
    base = Path(directory) if directory is not None else Path(os.environ.get("PROVOST_VALUE_DIR") or VALUES_DIR)
    return base / ("%s-%s-%dp.json" % (rs.name, rs.digest, players))


class ValueModel:
    """Per round: ``intercept + sum(weight * feature)`` predicts a player's final score (up to a
    constant shared by all players when the model was fitted on relative scores: only the
    differences between players are meant)."""

    def __init__(self, data: dict):
        self.data = data
        self.names = data["features"]
        self.rounds = {int(r): (m["intercept"], m["weights"]) for r, m in data["rounds"].items()}
        self.last_round = max(self.rounds)
        self.first_round = min(self.rounds)

    @classmethod
    def load(cls, game, directory=None) -> "ValueModel | None":
        """The model for ``game``'s rules and player count, or None when none was trained."""
        path = model_path(game.rs, game.s.humans, directory)
        if not path.exists():
            return None
        model = cls(json.loads(path.read_text()))
        if model.names != features_for(game.prog).names:
            return None                     # trained on another feature set: not usable
        return model

    def _weights(self, round_: int):
        r = min(max(round_, self.first_round), self.last_round)
        while r not in self.rounds:        # a round never reached in training: the nearest earlier one
            r -= 1
        return self.rounds[r]

    def values(self, game) -> list[float]:
        """Every seat's expected final score (the score itself once the game is over)."""
        humans = game.s.humans
        if game.finished:
            return [float(v) for v in game.s.counters[game.prog.score][:humans]]
        intercept, w = self._weights(game.s.round)
        out = []
        for row in features_for(game.prog).every(game)[:humans]:
            v = intercept
            for x, f in zip(w, row):
                v += x * f
            out.append(v)
        return out


# ------------------------------------------------------------------ fitting
def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """x with ``a x = b`` (Gaussian elimination with partial pivoting; ``a`` is regular)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[piv] = m[piv], m[col]
        p = m[col][col]
        for r in range(col + 1, n):
            f = m[r][col] / p
            if f:
                row, top = m[r], m[col]
                for k in range(col, n + 1):
                    row[k] -= f * top[k]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][k] * x[k] for k in range(r + 1, n))) / m[r][r]
    return x


def ridge(xs: list[list[float]], ys: list[float], penalty: float) -> tuple[float, list[float]]:
    """(intercept, weights) minimizing squared error + ``penalty * n * |w|^2`` on standardized features.

    A feature constant in the data gets weight 0.
    """
    n, k = len(xs), len(xs[0])
    mean = [sum(x[j] for x in xs) / n for j in range(k)]
    sd = [(sum((x[j] - mean[j]) ** 2 for x in xs) / n) ** 0.5 for j in range(k)]
    live = [j for j in range(k) if sd[j] > 1e-12]
    ybar = sum(ys) / n
    z = [[(x[j] - mean[j]) / sd[j] for j in live] for x in xs]
    yc = [y - ybar for y in ys]
    m = len(live)
    a = [[0.0] * m for _ in range(m)]
    b = [0.0] * m
    for row, y in zip(z, yc):
        for i in range(m):
            ri = row[i]
            if ri:
                ai = a[i]
                for j in range(i, m):
                    ai[j] += ri * row[j]
                b[i] += ri * y
    for i in range(m):
        for j in range(i):
            a[i][j] = a[j][i]
        a[i][i] += penalty * n
    w = solve(a, b) if m else []
    weights = [0.0] * k
    for j, x in zip(live, w):
        weights[j] = x / sd[j]
    intercept = ybar - sum(weights[j] * mean[j] for j in range(k))
    return intercept, weights


def fit(states, names, penalty: float = 0.01, window: int = 1, min_samples: int = 40,
        target: str = "relative") -> dict:
    """Per round r, a ridge fit on the states of rounds r-window .. r+window.

    ``states``: (round, every player's features, every player's final score).  With ``target``
    "relative" a player's final score minus the others' mean is fitted on their features minus
    the others' mean: what sets a player apart, not what makes the whole game long or short (a
    castle built fast ends the game early and lowers every score; only the difference is
    searched for).  "absolute" fits the final score itself.  Rounds with fewer than
    ``min_samples`` samples in their window get no model (the nearest earlier round's is used).
    """
    rows_by_round: dict = {}
    for r, feats, finals in states:
        rows = rows_by_round.setdefault(r, [])
        n = len(finals)
        for p in range(n):
            if target == "relative" and n > 1:
                others = [q for q in range(n) if q != p]
                x = [f - sum(feats[q][j] for q in others) / len(others) for j, f in enumerate(feats[p])]
                y = finals[p] - sum(finals[q] for q in others) / len(others)
            else:
                x, y = feats[p], finals[p]
            rows.append((x, y))
    out = {}
    for r in sorted(rows_by_round):
        rows = [row for q in sorted(rows_by_round) if abs(q - r) <= window for row in rows_by_round[q]]
        if len(rows) < min_samples:
            continue
        intercept, weights = ridge([x for x, _ in rows], [y for _, y in rows], penalty)
        out[str(r)] = {"samples": len(rows), "intercept": intercept, "weights": weights}
    return out
