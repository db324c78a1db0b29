"""`provost train RULESET`: fit the ``policy`` agent to greedy's choices for these rules.

    provost train RULESET [--variant V] [--players N] [--games G] [--seed S] [--jobs J] [--temperature T] [-o FILE]

Plays 60% of G games as the teacher's (greedy's) self-play on seeds S.., fits the policy to
greedy's valuation of every option (targets softmax(value / T)), plays the other 40% (seeds
S+100000..) with that fit in half the seats and greedy labelling every decision, fits again on
all of it
(``provost.interpreter.agents.policy.train``) and writes the weights where ``--agents policy``
finds them (the user's data directory) or to FILE.  Prints how often the fitted policy picks
greedy's best option on the last fifth of the self-play games, held out of the fit.
"""
from __future__ import annotations

import argparse
import json
import os
import time

from provost.dsl.diagnostics import UsageError, printable
from provost.tools.cli.failures import cannot_write, check_seed_span, check_writable


def run_train(args: argparse.Namespace) -> int:
    from provost.interpreter.agents.policy import model_name, train, user_dir
    from provost.tools.cli.commands_sim import _spec_for

    check_seed_span(args.seed, args.games)
    spec = _spec_for(args.ruleset, args.variant, args.players, ["greedy"], args.seed)
    out = args.output
    if out is None:
        base = user_dir()
        if base is None:
            raise UsageError("no user data directory: give -o FILE")
        out = str(base / model_name(spec.rules.name, spec.rules.variant, spec.players))
        try:
            os.makedirs(os.path.dirname(out), exist_ok=True)     # the data folder's, made on first use
        except OSError as e:
            raise cannot_write(out, e) from None
    # Before minutes of training, not after: a FILE in a folder that does not exist is refused, as
    # by the other commands' -o, --plot and --report.
    check_writable(out)
    start = time.perf_counter()
    model = train(spec.rules, spec.players, args.games, args.seed, args.jobs, temperature=args.temperature)
    try:
        with open(out, "w", encoding="utf-8") as f:
            json.dump(model, f, indent=0, sort_keys=True)
            f.write("\n")
    except OSError as e:
        raise cannot_write(out, e) from None
    print("%s: %d games (%d mixed), %d decisions, %d weights; picks greedy's best option in %.1f%% of held-out "
          "decisions; %.0f s" % (printable(out), model["games"], model["mixed_games"], model["decisions"], len(model["weights"]),
                      100 * (model["holdout_accuracy"] or 0), time.perf_counter() - start))
    return 0
