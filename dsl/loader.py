"""The pipeline, stage by stage: text -> tree -> IR -> schema -> variants -> checks.

``load_ruleset`` is what the interpreter and the CLI use; ``check_file`` is
``provost check``.  Every stage returns diagnostics instead of raising, and a
stage only runs when the ones before it produced no errors.
"""
from __future__ import annotations

import contextlib
import copy
import functools
import hashlib
import json
import os
import re
from dataclasses import dataclass, field

from . import derived
from .changes import apply_variant, decl_key
from .diagnostics import CONTROL, Diagnostic, RulesError, UnknownName, UsageError, did_you_mean, explain, register
from .source import IR_SUFFIXES, is_bare_name, is_edited, load_ir_document, not_a_mapping, read_source

register("L001", "error", "unknown ruleset or variant")
register("L002", "error", "variant base cannot be found")
register("L003", "error", "variants extend each other in a cycle")
register("L004", "error", "a variant changes a definition that does not exist")
register("L005", "error", "a ruleset file must hold one game or one variant")
register("L006", "error", "a variant named after 'with' or given with --variant is not a variant of the same game")
register("L009", "error", "a variant gives the rules for a player count its game does not allow")
explain("L001", """
A ruleset or a variant named by its name, not by a path, is none that provost knows.  A bare
ruleset name (`play`, `sim`, `export` and the other commands that take a RULESET, and
`load_checked` in Python) is looked up among the shipped games, and a `--variant` name among the
variants of that game: the shipped ones and the rule files beside the game that extend it.  A
misspelt name is reported as unknown, with the names there are, rather than looked for as a file
that does not exist.  A variant name that two files beside the game declare (a copy of a variant
file not yet renamed) is refused too, naming both files: provost never picks one of them.
`provost check` takes files only, so it never reports this.

    provost play cayls --players 3
    provost: error: unknown ruleset 'cayls'; did you mean 'caylus'? (shipped: caylus, caylus1303, ys)

Fix: use a name the message lists (`provost variants` lists the games and their variants), or
give a rule file by its path (`./cayls.rules`).""")
explain("L002", """
The base a variant names after `extends`, or a variant named after `with`, cannot be found or
may not be used.  `extends NAME` looks for the file `NAME` or `NAME.rules` beside the variant,
then a shipped ruleset (`caylus`, `ys.two_players`), then a shipped variant by its declared name;
a file outside the variant's folder, or one that is not a rule file, is refused, and a variant
name that several games share is ambiguous.  A variant is a list of changes to its base: without
the base there are no rules to change.

    variant v extends nowhere:      # error: cannot find the base ruleset 'nowhere'
        resource gems

Fix: name a rule file beside the variant or a shipped ruleset (`extends base`, `extends caylus`),
or quote the path of a file in the variant's folder or below it (`extends "games/base.rules"`).""")
explain("L003", """
Variants that extend each other in a cycle, directly or through other variants, never reach a
game, so there are no rules to start from and none of them can be resolved.  The same holds past
16 bases in a chain, and for a variant named after `with` that is already one of the variant's
bases (its changes would be made twice).

    # case.rules
    variant v extends other:        # error: variant 'v' extends itself through its bases
        resource gems
    # other.rules
    variant other extends case:
        resource jewels

Fix: make one of them extend the game (`variant other extends base:`), so that the chain of
bases ends at a game.""")
explain("L004", """
A variant's change names something its base does not have in that form: `replace KIND NAME`,
`remove KIND NAME`, `replace step`, `remove phase PHASE.STEP`, `replace entry` or `remove entry`
of a definition, step or entry the base lacks (a typo, or a definition of another kind), an `add
step`/`add entry` after or before one it lacks, or a declaration, step or entry added under a
name the base already uses.  The change would otherwise be lost, or add a second definition
beside the one it was meant to change.

    variant v extends base:
        replace let prise(n) = n + 2  # error: cannot replace let 'prise': the base has none;
                                      # did you mean 'price'?

Fix: name what the base declares (`provost export BASE` lists it); drop `replace` to add a new
definition, or write `replace` to change one the base has.""")
explain("L005", """
A rule file holds one `game` with its declarations, or one `variant` with its changes indented
under it, and nothing else: the loader takes a file as the game or the variant it declares, and a
second game, a declaration beside a variant, or declarations with neither would belong to no
ruleset.  The error is at the second game, or at the first declaration beside the variant.

    variant v extends base:
        resource gems
    resource more             # error: a ruleset file holds exactly one 'game' (with its
                              # declarations) or one 'variant'

Fix: indent what the variant adds under it (`    resource more`); a second game goes in a file
of its own, and a file of declarations only gets a `game` (or a `variant`) head.""")
explain("L006", """
`extends BASE with V1, V2` makes the changes of V1 and V2, variants of the same game, to the
base.  A name after `with` that is a game, or a variant of another game, has no changes written
against this game: they would replace or remove its declarations by names that mean other things
there.

    variant v extends base with base:    # error: 'base' is not a variant: a game goes after
        resource gems                    # 'extends', variants after 'with'

Fix: put the game after `extends` and only its variants after `with` (`variant v extends base
with fast:`).

The same holds for a file given with `--variant` (or `A+B`): `provost play ys --variant
caylus.smithy.rules` is `variant 'smithy' changes the game 'caylus', not 'ys'` at the file's head,
and a game file given there is `'mini.rules' is a game, not a variant`.""")
explain("L009", """
A variant that says `for_players N` is its game's rules for N players, but the rules it leaves
are still for the game's own counts (the `players` of its `game` declaration): `--players N`
would refuse them, and a game played without a count would take another count, so the rules said
to be for N could never be played.

    variant six extends base:       # error: variant 'six' gives the rules for 6 players, but
        for_players 6               # its game is for 2 to 4 players: replace the game's 'players' too

Fix: replace the game declaration in the variant with one whose `players` allow N (`replace game
base "Base (6 players)":` with `players 6..6` and the game's other attributes), as
rulesets/caylus.two_players.rules does.""")

MAX_VARIANT_DEPTH = 16


