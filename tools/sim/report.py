"""Summaries of many game records: the sim report (a JSON-able dict), its comparison, and its text.

The report is built from integer sums, so it does not depend on the order the games finished
in: the same seeds give the same report for any ``--jobs`` and any backend.  Only the
``timing`` key (added by the command) varies between runs.

Counting rules, the same for every ruleset (no game-specific code):

- **Wins**: a game's winners are ``game.winners()`` (the rules' tiebreak applied).  A shared
  win counts as a win for *each* winner, so win rates by seat can add up to more than 100%;
  ``shared_wins`` says in how many games that happened.  Neutral seats (Ys for 2) score but
  never win: win rates and ``score.by_seat`` cover the deciding seats, and the neutral seats'
  scores are apart, in ``score.neutral``.
- **Win rate by agent**: wins of the seats an agent sat in over the seat-games it played
  (a game with two greedy seats is two greedy seat-games).  Seats of one game are not
  independent, so read that interval as indicative.
- **Options**: every decision's option id is counted under its first two ``:`` fields
  (``place:gold_mine``, ``play:banker``, ``gem:blue``, ``broker:front``); ``verbs`` counts the first
  field alone.  Figures are per game.
- **Buildings** (``provost.tools.sim.runner._buildings``): an option ``build:KIND`` (``build:KIND/payment``
  counts for ``KIND``) is a building built; ``place:X`` and ``use:X`` are uses of ``X`` (a worker
  placed on it, or a building activated) when ``X`` is a building or a space of the rules, or a
  tile on the board (counted under its kind).  ``games`` is how many games had at least one.
- **Resources**: the final value of every resource counter, per seat (Ys: gems by colour and
  victory points; Caylus: deniers, cubes, prestige).
- **Zones**: every per-player zone at the end: its mean size per seat, and how often each item
  was in it (Ys: characters in hand; Caylus 1303: characters held).
"""
from __future__ import annotations

from collections import Counter

from .metrics import DesignerMetrics, render_designer_text
from .stats import Moments, mean_difference, paired_difference, rate_difference, rnd, wilson

