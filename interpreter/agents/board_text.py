"""The board for a terminal, drawn with rich from ``boardview.board_view`` (so from one seat's observation).

Tracks as rows of numbered spaces with their tiles, workers (as player numbers) and position
markers (the provost, the bailiff), grouped spaces with workers and pieces, scales, shared zones
and a table of every player's resources and counters.  Face-down values print as ``?``.
"""
from __future__ import annotations

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

STYLES = ["red", "blue", "green", "yellow", "magenta", "cyan", "white", "bright_black"]


def _v(v) -> str:
    return "?" if isinstance(v, dict) and v.get("hidden") else str(v)


def _pieces(pcs) -> str:
    return " ".join("P%d:%s" % (pc["owner"] + 1, "?" if pc["hidden"] else pc["value"]) for pc in pcs)


def board_renderable(view: dict):
    parts = [Text("%s — round %s, %s" % (view["title"], view["round"], view["phase_title"]), style="bold")]
    for t in view["tracks"]:
        tab = Table(title=t["title"], show_header=False, box=None, padding=(0, 1))
        rows = []
        for c in t["cells"]:
            if not c.get("tile") and not any(m["at"] == c["index"] for m in t["markers"]):
                continue
            marks = " ".join("[%s]" % m["title"] for m in t["markers"] if m["at"] == c["index"])
            owner = " (P%d)" % (c["owner"] + 1) if c.get("owner") is not None else ""
            workers = " ".join("P%d" % (p + 1) for p in c.get("workers") or [])
            rows.append((str(c["index"]), (c.get("title") or "—") + owner, workers, marks))
        for r in rows:
            tab.add_row(*(Text(x) for x in r))      # Text: "[provost]" is not rich markup
        parts.append(tab)
        beyond = [m for m in t["markers"] if m.get("beyond")]
        if beyond:
            parts.append(Text(", ".join("%s at %s" % (m["title"], m["at"]) for m in beyond)))
    for g in view["groups"]:
        busy = [s for s in g["spaces"] if s["workers"] or s["pieces"]]
        line = "; ".join("%s: %s" % (s["title"], " ".join(
            ["P%d" % (p + 1) for p in s["workers"]] + ([_pieces(s["pieces"])] if s["pieces"] else [])))
            for s in busy)
        parts.append(Text("%s: %s" % (g["title"], line or "empty")))
    for s in view["scales"]:
        if s["per_player"]:
            vals = "; ".join("P%d %s" % (p + 1, "/".join(_v(x) for x in (row if isinstance(row, list) else [row])))
                             for p, row in enumerate(s["values"]))
        elif s["by"] == [s["title"]]:           # one number, named by the title already
            vals = _v(s["values"][0])
        else:
            vals = ", ".join("%s %s" % (k, _v(x)) for k, x in zip(s["by"], s["values"]))
        parts.append(Text("%s: %s" % (s["title"], vals)))
    for z in view["shared"]["zones"]:
        text = "; ".join(("%s " % p["title"] if p["title"] else "") +
                         ("%d face down" % p["count"] if p["hidden"] else ", ".join(p["items"]) or "empty")
                         for p in z["parts"])
        parts.append(Text("%s: %s" % (z["title"], text)))
    players = Table(show_header=True, header_style="bold", box=None, padding=(0, 1))
    players.add_column("")
    panels = view["panels"]
    names = [r["title"] for r in panels[0]["resources"]] if panels else []
    for n in names:
        players.add_column(n)
    players.add_column("other")
    for p in panels:
        label = Text(p["name"] + (" (you)" if p["you"] else ""), style=STYLES[p["seat"] % len(STYLES)])
        other = ", ".join("%s %s" % (c["title"], _v(c["value"]) if not isinstance(c["value"], dict) or c["value"].get("hidden")
                                     else " ".join("%s %s" % kv for kv in c["value"].items())) for c in p["counters"])
        for grp in p["pieces"]:
            other += ("; " if other else "") + "%s: %s" % (grp["title"], _pieces(grp["pieces"]))
        players.add_row(label, *[_v(r["value"]) for r in p["resources"]], other)
    parts.append(players)
    return Group(*parts)


def print_board(view: dict, file, width: int = 110) -> None:
    Console(file=file, width=width, highlight=False).print(board_renderable(view))
