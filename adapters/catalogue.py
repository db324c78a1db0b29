"""A fixed action catalogue for a ruleset, variant and player count.

Learning libraries want integer actions from a fixed set plus a legality mask;
the engine names options by stable string ids (``place:gate``, ``provost:-2``,
``build:statue@residence``).  The catalogue is the sorted list of every id that
can occur, so that id <-> integer is a plain lookup.

How it is derived (``build_catalogue``), from the compiled program of the rule
file rather than by hand:

1. **Options.**  Every ``choose`` statement gives option templates ``name`` with
   parameters.  ``provost.interpreter.domains`` bounds every parameter's list
   from the rules alone: constant lists, ranges within counters' declared
   limits, the spaces and tile instances, the items a zone can ever hold (what
   the rules put there), a kind of piece's values, the places pieces can be,
   an effect's arguments at every call.  Each option's ids are the product of
   its parameters' domains.
2. **Tiles.**  Build choices (``skip``, ``build:KIND[/PAYMENT][@SITE]``) are
   enumerated from the building and category declarations: every kind of every
   category, every way of paying its "any of" costs, every tile instance it may
   be built on.
3. **Exploration, only for what the rules leave unbounded.**  A template with a
   parameter the analysis cannot bound (a list built from the state in a way it
   does not follow), or a product over ``PRODUCT_CAP``, is found by playing seeded
   games (half uniformly random, half "eager") and recording every legal option,
   then widening each position to the class of values it belongs to (every
   template, should the analysis itself fail on a rule file: the error is kept
   in ``sources["analysis_error"]``).  The catalogue lists such templates in
   ``sources["explored_templates"]``; every
   shipped ruleset, variant and player count has none, so their catalogues are
   complete by construction and built without playing a game.

``tests/test_adapters_catalogue.py`` plays held-out random and eager games, and
``python -m provost.tools.dev.catalogue_soak`` rare-option and greedy ones, checking
that no legal id falls outside.  At run time an id outside the
catalogue is never mapped to a neighbour: ``index_of`` raises
``ActionNotInCatalogue`` naming the id and the ruleset.

Catalogues are cached as JSON under the cache dir (``$PROVOST_CACHE_DIR``, else
``$XDG_CACHE_HOME/provost``, else ``~/.cache/provost``) keyed by the ruleset's
digest, the player count and the exploration budget; a changed rule file gets a
new digest and so a new catalogue.

The catalogue also records the symbol vocabularies an observation encoder needs
(tile instances, spaces, zone items, piece places) -- see ``provost.adapters.encoding``.

    python -m provost.adapters.catalogue caylus --players 4          # build (or load) and summarise
"""
from __future__ import annotations

import json
import operator
import os
import random
import sys
from itertools import combinations_with_replacement, product

from provost.dsl.atomic import write_atomically
from provost.interpreter import nodes as N
from provost.interpreter.domains import Domains, listed, product_size, tile_instances
from provost.interpreter.program import is_static

FORMAT = 5        # 4: symbols widened to every class that fits; 5: derived from the rules (provost.interpreter.domains)
#: Exploration games per catalogue (seeds 0 .. GAMES-1), played only for templates the rules leave unbounded.
DEFAULT_GAMES = 300
#: A template's widened cross product is used only below this size; else only the combinations seen.
PRODUCT_CAP = 20000
#: At most this many decisions per exploration game (a safety net for rules that loop).
MAX_DECISIONS = 20000

_NULL = frozenset({"pass", "skip", "stop", "stay", "back", "none", "nothing", "done", "no", "decline"})


class ActionNotInCatalogue(KeyError):
    """A legal option id that the catalogue does not hold: never mapped to another action."""

    def __init__(self, option: str, cat: "Catalogue"):
        msg = ("option '%s' is not in the action catalogue of %s (variant %s, %d players, digest %s, %d actions)"
               % (option, cat.ruleset, cat.variant or "base", cat.players, cat.digest, len(cat)))
        if "%s/%d" % _template(option) in cat.data.get("sources", {}).get("explored_templates", ()):
            msg += ("; the rules do not bound this option's parameters, so they were found by %d exploration "
                    "games: rebuild it with more: python -m provost.adapters.catalogue %s%s --players %d "
                    "--games %d --rebuild" % (cat.games, cat.ruleset, " --variant " + cat.variant if cat.variant
                                              else "", cat.players, cat.games * 4))
        else:
            msg += ("; its template is derived from the rules, so a legal id outside it is a gap in that "
                    "analysis (provost.interpreter.domains): please report it with the rule file")
        super().__init__(msg)
        self.option = option

    def __str__(self) -> str:  # KeyError quotes its message otherwise
        return self.args[0]


