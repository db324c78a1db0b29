"""A board description for one seat, built from the rule file's declarations and that seat's observation.

``board_view(decls, obs)`` turns the IR (``Ruleset.decls``) and ``Game.observation(seat)`` into
plain JSON that a renderer draws without knowing the game: the web table, the self-contained
replay page and the terminal human seat all draw from it (PettingZoo's ``render`` could too).
It reads nothing but those two, so it can show a seat nothing that seat may not see; what the
observation hides (``None`` counters, face-down pieces, zones given as counts) is marked
``hidden`` and drawn face down.

What the declarations give, and how it is drawn:

- a ``track`` is a path of numbered spaces with the tile built on each and the workers there;
  a global counter bounded like the track (``min`` 0 or 1, ``max`` at least its length and at
  most a few beyond) is a position on it, drawn as a marker (Caylus's provost and bailiff);
- ``space`` declarations are grouped by their first tag (else "spaces"), each with its workers
  and the pieces on it;
- other bounded counters are scales with markers (quotations, favor levels, castle sections);
- per-player resources, counters, zones and pieces make one panel per seat, the score first;
- global zones and the building supply are shared areas; a hidden zone shows its size only.
"""
from __future__ import annotations

import json
import re
from typing import Any

# A position counter may run a little beyond its track (Caylus 1303's provost: road 24, max 26).
_TRACK_SLACK = 3


def _by_kind(decls: list[dict]) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for d in decls:
        out.setdefault(d.get("kind"), []).append(d)
    return out


def _title(d: dict | None, name: str) -> str:
    if d and d.get("title"):
        return d["title"]
    return name.replace("_", " ")


class Names:
    """Plain-word titles of everything the declarations name (resources win over categories).

    ``tiles``: an observation's tiles (instance -> [kind, owner]): a copy of a tile on the road
    (`start_market_2`) is named by its kind ("Market"), and options that then read alike are
    told apart by where they are (``option_labels``)."""

    def __init__(self, decls: list[dict], tiles: dict | None = None):
        # An enum's values first: any declaration of the same name and its title win over them.
        self.titles: dict[str, str] = {v: t for d in decls if d.get("kind") == "enum"
                                       for v, t in (d.get("value_titles") or {}).items()}
        for d in sorted(decls, key=lambda d: d.get("kind") == "resource"):
            if d.get("name") and d.get("title"):
                self.titles[d["name"]] = d["title"]
        self.kinds = {inst: v[0] for inst, v in (tiles or {}).items()
                      if isinstance(v, (list, tuple)) and v and isinstance(v[0], str) and v[0] != inst}

    def __call__(self, name) -> str:
        if name is None:
            return ""
        name = str(name)
        title = self.titles.get(name)
        if title is None and name in self.kinds:
            name = self.kinds[name]
            title = self.titles.get(name)
        return title or name.replace("_", " ")


def option_label(names: Names, option: str) -> str:
    """``place:gate`` -> "place — Gate"; ``build:wood_marketplace/food`` -> "build — Marketplace (food)"."""
    head, _, rest = option.partition(":")
    words = names(head)
    if not rest:
        return words[:1].upper() + words[1:]
    parts = []
    for value in rest.split(":"):
        main, _, paid = value.partition("/")
        text = names(main)
        if paid:
            text += " (paying %s)" % ", ".join(names(x) for x in paid.split("+"))
        parts.append(text)
    return "%s%s: %s" % (words[:1].upper(), words[1:], ", ".join(parts))


def option_labels(names: Names, options: list[str], places: dict[str, str] | None = None) -> list[str]:
    """The options' labels, told apart where two would read alike ("Place: Carpenter" for the
    neutral carpenter and the printed one): each such label gets where its places are, from
    ``places`` (place name -> words, made from what the seat sees: "road 2", "road 8, Player 2's"),
    and a label still alike gets its option's id, which the seat is sent anyway."""
    labels = [option_label(names, o) for o in options]
    places = places or {}
    for tell in (lambda o: _where(o, places), lambda o: o):
        alike = {label for label in labels if labels.count(label) > 1}
        for i, o in enumerate(options):
            words = tell(o) if labels[i] in alike else ""
            if words:
                labels[i] += " (%s)" % words
    return labels


