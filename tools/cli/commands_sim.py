"""`provost sim` (DESIGN.md section 6): many seeded games, summarised for a designer.

    provost sim RULESET [--variant V] [--players N] --games G [--jobs J] [--seed S]
                        [--agents a,b,...] [--format text|json] [--compare X]
                        [--plot FILE.png] [--report FILE.html [--question TEXT]]
                        [--backend local|ray] [--address ADDR] [--check-invariants]

Game ``i`` uses seed ``S + i`` (replay it alone with ``provost play RULESET --seed S+i``);
agents are given as for ``provost play`` (a short list repeats its last name; ``human`` is
refused).  The report (``provost.tools.sim.report`` documents every counting rule): win rate by
seat and by agent with Wilson 95% intervals, scores by seat, game length, buildings built and
used, final resources, per-player zones at the end and option frequencies; and the designer
figures (``provost.tools.sim.metrics``): seat advantage, the options that go with winning, lead
changes, final margin and the branching factor by round, each with its interval.

``--report FILE.html`` writes one self-contained page (``provost.tools.sim.html_report``): the
question (``--question``, or one read off the command), the settings, what is significant in
sentences, the plots (with matplotlib) and the tables.

``--format json`` prints one JSON object.  Everything but its ``timing`` key is the same for
the same seeds whatever ``--jobs`` and ``--backend``.  With ``--compare X`` (a variant of RULESET, a shipped game or any rule file) the object is
``{"base": report, "compare": report, "differences": ..., "timing": ...}``.

Jobs: ``--jobs 1`` plays in this process; ``--jobs J`` in J worker processes (the rules are
loaded once here and handed to each worker).  ``--backend ray`` runs the same batches on Ray
(``pip install provost[ray]``); ``--address`` names a cluster (default: a local Ray, limited to
J CPUs when J > 1).

``--check-invariants`` checks the rules' ``invariant`` declarations after every decision; a
violation ends that game as an error naming the invariant, its position and the decision.

Progress goes to stderr, and only when stderr is a terminal.  Ctrl-C stops the sim, terminates
the workers and prints the report of the games finished so far (marked interrupted); exit 130.

Exit codes: 0 ok; 1 the rules have errors, or a game raised an engine error (listed in the
report's ``errors``); 2 usage errors (unknown agent, more agents than deciding players, player
count out of range, a missing optional dependency, a plot file that cannot be written); 130
interrupted.  With ``--format json`` the report starts with ``"ok"``; a failed or interrupted sim
adds ``"error"`` as every command's failure object does (``provost.tools.cli.failures``), and a sim that
cannot start prints that failure object alone.
"""
from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
import time

from provost.dsl.diagnostics import UsageError, printable
from provost.tools.cli.failures import check_seed_span
from provost.tools.cli.failures import cannot_write, check_writable, failure_object, write_text
from provost.tools.cli.progress import ProgressBar

STOP_AFTER_ENV = "PROVOST_SIM_STOP_AFTER"
"""Testing hook: behave as if Ctrl-C was pressed once this many games have been received."""


def _spec_for(ruleset: str, variant: str | None, players: int | None, agents, seed: int,
              check_invariants: bool = False):
    """The SimSpec of one ruleset/variant (neutral seats last, as the engine has them), or UsageError."""
    from provost.interpreter.agents import UnknownAgent
    from provost.interpreter.engine import Game, players_out_of_range
    from provost.interpreter.gamelog import load_rules
    from provost.tools.cli.commands_play import resolve_agents
    from provost.tools.sim.runner import NEUTRAL, SimSpec

    rs = load_rules(ruleset, variant, players)  # RulesError -> diagnostics, exit 1 (provost.tools.cli)
    problem = players_out_of_range(rs, players) if players is not None else None
    if problem:
        raise UsageError(problem)
    probe = Game.new(rs, players=players, seed=seed)
    seats, humans = probe.s.players, probe.s.humans
    try:
        # One agent per deciding seat, as `provost play` counts them: neutral seats are the rules'.
        names = resolve_agents(agents, humans)
    except (ValueError, UnknownAgent) as e:
        raise UsageError(str(e)) from None
    if "human" in names:
        raise UsageError("'human' is for provost play (or provost serve): sim, sweep and rate games are played by bots")
    names += [NEUTRAL] * (seats - humans)
    return SimSpec(rs, humans, tuple(names), seed, check_invariants)


