"""`provost diff BASE VARIANT`: what a variant changes, rule by rule, in plain words."""
from __future__ import annotations

import sys

from provost.dsl.diagnostics import RulesError
from provost.dsl.variant_diff import describe
from provost.dsl.loader import parse_file, resolve_path, variant_base
from provost.dsl.source import is_bare_name


def _variant_path(base: str, variant: str) -> str:
    # The same naming rule as RULESET: a bare name is a variant of BASE, anything else a file.
    if not is_bare_name(variant):
        return variant
    return resolve_path(base, variant)


def run_diff(args) -> int:
    path = _variant_path(args.base, args.variant)
    ir, diags = parse_file(path)
    if ir is None or any(d.severity == "error" for d in diags):
        raise RulesError([d for d in diags if d.severity == "error"])
    head = ir["decls"][0] if ir["decls"] else None
    if head is None or head["kind"] != "variant":
        print("provost: error: %s is not a variant" % path, file=sys.stderr)
        return 2
    base, more = variant_base(head, path)
    if base is None:
        raise RulesError([d for d in more if d.severity == "error"] or diags)
    print("\n".join(describe(base.decls, head)))
    return 0
