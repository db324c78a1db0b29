"""One game at the web table: its seats and their tokens, bots, the decisions so far, a save on disk.

A table is saved as the list of its decisions (with the rules, player count, seed and agents),
never as a pickle: loading one replays the decisions, so a game in progress survives a server
restart and the step-through slider can show any earlier decision.

What each seat is sent is built from ``Game.observation(seat)`` only (``board_view``), and the log
shown to a seat names another seat's option only when that seat could tell it apart from the
other options it had: a decision whose alternatives all leave the viewer's observation the same
(a secret bid, a broker laid face down) is shown as its prompt alone.
"""
from __future__ import annotations

import json
import logging
import os
import secrets
import threading
from dataclasses import dataclass, field, replace

from provost.dsl.atomic import write_atomically
from provost.interpreter.boardview import (Names, board_view, has_hidden, logged_label, option_places, seat_name,
                                           who_sees)

BOT_AGENTS = ("random", "greedy")

#: Where the server tells the rules' author what a seat is not told (a rule's failure in full).
console = logging.getLogger("provost.web")


class _ControlsEscaped(logging.Filter):
    """What the console prints may quote a request (its path, an option) or a save: any control
    character in it, traceback included, is written as an escape (``\\x1b``), lines kept, so that
    nothing sent to the server can rewrite its terminal."""

    def filter(self, record: logging.LogRecord) -> bool:
        from provost.dsl.diagnostics import CONTROL
        escape = lambda text: CONTROL.sub(lambda m: ascii(m.group())[1:-1], text)   # noqa: E731
        record.msg, record.args = escape(record.getMessage()), None
        if record.exc_info and not record.exc_text:
            record.exc_text = escape(logging.Formatter().formatException(record.exc_info))
        return True


console.addFilter(_ControlsEscaped())

#: The codes of a rule failing while playing: their messages hold the values the rule met (the
#: card under the deck's top, another seat's bid), which no seat may be shown.
PLAY_FAILURES = ("E100", "E101")


def _digests(rs) -> tuple | None:
    """What a table's save keeps to resume only on the same rules: for rules named by a path."""
    return (rs.digest, rs.digest_without_positions()) if rs.names_user_files() else None


def same_secret(known: str, given: str) -> bool:
    """Whether ``given`` is the secret ``known``, in constant time; any text may be given (a link
    typed with an accent: ``compare_digest`` refuses non-ASCII strings, but not their bytes)."""
    return secrets.compare_digest(known.encode("utf-8", "surrogatepass"), given.encode("utf-8", "surrogatepass"))


def _save_problem(d, gid: str) -> str | None:
    """What is wrong with the shape of table save ``d`` (of the file ``gid``.json), if anything:
    a save is untrusted, and one another hand wrote must be refused with a reason, not answered
    with a crash (a token that is no string) nor served as another game (its id not its name's)."""
    def strings(x, n=None):
        return isinstance(x, list) and all(isinstance(v, str) for v in x) and (n is None or len(x) == n)

    if not isinstance(d, dict):
        return "expected a JSON object, got %s" % type(d).__name__
    if d.get("gid") != gid:
        return "it is the save of game %r, not of %r (its file's name)" % (d.get("gid"), gid)
    players = d.get("players")
    if not isinstance(players, int) or isinstance(players, bool) or players < 1:
        return "players: expected a number of players, not %r" % (players,)
    if not isinstance(d.get("replay", False), bool):
        return "replay: expected true or false"
    if not strings(d.get("agents"), players) or not (d.get("replay") or all(a == "human" or a in BOT_AGENTS
                                                                             for a in d["agents"])):
        return "agents: expected %s per seat (%d)" % ("a name" if d.get("replay") else
                                                      "one of human, %s" % ", ".join(BOT_AGENTS), players)
    if not strings(d.get("tokens"), players) or len(set(d["tokens"])) != players or "" in d["tokens"]:
        return "tokens: expected a different link token per seat (%d)" % players
    if not strings(d.get("decisions")):
        return "decisions: expected a list of option ids"
    for key in ("host", "watch"):
        if key in d and not isinstance(d[key], str):
            return "%s: expected a key (a string)" % key
    if d.get("variant") is not None and not isinstance(d["variant"], str):
        return "variant: expected a variant's name or rule file"
    return None


