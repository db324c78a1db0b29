"""``provost sim --plot FILE.png``: score distributions by seat and win rates with their intervals.

matplotlib is optional (``pip install "provost[plot]"``); ``require_matplotlib`` says so clearly
before any game is played.  The figure is drawn from the reports alone (their score
distributions and Wilson intervals), so a saved ``--format json`` report can be plotted again.
No pyplot: a bare ``Figure`` touches no global backend state.
"""
from __future__ import annotations

import os


class PlotUnavailable(RuntimeError):
    pass


def require_matplotlib() -> None:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise PlotUnavailable('--plot needs matplotlib: pip install "provost[plot]" (or matplotlib)') from None


def plot_format_problem(path: str) -> str | None:
    """Why matplotlib cannot write a picture named ``path`` (its suffix names the format), or None;
    said before any game is played, not after them."""
    from matplotlib.figure import Figure
    formats = Figure().canvas.get_supported_filetypes()
    suffix = os.path.splitext(path)[1][1:].lower()
    if suffix in formats:
        return None
    known = ", ".join("." + f for f in sorted(formats))
    if not suffix:
        return "no suffix to name the picture's format (%s)" % known
    return "matplotlib does not draw .%s (it draws %s)" % (suffix, known)


def _title(rep: dict) -> str:
    return rep["ruleset"] + (" / " + rep["variant"] if rep["variant"] else "")


def _differences(axes, cmp: dict) -> None:
    """The comparison's main result: each difference (compare - base) with its 95% interval."""
    ax_d, ax_r = axes
    panels = ((ax_d, [("seat %d %s" % (e["seat"], e["agent"]), e["score"]) for e in cmp["by_seat"]]
               + [("all seats", cmp["score_all_seats"]), ("rounds", cmp["rounds"])], 1, "score (and rounds)",
               "Score differences, 95%% CI (%s)"),
              (ax_r, [("seat %d %s" % (e["seat"], e["agent"]), e["win_rate"]) for e in cmp["by_seat"]], 100,
               "win rate (percentage points)", "Win-rate differences (red: CI excludes 0)"))
    how = "paired by seed, t" if cmp.get("paired_seeds") else "independent samples"
    for ax, rows, scale, what, title in panels:
        rows = [(label, d) for label, d in rows if d.get("diff") is not None]
        ys = list(range(len(rows)))[::-1]
        for y, (label, d) in zip(ys, rows):
            lo, hi = d["ci95"]
            colour = "#C44E52" if d["significant"] else "#4C72B0"
            ax.errorbar([scale * d["diff"]], [y], xerr=[[scale * (d["diff"] - lo)], [scale * (hi - d["diff"])]],
                        fmt="o", color=colour, ecolor=colour, capsize=4)
        ax.axvline(0, color="grey", lw=1)
        ax.set_yticks(ys)
        ax.set_yticklabels([label for label, _ in rows])
        ax.set_xlabel("difference in %s" % what)
        ax.set_title(title % how if "%s" in title else title, fontsize="medium")
        ax.grid(axis="x", alpha=0.3)


def write_plot(path: str, reports: list[dict], differences: dict | None = None) -> None:
    """Write a PNG (or any format matplotlib infers from ``path``) for one report or a base and a
    variant; with the comparison's ``differences``, a second row shows each with its interval."""
    require_matplotlib()
    from matplotlib.figure import Figure

    colours = ["#4C72B0", "#DD8452", "#55A868", "#C44E52"]
    k = len(reports)
    seats = max(r["players"] for r in reports)   # the deciding seats: neutral ones never win
    fig = Figure(figsize=(11, 8.4 if differences else 4.6), dpi=100, layout="constrained")
    if differences:
        (ax_s, ax_w), bottom = fig.subplots(2, 2, gridspec_kw={"width_ratios": [3, 2]})
        _differences(bottom, differences)
    else:
        ax_s, ax_w = fig.subplots(1, 2, gridspec_kw={"width_ratios": [3, 2]})
    width = 0.8 / k

    for j, rep in enumerate(reports):
        offset = (j - (k - 1) / 2) * width
        data, pos = [], []
        for e in rep["score"]["by_seat"]:
            values = [v for v, c in e["distribution"] for _ in range(c)]
            if values:
                data.append(values)
                pos.append(e["seat"] + offset)
        if data:
            parts = ax_s.violinplot(data, positions=pos, widths=width * 0.9, showmeans=True, showextrema=True)
            for body in parts["bodies"]:
                body.set_facecolor(colours[j % len(colours)])
                body.set_alpha(0.55)
            for key in ("cmeans", "cmins", "cmaxes", "cbars"):
                if key in parts:
                    parts[key].set_color(colours[j % len(colours)])
        ax_s.plot([], [], color=colours[j % len(colours)], lw=6, alpha=0.55,
                  label="%s (%d games)" % (_title(rep), rep["games"]))

        rates = rep["win_rate"]["by_seat"]
        xs = [e["seat"] + offset for e in rates]
        ys = [100 * (e["rate"] or 0) for e in rates]
        lo = [max(0.0, y - 100 * e["ci95"][0]) for y, e in zip(ys, rates)]
        hi = [max(0.0, 100 * e["ci95"][1] - y) for y, e in zip(ys, rates)]
        ax_w.bar(xs, ys, width=width * 0.9, color=colours[j % len(colours)], alpha=0.8, label=_title(rep))
        ax_w.errorbar(xs, ys, yerr=[lo, hi], fmt="none", ecolor="black", capsize=4, lw=1)

    labels = ["seat %d\n%s" % (e["seat"], e["agent"]) for e in reports[0]["score"]["by_seat"]]
    for ax in (ax_s, ax_w):
        ax.set_xticks(range(seats))
        ax.set_xticklabels(labels[:seats] + [""] * (seats - len(labels)))
        ax.grid(axis="y", alpha=0.3)
    ax_s.set_ylabel("final score (%s)" % reports[0]["score"]["resource"])
    ax_s.set_title("Score distribution by seat (ticks: mean, min, max)")
    ax_s.legend(loc="best", fontsize="small")
    humans = reports[0]["players"]
    ax_w.axhline(100 / max(humans, 1), color="grey", ls="--", lw=1, label="1 / players")
    ax_w.set_ylabel("win rate (%)")
    ax_w.set_title("Win rate by seat, 95% Wilson interval")
    ax_w.legend(loc="best", fontsize="small")
    fig.suptitle("%s, %d players, seeds %d..%d" % (
        " vs ".join(_title(r) for r in reports), humans, reports[0]["seed"],
        reports[0]["seed"] + reports[0]["requested"] - 1))
    _save(fig, path)


