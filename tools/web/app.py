"""The web table: a Starlette app serving the new-game page, one page per seat, and a small JSON API.

    GET  /                              the new-game page (rulesets, variants, seats, seed)
    GET  /api/rulesets                  what the new-game page offers
    POST /api/games                     {ruleset, variant, players, seed, agents} -> the seats' links
    GET  /game/{gid}/{key}              the seats' links of a game (the key is given to its creator only)
    GET  /t/{gid}/{token}               a seat's table (the page; its data comes from the API)
    GET  /api/t/{gid}/{token}           that seat's state (?at=N: the board before decision N+1)
    POST /api/t/{gid}/{token}/move      {option, n}: the seat's decision (n: decisions seen, for staleness)
    POST /api/t/{gid}/{token}/advance   play one bot move, if a bot is to decide
    GET  /api/t/{gid}/{token}/why       ?option=ID: why that option is not legal now
    GET  /api/t/{gid}/{token}/log       the JSON Lines game log, once the game is over
    GET  /static/{name}, /favicon.ico   the pages' script, style and icon

Every answer to a seat is built from that seat's observation.  Bad requests get a 4xx with
``{"error": reason}``; nothing a request sends can stop the server.
"""
from __future__ import annotations

import html
import json
import os
import re
import threading
from urllib.parse import quote

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from provost.dsl.diagnostics import RulesError, one_line

from .assets import static_text
from .seeds import SeedSource
from .table import (BOT_AGENTS, Table, TableError, console, fails_in_play, file_name, files_named,
                    play_failure)

MAX_BODY = 64 * 1024


class Tables:
    """The games this server knows, loaded from the save folder on first use.

    Loading a save replays every decision of its game: a second or more for a long one.  That is
    done in a worker thread, not in the event loop every other request waits on, and one load at a
    time per game: two requests for a game not yet loaded get the same table.
    """

    def __init__(self, save_dir: str | None):
        self.save_dir = save_dir
        self.tables: dict[str, Table] = {}
        self._loading: dict[str, threading.Lock] = {}
        self._loading_lock = threading.Lock()

    def add(self, t: Table) -> Table:
        self.tables[t.gid] = t
        return t

    async def get(self, gid: str) -> Table:
        t = self.tables.get(gid)
        if t is not None:
            return t
        if self.save_dir and gid.replace("-", "").replace("_", "").isalnum():
            path = os.path.join(self.save_dir, gid + ".json")
            if os.path.isfile(path):
                return await run_in_threadpool(self._load, gid, path)
        raise TableError(404, "no game '%s' on this server" % gid)

    def _load(self, gid: str, path: str) -> Table:
        with self._loading_lock:
            lock = self._loading.setdefault(gid, threading.Lock())
        with lock:
            t = self.tables.get(gid)        # (loaded while this request waited for the lock)
            if t is not None:
                return t
            try:
                return self.add(Table.load(path, self.save_dir))
            except Exception as e:     # a save that no longer loads (rules changed): say so
                if isinstance(e, RulesError) and fails_in_play(e):
                    raise play_failure(e, 410, "this game's save cannot be resumed: the rules fail while "
                                       "replaying its decisions") from None
                raise TableError(410, "this game's save cannot be resumed: %s" % _diagnostics_message(e)) from None


def _is_number(text: str, digits: int) -> bool:
    """Whether ``text`` is a whole number of at most ``digits`` ASCII digits (``str.isdigit``
    also takes "²" and other digits ``int`` refuses)."""
    return text.isascii() and text.isdigit() and len(text) <= digits


def _error(status: int, message: str) -> JSONResponse:
    # (a message quoting half a character could not be sent as UTF-8: the answer would be a 500)
    return JSONResponse({"error": message.encode("utf-8", "backslashreplace").decode("utf-8")}, status_code=status)


def _diagnostics_message(exc, paths=()) -> str:
    """EXC's diagnostics (or message), the files in them and ``paths`` named by their names."""
    diags = getattr(exc, "diagnostics", None)
    if diags:
        return files_named("\n".join(d.format_text() for d in diags), [*paths, *(d.path for d in diags)])
    return files_named(str(exc), paths)


