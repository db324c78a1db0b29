"""Why is this option not legal?  An answer from the rules, with their position.

``explain(game, option_id)`` looks at the decision being asked and says which
part of the rules excludes the option: it belongs to another decision (and
which phase that is in), a parameter value is not among the choices (a space
that is full, a building not in the supply), the option's condition is false,
or the payment that opens it cannot be made (what is missing).
"""
from __future__ import annotations

from provost.dsl.prose import Prose

from . import nodes as N


def _split(option: str) -> tuple[str, list[str]]:
    name, _, rest = option.partition(":")
    return name, rest.split(":") if rest else []


def _where(g, pos) -> str:
    if not pos:
        return ""
    path = g.rs.file_at(pos)
    return " (%s:%d:%d)" % (path, pos[0], pos[1])


def _render(v) -> str:
    return N._fmt(v)


def _player(p) -> str:
    """A seat as the engine's messages name it: by its index, as `Game.current_player` gives it."""
    return "player %s" % p


def explain(g, option: str, name_seat=_player) -> str:
    """A sentence saying why ``option`` is not legal now (or that it is).  ``name_seat(p)`` names
    a seat in it (the web board says "Player 1" for seat 0)."""
    s = g.s
    if s.finished:
        return "the game is over"
    if s.pending is None:
        return "nobody has a decision to make now"
    if option in s.pending["options"]:
        return "'%s' is legal" % option
    g.piece_index = None          # rebuilt from the state as it is now (the engine is not running)
    frame = s.stack[-1]
    node = g.prog.nodes[frame[0]]
    prose = Prose(g.rs.decls)
    who = s.pending["player"]
    phase = s.phase
    if isinstance(node, N.BuildTile):
        return _explain_build(g, node, frame, option, prose, name_seat)
    if not isinstance(node, N.Choose):
        return "'%s' is not one of the options of this decision" % option
    name, values = _split(option)
    opt = next((o for o in node.options if o.name == name), None)
    if opt is None:
        other = _find_elsewhere(g, name)
        here = "'%s' (%s)" % (node.title, "phase %s" % phase if phase else "setup")
        if other:
            return "'%s' is not an option of %s; it belongs to %s" % (option, here, other)
        return "'%s' is not an option of %s; its options are %s" % (
            option, here, ", ".join(sorted({o.name for o in node.options})))
    env = frame[2]
    if len(values) != len(opt.params):
        return "'%s' takes %d value(s) after '%s:' (%s)%s" % (
            name, len(opt.params), name, ", ".join(p[0] for p in opt.params), _where(g, opt.pos))
    binding: dict = {}
    for (pname, it, where, _), text in zip(opt.params, values):
        local = {**env, **binding}
        domain = list(it(g, local))
        match = next((v for v in domain if _render(v) == text), None)
        if match is None:
            shown = ", ".join(_render(v) for v in domain[:12]) + (" ..." if len(domain) > 12 else "")
            reason = _why_not_in_domain(g, who, text, name_seat)
            return "%s = %s is not a possible choice here%s; the choices are %s%s" % (
                pname, text, reason, shown or "none", _where(g, opt.pos))
        binding[pname] = match
        if where is not None:
            local = {**env, **binding}
            if not where(g, local):
                return "%s = %s is excluded by the rule's condition%s" % (pname, text, _where(g, opt.pos))
    local = {**env, **binding}
    if opt.when is not None and not opt.when(g, local):
        return "the condition of option '%s' does not hold for %s%s" % (name, name_seat(who), _where(g, opt.pos))
    if opt.requires is not None and not opt.requires(g, local):
        return "%s cannot pay for '%s': %s%s" % (name_seat(who), option, _shortfall(g, node, opt, local),
                                                 _where(g, opt.pos))
    return "'%s' is not legal now" % option


def _find_elsewhere(g, name: str) -> str:
    for node in g.prog.nodes:
        if isinstance(node, N.Choose) and any(o.name == name for o in node.options):
            return "the decision '%s'%s" % (node.title, _where(g, node.pos))
    return ""


def _why_not_in_domain(g, player, text: str, name_seat) -> str:
    """Extra words when the value is a space: full, or the player's per-player limit."""
    prog, s = g.prog, g.s
    d = prog.spaces.get(text)
    if d is not None:
        here = s.occ.get(text, [])
        if not d["placeable"]:
            return " (%s takes no workers)" % (d.get("title") or text)
        if len(here) >= d["slots"] > 0:
            return " (%s is full: %d of %d places taken)" % (d.get("title") or text, len(here), d["slots"])
        if d.get("per_player") is not None and player is not None and here.count(player) >= d["per_player"]:
            return " (%s already has a worker on %s)" % (name_seat(player), d.get("title") or text)
    if text in s.tiles:
        if s.occ.get(text):
            return " (%s is occupied)" % text
        kind = s.tiles[text][0]
        cat = prog.categories.get(prog.buildings[kind]["category"], {})
        if not cat.get("workable", True):
            return " (a %s building takes no workers)" % prog.buildings[kind]["category"]
    elif text in prog.buildings and text not in s.tiles:
        return " (%s is not on the board)" % text
    return ""


def _shortfall(g, node, opt, env) -> str:
    """What the player lacks for the payments that open the option."""
    p = env["player"]
    counters = g.s.counters
    need: dict = {}
    for amounts in getattr(opt.requires, "checks", []):
        if amounts is None:
            need["workers"] = need.get("workers", 0) + 1
            continue
        for res, n in amounts(g, env):
            need[res] = need.get(res, 0) + n
    missing = ["needs %d %s, has %d" % (n, res, counters[res][p])
               for res, n in need.items() if res in counters and counters[res][p] < n]
    return "; ".join(missing) or "a payment cannot be made"


def _explain_build(g, node, frame, option: str, prose, name_seat) -> str:
    name, _, rest = option.partition(":")
    if name != "build":
        return "this decision builds a tile: its options are skip and build:KIND"
    kind = rest.split("/")[0].split("@")[0]
    prog, s = g.prog, g.s
    b = prog.buildings.get(kind)
    if b is None:
        return "there is no building '%s'" % kind
    cat = node.category(g, frame[2])
    if b["category"] != cat:
        return "%s is a %s building; this builds a %s building%s" % (kind, b["category"], cat, _where(g, b["pos"]))
    if s.supply.get(kind, 0) == 0:
        return "%s is no longer in the supply" % kind
    cost = ", ".join(prose.expr(a) for a in b["cost"])
    p = frame[2]["player"]
    have = ", ".join("%d %s" % (s.counters[r][p], r) for r in prog.resources if s.counters[r][p])
    return "%s cannot pay %s's cost (%s); they have %s%s" % (name_seat(p), kind, cost, have or "nothing",
                                                            _where(g, b["pos"]))
