"""``provost sim ... --report FILE.html``: one page a designer reads.

The question, the settings that answer it (rules and their digest, players, agents, seeds, the
command line), what is significant said in sentences, the plots, and the tables behind them.  It
is written as Markdown and rendered by markdown-it-py with raw HTML off (the rulebook's renderer,
`provost.dsl.rulebook.to_html`), so a name or title from a rule file can never inject markup; the
plots are PNG images inside the page (data URIs), so the page is one file that can be mailed.
Everything comes from the sim's JSON report: ``render_report(out)`` works on a saved
``--format json`` output too.
"""
from __future__ import annotations

import base64
import io
import re

from provost.dsl.diagnostics import one_line
from provost.dsl.rulebook import to_html

_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~&])")


def _md(text) -> str:
    """TEXT as literal Markdown: punctuation escaped, control characters shown as escapes."""
    text = "".join(ch if ch.isprintable() else "\\u%04x" % ord(ch) for ch in one_line(text))
    return _SPECIAL.sub(r"\\\1", text)


def _code(text, cell: bool = False) -> str:
    """TEXT as a Markdown code span: on one line, control characters shown as escapes (``\\x1b``),
    delimited by more backticks than it holds (in a table's CELL, its '|' escaped)."""
    text = one_line(text)
    if cell:
        text = text.replace("|", "\\|")
    ticks = "`" * (max((len(r) for r in re.findall("`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return "%s%s%s%s%s" % (ticks, pad, text, pad, ticks)


def _title(rep: dict) -> str:
    return rep["ruleset"] + (" / " + rep["variant"] if rep["variant"] else "")


def _pct(x) -> str:
    return "-" if x is None else "%.1f%%" % (100 * x)


def _pts(x) -> str:
    return "-" if x is None else "%+.1f" % (100 * x)


def _ci(ci, scale=1.0, fmt="%+.2f") -> str:
    return "-" if not ci else "[%s, %s]" % (fmt % (scale * ci[0]), fmt % (scale * ci[1]))


def _num(x, digits=2) -> str:
    return "-" if x is None else "%.*f" % (digits, x)


def _table(head: list[str], rows: list[list[str]]) -> list[str]:
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(row) + " |" for row in rows]
    return out + [""]


def _image(draw) -> list[str]:
    """The plot DRAW(stream) writes, as an inline PNG, or a line saying why there is none."""
    try:
        from .plot import PlotUnavailable
        buf = io.BytesIO()
        draw(buf)
    except (PlotUnavailable, ImportError):
        return ["*(No plots: install matplotlib, `pip install provost[plot]`.)*", ""]
    data = base64.b64encode(buf.getvalue()).decode("ascii")
    return ["![plot](data:image/png;base64,%s)" % data, ""]


# ------------------------------------------------------------------ findings in sentences
def _seat_findings(rep: dict) -> list[str]:
    out = []
    for e in rep["designer"]["seat_advantage"]:
        wr, sc = e["win_rate_vs_fair"], e["score_vs_others"]
        if wr["significant"]:
            out.append("Seat %d (%s) wins %s of games against a fair share of %s: %s points %s." % (
                e["seat"], _md(e["agent"]), _pct(wr["rate"]), _pct(wr["fair"]), _pts(wr["diff"]),
                _ci(wr["ci95"], 100, "%+.1f")))
        if sc["significant"]:
            out.append("Seat %d (%s) scores %s points %s against the other seats' mean." % (
                e["seat"], _md(e["agent"]), "%+.2f" % sc["mean"], _ci(sc["ci95"])))
    return out


def _difference_findings(cmp: dict) -> list[str]:
    out = []
    rows = [("win rate of seat %d (%s)" % (e["seat"], e["agent"]), e["win_rate"], True) for e in cmp["by_seat"]]
    rows += [("score of seat %d (%s)" % (e["seat"], e["agent"]), e["score"], False) for e in cmp["by_seat"]]
    rows += [("mean score of all seats", cmp["score_all_seats"], False), ("rounds", cmp["rounds"], False),
             ("decisions", cmp["decisions"], False)]
    for label, d, rate in rows:
        if d.get("significant"):
            if rate:
                out.append("The %s changes by %s points %s (%s -> %s)." % (
                    _md(label), _pts(d["diff"]), _ci(d["ci95"], 100, "%+.1f"), _pct(d["base"]), _pct(d["compare"])))
            else:
                out.append("The %s changes by %+.2f %s (%s -> %s)." % (
                    _md(label), d["diff"], _ci(d["ci95"]), _num(d["base"]), _num(d["compare"])))
    return out


# ------------------------------------------------------------------ sections
def _settings(reports: list[dict], command: str | None) -> list[str]:
    rows = []
    for rep in reports:
        rows.append([_md(_title(rep)), _code(rep["ruleset_hash"][:16]), str(rep["players"]),
                     _md(", ".join(rep["agents"])), "%d of %d" % (rep["games"], rep["requested"]),
                     "%d..%d" % (rep["seed"], rep["seed"] + rep["requested"] - 1)])
    out = _table(["rules", "digest", "players", "agents", "games", "seeds"], rows)
    if command:
        out += ["Command: %s" % _code(command), ""]
    return out


def _report_tables(rep: dict) -> list[str]:
    out = ["### %s" % _md(_title(rep)), ""]
    out += ["Win rate and score by seat (95% intervals):", ""]
    rows = []
    for w, s in zip(rep["win_rate"]["by_seat"], rep["score"]["by_seat"]):
        rows.append([str(w["seat"]), _md(w["agent"]), _pct(w["rate"]), _ci(w["ci95"], 100, "%.1f"),
                     _num(s["mean"]), _ci(s["ci95"], 1, "%.2f")])
    out += _table(["seat", "agent", "win rate", "interval", "mean score", "interval"], rows)
    d = rep["designer"]
    out += ["Seat advantage (score minus the other seats' mean; win rate minus the fair share):", ""]
    rows = [[str(e["seat"]), _md(e["agent"]), _num(e["score_vs_others"]["mean"]), _ci(e["score_vs_others"]["ci95"]),
             _pts(e["win_rate_vs_fair"]["diff"]), _ci(e["win_rate_vs_fair"]["ci95"], 100, "%+.1f"),
             "yes" if e["score_vs_others"]["significant"] or e["win_rate_vs_fair"]["significant"] else "no"]
            for e in d["seat_advantage"]]
    out += _table(["seat", "agent", "score vs others", "interval", "win rate vs fair (pts)", "interval",
                   "significant"], rows)
    ow = d["options_and_winning"]
    ranked = sorted(ow["options"], key=lambda e: -abs(e["diff"] or 0))[:20]
    if ranked:
        out += ["Options and winning: the share of winners' seat-games (%d) that took the option at least once "
                "against the other seat-games (%d); the 20 largest differences:" % (
                    ow["winner_seat_games"], ow["other_seat_games"]), ""]
        out += _table(["option", "winners", "others", "difference (pts)", "interval", "significant"],
                      [[_code(e["option"], cell=True), _pct(e["winners"]), _pct(e["others"]), _pts(e["diff"]),
                        _ci(e["ci95"], 100, "%+.1f"), "yes" if e["significant"] else "no"] for e in ranked])
    lc, fm, br, ln = d["lead_changes"], d["final_margin"], d["branching"], rep["length"]
    out += _table(["game figure", "mean", "sd", "min", "max"], [
        ["lead changes", _num(lc["mean"]), _num(lc["sd"]), str(lc["min"]), str(lc["max"])],
        ["final margin (best - second)", _num(fm["mean"]), _num(fm["sd"]), str(fm["min"]), str(fm["max"])],
        ["rounds", _num(ln["rounds"]["mean"]), _num(ln["rounds"]["sd"]), str(ln["rounds"]["min"]),
         str(ln["rounds"]["max"])],
        ["decisions", _num(ln["decisions"]["mean"]), _num(ln["decisions"]["sd"]), str(ln["decisions"]["min"]),
         str(ln["decisions"]["max"])],
        ["legal options per decision", _num(br["all"]["mean"]), _num(br["all"]["sd"]), str(br["all"]["min"]),
         str(br["all"]["max"])]])
    return out


def _difference_table(cmp: dict) -> list[str]:
    rows = []
    for e in cmp["by_seat"]:
        for what, d, rate in (("win rate", e["win_rate"], True), ("score", e["score"], False)):
            rows.append(["seat %d %s: %s" % (e["seat"], _md(e["agent"]), what),
                         _pct(d["base"]) if rate else _num(d["base"]), _pct(d["compare"]) if rate else _num(d["compare"]),
                         (_pts(d["diff"]) + " pts") if rate else ("%+.2f" % d["diff"] if d["diff"] is not None else "-"),
                         _ci(d["ci95"], 100 if rate else 1, "%+.1f" if rate else "%+.2f"),
                         "yes" if d["significant"] else "no"])
    for label, key in (("score, all seats", "score_all_seats"), ("rounds", "rounds"), ("decisions", "decisions")):
        d = cmp[key]
        rows.append([label, _num(d["base"]), _num(d["compare"]),
                     "%+.2f" % d["diff"] if d["diff"] is not None else "-", _ci(d["ci95"]),
                     "yes" if d["significant"] else "no"])
    how = ("paired by seed over %d seeds (t intervals)" % cmp["paired_seeds"]) if cmp.get("paired_seeds") \
        else "independent samples"
    return ["Differences (compare - base), %s:" % how, ""] + _table(
        ["figure", "base", "compare", "difference", "95% interval", "significant"], rows)


def render_markdown(out: dict, question: str | None = None, command: str | None = None) -> str:
    """The report page as Markdown (the sim's JSON output in, plots drawn when matplotlib is there)."""
    from .plot import write_designer_plot, write_plot

    reports = [out["base"], out["compare"]] if "base" in out else [out]
    cmp = out.get("differences")
    titles = " vs ".join(_title(r) for r in reports)
    if not question:
        question = ("What changes from %s to %s?" % (_title(reports[0]), _title(reports[1])) if cmp
                    else "How does %s play with these agents: who wins, what goes with winning?" % _title(reports[0]))
    md = ["# Balance study: %s" % _md(titles), "", "## The question", "", _md(question), "",
          "## Settings", ""] + _settings(reports, command)
    findings = (_difference_findings(cmp) if cmp else []) + [f for r in reports for f in _seat_findings(r)]
    md += ["## What is significant", "",
           "A figure is significant when its 95% interval excludes no change (zero, or the fair share).", ""]
    md += ["- " + f for f in findings] if findings else ["Nothing: no difference's interval excludes zero."]
    md += ["", "## Plots", ""]
    md += _image(lambda out: write_plot(out, reports, cmp))
    md += _image(lambda out: write_designer_plot(out, reports))
    md += ["## Tables", ""]
    if cmp:
        md += _difference_table(cmp)
    for rep in reports:
        md += _report_tables(rep)
    return "\n".join(md) + "\n"


def render_report(out: dict, question: str | None = None, command: str | None = None) -> str:
    reports = [out["base"], out["compare"]] if "base" in out else [out]
    return to_html(render_markdown(out, question, command),
                   "Balance study: " + " vs ".join(_title(r) for r in reports))


# ------------------------------------------------------------------ a sweep
def render_sweep_markdown(doc: dict, question: str | None = None, command: str | None = None) -> str:
    """A `provost sweep` page as Markdown; DOC is the sweep's ``--format json`` object."""
    from .sweep import plot as sweep_plot

    title = doc["ruleset"] + (" / " + doc["variant"] if doc.get("variant") else "")
    settings = doc["settings"]
    if not question:
        values: dict[str, list] = {}
        for e in settings:
            for name, v in e["setting"].items():
                if v not in values.setdefault(name, []):
                    values[name].append(v)
        question = "What changes in %s when %s?" % (title, " and ".join(
            "%s is %s" % (name, ", ".join(str(v) for v in vs[:-1]) + " or %s" % vs[-1] if len(vs) > 1 else str(vs[0]))
            for name, vs in values.items()))
    md = ["# Parameter sweep: %s" % _md(title), "", "## The question", "", _md(question), "", "## Settings", ""]
    md += _table(["rules", "players", "agents", "games per setting", "seeds", "baseline"],
                 [[_md(title), str(doc["players"]), _md(", ".join(doc["agents"])), str(doc["games"]),
                   "%d..%d" % (doc["seed"], doc["seed"] + doc["games"] - 1) if doc["games"] else "-",
                   _md(doc["baseline"])]])
    md += _table(["setting", "games with an error"], [[_md(e["label"]), str(len(e["errors"]))] for e in settings])
    if command:
        md += ["Command: %s" % _code(command), ""]
    findings = []
    for e in settings[1:]:
        for metric, d in e["vs_baseline"].items():
            if d["significant"]:
                findings.append("With %s, the %s changes by %+.2f %s (%.2f -> %.2f)." % (
                    _md(e["label"]), _md(metric), d["diff"], _ci(d["ci95"]), d["base"], d["compare"]))
    md += ["## What is significant", "",
           "Every setting plays the same seeds as the baseline; a difference is the mean of the per-seed "
           "differences with its 95% t interval, significant when the interval excludes zero.", ""]
    md += ["- " + f for f in findings] if findings else ["Nothing: no difference's interval excludes zero."]
    md += ["", "## Plots", ""]
    if len(settings) > 1:
        md += _image(lambda out: sweep_plot({"settings": settings}, out, title))
    md += ["## Tables", ""]
    for e in settings[1:]:
        md += ["### %s vs %s" % (_md(e["label"]), _md(settings[0]["label"])), ""]
        md += _table(["metric", "baseline", "setting", "difference", "95% interval", "significant"],
                     [[_md(m), _num(d["base"]), _num(d["compare"]), "%+.2f" % d["diff"] if d["diff"] is not None else "-",
                       _ci(d["ci95"]), "yes" if d["significant"] else "no"] for m, d in e["vs_baseline"].items()])
    return "\n".join(md) + "\n"


def render_sweep_report(doc: dict, question: str | None = None, command: str | None = None) -> str:
    title = doc["ruleset"] + (" / " + doc["variant"] if doc.get("variant") else "")
    return to_html(render_sweep_markdown(doc, question, command), "Parameter sweep: " + title)
