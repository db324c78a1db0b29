"""`provost view LOG -o game.html`: a logged game as one HTML file that needs no server.

The page carries the board of every seat before every decision (built by ``board_view`` from
that seat's observation, as the server sends it), gzipped and base64-encoded inside the page,
with the same script and style as the server's table: a step-through slider and a choice of
whose eyes to look through.  Nothing is fetched from anywhere.
"""
from __future__ import annotations

import base64
import gzip
import html
import json

from provost.dsl.diagnostics import one_line
from provost.interpreter.boardview import board_view

from .assets import static_text
from .table import Table, TableError


class ReplayError(Exception):
    """The log does not replay (the message names the first line that diverges)."""


def frames_of(t: Table) -> dict:
    from provost.interpreter.engine import Game

    g = Game.new(t.game.rs, players=t.players, seed=t.seed)      # the rules the log was replayed on
    seats = list(range(g.s.humans))
    frames = [[] for _ in seats]

    def snap():
        for p in seats:
            v = board_view(g.rs.decls, g.observation(p), "", [], g.s.humans)
            if g.current_player() is not None:
                v["waiting_for"] = g.current_player()
                v["waiting_prompt"] = g.prompt()
            frames[p].append(v)

    snap()
    for d in t.decisions:
        g.apply(d.option)
        snap()
    result = g.result() if g.finished else None
    return {"seats": ["Player %d" % (p + 1) for p in seats], "frames": frames,
            "logs": [t.log_for(p) for p in seats],
            "result": {"scores": result["scores"], "winners": result["winners"]} if result else None}


def replay_html(log_path: str) -> str:
    try:
        t = Table.from_log(log_path)
    except TableError as e:
        raise ReplayError(e.message) from None
    data = frames_of(t)
    packed = base64.b64encode(gzip.compress(json.dumps(data, separators=(",", ":")).encode("utf-8"), 9, mtime=0))
    title = html.escape(one_line(data["frames"][0][0]["title"] if data["frames"] and data["frames"][0] else "game"))
    return ("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>provost — %s replay</title>\n"
            "<style>%s</style></head>\n<body><div id=\"app\"></div>\n"
            "<script type=\"application/octet-stream\" id=\"provost-data\">%s</script>\n"
            "<script>%s</script>\n<script>Provost.staticPage();</script>\n</body></html>\n"
            % (title, static_text("style.css"), packed.decode("ascii"),
               static_text("app.js").replace("</script", "<\\/script")))
