"""A rulebook generated from a resolved ruleset: Markdown, or one self-contained HTML page.

Every sentence comes from the rule file through dsl/prose.py; nothing here knows
a particular game.  Sections: the game, components, setup, the round phase by
phase, spaces, buildings by category, tables, shared effects, the end of the
game, and for a variant what differs from its base.
"""
from __future__ import annotations

import html
import re

from .diagnostics import one_line, printable
from .prose import Prose


def _table_rows(prose: Prose, entries, prefix=()) -> list[tuple[str, str]]:
    rows = []
    for e in entries:
        path = prefix + (prose.table_key(e),)
        if "entries" in e:
            rows.extend(_table_rows(prose, e["entries"], path))
        else:
            rows.append((" / ".join(path), prose.sentence(e["body"])))
    return rows


def _grid(prose: Prose, entries) -> list[str] | None:
    """A table of rows of entries (Caylus's favor table: a row per track, a column per level) as a
    grid, shaped as on the board; None when the table is not two levels deep."""
    if not entries or not all("entries" in e and all("body" in x for x in e["entries"]) for e in entries):
        return None
    columns = []
    for e in entries:
        for x in e["entries"]:
            if prose.table_key(x) not in columns:
                columns.append(prose.table_key(x))
    if any([prose.table_key(x) for x in e["entries"]] != columns for e in entries):
        return None                       # rows with different columns read better as a list
    out = ["| | %s |" % " | ".join(columns), "|---|" + "---|" * len(columns)]
    for e in entries:
        cells = {prose.table_key(x): _short(prose, x["body"]) for x in e["entries"]}
        out.append("| **%s** | %s |" % (prose.table_key(e), " | ".join(_cell(cells.get(c, "-")) for c in columns)))
    return out


def _short(prose: Prose, body) -> str:
    """A grid cell: what the entry gives, without 'the acting player gains' when that is all it does."""
    text = prose.sentence(body)
    for lead in ("the acting player gains ",):
        if text.startswith(lead) and ", then" not in text:
            return text[len(lead):].replace(" (their choice)", ", your choice")
    return text


