"""What a designer reads first about a batch of games: seat advantage, which options go with
winning, how often the lead changes, how decisive games are, and the branching factor by round.

Two halves, like the rest of the sim report:

- ``GameWatcher`` follows one game (``before`` each decision, ``after`` it) and adds its part to
  the game's record: per-seat option counts, the number of lead changes, the legal options
  offered at each decision by round.  All integers, so records stay small and JSON-able.
- ``DesignerMetrics`` sums records in any order (integer sums only: the same seeds give the same
  report for any ``--jobs`` and backend) and turns them into the report's ``designer`` key.

Definitions, the same for every ruleset:

- **Seat advantage**: per seat, the mean of (the seat's score - the mean score of the other deciding
  seats) with its 95% t interval; and the seat's win rate against the fair share 1/players, with the
  Wilson interval.  With different agents in different seats it measures seat and agent together.
- **Options and winning**: for every option key (``build:gold_mine``, ``place:castle``...), the share
  of winners' seat-games in which the seat took it at least once against the share of the other
  seat-games, and the difference with its Newcombe interval.  An association, not a cause: strong
  players also take what strong players take.
- **Lead changes**: after each decision the deciding seat with the strictly highest score leads; a
  change is a new leader replacing another one (a tie keeps the last leader).
- **Final margin**: the best deciding score minus the second best.
- **Branching factor**: the number of legal options offered at a decision, by round.
"""
from __future__ import annotations

from collections import Counter

from .stats import Moments, rate_difference, rnd, wilson


class GameWatcher:
    """Collects one game's designer figures while it is played."""

    def __init__(self, game):
        self.deciding = game.s.humans
        self.score_counter = game.prog.score
        self.by_seat: dict[str, list[int]] = {}
        self.leader: int | None = None
        self.lead_changes = 0
        self.branching: dict[int, list[int]] = {}    # round -> [decisions, options, squares, fewest, most]

    def before(self, game, player: int) -> None:
        n = len(game.s.pending["options"])
        row = self.branching.get(game.s.round)
        if row is None:
            row = self.branching[game.s.round] = [0, 0, 0, n, n]
        row[0] += 1
        row[1] += n
        row[2] += n * n
        row[3], row[4] = min(row[3], n), max(row[4], n)

    def after(self, game, player: int, key: str) -> None:
        counts = self.by_seat.get(key)
        if counts is None:
            counts = self.by_seat[key] = [0] * self.deciding
        if player < self.deciding:
            counts[player] += 1
        scores = game.s.counters[self.score_counter]
        best = max(scores[:self.deciding])
        top = [seat for seat in range(self.deciding) if scores[seat] == best]
        if len(top) == 1 and top[0] != self.leader:
            if self.leader is not None:
                self.lead_changes += 1
            self.leader = top[0]

    def record(self) -> dict:
        return {"options_by_seat": self.by_seat, "lead_changes": self.lead_changes,
                "branching": {str(r): v for r, v in sorted(self.branching.items())}}


def _merge(m: Moments, n: int, total: int, squares: int, low: int, high: int) -> None:
    m.n += n
    m.total += total
    m.squares += squares
    m.low = low if m.low is None else min(m.low, low)
    m.high = high if m.high is None else max(m.high, high)