class Catalogue:
    """Action ids <-> integers for one ruleset, variant and player count."""

    def __init__(self, data: dict):
        self.data = data
        self.ruleset: str = data["ruleset"]
        self.variant: str | None = data["variant"]
        self.digest: str = data["digest"]
        self.players: int = data["players"]
        self.games: int = data["games"]
        self.actions: list[str] = data["actions"]
        self.vocab: dict = data["vocab"]
        self.index: dict[str, int] = {a: i for i, a in enumerate(self.actions)}

    def __len__(self) -> int:
        return len(self.actions)

    def __deepcopy__(self, memo):
        # Never changed once built: states that hold it (OpenSpiel clones states with deepcopy)
        # share it instead of copying tens of thousands of ids per clone.
        return self

    def __contains__(self, option: str) -> bool:
        return option in self.index

    def action_of(self, i: int) -> str:
        if not 0 <= i < len(self.actions):      # (a negative index is not the last action)
            raise IndexError("action %r is not one of 0..%d" % (i, len(self.actions) - 1))
        return self.actions[i]

    def option_at(self, action) -> str | None:
        """The option an agent's ACTION names (an integer index, NumPy's too), or None when it
        names none (out of the catalogue, or no integer: 1.5 is no action, not action 1)."""
        i = as_index(action)
        return self.actions[i] if i is not None and 0 <= i < len(self.actions) else None

    def index_of(self, option: str) -> int:
        i = self.index.get(option)
        if i is None:
            raise ActionNotInCatalogue(option, self)
        return i

    def illegal(self, action, legal: list[str], who: str) -> str:
        """Why ACTION cannot be played by WHO now, naming the legal actions as ``index (id)``."""
        option = self.option_at(action)
        named = " (%s)" % option if option is not None else ""
        return "action %r%s is not legal for %s now; legal actions: %s" % (
            action, named, who, ", ".join("%d (%s)" % (self.index_of(o), o) for o in legal))

    def legal_indices(self, game) -> list[int]:
        """The catalogue indexes of the legal options now (raises if one is missing)."""
        return [self.index_of(o) for o in game.legal_options()]

    def check(self, game) -> None:
        """Raise ``ValueError`` if ``game`` was not made with these rules and players."""
        if game.rs.digest != self.digest or game.s.humans != self.players:
            raise ValueError("this catalogue is for %s (digest %s, %d players), not for a game of %s (digest %s, %d players)"
                             % (self.ruleset, self.digest, self.players, game.rs.name, game.rs.digest, game.s.humans))


def as_index(action) -> int | None:
    """An action as a catalogue index: an integer (NumPy's too, or an array holding one integer);
    None for anything else (1.5 is no action, not action 1)."""
    try:
        return operator.index(action)
    except TypeError:
        size, kind = getattr(action, "size", None), getattr(getattr(action, "dtype", None), "kind", None)
        return int(action.item()) if size == 1 and kind in ("i", "u") else None


# ------------------------------------------------------------------ cache
def cache_dir() -> str:
    d = os.environ.get("PROVOST_CACHE_DIR")
    if not d:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        d = os.path.join(base, "provost")
    return os.path.join(d, "catalogues")


def _cache_path(name: str, variant: str | None, digest: str, players: int, games: int) -> str:
    return os.path.join(cache_dir(), "%s-%s-%s-p%d-g%d-f%d.json" % (name, variant or "base", digest, players, games, FORMAT))


_memo: dict = {}