class Aggregate:
    """The running summary of one spec's games (add records in any order)."""

    def __init__(self, spec, requested: int):
        self.spec, self.requested = spec, requested
        self.seats = len(spec.agents)
        self.deciding = spec.players            # seats 0..deciding-1 decide; the rest are neutral
        self.neutral = tuple(range(self.deciding, self.seats))
        self.labels = list(spec.agents)         # a neutral seat's agent is runner.NEUTRAL
        self.games = 0
        self.errors: list[dict] = []
        self.wins = [0] * self.seats
        self.shared = 0
        self.scores = [Moments() for _ in range(self.seats)]
        self.histograms = [Counter() for _ in range(self.seats)]
        self.rounds, self.decisions = Moments(), Moments()
        self.resources: dict[str, list[Moments]] = {}
        self.options: Counter = Counter()
        self.verbs: Counter = Counter()
        self.option_games: Counter = Counter()
        self.built: Counter = Counter()
        self.built_games: Counter = Counter()
        self.used: Counter = Counter()
        self.used_games: Counter = Counter()
        self.zone_sizes: dict[str, list[Moments]] = {}
        self.zone_items: dict[str, Counter] = {}
        self.digests: set[str] = set()
        # seed -> (scores, winners, rounds, decisions): the two sides of a comparison pair up by seed.
        self.by_seed: dict[int, tuple] = {}
        self.designer = DesignerMetrics(self.deciding, self.labels)

    # ------------------------------------------------------------ adding a game
    def add(self, r: dict) -> None:
        self.digests.add(r.get("digest", ""))
        if "error" in r:
            self.errors.append({"game": r["game"], "seed": r["seed"], "decisions": r["decisions"],
                                "error": r["error"]})
            return
        self.games += 1
        if "seed" in r:
            self.by_seed[r["seed"]] = (list(r["scores"]), set(r["winners"]), r["rounds"], r["decisions"])
        for w in r["winners"]:
            self.wins[w] += 1
        if len(r["winners"]) > 1:
            self.shared += 1
        for seat, score in enumerate(r["scores"] + r.get("neutral_scores", [])):
            self.scores[seat].add(score)
            self.histograms[seat][score] += 1
        self.rounds.add(r["rounds"])
        self.decisions.add(r["decisions"])
        self.designer.add(r)
        for name, values in r["resources"].items():
            ms = self.resources.setdefault(name, [Moments() for _ in range(self.seats)])
            for seat, v in enumerate(values):
                ms[seat].add(v)
        for key, n in r["options"].items():
            self.options[key] += n
            self.option_games[key] += 1
            self.verbs[key.partition(":")[0]] += n
        for kind, n in r["buildings"]["built"].items():
            self.built[kind] += n
            self.built_games[kind] += 1
        for kind, n in r["buildings"]["used"].items():
            self.used[kind] += n
            self.used_games[kind] += 1
        for zone, seats in r["zones"].items():
            ms = self.zone_sizes.setdefault(zone, [Moments() for _ in range(self.seats)])
            items = self.zone_items.setdefault(zone, Counter())
            for seat, content in enumerate(seats):
                ms[seat].add(len(content))
                items.update(content)

    # ------------------------------------------------------------ the report
    def _per_game(self, counts: Counter, games: Counter | None = None) -> dict:
        n = self.games or 1
        out = {}
        for key in sorted(counts, key=lambda k: (-counts[k], k)):
            entry = {"total": counts[key], "per_game": rnd(counts[key] / n)}
            if games is not None:
                entry["games"] = games[key]
            out[key] = entry
        return out

    def win_rates(self) -> tuple[list[dict], list[dict]]:
        by_seat = []
        for seat in range(self.deciding):
            lo, hi = wilson(self.wins[seat], self.games)
            by_seat.append({"seat": seat, "agent": self.labels[seat], "wins": self.wins[seat], "games": self.games,
                            "rate": rnd(self.wins[seat] / self.games) if self.games else None,
                            "ci95": [rnd(lo), rnd(hi)]})
        by_agent = []
        deciding = self.labels[:self.deciding]
        for agent in sorted(set(deciding), key=deciding.index):
            seats = [s for s in range(self.deciding) if self.labels[s] == agent]
            wins, n = sum(self.wins[s] for s in seats), self.games * len(seats)
            lo, hi = wilson(wins, n)
            by_agent.append({"agent": agent, "seats": seats, "wins": wins, "seat_games": n,
                             "rate": rnd(wins / n) if n else None, "ci95": [rnd(lo), rnd(hi)]})
        return by_seat, by_agent

    def to_dict(self) -> dict:
        rs = self.spec.rules
        by_seat, by_agent = self.win_rates()
        scores = [{"seat": seat, "agent": self.labels[seat], **self.scores[seat].summary(),
                   "distribution": [[v, c] for v, c in sorted(self.histograms[seat].items())]}
                  for seat in range(self.seats)]
        resources = {}
        for name in sorted(self.resources):
            ms = self.resources[name]
            resources[name] = {"mean_by_seat": [rnd(m.mean) for m in ms], "sd_by_seat": [rnd(m.sd) for m in ms]}
        zones = {}
        for zone in sorted(self.zone_sizes):
            zones[zone] = {"mean_size_by_seat": [rnd(m.mean) for m in self.zone_sizes[zone]],
                           "items": self._per_game(self.zone_items[zone])}
        return {
            "ruleset": rs.name, "variant": rs.variant, "ruleset_hash": rs.digest,
            "players": self.spec.players, "seats": self.seats, "neutral_seats": list(self.neutral),
            "agents": list(self.labels), "seed": self.spec.seed,
            "games": self.games, "requested": self.requested,
            "interrupted": self.games + len(self.errors) < self.requested,
            "errors": sorted(self.errors, key=lambda e: e["game"]),
            "win_rate": {"by_seat": by_seat, "by_agent": by_agent, "shared_wins": self.shared},
            "score": {"resource": _score_name(self.spec), "by_seat": scores[:self.deciding],
                      "neutral": scores[self.deciding:]},
            "length": {"rounds": self.rounds.summary(), "decisions": self.decisions.summary()},
            "resources": resources,
            "buildings": {"built": self._per_game(self.built, self.built_games),
                          "used": self._per_game(self.used, self.used_games)},
            "options": {"verbs": self._per_game(self.verbs), "choices": self._per_game(self.options, self.option_games)},
            "zones": zones,
            "designer": self.designer.to_dict(self.wins, self.games),
        }