def create_app(rulesets: list[dict], defaults: dict, save_dir: str | None, replay: Table | None = None,
               started: Table | None = None, seeds: SeedSource | None = None) -> Starlette:
    """``rulesets``: [{ruleset, title, variants: [{name, title}], path?}] offered by the new-game
    page (``_offered``), a rule file by its name and, in ``path``, where the server loads it from:
    the page is sent the name only; ``replay``: a logged game to step through; ``started``: a game
    set up on the command line.  The new-game page links to the seats of either.  ``seeds``: where
    a game asked for without a seed gets one (``serve --seed``); it is never sent anywhere."""
    seeds = seeds or SeedSource(None)
    tables = Tables(save_dir)
    for t in (replay, started):
        if t is not None:
            tables.add(t)
    allowed = {r["ruleset"]: {v["name"] for v in r["variants"]} for r in rulesets}
    paths = {r["ruleset"]: r.get("path", r["ruleset"]) for r in rulesets}
    shown = {path: name for name, path in paths.items()}
    rulesets = [{k: v for k, v in r.items() if k != "path"} for r in rulesets]

    async def body(request: Request) -> dict:
        # Read no further than the limit: a body of gigabytes must not be held in memory to be refused.
        declared = request.headers.get("content-length", "")
        if declared.isascii() and declared.isdigit() and int(declared) > MAX_BODY:
            raise TableError(413, "request too large (at most %d bytes)" % MAX_BODY)
        raw = bytearray()
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > MAX_BODY:
                raise TableError(413, "request too large (at most %d bytes)" % MAX_BODY)
        raw = bytes(raw)
        try:
            data = json.loads(raw or b"{}")
        except (ValueError, RecursionError):        # (RecursionError: nested too deep to read)
            raise TableError(400, "the request body is not JSON") from None
        if not isinstance(data, dict):
            raise TableError(400, "the request body must be a JSON object")
        try:        # JSON may escape half a character ("\ud800"): no text, and no answer could quote it
            json.dumps(data, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise TableError(400, "the request body holds a lone surrogate (\\ud800-\\udfff), which is no character") from None
        return data

    def guarded(handler):
        async def run(request: Request):
            try:
                return await handler(request)
            except TableError as e:
                return _error(e.status, e.message)
            except Exception as e:          # never a crash, never a traceback to the page
                if isinstance(e, RulesError) and fails_in_play(e):
                    # (the result's tiebreak, say: its message may show values a seat may not see)
                    failure = play_failure(e, 409, "the rules fail while playing")
                    return _error(failure.status, failure.message)
                if isinstance(e, RulesError):
                    return _error(400, "the rules do not load:\n" + _diagnostics_message(e, paths.values()))
                # A bug: what it says may be anything the game holds, hidden or not.
                console.exception("internal error answering %s %s", request.method, request.url.path)
                return _error(500, "internal error (%s); the server's console says more" % type(e).__name__)
        return run

    async def locked(t: Table, fn, *args):
        """Run table work in a worker thread (a bot's move must not stall other seats), one at a time per table."""
        def run():
            with t.lock:
                return fn(*args)
        return await run_in_threadpool(run)

    async def seat(request: Request) -> tuple[Table, int]:
        t = await tables.get(request.path_params["gid"])
        return t, t.seat_of(request.path_params["token"])

    async def home(request: Request):
        return HTMLResponse(static_text("new.html"))

    async def api_rulesets(request: Request):
        # Not the links of a game set up on the command line: whoever can reach this page could
        # open every seat (the terminal printed them).  A replay's game is over: nothing is hidden.
        return JSONResponse({"rulesets": rulesets, "defaults": defaults, "agents": ["human", *BOT_AGENTS],
                             "replay": replay.gid if replay else None,
                             "replay_links": replay.links() if replay else None})

    async def new_game(request: Request):
        data = await body(request)
        ruleset = data.get("ruleset")
        if not isinstance(ruleset, str) or ruleset not in allowed:
            raise TableError(400, "unknown ruleset %r (this server offers: %s)" % (ruleset, ", ".join(allowed)))
        variant = data.get("variant") or None
        if variant is not None and (not isinstance(variant, str) or variant not in allowed[ruleset]):
            raise TableError(400, "unknown variant %r of %s (known: %s)"
                             % (variant, ruleset, ", ".join(sorted(allowed[ruleset])) or "none"))
        ruleset = paths[ruleset]
        players = data.get("players")
        seed = data.get("seed")
        if isinstance(seed, str) and _is_number(seed, 20):
            seed = int(seed)           # the page sends digits: a browser's numbers stop at 2**53
        elif seed is None:
            seed = seeds.next()
        agents = data.get("agents") or ["human"]
        if players is not None and (not isinstance(players, int) or isinstance(players, bool)):
            raise TableError(400, "players must be a whole number")
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 1 << 64:
            raise TableError(400, "seed must be a whole number from 0 to 2**64 - 1 (or left out: one is drawn)")
        if not isinstance(agents, list) or not all(isinstance(a, str) for a in agents):
            raise TableError(400, "agents must be a list of names")
        from provost.interpreter.engine import players_out_of_range
        from provost.interpreter.gamelog import load_rules
        if players is not None:         # the rules for that count, as play --players and Table.new load them
            rs = load_rules(ruleset, variant, players)
            problem = players_out_of_range(rs, players)
            if problem:
                raise TableError(400, problem)
        try:
            t = tables.add(await run_in_threadpool(Table.new, ruleset, variant, players, seed, agents, save_dir))
        except RulesError as e:
            if fails_in_play(e):        # (in the rules' setup: its message may show the cards dealt)
                raise play_failure(e, 400, "the rules fail while setting the game up") from None
            raise
        return JSONResponse({"gid": t.gid, "seats": t.links(), "watch": t.watch_link(),
                             "game": "/game/%s/%s" % (t.gid, t.host)})

    async def game_page(request: Request):
        t = await tables.get(request.path_params["gid"])
        t.check_host(request.path_params["key"])
        # (a replay's agents are its log's, any text: escaped like everything written into HTML)
        rows = "".join('<li><a href="%s">%s</a> (%s)</li>' % tuple(html.escape(one_line(l[k])) for k in ("url", "name", "agent"))
                       for l in t.links())
        rows += '<li><a href="%s" id="watchlink">Spectators</a> (what every seat sees)</li>' % t.watch_link()
        return HTMLResponse(static_text("links.html").replace("{{rows}}", rows))

    async def table_page(request: Request):
        await seat(request)
        return HTMLResponse(static_text("table.html"))

    async def state(request: Request):
        t, p = await seat(request)
        at = request.query_params.get("at")
        if at is not None and not _is_number(at, 9):
            raise TableError(400, "at must be a decision number")
        return JSONResponse(await locked(t, t.state_for, p, int(at) if at is not None else None))

    async def move(request: Request):
        t, p = await seat(request)
        data = await body(request)
        option = data.get("option")
        n = data.get("n")
        if not isinstance(option, str):
            raise TableError(400, "option must be an option id (a string)")
        if n is not None and (not isinstance(n, int) or isinstance(n, bool) or n < 0):
            raise TableError(400, "n must be the number of decisions the page has seen")
        def run():
            t.move(p, option, n)
            return t.state_for(p)
        return JSONResponse(await locked(t, run))

    async def advance(request: Request):
        t, p = await seat(request)
        def run():
            t.advance()
            return t.state_for(p)
        return JSONResponse(await locked(t, run))

    async def why(request: Request):
        t, p = await seat(request)
        option = request.query_params.get("option", "")
        return JSONResponse({"option": option, "why": await locked(t, t.why_not, p, option)})

    async def game_log(request: Request):
        t, p = await seat(request)
        # The rules named as the page names them: where the server keeps them is nobody's business.
        text = await locked(t, t.game_log, lambda path: shown.get(path) or file_name(path))
        name = "provost-%s-%s.jsonl" % (os.path.splitext(os.path.basename(t.ruleset))[0], t.gid)
        # A header is Latin-1 and one line: a rule file's name may be neither ("caylus.fête€.rules",
        # a quote, a line break), so the name is given plain ASCII and, exactly, as RFC 6266's filename*.
        plain = re.sub(r"[^A-Za-z0-9._-]", "_", name)
        return Response(text, media_type="application/x-ndjson",
                        headers={"Content-Disposition": "attachment; filename=\"%s\"; filename*=UTF-8''%s"
                                 % (plain, quote(name, safe=""))})

    async def asset(request: Request):
        name = request.path_params["name"]
        types = {"app.js": "text/javascript", "style.css": "text/css", "favicon.svg": "image/svg+xml"}
        if name not in types:
            raise TableError(404, "no such file")
        return Response(static_text(name), media_type=types[name])

    async def favicon(request: Request):      # asked for by browsers (and tools) that read no page's icon link
        return Response(static_text("favicon.svg"), media_type="image/svg+xml")

    routes = [
        Route("/", guarded(home)),
        Route("/static/{name}", guarded(asset)),
        Route("/favicon.ico", guarded(favicon)),
        Route("/api/rulesets", guarded(api_rulesets)),
        Route("/api/games", guarded(new_game), methods=["POST"]),
        Route("/game/{gid}/{key}", guarded(game_page)),
        Route("/t/{gid}/{token}", guarded(table_page)),
        Route("/api/t/{gid}/{token}", guarded(state)),
        Route("/api/t/{gid}/{token}/move", guarded(move), methods=["POST"]),
        Route("/api/t/{gid}/{token}/advance", guarded(advance), methods=["POST"]),
        Route("/api/t/{gid}/{token}/why", guarded(why)),
        Route("/api/t/{gid}/{token}/log", guarded(game_log)),
    ]
    async def not_routed(request: Request, exc):
        """No route, or not this method: said as every other refusal is, ``{"error": reason}``."""
        if exc.status_code == 405:
            allowed = (exc.headers or {}).get("Allow", "")
            return JSONResponse({"error": "%s is not accepted here (only %s)" % (request.method, allowed or "other methods")},
                                status_code=405, headers=exc.headers)
        if exc.status_code == 404:
            return _error(404, "no such page or API call: %s" % request.url.path)
        return _error(exc.status_code, exc.detail)

    from starlette.exceptions import HTTPException
    return Starlette(routes=routes, exception_handlers={HTTPException: not_routed})