def catalogue_for(ruleset, variant: str | None = None, players: int | None = None,
                  games: int = DEFAULT_GAMES, rebuild: bool = False, cache: bool = True) -> Catalogue:
    """The catalogue for a ruleset (a name, a path or a loaded ``Ruleset``), from memory, the cache, or built."""
    from provost.interpreter.engine import Game

    g0 = Game.new(ruleset, players=players, seed=0, variant=variant)
    rs = g0.rs
    players = g0.s.humans
    key = (rs.digest, rs.name, rs.variant, players, games)
    if not rebuild and key in _memo:
        return _memo[key]
    path = _cache_path(rs.name, rs.variant, rs.digest, players, games)
    cat = None
    if cache and not rebuild and os.path.exists(path):
        try:
            with open(path) as f:
                data = json.load(f)
            if data.get("format") == FORMAT and data.get("digest") == rs.digest:
                cat = Catalogue(data)
        except (OSError, ValueError, KeyError):
            cat = None
    if cat is None:
        cat = Catalogue(build_catalogue(rs, players, games))
        if cache:
            try:
                os.makedirs(os.path.dirname(path), exist_ok=True)
                write_atomically(path, json.dumps(cat.data, indent=0, sort_keys=True).encode())
            except OSError:
                pass                      # a read-only home: the catalogue is still correct, just not cached
    _memo[key] = cat
    return cat


# ------------------------------------------------------------------ derivation
def _natural(s: str):
    """Sort key: numbers inside ids sort as numbers (provost:-3 before provost:2)."""
    out = []
    for part in s.replace("+", ":").replace("/", ":").replace("@", ":").split(":"):
        try:
            out.append((0, int(part), ""))
        except ValueError:
            out.append((1, 0, part))
    return out


def _derived_options(domains: Domains) -> tuple[set, set, dict]:
    """Option ids bounded by the rules (``provost.interpreter.domains``); the templates
    ``(name, arity)`` it leaves unbounded somewhere; per template the bounded positions'
    values as ids spell them (the widening of an explored template starts from those)."""
    ids: set = set()
    unbounded: set = set()
    positions: dict = {}
    for name, doms in domains.options:
        key = (name, len(doms))
        slot = positions.setdefault(key, [set() for _ in doms])
        for i, d in enumerate(doms):
            if d is not None:
                slot[i].update(N.option_id("", [listed(v)])[1:] for v in d)
        if any(d is None for d in doms) or product_size(doms) > PRODUCT_CAP:
            unbounded.add(key)
            continue
        for combo in product(*doms):
            ids.add(N.option_id(name, [listed(v) for v in combo]))
    return ids, unbounded, positions


def _build_ids(g0) -> set:
    """``skip`` and every ``build:KIND[/PAYMENT][@SITE]`` the tile declarations allow."""
    prog = g0.prog
    kinds_of = {}
    for kind, b in prog.buildings.items():
        kinds_of.setdefault(b["category"], []).append(kind)
    has_tile = any(type(n) is N.BuildTile for n in prog.nodes if n is not None)
    has_on = any(isinstance(n, N.BuildTile) and type(n) is not N.BuildTile for n in prog.nodes if n is not None)
    if not (has_tile or has_on):
        return set()
    instances = tile_instances(prog)
    ids = {"skip"}
    for cat_name, cat in prog.categories.items():
        onto = cat.get("built_on")
        sites = [None]
        if onto:
            onto_kinds = set(kinds_of.get(onto, []))
            sites = [t for t in instances if t.rsplit("_", 1)[0] in onto_kinds or t in onto_kinds]
        for kind in kinds_of.get(cat_name, []):
            for label in _payment_labels(g0, prog.buildings[kind]["cost"]):
                base = "build:" + kind + ("/" + label if label else "")
                if has_on:
                    ids.add(base)
                if has_tile:
                    for site in sites:
                        ids.add(base + ("@" + site if site else ""))
    return ids


def _payment_labels(g0, cost) -> list[str]:
    """Every label ``Game._payments`` can give a cost: one resource per "any of" amount, joined by ``+``."""
    choices = []
    for a in cost:
        if a["what"] not in g0.prog.resources:
            try:
                choices.append([str(r) for r in g0.prog.let_value(a["what"])(g0, {})])
            except Exception:              # noqa: BLE001 - left to exploration
                return [""]
    if not choices:
        return [""]
    return ["+".join(c) for c in product(*choices)]


