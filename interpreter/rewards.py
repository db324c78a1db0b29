"""Final rewards for learning and search.

Two kinds, both given only when the game is over (every step before gets 0):

- ``rank`` (the default): each deciding seat gets ``1 - 2 * (rank - 1) / (n - 1)``
  where rank 1 is the best score among the ``n`` deciding seats, ties broken by
  the game's declared tiebreak and then shared (averaged ranks).  So a sole
  winner gets +1, the last -1, and the rewards always sum to 0 (zero-sum).
  The neutral seats that the rules play (Ys with 2 players) are not ranked.
- ``score``: own score minus the best other deciding seat's score (general-sum).

``Game.winners()`` and the rank-1 seats agree: both use the score, then the tiebreak.
"""
from __future__ import annotations

REWARD_KINDS = ("rank", "score")


def rank_keys(game) -> list[tuple]:
    """(score, tiebreak) for every deciding seat: higher is better."""
    scores = game.scores()
    humans = game.s.humans
    tb = game.prog.tiebreak
    keys = []
    for p in range(humans):
        t = 0
        if tb is not None:
            try:
                t = tb(game, {"player": p})
            except Exception:              # noqa: BLE001 - a tiebreak that cannot be evaluated breaks nothing
                t = 0
        keys.append((scores[p], t if isinstance(t, (int, float)) else 0))
    return keys


def ranks(game) -> list[float]:
    """1-based ranks of the deciding seats, ties averaged."""
    keys = rank_keys(game)
    out = []
    for k in keys:
        better = sum(1 for x in keys if x > k)
        same = sum(1 for x in keys if x == k)
        out.append(better + (same + 1) / 2.0)
    return out


def rank_rewards(game) -> list[float]:
    n = game.s.humans
    if n <= 1:
        return [0.0] * n
    return [1.0 - 2.0 * (r - 1.0) / (n - 1) for r in ranks(game)]


def score_rewards(game) -> list[float]:
    sc = game.scores()[: game.s.humans]
    return [float(v - max((w for q, w in enumerate(sc) if q != p), default=0)) for p, v in enumerate(sc)]


def final_rewards(game, kind: str = "rank") -> list[float]:
    if kind == "rank":
        return rank_rewards(game)
    if kind == "score":
        return score_rewards(game)
    raise ValueError("unknown reward kind '%s' (known: %s)" % (kind, ", ".join(REWARD_KINDS)))


def final_info(game) -> dict:
    """What the environments put in ``info`` once the game is over, as ``Game.result`` and the game
    log's result give it: ``scores`` of the deciding seats in seat order (as many as the players
    the environment was made for), ``neutral_scores`` of the seats the rules play (Ys for 2),
    ``winners`` (deciding seats).  Nothing before the end: some rules hide the scores until then."""
    r = game.result()
    return {"scores": list(r["scores"]), "neutral_scores": list(r["neutral_scores"]), "winners": list(r["winners"])}
