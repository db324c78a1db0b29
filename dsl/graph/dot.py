"""The graphs `provost graph` draws, as networkx graphs and as DOT written by hand.

`road_graph` is the activation track of one round, left to right: the special spaces in the
order the round activates them, the bridge (where the road activation starts), then every slot
of the road with what may stand there (fixed buildings, dealt or placed tiles, free slots for
buildings), the slots where scoring triggers lie and where the road tokens start; spaces the
round activates after the road come last.

`deps_graph` is what feeds what within each phase, in activation order: one cluster per phase
with its activation units (spaces, the road) joined by "then" edges, resource edges from the
unit that produces a resource to a later one that pays it, "stock only" edges for payments
nothing earlier produces (G602), worker moves (red when onto a space already activated: G601),
and the trigger graph (an edge when a trigger can fire another: G603).

DOT is written by hand (no pydot/pygraphviz): every id is double-quoted and escaped, so names
such as `phase:specials` are safe, and the output is deterministic.
"""
from __future__ import annotations

from .activation import analysis
from .model import ROADSYM, facts
from .road import road
from .triggers import trigger_graph


def _nx():
    import networkx as nx
    return nx


# ==================================================================== the road
def road_graph(ruleset):
    nx = _nx()
    f = facts(ruleset)
    a = analysis(f)
    g = nx.DiGraph(name="road", rankdir="LR")
    L = f.road_length
    seq = list(a.sequence) or (["road"] if f.road_calls else [])
    if "road" not in seq and L:
        seq.append("road")
    before = seq[:seq.index("road")] if "road" in seq else seq
    after = seq[seq.index("road") + 1:] if "road" in seq else []
    chain = []
    for n, space in enumerate(before, 1):
        node = "space:" + space
        title = (f.spaces.get(space) or {}).get("title") or space
        g.add_node(node, label="%d. %s" % (n, title), kind="space", shape="box", style="rounded")
        chain.append(node)
    if L:
        r = road(f)
        g.add_node("bridge", label="bridge\n(road activation starts)", kind="bridge", shape="house",
                   style="filled", fillcolor="lightblue")
        chain.append("bridge")
        on_slot: dict[int, list] = {}
        for lo, hi, what, pos, i, source in r.prefill:
            for s in range(max(1, lo), min(L, hi) + 1):
                on_slot.setdefault(s, []).append(_short(what, f))
        triggers: dict[int, list] = {}
        for let, (items, i, cpos) in r.triggers.items():
            for key, v, pos in items:
                if type(v) is int:
                    triggers.setdefault(v, []).append("%s %s" % (let, key) if key is not None else let)
        starts: dict[int, list] = {}
        for name in r.tokens:
            start = f.counters[name].get("start")
            if type(start) is int:
                starts.setdefault(start, []).append(name)
        top = L
        for name in r.tokens:
            hi = f.counters[name].get("max")
            if type(hi) is int and hi > top:
                top = hi
        free = ", ".join(sorted(r.first_free_categories))
        for s in range(1, top + 1):
            node = "slot:%d" % s
            words = on_slot.get(s) or (["free (%s)" % free] if free and s <= L else ["free"] if s <= L else [])
            if s > L:
                words = ["beyond the track"]
            lines = ["%d" % s] + words
            attrs = {"kind": "slot", "shape": "box"}
            if s > L:
                attrs.update(style="dashed")
            if s in starts:
                lines.append("start: " + ", ".join(starts[s]))
            if s in triggers:
                lines.append("scoring: " + ", ".join(triggers[s]))
                attrs.update(kind="trigger", shape="doubleoctagon", style="filled", fillcolor="gold")
            g.add_node(node, label="\n".join(lines), **attrs)
            chain.append(node)
    for space in after:
        node = "space:" + space
        title = (f.spaces.get(space) or {}).get("title") or space
        g.add_node(node, label="%s\n(after the road)" % title, kind="space", shape="box", style="rounded,dashed")
        chain.append(node)
    for u, v in zip(chain, chain[1:]):
        g.add_edge(u, v)
    return g


def _short(what: str, f) -> str:
    """"building 'peddler' (at 7)" -> "Peddler"; dealt/placed ranges stay as they are."""
    if what.startswith("building '"):
        name = what.split("'")[1]
        return (f.buildings.get(name) or {}).get("title") or name
    if what.startswith("the ") and " tiles dealt" in what:
        return what[4:what.index(" tiles dealt")] + " (dealt)"
    return "placed tile"