class TableError(Exception):
    """A request the table refuses; ``status`` is the HTTP status to answer with."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


def file_name(path: str) -> str:
    """A rule file as the web names it: by its name, not where the server keeps it."""
    return os.path.basename(path) if os.path.isabs(path) else path


def files_named(text: str, paths) -> str:
    """TEXT with each of the files ``paths`` named by its name (``file_name``): where the server
    keeps the rules is nobody's business on the page."""
    for path in sorted(set(paths), key=len, reverse=True):
        text = text.replace(path, file_name(path))
    return text


def named_rules(source: dict, named) -> dict:
    """A log's ``source`` ({ruleset, variant}) with its rule files named as the seats know them,
    not where the server keeps them: the rule file by ``named(path)`` (as it was named on the
    command line, or by its name), a variant file beside it beside that name, any other by its
    name.  The log replays where those names lead to the files (``provost replay`` run in the
    folder the server was started in)."""
    from provost.dsl.compose import SEPARATOR, split_variants

    ruleset, variant = source.get("ruleset"), source.get("variant")
    home = os.path.dirname(ruleset) if isinstance(ruleset, str) and os.path.isabs(ruleset) else None
    shown = named(ruleset) if home is not None else ruleset

    def part(path: str) -> str:
        if not os.path.isabs(path):
            return path
        if os.path.dirname(path) == home:
            return os.path.join(os.path.dirname(shown), os.path.basename(path))
        return os.path.basename(path)
    if isinstance(variant, str):
        variant = SEPARATOR.join(part(p) for p in split_variants(variant))
    return {"ruleset": shown, "variant": variant}


def fails_in_play(e) -> bool:
    """Whether RulesError ``e`` is a rule failing while playing (E100, E101), not rules that do not load."""
    return any(d.code in PLAY_FAILURES for d in e.diagnostics)


def play_failure(e, status: int, what: str, then: str = "") -> TableError:
    """The answer to a seat when the rules fail while playing (``e``, a RulesError): ``what``, and
    where each failure is (``caylus.crash.rules:5:18: error: E100, ...``) without its message,
    which may show values the seat may not see (``no entry 3 in [0]``, 3 the hidden ship's).
    The full diagnostics go to the server's console, for the rules' author."""
    from provost.dsl.diagnostics import CODES, render_text
    console.error("%s:\n%s", what, "\n".join(render_text(d) for d in e.diagnostics))
    places = "; ".join("%s: %s: %s, %s" % (replace(d, path=file_name(d.path)).place(), d.severity, d.code,
                                            CODES.get(d.code, ("", "a rule failed"))[1])
                       for d in e.diagnostics)
    return TableError(status, "%s: %s. %sThe rule's own message is on the server's console."
                      % (what, places, then))


class SaveFailed(TableError):
    """A table's save could not be written; ``reason`` says why (the system's words)."""

    def __init__(self, reason: str):
        super().__init__(507, "the move was played, but this game could not be saved on the server (%s): it goes "
                              "on in the server's memory; a restart of the server would lose the moves since "
                              "its last save" % reason)
        self.reason = reason


@dataclass
class Decision:
    player: int
    option: str
    prompt: str
    round: int
    phase: str
    seen_by: list[int]            # seats that may see which option was chosen
    #: How the log names the option to each seat in ``seen_by``: as the decision's buttons read,
    #: told apart by where its places were on that seat's board then (not saved: made again on load).
    labels: dict[int, str] = field(default_factory=dict)

    def as_dict(self) -> dict:
        return {"player": self.player, "option": self.option, "prompt": self.prompt,
                "round": self.round, "phase": self.phase, "seen_by": self.seen_by}