def logged_label(names: Names, option: str, options: list[str], places: dict[str, str], knows_options: bool) -> str:
    """How the log names ``option``, chosen among ``options``, to a seat that may know it was
    chosen: as its button read (``option_labels``), with ``places`` made from that seat's own
    board.  A seat that may not know which options the decider had (the game hides something
    and the decision was not the seat's own) is given where the option's places are whether or
    not another option read alike: whether one did would tell it something of those options."""
    if knows_options:
        return option_labels(names, options, places)[options.index(option)]
    where = _where(option, places)
    return option_label(names, option) + (" (%s)" % where if where else "")


def _where(option: str, places: dict[str, str]) -> str:
    """Where an option's places are, in words ("road 2"), or "" if ``places`` knows none."""
    return "; ".join(places[v] for v in _values(option) if v in places)


def option_places(decls: list[dict], obs: dict, humans: int | None = None) -> dict[str, str]:
    """Where each place seat ``obs["player"]`` sees is, in words (place name -> "road 2",
    "road 8, Player 2's", a space's group title): what tells apart options that read alike."""
    kinds = _by_kind(decls)
    names = Names(decls)
    buildings = {d["name"]: d for d in kinds.get("building", [])}
    humans = humans if humans is not None else _players(obs, [d["name"] for d in kinds.get("resource", [])])
    tiles = obs.get("tiles", {}) or {}
    road = obs.get("road") or []
    places: dict[str, str] = {}
    for t in kinds.get("track", []):
        for i in range(1, (t.get("length") or 0) + 1):
            inst = road[i] if i < len(road) else None
            if inst is not None:
                owner = (tiles.get(inst) or [inst, -1])[1]
                places[inst] = "%s %d%s" % (_title(t, t["name"]), i, "" if owner is None or owner < 0
                                            else ", %s's" % seat_name(owner, humans))
    for sp in kinds.get("space", []):
        tags = sp.get("tags") or []
        if tags:        # (an untagged space is in no group a reader would know it by)
            places[sp["name"]] = names(tags[0]).capitalize()
    return places


def _values(option: str) -> list[str]:
    """The names an option id binds: ``build:wood_farm/food`` -> wood_farm, food."""
    return [v for part in option.split(":")[1:] for v in re.split(r"[/+]", part) if v]


def seat_name(p: int, humans: int) -> str:
    """How a seat is named wherever a player is shown: "Player 1" (seats count from 0), or the
    neutral player for a seat beyond the deciding ones."""
    return "Player %d" % (p + 1) if p < humans else "Neutral player"


#: The seat counters of the last rules seen (by the identity of their declarations' list, kept
#: alive here): a walk of the whole IR, done once per rules rather than once per view.
_SEAT_COUNTERS: dict[int, tuple[list, set]] = {}


def _seat_counters(decls: list[dict]) -> set[str]:
    """Counters that hold a seat (Caylus 1303's first player): every ``set`` of one gives it the
    acting ``player`` or a member of an order (``first(turn_order)``, ``turn_order[k]``).  They are
    shown by the player's name, as players are everywhere else, not as a seat number."""
    known = _SEAT_COUNTERS.get(id(decls))
    if known is not None and known[0] is decls:
        return known[1]
    orders = {d["name"] for d in decls if d.get("kind") == "order"}

    def is_seat(e) -> bool:
        if not isinstance(e, dict):
            return False
        if e.get("e") == "name":
            return e.get("id") == "player"
        if e.get("e") == "call" and e.get("fn") == "first" and len(e.get("args") or []) == 1:
            e = {"e": "index", "x": e["args"][0]}
        return e.get("e") == "index" and (e.get("x") or {}).get("e") == "name" and e["x"].get("id") in orders

    verdicts: dict[str, bool] = {}

    def walk(node) -> None:
        if isinstance(node, dict):
            t = node.get("target")
            if node.get("s") == "set" and isinstance(t, dict) and t.get("index") is None and t.get("of") is None:
                name = t.get("name")
                verdicts[name] = verdicts.get(name, True) and node.get("op") == "=" and is_seat(node.get("value"))
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk([d for d in decls if d.get("kind") != "counter"])
    found = {d["name"] for d in decls if d.get("kind") == "counter" and not d.get("by") and verdicts.get(d["name"])}
    if len(_SEAT_COUNTERS) >= 8:
        _SEAT_COUNTERS.clear()
    _SEAT_COUNTERS[id(decls)] = (decls, found)
    return found


def _value(v):
    """A counter value as the observation gives it; ``None`` is hidden from the viewer."""
    return {"hidden": True} if v is None else v