def _score_name(spec) -> str:
    try:
        return str(spec.rules.game().get("score") or "score")
    except StopIteration:
        return "score"


# ------------------------------------------------------------ comparing two sims
def compare(base: Aggregate, other: Aggregate) -> dict:
    """What changes from ``base`` to ``other`` (same seeds), each difference with its 95% interval:
    paired by seed (`stats.paired_difference`) for the seeds both finished, independent samples
    otherwise (when the records carry no seed)."""
    seeds = sorted(set(base.by_seed) & set(other.by_seed))
    if seeds:
        return _paired_compare(base, other, seeds)
    seats = []
    for seat in range(min(base.deciding, other.deciding)):
        seats.append({"seat": seat, "agent": base.labels[seat],
                      "win_rate": rate_difference(base.wins[seat], base.games, other.wins[seat], other.games),
                      "score": mean_difference(base.scores[seat], other.scores[seat])})
    b_agents, o_agents = base.win_rates()[1], {a["agent"]: a for a in other.win_rates()[1]}
    agents = []
    for a in b_agents:
        o = o_agents.get(a["agent"])
        if o is not None:
            agents.append({"agent": a["agent"],
                           "win_rate": rate_difference(a["wins"], a["seat_games"], o["wins"], o["seat_games"])})
    all_b, all_o = Moments(), Moments()
    for agg, into in ((base, all_b), (other, all_o)):
        for s in agg.scores[:agg.deciding]:
            into.n += s.n
            into.total += s.total
            into.squares += s.squares
    return {"games": [base.games, other.games], "by_seat": seats, "by_agent": agents,
            "score_all_seats": mean_difference(all_b, all_o),
            "rounds": mean_difference(base.rounds, other.rounds),
            "decisions": mean_difference(base.decisions, other.decisions)}


RATE = (-1.0, 1.0)


def _paired_compare(base: Aggregate, other: Aggregate, seeds: list) -> dict:
    b, o = [base.by_seed[s] for s in seeds], [other.by_seed[s] for s in seeds]
    deciding = min(base.deciding, other.deciding)

    def won(rows, seat):
        return [int(seat in r[1]) for r in rows]

    seats = [{"seat": seat, "agent": base.labels[seat],
              "win_rate": paired_difference(won(b, seat), won(o, seat), RATE),
              "score": paired_difference([r[0][seat] for r in b], [r[0][seat] for r in o])}
             for seat in range(deciding)]
    agents = []
    for agent in dict.fromkeys(base.labels[:deciding]):
        mine = [seat for seat in range(deciding) if base.labels[seat] == agent and other.labels[seat] == agent]
        if mine:
            # per seed, the share of this agent's seats that won
            agents.append({"agent": agent, "win_rate": paired_difference(
                [sum(seat in r[1] for seat in mine) / len(mine) for r in b],
                [sum(seat in r[1] for seat in mine) / len(mine) for r in o], RATE)})
    return {"games": [base.games, other.games], "paired_seeds": len(seeds), "by_seat": seats, "by_agent": agents,
            "score_all_seats": paired_difference([sum(r[0][:deciding]) / deciding for r in b],
                                                 [sum(r[0][:deciding]) / deciding for r in o]),
            "rounds": paired_difference([r[2] for r in b], [r[2] for r in o]),
            "decisions": paired_difference([r[3] for r in b], [r[3] for r in o])}