# ==================================================================== dependencies
def deps_graph(ruleset):
    nx = _nx()
    f = facts(ruleset)
    a = analysis(f)
    g = nx.DiGraph(name="deps", rankdir="LR")
    units = set()
    for unit, phase, label, kind in a.units:
        if unit in units:
            continue
        units.add(unit)
        title = (f.spaces.get(label) or f.buildings.get(label) or {}).get("title") or label
        g.add_node(_id(unit), label=title, kind=kind, cluster="phase " + phase,
                   shape="box" if kind == "space" else "cds")
        if kind != "space":
            _road_buildings(g, f, _id(unit), "phase " + phase)
    for src, dst, label, style in a.edges:
        if src[0] == "stock":
            g.add_node(_id(src), label="stock\n(earlier turns)", kind="stock", cluster="phase " + src[1],
                       shape="cylinder")
        if _id(src) not in g or _id(dst) not in g:
            continue
        attrs = {"label": label, "style": {"order": "dashed", "feed": "solid", "stock": "dotted",
                                           "error": "bold"}[style],
                 "color": {"order": "gray", "feed": "darkgreen", "stock": "orange", "error": "red"}[style]}
        key = (_id(src), _id(dst))
        if g.has_edge(*key):
            old = g.edges[key]["label"]
            if label not in old.split(", ") and style != "order":
                g.edges[key]["label"] = old + ", " + label
            continue
        g.add_edge(*key, **attrs)
    for unit, phase, target in a.moves_to:
        src, dst = _id(unit), _id(("unit", phase, target))
        if dst not in g:
            continue
        if g.has_edge(src, dst):
            if "worker" not in g.edges[src, dst]["label"]:
                g.edges[src, dst].update(label=g.edges[src, dst]["label"] + ", can send a worker", color="blue",
                                         style="solid")
        else:
            g.add_edge(src, dst, label="can send a worker", style="solid", color="blue")
    edges, names = trigger_graph(f, a)
    for i, out in edges.items():
        g.add_node("trigger:%s" % names[i], label="trigger %s\n(on %s)" % (names[i], f.decls[i].get("event")),
                   kind="trigger", cluster="triggers", shape="ellipse")
    for i, out in edges.items():
        for j, how in out:
            u, v = "trigger:%s" % names[i], "trigger:%s" % names[j]
            if not g.has_edge(u, v):
                g.add_edge(u, v, label="fires (line %d)" % how[0][0], color="red" if _on_cycle(edges, i, j) else "black")
    return g


def _road_buildings(g, f, road_node: str, cluster: str) -> None:
    """The buildings a road activation can meet, one node per category, so that the road is not a
    single opaque box: what is printed on it, and what can be built there."""
    by_cat: dict[str, list] = {}
    for name, b in f.buildings.items():
        if b.get("work") or b.get("at") is not None:
            by_cat.setdefault(b.get("category") or "-", []).append(b.get("title") or name)
    for cat, titles in by_cat.items():
        node = "%s:buildings:%s" % (road_node, cat)
        lines, line = [], ""
        for t in titles:                   # a few titles a line, so the box stays narrow
            if line and len(line) + len(t) > 40:
                lines.append(line.rstrip(", "))
                line = ""
            line += t + ", "
        lines.append(line.rstrip(", "))
        g.add_node(node, label="%s buildings:\n%s" % (cat, "\n".join(lines)), kind="road_buildings",
                   cluster=cluster, shape="note")
        g.add_edge(road_node, node, label="on the road", style="dotted", color="gray")


LEGENDS = {
    "deps": [("box", "a space activated in a phase"), ("cds", "the road's activation"),
             ("note", "buildings the road can hold"), ("cylinder", "stock from earlier turns"),
             ("ellipse", "a trigger")],
    "road": [("box", "a space or a road slot"), ("house", "the bridge: the road's activation starts"),
             ("doubleoctagon", "a slot where a section is scored")],
}
EDGE_LEGENDS = {
    "deps": [("darkgreen", "solid", "produces what the next one uses"), ("gray", "dashed", "comes before"),
             ("orange", "dotted", "uses stock from earlier turns"), ("blue", "solid", "can send a worker"),
             ("red", "bold", "a problem (see the diagnostics)")],
    "road": [("black", "solid", "activation order")],
}