@dataclass
class Ruleset:
    """A complete, resolved ruleset: the base game's declarations with every variant applied."""
    name: str
    variant: str | None
    decls: list[dict]
    files: list[str]                      # the file each declaration came from (parallel to decls)
    chain: list[str] = field(default_factory=list)   # files from the base game to the variant
    digest: str = ""
    # Phases whose steps come from several files (a variant replaced or added a step):
    # (phase kind, phase name) -> {step name: the file its body came from, or the file of the
    # variant that removed it}.
    step_files: dict = field(default_factory=dict)
    # Tables whose entries come from several files (a variant replaced or added an entry):
    # ("table", table name) -> {entry key: the file it came from, or the one that removed it}.
    entry_files: dict = field(default_factory=dict)
    # The absolute path of the file loaded when the rules were named by a path, None when they
    # were named as a shipped ruleset: a saved game names the rules the same way to resume.
    source_path: str | None = None
    # The player counts the game file itself is written for, and those a variant in the chain gives
    # the rules for (`for_players`): any other count needs its rules loaded (`provost.dsl.compose`).
    root_players: list | None = None
    count_rules: list = field(default_factory=list)
    _pos_files: dict | None = field(default=None, repr=False, compare=False)
    # The variant's own declaration (its changes and their positions) when this is a variant.
    variant_head: dict | None = None
    # The variants as a save or a log names them to load them again, when a variant file was named
    # by a path: that path made absolute (``variant`` is the variants' declared names, for people).
    variant_source: str | None = None
    # (digest, digest without positions): kept with the digest it was computed for, so that a copy
    # given other declarations and their digest (`overrides.with_settings`) computes its own.
    _layout_free: tuple | None = field(default=None, init=False, repr=False, compare=False)

    def names_user_files(self) -> bool:
        """Whether these rules were named by a path (the game's file or a variant file): files the
        user edits, unlike a shipped ruleset named by its name."""
        return self.source_path is not None or self.variant_source is not None

    def digest_without_positions(self) -> str:
        """The digest of the rules with their places in the files left out.  `provost fmt`, a
        comment or a blank line moves the positions, and so changes ``digest``, but not this: a
        save or a log of a user's rule file carries it too, so that it still resumes after the
        file was only laid out again (``Game.from_json``, ``gamelog.rules_for_header``)."""
        if self._layout_free is None or self._layout_free[0] != self.digest:
            from .compose import without_positions
            self._layout_free = (self.digest, digest_of([without_positions(d) for d in self.decls]))
        return self._layout_free[1]

    def matches_digests(self, digest: str, without_positions: str | None) -> bool:
        """Whether a save's or a log's digests name these rules: the same ``digest``, or, when it
        carries one, the same digest without positions (the same rules laid out again)."""
        return digest == self.digest or (without_positions is not None
                                         and without_positions == self.digest_without_positions())

    def by_kind(self, kind: str) -> list[dict]:
        return [d for d in self.decls if d["kind"] == kind]

    def game(self) -> dict:
        return next(d for d in self.decls if d["kind"] == "game")

    def file_at(self, pos) -> str:
        """The file a position taken from these rules is in: the variant's for a rule it wrote,
        the base's for one it kept (also inside a phase whose steps come from several files)."""
        if self._pos_files is None:
            self._pos_files = _position_files(self)
        if pos is not None:
            found = self._pos_files.get(id(pos)) or self._pos_files.get(_pos_key(pos))
            if found:
                return found
        return self.chain[-1] if self.chain else "<rules>"

    def file_of(self, decl: dict) -> str:
        for d, f in zip(self.decls, self.files):
            if d is decl:
                return f
        return self.chain[-1] if self.chain else "<rules>"


def _pos_key(pos):
    return tuple(pos) if isinstance(pos, (list, tuple)) else None


def _position_files(rs: Ruleset) -> dict:
    """id(position) and the position itself -> the file it is in, for every node of the rules
    (a position found in two files is left to the identity lookup)."""
    by_id, by_value, twice = {}, {}, set()

    def walk(node, path):
        stack = [node]
        while stack:
            x = stack.pop()
            if isinstance(x, dict):
                for k, v in x.items():
                    if (k == "pos" or k.endswith("_pos")) and isinstance(v, list):
                        by_id[id(v)] = path
                        key = _pos_key(v)
                        if by_value.get(key, path) != path:
                            twice.add(key)
                        by_value[key] = path
                    elif isinstance(v, (dict, list)):
                        stack.append(v)
            elif isinstance(x, list):
                stack.extend(x)

    for d, path in zip(rs.decls, rs.files):
        origins = rs.step_files.get(decl_key(d)) or {}
        split = d.get("kind") == "table" and decl_key(d) in rs.entry_files
        walk({k: v for k, v in d.items() if k != "body" and not (split and k == "entries")}, path)
        for st in d.get("body") or [] if isinstance(d.get("body"), list) else []:
            is_step = isinstance(st, dict) and st.get("s") == "step"
            walk(st, origins.get(st.get("name"), path) if is_step else path)
        if not isinstance(d.get("body"), list) and d.get("body") is not None:
            walk(d["body"], path)
        if split:
            origins = rs.entry_files[decl_key(d)]
            for e in d.get("entries") or []:
                walk(e, origins.get(e.get("key"), origins.get("", path)))
    for key in twice:
        by_value.pop(key, None)
    by_id.update(by_value)
    return by_id


# ------------------------------------------------------------------ single files
def _is_ir_file(path: str) -> bool:
    return str(path).lower().endswith(IR_SUFFIXES)


def parse_file(path: str) -> tuple[dict | None, list[Diagnostic]]:
    """One file (rule text or IR document) -> its IR, schema-checked."""
    text, diags = read_source(path)
    if text is None:
        return None, diags
    if _is_ir_file(path):
        doc, more = load_ir_document(path, text)
        diags += more
        if more:
            return None, diags
        problem = not_a_mapping(path, text, doc) or _control_in_strings(path, doc, text)
        if problem is not None:
            return None, diags + [problem]
        from .schema import validate_ir
        schema_diags = validate_ir(doc, path, text)
        return (None if schema_diags else doc), diags + schema_diags
    ir = derived.parsed_ir(text)
    if ir is not None:
        return ir, diags
    # The parser and the IR builder (Lark and the grammar: about 40 ms to import) are loaded only
    # for text that is not in the cache.
    from .declarations import build_ir
    from .parser import parse_text
    from .to_ir import tree_to_raw
    tree, more = parse_text(text, path)
    diags += more
    if tree is None:
        return None, diags
    raw = tree_to_raw(tree)
    ir, more = build_ir(raw, path)
    diags += more
    if any(d.severity == "error" for d in more):
        # What the builder refused is in the IR as best it could be read: the schema would
        # report the same mistake again (a name that is not one, a value of the wrong form).
        return ir, diags
    from .schema import validate_ir
    diags += validate_ir(ir, path, None)
    if not diags:
        derived.keep_parsed_ir(text, ir)
    return ir, diags