def _compare_spec(args, other: str, players: int | None, check_invariants: bool = False):
    """``--compare X``: a variant name of RULESET (played instead of ``--variant``), a shipped
    game's name, or any rule file (an author's variant anywhere, resolved from its own base)."""
    from provost.dsl.loader import shipped_game
    from provost.dsl.source import is_bare_name

    if not is_bare_name(other) or shipped_game(other) is not None:
        ruleset, variant = other, None
    else:
        ruleset, variant = args.ruleset, other
    if args.players is None:
        _refuse_a_count_it_lacks(args, ruleset, variant, players)
    return _spec_for(ruleset, variant, players, args.agents, args.seed, check_invariants)


def _refuse_a_count_it_lacks(args, ruleset: str, variant: str | None, players: int) -> None:
    """Without --players both sides play the count RULESET is played with by default; rules to
    compare that are for other counts only (a variant saying `for_players 2`) are refused with
    the --players values they take, not with the game's own rules for other counts."""
    from provost.dsl.loader import counts_to_give
    from provost.interpreter.gamelog import load_rules

    rs = load_rules(ruleset, variant, None)
    lo, hi = rs.game().get("players") or [1, 8]
    if lo <= players <= hi:
        return
    title = rs.name + (" (%s)" % rs.variant if rs.variant else "")
    raise UsageError("--compare %s: %s is for %s, and %s is played with %d players when --players is not "
                     "given: compare them with %s" % (printable(args.compare), title, _count_range(lo, hi),
                                                       printable(args.ruleset), players, counts_to_give(lo, hi, api=False)))


def _count_range(lo: int, hi: int) -> str:
    return "%d players" % lo if lo == hi else "%d to %d players" % (lo, hi)


def check_outputs(args: argparse.Namespace) -> str | None:
    """Before the games, not after them: ``--plot`` can be drawn (matplotlib, a format it knows
    from the suffix) and written, ``--report`` written, ``--question`` comes with a report.
    Returns the report's path."""
    plot_path = getattr(args, "plot", None)
    if plot_path:
        from provost.tools.sim.plot import PlotUnavailable, plot_format_problem, require_matplotlib
        try:
            require_matplotlib()
        except PlotUnavailable as e:
            raise UsageError(str(e)) from None
        problem = plot_format_problem(plot_path)
        if problem:
            raise UsageError("cannot write %s: %s" % (plot_path, problem))
        check_writable(plot_path)
    report_path = getattr(args, "report", None)
    if report_path:
        check_writable(report_path)
    elif getattr(args, "question", None) is not None:
        raise UsageError("--question is for --report FILE.html (the page that answers it)")
    return report_path


