"""A flat numeric vector of what one player may see.

``ObservationEncoder(game, catalogue).encode(game.observation(p))`` turns the
observation dict of seat ``p`` into a fixed-length list of floats.  It reads
*only* that dict, so it can never show more than the engine lets ``p`` see;
and it aggregates pieces by (kind, owner, place) so that nothing depends on the
order in which the engine lists them (that order follows the pieces' creation,
hence their values -- see ``canonical_observation``).

Seats are rotated so that the observer comes first (index 0 is "me", 1 the
next seat, ...); the absolute seat is a one-hot of its own.  The layout comes
from the program's declarations and the catalogue's vocabularies:

    seat one-hot | to-move one-hot (+ nobody) | round | phase one-hot
    counters the observer may see (per seat, per enum key)
    zones: per slot (seat / enum key) its size and, where visible, a count per item
    pieces: per kind, seat and place: count, count with known value, sum of known values, face-up count
    orders: per order and seat, 1-based position (0 when absent)
    occupants: per space or tile instance and seat, workers there
    tiles: per tile instance: on the road, its slot, owner one-hot (+ nobody)
    supply: tiles of each kind left (-1 unlimited)

``layout()`` names every section with its offset, for anyone reading vectors.
Symbols the catalogue's vocabularies did not record (a zone item or piece
place never seen while exploring) count in an "other" column, never in a
wrong one.
"""
from __future__ import annotations

from .catalogue import Catalogue, zone_slots


def _num(v) -> float:
    t = type(v)
    if t is int or t is float:
        return float(v)
    if t is bool:
        return 1.0 if v else 0.0
    return 0.0


def canonical_observation(obs: dict) -> dict:
    """The observation with its pieces sorted by what the observer sees (not by creation order)."""
    out = dict(obs)
    out["pieces"] = sorted(obs["pieces"], key=lambda pc: (str(pc[0]), pc[1], str(pc[3]), pc[4],
                                                          pc[2] is not None, str(pc[2])))
    return out