def _control_in_strings(path: str, doc, text: str) -> Diagnostic | None:
    """P007 for an IR document whose strings hold a control character (JSON's \\u001b), as for rule
    text: at the first such string (or key) in the document, where the document has it (its
    declarations' ``pos`` are lines of the rule file they came from, not of this file)."""
    stack = [(doc, ())]
    while stack:
        x, where = stack.pop()
        if isinstance(x, dict):
            for k, v in reversed(list(x.items())):       # (popped in the document's order)
                stack += [(v, where + (k,)), (k, where + (k,))]
        elif isinstance(x, list):
            stack += [(v, where + (i,)) for i, v in reversed(list(enumerate(x)))]
        elif isinstance(x, str) and CONTROL.search(x):
            from .schema import document_positions
            locate = document_positions(text)
            line, col = locate(where) if locate is not None else (1, 1)
            return Diagnostic(path, line, col, "error", "P007", "control character U+%04X in a string: "
                              "rule text is plain text" % ord(CONTROL.search(x).group()))
    return None


def dump_ir(ir: dict, fmt: str) -> str:
    if fmt == "json":
        return json.dumps(ir, indent=1, ensure_ascii=False) + "\n"
    import yaml
    return yaml.safe_dump(ir, sort_keys=False, allow_unicode=True, width=100)


# ------------------------------------------------------------------ shipped rulesets
@functools.cache
def shipped_dir() -> str:
    """Where the shipped rule files are (the installed package does not move while it runs).

    The package's folder itself, walked with ``os``: ``importlib.resources`` would give the same
    folder but imports its zip readers first (6 ms of every command's start)."""
    import provost.rulesets

    return os.path.abspath(next(iter(provost.rulesets.__path__)))


def shipped_files() -> list[str]:
    """Every shipped rule file (examples included), as `provost check rulesets/` finds them."""
    root = shipped_dir()
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith((".", "_")))
        for f in sorted(filenames):
            if f.endswith(".rules"):
                out.append(os.path.join(dirpath, f))
    return out


_HEADS: dict = {}


def _head_of(path: str) -> dict | None:
    """A file's first declaration (its game or variant), remembered while the file is unchanged."""
    if is_edited(path):              # a buffer being edited: its head may differ from the file's
        ir, _ = parse_file(path)
        return ir["decls"][0] if ir is not None and ir["decls"] and ir["decls"][0]["kind"] in ("game", "variant") \
            else None
    try:
        st = os.stat(path)
    except OSError:
        return None
    key = (os.path.abspath(path), st.st_mtime_ns, st.st_size)
    if key not in _HEADS:
        ir, diags = parse_file(path)
        head = None
        if ir is not None and ir["decls"] and ir["decls"][0]["kind"] in ("game", "variant"):
            head = ir["decls"][0]
        _HEADS[key] = head
    return _HEADS[key]


def _entry(head: dict, path: str) -> dict:
    """How `provost variants` describes a game or a variant file."""
    entry = {"name": head["name"], "title": head.get("title") or head["name"],
             "description": head.get("description") or "", "path": path}
    if head.get("for_players"):
        entry["for_players"] = list(head["for_players"])
    return entry


_SHIPPED: dict = {}


_STATES: dict = {}


def _files_state(files: list[str]) -> str | None:
    """A digest of the files' names and contents, or None when it cannot be had: a file is
    unreadable or is being edited in an editor's buffer.  Kept in the process while the files'
    sizes and modification times are unchanged, as ``_head_of`` keeps heads."""
    signature = []
    for f in files:
        if is_edited(f):
            return None
        try:
            st = os.stat(f)
        except OSError:
            return None
        signature.append((f, st.st_mtime_ns, st.st_size))
    signature = tuple(signature)
    state = _STATES.get(signature)
    if state is None:
        state = _contents_digest(files)
        if state is not None:
            _STATES.clear()
            _STATES[signature] = state
    return state


def _contents_digest(files: list[str]) -> str | None:
    h = hashlib.sha256()
    for f in files:
        try:
            with open(f, "rb") as fh:
                data = fh.read()
        except OSError:
            return None
        h.update(f.encode("utf-8", "surrogatepass") + b"\0" + hashlib.sha256(data).digest())
    return h.hexdigest()


def _entry_ok(e) -> bool:
    players = e.get("for_players", []) if isinstance(e, dict) else None
    return isinstance(e, dict) and isinstance(e.get("name"), str) and isinstance(e.get("path"), str) \
        and isinstance(players, list) and all(type(n) is int for n in players)


def _listing_ok(games) -> bool:
    return isinstance(games, list) and all(
        _entry_ok(g) and isinstance(g.get("variants"), list) and all(_entry_ok(v) for v in g["variants"])
        for g in games)


def _kept_listing(files: list[str], state: str | None) -> list[dict] | None:
    """The listing of shipped games made before from these files' contents (in the process or
    the user's cache), or None."""
    if state is None:
        return None
    if state not in _SHIPPED:
        games = derived.shipped_listing(state)
        if not _listing_ok(games):
            return None
        _SHIPPED.clear()
        _SHIPPED[state] = games
    return copy.deepcopy(_SHIPPED[state])


def _listed_variants(game_path: str) -> list[dict] | None:
    """``variants_of`` a shipped game's file from the kept listing, without reading any file's
    head (a variant's head is the whole file's IR), or None when the listing is not kept."""
    target = os.path.abspath(game_path)
    if os.path.dirname(target) != shipped_dir():          # already absolute
        return None
    files = shipped_files()
    for g in _kept_listing(files, _files_state(files)) or ():
        if os.path.abspath(g["path"]) == target:
            return g["variants"]
    return None


def list_shipped() -> list[dict]:
    """The shipped games and their variants.  Finding each variant's game reads every file's
    head, so the listing is kept, by the files' contents, in the process and in the user's
    cache (a command asks several times: resolving a name, checking a player count)."""
    files = shipped_files()
    state = _files_state(files)
    games = _kept_listing(files, state)
    if games is None:
        games = []
        for f in files:
            if os.sep + "examples" + os.sep in f:
                continue
            head = _head_of(f)
            if head is not None and head["kind"] == "game":
                games.append(dict(_entry(head, f), variants=variants_of(f)))
        games.sort(key=lambda g: g["name"])
        if state is not None:
            derived.keep_shipped_listing(state, games)
            _SHIPPED.clear()
            _SHIPPED[state] = copy.deepcopy(games)
    return games


