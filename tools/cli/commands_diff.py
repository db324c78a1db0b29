"""`provost diff A B`: what B changes in A, rule by rule in plain words, line by line where a
rule changed.

A and B are each a shipped game's name or any rule file; B may also be a variant of A by name
(``provost diff ys kings_favor``, composed ones too: ``kings_favor+express``).  When B is a
variant file written on A, the diff follows B's own changes (``replace``, ``add step``, ...);
otherwise the two resolved rulesets are compared declaration by declaration.
"""
from __future__ import annotations

import sys

from provost.dsl.compose import is_composed, split_variants
from provost.dsl.diagnostics import RulesError, printable
from provost.dsl.loader import load, load_composed, parse_file, resolve_path, shipped_game, variant_base
from provost.dsl.source import is_bare_name
from provost.dsl.variant_diff import compare, describe, same_rules
from provost.tools.cli.failures import check_player_count


def _errors(diags):
    return RulesError([d for d in diags if d.severity == "error"])


def _resolved(ruleset: str, players=None):
    if players is not None:
        rs, diags = load_composed(ruleset, None, players)
        if rs is None:
            raise _errors(diags)
        check_player_count(rs, players)
        return rs
    rs, diags = load(resolve_path(ruleset))     # checked: rules with errors have no meaning to tell
    if rs is None:
        raise _errors(diags)
    return rs


def _text(lines: list[str]) -> str:
    """The report's lines as one text.  A rule's string may hold a line break (``\\n``): what
    follows it stays indented under its line, so a title can never fake a line of output, and
    any other control character is escaped."""
    out = []
    for line in lines:
        pad = line[:len(line) - len(line.lstrip(" "))] + "  "
        out.append(("\n" + pad).join(printable(part) for part in line.replace("\r\n", "\n").split("\n")))
    return "\n".join(out)


def _title(rs, named: str) -> str:
    return "%s (%s)" % (rs.game().get("title") or rs.name, printable(named))      # a path as typed


def run_diff(args) -> int:
    players = getattr(args, "players", None)
    a = _resolved(args.base, players)
    other = args.variant
    if (is_bare_name(other) and shipped_game(other) is None) or len(split_variants(other)) > 1:
        # A variant of A by name (or several, joined with '+', variant files among them).
        b, diags = load_composed(args.base, other, players)
        if b is None:
            raise _errors(diags)
        check_player_count(b, players)
        path = resolve_path(args.base, other) if not is_composed(other, players, args.base) else None
    else:
        b = _resolved(other, players)
        path = resolve_path(other) if players is None else None
    if path is not None:
        ir, diags = parse_file(path)
        head = ir["decls"][0] if ir and ir["decls"] else None
        if head is not None and head["kind"] == "variant":
            base, _ = variant_base(head, path)
            if base is not None and same_rules(base.decls, a.decls):
                print(_text(describe(base.decls, head)))   # B is written on A: its own changes
                return 0
            # Its base is not A as written: another game, or A with the variants after 'with'.
            on = "%s, not %s" % (head["extends"], args.base) if not head.get("with") else \
                "%s with %s, not %s alone" % (head["extends"], ", ".join(head["with"]), args.base)
            print(printable("provost: note: %s extends %s: comparing the two complete rulesets" % (other, on)),
                  file=sys.stderr)
    print(_text(compare(_title(a, args.base), a.decls, _title(b, other), b.decls)))
    return 0
