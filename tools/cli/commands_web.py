"""`provost serve` (the board in the browser) and `provost view LOG -o FILE` (one self-contained replay page).

    provost serve [RULESET] [--variant V] [--players N] [--agents a,b,...] [--seed S]
                  [--host H] [--port P] [--replay LOG] [--saves DIR] [--no-browser]
    provost view LOG -o game.html

`serve` needs the ``web`` extra (``pip install 'provost[web]'``: Starlette and uvicorn); `view`
needs nothing beyond provost.  A rule file named on the command line is checked first (its
diagnostics and exit 1, as `check` gives them), then offered on the new-game page beside the
shipped games; it is read again for each new game, so a file broken since shows its diagnostics
in the page.  With ``--agents`` the game is set up at once (its seats' links are printed and the
first human seat opens in the browser); the new-game page links to it too.  Every argument is
checked, and the rules loaded, before the port is bound.  Ctrl-C stops the server as an interrupt
(exit 130); SIGTERM (systemd, ``docker stop``) as a clean end (exit 0).  ``--seed`` reaches no page: games set
up without a seed of their own are given seeds derived from it (``tools/web/seeds.py``).
"""
from __future__ import annotations

import os
import sys
import threading
import webbrowser

from provost.dsl.diagnostics import UsageError, printable


def _offered(ruleset: str | None) -> list[dict]:
    """What the new-game page offers: [{ruleset, title, description, players, variants}], the rule
    file named on the command line first.  A file is offered by its name (or the relative path it
    was named by), where the server keeps it being nobody's business on the page; ``path``, its
    absolute path, is what the server loads (``create_app`` does not send it)."""
    from provost.dsl.loader import describe_file, list_shipped, resolve_path, variants_of
    from provost.interpreter.gamelog import load_rules
    from provost.tools.web.table import file_name

    out = []
    if ruleset is not None:
        rs = load_rules(ruleset)                         # RulesError -> diagnostics, exit 1
        game = rs.game()
        path = resolve_path(ruleset)
        own_file = rs.source_path is not None
        head = describe_file(path) if os.path.isfile(path) else {}
        variants = variants_of(path)
        # A variant file is offered under its own title after its game's ("Caylus: The Brewery"),
        # not as the game it extends, which the list also offers.
        own = rs.variant_head or {}
        title = head.get("title") or game.get("title") or rs.name
        if own:
            mine = own.get("title") or own.get("name")
            title = mine if mine.startswith(title) else "%s: %s" % (title, mine)
        out.append({"ruleset": file_name(ruleset), **({"path": os.path.abspath(ruleset)} if own_file else {}),
                    "title": title,
                    "description": own.get("description") or game.get("description") or head.get("description") or "",
                    "players": _named_player_range(ruleset, rs, head.get("variants") or variants),
                    "variants": _variants_offered(ruleset, variants, head.get("variants") or variants)})
    for g in list_shipped():
        if out and out[0]["ruleset"] == g["name"]:
            continue
        rs = load_rules(g["name"])
        out.append({"ruleset": g["name"], "title": g["title"], "description": g["description"],
                    "players": _player_range(rs.game(), g["variants"]),
                    "variants": _variants_offered(g["name"], g["variants"], g["variants"])})
    return out


def _variants_offered(ruleset: str, variants: list, game_variants: list) -> list[dict]:
    """The variants of ``ruleset`` the new-game page offers, each with the counts it is played
    for (Ys's 2-player variants for 2 only, King's Favor for 3 and 4): choosing one sets the
    page's player count to one of them."""
    from provost.dsl.diagnostics import RulesError
    from provost.interpreter.gamelog import load_rules
    out = []
    for v in variants:
        try:
            players = _named_player_range(ruleset, load_rules(ruleset, v["name"]), game_variants, v["name"])
        except RulesError:
            players = None              # (reported, with its diagnostics, when a game of it is asked for)
        out.append({"name": v["name"], "title": v["title"], "description": v.get("description") or "",
                    "players": players})
    return out