# ------------------------------------------------------------ text
def _pct(x) -> str:
    return "  -  " if x is None else "%5.1f%%" % (100 * x)


def _ci_pct(ci) -> str:
    return "[%5.1f, %5.1f]" % (100 * ci[0], 100 * ci[1]) if ci else ""


def _num(x, width=7, digits=2) -> str:
    return ("%*s" % (width, "-")) if x is None else "%*.*f" % (width, digits, x)


def _span(e: dict) -> str:
    return "-" if e["min"] is None else "%s..%s" % (e["min"], e["max"])


def _wrap(prefix: str, items: list[str], width: int = 100) -> list[str]:
    lines, line = [], prefix
    for item in items:
        if len(line) + len(item) + 2 > width and line.strip():
            lines.append(line.rstrip(", "))
            line = " " * len(prefix)
        line += item + ", "
    lines.append(line.rstrip(", "))
    return lines


def render_text(rep: dict) -> list[str]:
    title = rep["ruleset"] + (" / " + rep["variant"] if rep["variant"] else "")
    agents = ", ".join(rep["agents"])
    out = ["%s, %d players (%s), %d games, seeds %d..%d%s" % (
        title, rep["players"], agents, rep["games"], rep["seed"], rep["seed"] + rep["requested"] - 1,
        "  INTERRUPTED: %d of %d games finished" % (rep["games"], rep["requested"]) if rep["interrupted"] else "")]
    out.append("rules digest %s" % rep["ruleset_hash"][:16])
    if rep["errors"]:
        out.append("%d game%s failed with an error (first: game %d, seed %d: %s)" % (
            len(rep["errors"]), "" if len(rep["errors"]) == 1 else "s", rep["errors"][0]["game"], rep["errors"][0]["seed"], rep["errors"][0]["error"]))
    wr = rep["win_rate"]
    out += ["", "Win rate by seat (95%% CI; a shared win counts for each winner: %d shared)" % wr["shared_wins"]]
    for e in wr["by_seat"]:
        out.append("  seat %d  %-8s %s  %s  %d/%d" % (e["seat"], e["agent"], _pct(e["rate"]), _ci_pct(e["ci95"]),
                                                    e["wins"], e["games"]))
    if len(wr["by_agent"]) > 1 or len(rep["agents"]) > 1:
        out.append("Win rate by agent (over seat-games)")
        for e in wr["by_agent"]:
            out.append("  %-14s %s  %s  %d/%d" % (e["agent"], _pct(e["rate"]), _ci_pct(e["ci95"]), e["wins"],
                                                 e["seat_games"]))
    sc = rep["score"]
    out += ["", "Score (%s) by seat: mean, sd, 95%% CI of the mean, min..max" % sc["resource"]]
    for e in sc["by_seat"] + sc.get("neutral", []):
        ci = e["ci95"]
        out.append("  seat %d  %-8s %s %s  [%s, %s]  %s" % (
            e["seat"], e["agent"], _num(e["mean"]), _num(e["sd"]), _num(ci and ci[0], 6), _num(ci and ci[1], 6),
            _span(e)))
    ln = rep["length"]
    out += ["", "Game length: mean, sd, min..max"]
    for key in ("rounds", "decisions"):
        e = ln[key]
        out.append("  %-10s %s %s  %s" % (key, _num(e["mean"], 8), _num(e["sd"]), _span(e)))
    if rep["resources"]:
        names = list(rep["resources"])
        out += ["", "Final resources, mean by seat"]
        out.append("  %-16s" % "" + "".join("%9s" % n[:9] for n in names))
        for seat in range(rep["seats"]):
            out.append("  seat %d  %-8s" % (seat, rep["agents"][seat])
                       + "".join(_num(rep["resources"][n]["mean_by_seat"][seat], 9) for n in names))
    b = rep["buildings"]
    if b["built"] or b["used"]:
        out += ["", "Buildings per game (build:KIND counts a build; place:X and use:X a use of a building or space)"]
        if b["built"]:
            out += _wrap("  built: ", ["%s %.2f" % (k, v["per_game"]) for k, v in b["built"].items()])
        if b["used"]:
            out += _wrap("  used:  ", ["%s %.2f" % (k, v["per_game"]) for k, v in b["used"].items()])
    if rep["zones"]:
        out += ["", "Player zones at the end: mean size by seat; items per game"]
        for zone, z in rep["zones"].items():
            sizes = " ".join(_num(x, 4) for x in z["mean_size_by_seat"])
            out += _wrap("  %-10s %s  " % (zone, sizes), ["%s %.2f" % (k, v["per_game"]) for k, v in z["items"].items()])
    out += ["", "Options chosen per game, by first field (all choices in --format json)"]
    by_verb: dict[str, list[str]] = {}
    for key, v in rep["options"]["choices"].items():
        verb, _, arg = key.partition(":")
        if arg:
            by_verb.setdefault(verb, []).append("%s %.2f" % (arg, v["per_game"]))
    for verb, v in rep["options"]["verbs"].items():
        args = by_verb.get(verb, [])
        head = "  %-10s %7.2f" % (verb, v["per_game"])
        out += _wrap(head + ("  " if args else ""), args[:12] + (["..."] if len(args) > 12 else []))
    if rep.get("designer") and rep["games"]:
        out += render_designer_text(rep["designer"])
    return out