def _save(fig, path) -> None:
    """To a file named PATH (its extension picks the format), or PNG into a binary stream."""
    fig.savefig(path, format=None if isinstance(path, str) else "png")


COLOURS = ["#4C72B0", "#DD8452", "#55A868", "#C44E52"]


def write_designer_plot(path, reports: list[dict], top: int = 12) -> None:
    """The designer figures of one report or two: seat advantage, the options that go most with
    winning or losing, and the branching factor by round."""
    require_matplotlib()
    from matplotlib.figure import Figure

    fig = Figure(figsize=(11, 8.4), dpi=100, layout="constrained")
    (ax_seat, ax_branch), (ax_opt, ax_margin) = fig.subplots(2, 2)
    k = len(reports)
    for j, rep in enumerate(reports):
        colour, d = COLOURS[j % len(COLOURS)], rep["designer"]
        offset = (j - (k - 1) / 2) * 0.25
        for e in d["seat_advantage"]:
            wr = e["win_rate_vs_fair"]
            if wr["diff"] is None:
                continue
            lo, hi = wr["ci95"]
            ax_seat.errorbar([e["seat"] + offset], [100 * wr["diff"]],
                             yerr=[[100 * (wr["diff"] - lo)], [100 * (hi - wr["diff"])]],
                             fmt="o", color=colour, capsize=4, label=_title(rep) if e["seat"] == 0 else None)
        rounds = d["branching"]["by_round"]
        ax_branch.plot([e["round"] for e in rounds], [e["mean"] for e in rounds], "o-", color=colour,
                       label=_title(rep))
        lc, fm = d["lead_changes"], d["final_margin"]
        for x, m in ((0, lc), (1, fm)):
            if m["mean"] is not None:
                ax_margin.errorbar([x + offset], [m["mean"]], yerr=[[m["mean"] - m["ci95"][0]], [m["ci95"][1] - m["mean"]]],
                                   fmt="s", color=colour, capsize=4, label=_title(rep) if x == 0 else None)
    ax_seat.axhline(0, color="grey", lw=1)
    ax_seat.set_xticks(range(reports[0]["players"]))
    ax_seat.set_xticklabels(["seat %d\n%s" % (e["seat"], e["agent"]) for e in reports[0]["designer"]["seat_advantage"]])
    ax_seat.set_ylabel("win rate - 1/players (points)")
    ax_seat.set_title("Seat advantage, 95% Wilson interval", fontsize="medium")
    ax_seat.legend(loc="best", fontsize="small")
    ax_branch.set_xlabel("round")
    ax_branch.set_ylabel("legal options per decision (mean)")
    ax_branch.set_title("Branching factor by round", fontsize="medium")
    ax_branch.legend(loc="best", fontsize="small")
    ax_margin.set_xticks([0, 1])
    ax_margin.set_xticklabels(["lead changes per game", "final margin (best - second)"])
    ax_margin.set_title("How decisive games are (mean, 95% t interval)", fontsize="medium")
    ax_margin.legend(loc="best", fontsize="small")
    # The options of the first report that go most with winning or losing.
    rows = sorted(reports[0]["designer"]["options_and_winning"]["options"], key=lambda e: -abs(e["diff"] or 0))[:top]
    rows.sort(key=lambda e: e["diff"] or 0)
    for y, e in enumerate(rows):
        lo, hi = e["ci95"]
        colour = "#C44E52" if e["significant"] else "#4C72B0"
        ax_opt.errorbar([100 * e["diff"]], [y], xerr=[[100 * (e["diff"] - lo)], [100 * (hi - e["diff"])]],
                        fmt="o", color=colour, capsize=3)
    ax_opt.axvline(0, color="grey", lw=1)
    ax_opt.set_yticks(range(len(rows)))
    ax_opt.set_yticklabels([e["option"] for e in rows], fontsize="small")
    ax_opt.set_xlabel("winners' share - others' share (points)")
    ax_opt.set_title("Options and winning, %s (red: significant)" % _title(reports[0]), fontsize="medium")
    for ax in (ax_seat, ax_branch, ax_opt, ax_margin):
        ax.grid(alpha=0.3)
    fig.suptitle("Designer figures: %s" % " vs ".join(_title(r) for r in reports))
    _save(fig, path)
