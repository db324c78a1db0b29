"""Definitions that would never finish (C801, C802): lets defined through each other and effects
that call each other (loops that never end: loops.py); and chains of them too long to follow
(C807).

The interpreter writes a let out where it is used and runs an effect's body where it is called,
so a let that reaches itself would be written out forever, and an effect that reaches itself
would run forever (or until memory runs out).  Both are cycles in a graph of references, found
with networkx as the trigger cycles are (G603), and printed the same way: the chain of names,
each with the line of the reference that leads on.
"""
from __future__ import annotations

from ..diagnostics import Diagnostic, explain, register
from ..schema import MAX_IR_DEPTH
from .model import model

register("C801", "error", "lets defined through each other (a cycle of lets)")
register("C802", "error", "effects that call each other (a cycle of effect calls)")
register("C807", "error", "lets or effects that, written out where they are used, nest too deep")

#: How deep the rules may nest once every let is written out where it is used and every effect's
#: body where it is called: the IR's own limit (dsl/schema.py MAX_IR_DEPTH, S002).  The checker
#: and the engine follow such chains recursively: 300 chained lets, ten lets of 60 brackets each,
#: or 400 effects each calling the next ended in Python's RecursionError, an internal error.
#: Caylus, the deepest shipped game, is 45 levels deep (score_section -> section_scoring -> favor...).
MAX_WRITTEN_DEPTH = MAX_IR_DEPTH

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
explain("C807", """
A let is written out where it is used and an effect's body runs where it is called, and the
checker and the engine follow them one inside the other.  Written out so, the rules may nest no
deeper than an IR may (128 levels, S002): a long chain of lets each defined through the next,
of lets each holding deep brackets, or of effects each calling the next, as a generated file may
hold, is refused at its first link rather than crashing them.

    let v0 = v1 + 1        # error: let 'v0', written out with the lets it uses, is nested
    let v1 = v2 + 1        # 130 levels deep (v0 -> v1 -> v2 -> ... -> v130); at most 128
    let v2 = v3 + 1        # ... and so on to v129 = v130 + 1 and v130 = 1

Fix: compute the value with a list and `sum` or `count`, keep it in a counter, or repeat an
effect with `repeat N:` or a loop instead of chaining copies of it.""")


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


def _let_edges(m) -> dict:
    """{let: {let it uses: position of the first use}}."""
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
    return edges


def check_let_cycles(ruleset) -> list[Diagnostic]:
    """C801: a let whose value (or body, for a let with parameters) reaches the let itself."""
    m = model(ruleset)
    return _report(m, "let", "C801", "let", "uses", _let_edges(m))


def _effect_edges(m) -> dict:
    """{effect: {effect it calls: position of the first call}}."""
    sym = m.sym
    effects = sym.effects
    edges: dict = {name: {} for name in effects}
    for st, scope, i in m.uses.calls:
        d = sym.decls[i]
        if d.get("kind") == "effect" and st["name"] in effects:
            edges[d["name"]].setdefault(st["name"], st.get("pos"))
    return edges


def check_effect_cycles(ruleset) -> list[Diagnostic]:
    """C802: an effect that calls itself, directly or through other effects."""
    m = model(ruleset)
    return _report(m, "effect", "C802", "effect", "calls", _effect_edges(m))


def _own_depths(root, refs) -> tuple[int, list]:
    """How deep ``root`` nests (lists and mappings, as S002 counts), and each reference in it as
    ``(key, depth, pos)``: ``refs(node)`` gives a node's key, or None (no recursion)."""
    deepest, found = 0, []
    stack = [(root, 0)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        if type(node) is dict:
            key = refs(node)
            if key is not None:
                found.append((key, depth, node.get("pos")))
            children = [v for k, v in node.items() if k != "pos"]
        elif type(node) is list:
            children = node
        else:
            continue
        stack.extend((v, depth + 1) for v in children if type(v) is dict or type(v) is list)
    return deepest, found


def check_written_depth(ruleset) -> list[Diagnostic]:
    """C807: a let or an effect that, with the lets it uses and the effects it calls written out
    in place, nests deeper than MAX_WRITTEN_DEPTH (one error, at the first link of the deepest).
    Cycles are C801's and C802's."""
    m = model(ruleset)
    sym = m.sym
    lets, effects = sym.lets, sym.effects
    if _has_cycle(_let_edges(m)) or _has_cycle(_effect_edges(m)):
        return []

    tables = {d.get("name") for d in sym.decls if d.get("kind") == "table"}

    def refs(node):
        if node.get("e") == "name" and node.get("id") in lets:
            return ("let", node["id"])
        if node.get("e") == "name" and node.get("id") in tables:
            return ("table", node["id"])        # `do TABLE[KEY]`: an entry runs where it is done
        if node.get("e") == "call" and node.get("fn") in lets:
            return ("let", node["fn"])
        if node.get("s") == "call" and node.get("name") in effects:
            return ("effect", node["name"])
        return None

    index, own = {}, {}
    for i, d in enumerate(sym.decls):
        kind = d.get("kind")
        if kind in ("let", "effect", "table") and (kind, d.get("name")) not in own:
            index[(kind, d["name"])] = i
            own[(kind, d["name"])] = _own_depths(d.get({"let": "value", "effect": "body"}.get(kind, "entries")), refs)
    written: dict = {}             # key -> (depth written out, (next key, pos) or None)
    for root in own:
        if root in written:
            continue
        # Depth first without recursion; a reference back into the chain being followed (a table
        # entry that does its own table: the engine's step budget stops it) is left out.
        stack, on_chain = [(root, iter(own[root][1]))], {root}
        while stack:
            key, todo = stack[-1]
            child = next((r for r, _, _ in todo if r in own and r not in written and r not in on_chain), None)
            if child is not None:
                on_chain.add(child)
                stack.append((child, iter(own[child][1])))
                continue
            stack.pop()
            on_chain.discard(key)
            best = (own[key][0], None)
            for r, depth, pos in own[key][1]:
                if r in written and (depth + written[r][0] > best[0] or best[1] is None and depth + written[r][0] == best[0]):
                    best = (depth + written[r][0], (r, pos))
            written[key] = best
    if not written:
        return []
    start = max(written, key=lambda k: (written[k][0], -index[k]))
    depth, link = written[start]
    if depth <= MAX_WRITTEN_DEPTH or link is None:
        return []
    names, key = [], start
    while key is not None:
        names.append(key[1])
        nxt = written[key][1]
        key = nxt[0] if nxt else None
    shown = names if len(names) <= 6 else names[:3] + ["..."] + names[-1:]
    what = {"let": "let '%s', written out with the lets it uses,",
            "effect": "effect '%s', with the effects it calls written out in place,",
            "table": "table '%s', with what its entries do written out in place,"}[start[0]] % start[1]
    return [sym.diag(index[start], link[1], "C807", "%s is nested %d levels deep (%s); at most %d"
                     % (what, depth, " -> ".join(shown), MAX_WRITTEN_DEPTH))]


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