def shipped_configurations(names=()) -> list[tuple]:
    """``(ruleset, variant, players, Ruleset)`` for every shipped game (or those NAMES), each of
    its variants (None: the base) and every player count the game or a variant's `for_players`
    allows, loaded with that count's rules; combinations the rules refuse are left out."""
    out = []
    for game in list_shipped():
        if names and game["name"] not in names:
            continue
        lo, hi = load_checked(game["name"]).game()["players"]
        counts = set(range(lo, hi + 1))
        for v in game["variants"]:
            counts |= set(v.get("for_players") or ())
        for variant in [None] + [v["name"] for v in game["variants"]]:
            for players in sorted(counts):
                try:
                    rs = load_checked(game["name"], variant, players)
                except RulesError:
                    continue
                if players_out_of_range(rs, players) is None:
                    out.append((game["name"], variant, players, rs))
    return out


def default_players(rs: Ruleset) -> int:
    """The player count a game is played with when none is given: 4, or the nearest count the
    rules allow."""
    lo, hi = rs.game().get("players") or [1, 8]
    return max(lo, min(4, hi))


def own_count(rs: Ruleset) -> int | None:
    """The count rules loaded without one are played for when the game's own rules for it were
    not loaded: a variant whose own count (`players 2..2` on Caylus) lies outside the game's is
    played with the rules the game has for that count, as `players=N` would load it.  None when
    the rules are played as loaded."""
    n = default_players(rs)
    return n if _lacks_count_rules(rs, n) else None


def _lacks_count_rules(rs: Ruleset, players: int) -> bool:
    """A variant allows ``players``, but the game's own rules for that count were not loaded."""
    root = rs.root_players
    return bool(root) and not root[0] <= players <= root[1] and players not in rs.count_rules


def players_out_of_range(rs: Ruleset, players: int) -> str | None:
    """Why ``players`` cannot play these rules (``caylus (two_players) is for 2 players, not 3``), or None."""
    lo, hi = rs.game().get("players") or [1, 8]
    if lo <= players <= hi and not _lacks_count_rules(rs, players):
        return None                         # (every new game asks: the variants are read only to explain)
    title = rs.name + (" (%s)" % rs.variant if rs.variant else "")
    counted = _counts_with_rules(rs)
    if lo <= players <= hi:
        if players in counted:
            return "%s was loaded without the rules for %d players: load it with players=%d (--players %d)" \
                % (title, players, players, players)
        # A variant allows a count (players 2..6 on Ys) that neither the game nor its variants have rules for.
        glo, ghi = rs.root_players
        return "%s allows %d players, but the game has no rules for %d players (its own are for %s%s); a variant " \
            "that gives them says 'for_players %d'" % (title, players, players, _count_range(glo, ghi),
                                                     "; its variants give them for %s" % ", ".join(map(str, counted))
                                                     if counted else "", players)
    # Other counts the game's variants give rules for (Ys for 2 and 3): say so, or the message
    # would tell a user that 4 is the only count.
    others = [n for n in counted if not lo <= n <= hi]
    if players in others and rs.source_path and _is_ir_file(rs.source_path):
        # An IR document holds the rules of one count: the others are variant files beside the
        # game's rule file, which a document does not bring along.
        return "%s is for %s, not %d: an IR document holds the rules of the count it was exported for " \
            "(provost export %s --players %d)" % (title, _count_range(lo, hi), players, rs.name, players)
    if rs.variant and list(rs.root_players or []) != [lo, hi]:
        # A variant (or several composed) that changed the game's counts: the game's rules for
        # other counts would not carry its changes, so the counts to give are its own.
        return "%s is for %s, not %d: load it with %s" % (title, _count_range(lo, hi), players, counts_to_give(lo, hi))
    # Rules loaded for one count cannot be played by another: the count is given when loading
    # (load_checked or Game.new by name, players=N; --players N).
    more = (" (and for %s players with their own rules, which load with players=N or --players N)"
            % ", ".join(map(str, others)) if others else "")
    return "%s is for %s, not %d%s" % (title, _count_range(lo, hi), players, more)


def counts_to_give(lo: int, hi: int, api: bool = True) -> str:
    """How to ask for one of the counts lo..hi: `players=2 (--players 2)`, `--players 3 or
    --players 4` on the command line alone (``api`` False)."""
    flags = " or ".join("--players %d" % n for n in range(lo, hi + 1))
    if not api:
        return flags
    return "players=%s (%s)" % (" or ".join(map(str, range(lo, hi + 1))), flags)


def _count_range(lo: int, hi: int) -> str:
    return "%d players" % lo if lo == hi else "%d to %d players" % (lo, hi)


def _counts_with_rules(rs: Ruleset) -> list[int]:
    """The player counts the game's variants give the rules for (`for_players`)."""
    return sorted({n for v in variants_of(rs.chain[0]) for n in v.get("for_players") or []}) if rs.chain else []


def _root_file_of(path: str, depth: int = 0) -> str | None:
    """The game file at the end of a variant's chain of bases (the file itself for a game)."""
    head = _head_of(path)
    if head is None or depth > MAX_VARIANT_DEPTH:
        return None
    if head["kind"] == "game":
        return path
    base = _find_base(head["extends"], path)
    return _root_file_of(base, depth + 1) if base else None


def variants_of(game_path: str) -> list[dict]:
    """The variants of the game in `game_path`: the rule files beside it, and the shipped ones,
    whose chain of bases ends at that very file (so a copy of a shipped game has none of the
    shipped variants, which extend the original).  A name declared by several files beside the
    game is listed once, the others under ``also``."""
    listed = _listed_variants(game_path)
    if listed is not None:
        return listed
    target = os.path.abspath(game_path)
    folder = os.path.dirname(target)
    try:
        beside = sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(".rules"))
    except OSError:
        beside = []
    shipped = [f for f in shipped_files() if os.sep + "examples" + os.sep not in f]
    out, seen = [], {}
    for f in beside + shipped:
        head = _head_of(f)
        if head is None or head["kind"] != "variant":
            continue
        first = seen.get(head["name"])
        if first is not None and (f not in beside or os.path.abspath(f) == os.path.abspath(first["path"])):
            continue                # a shipped file beside a shipped game is listed once
        root = _root_file_of(f)
        if root is not None and os.path.abspath(root) == target:
            if first is not None:   # two files beside the game say the same name: `--variant` refuses it
                first.setdefault("also", []).append(f)
                continue
            seen[head["name"]] = _entry(head, f)
            out.append(seen[head["name"]])
    return out


def shipped_game(ruleset: str) -> dict | None:
    """The shipped game `ruleset` names, or None when it is a path (see `is_bare_name`)."""
    if not is_bare_name(ruleset):
        return None
    return next((g for g in list_shipped() if g["name"] == ruleset), None)


