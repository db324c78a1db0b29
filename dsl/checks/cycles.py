"""Definitions that would never finish (C801, C802): lets defined through each other and effects
that call each other (loops that never end: loops.py).

The interpreter writes a let out where it is used and runs an effect's body where it is called,
so a let that reaches itself would be written out forever, and an effect that reaches itself
would run forever (or until memory runs out).  Both are cycles in a graph of references, found
with networkx as the trigger cycles are (G603), and printed the same way: the chain of names,
each with the line of the reference that leads on.
"""
from __future__ import annotations

from ..diagnostics import Diagnostic, explain, register
from .model import model

register("C801", "error", "lets defined through each other (a cycle of lets)")
register("C802", "error", "effects that call each other (a cycle of effect calls)")

explain("C801", """
A let is written out where it is used, so a let whose value uses itself, directly or through
other lets, would never finish being written out.

    let a = b + 1
    let b = a + 1          # error: let 'a' is defined through itself [cycle: a -> b -> a]

Fix: define one of them without the other (a counter holds a value that changes).""")
explain("C802", """
An effect runs its body where it is called, so an effect that calls itself, directly or through
other effects, would run until the engine's step budget stops the game.

    effect ping:
        pong
    effect pong:
        ping               # error: effect 'ping' calls itself [cycle: ping -> pong -> ping]

Fix: repeat with `repeat N:` or `repeat while CONDITION:` instead of a call.""")


def _has_cycle(edges: dict) -> bool:
    """Kahn's algorithm: True when removing nodes with no incoming edge leaves some behind."""
    incoming = {n: 0 for n in edges}
    for out in edges.values():
        for v in out:
            incoming[v] = incoming.get(v, 0) + 1
    ready = [n for n, k in incoming.items() if k == 0]
    left = len(incoming)
    while ready:
        n = ready.pop()
        left -= 1
        for v in edges.get(n, ()):
            incoming[v] -= 1
            if incoming[v] == 0:
                ready.append(v)
    return left > 0


def _graph_cycles(edges: dict, order: dict) -> list[list]:
    """Each cycle of the graph {node: {next: pos}} once, as [(node, next), ...] from its first node."""
    if not _has_cycle(edges):
        return []
    import networkx as nx          # only for a graph that has a cycle (importing it costs ~20 ms)
    g = nx.DiGraph()
    g.add_nodes_from(edges)
    for u, out in edges.items():
        for v, pos in out.items():
            g.add_edge(u, v, pos=pos)
    found = []
    for comp in sorted(nx.strongly_connected_components(g), key=lambda c: min(order[n] for n in c)):
        start = min(comp, key=lambda n: order[n])
        if len(comp) == 1 and not g.has_edge(start, start):
            continue
        if g.has_edge(start, start):
            cycle = [(start, start)]
        else:
            cycle = list(nx.find_cycle(g.subgraph(comp), source=start))
        found.append([(u, v, g.edges[u, v]["pos"]) for u, v in cycle])
    return found


def _line(pos) -> int:
    return pos[0] if isinstance(pos, (list, tuple)) and pos and type(pos[0]) is int else 1


def _report(m, kind: str, code: str, noun: str, verb: str, edges: dict) -> list[Diagnostic]:
    sym = m.sym
    index = {d.get("name"): i for i, d in enumerate(sym.decls) if d.get("kind") == kind}
    out = []
    for cycle in _graph_cycles(edges, index):
        start = cycle[0][0]
        steps = ", ".join("'%s' %s '%s' at line %d" % (u, verb, v, _line(pos)) for u, v, pos in cycle)
        chain = " -> ".join([u for u, _, _ in cycle] + [start])
        first_use = cycle[0][2]
        out.append(sym.diag(index[start], first_use, code, "%s '%s' %s itself: %s [cycle: %s]" % (
            noun, start, "is defined through" if kind == "let" else "calls", steps, chain)))
    return out


def check_let_cycles(ruleset) -> list[Diagnostic]:
    """C801: a let whose value (or body, for a let with parameters) reaches the let itself."""
    m = model(ruleset)
    sym = m.sym
    lets = sym.lets
    edges: dict = {name: {} for name in lets}
    for e, scope, i in m.uses.names:
        d = sym.decls[i]
        if d.get("kind") == "let" and e["id"] in lets and e["id"] not in scope:
            edges[d["name"]].setdefault(e["id"], e.get("pos"))
    for e, scope, i in m.uses.funcalls:
        d = sym.decls[i]
        if d.get("kind") == "let" and e["fn"] in lets and e["fn"] not in scope:
            edges[d["name"]].setdefault(e["fn"], e.get("pos"))
    return _report(m, "let", "C801", "let", "uses", edges)


def check_effect_cycles(ruleset) -> list[Diagnostic]:
    """C802: an effect that calls itself, directly or through other effects."""
    m = model(ruleset)
    sym = m.sym
    effects = sym.effects
    edges: dict = {name: {} for name in effects}
    for st, scope, i in m.uses.calls:
        d = sym.decls[i]
        if d.get("kind") == "effect" and st["name"] in effects:
            edges[d["name"]].setdefault(st["name"], st.get("pos"))
    return _report(m, "effect", "C802", "effect", "calls", edges)


def _dicts_in(root):
    """Every dict inside ``root`` (statements, expressions, options), depth first, its own
    first; positions are not looked into."""
    stack = [root]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            yield x
            stack.extend(v for key, v in x.items() if key != "pos")
        elif isinstance(x, list):
            stack.extend(x)
