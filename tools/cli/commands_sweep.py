"""`provost sweep RULESET --set NAME=V1,V2,...`: rule numbers varied on the same seeds.

    provost sweep RULESET --set NAME=V1,V2,... [--set ...] [--games G] [--variant V]
                          [--players N] [--agents a,b,...] [--jobs J] [--seed S]
                          [--format text|json] [--plot FILE.png] [--report FILE.html [--question TEXT]]

Targets (``provost.dsl.overrides``): a ``let`` that is an integer or a table of integers
(``NAME`` sets every entry, ``NAME[KEY]`` one), or ``DECLARATION.ATTRIBUTE`` for an integer
attribute of a declaration.  Several ``--set`` make a grid; its first combination is the
baseline.  Each setting's rules are checked again, as a rule file is, before any game is played:
a value the checker refuses (a counter's start outside its min..max, a negative count, a number
too large) is a usage error (exit 2) in one line naming the ``--set``, the value and the range.
Report: ``provost.tools.sim.sweep``; ``--report`` writes it as one HTML page
(``provost.tools.sim.html_report``).
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import shlex
import sys

from provost.dsl.diagnostics import UsageError, printable
from provost.tools.cli.failures import check_seed_span, failure_object, write_text
from provost.tools.cli.progress import ProgressBar


def _refused(setting: dict[str, int], diags) -> UsageError:
    """A setting the checker refuses (a counter's start outside its min..max, a negative count, a
    number too large) is a mistake of the command line, not of the rule file, whose line still
    shows its own number: a usage error in one line naming the --set, the value and the range the
    checker allows, with the place of the checker's finding.  JSON keeps every diagnostic."""
    given = " ".join("--set %s=%d" % kv for kv in setting.items())
    errors = [d for d in diags if d.severity == "error"]
    first, more = errors[0], len(errors) - 1
    refused = UsageError("%s: %s (at %s [%s])%s" % (
        given, first.message, first.place(), first.code,
        "; and %d more error%s" % (more, "" if more == 1 else "s") if more else ""))
    refused.diagnostics = [dataclasses.replace(d, message="%s (with %s)" % (d.message, given)) for d in errors]
    return refused


def run_sweep(args: argparse.Namespace) -> int:
    from provost.dsl.overrides import with_settings
    from provost.tools.cli.commands_sim import _spec_for, check_outputs
    from provost.tools.sim.runner import make_backend, make_tasks
    from provost.tools.sim.sweep import analyse, label, parse_sets, plot, render_text, settings_grid

    try:
        grid = settings_grid(parse_sets(args.set))
    except ValueError as e:
        raise UsageError(str(e)) from None
    report_path = check_outputs(args)
    check_seed_span(args.seed, args.games)
    base = _spec_for(args.ruleset, args.variant, args.players, args.agents, args.seed)
    specs = []
    for setting in grid:
        rules, diags = with_settings(base.rules, setting)
        if rules is None:
            raise _refused(setting, diags)
        specs.append(dataclasses.replace(base, rules=rules))

    records: list[dict[int, dict]] = [{} for _ in specs]
    bar = ProgressBar("sweep", args.games * len(specs))

    def on_result(spec_index: int, batch: list) -> None:
        for record in batch:
            records[spec_index][record["game"]] = record
        bar.advance(len(batch))

    with bar:
        make_backend("local", args.jobs).run(specs, make_tasks(specs, args.games, args.jobs), on_result)
    report = analyse(grid, records)
    title = "%s (%d players)" % (base.label, base.players)
    if args.plot:
        plot(report, args.plot, title)
    failed = any(entry["errors"] for entry in report["settings"])
    doc = {"ruleset": base.rules.name, "variant": base.rules.variant,
           "players": base.players, "seed": args.seed, "agents": list(base.agents[:base.players]),
           "baseline": label(grid[0]), **report}
    if report_path:
        from provost.tools.sim.html_report import render_sweep_report
        page = render_sweep_report(doc, getattr(args, "question", None), "provost " + shlex.join(sys.argv[1:]))
        write_text(report_path, page)
    if args.format == "json":
        errors = sum(len(entry["errors"]) for entry in report["settings"])
        first = next((e for e in report["settings"] if e["errors"]), None)
        status = failure_object("input", "%d game%s raised an engine error (see each setting's errors; first, %s, "
                                "seed %d: %s)" % (errors, "" if errors == 1 else "s", first["label"],
                                                  first["first_error"]["seed"], first["first_error"]["error"])
                                ) if failed else {"ok": True}
        doc = {**status, **doc}     # "ok" (and "error") first, as in every command's JSON report
        print(json.dumps(doc))
    else:
        print(render_text(title, report) + ("\nreport: %s" % printable(report_path) if report_path else ""))
    return 1 if failed else 0