def board_view(decls: list[dict], obs: dict, prompt: str = "", options: list[str] | None = None,
               humans: int | None = None) -> dict[str, Any]:
    """The board as seat ``obs["player"]`` sees it.  ``options``: that seat's legal options, if it decides."""
    kinds = _by_kind(decls)
    names = Names(decls, obs.get("tiles"))
    game = (kinds.get("game") or [{}])[0]
    counters_decl = {d["name"]: d for d in kinds.get("counter", [])}
    resources = [d["name"] for d in kinds.get("resource", [])]
    score = game.get("score")
    enums = {d["name"]: d["values"] for d in kinds.get("enum", [])}
    buildings = {d["name"]: d for d in kinds.get("building", [])}
    counters = obs.get("counters", {})
    seat = obs.get("player")
    n = _players(obs, resources)
    humans = humans if humans is not None else n
    seat_counters = _seat_counters(decls)

    def shown(name: str, v):
        """A counter's value as drawn: a seat held in a counter by its player's name."""
        return seat_name(v, humans) if name in seat_counters and isinstance(v, int) and 0 <= v < n else _value(v)

    pieces_at: dict[str, list[dict]] = {}
    for kind, owner, value, place, face_up in obs.get("pieces", []):
        pieces_at.setdefault(place, []).append(
            {"kind": kind, "title": names(kind), "owner": owner,
             "value": value, "hidden": value is None, "face_up": bool(face_up)})
    occupants = obs.get("occupants", {}) or {}
    tiles = obs.get("tiles", {}) or {}

    used_counters: set[str] = set()
    tracks = []
    for t in kinds.get("track", []):
        length = t.get("length") or 0
        road = obs.get("road") or []
        markers = []
        for name, c in counters_decl.items():
            if (c["scope"] == "global" and not c.get("by") and c.get("max") is not None
                    and (c.get("min") or 0) <= 1 and length <= c["max"] <= length + _TRACK_SLACK
                    and isinstance(counters.get(name), int)):
                markers.append({"name": name, "title": names(name), "at": counters[name]})
                used_counters.add(name)
        cells = []
        for i in range(1, length + 1):
            inst = road[i] if i < len(road) else None
            cell: dict[str, Any] = {"index": i, "tile": None}
            if inst is not None:
                kind, owner = (tiles.get(inst) or [inst, -1])[:2]
                b = buildings.get(kind, {})
                cell.update(tile=inst, kind=kind, title=_title(b, kind), category=b.get("category"),
                            category_title=names(b.get("category")), owner=None if owner is None or owner < 0 else owner,
                            workers=list(occupants.get(inst, [])), pieces=pieces_at.get(inst, []))
            cells.append(cell)
        for m in markers:
            m["beyond"] = m["at"] > length
        tracks.append({"name": t["name"], "title": _title(t, t["name"]), "cells": cells, "markers": markers})

    groups: dict[str, dict] = {}
    for sp in kinds.get("space", []):
        tags = sp.get("tags") or []
        key = tags[0] if tags else "spaces"
        g = groups.setdefault(key, {"name": key, "title": names(key).capitalize(), "spaces": []})
        g["spaces"].append({"name": sp["name"], "title": _title(sp, sp["name"]), "tags": tags[1:],
                            "tag_titles": [names(x) for x in tags[1:]],
                            "slots": sp.get("slots"), "workers": list(occupants.get(sp["name"], [])),
                            "pieces": pieces_at.get(sp["name"], [])})

    for g in groups.values():
        g["grid"] = _grid(g["spaces"], names)

    scales, shared_counters = [], []
    per_player_counters = []
    for name, c in counters_decl.items():
        if name in used_counters or name not in counters:
            continue
        v = counters[name]
        bounded = c.get("max") is not None and c["max"] > 1
        if c["scope"] == "player":
            per_player_counters.append(name)
            if bounded and c.get("by"):
                scales.append({"name": name, "title": names(name), "min": c.get("min") or 0, "max": c["max"],
                               "by": [names(k) for k in enums.get(c["by"], [])], "per_player": True,
                               "values": [[_value(x) for x in row] if isinstance(row, list) else _value(row) for row in v]})
            continue
        if bounded:
            keys = enums.get(c.get("by"), []) if c.get("by") else [None]
            values = v if c.get("by") else [v]
            scales.append({"name": name, "title": names(name), "min": c.get("min") or 0, "max": c["max"],
                           "by": [names(k) if k else names(name) for k in keys], "per_player": False,
                           "values": [_value(x) for x in values]})
        else:
            shared_counters.append({"name": name, "title": names(name),
                                    "by": [names(k) for k in enums.get(c.get("by"), [])] if c.get("by") else None,
                                    "value": [_value(x) for x in v] if isinstance(v, list) else shown(name, v)})

    zones_decl = {d["name"]: d for d in kinds.get("zone", [])}
    shared_zones = []
    for name, z in zones_decl.items():
        if z["scope"] == "player" or name not in obs.get("zones", {}):
            continue
        shared_zones.append(_zone(names, name, z, obs["zones"][name]))
    supply = [{"kind": k, "title": names(k), "count": cnt, "category": buildings.get(k, {}).get("category"),
               "category_title": names(buildings.get(k, {}).get("category"))}
              for k, cnt in (obs.get("supply") or {}).items() if cnt != 0]

    panels = []
    hidden_counts = obs.get("private_piece_counts", {}) or {}
    for p in range(n):
        res = []
        for r in ([score] if score in resources else []) + [r for r in resources if r != score]:
            row = counters.get(r)
            if isinstance(row, list) and p < len(row):
                res.append({"name": r, "title": names(r), "value": _value(row[p]), "score": r == score})
        cts = []
        for name in per_player_counters:
            c = counters_decl[name]
            row = counters.get(name)
            if not isinstance(row, list) or p >= len(row) or (c.get("max") is not None and c["max"] > 1 and c.get("by")):
                continue
            v = row[p]
            if c.get("by"):
                keys = enums.get(c["by"], [])
                if isinstance(v, list):
                    nonzero = {names(k): x for k, x in zip(keys, v) if x}
                    if not nonzero:
                        continue
                    cts.append({"name": name, "title": names(name), "value": nonzero})
                else:
                    cts.append({"name": name, "title": names(name), "value": _value(v)})
            else:
                if c.get("reset") and not v:
                    continue      # bookkeeping for this round or phase, shown when it matters
                cts.append({"name": name, "title": names(name), "value": shown(name, v)})
        zs = [_zone(names, name, z, obs["zones"][name][p]) for name, z in zones_decl.items()
              if z["scope"] == "player" and name in obs.get("zones", {}) and p < len(obs["zones"][name])]
        own_pieces: dict[str, list] = {}
        for place, lst in pieces_at.items():
            if place in groups_places(groups) or place in occupants or place in tiles:
                continue          # drawn where they stand
            for pc in lst:
                if pc["owner"] == p:
                    own_pieces.setdefault(place, []).append(pc)
        for key, count in hidden_counts.items():
            kind, owner, place = key.split(":", 2)
            if int(owner) == p:
                own_pieces.setdefault(place, []).extend(
                    {"kind": kind, "title": names(kind), "owner": p, "value": None, "hidden": True, "face_up": False}
                    for _ in range(count))
        pieces = [{"place": place, "title": names(place), "pieces": lst} for place, lst in own_pieces.items()]
        panels.append({"seat": p, "name": seat_name(p, humans),
                       "neutral": p >= humans, "you": p == seat, "resources": res, "counters": cts,
                       "zones": zs, "pieces": pieces,
                       "order": {names(o): lst.index(p) + 1 for o, lst in (obs.get("orders") or {}).items() if p in lst}})

    return {
        "game": game.get("name"), "title": game.get("title") or names(game.get("name")),
        "seat": seat, "players": [seat_name(p, humans) for p in range(min(n, humans))], "round": obs.get("round"),
        "phase": obs.get("phase"), "phase_title": names(obs.get("phase")) if obs.get("phase") else "setup",
        "to_move": obs.get("to_move"), "prompt": prompt if options else "",
        "options": [{"id": o, "label": label} for o, label in zip(options or [], option_labels(names, options or [], option_places(decls, obs, humans)))],
        "tracks": tracks, "groups": list(groups.values()), "scales": scales,
        "shared": {"counters": shared_counters, "zones": shared_zones, "supply": supply},
        "panels": panels, "score": score,
    }


