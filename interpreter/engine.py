"""The game: a compiled program plus a state, driven one decision at a time.

    g = Game.new(load_checked("caylus"), players=4, seed=1)
    while not g.finished:
        g.apply(g.legal_options()[0])

The engine only knows general mechanisms (counters, orders, spaces and
workers, tiles on a road, choices, triggers); every game-specific rule comes
from the rule file.
"""
from __future__ import annotations

import json
import operator
import os

from provost.dsl.diagnostics import Diagnostic, RulesError, explain, register
from provost.dsl.loader import Ruleset, default_players, load_checked, players_out_of_range  # noqa: F401 - part of the engine's API

from . import nodes as N
from . import rng
from .expressions import RuleRuntimeError
from .prims_pieces import own_piece, visible_value
from .program import Program, program_for
from .runtime import MAX_NUMBER, index_in, short_repr, too_large
from .state import GameFields, State
from .wrong_kind import in_rule_terms

ENGINE_VERSION = "3"     # 2: a piece records the decision it was placed in; 3: a choice whose payments
                         # read nothing hidden is no longer asked when one option is left (games change)

# The most frames the engine runs between two decisions before it calls the rules endless.  The
# shipped games need at most a few hundred; the budget turns a loop or recursion that never asks
# anyone anything into a positioned error (E100) within a second instead of a hang.
MAX_STEPS = 100_000
# The most decisions a game may take.  The shipped games take a few hundred; the budget turns a
# round of decisions that never ends (a `turns ... until all passed` whose options never pass)
# into a positioned error (E100) instead of a game played forever.
MAX_DECISIONS = 20_000

#: What an expression of the rules raises on a value of the wrong kind (E101).
_EXPRESSION_FAILURES = (TypeError, KeyError, IndexError, ZeroDivisionError, AttributeError)

register("E001", "error", "the ruleset does not allow this number of players")
register("E002", "error", "a saved game was played with other rules")
register("E003", "error", "the rule file a saved game names is gone")
register("E100", "error", "a rule failed while playing (a bad index, a missing value)")
register("E101", "error", "a rule met a value of the wrong kind while playing")
explain("E001", """
A game was asked for a number of players that the rules do not allow: the `players` of the game
declaration, and the counts a variant gives its own rules for (`for_players N`).

    provost play caylus --players 7   # error: caylus is for 3 to 5 players, not 7 (and for 2
                                      # players with their own rules)

Fix: choose a count the rules allow; `--players N` applies the variant for N players by itself
(`provost variants` marks them), or write one that says `for_players N`.""")
explain("E002", """
A saved game (`Game.to_json`) holds the state as its rules built it -- counters, cards, and the
place in the rules where play stopped, as positions in the compiled program -- and the digest of
those rules.  Resumed under other rules, that place would be another statement and the state
could miss what the new rules declare, so `Game.from_json` compares the digests and refuses.
A save from a rule file names the file; a save of a shipped ruleset (the rules of another
provost version) is reported at `<save>`.

    g2 = Game.from_json(saved)        # farm.rules was edited after the game was saved
    /home/ann/farm.rules:1:1: error: the rule file changed since the game was saved (digest 976cdefd72d50fce, now 3377f071bca1b13f) [E002]

Only positions moved (`provost fmt`, a comment, blank lines) is not a change: a save of rules
named by a path also carries their digest without positions, and resumes when that one matches.

Fix: resume with the rules the game was played with (`git stash` the edit, or install the
provost version that saved it), finish the game, then change the rules; a new game uses them.""")
explain("E003", """
A save from a rule file names that file by its absolute path, and every variant file by its
own, so that `Game.from_json` can resume it in any process from any folder.  The file is no
longer there, and a save never makes provost guess another.

    g2 = Game.from_json(saved)        # farm.rules was moved after the game was saved
    /home/ann/farm.rules:1:1: error: the rule file this game was saved with is gone [E003]

Fix: put the file back at that path, or give the rules where they are now:
`Game.from_json(saved, rs=load_checked("games/farm.rules"))` (`provost.dsl.loader`); they must
still be the same rules (E002).""")
explain("E100", """
A rule failed while the game was played, at the position shown: an index with no entry, a value
out of range, or a budget exceeded -- more than MAX_STEPS steps without a decision (a loop or
recursion that does not end), more than MAX_DECISIONS decisions in one game (a round of choices
none of which ends it: `turns ... until all passed` whose options never `pass_turn`), a range or
`multisets` result longer than MAX_LIST items, a number beyond MAX_NUMBER (10**15) or a list
longer than MAX_KEPT items kept in a counter without a max, a let or a zone (`set x = x * x` in a
loop), or more than MAX_WORK list items gone through by comprehensions (nested ones multiply)
between decisions.

    repeat while held(coin) >= 0:
        gain 1 coin        # error: the rules ran 100000 steps without asking anyone to decide

Fix: make the loop's condition reachable, or keep the lists a rule builds small.""")