class ObservationEncoder:
    def __init__(self, game, catalogue: Catalogue):
        prog = game.prog
        self.prog = prog
        self.n = game.s.players
        vocab = catalogue.vocab
        self.phases = [""] + list(prog.rounds) + ["final"]
        self.phase_index = {p: i for i, p in enumerate(self.phases)}
        self.counters = []          # (name, scope, size or None)
        for name, c in prog.counters.items():
            if c.get("visible", "public") not in ("public", "owner"):
                continue
            size = len(prog.enums[c["by"]]) if c.get("by") else None
            self.counters.append((name, c["scope"], size))
        self.zones = []             # (name, decl, slots, vocab index)
        for name, z in prog.zones.items():
            keys = len(prog.enums[z["by"]]) if z.get("by") else 1
            slots = keys * (self.n if z["scope"] == "player" else 1)
            items = vocab.get("zone_items", {}).get(name, [])
            self.zones.append((name, z, slots, {x: i for i, x in enumerate(items)}))
        self.pieces = []            # (kind, place index)
        for kind in prog.pieces:
            places = vocab.get("piece_places", {}).get(kind, [])
            self.pieces.append((kind, {x: i for i, x in enumerate(places)}))
        self.orders = sorted(set(prog.orders) | {"turn_order"})
        self.tiles = list(vocab.get("tiles", []))
        self.tile_index = {t: i for i, t in enumerate(self.tiles)}
        self.sites = list(prog.spaces) + [t for t in self.tiles if t not in prog.spaces]
        self.site_index = {t: i for i, t in enumerate(self.sites)}
        self.kinds = list(prog.buildings)
        self.road_length = max(1, prog.road_length)
        self._layout = []
        off = 0
        for name, size in self._sections():
            self._layout.append((name, off, size))
            off += size
        self.size = off

    def _sections(self):
        n = self.n
        yield "seat", n
        yield "to_move", n + 1
        yield "round", 1
        yield "phase", len(self.phases) + 1
        for name, scope, size in self.counters:
            yield "counter:" + name, (size or 1) * (n if scope == "player" else 1)
        for name, _, slots, idx in self.zones:
            yield "zone:" + name, slots * (2 + len(idx))
        for kind, idx in self.pieces:
            yield "pieces:" + kind, n * (len(idx) + 1) * 4
        for name in self.orders:
            yield "order:" + name, n
        yield "occupants", len(self.sites) * n
        yield "tiles", len(self.tiles) * (3 + n)
        yield "supply", len(self.kinds)

    def layout(self) -> list[tuple[str, int, int]]:
        """(section, offset, size) for every section of the vector."""
        return list(self._layout)

    # ------------------------------------------------------------ encoding
    def encode(self, obs: dict) -> list[float]:
        n = self.n
        me = obs["player"]
        out: list[float] = []
        ext = out.extend

        def rel(q):
            return (q - me) % n

        seat = [0.0] * n
        seat[me] = 1.0
        ext(seat)
        tm = [0.0] * (n + 1)
        tm[rel(obs["to_move"]) if obs["to_move"] is not None else n] = 1.0
        ext(tm)
        out.append(_num(obs["round"]))
        ph = [0.0] * (len(self.phases) + 1)
        ph[self.phase_index.get(obs["phase"], len(self.phases))] = 1.0
        ext(ph)
        counters = obs["counters"]
        for name, scope, size in self.counters:
            v = counters.get(name)
            width = size or 1
            if scope == "player":
                block = [0.0] * (width * n)
                if v is not None:
                    for q, x in enumerate(v[:n]):
                        base = rel(q) * width
                        if size and type(x) is list:
                            for k, y in enumerate(x[:width]):
                                block[base + k] = _num(y)
                        else:
                            block[base] = _num(x)
                ext(block)
            else:
                if size and type(v) is list:
                    ext([_num(y) for y in v[:width]] + [0.0] * (width - len(v[:width])))
                else:
                    block = [0.0] * width
                    block[0] = _num(v)
                    ext(block)
        zones = obs["zones"]
        for name, decl, slots, idx in self.zones:
            width = 2 + len(idx)
            block = [0.0] * (slots * width)
            v = zones.get(name)
            if v is not None:
                per = v if decl["scope"] == "player" else [v]
                if decl["scope"] == "player":
                    per = [per[(me + r) % n] for r in range(n)] if len(per) == n else per
                k = 0
                for x in per:
                    for slot in zone_slots({"scope": "global"}, x):
                        if k >= slots:
                            break
                        base = k * width
                        if type(slot) is list:
                            block[base] = float(len(slot))
                            for item in slot:
                                j = idx.get(_key(item))
                                block[base + 1 + (j if j is not None else len(idx))] += 1.0
                        else:
                            block[base] = _num(slot)
                        k += 1
            ext(block)
        for kind, idx in self.pieces:
            np_ = len(idx) + 1
            block = [0.0] * (n * np_ * 4)
            for pc in obs["pieces"]:
                if pc[0] != kind:
                    continue
                j = idx.get(pc[3], len(idx))
                base = (rel(pc[1]) * np_ + j) * 4
                block[base] += 1.0
                if pc[2] is not None:
                    block[base + 1] += 1.0
                    block[base + 2] += _num(pc[2])
                if pc[4]:
                    block[base + 3] += 1.0
            for key, cnt in obs.get("private_piece_counts", {}).items():
                k, owner, where = key.split(":", 2)
                if k != kind:
                    continue
                j = idx.get(where, len(idx))
                block[(rel(int(owner)) * np_ + j) * 4] += float(cnt)
            ext(block)
        orders = obs["orders"]
        for name in self.orders:
            block = [0.0] * n
            for i, q in enumerate(orders.get(name, [])):
                if type(q) is int and 0 <= q < n:
                    block[rel(q)] = float(i + 1)
            ext(block)
        block = [0.0] * (len(self.sites) * n)
        for where, seats in obs["occupants"].items():
            j = self.site_index.get(where)
            if j is None:
                continue
            for q in seats:
                if type(q) is int and 0 <= q < n:
                    block[j * n + rel(q)] += 1.0
        ext(block)
        width = 3 + n
        block = [0.0] * (len(self.tiles) * width)
        tiles = obs["tiles"]
        for slot, inst in enumerate(obs["road"]):
            if inst is None:
                continue
            j = self.tile_index.get(inst)
            if j is None:
                continue
            base = j * width
            block[base] = 1.0
            block[base + 1] = slot / self.road_length
            owner = tiles.get(inst, [None, -1])[1]
            block[base + 2 + (rel(owner) if type(owner) is int and 0 <= owner < n else n)] = 1.0
        ext(block)
        supply = obs["supply"]
        ext([_num(supply.get(k, 0)) for k in self.kinds])
        return out


def _key(item) -> str:
    if isinstance(item, list):
        return "+".join(_key(x) for x in item)
    return str(item)