def _grid(spaces: list[dict], names: Names) -> dict | None:
    """Rows and columns when every space of a group has two more tags that place it in a table
    (Ys: neighborhood x area, colour x line); None otherwise."""
    if len(spaces) < 4 or any(len(sp["tags"]) < 2 for sp in spaces):
        return None
    cells = {(sp["tags"][0], sp["tags"][1]) for sp in spaces}
    if len(cells) != len(spaces):
        return None
    rows = list(dict.fromkeys(sp["tags"][0] for sp in spaces))
    cols = list(dict.fromkeys(sp["tags"][1] for sp in spaces))
    if len(rows) < 2 or len(cols) < 2:
        return None
    for sp in spaces:
        sp["row"], sp["col"] = rows.index(sp["tags"][0]), cols.index(sp["tags"][1])
    return {"rows": [names(r) for r in rows], "cols": [names(c) for c in cols]}


def groups_places(groups: dict) -> set:
    return {sp["name"] for g in groups.values() for sp in g["spaces"]}


def _players(obs: dict, resources: list[str]) -> int:
    counters = obs.get("counters", {})
    for r in resources:
        if isinstance(counters.get(r), list):
            return len(counters[r])
    for v in counters.values():
        if isinstance(v, list):
            return len(v)
    return 1


def _items(names: Names, v) -> dict:
    """A zone's content: its items (strings or tuples), or only how many when hidden."""
    if isinstance(v, int):
        return {"hidden": True, "count": v, "items": []}
    items = []
    for x in v:
        if isinstance(x, (list, tuple)):
            items.append(" ".join(names(y) for y in x))
        else:
            items.append(names(x))
    return {"hidden": False, "count": len(v), "items": items}


