"""A fixed action catalogue for a ruleset, variant and player count.

Learning libraries want integer actions from a fixed set plus a legality mask;
the engine names options by stable string ids (``place:gate``, ``provost:-2``,
``build:statue@residence``).  The catalogue is the sorted list of every id that
can occur, so that id <-> integer is a plain lookup.

How it is derived (``build_catalogue``), from the compiled program of the rule
file rather than by hand:

1. **Static templates.**  Every ``choose`` statement in the program
   (``provost.interpreter.nodes.Choose``) gives option templates ``name`` with a number
   of parameters.  Options without parameters are complete at once.
2. **Constant parameter lists.**  A parameter whose list is written with
   literals, ranges, enums, constant lets and ``player_count`` (``provost(k in
   -3..3)``) is evaluated, and the option's every combination is added.
3. **Tiles.**  Build choices (``skip``, ``build:KIND[/PAYMENT][@SITE]``) are
   enumerated from the building and category declarations: every kind of every
   category, every way of paying its "any of" costs, every tile instance it may
   be built on.
4. **Exploration.**  Parameters whose lists depend on the state (the spaces a
   worker can go to, the brokers behind a screen) are found by playing seeded
   games (half uniformly random, half "eager": a random option other than
   pass/skip) and recording *every* legal option at *every* decision.
5. **Generalisation.**  For each template and parameter position, the values
   seen are widened to the whole class they belong to (all integers between the
   smallest and largest seen; all values of an enum, a constant list, the
   resources, or the spaces and tile instances), then the positions are combined
   (cross product, when it stays under ``PRODUCT_CAP``).

Guarantee: ids from 1-3 are complete by construction; ids from 4-5 are
empirical (every id legal at any decision of the exploration games, plus the
widening).  ``tests/test_adapters_catalogue.py`` plays held-out games and checks
that no legal id falls outside.  At run time an id outside the catalogue is
never mapped to a neighbour: ``index_of`` raises ``ActionNotInCatalogue``
naming the id, the ruleset and how to rebuild the catalogue with more games.

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
import os
import random
from itertools import combinations_with_replacement, product

from provost.interpreter import nodes as N

FORMAT = 4        # 2: ranges bounded by counters' limits; 4: symbols widened to every class that fits
#: Exploration games per catalogue (seeds 0 .. GAMES-1).
DEFAULT_GAMES = 300
#: A template's widened cross product is used only below this size; else only the combinations seen.
PRODUCT_CAP = 20000
#: At most this many decisions per exploration game (a safety net for rules that loop).
MAX_DECISIONS = 20000

_NULL = frozenset({"pass", "skip", "stop", "stay", "back", "none", "nothing", "done", "no", "decline"})


class ActionNotInCatalogue(KeyError):
    """A legal option id that the catalogue does not hold: never mapped to another action."""

    def __init__(self, option: str, cat: "Catalogue"):
        msg = ("option '%s' is not in the action catalogue of %s (variant %s, %d players, digest %s, %d actions, "
               "derived from %d exploration games); rebuild it with more games: "
               "python -m provost.adapters.catalogue %s%s --players %d --games %d --rebuild"
               % (option, cat.ruleset, cat.variant or "base", cat.players, cat.digest, len(cat), cat.games,
                  cat.ruleset, " --variant " + cat.variant if cat.variant else "", cat.players, cat.games * 4))
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
        return self.actions[i]

    def index_of(self, option: str) -> int:
        i = self.index.get(option)
        if i is None:
            raise ActionNotInCatalogue(option, self)
        return i

    def legal_indices(self, game) -> list[int]:
        """The catalogue indexes of the legal options now (raises if one is missing)."""
        return [self.index_of(o) for o in game.legal_options()]

    def check(self, game) -> None:
        """Raise ``ValueError`` if ``game`` was not made with these rules and players."""
        if game.rs.digest != self.digest or game.s.humans != self.players:
            raise ValueError("this catalogue is for %s (digest %s, %d players), not for a game of %s (digest %s, %d players)"
                             % (self.ruleset, self.digest, self.players, game.rs.name, game.rs.digest, game.s.humans))


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
                tmp = path + ".tmp%d" % os.getpid()
                with open(tmp, "w") as f:
                    json.dump(cat.data, f, indent=0, sort_keys=True)
                os.replace(tmp, path)
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


def _walk_ir(x, out: list):
    if isinstance(x, dict):
        if x.get("s") == "choose":
            out.append(x)
        for v in x.values():
            _walk_ir(v, out)
    elif isinstance(x, list):
        for v in x:
            _walk_ir(v, out)


def _is_static(e, prog) -> bool:
    """True when an expression's value is fixed once the rules and player count are (no state, no variables)."""
    k = e.get("e")
    if k in ("int", "str"):
        return True
    if k == "name":
        n = e["id"]
        if n == "player_count" or n in prog.enums:
            return True
        if n in prog.lets:
            d = prog.lets[n]
            return not d.get("params") and _is_static(d["value"], prog)
        return not (n in prog.counters or n in prog.orders or n in prog.zones or n in prog.tables
                    or n in ("player", "target", "slot", "self", "round"))
    if k == "list":
        return all(_is_static(i, prog) for i in e["items"])
    if k == "range":
        return _is_static(e["lo"], prog) and _is_static(e["hi"], prog)
    if k == "binop":
        return _is_static(e["left"], prog) and _is_static(e["right"], prog)
    if k == "unop" or k == "neg":
        inner = e.get("x") or e.get("operand")
        return inner is not None and _is_static(inner, prog)
    return False