def _classes(g0, vocab) -> list:
    """Symbol classes (in declaration order) a parameter's values are widened to; the smallest holding them wins."""
    prog = g0.prog
    classes = [[str(x) for x in v] for v in prog.enums.values()]
    classes.append(list(prog.resources))
    classes.append(list(prog.spaces) + list(vocab["tiles"]) + [b for b in prog.buildings if b not in vocab["tiles"]])
    classes.append(list(prog.buildings))
    classes.append([str(p) for p in range(g0.s.players)])
    for name, d in prog.lets.items():
        if d.get("params") or not is_static(d["value"], prog):
            continue
        try:
            v = prog.let_value(name)(g0, {})
        except Exception:                  # noqa: BLE001
            continue
        if isinstance(v, list) and v and all(isinstance(x, str) for x in v):
            classes.append(list(v))
    return [c for c in classes if c]


def _most_pieces(prog) -> int:
    """The most pieces of one kind a seat holds: the bound of a piece's index in a list value."""
    return max((len(d.get("values") or ()) + len(d.get("reserve") or ()) for d in prog.pieces.values()), default=0)


def _explore(rs, players: int, games: int, seen: set, vocab: dict, seeds=None) -> int:
    """Play seeded games recording every legal option and the observation vocabularies; returns decisions."""
    from provost.interpreter.engine import Game

    total = 0
    zone_items = vocab.setdefault("zone_items", {})
    places = vocab.setdefault("piece_places", {})
    for seed in (seeds if seeds is not None else range(games)):
        g = Game.new(rs, players=players, seed=seed)
        r = random.Random(seed * 7919 + 1)
        eager = seed % 2 == 1
        n = 0
        while not g.finished and n < MAX_DECISIONS:
            opts = g.s.pending["options"]
            seen.update(opts)
            if n % 8 == 0:
                _record_vocab(g, zone_items, places)
            if eager and len(opts) > 1:
                busy = [o for o in opts if o not in _NULL]
                opt = r.choice(busy) if busy and r.random() < 0.9 else r.choice(opts)
            else:
                opt = r.choice(opts)
            g.apply(opt)
            n += 1
        _record_vocab(g, zone_items, places)
        total += n
    return total


def zone_slots(zdecl: dict, value):
    """Each slot of a zone's value, in a fixed order: a list of items, or a count where it is hidden."""
    per = value if zdecl["scope"] == "player" else [value]
    for v in per:
        if isinstance(v, dict):
            yield from v.values()
        else:
            yield v


def _record_vocab(g, zone_items: dict, places: dict) -> None:
    s, prog = g.s, g.prog
    for name, z in s.zones.items():
        if name not in prog.zones:
            continue
        bag = zone_items.setdefault(name, set())
        for slot in zone_slots(prog.zones[name], z):
            if isinstance(slot, list):
                bag.update(_item_key(x) for x in slot)
    for pc in s.pieces:
        places.setdefault(pc[0], set()).add(pc[3])


def _item_key(item) -> str:
    if isinstance(item, list):
        return "+".join(_item_key(x) for x in item)
    return str(item)


def _generalise(g0, templates: dict, seen: set, static_pos: dict, vocab) -> set:
    """Widen each template's per-position values to their classes and combine them."""
    classes = _classes(g0, vocab)
    out: set = set()
    by_template: dict = {}
    for oid in seen:
        name, _, rest = oid.partition(":")
        if not rest:
            continue
        parts = rest.split(":")
        if (name, len(parts)) in templates:
            by_template.setdefault((name, len(parts)), []).append(parts)
    for key, rows in by_template.items():
        arity = key[1]
        domains = []
        for i in range(arity):
            vals = {r[i] for r in rows}
            st = static_pos.get(key, [None] * arity)[i]
            if st:
                vals |= st
            domains.append(sorted(_widen(vals, classes, _most_pieces(g0.prog)), key=_natural))
        if product_size(domains) <= PRODUCT_CAP:
            for combo in product(*domains):
                out.add(key[0] + ":" + ":".join(combo))
    return out


