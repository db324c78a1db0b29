"""`provost graph RULESET [--kind road|deps] [-o FILE]`: draw the road or the dependency graph.

DOT always: on stdout, or in FILE when it ends in .dot or .gv.  For FILE.svg or FILE.png the DOT
is rendered with Graphviz (`dot`) when it is installed, otherwise with matplotlib through
networkx when that is importable; with neither, the command says so and exits 2, a usage error
(write DOT with `-o FILE.dot` and render it elsewhere).  An output that cannot be written (no
such folder, a folder, no permission) is a usage error too, reported before any work.  Errors
are printed on stderr; when they are all graph errors (G5xx-G7xx) the graph is still drawn -- it
shows them -- and the command exits 1; any other error stops the command (exit 1).  See docs/graph_checks.md for what the graphs show.
"""
from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys

from provost.dsl.diagnostics import UsageError, printable
from provost.tools.cli.failures import cannot_write, check_writable, write_text

DOT_SUFFIXES = (".dot", ".gv")
IMAGE_SUFFIXES = (".svg", ".png")


def build(ruleset, kind: str):
    """The networkx graph of a checked ruleset."""
    from provost.dsl.graph.dot import deps_graph, road_graph
    return road_graph(ruleset) if kind == "road" else deps_graph(ruleset)


def run_graph(args) -> int:
    from provost.dsl.checks import run_checks
    from provost.dsl.diagnostics import render_text, sort_key
    from provost.dsl.graph.dot import to_dot
    from provost.dsl.loader import _resolve, resolve_path

    output = getattr(args, "output", None)
    suffix = os.path.splitext(output)[1].lower() if output else ""
    if output and suffix not in DOT_SUFFIXES + IMAGE_SUFFIXES:
        raise UsageError("cannot tell the format of '%s': use .dot, .gv, .svg or .png" % output)
    if output:
        check_writable(output)
    path = resolve_path(args.ruleset)
    rs, diags = _resolve(path)
    if rs is not None:
        diags = diags + run_checks(rs)
    errors = sorted((d for d in diags if d.severity == "error"), key=sort_key)
    for d in errors:
        print(render_text(d), file=sys.stderr)
    if rs is None or any(not d.code.startswith("G") for d in errors):
        return 1
    # Only graph-check errors: draw the graph anyway (it shows them), and exit 1.
    g = build(rs, args.kind)
    note = empty_note(rs, args.kind) if g.number_of_nodes() == 0 else None
    if note:
        g.graph["note"] = note
        print("provost: note: %s: %s" % (printable(args.ruleset), note), file=sys.stderr)
    dot = to_dot(g)
    if not output:
        sys.stdout.write(dot)
        code = 0
    elif suffix in DOT_SUFFIXES:
        write_text(output, dot)
        code = 0
    else:
        code = render(g, dot, output, suffix[1:])
    return 1 if errors else code


def empty_note(rs, kind: str) -> str:
    """Why a graph has nothing to draw, in the designer's terms."""
    title = rs.game().get("title") or rs.name
    if kind == "road":
        if not any(d.get("kind") == "track" for d in rs.decls):
            return "the road graph is empty: %s declares no track (no road of buildings to activate)" % title
        return "the road graph is empty: nothing activates the track's slots"
    return ("the dependency graph is empty: %s activates no spaces or buildings (no 'activate' or "
            "'activate_road' in its phases), so no activation feeds another" % title)


def render(g, dot: str, output: str, fmt: str) -> int:
    """Write an SVG or PNG with Graphviz, else matplotlib; a UsageError when neither exists."""
    exe = shutil.which("dot")
    if exe:
        done = subprocess.run([exe, "-T" + fmt, "-o", output], input=dot.encode("utf-8"), capture_output=True)
        if done.returncode != 0:
            # The renderer broke, not the rules: exit 2, as for any failure that is not the input's.
            print("provost: error: Graphviz failed to render %s: %s"
                  % (printable(output), printable(done.stderr.decode(errors="replace").strip())),
                  file=sys.stderr)
            return 2
        return 0
    if importlib.util.find_spec("matplotlib") is not None:
        try:
            return _matplotlib(g, output, fmt)
        except OSError as exc:
            raise cannot_write(output, exc) from None
    # Asking for an image where nothing can draw one is a usage error, like an unknown format.
    raise UsageError("cannot write %s: no renderer for .%s (install Graphviz's 'dot' or matplotlib); "
                     "write DOT with '-o %s.dot' and render it elsewhere" % (output, fmt, os.path.splitext(output)[0]))


def _matplotlib(g, output: str, fmt: str) -> int:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import networkx as nx

    from provost.dsl.graph.dot import positions

    pos = positions(g)
    width = max(6.0, min(60.0, 1.5 * (1 + max((x for x, _ in pos.values()), default=1))))
    height = max(3.0, min(60.0, 1.2 * (1 - min((y for _, y in pos.values()), default=0))))
    fig, ax = plt.subplots(figsize=(width, height))
    labels = {n: a.get("label", n) for n, a in g.nodes(data=True)}
    colors = [a.get("fillcolor", "white") for _, a in g.nodes(data=True)]
    edge_colors = [a.get("color", "black") for _, _, a in g.edges(data=True)]
    nx.draw_networkx(g, pos, ax=ax, labels=labels, node_color=colors, edgecolors="black", node_shape="s",
                     node_size=2200, font_size=6, arrows=True, edge_color=edge_colors)
    edge_labels = {(u, v): a["label"] for u, v, a in g.edges(data=True) if a.get("label")}
    if edge_labels:
        nx.draw_networkx_edge_labels(g, pos, edge_labels=edge_labels, font_size=6, ax=ax)
    from provost.dsl.graph.dot import EDGE_LEGENDS, LEGENDS
    name = g.graph.get("name", "")
    if g.graph.get("note"):
        ax.text(0.5, 0.5, g.graph["note"], ha="center", va="center", wrap=True, transform=ax.transAxes)
    elif name in LEGENDS:    # what the shapes and colours mean, in a corner of the drawing
        text = "\n".join(["legend"] + ["%s: %s" % (shape, what) for shape, what in LEGENDS[name]]
                         + ["%s %s line: %s" % (colour, style, what) for colour, style, what in EDGE_LEGENDS[name]])
        ax.text(0.0, 0.0, text, fontsize=7, va="bottom", ha="left", transform=ax.transAxes,
                bbox={"boxstyle": "round", "facecolor": "white", "edgecolor": "gray"})
    ax.set_axis_off()
    fig.tight_layout()
    fig.savefig(output, format=fmt)
    plt.close(fig)
    return 0