#: A range whose bounds come from counters' declared limits is enumerated up to this many values.
RANGE_CAP = 200


def _bounds(e, prog) -> tuple[int, int] | None:
    """The smallest and largest value an integer expression can take, from the rules alone: numbers,
    constant lets, and counters within their declared ``min``/``max`` (a counter read by index,
    ``favor_level[r]``, too); None when that is not known.  So ``column(c in 1..favor_level[r])``
    is every column the table can open, not only those random games happened to open."""
    k = e.get("e")
    if k == "int":
        return e["v"], e["v"]
    if k == "index":
        e = e.get("x") or {}
        k = e.get("e")
    if k == "name":
        n = e["id"]
        c = prog.counters.get(n)
        if c is not None:
            lo = c.get("min")
            hi = c.get("max")
            return (0 if lo is None else lo, hi) if hi is not None else None
        d = prog.lets.get(n)
        if d is not None and not d.get("params"):
            return _bounds(d["value"], prog)
        return None
    if k == "binop" and e["op"] in ("+", "-", "*"):
        a, b = _bounds(e["left"], prog), _bounds(e["right"], prog)
        if a is None or b is None:
            return None
        if e["op"] == "+":
            return a[0] + b[0], a[1] + b[1]
        if e["op"] == "-":
            return a[0] - b[1], a[1] - b[0]
        corners = [x * y for x in a for y in b]
        return min(corners), max(corners)
    return None


def _range_domain(e, prog) -> list | None:
    if e.get("e") != "range":
        return None
    lo, hi = _bounds(e["lo"], prog), _bounds(e["hi"], prog)
    if lo is None or hi is None or hi[1] - lo[0] >= RANGE_CAP:
        return None
    return list(range(lo[0], hi[1] + 1))


def _static_options(g0) -> tuple[set, dict]:
    """Ids complete by construction, and {(name, arity): [set of static values per position or None]}."""
    prog = g0.prog
    ids: set = set()
    static_pos: dict = {}
    chooses: list = []
    _walk_ir(prog.rs.decls, chooses)
    for ch in chooses:
        for o in ch["options"]:
            params = o["params"]
            key = (o["name"], len(params))
            if not params:
                ids.add(o["name"])
                continue
            names_before: set = set()
            domains = []
            for prm in params:
                dom = None
                if _is_static(prm["in"], prog) and not (_names(prm["in"]) & names_before):
                    try:
                        f = prog.expr.compile(prm["in"], frozenset({"player"}))
                        dom = list(f(g0, {"player": 0}))
                    except Exception:          # noqa: BLE001 - not evaluable without a state: explored instead
                        dom = None
                if dom is None:
                    dom = _range_domain(prm["in"], prog)
                names_before.add(prm["name"])
                domains.append(dom)
            slot = static_pos.setdefault(key, [set() if d is not None else None for d in domains])
            for i, d in enumerate(domains):
                if d is None:
                    slot[i] = None
                elif slot[i] is not None:
                    slot[i].update(N.option_id("", [v])[1:] for v in d)
            if all(d is not None for d in domains) and _product_size(domains) <= PRODUCT_CAP:
                for combo in product(*domains):
                    ids.add(N.option_id(o["name"], list(combo)))
    return ids, static_pos


def _names(e) -> set:
    out: set = set()

    def walk(x):
        if isinstance(x, dict):
            if x.get("e") == "name":
                out.add(x["id"])
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
    walk(e)
    return out


def _product_size(domains) -> int:
    n = 1
    for d in domains:
        n *= max(1, len(d))
    return n


def tile_instances(prog) -> list[str]:
    """Every tile instance name the engine can give (``kind``, ``kind_2`` ... up to how many can exist)."""
    out = []
    for kind, b in prog.buildings.items():
        count = b["count"]
        cap = prog.road_length if not isinstance(count, int) else max(1, count)
        cap = max(1, min(cap, max(1, prog.road_length)))
        out.append(kind)
        out.extend("%s_%d" % (kind, k) for k in range(2, cap + 1))
    return out


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
        if d.get("params") or not _is_static(d["value"], prog):
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
        if _product_size(domains) <= PRODUCT_CAP:
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
        if mixed and _product_size(cols) <= PRODUCT_CAP:
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
    static_ids, static_pos = _static_options(g0)
    build_ids = _build_ids(g0)
    templates = {(o.name, len(o.params)) for n in prog.nodes if isinstance(n, N.Choose) for o in n.options}
    vocab: dict = {"tiles": tile_instances(prog), "spaces": list(prog.spaces)}
    seen: set = set()
    decisions = _explore(rs, players, games, seen, vocab)
    widened = _generalise(g0, templates, seen, static_pos, vocab)
    actions = sorted(static_ids | build_ids | seen | widened, key=lambda a: (_natural(a), a))
    vocab["zone_items"] = {k: sorted(v, key=_natural) for k, v in sorted(vocab["zone_items"].items())}
    vocab["piece_places"] = {k: sorted(v, key=_natural) for k, v in sorted(vocab["piece_places"].items())}
    return {"format": FORMAT, "engine": ENGINE_VERSION, "ruleset": rs.name, "variant": rs.variant,
            "digest": rs.digest, "players": players, "games": games,
            "sources": {"static": len(static_ids), "tiles": len(build_ids), "explored": len(seen),
                        "widened": len(widened), "exploration_decisions": decisions},
            "actions": actions, "vocab": vocab}


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
    cat = catalogue_for(a.ruleset, a.variant, a.players, a.games, rebuild=a.rebuild)
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