def _legend(name: str) -> list[str]:
    """A DOT cluster saying what each shape and edge colour means."""
    if name not in LEGENDS:
        return []
    out = ['  subgraph "cluster_legend" {', '    label="legend"; fontsize=10; style="dashed";']
    for k, (shape, text) in enumerate(LEGENDS[name]):
        out.append('    "legend:n%d" [label=%s, shape=%s, fontsize=9];' % (k, quote(text), quote(shape)))
    for k, (colour, style, text) in enumerate(EDGE_LEGENDS[name]):
        out.append('    "legend:a%d" [label="", shape=point, width=0.05];' % k)
        out.append('    "legend:b%d" [label="", shape=point, width=0.05];' % k)
        out.append('    "legend:a%d" -> "legend:b%d" [label=%s, color=%s, style=%s, fontsize=9];'
                   % (k, k, quote(text), quote(colour), quote(style)))
    out.append("  }")
    return out


def _on_cycle(edges, i, j) -> bool:
    """Whether the edge i -> j lies on a cycle (j reaches i)."""
    seen, stack = set(), [j]
    while stack:
        n = stack.pop()
        if n == i:
            return True
        if n in seen:
            continue
        seen.add(n)
        stack.extend(k for k, _ in edges.get(n, []))
    return False


def _id(unit) -> str:
    if unit[0] == "stock":
        return "stock:" + unit[1]
    return "%s:%s" % (unit[1], unit[2] if unit[2] != ROADSYM else "road")


# ==================================================================== DOT
def quote(text) -> str:
    return '"%s"' % str(text).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def _attrs(attrs: dict) -> str:
    shown = {k: v for k, v in attrs.items() if k not in ("kind", "cluster") and v is not None}
    if not shown:
        return ""
    return " [" + ", ".join("%s=%s" % (k, quote(v)) for k, v in shown.items()) + "]"


def to_dot(g) -> str:
    """A DOT document for a graph built by road_graph or deps_graph."""
    name = g.graph.get("name", "g")
    out = ["digraph %s {" % quote(name)]
    out.append("  graph [rankdir=%s, fontname=\"Helvetica\"];" % quote(g.graph.get("rankdir", "LR")))
    out.append("  node [fontname=\"Helvetica\"];")
    out.append("  edge [fontname=\"Helvetica\", fontsize=10];")
    clusters: dict = {}
    loose = []
    for n, attrs in g.nodes(data=True):
        c = attrs.get("cluster")
        (clusters.setdefault(c, []) if c else loose).append((n, attrs))
    for n, attrs in loose:
        out.append("  %s%s;" % (quote(n), _attrs(attrs)))
    for k, (c, nodes) in enumerate(clusters.items()):
        out.append("  subgraph %s {" % quote("cluster_%d" % k))
        out.append("    label=%s;" % quote(c))
        for n, attrs in nodes:
            out.append("    %s%s;" % (quote(n), _attrs(attrs)))
        out.append("  }")
    for u, v, attrs in g.edges(data=True):
        out.append("  %s -> %s%s;" % (quote(u), quote(v), _attrs(attrs)))
    if g.graph.get("note"):               # an empty graph says why, where the drawing would be
        out.append("  label=%s; labelloc=\"t\";" % quote(g.graph["note"]))
    elif g.number_of_nodes():
        out.extend(_legend(name))
    out.append("}")
    return "\n".join(out) + "\n"


ROW_WIDTH = 12


def positions(g) -> dict:
    """Left-to-right positions for drawing without Graphviz: the road in order, deps by phase."""
    pos = {}
    if g.graph.get("name") == "road":
        # Rows of ROW_WIDTH, each read left to right (the order of activation).
        for k, n in enumerate(g.nodes):
            pos[n] = (k % ROW_WIDTH, -1.5 * (k // ROW_WIDTH))
        return pos
    columns: dict = {}
    for n, attrs in g.nodes(data=True):
        c = attrs.get("cluster") or ""
        columns.setdefault(c, []).append(n)
    for x, (c, nodes) in enumerate(columns.items()):
        for y, n in enumerate(nodes):
            pos[n] = (x * 3 + (y % 2) * 0.6, -y)
    return pos


__all__ = ["road_graph", "deps_graph", "to_dot", "positions", "quote"]