def _widen(vals: set, classes: list, most_pieces: int = 0) -> set:
    """A parameter position's values widened to the class they belong to.

    Integers fill the range between the smallest and the largest; symbols take
    every class holding them all (or, when none does, every class holding one of them).  List values (``a+b+c``) are widened
    element by element: lists of one length whose elements differ in kind
    (``[owner, place, n]``) position by position, otherwise as multisets of
    the elements' class in the class's order.
    """
    if any("+" in v for v in vals):
        return vals | _widen_lists(vals, classes, most_pieces)
    try:
        ints = [int(v) for v in vals]
    except ValueError:
        ints = None
    if ints is not None:
        return {str(k) for k in range(min(ints), max(ints) + 1)}
    # Every class that holds all the values seen: a value the games never reached may belong to
    # the larger one (a printed space as well as the road's tiles).
    fits = [c for c in classes if vals <= set(c)] or [c for c in classes if vals & set(c)]
    return vals.union(*map(set, fits))


def _widen_lists(vals: set, classes: list, most_pieces: int) -> set:
    rows = [v.split("+") for v in vals]
    lengths = {len(r) for r in rows}
    out: set = set()
    if len(lengths) == 1:
        k = lengths.pop()
        cols = [_widen_column({r[i] for r in rows}, classes, most_pieces) for i in range(k)]
        mixed = len({frozenset(c) for c in cols}) > 1
        if mixed and product_size(cols) <= PRODUCT_CAP:
            return {"+".join(c) for c in product(*[sorted(c, key=_natural) for c in cols])}
        lengths = {k}
    elems = _widen({x for r in rows for x in r}, classes)
    order = _class_order(elems, classes)
    for k in lengths:
        if _comb_size(len(order), k) <= PRODUCT_CAP:
            out.update("+".join(c) for c in combinations_with_replacement(order, k))
    return out


def _widen_column(vals: set, classes: list, most_pieces: int) -> set:
    """One position of list values.  An integer there counts pieces (``[owner, place, n]``: the n-th
    face-down piece of a seat at a place), so it runs from 0 up to the most pieces of one kind a
    seat holds, whatever the exploration games happened to reach."""
    widened = _widen(vals, classes, most_pieces)
    try:
        ints = [int(v) for v in widened]
    except ValueError:
        return widened
    return {str(k) for k in range(min(0, min(ints)), max(max(ints), most_pieces - 1) + 1)}


def _class_order(elems: set, classes: list) -> list:
    for c in classes:
        if isinstance(c, list) and elems <= set(c):
            return [x for x in c if x in elems] + sorted(elems - set(c), key=_natural)
    return sorted(elems, key=_natural)


def _comb_size(n: int, k: int) -> int:
    from math import comb
    return comb(n + k - 1, k)