explain("E101", """
A rule met a value it cannot work with while the game was played: `none` compared with a
number, a list where a name or a number is needed.  The checker gives every expression a type and
refuses such rules (T2xx), so a file that checks clean and fails with E101 has found a case the
checker does not cover yet.  The game stops at the statement that failed, and the message gives
what went wrong in the rule language's words where it can ("'<' compares none with a number"),
then Python's own (a TypeError, KeyError, IndexError or AttributeError), for a report.

    provost play g.rules --players 2 --seed 1      # checked clean
    g.rules:11:13: error: while playing: '<' compares none with a number (TypeError: '<' not supported between instances of 'NoneType' and 'int') [E101]
    11 |             gain 1 if [none] < [held(coin)] else 0 coin
       |             ^^^^

Fix: give the rule values of the kind it needs (here compare numbers: `held(coin) > 0`), and
report the file, so that the checker finds the mistake before play.""")


class IllegalOption(ValueError):
    """An option id that is not legal now; the state is unchanged."""

    def __init__(self, option, legal: list[str], player, reason: str = ""):
        # Every legal option is named, however many: a caller (or a script reading the message)
        # must be able to pick a legal one from the error alone.
        shown = ", ".join(legal) if legal else "none"
        who = " for player %s" % player if player is not None else ""      # none: no decision pending
        why = " (%s)" % reason if reason else ""
        named = "'%s'" % option if isinstance(option, str) else repr(option)
        super().__init__("%s is not a legal option%s now%s; legal options: %s" % (named, who, why, shown))
        self.option, self.legal, self.reason = option, legal, reason


def _copied(v):
    """A deep copy of plain data (dicts, lists, tuples of numbers and strings): a third of
    copy.deepcopy's cost, which an observation per decision makes worth it."""
    t = type(v)
    if t is dict:
        return {k: _copied(x) for k, x in v.items()}
    if t is list or t is tuple:
        return [_copied(x) for x in v]
    return v


def _count_only(v):
    """A hidden zone shows how many items it holds, never which."""
    if type(v) is dict:
        return {k: len(x) for k, x in v.items()}
    return len(v)



def _checked_players(players) -> int:
    """``players`` as an int (numpy's integers too), else a ValueError that says so, as a seed's is:
    a count given as text or a float is the caller's mistake, not a fault inside the rules."""
    try:
        value = operator.index(players) if not isinstance(players, bool) else None
    except TypeError:
        value = None
    if value is None:
        raise ValueError("players is a whole number of players, not %r" % (players,))
    return value