def _named_player_range(ruleset: str, rs, game_variants: list, variant: str | None = None) -> list:
    """The counts offered for the rules named on the command line (or for one of their variants):
    their own, and those their game's variants give rules for that these rules compose with (a
    variant file of Caylus for 3 to 5 is also played for 2 on the game's rules for two)."""
    from provost.dsl.diagnostics import RulesError
    from provost.interpreter.engine import players_out_of_range
    from provost.interpreter.gamelog import load_rules
    lo, hi = _player_range(rs.game(), [])
    counts = set(range(lo, hi + 1))
    for n in {n for v in game_variants for n in v.get("for_players") or ()} - counts:
        try:
            if players_out_of_range(load_rules(ruleset, variant, n), n) is None:
                counts.add(n)
        except RulesError:
            continue                    # rules that change the same rule as the count's
    return [min(counts), max(counts)]


def _player_range(game: dict, variants: list) -> list:
    """The counts the new-game page offers for a game: the game's, and those its variants give the
    rules for (`for_players`: Ys for 2 and 3, Caylus for 2), which the server loads with the
    count."""
    lo, hi = game.get("players") or [1, 8]
    counts = [n for v in variants for n in v.get("for_players") or ()]
    return [min([lo] + counts), max([hi] + counts)]


def default_save_dir() -> str:
    from platformdirs import user_data_dir
    return os.path.join(user_data_dir("provost"), "web-games")


def _listen(host: str, port: int):
    """The socket the server will serve on, bound now: a port in use or an address not of this
    machine is a usage error, said before anything starts, and with ``--port 0`` the port the
    system chose is the one printed."""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        sock = socket.socket(infos[0][0], socket.SOCK_STREAM)
    except OSError as e:
        raise UsageError("cannot listen on %s:%d: %s" % (host, port, e.strerror or e)) from None
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(infos[0][4])
    except OSError as e:
        sock.close()
        raise UsageError("cannot listen on %s:%d: %s" % (host, port, e.strerror or e)) from None
    return sock


def _url(host: str, port: int) -> str:
    """The address to open: this machine for a wildcard host, an IPv6 address in brackets."""
    if host in ("", "0.0.0.0", "::"):
        host = "127.0.0.1"
    return "http://%s:%d/" % ("[%s]" % host if ":" in host else host, port)


def serve_forever(app, sock) -> None:
    """Serve APP on SOCK until Ctrl-C or SIGTERM.  uvicorn stops on either once the requests under
    way are answered (every move is saved as it is played, so nothing more is to save), then raises
    the signal again under the handler it found.  Ctrl-C ends the command as interrupted (exit 130,
    README); SIGTERM is how systemd and ``docker stop`` ask a service to stop, a clean end: this
    returns (exit 0) instead of the process dying of the signal."""
    import signal

    import uvicorn

    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    terminated = []

    def on_sigterm(signum, frame):
        # Before uvicorn listens for signals (and when it raises this one again, stopped): stop, quietly.
        terminated.append(signum)
        server.should_exit = True

    main_thread = threading.current_thread() is threading.main_thread()     # (signals are the main thread's)
    previous = signal.signal(signal.SIGTERM, on_sigterm) if main_thread else None
    try:
        server.run(sockets=[sock])
    finally:
        if main_thread:
            signal.signal(signal.SIGTERM, previous)
    if not server.started and not terminated:
        raise UsageError("the server did not start (its messages above say why)")
    if terminated:
        print("provost serve: stopped (SIGTERM); the games are saved", file=sys.stderr)
        return
    if server.should_exit:          # (set by the signal handler)
        raise KeyboardInterrupt


def _check_save_dir(save_dir: str) -> None:
    """A folder the games cannot be saved in is a usage error said before anything starts (every
    new game would otherwise be an internal error in the page)."""
    import tempfile

    from provost.tools.cli.failures import cannot_write
    try:
        os.makedirs(save_dir, exist_ok=True)
        with tempfile.TemporaryFile(dir=save_dir):
            pass
    except OSError as exc:
        raise cannot_write(save_dir, exc) from None


def run_serve(args) -> int:
    try:        # the web extra (uvicorn, Starlette), asked for before any work
        import uvicorn  # noqa: F401

        import provost.tools.web.app  # noqa: F401
    except ImportError as e:
        raise UsageError("provost serve needs the web extra: pip install 'provost[web]' (%s)" % e) from None

    if args.variant and not args.ruleset:
        raise UsageError("--variant needs a RULESET")
    if args.ruleset and (args.variant or args.players is not None):
        # an unknown variant, or a player count the rules do not allow: a usage error, said now
        from provost.interpreter.engine import players_out_of_range
        from provost.interpreter.gamelog import load_rules
        rs = load_rules(args.ruleset, args.variant, args.players)     # the rules for that count
        problem = players_out_of_range(rs, args.players) if args.players is not None else None
        if problem:
            raise UsageError(problem)
    prepared = _prepare(args)
    if prepared is None:
        return 1
    app, save_dir, tables = prepared
    sock = _listen(args.host, args.port)
    try:
        return _serve(args, app, save_dir, tables, sock)
    finally:
        sock.close()