def build_catalogue(rs, players: int, games: int = DEFAULT_GAMES) -> dict:
    """Derive the catalogue's JSON data (see the module docstring for the method)."""
    from provost.interpreter.engine import ENGINE_VERSION, Game

    g0 = Game.new(rs, players=players, seed=0)
    rs = g0.rs
    prog = g0.prog
    analysis_error = None
    try:
        domains = Domains(g0)
    except Exception as e:                  # noqa: BLE001 - a gap in the analysis: explore everything
        domains, analysis_error = None, "%s: %s" % (type(e).__name__, e)
    if domains is not None:
        derived, unbounded, positions = _derived_options(domains)
        zone_items, piece_places = domains.zone_items, domains.piece_places
    else:
        derived, positions, zone_items, piece_places = set(), {}, {}, {}
        unbounded = {(o.name, len(o.params)) for n in prog.nodes if isinstance(n, N.Choose) for o in n.options}
    build_ids = _build_ids(g0)
    vocab: dict = {"tiles": tile_instances(prog), "spaces": list(prog.spaces),
                   "zone_items": {z: {_item_key(listed(x)) for x in items}
                                  for z, items in zone_items.items() if items is not None},
                   "piece_places": {k: set(places) for k, places in piece_places.items() if places is not None}}
    # What the rules leave unbounded is found by playing seeded games, then widened.
    explored: set = set()
    widened: set = set()
    decisions = 0
    unbounded_vocab = (len(vocab["zone_items"]) < len(prog.zones)) or (len(vocab["piece_places"]) < len(prog.pieces))
    if unbounded or unbounded_vocab:
        seen: set = set()
        found: dict = {"zone_items": {}, "piece_places": {}}
        decisions = _explore(rs, players, games, seen, found)
        explored = {o for o in seen if _template(o) in unbounded}
        widened = _generalise(g0, unbounded, explored, positions, {**vocab, **found})
        for part in ("zone_items", "piece_places"):
            for k, v in found[part].items():
                vocab[part].setdefault(k, v)
    actions = sorted(derived | build_ids | explored | widened, key=lambda a: (_natural(a), a))
    vocab["zone_items"] = {k: sorted(v, key=_natural) for k, v in sorted(vocab["zone_items"].items())}
    vocab["piece_places"] = {k: sorted(v, key=_natural) for k, v in sorted(vocab["piece_places"].items())}
    return {"format": FORMAT, "engine": ENGINE_VERSION, "ruleset": rs.name, "variant": rs.variant,
            "digest": rs.digest, "players": players, "games": games,
            "sources": {"derived": len(derived), "tiles": len(build_ids),
                        "explored_templates": sorted("%s/%d" % t for t in unbounded),
                        "explored": len(explored), "widened": len(widened), "exploration_decisions": decisions,
                        "analysis_error": analysis_error},
            "actions": actions, "vocab": vocab}


def _template(option_id: str) -> tuple[str, int]:
    name, _, rest = option_id.partition(":")
    return name, (len(rest.split(":")) if rest else 0)


def held_out_misses(cat: Catalogue, games: int, first_seed: int = 10_000_000) -> list[str]:
    """Ids legal in ``games`` fresh exploration games (other seeds) that the catalogue lacks."""
    seen: set = set()
    _explore(cat.ruleset if not cat.variant else _load(cat), cat.players, games, seen, {},
             seeds=range(first_seed, first_seed + games))
    return sorted(o for o in seen if o not in cat.index)


def _load(cat: Catalogue):
    from provost.dsl.loader import load_checked
    return load_checked(cat.ruleset, cat.variant)


def main(argv=None) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="python -m provost.adapters.catalogue", description="Build or show an action catalogue.")
    ap.add_argument("ruleset")
    ap.add_argument("--variant")
    ap.add_argument("--players", type=int)
    ap.add_argument("--games", type=int, default=DEFAULT_GAMES)
    ap.add_argument("--rebuild", action="store_true")
    ap.add_argument("--check", type=int, default=0, metavar="G", help="also play G held-out games and list missing ids")
    ap.add_argument("--list", action="store_true", help="print every action id")
    a = ap.parse_args(argv)
    for flag, value, least in (("--players", a.players, 1), ("--games", a.games, 0), ("--check", a.check, 0)):
        if value is not None and value < least:
            ap.error("argument %s: expected a number >= %d, got %d" % (flag, least, value))
    from provost.dsl.diagnostics import RulesError, UsageError, printable
    try:
        cat = catalogue_for(a.ruleset, a.variant, a.players, a.games, rebuild=a.rebuild)
    except UsageError as e:                 # an unknown ruleset or variant name, as `provost` says it
        print("%s: error: %s" % (ap.prog, printable(e.message)), file=sys.stderr)
        return 2
    except RulesError as e:                 # rules with errors, or a player count they do not allow
        for d in e.diagnostics:
            print(d.format_text(), file=sys.stderr)
        return 1
    print("%s (%s), %d players, digest %s: %d actions %s" % (cat.ruleset, cat.variant or "base", cat.players,
                                                           cat.digest, len(cat), json.dumps(cat.data["sources"])))
    if a.list:
        for i, x in enumerate(cat.actions):
            print("%5d %s" % (i, x))
    if a.check:
        missing = held_out_misses(cat, a.check)
        print("held-out games: %d, ids missing: %d %s" % (a.check, len(missing), " ".join(missing[:30])))
        return 1 if missing else 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