def markdown(rs, base_decls: list[dict] | None = None, variant_head: dict | None = None) -> str:
    decls = rs.decls
    prose = Prose(decls)
    by = lambda k: [d for d in decls if d["kind"] == k]  # noqa: E731
    game = rs.game()
    out: list[str] = []
    w = out.append
    title = game.get("title") or game["name"]
    w("# %s" % title)
    if game.get("description"):
        w("")
        w(game["description"])
    lo, hi = game.get("players") or ["?", "?"]
    w("")
    w("For %s to %s players." % (lo, hi) if lo != hi else "For %s players." % lo)
    if game.get("neutral_players"):
        w("A neutral player, played by the rules, joins them.")

    if variant_head is not None and base_decls is not None:
        from .variant_diff import compare, describe
        w("")
        w("## What this variant changes")
        w("")
        if "composed" in variant_head:   # variants composed on the command line: the resolved rules compared
            out.append(_Verbatim(compare("the base game", base_decls, variant_head["composed"], decls)[2:]))
        else:
            out.append(_Verbatim(describe(base_decls, variant_head)))

    w("")
    w("## Components")
    w("")
    for d in by("resource"):
        w("- %s" % (d.get("title") or prose.name(d["name"])))
    for d in by("counter"):
        scope = "each player" if d["scope"] == "player" else "the game"
        bounds = ""
        if d.get("max") is not None:
            bounds = " (%s to %s)" % (d.get("min", 0), d["max"])
        w("- %s, kept for %s, starting at %s%s" % (prose.name(d["name"]), scope, d["start"], bounds))
    for d in by("pieces"):
        w("- %s" % prose.decl(d)[0])
    for d in by("track"):
        w("- the %s: %s spaces" % (prose.name(d["name"]), d["length"]))
    for d in by("enum"):
        w("- %s" % prose.decl(d)[0])

    setup = by("setup")
    if setup:
        w("")
        w("## Setup")
        w("")
        out.extend(_bullets(prose.block(setup[0]["body"])))
    constants = [d for d in by("let") if not d.get("params") and d["value"]["e"] in ("dict", "list", "int")]
    if constants:
        w("")
        w("Numbers used by the rules:")
        w("")
        for d in constants:
            w("- %s" % prose.decl(d)[0])

    w("")
    w("## The round")
    w("")
    phases = {d["name"]: d for d in by("phase")}
    rounds = game.get("rounds") or []
    w("Each round has %d phases: %s." % (len(rounds), ", ".join(prose.name(r) for r in rounds)))
    for i, name in enumerate(rounds, 1):
        d = phases.get(name)
        if d is None:
            continue
        w("")
        w("### %d. %s" % (i, d.get("title") or prose.name(name)))
        w("")
        out.extend(_bullets(prose.block(_unwrap(d["body"]))))

    spaces = by("space")
    if spaces:
        w("")
        w("## Spaces")
        w("")
        w("| space | places | effect |")
        w("|---|---|---|")
        for d in spaces:
            places = "any number" if d["slots"] == "unlimited" else str(d["slots"])
            if d.get("per_player"):
                places += ", %s per player" % d["per_player"]
            if not d.get("placeable", True):
                places += " (no workers placed here)"
            effect = prose.sentence(d.get("work")) or "-"
            w("| %s | %s | %s |" % (d.get("title") or d["name"], places, _cell(effect)))

    buildings = by("building")
    if buildings:
        w("")
        w("## Buildings")
        cats = []
        for b in buildings:
            if b["category"] not in cats:
                cats.append(b["category"])
        for cat in cats:
            w("")
            w("### %s" % prose.name(cat).capitalize())
            w("")
            w("| building | cost | points | effect |")
            w("|---|---|---|---|")
            for b in [x for x in buildings if x["category"] == cat]:
                cost = ", ".join(prose.expr(a) for a in b.get("cost", [])) or "-"
                parts = []
                if b.get("at") is not None:
                    parts.append("printed on space %s" % b["at"])
                for key, label in (("work", ""), ("owner", "owner, when another player uses it: "),
                                   ("on_build", "when built: ")):
                    if b.get(key):
                        parts.append(label + prose.sentence(b[key]))
                if b.get("income"):
                    parts.append("income %s" % b["income"])
                count = "" if b.get("count", 1) in (1, None) else (" (x%s)" % b["count"] if b["count"] != "unlimited"
                                                                   else " (unlimited)")
                w("| %s%s | %s | %s | %s |" % (b.get("title") or b["name"], count, cost, b.get("prestige", 0),
                                             _cell("; ".join(parts) or "-")))

    tables = by("table")
    for t in tables:
        w("")
        w("## Table: %s" % (t.get("title") or prose.name(t["name"])))
        w("")
        grid = _grid(prose, t["entries"])
        if grid is not None:
            out.extend(grid)
            continue
        w("| entry | effect |")
        w("|---|---|")
        for key, effect in _table_rows(prose, t["entries"]):
            w("| %s | %s |" % (key, _cell(effect)))

    effects = by("effect")
    if effects:
        w("")
        w("## Shared effects")
        for d in effects:
            w("")
            lines = prose.decl(d)
            w("**%s**" % lines[0].rstrip(":"))
            w("")
            out.extend(_bullets(lines[1:]))
    triggers = by("trigger")
    if triggers:
        w("")
        w("## Always in force")
        for d in triggers:
            w("")
            w("When %s:" % prose.name(d["event"] or "?"))
            w("")
            out.extend(_bullets(prose.block(d["body"])))

    w("")
    w("## End of the game")
    w("")
    if game.get("ends_if") is not None:
        w("The game ends after a phase when %s." % prose.expr(game["ends_if"]))
    if game.get("max_rounds"):
        w("The game lasts at most %s rounds." % game["max_rounds"])
    final = by("final")
    if final:
        w("")
        w("Final scoring:")
        w("")
        out.extend(_bullets(prose.block(final[0]["body"])))
    w("")
    w("The player with the most %s wins%s." % (
        prose.name(game.get("score") or "points"),
        "; a draw goes to the player with the most " + prose.expr(game["tiebreak"]) if game.get("tiebreak")
        else "; tied players share the victory"))
    invariants = by("invariant")
    if invariants:
        # The rules' own invariants (checked by `provost soak`): what stays true in any game.
        w("")
        w("## What every game keeps")
        w("")
        out.extend("- %s." % (d.get("title") or prose.name(d["name"])).rstrip(".") for d in invariants)
    # A rule's string may hold a line break (\n): on a line of its own it could start a heading,
    # a list or a table of the rule file's making; each line stays one line.
    return "\n".join(line.text if isinstance(line, _Verbatim) else one_line(line) for line in out) + "\n"


