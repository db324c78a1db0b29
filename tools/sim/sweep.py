"""A parameter sweep: the same seeded games under each setting of some rule numbers.

Every setting plays games ``0..G-1`` on seeds ``S..S+G-1``, so game ``i`` of two settings
differs only by the rules: each metric is compared with the first setting (the baseline) game
by game, as a paired difference with Student's t interval (``stats.paired_difference``).

Metrics of one game (deciding seats only; neutral seats are the rules'):
``mean score``, ``winning score``, ``margin`` (first minus second score), ``rounds``,
``decisions``, and per seat ``seat K score`` and ``seat K wins`` (1 when seat K is among the
winners): the seat metrics show a seat advantage moving with the setting.  A ``wins`` change
lies in -1..1, and its interval is clipped there.
"""
from __future__ import annotations

import itertools

from .stats import paired_difference, rnd


def _is_integer(text: str) -> bool:
    try:
        int(text)
    except ValueError:
        return False
    return True


def parse_sets(items: list[str]) -> list[tuple[str, list[int]]]:
    """``["NAME=1,2,3", ...]`` -> ``[("NAME", [1, 2, 3]), ...]``; ValueError says what is wrong."""
    out = []
    for item in items:
        target, sep, values = item.partition("=")
        if not sep or not target.strip() or not values.strip():
            raise ValueError("--set %r: write NAME=V1,V2,..." % item)
        wrong = next((v for v in values.split(",") if not _is_integer(v)), None)
        if wrong is not None:
            raise ValueError("--set %r: %r is not an integer; the values must be integers" % (item, wrong.strip()))
        numbers = [int(v) for v in values.split(",")]
        if len(set(numbers)) != len(numbers):
            raise ValueError("--set %r: a value is repeated" % item)
        if any(t == target.strip() for t, _ in out):
            raise ValueError("--set %s is given twice" % target.strip())
        out.append((target.strip(), numbers))
    return out


def settings_grid(sets: list[tuple[str, list[int]]]) -> list[dict[str, int]]:
    """Every combination of the values, the first values' combination first (the baseline)."""
    names = [t for t, _ in sets]
    return [dict(zip(names, combo)) for combo in itertools.product(*(values for _, values in sets))]


def label(setting: dict[str, int]) -> str:
    return ", ".join("%s=%d" % kv for kv in setting.items())


def game_metrics(record: dict) -> dict[str, float]:
    scores = record["scores"]
    ordered = sorted(scores, reverse=True)
    out = {"mean score": sum(scores) / len(scores), "winning score": ordered[0],
           "margin": ordered[0] - ordered[1] if len(ordered) > 1 else 0,
           "rounds": record["rounds"], "decisions": record["decisions"]}
    winners = set(record["winners"])
    for seat, score in enumerate(scores):
        out["seat %d score" % seat] = score
        out["seat %d wins" % seat] = 1 if seat in winners else 0
    return out


def _bounds(metric: str) -> tuple[float, float] | None:
    """Where a metric's paired difference can lie: a seat's wins are 0 or 1 a game, so their
    change is within -1..1 (its t interval is clipped there, as sim clips a win rate's)."""
    return (-1.0, 1.0) if metric.endswith(" wins") else None