def _unknown_ruleset(ruleset: str) -> UnknownName:
    names = [g["name"] for g in list_shipped()]
    return UnknownName(Diagnostic(ruleset, 1, 1, "error", "L001", "unknown ruleset '%s'%s (shipped: %s)"
                                  % (ruleset, did_you_mean(ruleset, names), ", ".join(names))))


def _unreadable(path: str) -> RulesError:
    """Why a file has no game or variant head: its read or parse errors, else L005."""
    _, diags = parse_file(path)
    errors = [d for d in diags if d.severity == "error"]
    return RulesError(errors or [Diagnostic(path, 1, 1, "error", "L005",
                                            "a ruleset file holds one 'game' or one 'variant' first")])


def no_game_found(path: str) -> RulesError:
    """Why ``path`` leads to no game: its read or parse errors, else the errors `check` gives for
    its chain of bases (a cycle is L003, a base outside the folder or a name of several games L002
    with its reason), never always "cannot find" nor L005 for a head that is there."""
    head = _head_of(path)
    if head is None:
        return _unreadable(path)
    _, diags = _resolve(path)
    return RulesError([d for d in diags if d.severity == "error"] or [
        Diagnostic(path, head["pos"][0], head["pos"][1], "error", "L002",
                   "cannot find the base ruleset '%s'" % head.get("extends"))])


def describe_file(path: str, strict: bool = True) -> dict:
    """What `provost variants PATH` lists: the game of a rule file (a variant file's base game)
    with its variants, in the shape of `list_shipped`'s entries; a variant file that is not among
    them is listed last, marked ``this_file``.  A file that cannot be loaded (a base or a variant
    after ``with`` not found) raises its errors, as `check` reports them, unless ``strict`` is
    False (the caller checks the file itself); a file whose game is not found raises always."""
    root = _root_file_of(path)
    head = _head_of(path)
    if root is None:
        raise no_game_found(path)
    if head["kind"] == "variant" and strict:
        _, diags = _resolve(path)       # the bases are found: the variants after `with` must be too
        errors = [d for d in diags if d.severity == "error"]
        if errors:
            raise RulesError(errors)
    variants = variants_of(root)
    if head["kind"] == "variant" and not any(os.path.abspath(v["path"]) == os.path.abspath(path) for v in variants):
        # a variant file away from its game (an author's own): listed too, as this file
        variants.append(dict(_entry(head, path), this_file=True))
    return dict(_entry(_head_of(root), root), variants=variants)


def _find_base(ref: str, from_path: str) -> str | None:
    """The file ``extends REF`` (or ``with REF``) names, or None (a refused or ambiguous name too:
    `_base_or_problem` says why)."""
    try:
        return _base_or_problem(ref, from_path)
    except (_RefusedBase, _AmbiguousBase):
        return None


def _base_or_problem(ref: str, from_path: str) -> str | None:
    """The file ``extends REF`` (or ``with REF``) names: a rule file in the variant's own folder or
    below it, a shipped ruleset, or a shipped variant by its name (dsl/README.md, Variants).  A
    rule file never makes provost read a file elsewhere, nor one that is not a rule file."""
    here = os.path.dirname(os.path.abspath(from_path))
    candidates = [os.path.join(here, ref), os.path.join(here, ref + ".rules")]
    for c in candidates:
        if os.path.isfile(c):
            inside = os.path.realpath(c).startswith(os.path.realpath(here) + os.sep)
            if not inside or not c.lower().endswith((".rules",) + IR_SUFFIXES):
                raise _RefusedBase("%r is %s: a variant may name rule files (.rules, .json, .yaml) in its own "
                                   "folder or below it, and shipped rulesets"
                                   % (ref, "outside the variant's folder" if not inside else "not a rule file"))
            return c
    shipped = shipped_files()
    for f in shipped:
        if os.path.basename(f) == ref + ".rules" and _head_of(f) is not None:
            return f
    # A shipped variant named by its declared name (files are named GAME.VARIANT.rules).  A name
    # that several games' variants share (two_players) means the variant of the game this file is
    # named after (caylus.mine.rules: Caylus's); otherwise it is ambiguous, never the first found.
    named = [f for f in shipped if os.path.basename(f).endswith("." + ref + ".rules")
             and (_head_of(f) or {}).get("name") == ref]
    if len(named) > 1:
        game = os.path.basename(from_path).split(".", 1)[0] + "."
        named = [f for f in named if os.path.basename(f).startswith(game)] or named
        if len(named) > 1:
            raise _AmbiguousBase(named)
    return named[0] if named else None


class _RefusedBase(Exception):
    pass


class _AmbiguousBase(Exception):
    def __init__(self, files: list[str]):
        super().__init__(files)
        self.files = files


def resolve_path(ruleset: str, variant: str | None = None) -> str:
    """A shipped ruleset name, or a path, (and a variant name) -> the file to load.

    A bare name (`is_bare_name`) of a shipped game is that game, whatever the current directory
    holds; a bare name that is neither shipped nor an existing file is an unknown ruleset
    (`UnknownName`); anything else is a path, and a missing one is reported when it is read
    (P005). A variant is looked up among the variants of the game's file (`variants_of`).
    """
    game = shipped_game(ruleset)
    if game is None and is_bare_name(ruleset) and not os.path.exists(ruleset):
        raise _unknown_ruleset(ruleset)
    path = game["path"] if game is not None else ruleset
    if variant is None:
        return path
    head = _head_of(path)
    if head is None:
        raise _unreadable(path)
    if head["kind"] == "variant" and head["name"] == variant:
        return path                # the variant file itself, named with its own name (a saved game)
    if head["kind"] == "variant":
        raise UnknownName(Diagnostic(ruleset, 1, 1, "error", "L001", "%s is variant '%s', not a game: name its "
                                     "base game to choose variant '%s'" % (ruleset, head["name"], variant)))
    return variant_named(path, variant, ruleset)


