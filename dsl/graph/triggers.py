"""Trigger cycles (G603): a trigger that can, through what it does, fire itself again.

Triggers emit events through the primitives they call, directly or through effects, tables,
spaces they activate, tiles they build (and those tiles' `on_build`) and tiles they `perform`:
`place_worker`/`move_worker` emit worker_placed, `build_tile`/`build_on` emit tile_built and
`place_piece` emits piece_placed.  The graph has an edge T -> U when T may emit U's event; any
cycle (a self-loop included) is an error, printed with the primitive behind each step.  The graph
is built in plain Python; networkx is imported only when it has an edge, to find the cycles.
"""
from __future__ import annotations

from ..diagnostics import Diagnostic, explain, register
from .activation import analysis
from .model import facts, pos_of

register("G603", "error", "a trigger can re-trigger itself (a cycle of triggers)")
explain("G603", """
A trigger runs whenever its event happens, and what it does may make the event happen again:
`place_worker` and `move_worker` emit worker_placed, `build_tile` and `build_on` emit
tile_built, `place_piece` emits piece_placed, directly or through the effects, tables, spaces and
tiles the trigger uses.  A trigger that can fire itself, directly or through other triggers,
repeats until something runs out or the engine's step budget stops the game.  Conditions are not
followed: the check reports every cycle a trigger's body can close, whatever its `if`s.

    trigger ping on worker_placed:    # error: trigger 'ping' can re-trigger itself: 'ping' (on
        build_tile wooden             # worker_placed) builds a tile at line 39, which fires 'pong'
    trigger pong on tile_built:       # (on tile_built) places a worker at line 41, which fires
        place_worker post             # 'ping' again [cycle: ping -> pong -> ping]

Fix: take the action that emits the event out of the cycle: do it where the first event is
caused (in the space's work or the phase) rather than in a trigger on that event.""")


def trigger_graph(f, a) -> tuple[dict, dict]:
    """({trigger index: [(other trigger index, (pos, i, primitive, via))]}, {trigger index: name})."""
    names = {}
    edges: dict = {}
    for key in f.bodies:
        if key[0] != "trigger":
            continue
        i = key[1]
        names[i] = f.decls[i].get("name") or "trigger@%d" % pos_of(f.decls[i])[0]
        out = []
        for ev, how in a.summary(key).events.items():
            for other in a.triggers_on.get(ev, []):
                out.append((other[1], how))
        edges[i] = out
    return edges, names


def check_trigger_cycles(ruleset) -> list[Diagnostic]:
    """G603: cycles in the trigger graph, each reported once at its first trigger in the file."""
    f = facts(ruleset)
    a = analysis(f)
    edges, names = trigger_graph(f, a)
    if not any(edges.values()):
        return []
    import networkx as nx          # only for a trigger graph that has edges
    g = nx.DiGraph()
    g.add_nodes_from(edges)
    for i, out in edges.items():
        for j, how in out:
            if not g.has_edge(i, j):
                g.add_edge(i, j, how=how)
    diags = []
    for comp in sorted(nx.strongly_connected_components(g), key=min):
        start = min(comp)
        if len(comp) == 1 and not g.has_edge(start, start):
            continue
        cycle = _cycle(nx, g.subgraph(comp), start)
        steps = []
        for u, v in cycle:
            pos, i, prim, via = g.edges[u, v]["how"]
            event = f.decls[v].get("event")
            where = " in %s" % via if via else ""
            steps.append("'%s' (on %s) %s at line %d%s, which fires" % (
                names[u], f.decls[u].get("event"), _verb(prim, event), pos[0], where))
        text = " ".join(steps) + " '%s' again" % names[start]
        d = f.decls[start]
        pos = pos_of(d)
        loop = " -> ".join([names[u] for u, _ in cycle] + [names[start]])
        diags.append(Diagnostic(f.path(start), pos[0], pos[1], "error", "G603",
                                "trigger '%s' can re-trigger itself: %s [cycle: %s]" % (names[start], text, loop)))
    return diags


def _cycle(nx, g, start) -> list:
    if g.has_edge(start, start):
        return [(start, start)]
    return list(nx.find_cycle(g, source=start))


def _verb(prim: str, event: str) -> str:
    return {"place_worker": "places a worker", "move_worker": "moves a worker", "build_tile": "builds a tile",
            "build_on": "builds a tile", "place_piece": "places a piece"}.get(prim, "emits %s" % event)