def _diff_line(label: str, d: dict, pct: bool) -> str:
    if d["diff"] is None:
        return "  %-22s (no games)" % label
    if pct:
        body = "%s -> %s  %+6.1f pts  [%+6.1f, %+6.1f]" % (_pct(d["base"]), _pct(d["compare"]), 100 * d["diff"],
                                                          100 * d["ci95"][0], 100 * d["ci95"][1])
    else:
        body = "%8.2f -> %8.2f  %+8.2f  [%+8.2f, %+8.2f]" % (d["base"], d["compare"], d["diff"], d["ci95"][0],
                                                            d["ci95"][1])
    return "  %-22s %s%s" % (label, body, "  *" if d["significant"] else "")


def render_compare_text(cmp: dict, base: dict, other: dict) -> list[str]:
    def title(r):
        return r["ruleset"] + (" / " + r["variant"] if r["variant"] else "")

    out = ["Comparison: %s -> %s, same seeds %d..%d, %d / %d games (95%% CI; * the interval excludes 0)" % (
        title(base), title(other), base["seed"], base["seed"] + base["requested"] - 1, cmp["games"][0], cmp["games"][1])]
    if cmp.get("paired_seeds"):
        out.append("Paired by seed (%d seeds both finished): each difference is the mean of the per-seed "
                   "differences, with its t interval" % cmp["paired_seeds"])
    out.append("Win rate by seat")
    for e in cmp["by_seat"]:
        out.append(_diff_line("seat %d %s" % (e["seat"], e["agent"]), e["win_rate"], True))
    if len(cmp["by_agent"]) > 1:
        out.append("Win rate by agent")
        for e in cmp["by_agent"]:
            out.append(_diff_line(e["agent"], e["win_rate"], True))
    out.append("Mean score")
    for e in cmp["by_seat"]:
        out.append(_diff_line("seat %d %s" % (e["seat"], e["agent"]), e["score"], False))
    out.append(_diff_line("all seats", cmp["score_all_seats"], False))
    out.append("Game length")
    out.append(_diff_line("rounds", cmp["rounds"], False))
    out.append(_diff_line("decisions", cmp["decisions"], False))
    return out

