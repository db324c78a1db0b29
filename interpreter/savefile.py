"""A saved game is untrusted input: it is checked before it is used.

``Game.from_json`` calls, in order:

1. ``parse`` -- the text within a size limit, JSON (a nesting too deep for the parser is an error,
   not a crash), then the save schema (``save.schema.json``, JSON Schema 2020-12): every key,
   type and range; and what the schema cannot say: whole numbers only (it takes 1.0 for an
   integer), nesting at most MAX_DEPTH deep.  A save of an older engine is brought up to date here.
2. ``rules_of`` -- the rules the save names, read only where that is safe: a shipped ruleset by
   its name, or the save's ``path`` when it is a rule file (``.rules``, ``.json``, ``.yaml``); the
   caller may pass the rules instead.  A save never makes provost read any other file, and the
   digest is compared before the rules are used.
3. ``check_state`` -- the state against the compiled rules: every counter, zone and piece the
   rules declare and nothing else, with the shapes the rules give them (a zone's lists of cards,
   each seat's pieces with exactly the values the rules deal it), numbers within the engine's
   MAX_NUMBER, seats in range, workers and waiting effects on places of the rules, frames that
   point at nodes of the program and nest no deeper than rules do, the game's own flow as the
   first frame, and the bindings the frames use and no others.
4. ``probe`` -- every option of the pending decision applied to a copy, whose state must pass
   ``check_state`` in turn: a state damaged in a way the checks above cannot see (a choice in
   progress whose values are not the rules') fails here, as a damaged save, instead of in the
   player's hands.

Every problem is a ``RulesError`` with code E004 at ``<save>`` naming what is wrong and where
(``state.counters.pp``), never a raw Python exception and never a silently corrupted game.
"""
from __future__ import annotations

import json
import os
from functools import lru_cache
from importlib import resources

from provost.dsl.diagnostics import Diagnostic, RulesError, explain, register
from provost.dsl.schema import MAX_IR_DEPTH, compile_schema
from provost.dsl.source import IR_SUFFIXES

from .runtime import MAX_NUMBER

register("E004", "error", "a saved game is damaged, or is not a saved game")
explain("E004", """
A saved game is untrusted input: before `Game.from_json` resumes it, it is checked against the
save's JSON Schema and then against the rules (every counter, zone and piece they declare, the
pieces each seat was dealt, every option of the pending decision tried on a copy).  A save that
was cut short, edited by hand, or is some other file fails one of these checks, and resuming it
would play on from a state that no game of these rules reaches.  The message says which part is
wrong.

    g2 = Game.from_json(text)         # 'pp' edited to one number for both seats
    <save>:1:1: error: the saved game is damaged: state.counters.pp: expected one value per seat (2) [E004]

Fix: resume from the text `to_json` wrote, unchanged; to reach a position, play the decisions of
the game's log again (each `decision` line's `option`, given to `apply`) instead of editing the
state.""")

MAX_BYTES = 32 * 1024 * 1024
# The deepest nesting a save may hold: a value in a frame's bindings nests at most as deep as the
# rules that built it (MAX_IR_DEPTH; the shipped games' saves nest 8 deep), and far deeper ones
# would exhaust Python's recursion where the state is copied, so they are refused here, where the
# error can still say so.  Frames nest no deeper than the rules either.
MAX_DEPTH = MAX_IR_DEPTH + 32
RULE_FILE_SUFFIXES = (".rules",) + IR_SUFFIXES
WHERE = "<save>"


def damaged(message: str) -> RulesError:
    return RulesError([Diagnostic(WHERE, 1, 1, "error", "E004", "the saved game is damaged: " + message)])


