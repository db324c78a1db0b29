"""`provost rulebook RULESET [--variant V] [--format md|html] [-o FILE]`: a rulebook from the rule file."""
from __future__ import annotations

import sys

from provost.dsl.diagnostics import RulesError
from provost.dsl.loader import load, parse_file, resolve_path, variant_base
from provost.dsl.rulebook import markdown, to_html
from provost.tools.cli.failures import check_writable, write_text


def build(ruleset: str, variant: str | None, fmt: str) -> str:
    path = resolve_path(ruleset, variant)
    rs, diags = load(path)
    if rs is None:
        raise RulesError([d for d in diags if d.severity == "error"])
    base_decls = head = None
    if rs.variant is not None:
        ir, _ = parse_file(path)
        head = ir["decls"][0]
        base, _ = variant_base(head, path)
        base_decls = base.decls if base is not None else None
    md = markdown(rs, base_decls, head)
    if fmt == "html":
        return to_html(md, rs.game().get("title") or rs.name)
    return md


def run_rulebook(args) -> int:
    if args.output:
        check_writable(args.output)   # a usage error before the rules are read
    text = build(args.ruleset, args.variant, args.format)
    if args.output:
        write_text(args.output, text)
        print("wrote %s" % args.output, file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0
