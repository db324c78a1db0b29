"""`provost rulebook RULESET [--variant V]... [--players N] [--format md|html] [-o FILE]`: a
rulebook from the rule file (variants composed and player-count rules as for `play`)."""
from __future__ import annotations

import os
import sys

from provost.dsl.compose import is_composed
from provost.dsl.diagnostics import RulesError, printable
from provost.dsl.loader import (_root_file_of, load, load_composed, own_count, parse_file, resolve_path,
                                variant_base)
from provost.dsl.rulebook import markdown, to_html
from provost.tools.cli.failures import check_player_count, check_writable, write_text


def _checked(rs, diags):
    if rs is None:
        raise RulesError([d for d in diags if d.severity == "error"])
    return rs


def build(ruleset: str, variant: str | None, fmt: str, players: int | None = None) -> str:
    base_decls = head = rs = None
    if not is_composed(variant, players, ruleset):
        path = resolve_path(ruleset, variant)
        rs = _checked(*load(path))
        players = own_count(rs)        # a variant of its own count: on the game's rules for it, as play loads it
    if is_composed(variant, players, ruleset):
        rs = _checked(*load_composed(ruleset, variant, players))
        check_player_count(rs, players)
        named = resolve_path(ruleset)
        game = _root_file_of(named)
        if variant:   # "what this variant changes": against the base with the same player-count rules
            base = _checked(*load_composed(ruleset, None, players))
            base_decls, head = base.decls, {"composed": rs.variant, "title": rs.game().get("title")}
        elif game is not None and not os.path.samefile(game, named):
            # a variant file named as the ruleset: its changes, against the game's rules for the count
            base_decls, head = _checked(*load_composed(game, None, players)).decls, rs.variant_head
    elif rs.variant is not None:
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
    text = build(args.ruleset, args.variant, args.format, getattr(args, "players", None))
    if args.output:
        write_text(args.output, text)
        print("wrote %s" % printable(args.output), file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0