@dataclass
class Table:
    gid: str
    ruleset: str
    variant: str | None
    players: int
    seed: int
    agents: list[str]
    tokens: list[str]
    decisions: list[Decision] = field(default_factory=list)
    replay: bool = False          # a logged game to step through: nobody moves
    save_dir: str | None = None
    #: The key of the page listing every seat's link, given to whoever set the game up only: a
    #: seat's own link holds the game's id, so the id alone must not open the other seats.
    host: str = field(default_factory=lambda: secrets.token_urlsafe(16))
    #: The token of the spectators' link: the board as nobody playing sees it (every seat's
    #: public view), and the moves the log may show to anyone.
    watch: str = field(default_factory=lambda: secrets.token_urlsafe(16))
    game: object = None
    #: The digests of rules named by a path (a user's rule or variant file) when the game began:
    #: a save is resumed only on the same rules (laid out again or not), as ``Game.from_json``
    #: resumes one.  None for a shipped ruleset named by its name.
    digests: tuple | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)
    _bots: dict = field(default_factory=dict)

    # ------------------------------------------------------------ creation
    @classmethod
    def new(cls, ruleset: str, variant: str | None, players: int | None, seed: int, agents: list[str],
            save_dir: str | None = None) -> "Table":
        from provost.interpreter.engine import Game
        from provost.interpreter.gamelog import load_rules

        # Rules for a count the game's variants give the rules for (Ys for 2, or a variant file
        # of Ys for 2 and 3) are loaded with them, as provost play --players loads them, and
        # saved under the composition's name (three_players+three_players_short+two_players, or
        # three_players+mine for the file), as play's logs name it.
        composed = players is not None
        rs = load_rules(ruleset, variant, players)   # RulesError: reported by the caller
        variant = rs.variant_source or (rs.variant if composed else variant)   # a variant file: its absolute path
        game = Game.new(rs, players=players, seed=seed)
        n = game.s.humans
        agents = list(agents) or ["human"]
        if len(agents) > n:         # as provost play says it: a seat given twice is a mistake, not a default
            raise TableError(400, "%d agents given for %d players" % (len(agents), n))
        agents = (agents + [agents[-1]] * n)[:n]
        for a in agents:
            if a != "human" and a not in BOT_AGENTS:
                raise TableError(400, "unknown seat kind '%s' (human, %s)" % (a, ", ".join(BOT_AGENTS)))
        t = cls(secrets.token_urlsafe(8), ruleset, variant, n, seed, agents,
                [secrets.token_urlsafe(16) for _ in range(n)], save_dir=save_dir)
        t.game = game
        t.digests = _digests(rs)
        try:
            t.save()
        except SaveFailed as e:
            raise TableError(507, "the new game could not be saved on the server (%s), so it was not set up"
                             % e.reason) from None
        return t

    @classmethod
    def from_log(cls, path: str, save_dir: str | None = None) -> "Table":
        """A logged game to step through; the log must replay (``gamelog.replay``)."""
        from provost.interpreter.gamelog import _records, replay

        ok, message, game = replay(path)
        if not ok:
            raise TableError(400, message)
        # Read as the replay read it: blank lines, which a log may hold, are no records.
        records = [rec for _, rec in _records(path)]
        header = records[0]
        src = header.get("source") or {}
        n = header["players"]
        # One agent per seat, whatever the log holds (a log need not name them): every seat is watched.
        agents = (list(header.get("agents") or []) + ["unknown"] * n)[:n]
        t = cls(secrets.token_urlsafe(8), src.get("ruleset") or header["ruleset"],
                src.get("variant", header.get("variant")), n, header["seed"],
                agents, [secrets.token_urlsafe(16) for _ in range(n)],
                replay=True, save_dir=save_dir)
        t._play_through([rec["option"] for rec in records if rec.get("type") == "decision"])
        t.digests = _digests(t.game.rs)
        t.save()
        return t

    @classmethod
    def load(cls, path: str, save_dir: str | None = None) -> "Table":
        try:
            with open(path, "rb") as f:
                d = json.loads(f.read().decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError) as e:
            raise TableError(410, "it is damaged: it is not JSON (%s)" % e) from None
        problem = _save_problem(d, os.path.splitext(os.path.basename(path))[0])
        if problem:
            raise TableError(410, "it is damaged: %s" % problem)
        if isinstance(d.get("variant"), str):      # (as a game's save: a variant path must be a rule file)
            from provost.interpreter.savefile import refuse_variant_files
            refuse_variant_files(d["variant"], path, "E004", "E003")
        ruleset = d.get("ruleset")      # and the game's own rules must be a shipped ruleset or a rule file
        from provost.dsl.loader import shipped_game
        from provost.interpreter.savefile import RULE_FILE_SUFFIXES, is_rule_file_name
        if not isinstance(ruleset, str) or not (shipped_game(ruleset) is not None or is_rule_file_name(ruleset)):
            from provost.dsl.diagnostics import Diagnostic, RulesError
            raise RulesError([Diagnostic(path, 1, 1, "error", "E004", "its rules are named by %r, which is not a rule file (%s)"
                                         % (ruleset, ", ".join(RULE_FILE_SUFFIXES)))])
        t = cls(d["gid"], d["ruleset"], d.get("variant"), d["players"], d["seed"], d["agents"], d["tokens"],
                replay=d.get("replay", False), save_dir=save_dir)
        if isinstance(d.get("host"), str):
            t.host = d["host"]          # (a save from before host keys gets a new one nobody holds)
        if isinstance(d.get("watch"), str):
            t.watch = d["watch"]        # (and one from before spectators' links a new one)
        if isinstance(d.get("digest"), str):
            rs = t._rules()
            if not rs.matches_digests(d["digest"], d.get("digest_without_positions")):
                raise TableError(410, "the rules changed since this game began (%s): it is not resumed on other rules"
                                 % ", ".join(os.path.basename(x) for x in (t.ruleset, t.variant)
                                             if isinstance(x, str) and os.path.isabs(x)))
            t.digests = (d["digest"], d.get("digest_without_positions"))
        t._play_through(d["decisions"])
        return t

    def _rules(self):
        """The rules this table's save names.  A variant file is named without the rules for the
        player count put under it (Ys for 2): loaded for the table's count, they are put there
        again, as a log's are (without them a game of Ys for 2 with a variant file did not resume)."""
        from provost.dsl.compose import names_a_file
        from provost.interpreter.gamelog import load_rules
        return load_rules(self.ruleset, self.variant, self.players if names_a_file(self.variant) else None)

    def _play_through(self, options: list[str]) -> None:
        from provost.interpreter.engine import Game

        self.game = Game.new(self._rules(), players=self.players, seed=self.seed)
        for opt in options:
            p = self.game.current_player()
            if not self.replay and p is not None and self.is_bot(p):
                # A bot draws from its own seeded generator: asked again at each of its past
                # decisions, it is where it was, and a resumed game goes on as it would have.
                self._bot(p).choose(self.game, p)
            self._apply(opt)

    # ------------------------------------------------------------ saving
    def as_dict(self) -> dict:
        d = {"gid": self.gid, "ruleset": self.ruleset, "variant": self.variant, "players": self.players,
             "seed": self.seed, "agents": self.agents, "tokens": self.tokens, "host": self.host, "watch": self.watch, "replay": self.replay,
             "decisions": [d.option for d in self.decisions]}
        if self.digests is not None:
            d["digest"], d["digest_without_positions"] = self.digests
        return d

    def save(self) -> None:
        """Write the save (and, once the game is over, its log) beside the others.  A save that
        cannot be written (a full disk, no permission) is a ``SaveFailed``: what is played stays
        in memory, and the save on disk is the last whole one."""
        if not self.save_dir:
            return
        try:
            os.makedirs(self.save_dir, exist_ok=True)
            write_atomically(os.path.join(self.save_dir, self.gid + ".json"), json.dumps(self.as_dict()).encode())
            if self.game is not None and self.game.finished and not self.replay:
                write_atomically(os.path.join(self.save_dir, self.gid + ".jsonl"), self.game_log().encode())
        except OSError as e:
            # (its reason only: the path would tell a seat where the server keeps its files)
            raise SaveFailed(e.strerror or type(e).__name__) from None

    # ------------------------------------------------------------ seats
    def seat_of(self, token: str) -> int:
        """The seat a link's token opens; the spectators' link opens ``spectator``."""
        for i, t in enumerate(self.tokens):
            if same_secret(t, token):
                return i
        if same_secret(self.watch, token):
            return self.spectator
        raise TableError(403, "this link's token is not a seat of this game (stale or mistyped link)")

    @property
    def spectator(self) -> int:
        """The seat after the last (neutral seats included): the engine's observation of it is
        what every seat may see, and nothing more."""
        return self.game.s.players

    def watch_link(self) -> str:
        return "/t/%s/%s" % (self.gid, self.watch)

    def check_host(self, key: str) -> None:
        if not same_secret(self.host, key):
            raise TableError(403, "this is not the link to this game's seats (the page that set the game up has it)")

    def links(self) -> list[dict]:
        """Every human seat's link, for whoever set the game up.  Every seat's for a replay, and
        for a game of bots only: nobody plays it, so its seats are there to watch it through (a
        seat's page makes the bots move; with no link, nothing would)."""
        watched = self.replay or "human" not in self.agents
        return [{"seat": i, "name": "Player %d" % (i + 1), "agent": a, "url": "/t/%s/%s" % (self.gid, self.tokens[i])}
                for i, a in enumerate(self.agents) if a == "human" or watched]

    def is_bot(self, seat: int) -> bool:
        return seat < len(self.agents) and self.agents[seat] in BOT_AGENTS

    def _bot(self, seat: int):
        from provost.interpreter.agents import make_agent

        if seat not in self._bots:
            self._bots[seat] = make_agent(self.agents[seat], self.seed, seat)
        return self._bots[seat]

    # ------------------------------------------------------------ moves
    def _apply(self, option: str) -> None:
        g = self.game
        player, prompt, rnd, phase = g.current_player(), g.prompt(), g.s.round, g.s.phase
        seen_by = who_sees(g, player, option, watcher=True)
        labels = self._labels(option, seen_by)
        g.apply(option)
        self.decisions.append(Decision(player, option, prompt, rnd, phase, seen_by, labels))

    def _labels(self, option: str, seen_by: list[int]) -> dict[int, str]:
        """How the log names ``option``, about to be chosen, to each seat that may know it."""
        g = self.game
        options = g.legal_options()
        if option not in options:           # (an illegal option: apply will say so)
            return {}
        public = not has_hidden(g.prog)
        out = {}
        for p in seen_by:
            obs = g.observation(p)
            out[p] = logged_label(Names(g.rs.decls, obs.get("tiles")), option, options,
                                  option_places(g.rs.decls, obs, g.s.humans), public or p == g.current_player())
        return out

    def move(self, seat: int, option: str, expected: int | None) -> None:
        if self.replay:
            raise TableError(409, "this is a replay: nobody moves")
        g = self.game
        if g.finished:
            raise TableError(409, "the game is over")
        if expected is not None and expected != len(self.decisions):
            raise TableError(409, "stale page: it has seen %d decisions, the game is at %d; reload"
                             % (expected, len(self.decisions)))
        if g.current_player() != seat:
            raise TableError(409, "it is not your decision (%s is to decide)" % seat_name(g.current_player(), g.s.humans))
        if self.is_bot(seat):
            raise TableError(409, "a bot plays this seat")
        if option not in g.legal_options():
            raise TableError(400, "'%s' is not legal: %s; the legal options are %s"
                             % (option, self._explain(option), ", ".join(g.legal_options())))
        self._apply_or_restore(option, "'%s'" % option)
        self.save()

    def advance(self) -> bool:
        """Play one bot move if a bot is to decide; True if one was played."""
        g = self.game
        if self.replay or g.finished:
            return False
        p = g.current_player()
        if p is None or not self.is_bot(p):
            return False
        bot = self._bot(p)
        # A bot's generator is part of the game: a save resumes it by asking the bot again at each
        # of its saved decisions, so a move that fails (in the bot or in the rules) must leave it
        # where it was, as the game is, or the game in memory and the resumed one go two ways.
        drawn = bot.rng.getstate()
        try:
            # (the bot's option is not named in a failure: it may be a secret one)
            self._apply_or_restore(bot.choose(g, p), "the move of %s (a bot)" % seat_name(p, g.s.humans))
        except BaseException:
            bot.rng.setstate(drawn)
            raise
        self.save()
        return True

    def _apply_or_restore(self, option: str, what: str) -> None:
        """Play ``option``; if the rules fail while playing it (E100: a bad index in a user's rule
        file), the game is put back as it was before it -- the engine stops part-way through a
        decision -- and the failure is the answer, with the rule's place, rather than a table
        left with nobody to decide.  Any other failure (a bug: a 500) puts it back too."""
        from provost.dsl.diagnostics import RulesError
        before = self.game.clone()          # (a copy: replaying a long game would stall the server)
        try:
            self._apply(option)
        except Exception as e:              # (any failure: a game left part-way is no game its save resumes)
            self.game = before
            if not isinstance(e, RulesError):
                raise
            raise play_failure(e, 409, "the rules fail while playing %s, so the game cannot go on this way" % what,
                               "The game is as it was before that move. ") from None

    def why_not(self, seat: int, option: str) -> str:
        g = self.game
        if g.current_player() != seat or self.replay or g.finished or self.is_bot(seat):
            raise TableError(409, "you have no decision to make now")
        if not option.strip():
            raise TableError(400, "ask about an option: its id, as on a button's tooltip (%s)"
                             % ", ".join(g.legal_options()[:3]))
        return self._explain(option)

    def _explain(self, option: str) -> str:
        """Why ``option`` is not legal, the seats named as the board names them, and the rules'
        files by their names: where the server keeps them is nobody's business on the page."""
        from provost.interpreter.explain import explain

        g = self.game
        humans = g.s.humans
        return files_named(explain(g, option, lambda p: seat_name(p, humans)), [*g.rs.files, *g.rs.chain])

    # ------------------------------------------------------------ the game log
    def game_log(self, named=None) -> str:
        """The finished game as a JSON Lines game log (``gamelog``), for ``provost replay``/``view``/``serve --replay``.

        Only once the game is over: the log holds every seat's choices, secret ones included.
        ``named`` (a rule file's absolute path -> how the seats know it: ``named_rules``) names the
        rules in the log's ``source``; without it they are named where the server keeps them.
        """
        import io

        from provost.interpreter.gamelog import GameLogWriter

        if not self.game.finished:
            raise TableError(409, "the game log is offered once the game is over (it holds every seat's choices)")
        source = {"ruleset": self.ruleset, "variant": self.variant}
        if named is not None:
            source = named_rules(source, named)
        buf = io.StringIO()
        w = GameLogWriter(buf, self.game, self.agents, source)
        for i, d in enumerate(self.decisions, 1):
            w.decision(i, d.player, d.option, d.round, d.phase)
        w.result(self.game)
        return buf.getvalue()

    # ------------------------------------------------------------ what a seat is sent
    def log_for(self, seat: int) -> list[dict]:
        names = Names(self.game.rs.decls)
        out = []
        for i, d in enumerate(self.decisions, 1):
            who = seat_name(d.player, self.game.s.humans)
            if seat in d.seen_by:
                text = d.labels[seat]
            else:
                text = "(hidden from you)"
            out.append({"n": i, "player": d.player, "who": who, "round": d.round,
                        "phase": names(d.phase) if d.phase else "setup",
                        "prompt": d.prompt, "text": text, "option": d.option if seat in d.seen_by else None})
        return out

    def view_at(self, seat: int, at: int | None = None) -> dict:
        """Seat's board now, or just before decision ``at`` (0 = the start)."""
        g = self.game
        if at is not None and at < len(self.decisions):
            from provost.interpreter.engine import Game
            # The rules this game is played on, not the file as it is now (edited since, or broken).
            g = Game.new(self.game.rs, players=self.players, seed=self.seed)
            for d in self.decisions[:max(0, at)]:
                g.apply(d.option)
        mine = g.current_player() == seat and not self.replay and at is None and not self.is_bot(seat)
        view = board_view(g.rs.decls, g.observation(seat), g.prompt() if mine else "",
                          g.legal_options() if mine else [], g.s.humans)
        if not mine and g.current_player() is not None:
            view["waiting_for"] = g.current_player()
            view["waiting_prompt"] = g.prompt() if g.current_player() == seat or self.replay else ""
        return view

    def state_for(self, seat: int, at: int | None = None) -> dict:
        g = self.game
        total = len(self.decisions)
        at = None if at is None or at >= total else max(0, at)
        view = self.view_at(seat, at)
        result = None
        if g.finished:
            r = g.result()
            result = {"scores": r.get("scores"), "winners": r.get("winners")}
        to_move = g.current_player()
        return {"gid": self.gid, "seat": seat, "spectator": seat == self.spectator, "agents": self.agents,
                "decisions": total,
                "at": total if at is None else at, "finished": g.finished, "replay": self.replay,
                "bot_to_move": bool(to_move is not None and not g.finished and self.is_bot(to_move) and not self.replay),
                "your_turn": bool(to_move == seat and not self.replay and not g.finished and at is None
                                  and not self.is_bot(seat)),
                "result": result, "view": view, "log": self.log_for(seat)}