def analyse(settings: list[dict], records: list[dict[int, dict]]) -> dict:
    """The sweep's report: per setting the metrics' means, and paired differences with the baseline.

    ``records[k]`` maps a game index to the record of setting ``k``.  Only games that finished
    under every setting are compared (an engine error in one setting drops that seed).
    """
    common = sorted(set.intersection(*(set(k for k, r in recs.items() if "error" not in r) for recs in records)))
    metrics = [{i: game_metrics(recs[i]) for i in common} for recs in records]
    names = list(metrics[0][common[0]]) if common else []
    out = {"games": len(common), "settings": []}
    for k, setting in enumerate(settings):
        entry = {"setting": setting, "label": label(setting),
                 "means": {m: rnd(sum(metrics[k][i][m] for i in common) / len(common)) if common else None
                           for m in names}}
        if k:
            entry["vs_baseline"] = {m: paired_difference([metrics[0][i][m] for i in common],
                                                         [metrics[k][i][m] for i in common], _bounds(m))
                                    for m in names}
        failed = sorted((r for r in records[k].values() if "error" in r), key=lambda r: r["seed"])
        entry["errors"] = [r["seed"] for r in failed]
        # What went wrong, not only where: the first failed game's error (a positioned E100...).
        entry["first_error"] = {"seed": failed[0]["seed"], "error": failed[0]["error"]} if failed else None
        out["settings"].append(entry)
    return out


def render_text(title: str, report: dict) -> str:
    settings = report["settings"]
    lines = ["%s: %d games on the same seeds under each of %d settings; baseline %s"
             % (title, report["games"], len(settings), settings[0]["label"]), ""]
    for entry in settings[1:]:
        lines.append("%s vs %s (paired, 95%% t interval; * significant):" % (entry["label"], settings[0]["label"]))
        lines.append("  %-16s %9s %9s %9s %22s" % ("metric", "baseline", "setting", "diff", "95% interval"))
        for metric, d in entry["vs_baseline"].items():
            ci = "[%+.2f, %+.2f]" % tuple(d["ci95"]) if d["ci95"] else "-"
            lines.append("  %-16s %9.2f %9.2f %+9.2f %22s %s" % (metric, d["base"], d["compare"], d["diff"], ci,
                                                              "*" if d["significant"] else ""))
        lines.append("")
    for entry in settings:
        if entry["errors"]:
            lines.append("%s: %d game%s raised an error (left out of every comparison): seeds %s; first, seed %d: %s"
                         % (entry["label"], len(entry["errors"]), "" if len(entry["errors"]) == 1 else "s",
                            entry["errors"][:10], entry["first_error"]["seed"], entry["first_error"]["error"]))
    if len(settings) == 1:
        lines.append("one setting only: nothing to compare")
    return "\n".join(lines).rstrip()


def plot(report: dict, path, title: str) -> None:
    """One panel per metric: each setting's paired difference from the baseline with its interval.
    PATH is a file name (its extension picks the format) or a binary stream (PNG)."""
    from matplotlib.figure import Figure

    from .plot import _save

    others = report["settings"][1:]
    metrics = list(others[0]["vs_baseline"]) if others else []
    cols = 3
    rows = max(1, -(-len(metrics) // cols))
    fig = Figure(figsize=(4.2 * cols, 2.8 * rows), dpi=110, layout="constrained")
    axes = fig.subplots(rows, cols, squeeze=False)
    for ax, metric in zip(axes.flat, metrics):
        ys, lows, highs, labels, colours = [], [], [], [], []
        for entry in others:
            d = entry["vs_baseline"][metric]
            ys.append(d["diff"])
            low, high = d["ci95"] or (d["diff"], d["diff"])
            lows.append(d["diff"] - low)
            highs.append(high - d["diff"])
            labels.append(entry["label"])
            colours.append("#C44E52" if d["significant"] else "#4C72B0")
        for x, (y, lo, hi, colour) in enumerate(zip(ys, lows, highs, colours)):
            ax.errorbar([x], [y], yerr=[[lo], [hi]], fmt="o", capsize=4, color=colour)
        ax.axhline(0, color="grey", linewidth=0.8)
        ax.set_title(metric, fontsize=9)
        ax.set_xticks(list(range(len(ys))))
        ax.set_xticklabels(labels, rotation=20, fontsize=7, ha="right")
    for ax in list(axes.flat)[len(metrics):]:
        ax.axis("off")
    fig.suptitle("%s: change from %s (paired, 95%% t interval; red: significant)"
                 % (title, report["settings"][0]["label"]), fontsize=10)
    _save(fig, path)