def _prepare(args):
    """Everything serve checks and builds before it listens: the rules (their diagnostics, exit
    1), the saves folder, the log to replay and the game ``--agents`` sets up (a usage error, exit
    2).  Nothing is bound, and nothing saved, until all of them pass: a mistake in the arguments
    never leaves a server half started nor a game nobody can reach.  Returns (app, save_dir,
    the tables to save), or None for a log that does not replay (its diagnostic printed)."""
    from provost.tools.web.app import create_app
    from provost.tools.web.seeds import SeedSource
    from provost.tools.web.table import Table, TableError

    offered = _offered(args.ruleset)
    save_dir = args.saves or default_save_dir()
    _check_save_dir(save_dir)
    replay = None
    if args.replay:
        if not _log_reads(args.replay):
            return None
        try:
            replay = Table.from_log(args.replay)
        except TableError as e:
            raise UsageError("cannot replay %s: %s" % (args.replay, e.message)) from None
    seeds = SeedSource(args.seed)
    started = None
    if args.agents:
        # a game set up on the command line: started now, its first human seat opened in the browser
        if args.ruleset is None:
            raise UsageError("--agents needs a RULESET")
        try:
            started = Table.new(offered[0].get("path", offered[0]["ruleset"]), args.variant, args.players, seeds.next(),
                                args.agents)
        except TableError as e:
            raise UsageError(e.message) from None
    # The new-game page's defaults: never a seed.  The page is open to every seat, and a seed tells
    # every hidden card; a game set up there without one of its own is given one from ``seeds``.
    defaults = {"ruleset": offered[0]["ruleset"] if args.ruleset else None, "variant": args.variant,
                "players": args.players, "agents": args.agents}
    app = create_app(offered, defaults, save_dir, replay, started, seeds)
    return app, save_dir, [t for t in (replay, started) if t is not None]


def _serve(args, app, save_dir, tables, sock) -> int:
    from provost.tools.web.table import SaveFailed
    for t in tables:            # saved once the server listens (see _prepare)
        t.save_dir = save_dir
        try:
            t.save()
        except SaveFailed as e:
            raise UsageError("cannot save games in %s: %s" % (save_dir, e.reason)) from None
    started = next((t for t in tables if not t.replay), None)
    url = _url(args.host, sock.getsockname()[1])
    print("provost serve: %s (games saved in %s; Ctrl-C stops)" % (printable(url), printable(save_dir)),
          file=sys.stderr)
    if started is not None:
        seats = [(l["seat"], l["url"]) for l in started.links()]     # (bots only: every seat's, to watch)
        for i, link in seats:
            print("  Player %d: %s%s" % (i + 1, url.rstrip("/"), link), file=sys.stderr)
        print("  every seat's link: %s/game/%s/%s" % (url.rstrip("/"), started.gid, started.host), file=sys.stderr)
        print("  spectators (what every seat sees): %s%s" % (url.rstrip("/"), started.watch_link()), file=sys.stderr)
        if seats:
            url = url.rstrip("/") + seats[0][1]
    if not args.no_browser:
        threading.Timer(1.0, lambda: webbrowser.open(url)).start()
    serve_forever(app, sock)
    return 0


def _log_reads(path: str) -> bool:
    """Whether the game log at ``path`` replays; if not, say why as `provost replay` does
    (``path:line:col: error: ... [P005]`` for a missing file, ``[R00x]`` for a bad log): the
    input has errors, exit 1."""
    from provost.interpreter.gamelog import check_log
    report = check_log(path)
    if not report.ok:
        print(report.diagnostic(path).format_text(), file=sys.stderr)
    return report.ok


def run_view(args) -> int:
    from provost.tools.cli.failures import check_writable, write_text
    from provost.tools.web.replay_page import ReplayError, replay_html

    check_writable(args.output)
    if not _log_reads(args.log):
        return 1
    try:
        html = replay_html(args.log)
    except ReplayError as e:
        print("provost view: %s" % printable(e), file=sys.stderr)
        return 1
    write_text(args.output, html)
    print("wrote %s" % printable(args.output), file=sys.stderr)
    return 0
