"""Agent ratings from a round robin of seeded games (``provost rate``).

Seatings: with at least as many agents as seats, every combination of agents in every cyclic
seat order; with fewer, the pool is cycled round the table, so an agent sits in more than one
seat of a game.  The games are spread evenly over the seatings and every game has its own
seed, so any of them can be replayed alone with ``provost play``.

Ratings are openskill's Plackett-Luce model (a maintained Weng-Lin rating system for
multi-player free-for-all games): each finished game is a ranking of its deciding seats (score,
then the rules' tiebreak: ``Game.winners()`` rank first).  Games are folded in seed order, so the
ratings do not depend on how many jobs played them.  When an agent holds several seats of one
game, each seat starts from the agent's rating and the agent keeps the mean of the seats' new
ratings.  The 95% interval of a rating is ``mu +- 1.96 sigma``; the conservative ``ordinal``
(``mu - 3 sigma``) orders the table.  Beside them, each agent's win share with Wilson's
interval: the share of the seats it held that won.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from .stats import Z95, wilson


class RatingsUnavailable(RuntimeError):
    """openskill is not installed."""


def require_openskill():
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        raise RatingsUnavailable("provost rate needs openskill: pip install 'provost[rate]'") from None
    return PlackettLuce


def seatings(agents: list[str], seats: int) -> list[tuple[str, ...]]:
    """Every arrangement the round robin plays: each agent in each seat equally often."""
    if len(agents) >= seats:
        out = []
        for combo in itertools.combinations(agents, seats):
            out.extend(combo[k:] + combo[:k] for k in range(seats))
        return out
    n = len(agents)
    return [tuple(agents[(k + s) % n] for s in range(seats)) for k in range(n)]


def game_ranks(record: dict) -> list[int]:
    """1-based ranks of the deciding seats: score, then winning (the rules' tiebreak)."""
    winners = set(record["winners"])
    keys = [(score, seat in winners) for seat, score in enumerate(record["scores"])]
    return [1 + sum(1 for other in keys if other > key) for key in keys]


@dataclass
class AgentTally:
    seats: int = 0
    wins: int = 0
    score_sum: int = 0

    def row(self) -> dict:
        low, high = wilson(self.wins, self.seats)
        return {"seats": self.seats, "win_rate": self.wins / self.seats if self.seats else 0.0,
                "win_rate_95": [low, high],
                "mean_score": self.score_sum / self.seats if self.seats else 0.0}


@dataclass
class Ratings:
    """The ratings after folding in games one by one (in seed order)."""

    agents: list[str]
    model: object = None
    ratings: dict = field(default_factory=dict)
    tallies: dict = field(default_factory=dict)
    games: int = 0

    def __post_init__(self):
        if self.model is None:
            self.model = require_openskill()()
        for name in self.agents:
            self.ratings[name] = self.model.rating(name=name)
            self.tallies[name] = AgentTally()

    def add(self, seating: tuple[str, ...], record: dict) -> None:
        seats = len(record["scores"])
        teams = [[self.model.rating(mu=self.ratings[a].mu, sigma=self.ratings[a].sigma)] for a in seating[:seats]]
        new = self.model.rate(teams, ranks=game_ranks(record))
        per_agent: dict[str, list] = {}
        for seat, (team,) in enumerate(new):
            name = seating[seat]
            per_agent.setdefault(name, []).append(team)
            tally = self.tallies[name]
            tally.seats += 1
            tally.wins += seat in record["winners"]
            tally.score_sum += record["scores"][seat]
        for name, rs in per_agent.items():
            mu = sum(r.mu for r in rs) / len(rs)
            sigma = sum(r.sigma for r in rs) / len(rs)
            self.ratings[name] = self.model.rating(mu=mu, sigma=sigma, name=name)
        self.games += 1

    def table(self) -> list[dict]:
        rows = []
        for name in self.agents:
            r = self.ratings[name]
            rows.append({"agent": name, "mu": r.mu, "sigma": r.sigma,
                         "mu_95": [r.mu - Z95 * r.sigma, r.mu + Z95 * r.sigma],
                         "ordinal": r.mu - 3 * r.sigma, **self.tallies[name].row()})
        rows.sort(key=lambda row: (-row["ordinal"], row["agent"]))
        return rows


def render_text(title: str, games: int, errors: int, rows: list[dict]) -> str:
    lines = ["%s: %d games rated%s" % (title, games, " (%d raised an error, not rated)" % errors if errors else ""),
             "",
             "%-14s %7s %6s %17s %9s %17s %8s" % ("agent", "mu", "sigma", "mu 95%", "win rate", "win 95%", "score"),
             ]
    for row in rows:
        lines.append("%-14s %7.2f %6.2f %17s %8.1f%% %17s %8.1f" % (
            row["agent"], row["mu"], row["sigma"], "[%.1f, %.1f]" % tuple(row["mu_95"]),
            100 * row["win_rate"], "[%.1f%%, %.1f%%]" % tuple(100 * x for x in row["win_rate_95"]),
            row["mean_score"]))
    lines.append("")
    lines.append("Plackett-Luce ratings (openskill); ordered by mu - 3 sigma. Win rate: share of the "
                 "seats an agent held that won.")
    return "\n".join(lines)