@lru_cache(maxsize=1)
def _schema() -> dict:
    return json.loads(resources.files(__package__).joinpath("save.schema.json").read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def _compiled_check():
    """The save schema compiled by the checker's own validator (``provost.dsl.schema``): a valid
    save, the usual case, is accepted in a few hundred microseconds, where walking it with
    ``jsonschema`` took most of the 7 ms of a resume."""
    return compile_schema(_schema())


@lru_cache(maxsize=1)
def _validator():
    """``jsonschema``'s validator, for the messages of a save the fast check rejected."""
    import jsonschema
    return jsonschema.Draft202012Validator(_schema())


def _where(path) -> str:
    return ".".join(str(p) for p in path) or "the top level"


def parse(text) -> dict:
    """The save as a checked dict (schema, size, nesting), brought up to the current engine."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise damaged("it is not UTF-8 text") from None
    if not isinstance(text, str):
        raise damaged("expected the text of a save, got %s" % type(text).__name__)
    if len(text) > MAX_BYTES:
        raise damaged("it is %d bytes long; the limit is %d" % (len(text), MAX_BYTES))
    try:
        d = json.loads(text)
    except RecursionError:
        raise damaged("it is nested too deeply") from None
    except ValueError as e:
        raise damaged("it is not JSON (%s)" % e) from None
    try:
        error = None if _compiled_check()(d, None, None) else \
            next(iter(sorted(_validator().iter_errors(d), key=lambda e: list(e.path))), None)
    except RecursionError:
        raise damaged("it is nested too deeply") from None
    if error is not None:
        raise damaged("%s: %s" % (_where(error.path), _short(error.message)))
    problem = _shape_problem(d)
    if problem:
        raise damaged(problem)
    if d["engine"] == "1":          # pieces gained the decision they were placed in: unknown, 0
        for pc in d["state"]["pieces"]:
            pc.insert(6, 0)
        d["engine"] = "2"
    if d["engine"] == "2":          # the same layout: engine 3 plays some choices differently
        d["engine"] = "3"
    return d


def _shape_problem(d) -> str | None:
    """What the schema cannot say: nesting deeper than MAX_DEPTH anywhere (a frame's bindings are
    free-form), and a number with a fraction or exponent (JSON Schema takes 1.0 for an integer;
    the engine counts in whole numbers only and never writes one)."""
    return None if _shape_ok(d) else _shape_problem_where(d)


def _shape_ok(d) -> bool:
    """``_shape_problem``'s test alone, without the paths that say where: a valid save is walked
    once, quickly."""
    todo = [(d, 0)]
    while todo:
        v, depth = todo.pop()
        for x in (v.values() if type(v) is dict else v):
            t = type(x)
            if t is dict or t is list:
                if depth + 1 >= MAX_DEPTH:
                    return False
                todo.append((x, depth + 1))
            elif t is float:
                return False
    return True


def _shape_problem_where(d) -> str | None:
    todo = [(d, (), 0)]
    while todo:
        v, path, depth = todo.pop()
        t = type(v)
        if t is float:
            return "%s: %r is not a whole number" % (_where(path), v)
        if t is dict or t is list:
            if depth >= MAX_DEPTH:
                return "%s: it is nested too deeply (more than %d levels)" % (_where(path[:6]) + "...", MAX_DEPTH)
            todo.extend((x, path + (k,), depth + 1) for k, x in (v.items() if t is dict else enumerate(v)))
    return None


def _short(message: str, limit: int = 160) -> str:
    return message if len(message) <= limit else message[:limit] + "..."


def is_rule_file_name(path: str) -> bool:
    """Whether PATH names a rule file by its suffix: the only files a save or a log may name."""
    return path.lower().endswith(RULE_FILE_SUFFIXES)


def refuse_variant_files(variant: str, where: str, code: str, gone_code: str) -> None:
    """A RulesError unless every variant file ``variant`` names by a path is a rule file
    (``code`` at ``where``) that exists (``gone_code``): a save or a log never makes provost read
    another file."""
    from provost.dsl.compose import split_variants
    from provost.dsl.source import is_bare_name
    for name in split_variants(variant):
        if is_bare_name(name):
            continue
        if not is_rule_file_name(name):
            raise RulesError([Diagnostic(where, 1, 1, "error", code, "its variant %r is not a rule file (%s)"
                                         % (name, ", ".join(RULE_FILE_SUFFIXES)))])
        if not os.path.isfile(name):
            raise RulesError([Diagnostic(name, 1, 1, "error", gone_code,
                                         "the variant file this game was played with is gone")])


def rules_of(d: dict, load_checked):
    """The rules the save names, loaded only where it is safe (module docstring)."""
    from provost.dsl.compose import names_a_file
    if d["variant"] is not None:
        refuse_variant_files(d["variant"], WHERE, "E004", "E003")
    # Variant files are named as they were asked for, without the rules for the player count put
    # under them (`players=N`): loaded for the save's count, they are put there again.
    players = d["state"]["humans"] if names_a_file(d["variant"]) else None
    path = d.get("path")
    if path is not None:
        if not is_rule_file_name(path):
            raise damaged("its rules are named by %r, which is not a rule file (%s)"
                          % (path, ", ".join(RULE_FILE_SUFFIXES)))
        if not os.path.isfile(path):
            raise RulesError([Diagnostic(path, 1, 1, "error", "E003", "the rule file this game was saved with is gone")])
        return load_checked(path, d["variant"], players)
    from provost.dsl.loader import shipped_game
    from provost.dsl.source import is_bare_name
    if not is_bare_name(d["ruleset"]) or shipped_game(d["ruleset"]) is None:
        raise damaged("ruleset %r is not a shipped ruleset (rules from a file are named by 'path')" % d["ruleset"])
    return load_checked(d["ruleset"], d["variant"], players)


def rules_changed(d: dict, rs) -> RulesError:
    """E002 for a save whose rules' digest is not the rules' now, at the file of the user's that
    changed: the rule file it names by ``path``, else its variant file (a shipped game's rules
    change only with provost itself)."""
    from provost.dsl.compose import split_variants
    from provost.dsl.source import is_bare_name
    path = d.get("path")
    files = [name for name in split_variants(d["variant"]) if not is_bare_name(name)] if d["variant"] else []
    if path:
        where, what = path, "the rule file changed since the game was saved"
    elif len(files) == 1:
        where, what = files[0], "the variant file changed since the game was saved"
    elif files:
        where, what = files[0], "one of the variant files (%s) changed since the game was saved" % ", ".join(files)
    else:
        where, what = WHERE, "the saved game was played with other rules"
    return RulesError([Diagnostic(where, 1, 1, "error", "E002", "%s (digest %s, now %s)" % (what, d["digest"], rs.digest))])


# ------------------------------------------------------------------ the state against the rules
def check_state(state: dict, prog) -> None:
    n, humans = state["players"], state["humans"]
    if humans > n:
        raise damaged("state.humans: %d deciding seats of %d" % (humans, n))
    # "" before the first phase, "final" during the final scoring (Game._init_state, nodes.Root)
    if state["phase"] not in prog.phase_nodes and state["phase"] not in ("", "final"):
        raise damaged("state.phase: no phase called %r in the rules (phases: %s)"
                      % (state["phase"], ", ".join(prog.phase_nodes)))
    _same_names("state.counters", state["counters"], prog.counters)
    for name, c in prog.counters.items():
        _check_counter("state.counters." + name, state["counters"][name], c, prog, n)
    _same_names("state.zones", state["zones"], prog.zones)
    for name, z in prog.zones.items():
        v = state["zones"][name]
        if z["scope"] == "player" and (type(v) is not list or len(v) != n):
            raise damaged("state.zones.%s: expected one entry per seat (%d)" % (name, n))
    for name, z in prog.zones.items():
        v = state["zones"][name]
        for p, part in (enumerate(v) if z["scope"] == "player" else [(None, v)]):
            _check_zone("state.zones.%s" % name + ("" if p is None else ".%d" % p), part, z, prog)
    # The engine keeps a turn order whether or not the rules declare one (Game._init_state).
    _same_names("state.orders", state["orders"], {**prog.orders, "turn_order": None})
    for where in state["occ"]:
        if where not in state["tiles"] and _unknown_name(where, _names(prog), prog) is not None:
            raise damaged("state.occ: no space or tile called %r" % where)
    for where, seats in list(state["orders"].items()) + list(state["occ"].items()):
        if any(not 0 <= p < n for p in seats if p != -1):
            raise damaged("a seat out of range in %r: %s" % (where, seats))
    places = _places(prog)
    for k, pc in enumerate(state["pieces"]):
        if pc[0] not in prog.pieces:
            raise damaged("state.pieces.%d: no pieces called %r in the rules" % (k, pc[0]))
        if not 0 <= pc[1] < n:
            raise damaged("state.pieces.%d: seat %d of %d" % (k, pc[1], n))
        if len(pc) < 7:         # (a save of engine 1 has gained its seventh entry in parse)
            raise damaged("state.pieces.%d: expected at least 7 entries (kind, owner, value, place, face up, "
                          "seen by, placed), not %d" % (k, len(pc)))
        if pc[5] >> n:
            raise damaged("state.pieces.%d: seen by seats beyond the %d of the game (%d)" % (k, n, pc[5]))
        if pc[6] > state["decisions"] + 1:
            raise damaged("state.pieces.%d: placed at decision %d of %d" % (k, pc[6], state["decisions"]))
        if pc[3] not in places and pc[3] not in state["occ"] and pc[3] not in prog.spaces:
            raise damaged("state.pieces.%d: no place called %r" % (k, pc[3]))
    _check_pieces_conserved(state["pieces"], prog, humans, n)
    for name, (kind, owner) in ((name, t[:2]) for name, t in state["tiles"].items()):
        if kind not in prog.buildings and kind not in prog.spaces:
            raise damaged("state.tiles: no building called %r" % kind)
        if owner != -1 and not 0 <= owner < n:
            raise damaged("state.tiles.%s: owned by seat %d of %d" % (name, owner, n))
    for slot, tile in enumerate(state["road"]):
        if tile is not None and tile not in state["tiles"]:
            raise damaged("state.road.%d: %r is no tile of this game" % (slot, tile))
    nodes, envs = len(prog.nodes), len(state["envs"])
    if len(state["stack"]) > MAX_DEPTH:
        raise damaged("state.stack: %d frames, deeper than any rules nest (%d)" % (len(state["stack"]), MAX_DEPTH))
    for k, f in enumerate(state["stack"]):
        if f[0] >= nodes or f[2] >= envs:
            raise damaged("state.stack.%d: a frame of no node of these rules" % k)
        if (f[0] == prog.root_id) != (k == 0):
            # The game's own flow (setup, rounds, final scoring) is the first frame, and only it.
            raise damaged("state.stack.%d: %s" % (k, "the game's flow must come first" if k == 0
                                                   else "the game's flow a second time"))
    for k, f in enumerate(state["deferred"]):
        if f[1] >= nodes or f[2] >= envs:
            raise damaged("state.deferred.%d: a frame of no node of these rules" % k)
        if type(f[0]) is not str or (f[0] not in state["tiles"] and _unknown_name(f[0], _names(prog), prog) is not None):
            raise damaged("state.deferred.%d: waits for no space or tile of these rules (%s)" % (k, json.dumps(f[0])[:80]))
    # A save holds the bindings its frames use, numbered as the frames first name them.
    named = list(dict.fromkeys([f[2] for f in state["stack"]] + [f[2] for f in state["deferred"]]))
    if named != list(range(envs)):
        raise damaged("state.envs: %d bindings, not the %d the frames name in turn" % (envs, len(named)))
    pending = state["pending"]
    if state["finished"] and (pending is not None or state["stack"]):
        raise damaged("state.finished: a finished game with play still to come")
    if pending is not None:
        if not 0 <= pending["player"] < n:
            raise damaged("state.pending.player: seat %d of %d" % (pending["player"], n))
        if not state["stack"]:
            raise damaged("state.pending: a decision with nothing to resume")
    elif not state["finished"]:
        raise damaged("state: neither finished nor waiting for a decision")


def _same_names(where: str, found: dict, declared: dict) -> None:
    missing, extra = sorted(set(declared) - set(found)), sorted(set(found) - set(declared))
    if missing or extra:
        raise damaged("%s: %s" % (where, "; ".join(
            part for part in ("missing %s" % ", ".join(missing[:5]) if missing else "",
                              "not in the rules: %s" % ", ".join(extra[:5]) if extra else "") if part)))


def _check_counter(where: str, v, c: dict, prog, n: int) -> None:
    size = len(prog.enums[c["by"]]) if c.get("by") else None

    lo, hi = c.get("min"), c.get("max")

    def in_bounds(x, at):
        # The engine keeps every counter within its bounds (a resource never below 0), and every
        # number it keeps within MAX_NUMBER: a value outside them is no state it made.
        if (hi is None and x > MAX_NUMBER) or (lo is None and x < -MAX_NUMBER):
            raise damaged("%s: %d%s is beyond the largest number a game keeps (%d)" % (where, x, at, MAX_NUMBER))
        if (lo is not None and x < lo) or (hi is not None and x > hi):
            raise damaged("%s: %d%s is outside its bounds (%s..%s)" % (where, x, at, lo, "" if hi is None else hi))

    def one(x, at):
        if size is None:
            if type(x) is not int:
                raise damaged("%s: expected a number%s" % (where, at))
            in_bounds(x, at)
        elif type(x) is not list or len(x) != size or any(type(y) is not int for y in x):
            raise damaged("%s: expected %d numbers (by %s)%s" % (where, size, c["by"], at))
        else:
            for y in x:
                in_bounds(y, at)

    if c["scope"] == "player":
        if type(v) is not list or len(v) != n:
            raise damaged("%s: expected one value per seat (%d)" % (where, n))
        for p, x in enumerate(v):
            one(x, " for seat %d" % p)
    else:
        one(v, "")


def _is_card(x) -> bool:
    """A name, a number, or a list of them (a card with its data: a space and a value)."""
    t = type(x)
    return t is str or t is int or (t is list and all(_is_card(y) for y in x))


def _check_zone(where: str, v, z: dict, prog) -> None:
    """A zone holds a list of cards, or one such list per value of its ``by``."""
    if z.get("by"):
        keys = list(prog.enums[z["by"]])
        if type(v) is not dict or sorted(v) != sorted(keys):
            raise damaged("%s: expected one list per %s (%s)" % (where, z["by"], ", ".join(keys)))
        lists = [("%s.%s" % (where, k), v[k]) for k in keys]
    else:
        lists = [(where, v)]
    # The cards themselves are not held to the names the rules write: rules can make strings
    # (`put blue + red, pile` puts "bluered"), and a save of what the engine did always resumes.
    for at, cards in lists:
        if type(cards) is not list or not all(_is_card(c) for c in cards):
            raise damaged("%s: expected a list of cards" % at)


_NAMES: dict = {}


def _names(prog) -> frozenset:
    """Every name the rules write (each string in their IR): the places workers stand on and
    waiting effects wait for are among them (a card need not be: rules can join strings)."""
    key = prog.rs.digest
    names = _NAMES.get(key)
    if names is None:
        found: set = set()
        todo = [prog.rs.decls]
        while todo:
            v = todo.pop()
            if type(v) is str:
                found.add(v)
            elif type(v) is dict:
                todo.extend(v.keys())
                todo.extend(v.values())
            elif type(v) is list or type(v) is tuple:
                todo.extend(v)
        if len(_NAMES) > 16:
            _NAMES.clear()
        names = _NAMES[key] = frozenset(found)
    return names


def _unknown_name(where, names, prog):
    """``where`` if it is no name of the rules, else None.  The engine names the second tile of
    a kind on the board ``KIND_2`` (and so on): those are names too."""
    if where in names:
        return None
    kind, _, k = where.rpartition("_")
    return None if k.isdigit() and (kind in prog.buildings or kind in prog.spaces) else where


def _check_pieces_conserved(pieces: list, prog, humans: int, n: int) -> None:
    """Pieces are never made or lost in play: each seat has the values the rules dealt it."""
    found: dict = {}
    for pc in pieces:
        found.setdefault((pc[0], pc[1]), []).append(pc[2])
    for name, d in prog.pieces.items():
        for p in range(n):
            dealt = list(d["neutral_values"] if p >= humans and d.get("neutral_values") else d["values"])
            dealt += d.get("reserve", [])
            have = found.get((name, p), [])
            if sorted(dealt) != sorted(have, key=lambda x: (type(x) is str, x)):
                raise damaged("state.pieces: seat %d's %s are not the ones the rules deal (%s)"
                              % (p, name, ", ".join(map(str, sorted(dealt))) or "none"))


def _places(prog) -> set:
    out = {"reserve", "workers"} | set(prog.spaces) | set(prog.zones)
    for pc in prog.pieces.values():
        out |= set(pc.get("private") or ()) | set(pc.get("public") or ())
        if pc.get("start"):
            out.add(pc["start"])
    return out


def probe(game) -> None:
    """Apply every pending option to a copy: a state the engine cannot play on, or one from which
    an option leads to a state the checks above refuse, is a damaged save."""
    for option in game.legal_options():
        copy = game.clone(shared=True)
        try:
            copy.apply(option)
        except RulesError:
            continue        # a rule failing at play (positioned E100): the rules' matter, not the save's
        except Exception as e:  # noqa: BLE001 - anything else means the state is not one the engine made
            raise damaged("option %r cannot be played on this state (%s)" % (option, type(e).__name__)) from None
        try:
            check_state(json.loads(json.dumps(copy.s.to_dict(copy.prog.saved_data))), copy.prog)
        except RulesError as e:
            raise damaged("option %r leads to a state no game reaches (%s)"
                          % (option, e.diagnostics[0].message.split(": ", 1)[-1])) from None
        except (TypeError, ValueError, KeyError, IndexError, AttributeError) as e:
            # The checks assume the types of the save's schema, which a damaged state can make the
            # engine break (a seat that is None): what they trip over is damage too.
            raise damaged("option %r leads to a state no game reaches (%s)" % (option, type(e).__name__)) from None