def run_sim(args: argparse.Namespace) -> int:
    from provost.tools.sim.report import Aggregate, compare, render_compare_text, render_text
    from provost.tools.sim.runner import RayBackend, RayUnavailable, make_backend, make_tasks

    compare_variant = getattr(args, "compare", None)
    plot_path = getattr(args, "plot", None)
    backend_name = getattr(args, "backend", None) or "local"
    address = getattr(args, "address", None)

    report_path = check_outputs(args)
    if backend_name == "ray":
        try:
            RayBackend.import_ray(address)
        except RayUnavailable as e:
            raise UsageError(str(e)) from None
    elif address:
        raise UsageError("--address is for --backend ray")

    if args.seed is None:
        from provost.interpreter.rng import fresh_seed
        args.seed = fresh_seed()      # in the report's seeds (text, JSON), so every game can be replayed
    check_seed_span(args.seed, args.games)
    check = getattr(args, "check_invariants", False)
    specs = [_spec_for(args.ruleset, args.variant, args.players, args.agents, args.seed, check)]
    if compare_variant is not None:
        specs.append(_compare_spec(args, compare_variant, specs[0].players, check))
    aggs = [Aggregate(spec, args.games) for spec in specs]

    jobs = args.jobs
    tasks = make_tasks(specs, args.games, jobs)
    backend = make_backend(backend_name, jobs, address)
    stop_after = int(os.environ.get(STOP_AFTER_ENV) or 0)
    total = args.games * len(specs)
    bar = ProgressBar("sim", total)

    def on_result(k: int, records: list) -> None:
        for r in records:
            aggs[k].add(r)
        bar.advance(len(records))
        if stop_after and bar.done >= stop_after:
            raise KeyboardInterrupt

    interrupted = False
    t0 = time.perf_counter()
    try:
        with bar:
            backend.run(specs, tasks, on_result)
    except KeyboardInterrupt:
        interrupted = True
    except RayUnavailable as e:
        raise UsageError(str(e)) from None
    wall = time.perf_counter() - t0

    reports = [a.to_dict() for a in aggs]
    for spec, a in zip(specs, aggs):
        stray = a.digests - {spec.rules.digest}
        if stray:  # a worker played other rules: never expected, since the rules travel with the job
            raise RuntimeError("workers reported other rules (digest %s) than %s"
                               % (", ".join(sorted(stray)), spec.rules.digest))
    played = sum(a.games + len(a.errors) for a in aggs)
    decisions = sum(a.decisions.total for a in aggs)
    timing = {"backend": backend.name, "jobs": jobs, "wall_s": round(wall, 3),
              "games_per_s": round(played / wall, 2) if wall > 0 else None,
              "decisions_per_s": round(decisions / wall, 1) if wall > 0 else None}

    failed_games = sum(len(r["errors"]) for r in reports)
    if len(reports) == 1:
        out = dict(reports[0], timing=timing)
    else:
        out = {"base": reports[0], "compare": reports[1], "differences": compare(aggs[0], aggs[1]),
               "interrupted": interrupted, "timing": timing}
    if interrupted:
        failure = failure_object("interrupted", "sim interrupted: %d of %d games finished" % (played, total))
    elif failed_games:
        failure = failure_object("input", "%d game%s raised an engine error (see errors)"
                                 % (failed_games, "" if failed_games == 1 else "s"))
    else:
        failure = {"ok": True}
    out = {**failure, **out}  # the report, with "ok" (and "error") first, as every command's JSON

    if plot_path:  # before the report, so that a late failure still leaves one JSON object on stdout
        from provost.tools.sim.plot import write_plot
        try:
            write_plot(plot_path, reports, out.get("differences"))
        except OSError as e:
            raise cannot_write(plot_path, e) from None

    if report_path:
        from provost.tools.sim.html_report import render_report
        page = render_report(out, getattr(args, "question", None), "provost " + shlex.join(sys.argv[1:]))
        write_text(report_path, page)

    if args.format == "json":
        print(json.dumps(out))
    else:
        lines = []
        for rep in reports:
            lines += render_text(rep) + [""]
        if len(reports) == 2:
            lines += render_compare_text(out["differences"], reports[0], reports[1]) + [""]
        lines.append("%d game%s in %.2f s with the %s backend, %d job%s: %s games/s, %s decisions/s" % (
            played, "" if played == 1 else "s", wall, backend.name, jobs, "" if jobs == 1 else "s", timing["games_per_s"],
            timing["decisions_per_s"]))
        if plot_path:
            lines.append("plot: %s" % printable(plot_path))
        if report_path:
            lines.append("report: %s" % printable(report_path))
        print("\n".join(lines))
    if interrupted:
        print("provost: sim interrupted: %d of %d games finished" % (played, total), file=sys.stderr)
        return 130
    return 1 if any(r["errors"] for r in reports) else 0