def variant_named(game_path: str, name: str, ruleset: str) -> str:
    """The file of the variant called NAME among the variants of the game in GAME_PATH
    (`variants_of`); L001 at RULESET (as the user named the game) when none is, or when several
    files beside the game say that name (a copy of a variant file not yet renamed): provost
    never picks one of them silently."""
    variants = variants_of(game_path)
    for v in variants:
        if v["name"] == name:
            if v.get("also"):
                files = [v["path"]] + v["also"]
                raise UnknownName(Diagnostic(ruleset, 1, 1, "error", "L001", "variant '%s' is declared by %d files: "
                                             "%s; name the one you mean by its path (--variant %s)"
                                             % (name, len(files), ", ".join(files), _as_variant_path(files[-1]))))
            return v["path"]
    vnames = [v["name"] for v in variants]
    if not is_bare_name(name):
        # A file name of another suffix (my_variant.txt, house.rule) names no variant, and no save
        # or log could name it (they name rule files only): said so, not "unknown variant".
        raise UnknownName(Diagnostic(ruleset, 1, 1, "error", "L001", "variant '%s' is no variant of %s (variants: %s) "
                                     "and no variant file: a variant file is named by a path ending in .rules"
                                     % (name, _head_of(game_path)["name"], ", ".join(vnames) or "none")))
    raise UnknownName(Diagnostic(ruleset, 1, 1, "error", "L001", "unknown variant '%s' of %s%s (variants: %s)"
                                 % (name, _head_of(game_path)["name"], did_you_mean(name, vnames),
                                    ", ".join(vnames) or "none")))


def _as_variant_path(path: str) -> str:
    """PATH as a `--variant` value that names that file, relative to here when it is below."""
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel if os.sep in rel or rel.endswith(".rules") else "./" + rel


# ------------------------------------------------------------------ variants
def positions_file(ir: dict, path: str) -> str:
    """The file an IR's positions refer to: the rule file it was exported from (its 'source'),
    else the file itself. Diagnostics at those positions name that file, so `path:line:col`
    always points at the line it describes."""
    source = ir.get("source")
    return source if _names_a_rule_file(source) else path


def _names_a_rule_file(source) -> bool:
    """Whether an IR's 'source' (or an entry of its 'sources') can be where its positions are: a
    rule file, as `provost export` records.  A document naming any other file (a JSON or YAML file
    of the user's) would have a diagnostic print a line of a file nobody named; it is its own
    positions file instead."""
    return isinstance(source, str) and source.lower().endswith(".rules")


def _resolve(path: str, seen: tuple = ()) -> tuple[Ruleset | None, list[Diagnostic]]:
    ir, diags = parse_file(path)
    if ir is None or any(d.severity == "error" for d in diags):
        return None, diags
    where = positions_file(ir, path)
    heads = [d for d in ir["decls"] if d["kind"] in ("game", "variant")]
    if len(heads) != 1 or (heads[0]["kind"] == "variant" and len(ir["decls"]) != 1):
        if len(heads) > 1:
            pos = heads[1]["pos"]                    # the second game or variant
        elif heads:
            pos = next(d for d in ir["decls"] if d is not heads[0])["pos"]   # beside the variant
        else:
            pos = [1, 1]
        return None, diags + [Diagnostic(where, pos[0], pos[1], "error", "L005",
                                         "a ruleset file holds exactly one 'game' (with its declarations) "
                                         "or one 'variant'")]
    head = heads[0]
    if head["kind"] == "game":
        files = [f if _names_a_rule_file(f) else where for f in ir["sources"]] \
            if len(ir.get("sources") or []) == len(ir["decls"]) else [where] * len(ir["decls"])
        rs = Ruleset(head["name"], None, list(ir["decls"]), list(files), [where])
        rs.root_players = head.get("players")
        return rs, diags
    base, more = variant_base(head, path, where, seen)
    diags += more
    if base is None:
        return None, diags
    more = apply_variant(base, head, where)
    diags += more
    diags += _for_players_problems(base, head, where)
    base.variant = head["name"]
    base.chain.append(where)
    base.count_rules += head.get("for_players") or []
    base.variant_head = head
    return base, diags


def _for_players_problems(rs: Ruleset, head: dict, where: str) -> list[Diagnostic]:
    """`for_players N` where the rules the variant leaves are not for N players (it kept the
    game's `players`): `provost play --players N` would refuse them, and a plain play would pick
    another count, so the rules said to be for N could never be played."""
    lo, hi = next((d.get("players") for d in rs.decls if d.get("kind") == "game"), None) or [1, 8]
    wrong = [n for n in head.get("for_players") or [] if not lo <= n <= hi]
    if not wrong:
        return []
    pos = head.get("for_players_pos") or head["pos"]
    allowed = "%d players" % lo if lo == hi else "%d to %d players" % (lo, hi)
    return [Diagnostic(where, pos[0], pos[1], "error", "L009",
                       "variant '%s' gives the rules for %s players, but its game is for %s: replace the "
                       "game's 'players' too" % (head["name"], ", ".join(map(str, wrong)), allowed))]


def variant_base(head: dict, path: str, where: str | None = None,
                 seen: tuple = ()) -> tuple[Ruleset | None, list[Diagnostic]]:
    """What the variant ``head`` (read from ``path``) changes: its base ruleset resolved, with the
    variants named after ``with`` applied.  ``where`` is the file its positions are in."""
    where = where or path
    pos = head["pos"]
    if os.path.abspath(path) in seen:
        return None, [Diagnostic(where, pos[0], pos[1], "error", "L003",
                                 "variant '%s' extends itself through its bases" % head["name"])]
    if len(seen) > MAX_VARIANT_DEPTH:          # no cycle: a chain too long to follow
        return None, [Diagnostic(where, pos[0], pos[1], "error", "L003",
                                 "variant '%s' is the base of %d variants stacked on each other: a chain of "
                                 "bases may be at most %d deep" % (head["name"], len(seen), MAX_VARIANT_DEPTH))]
    base_path, problem = _base_for(head["extends"], path)
    if problem:
        return None, [Diagnostic(where, pos[0], pos[1], "error", "L002", problem)]
    if base_path is None:
        ref = str(head["extends"])
        # Read from an IR document elsewhere than its rule file (an export): the base is looked for
        # beside the document, not beside the rule file this position names: say where.
        beside = "" if os.path.abspath(where) == os.path.abspath(path) else \
            " beside %s (the folder of the IR document, where its base is looked for)" % path
        return None, [Diagnostic(where, pos[0], pos[1], "error", "L002", "cannot find the base ruleset '%s'%s%s"
                                 % (ref, beside, did_you_mean(ref, _base_names(path, ref))))]
    base, diags = _resolve(base_path, seen + (os.path.abspath(path),))
    if base is None:
        return None, diags
    for name in head.get("with") or []:
        more = _apply_with(base, name, head, path, where)
        diags += more
        if any(d.severity == "error" for d in more):
            return None, diags
    return base, diags