class Game(GameFields):
    __slots__ = ()

    # ------------------------------------------------------------ creation
    def __init__(self, rs: Ruleset, prog: Program, state: State, seed: int):
        self.rs, self.prog, self.s, self.seed = rs, prog, state, seed
        self.variant = rs.variant
        # Pieces by (kind, place), built on demand and kept up to date by the engine
        # (prims_pieces); a run starts by checking that nobody moved a piece since.
        self.piece_index = None
        self.work = 0               # list items the rules went through since the last decision (runtime.counted)

    @classmethod
    def new(cls, rs: Ruleset | str, players: int | None = None, seed: int | None = None,
            variant: str | None = None) -> "Game":
        """A new game; ``seed`` a whole number from 0 to 2**64 - 1, or None: one is drawn from the
        operating system (``game.seed`` reports it)."""
        seed = rng.fresh_seed() if seed is None else rng.checked_seed(seed)
        if players is not None:
            players = _checked_players(players)
        if variant is not None and not isinstance(variant, str):
            raise ValueError("variant is a variant's name or a variant file's path (several joined by '+'), not %r"
                             % (variant,))
        if isinstance(rs, os.PathLike):
            rs = os.fspath(rs)
        if isinstance(rs, str):
            rs = load_checked(rs, variant, players)
        elif not isinstance(rs, Ruleset):
            raise ValueError("rs is a ruleset's name, a rule file's path or a Ruleset (load_checked), not %r" % (rs,))
        elif variant is not None:       # (the rules' variants are applied already: it would be ignored)
            raise ValueError("variant %r with a Ruleset: load_checked(%r, %r) gives the rules with that variant"
                             % (variant, rs.name, variant))
        prog = program_for(rs)
        if players is None:
            players = default_players(rs)
        problem = players_out_of_range(rs, players)
        if problem:
            raise RulesError([Diagnostic(rs.chain[-1] if rs.chain else rs.name, 1, 1, "error", "E001", problem)])
        s = State(players + (prog.game.get("neutral_players") or 0))
        s.humans = players
        s.rng = rng.seed_state(seed, players)
        g = cls(rs, prog, s, seed)
        g._init_state()
        g._run()
        return g

    def _init_state(self):
        s, prog, n = self.s, self.prog, self.s.players
        for name, c in prog.counters.items():
            size = len(prog.enums[c["by"]]) if c["by"] else None
            start = c["start"]
            if c["scope"] == "player":
                s.counters[name] = [[start] * size if size else start for _ in range(n)]
            else:
                s.counters[name] = [start] * size if size else start
        for name in prog.orders:
            s.orders[name] = list(range(s.humans)) if name == "turn_order" else []
        for name in prog.zones:
            s.zones[name] = prog.empty_zone(name, n)
        for name, d in prog.pieces.items():
            for p in range(n):
                neutral = p >= s.humans and d.get("neutral_values")
                for v in (d["neutral_values"] if neutral else d["values"]):
                    s.pieces.append([name, p, v, d["start"], 0, 0, 0])
                for v in d.get("reserve", []):
                    s.pieces.append([name, p, v, "reserve", 1, 0, 0])     # set aside in view of all
        s.road = [None] * (prog.road_length + 1)
        for name, b in prog.buildings.items():
            if b["at"] is not None:
                self._place_tile(name, b["at"], -1)
            else:
                s.supply[name] = -1 if b["count"] == "unlimited" else b["count"]
        if "turn_order" not in s.orders:
            s.orders["turn_order"] = list(range(s.humans))
        s.stack = [[prog.root_id, 0, {"player": None}, None]]

    # ------------------------------------------------------------ the decision API
    @property
    def finished(self) -> bool:
        return self.s.finished

    def current_player(self):
        return self.s.pending["player"] if self.s.pending else None

    def legal_options(self) -> list[str]:
        return list(self.s.pending["options"]) if self.s.pending else []

    def prompt(self) -> str:
        return self.s.pending["prompt"] if self.s.pending else ""

    def apply(self, option: str) -> None:
        s = self.s
        pend = s.pending
        at = index_in(pend["options"], option) if pend is not None else -1
        if at < 0:                            # no decision pending, or not one of its options
            legal, player = (pend["options"], pend["player"]) if pend else ([], None)
            if type(option) is not str:
                # Not an id at all (None, a number, a list): say so rather than explain it.
                raise IllegalOption(option, legal, player, "an option id is a string, not %s"
                                    % type(option).__name__)
            from .explain import explain
            raise IllegalOption(option, legal, player, explain(self, option))
        frame = s.stack[-1]
        if s.decisions >= MAX_DECISIONS:       # (the state unchanged: the error names the decision)
            raise self._failed(RuleRuntimeError("the game has taken %d decisions without ending: a round of "
                                                "choices none of which leads on?" % MAX_DECISIONS), frame[0])
        entry = frame[3][at]
        s.pending = None
        s.decisions += 1
        node = self.prog.nodes[frame[0]]
        node.choose(self, frame, entry)
        self._run()

    def ask(self, player, prompt, options, node):
        self.s.pending = {"player": player, "prompt": prompt, "options": options}

    def _run(self):
        s = self.s
        self.work = 0
        ix = self.piece_index
        if ix is not None:
            ix.checked = False          # checked where the run first uses it (prims_pieces)
        nodes = self.prog.nodes
        stack = s.stack
        limit = MAX_STEPS               # a C integer compiled: the loop below is a C loop
        node = None
        try:
            for step in range(limit):
                if not stack or s.pending is not None:
                    break
                f = stack[-1]
                at = f[0]                   # compiled, a C index: the node is read directly
                node = nodes[at]
                node.run(self, f)
            else:
                if stack and s.pending is None:
                    node = nodes[stack[-1][0]]
                    raise RuleRuntimeError(
                        "the rules ran %d steps without asking anyone to decide: a loop or a chain of "
                        "calls that does not end?" % MAX_STEPS, getattr(node, "pos", None))
        except RuleRuntimeError as e:
            raise self._failed(e, self._failing(node, stack)) from None
        except (TypeError, KeyError, IndexError, ZeroDivisionError, AttributeError) as e:
            # A value of the wrong kind met an operator: a mistake in the rules the checker could not see.
            top = self._failing(node, stack)
            pos = getattr(self.prog.nodes[top] if top is not None else None, "pos", None) or [1, 1]
            raise RulesError([Diagnostic(self._file_of_node(top), pos[0], pos[1],
                                         "error", "E101", "while playing: " + in_rule_terms(e))]) from None

    @staticmethod
    def _failing(node, stack):
        """The node a failure is reported at: an Atom that failed has already popped its own frame
        (a block of one statement runs it without a Seq, which would push it back), so it is the
        node itself; otherwise the frame on top of the stack."""
        if type(node) is N.Atom:
            return node.id
        return stack[-1][0] if stack else None

    def _failed(self, e: RuleRuntimeError, top) -> RulesError:
        """A rule's failure while playing (E100), at its own position or else at node ``top``'s."""
        pos = e.pos or getattr(self.prog.nodes[top] if top is not None else None, "pos", None) or [1, 1]
        where = self.rs.file_at(e.pos) if e.pos else self._file_of_node(top)
        return RulesError([Diagnostic(where, pos[0], pos[1], "error", "E100", "while playing: %s" % e)])

    def _file_of_node(self, node_id) -> str:
        node = self.prog.nodes[node_id] if node_id is not None else None
        return self.rs.file_at(getattr(node, "pos", None))

    # ------------------------------------------------------------ referee tools (scenarios, tests, tutorials)
    def start_phase(self, name: str) -> None:
        """Abandon the current control position and run phase ``name`` next, then the rest of its round."""
        prog, s = self.prog, self.s
        if name not in prog.phase_nodes:
            raise KeyError("no phase '%s' (phases: %s)" % (name, ", ".join(prog.phase_nodes)))
        s.pending = None
        i = prog.rounds.index(name) if name in prog.rounds else len(prog.rounds)
        s.stack = [[prog.root_id, 2, {"player": None}, i + 1]]
        s.phase = name
        self.reset("phase")
        s.stack.append([prog.phase_nodes[name], 0, {"player": None}, None])
        self._run()

    def run_effect(self, name: str, player: int, *args) -> None:
        """Run a named effect for a player on top of the current position (scenarios and tests)."""
        prog, s = self.prog, self.s
        d = prog.effects[name]
        env = {"player": player, **dict(zip(d["params"], args))}
        s.pending = None
        s.stack.append([prog.effect_nodes[name], 0, env, None])
        self._run()

    def put_tile(self, kind: str, slot: int, owner: int | None = None) -> str:
        """Put a tile from the supply on a road slot (replacing what is there)."""
        s = self.s
        if s.road[slot] is not None:
            self._remove_tile(s.road[slot])
        if s.supply.get(kind, 0) > 0:
            s.supply[kind] -= 1
        return self._place_tile(kind, slot, -1 if owner is None else owner)

    # ------------------------------------------------------------ results
    def scores(self) -> list[int]:
        """Every seat's score in seat order, the neutral seats (played by the rules) last."""
        return list(self.s.counters[self.prog.score])

    def public_scores(self) -> list:
        """The scores as every seat may see them: None for each score the rules keep from the
        other players (Caylus 1303's prestige points) until the game is over."""
        hidden = self.prog.counters[self.prog.score].get("visible", "public") != "public"
        return [None] * self.s.players if hidden and not self.s.finished else self.scores()

    def winners(self) -> list[int]:
        """The deciding players with the best score; the game's tiebreak decides among them, else
        they share.  Neutral players are a device of the rules (Ys for 2): they score, never win."""
        sc = self.scores()[:self.s.humans]
        best = max(sc)
        tied = [i for i, v in enumerate(sc) if v == best]
        if len(tied) > 1 and self.prog.tiebreak is not None:
            try:
                keys = {i: self.prog.tiebreak(self, {"player": i}) for i in tied}
            except RuleRuntimeError as e:
                raise self._game_failure("tiebreak", "E100", e, e.pos) from None
            except _EXPRESSION_FAILURES as e:
                raise self._game_failure("tiebreak", "E101", in_rule_terms(e)) from None
            for i, v in keys.items():
                if type(v) is not int and type(v) is not bool:
                    raise self._game_failure("tiebreak", "E101", "the tiebreak gives %s for player %d; it must "
                                             "give a number" % (short_repr(v), i))
            top = max(keys.values())
            tied = [i for i in tied if keys[i] == top]
        return tied

    def result(self) -> dict:
        """The outcome as reports give it: ``scores`` of the deciding seats (``players`` of them),
        ``neutral_scores`` of the neutral seats, ``winners`` (deciding seats), ``rounds``, ``decisions``."""
        sc, n = self.scores(), self.s.humans
        return {"scores": sc[:n], "neutral_scores": sc[n:], "winners": self.winners(),
                "rounds": self.s.round, "decisions": self.s.decisions}

    def ended(self):
        if self.prog.ends_if is None:
            return False
        try:
            return bool(self.prog.ends_if(self, {"player": None}))
        except _EXPRESSION_FAILURES as e:
            # At the game's `ends_if` line, not at the game's head where the round is running.
            raise self._game_failure("ends_if", "E101", in_rule_terms(e)) from None

    def _game_failure(self, attribute: str, code: str, message, pos=None) -> RulesError:
        """A failure of the game's ``ends_if`` or ``tiebreak`` expression, at its own position."""
        pos = pos or self.prog.game[attribute].get("pos") or [1, 1]
        return RulesError([Diagnostic(self.rs.file_at(pos), pos[0], pos[1], "error", code,
                                      "while playing: %s" % (message,))])

    # ------------------------------------------------------------ save, resume, clone
    def to_json(self) -> str:
        saved = {"engine": ENGINE_VERSION, "ruleset": self.rs.name, "variant": self.rs.variant_source or self.rs.variant,
                 "digest": self.rs.digest, "seed": self.seed, "state": self.s.to_dict(self.prog.saved_data)}
        if self.rs.source_path:
            saved["path"] = self.rs.source_path    # rules from a file: resume from that file
        if self.rs.names_user_files():
            # The user's files may be laid out again (fmt, a comment) before the game resumes.
            saved["digest_without_positions"] = self.rs.digest_without_positions()
        return json.dumps(saved, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str, rs: Ruleset | None = None) -> "Game":
        """Resume a saved game; without ``rs`` the rules are loaded as the save names them (a
        shipped name, or its ``path`` when that is a rule file), and must be unchanged.  A save
        is untrusted input: anything wrong with it is a RulesError (E002, E003, E004), never a
        Python exception or a corrupted game (`provost.interpreter.savefile`)."""
        from . import savefile
        d = savefile.parse(text)
        if rs is None:
            rs = savefile.rules_of(d, load_checked)
        if not rs.matches_digests(d["digest"], d.get("digest_without_positions")):
            raise savefile.rules_changed(d, rs)
        prog = program_for(rs)
        savefile.check_state(d["state"], prog)
        try:
            game = cls(rs, prog, State.from_dict(d["state"], prog.loaded_data), d["seed"])
        except (KeyError, IndexError, TypeError, ValueError) as e:
            raise savefile.damaged("its state cannot be rebuilt (%s)" % type(e).__name__) from None
        savefile.probe(game)
        return game

    def clone(self, shared: bool = False) -> "Game":
        """An independent copy of the game; ``shared``: one that shares the state's lists with
        this game until the engine changes them (`State.clone`), for searches, which play
        clones through ``apply`` and never edit a state by hand."""
        g = Game(self.rs, self.prog, self.s.clone(shared), self.seed)
        ix = self.piece_index
        if ix is not None and ix.still_valid(self.s.pieces):
            # A search clones at every option: the copy's pieces are where the index has them.
            g.piece_index = ix.for_copy(g.s.pieces)
        return g

    def determinize(self, viewer: int, seed: int) -> "Game":
        """A clone in which everything hidden from ``viewer`` is re-dealt at random.

        Bots that search by playing clones forward (greedy, MCTS) use this so that
        they never act on what their seat cannot see: the values of other seats'
        face-down or screened pieces are shuffled among those pieces, hidden zones
        (decks, other players' hands) are shuffled among themselves keeping their
        sizes, and the random state is replaced, so future draws are unknown too.
        """
        g = self.clone(shared=True)
        s = g.s
        st = rng.seed_state(seed)
        groups: dict = {}
        for i, pc in enumerate(s.pieces):
            if visible_value(g, pc, viewer) is None:
                key = (pc[0], pc[1])
                if pc[1] >= s.humans:
                    # A neutral player's unplaced pieces are known to all through the rules that
                    # place them: only its pieces already on the board are re-dealt.
                    key += (pc[3] in self.prog.pieces[pc[0]]["private"],)
                groups.setdefault(key, []).append(i)
        for at in groups.values():
            values = [s.pieces[i][2] for i in at]
            st = rng.shuffle(st, values)
            for i, v in zip(at, values):
                own_piece(g, i)[2] = v
        for name, z in self.prog.zones.items():
            # The hidden lists of one zone (a deck, the other players' hands) are dealt anew
            # from their common pool; zones never mix.
            v = s.own_zone(name) if z["visible"] != "public" else s.zones[name]
            parts = v if z["scope"] == "player" else [v]
            hidden: list = []
            for owner, part in enumerate(parts):
                if z["visible"] == "public" or (z["visible"] == "owner" and z["scope"] == "player" and owner == viewer):
                    continue
                hidden.extend(part.values() if type(part) is dict else [part])
            pool = [x for lst in hidden for x in lst]
            st = rng.shuffle(st, pool)
            for lst in hidden:
                k = len(lst)
                lst[:], pool = pool[:k], pool[k:]
        s.rng = rng.next_u64(st)[1]
        return g

    def observation(self, player: int) -> dict:
        """What ``player`` may see: everything public, nothing hidden from them.  The seat after
        the last (``game.s.players``, neutral seats included) is a spectator: what every seat may see."""
        s = self.s
        try:
            seat = operator.index(player) if not isinstance(player, bool) else -1
        except TypeError:
            seat = -1
        if not 0 <= seat <= s.players:       # -1 shifted the pieces' seen bits the wrong way
            raise ValueError("a seat is a whole number from 0 to %d (%d: a spectator), not %r"
                             % (s.players, s.players, player))
        player = seat
        counters = {}
        # A finished game's result is announced: the score counter is public then, even where
        # it was kept from the other players (Caylus 1303: "Players reveal their Prestige Points").
        announced = self.prog.score if s.finished else None
        for name, c in self.prog.counters.items():
            vis = c.get("visible", "public")
            v = s.counters[name]
            if vis == "public" or name == announced:
                counters[name] = v
            elif vis == "owner" and c["scope"] == "player":
                counters[name] = [x if i == player else None for i, x in enumerate(v)]
        zones = {}
        for name, z in self.prog.zones.items():
            v = s.zones[name]
            if z["scope"] == "player":
                zones[name] = [x if (z["visible"] == "public" or (z["visible"] == "owner" and i == player))
                               else _count_only(x) for i, x in enumerate(v)]
            else:
                zones[name] = v if z["visible"] == "public" else _count_only(v)
        pieces = [[pc[0], pc[1], visible_value(self, pc, player), pc[3], pc[4]] for pc in s.pieces
                  if pc[1] == player or pc[3] not in self.prog.pieces[pc[0]]["private"]]
        # In a canonical order: the state keeps pieces in creation order, which follows their
        # values, so listing them as stored would hint at a face-down piece's value.
        pieces.sort(key=lambda x: (x[0], x[1], x[3], x[4], -1 if x[2] is None else x[2]))
        hidden_counts: dict = {}
        for pc in s.pieces:
            if pc[1] != player and pc[3] in self.prog.pieces[pc[0]]["private"]:
                key = "%s:%d:%s" % (pc[0], pc[1], pc[3])
                hidden_counts[key] = hidden_counts.get(key, 0) + 1
        # Keyed in sorted order, not in the order met: that follows the pieces' values too (which
        # private place holds an owner's smallest broker: a secret bid of 0 or not).
        hidden_counts = dict(sorted(hidden_counts.items()))
        # A copy throughout: a caller that edits its view (an adapter, a bot) must not edit the game.
        return _copied({"player": player, "round": s.round, "phase": s.phase, "counters": counters,
                        "zones": zones, "pieces": pieces, "private_piece_counts": hidden_counts,
                        "orders": s.orders, "occupants": s.occ, "road": s.road, "tiles": s.tiles,
                        "supply": s.supply, "to_move": self.current_player(),
                        "options": self.legal_options() if self.current_player() == player else []})

    # ------------------------------------------------------------ primitives: resources
    # The primitives below write the state's lists; one never cloned owns them all (``owned`` is
    # None), so the most frequent ones test that before asking for the list (`State.own_*`).
    def gain(self, p, amounts):
        s, bounds = self.s, self.prog.counter_bounds
        for res, n in amounts:
            row = s.counters[res] if s.owned is None else s.own_counter(res)
            v = row[p] + n
            lo, hi = bounds[res]         # MAX_NUMBER where the rules give none (Program.counter_bounds)
            if v > hi:
                if hi == MAX_NUMBER:
                    raise too_large(v, "'%s' of player %d" % (res, p))
                v = hi
            if v < lo:
                if lo == -MAX_NUMBER:
                    raise too_large(v, "'%s' of player %d" % (res, p))
                v = lo
            row[p] = v

    def pay(self, p, amounts, pos=None):
        s = self.s
        for res, n in amounts:
            if s.counters[res][p] < n:
                raise RuleRuntimeError("player %d cannot pay %d %s" % (p, n, res), pos)
        for res, n in amounts:
            row = s.counters[res] if s.owned is None else s.own_counter(res)
            if n < 0 and row[p] - n > MAX_NUMBER:       # a payment of less than nothing is a gain
                raise too_large(row[p] - n, "'%s' of player %d" % (res, p))
            row[p] -= n

    def lose(self, p, amounts):
        self.gain(p, [(r, -n) for r, n in amounts])

    # ------------------------------------------------------------ primitives: turns and orders
    def pass_turn(self, p, order):
        for f in reversed(self.s.stack):
            if isinstance(self.prog.nodes[f[0]], N.Turns) and f[3] is not None:
                passed = N.Turns.passed(f)
                if p not in passed:
                    passed.append(p)
                break
        if order is not None and p not in self.s.orders[order]:
            self.s.own_order(order).append(p)

    def move_in_order(self, order, p, place):
        lst = self.s.own_order(order)
        if p in lst:
            lst.remove(p)
        lst.insert(max(0, min(len(lst), place - 1)), p)

    def shuffle_order(self, order):
        self.s.rng = rng.shuffle(self.s.rng, self.s.own_order(order))

    def reset(self, when):
        s = self.s
        counters, orders, zones = self.prog.resets(when)
        for name, start, per_player in counters:
            v = s.counters[name]
            if per_player:
                s.counters[name] = [[start] * len(x) if type(x) is list else start for x in v]
            else:
                s.counters[name] = [start] * len(v) if type(v) is list else start
        for name in orders:
            s.orders[name] = []
        for name in zones:
            s.zones[name] = self.prog.empty_zone(name, s.players)

    # ------------------------------------------------------------ primitives: workers and spaces
    def open_spaces(self, p) -> list:
        s = self.s
        occ = s.occ
        out = []
        prog = self.prog
        for name, slots, per_player in prog.placeable_spaces:
            here = occ.get(name)
            if here:
                if 0 <= slots <= len(here):       # slots < 0: unlimited
                    continue
                if per_player is not None and here.count(p) >= per_player:
                    continue
            out.append(name)
        workable, tiles = prog.workable_kinds, s.tiles
        for t in s.road:
            if t is not None and not occ.get(t) and tiles[t][0] in workable:
                out.append(t)
        return out

    def place_worker(self, p, target):
        s = self.s
        if s.owned is None:
            s.counters["workers"][p] -= 1
            s.occ.setdefault(target, []).append(p)
        else:
            s.own_counter("workers")[p] -= 1
            s.own_occupants(target, True).append(p)
        self.emit("worker_placed", p, target)

    def move_worker(self, p, src, dst):
        here = self.s.own_occupants(src) or []
        if p in here:
            here.remove(p)
        self.s.own_occupants(dst, True).append(p)
        self.emit("worker_placed", p, dst)
        if not here:
            self._vacated(src)

    def return_one(self, where, p):
        here = self.s.occ.get(where)
        if here and p in here:
            here = self.s.own_occupants(where)
            here.remove(p)
            self.s.own_counter(self.prog.worker_home)[p] += 1
            if not here:
                self._vacated(where)

    def return_all(self, where):
        here = self.s.occ.get(where)
        if here:
            w = self.s.own_counter(self.prog.worker_home)
            for p in here:
                w[p] += 1
            self.s.occ[where] = []
            self._vacated(where)

    def return_road_beyond(self, upto):
        road = self.s.road
        for i in range(upto + 1, len(road)):
            if road[i] is not None:
                self.return_all(road[i])

    def return_road_before(self, first):
        road = self.s.road
        for i in range(1, min(first, len(road))):
            if road[i] is not None:
                self.return_all(road[i])

    def owner_of(self, where):
        t = self.s.tiles.get(where)
        return t[1] if t is not None else -1

    def work_body(self, where):
        t = self.s.tiles.get(where)
        return self.prog.work_nodes.get(t[0] if t is not None else where)

    def defer_until_vacant(self, target, body, env):
        if self.s.occ.get(target):
            self.s.deferred.append([target, body, dict(env)])
        else:
            self.s.stack.append([body, 0, env, None])

    def _vacated(self, where):
        if not self.s.deferred:
            return
        keep, fire = [], []
        for d in self.s.deferred:
            (fire if d[0] == where else keep).append(d)
        self.s.deferred = keep
        for target, body, env in reversed(fire):
            self.s.stack.append([body, 0, env, None])

    def emit(self, event, player, target):
        for node in reversed(self.prog.triggers.get(event, ())):
            self.s.stack.append([node, 0, {"player": player, "target": target}, None])

    # ------------------------------------------------------------ primitives: tiles
    def _instance_name(self, kind) -> str:
        tiles = self.s.tiles
        if kind not in tiles:
            return kind
        k = 2
        while "%s_%d" % (kind, k) in tiles:
            k += 1
        return "%s_%d" % (kind, k)

    def _place_tile(self, kind, slot, owner) -> str:
        name = self._instance_name(kind)
        self.s.tiles[name] = [kind, owner]
        self.s.road[slot] = name
        return name

    def _remove_tile(self, inst):
        s = self.s
        kind, owner = s.tiles.pop(inst)
        slot = s.road.index(inst)
        s.road[slot] = None
        cat = self.prog.categories.get(self.prog.buildings[kind]["category"], {})
        if owner >= 0 and cat.get("removed_to") == "supply" and s.supply.get(kind, 0) >= 0:
            s.supply[kind] = s.supply.get(kind, 0) + 1
        return slot

    def deal_tiles(self, category, slots):
        s, prog = self.s, self.prog
        kinds = []
        for name, b in prog.buildings.items():
            if b["category"] == category and s.supply.get(name, 0) > 0:
                kinds.extend([name] * s.supply[name])
        s.rng = rng.shuffle(s.rng, kinds)
        for slot, kind in zip(slots, kinds):
            if 0 < slot < len(s.road) and s.road[slot] is None:
                s.supply[kind] -= 1
                self._place_tile(kind, slot, -1)

    def first_free_slot(self):
        road = self.s.road
        for i in range(1, len(road)):
            if road[i] is None:
                return i
        return None

    def build_options(self, p, category, discount) -> list:
        """[[id, (kind, payment, onto)]] for every tile of the category the player can build now."""
        s, prog = self.s, self.prog
        cat = prog.categories.get(category)
        if cat is None:
            return []
        onto_cat = cat.get("built_on")
        if onto_cat:
            sites = [t for t in s.road if t is not None and s.tiles[t][1] == p
                     and prog.buildings[s.tiles[t][0]]["category"] == onto_cat]
        else:
            sites = [None] if self.first_free_slot() is not None else []
        if not sites:
            return []
        have = {r: s.counters[r][p] for r in prog.resources}
        out = []
        for kind, b in prog.buildings_of.get(category, ()):
            if s.supply.get(kind, 0) == 0:  # -1: unlimited
                continue
            for label, payment in self._payments(b["cost"], discount, have):
                for site in sites:
                    oid = "build:" + kind + ("/" + label if label else "") + ("@" + site if site else "")
                    out.append([oid, [kind, payment, site]])
        return out

    def _payments(self, cost, discount, have):
        """Ways to pay a cost that ``have`` affords: [(label, {resource: n})], the label naming
        the resources chosen for 'any of' amounts ("" when there is no choice)."""
        out = []
        for label, pay in self._payment_ways(cost, discount):
            if _affords(have, pay):
                out.append((label, dict(pay)))
        return out

    def _payment_ways(self, cost, discount) -> list:
        """Every way to pay a cost less a discount, in the order options list them, each way of
        paying once: fixed amounts, plus a choice of resource for 'any of' amounts.  Kept by the
        program when the choices' lists follow from the rules alone (a building's work lists
        them once, not at every build)."""
        prog = self.prog
        key = (id(cost), tuple(sorted(discount.items())))
        ways = prog.payment_ways.get(key)
        if ways is not None:
            return ways
        fixed: dict = {}
        choices = []
        left = dict(discount)
        static = True
        for a in cost:
            n = a["n"]["v"] if a["n"]["e"] == "int" else 1
            what = a["what"]
            if what in prog.resources:
                cut = min(n, left.get(what, 0))
                left[what] = left.get(what, 0) - cut
                if n - cut:
                    fixed[what] = fixed.get(what, 0) + n - cut
            else:
                options = prog.let_value(what)(self, {"player": None})
                choices.append((n, options))
                static = static and prog.let_is_static(what)
        results = [("", fixed)]
        for n, options in choices:
            nxt = []
            for label, pay in results:
                for r in options:
                    cut = min(n, left.get(r, 0))
                    need = dict(pay)
                    if n - cut:
                        need[r] = need.get(r, 0) + n - cut
                    nxt.append(((label + "+" if label else "") + r, need))
            results = nxt
        # Two ways that pay the same are one option (the first label names it): whether the
        # player can afford a way depends on what it pays alone.
        seen, ways = set(), []
        for label, pay in results:
            key_pay = tuple(sorted(pay.items()))
            if key_pay not in seen:
                seen.add(key_pay)
                ways.append((label if choices else "", pay))
        if static:
            prog.payment_ways[key] = ways
        return ways

    def do_build(self, p, spec):
        kind, payment, site = spec
        s, prog = self.s, self.prog
        for r, n in payment.items():
            s.own_counter(r)[p] -= n
        if site is not None:
            slot = self._remove_tile(site)
        else:
            slot = self.first_free_slot()
        if s.supply.get(kind, 0) > 0:
            s.supply[kind] -= 1
        inst = self._place_tile(kind, slot, p)
        b = prog.buildings[kind]
        self.gain(p, [(prog.score, b["prestige"])])
        node = prog.on_build_nodes.get(kind)
        if node is not None:
            s.stack.append([node, 0, {"player": p, "self": inst}, None])
        self.emit("tile_built", p, inst)

    def transform_tile(self, p, target, kind):
        if target not in self.s.tiles:
            return
        slot = self._remove_tile(target)
        inst = self._place_tile(kind, slot, p)
        self.gain(p, [(self.prog.score, self.prog.buildings[kind]["prestige"])])
        node = self.prog.on_build_nodes.get(kind)
        if node is not None:
            self.s.stack.append([node, 0, {"player": p, "self": inst}, None])


def _affords(have: dict, pay: dict) -> bool:
    """Whether ``have`` (resource -> amount) holds every amount of ``pay``."""
    for r, k in pay.items():
        if have.get(r, 0) < k:
            return False
    return True