class _Verbatim:
    """Lines shown as they are, in a fenced block: a line break of a rule's string continues its
    line indented, control characters are escaped, and the fence is longer than any run of
    backticks inside, so that nothing a rule file says can close it."""

    def __init__(self, lines: list[str]):
        shown = []
        for line in lines:
            pad = line[:len(line) - len(line.lstrip(" "))] + "  "
            shown.append(("\n" + pad).join(printable(part) for part in line.replace("\r\n", "\n").split("\n")))
        body = "\n".join(shown)
        fence = "`" * max(3, max((len(r) for r in re.findall("`+", body)), default=0) + 1)
        self.text = "%s\n%s\n%s" % (fence, body, fence)


def _unwrap(body: list) -> list:
    """A phase of one named step reads as its statements (the step's name is for variants)."""
    if len(body) == 1 and body[0].get("s") == "step":
        return body[0]["body"]
    return body


_SUBJECT = re.compile(r"(^|: |; |, then |; or |; otherwise, |, )the acting player (may |(\w+?)(es|s)\b)")
_ES = ("sses", "shes", "ches", "xes")


def _imperative(text: str) -> str:
    """'the acting player gains 1 food' -> 'Gain 1 food', as a rulebook speaks to its reader; 'the
    acting player's worker' -> 'your worker'.  Only where the acting player starts a clause."""
    def verb(m):
        lead, whole, stem, ending = m.group(1), m.group(2), m.group(3), m.group(4)
        if whole.startswith("may "):
            word = "you may "
        elif ending == "es" and not (stem + ending).endswith(_ES) and not stem.endswith(("o",)):
            word = stem + "e"                   # "moves" -> "move", "takes" -> "take"
        else:
            word = stem                         # "gains" -> "gain", "passes" -> "pass"
        return lead + (word[:1].upper() + word[1:] if not lead or lead == ": " else word)
    text = _SUBJECT.sub(verb, text)
    text = re.sub(r"(^|: |; |, then |; or )the player chooses( one)?",
                  lambda m: m.group(1) + ("Choose" if not m.group(1) or m.group(1) == ": " else "choose") + " one",
                  text)
    for said, plain in _PLAIN:
        text = text.replace(said, plain)
    return text


_PLAIN = (("the acting player's ", "your "), (" (their choice)", " (your choice)"),
          (" (the option is legal only if they can)", " (only if you can)"))


def _cell(text: str) -> str:
    return _imperative(text).replace("|", "\\|")


def _bullets(lines: list[str]) -> list[str]:
    out = []
    for line in lines:
        depth = (len(line) - len(line.lstrip(" "))) // 2
        out.append("  " * depth + "- " + _imperative(line.strip()))
    return out


# ------------------------------------------------------------------ HTML
_CSS = """
body{font-family:Georgia,serif;max-width:60em;margin:2em auto;padding:0 1em;line-height:1.45;color:#222}
h1{border-bottom:2px solid #8a6d3b}h2{color:#5a3d1b;border-bottom:1px solid #ddd;margin-top:2em}
table{border-collapse:collapse;margin:1em 0;width:100%}td,th{border:1px solid #ccc;padding:.3em .5em;
vertical-align:top;text-align:left}th{background:#f4ecd8}nav{background:#faf7ef;padding:.5em 1em;border:1px solid #e5dcc3}
pre{background:#f7f7f7;padding:.8em;overflow-x:auto}img{max-width:100%}ul{margin:.2em 0}nav li.l3{margin-left:1.5em}
"""


def to_html(md: str, title: str) -> str:
    """The Markdown rendered by markdown-it-py (CommonMark with tables), headings given anchors,
    a table of contents after the title, in one self-contained page."""
    from markdown_it import MarkdownIt

    mdit = MarkdownIt("commonmark", {"html": False}).enable("table")
    tokens = mdit.parse(md)
    toc: list[tuple[int, str, str]] = []
    for k, tok in enumerate(tokens):
        if tok.type == "heading_open":
            anchor = "s%d" % len(toc)
            tok.attrSet("id", anchor)
            # The heading's text as read (escapes undone), not its Markdown source.
            text = "".join(c.content for c in tokens[k + 1].children or () if c.type in ("text", "code_inline"))
            toc.append((int(tok.tag[1]), anchor, text))
    body = mdit.renderer.render(tokens, mdit.options, {})
    nav = ['<nav><strong>Contents</strong>\n<ul>']
    for level, anchor, text in toc:
        if level >= 2:
            nav.append('<li class="l%d"><a href="#%s">%s</a></li>' % (level, anchor, html.escape(one_line(text))))
    nav.append("</ul></nav>")
    head, _, rest = body.partition("\n") if body.startswith("<h1") else ("", "", body)
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>%s</title><style>%s</style>"
            "</head><body>\n%s\n%s\n%s</body></html>\n" % (html.escape(one_line(title)), _CSS, head, "\n".join(nav), rest))