def _zone(names: Names, name: str, z: dict, v) -> dict:
    if isinstance(v, dict):
        parts = [{"key": k, "title": names(k), **_items(names, x)} for k, x in v.items()]
        return {"name": name, "title": names(name), "parts": parts}
    return {"name": name, "title": names(name), "parts": [{"key": None, "title": "", **_items(names, v)}]}


# ---------------------------------------------------------------- who may know which option was chosen
def has_hidden(prog) -> bool:
    """Whether anything in these rules is hidden from some seat (else every decision is public)."""
    if any(c.get("visible", "public") != "public" for c in prog.counters.values()):
        return True
    if any(z.get("visible", "public") != "public" for z in prog.zones.values()):
        return True
    return any(d.get("private") for d in prog.pieces.values())


def _obs_key(game, seat: int) -> str:
    """What ``seat`` may know of ``game``: its observation, and the prompt of the decision now
    asked (every seat sees it: the log shows it), which can name the option just taken."""
    obs = game.observation(seat)
    obs.pop("options", None)
    obs["prompt"] = game.prompt()
    return json.dumps(obs, sort_keys=True, default=str)


def who_sees(game, player: int, option: str, watcher: bool = False) -> list[int]:
    """The seats that may know ``player`` chose ``option`` at the decision ``game`` is asking now;
    ``watcher``: and the seat after the last (``game.s.players``), whose observation is the public
    one, if a spectator may know it.

    A seat may know it when its observation after the decision, or the prompt that follows it,
    tells that option apart from every other option ``player`` had (tried on clones; the game
    itself is untouched): a character card played shows in the next prompt.  A secret bid or a
    broker laid face down leaves the others' observations alike, so only the decider knows it.

    A forced move (one option, asked because the options hang on what others may not see) is
    judged in the worlds each seat holds possible (``determinize``) where the decider had a
    choice: told alike whether it was forced or not, the seat learns nothing from the log of it.
    """
    everyone = list(range(game.s.players + (1 if watcher else 0)))
    if not has_hidden(game.prog):
        return everyone
    options = game.legal_options()
    if option not in options:           # (an illegal option: apply will say so)
        return [player]
    others = [p for p in everyone if p != player]
    if len(options) > 1:
        return sorted([player] + _telling_apart(game, option, options, others))
    return sorted([player] + [q for q in others if _told_in_possible_worlds(game, player, option, q)])


#: The worlds a seat holds possible that a forced move is judged in (fixed seeds: the same verdict
#: every time).
POSSIBLE_WORLDS = 4


def _telling_apart(game, option: str, options: list[str], seats: list[int]) -> list[int]:
    """The ``seats`` whose view after ``option`` differs from their view after every other option."""
    outcomes: dict[str, list[str]] = {}
    for opt in options:
        c = game.clone(shared=True)
        c.apply(opt)
        outcomes[opt] = [_obs_key(c, p) for p in seats]
    chosen = outcomes[option]
    return [p for i, p in enumerate(seats)
            if all(o == option or outcomes[o][i] != chosen[i] for o in outcomes)]


def _told_in_possible_worlds(game, player: int, option: str, seat: int) -> bool:
    """Whether ``seat`` tells ``option`` apart in each world it holds possible where ``player``
    could have chosen otherwise (False when none of them is found)."""
    verdicts = []
    for k in range(POSSIBLE_WORLDS):
        world = game.determinize(seat, k)
        options = world.legal_options()
        if world.current_player() == player and option in options and len(options) > 1:
            verdicts.append(bool(_telling_apart(world, option, options, [seat])))
    return bool(verdicts) and all(verdicts)