def _base_for(ref: str, path: str) -> tuple[str | None, str]:
    """``(file, "")`` for a base or ``with`` variant named REF in PATH, or ``(None, why not)``."""
    try:
        return _base_or_problem(ref, path), ""
    except _RefusedBase as e:
        return None, str(e)
    except _AmbiguousBase as e:
        stems = [os.path.basename(f)[:-len(".rules")] for f in e.files]
        return None, ("'%s' names variants of several games (%s): name the file, e.g. extends \"%s\", "
                      "or name this file GAME.NAME.rules" % (ref, ", ".join(stems), stems[-1]))


def _base_names(path: str, unlike: str = "") -> list[str]:
    """What a variant could have meant to extend: shipped rulesets and the rule files beside it."""
    stems = {os.path.splitext(os.path.basename(f))[0] for f in shipped_files()}
    names = stems | {stem.rsplit(".", 1)[-1] for stem in stems}     # variants go by their own name
    try:
        folder = os.path.dirname(os.path.abspath(path))
        names.update(f for f in os.listdir(folder)[:1000] if f.endswith((".rules",) + IR_SUFFIXES))
        names.update(os.path.splitext(f)[0] for f in os.listdir(folder)[:1000] if f.endswith(".rules"))
    except OSError:
        pass
    return sorted(names - {unlike})


def missing_with(name: str, head: dict, path: str, where: str) -> Diagnostic:
    """L002 for a variant named after ``with`` in PATH's head that is nowhere to be found."""
    pos = head["pos"]
    return Diagnostic(where, pos[0], pos[1], "error", "L002", "cannot find the variant '%s' named after 'with'%s"
                      % (name, did_you_mean(str(name), _base_names(path, str(name)))))


def _apply_with(rs: Ruleset, name: str, head: dict, path: str, where: str) -> list[Diagnostic]:
    """``extends BASE with NAME``: apply variant NAME's own changes (not its bases') to ``rs``.

    So two variants of one game combine without copying either: ``variant kings_favor_three
    extends three_players with kings_favor`` is the 3-player rules, then King's Favor's changes.
    """
    pos = head["pos"]

    def error(code, msg):
        return [Diagnostic(where, pos[0], pos[1], "error", code, msg)]

    other, problem = _base_for(name, path)
    if problem:
        return error("L002", problem)
    if other is None:
        return [missing_with(name, head, path, where)]
    ir, diags = parse_file(other)
    if ir is None or any(d.severity == "error" for d in diags):
        return diags or error("L002", "cannot read the variant '%s'" % name)
    with_head = ir["decls"][0] if ir["decls"] else None
    if with_head is None or with_head["kind"] != "variant":
        return error("L006", "'%s' is not a variant: a game goes after 'extends', variants after 'with'" % name)
    root = _root_file_of(other)
    game = _head_of(root)["name"] if root else None
    if game != rs.name:
        return error("L006", "variant '%s' changes the game '%s', not '%s'" % (name, game, rs.name))
    if os.path.abspath(other) in map(os.path.abspath, rs.chain):
        return error("L003", "variant '%s' is already part of this variant's base" % name)
    other_where = positions_file(ir, other)
    # As variants composed on the command line: a rule both change is a conflict (L007), not
    # the later one's silently.
    from .compose import apply_composed, chain_of
    own_bases = ([root] if root else []) + chain_of(other)[:-1]
    more = apply_composed(rs, with_head, other, other_where, own_bases)
    rs.chain.append(other_where)
    return more


# ------------------------------------------------------------------ variants' errors in the variant
_QUOTED = re.compile(r"'([^']+)'")


def _change_names(ch: dict) -> set:
    d = ch.get("decl") if isinstance(ch.get("decl"), dict) else {}
    return {n for n in (ch.get("name"), d.get("name"), ch.get("phase"), ch.get("step"), ch.get("table"), ch.get("key"))
            if isinstance(n, str)}


def _blame_the_variant(rs: Ruleset, found: list[Diagnostic]) -> list[Diagnostic]:
    """Errors a variant causes in its base's declarations (removing a counter the base still
    uses, say) are reported in the variant, at the change that names what the message names
    (else at the variant's first line), with a note at each place in the base.  An error the
    base has on its own stays in the base: the base is checked alone only when this can matter."""
    head = rs.variant_head
    here = rs.chain[-1] if rs.chain else None
    if head is None or len(rs.chain) < 2 or not any(d.severity == "error" and d.path != here for d in found):
        return found
    base_rs, _ = _resolve(rs.chain[-2])
    from .checks import run_checks
    own = set(run_checks(base_rs)) if base_rs is not None else set()
    out: list[Diagnostic] = []
    blamed: dict = {}
    for d in found:
        if d.severity != "error" or d.path == here or d in own:
            out.append(d)
            continue
        names = set(_QUOTED.findall(d.message))
        ch = next((c for c in head.get("changes") or [] if _change_names(c) & names), None)
        pos = (ch or head).get("pos") or [1, 1]
        key = (pos[0], pos[1], d.code)
        if key not in blamed:
            blamed[key] = [d]
        else:
            blamed[key].append(d)
        out.append(Diagnostic(d.path, d.line, d.col, "note", d.code, "the base is affected here: %s" % d.message))
    for (line, col, code), ds in blamed.items():
        first = ds[0]
        more = " (and %d more place%s)" % (len(ds) - 1, "s" if len(ds) > 2 else "") if len(ds) > 1 else ""
        out.append(Diagnostic(here, line, col, "error", code, "this variant leaves %s broken at line %d: %s%s" % (
            os.path.basename(first.path), first.line, first.message, more)))
    return out


# ------------------------------------------------------------------ public entry points
def decl_texts(decls: list[dict]) -> list[str]:
    """Each declaration as canonical JSON (keys sorted), for the digest and the checks' cache key.

    Without ``attr_pos`` (where each field's value is written): the digest has named the same
    rules since before it was kept, and the checks' key adds it (``derived``)."""
    return [json.dumps(d if "attr_pos" not in d else {k: v for k, v in d.items() if k != "attr_pos"},
                       sort_keys=True) for d in decls]


def digest_of(decls: list[dict], texts: list[str] | None = None) -> str:
    """The rules' digest: saves and logs name it, and a changed rule changes it.

    Invariants check games, they do not change how one is played: adding one keeps the digest,
    so saved games, logs and learned values made before stay valid.  It hashes the JSON of the
    list of played declarations (``texts``: ``decl_texts(decls)`` when the caller has them)."""
    texts = decl_texts(decls) if texts is None else texts
    played = ", ".join(t for d, t in zip(decls, texts) if d.get("kind") != "invariant")
    return hashlib.sha256(("[" + played + "]").encode()).hexdigest()[:16]