class DesignerMetrics:
    """The running sums of the designer figures over many game records."""

    def __init__(self, deciding: int, labels: list[str]):
        self.deciding, self.labels = deciding, labels
        # (players - 1) * score - sum of the others' scores: an integer, exact in any order.
        self.advantage = [Moments() for _ in range(deciding)]
        self.margin, self.lead_changes = Moments(), Moments()
        self.branching: dict[int, Moments] = {}
        self.branching_all = Moments()
        self.winner_games = self.other_games = 0
        self.taken_by_winners: Counter = Counter()
        self.taken_by_others: Counter = Counter()
        self.count_by_winners: Counter = Counter()
        self.count_by_others: Counter = Counter()

    def add(self, r: dict) -> None:
        scores, winners = r["scores"], set(r["winners"])
        total, k = sum(scores), len(scores)
        if k > 1:
            for seat in range(k):
                self.advantage[seat].add((k - 1) * scores[seat] - (total - scores[seat]))
            ranked = sorted(scores, reverse=True)
            self.margin.add(ranked[0] - ranked[1])
        self.winner_games += len(winners)
        self.other_games += k - len(winners)
        for key, counts in r.get("options_by_seat", {}).items():
            for seat, n in enumerate(counts):
                if seat in winners:
                    self.taken_by_winners[key] += n > 0
                    self.count_by_winners[key] += n
                else:
                    self.taken_by_others[key] += n > 0
                    self.count_by_others[key] += n
        if "lead_changes" in r:
            self.lead_changes.add(r["lead_changes"])
        for rnd_text, row in r.get("branching", {}).items():
            _merge(self.branching.setdefault(int(rnd_text), Moments()), *row)
            _merge(self.branching_all, *row)

    def _seat_advantage(self, wins: list[int], games: int) -> list[dict]:
        k, out = self.deciding, []
        fair = 1 / k if k else 0
        for seat in range(k):
            m = self.advantage[seat]
            scale = 1 / (k - 1) if k > 1 else 0
            ci = m.ci()
            lo, hi = wilson(wins[seat], games) if games else (None, None)
            rate = wins[seat] / games if games else None
            score = {"mean": rnd(m.mean * scale) if m.n else None,
                     "ci95": [rnd(ci[0] * scale), rnd(ci[1] * scale)] if ci else None}
            score["significant"] = bool(ci and m.n > 1 and (ci[0] > 0 or ci[1] < 0))
            win = {"rate": rnd(rate), "fair": rnd(fair),
                   "diff": rnd(rate - fair) if rate is not None else None,
                   "ci95": [rnd(lo - fair), rnd(hi - fair)] if lo is not None else None}
            win["significant"] = bool(lo is not None and (lo > fair or hi < fair))
            out.append({"seat": seat, "agent": self.labels[seat], "score_vs_others": score, "win_rate_vs_fair": win})
        return out

    def _options(self) -> list[dict]:
        rows = []
        keys = set(self.taken_by_winners) | set(self.taken_by_others)
        for key in keys:
            w, o = self.taken_by_winners[key], self.taken_by_others[key]
            d = rate_difference(o, self.other_games, w, self.winner_games)   # winners - others
            rows.append({"option": key, "winners": rnd(w / self.winner_games) if self.winner_games else None,
                         "others": rnd(o / self.other_games) if self.other_games else None,
                         "diff": d["diff"], "ci95": d["ci95"], "significant": d["significant"],
                         "per_winner": rnd(self.count_by_winners[key] / self.winner_games) if self.winner_games else None,
                         "per_other": rnd(self.count_by_others[key] / self.other_games) if self.other_games else None})
        rows.sort(key=lambda e: (-(e["diff"] or 0), e["option"]))
        return rows

    def to_dict(self, wins: list[int], games: int) -> dict:
        return {
            "seat_advantage": self._seat_advantage(wins, games),
            "options_and_winning": {"winner_seat_games": self.winner_games, "other_seat_games": self.other_games,
                                    "options": self._options()},
            "lead_changes": self.lead_changes.summary(),
            "final_margin": self.margin.summary(),
            "branching": {"all": self.branching_all.summary() | {"decisions": self.branching_all.n},
                          "by_round": [{"round": r, "decisions": m.n, "mean": rnd(m.mean), "sd": rnd(m.sd),
                                        "min": m.low, "max": m.high}
                                       for r, m in sorted(self.branching.items())]},
        }


# ------------------------------------------------------------ text
def _interval(ci, scale=1.0, fmt="%+.1f") -> str:
    if not ci:
        return ""
    return "[%s, %s]" % (fmt % (scale * ci[0]), fmt % (scale * ci[1]))


def render_designer_text(d: dict, top: int = 6) -> list[str]:
    """The designer figures of one report as text lines (``*``: the interval excludes 0)."""
    out = ["", "Seat advantage: score minus the other seats' mean; win rate minus the fair share (95% CI)"]
    for e in d["seat_advantage"]:
        sc, wr = e["score_vs_others"], e["win_rate_vs_fair"]
        out.append("  seat %d  %-8s score %s %-16s%s  win rate %s pts %-16s%s" % (
            e["seat"], e["agent"], "%+7.2f" % sc["mean"] if sc["mean"] is not None else "      -",
            _interval(sc["ci95"], fmt="%+.2f"), " *" if sc["significant"] else "  ",
            "%+6.1f" % (100 * wr["diff"]) if wr["diff"] is not None else "     -",
            _interval(wr["ci95"], 100), " *" if wr["significant"] else ""))
    ow = d["options_and_winning"]
    rows = [e for e in ow["options"] if e["significant"]]
    if rows:
        out += ["", "Options that go with winning: share of winners' seat-games that took it vs the others' "
                "(%d / %d seat-games; significant only)" % (ow["winner_seat_games"], ow["other_seat_games"])]
        shown = rows[:top] + [e for e in rows[top:] if e["diff"] < 0][-top:]
        for e in shown:
            out.append("  %-28s %5.1f%% vs %5.1f%%  %+6.1f pts %s" % (
                e["option"][:28], 100 * e["winners"], 100 * e["others"], 100 * e["diff"], _interval(e["ci95"], 100)))
        if len(rows) > len(shown):
            out.append("  ... %d more in --format json" % (len(rows) - len(shown)))
    lc, fm, br = d["lead_changes"], d["final_margin"], d["branching"]
    out += ["", "Lead changes per game: mean %s, sd %s, %s..%s" % (_f(lc["mean"]), _f(lc["sd"]), lc["min"], lc["max"]),
            "Final margin (best - second best): mean %s, sd %s, %s..%s" % (_f(fm["mean"]), _f(fm["sd"]), fm["min"],
                                                                          fm["max"]),
            "Branching factor (legal options per decision): mean %s over %d decisions; by round: %s" % (
                _f(br["all"]["mean"]), br["all"]["decisions"],
                " ".join("%d:%s" % (e["round"], _f(e["mean"], 1)) for e in br["by_round"]))]
    return out


def _f(x, digits=2) -> str:
    return "-" if x is None else "%.*f" % (digits, x)