def _finish(rs: Ruleset, diags: list[Diagnostic]) -> list[Diagnostic]:
    texts = decl_texts(rs.decls)      # one encoding of the rules for both keys
    found = derived.checked(rs, texts)
    if found is None:
        from .checks import run_checks
        found = _blame_the_variant(rs, run_checks(rs))
        derived.keep_checked(rs, texts, found)
    diags = diags + found
    rs.digest = digest_of(rs.decls, texts)
    return diags


def resolve(path: str) -> tuple[Ruleset | None, list[Diagnostic]]:
    """The rules at PATH with their bases and variants applied, not checked: what an editor needs
    to find names while the file still has errors."""
    rs, diags = _resolve(path)
    if rs is not None:
        rs.source_path = os.path.abspath(path)
    return rs, diags


def load(path: str) -> tuple[Ruleset | None, list[Diagnostic]]:
    rs, diags = _resolve(path)
    if rs is None:
        return None, diags
    rs.source_path = os.path.abspath(path)
    diags = _finish(rs, diags)
    if any(d.severity == "error" for d in diags):
        return None, diags
    return rs, diags


def load_ruleset(ruleset: str, variant: str | None = None,
                 players: int | None = None) -> tuple[dict | None, list[Diagnostic]]:
    """For `provost export`: the IR of one file (a variant file exports as the overlay it is),
    with the absolute path of the file its positions refer to as 'source' (`positions_file`).
    Composed variants or a player count export the resolved game, each declaration's file in
    'sources'."""
    from .compose import is_composed
    if is_composed(variant, players, ruleset):
        rs, diags = load_composed(ruleset, variant, players)
        if rs is None:
            return None, diags
        problem = players_out_of_range(rs, players) if players is not None else None
        if problem:             # as `provost play --players N` says it: rules nobody can play
            raise UsageError(problem)
        return {"provost_ir": 1, "decls": rs.decls, "sources": [os.path.abspath(f) for f in rs.files]}, diags
    path = resolve_path(ruleset, variant)
    ir, diags = parse_file(path)
    if ir is None or any(d.severity == "error" for d in diags):
        return None, diags
    rs, more = load(path)
    diags += [d for d in more if d not in diags]
    if rs is None:
        return None, diags
    exported = {"provost_ir": ir["provost_ir"], "source": os.path.abspath(positions_file(ir, path))}
    exported.update((k, v) for k, v in ir.items() if k not in exported)
    return exported, diags


# Rulesets loaded by name or path in this process: (name or path, variant, players, working dir)
# -> (the content digest of every file they were built from, the ruleset).  Parsing and checking
# take 80-400 ms; a script that calls Game.new("caylus") in a loop pays that once.
_CHECKED: dict = {}


def _files_digest(rs: Ruleset) -> str | None:
    """One digest of the contents of every file RS was built from, None when one is unreadable."""
    files = set(rs.chain) | set(rs.files)
    for steps in list(rs.step_files.values()) + list(rs.entry_files.values()):
        files |= set(steps.values())
    h = hashlib.sha256()
    for path in sorted(files):
        try:
            with open(path, "rb") as f:
                h.update(path.encode() + b"\0" + hashlib.sha256(f.read()).digest())
        except OSError:
            return None
    return h.hexdigest()


def load_checked(ruleset: str, variant: str | None = None, players: int | None = None) -> Ruleset:
    """For the engine: a resolved, checked ruleset, or RulesError.  ``variant`` may name several
    variants (``kings_favor+express``) and ``players`` picks the rules for that player count
    (`provost.dsl.compose`).  Loaded once per process while its files are unchanged; each call
    returns its own copy of the Ruleset record (the declarations are shared: treat them as
    read-only, or copy them as `provost.dsl.overrides.with_settings` does)."""
    key = (ruleset, variant, players, os.getcwd())
    hit = _CHECKED.get(key)
    if hit is not None and _files_digest(hit[1]) == hit[0]:
        return copy.copy(hit[1])
    rs = _load_checked(ruleset, variant, players)
    count = own_count(rs) if players is None else None
    if count is not None:
        with contextlib.suppress(RulesError):       # none for that count: E001 says so in play
            rs = _load_checked(ruleset, variant, count)
    digest = _files_digest(rs)
    if digest is not None:
        _CHECKED[key] = (digest, rs)
    return copy.copy(rs)


def _load_checked(ruleset: str, variant: str | None, players: int | None) -> Ruleset:
    from .compose import is_composed
    if is_composed(variant, players, ruleset):
        rs, diags = load_composed(ruleset, variant, players)
    else:
        path = resolve_path(ruleset, variant)
        rs, diags = load(path)
    if rs is None:
        raise RulesError([d for d in diags if d.severity == "error"])
    if shipped_game(ruleset) is not None:
        rs.source_path = None      # named as shipped: found again by name wherever provost is installed
    rs.variant_source = _variants_as_named(variant)
    return rs


def _variants_as_named(variant) -> str | None:
    """``variant`` with each variant file named by a path made absolute (a save or a log then
    finds it from any folder), or None when every variant is named by its name."""
    from .compose import SEPARATOR, split_variants
    names = split_variants(variant)
    if all(is_bare_name(n) for n in names):
        return None
    return SEPARATOR.join(n if is_bare_name(n) else os.path.abspath(n) for n in names)


def load_composed(ruleset: str, variant, players: int | None) -> tuple[Ruleset | None, list[Diagnostic]]:
    """A base with its player-count rules and several variants (`provost.dsl.compose`), checked."""
    from .compose import compose
    rs, diags = compose(ruleset, variant, players)
    if rs is None:
        return None, diags
    rs.source_path = os.path.abspath(resolve_path(ruleset))
    diags = _finish(rs, diags)
    if any(d.severity == "error" for d in diags):
        return None, diags
    return rs, diags


def check_file(path: str) -> list[Diagnostic]:
    return check_file_and_sources(path)[0]


def files_of_rules(rs: Ruleset, path: str) -> list[str]:
    """The files resolved rules read from PATH are made of: its bases, `with` variants and itself."""
    return [os.path.abspath(f) for f in dict.fromkeys(list(rs.chain) + list(rs.files) + [path])]


def check_file_and_sources(path: str) -> tuple[list[Diagnostic], list[str] | None]:
    """`check_file`'s diagnostics and the files the rules are made of (the file, its bases and
    its `with` variants; None when they do not resolve), for an editor that checks again what
    an edited file is part of."""
    rs, diags = _resolve(path)
    files = None
    if rs is not None:
        files = files_of_rules(rs, path)
        diags = _finish(rs, diags)
    seen, out = set(), []
    for d in diags:
        if d not in seen:
            seen.add(d)
            out.append(d)
    return out, files
