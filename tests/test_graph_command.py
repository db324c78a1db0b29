"""`provost graph RULESET --kind road|deps [-o FILE]`: DOT always, SVG/PNG with a renderer."""
from __future__ import annotations

import os
import re
import stat
from pathlib import Path

import pytest

from provost.dsl.graph.dot import quote
from provost.tools.cli import main

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(__file__).parent / "graph_corpus"
STATEMENT = re.compile(r'^\s*("([^"\\]|\\.)*")( -> "([^"\\]|\\.)*")?( \[.*\])?;$')


def run(capsys, *argv):
    code = main(["graph", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def nodes_and_edges(dot: str):
    """The graph's nodes and edges in DOT order, without the legend's."""
    nodes, edges = [], []
    for line in dot.splitlines():
        if '"legend:' in line:
            continue
        m = re.match(r'^\s*"([^"]*)" -> "([^"]*)"', line)
        if m:
            edges.append((m[1], m[2]))
            continue
        m = re.match(r'^\s*"([^"]*)"( \[|;)', line)
        if m:
            nodes.append(m[1])
    return nodes, edges


def test_road_reads_left_to_right_in_activation_order(capsys):
    code, out, err = run(capsys, "caylus", "--kind", "road")
    assert code == 0 and err == ""
    assert out.startswith('digraph "road" {') and 'rankdir="LR"' in out
    nodes, edges = nodes_and_edges(out)
    specials = ["space:gate", "space:trading_post", "space:merchants_guild", "space:joust_field", "space:stables",
                "space:inn"]
    assert nodes[:7] == specials + ["bridge"]
    assert nodes[7:] == ["slot:%d" % s for s in range(1, 29)]
    assert edges == list(zip(nodes, nodes[1:]))          # one path, in order
    text = {m[1]: line for line in out.splitlines() for m in [re.match(r'^\s*"([^"]*)" \[', line)] if m}
    assert "road activation starts" in text["bridge"]
    for slot, section in ((12, "dungeon"), (18, "walls"), (24, "towers")):
        assert "scoring: section_trigger %s" % section in text["slot:%d" % slot]
        assert 'shape="doubleoctagon"' in text["slot:%d" % slot]
    assert "start: provost, bailiff" in text["slot:6"]
    assert "Peddler" in text["slot:7"] and "Gold mine" in text["slot:16"] and "neutral (dealt)" in text["slot:1"]


def test_every_dot_statement_is_quoted(capsys):
    for kind in ("road", "deps"):
        code, out, err = run(capsys, "caylus1303", "--kind", kind)
        assert code == 0
        body = out.splitlines()[1:-1]
        for line in body:
            if line.strip().startswith(("graph ", "node ", "edge ", "subgraph ", "label=", "}")):
                continue
            assert STATEMENT.match(line), line


def test_quote_escapes():
    assert quote('a"b\\c\nd') == '"a\\"b\\\\c\\nd"'
    assert quote("building:market") == '"building:market"'


def test_road_beyond_the_track_is_drawn_dashed(capsys):
    code, out, err = run(capsys, "caylus1303")
    assert code == 0
    assert re.search(r'"slot:26" \[label="26\\nbeyond the track".*style="dashed"', out)
    assert re.search(r'"slot:8" \[label="8\\n.*start: provost', out)


def test_deps_shows_the_joust_fields_stock_and_the_trading_posts_denier(capsys):
    code, out, err = run(capsys, "caylus", "--kind", "deps")
    assert code == 0
    assert '"stock:specials" -> "specials:joust_field" [label="cloth (stock only)"' in out
    assert '"specials:trading_post" -> "specials:joust_field" [label="denier"' in out
    assert 'subgraph "cluster_0" {' in out and 'label="phase specials";' in out


def test_deps_draws_a_graph_error_and_exits_1(capsys):
    code, out, err = run(capsys, str(CORPUS / "g601_gate_after_post.rules"), "--kind", "deps")
    assert code == 1
    assert "[G601]" in err
    assert re.search(r'"specials:gate" -> "specials:post" \[label="moves a worker \(too late\)".*color="red"', out)


def test_deps_draws_the_trigger_cycle(capsys):
    code, out, err = run(capsys, str(CORPUS / "g603_two_triggers.rules"), "--kind", "deps")
    assert code == 1 and "[G603]" in err
    assert re.search(r'"trigger:ping" -> "trigger:pong" \[.*color="red"', out)
    assert re.search(r'"trigger:pong" -> "trigger:ping" \[.*color="red"', out)


def test_other_errors_stop_the_command(tmp_path, capsys):
    bad = tmp_path / "bad.rules"
    bad.write_text("game g:\n    score pp\nphase p:\n    gian 1 pp\n")
    code, out, err = run(capsys, str(bad))
    assert code == 1 and out == "" and "[A401]" in err
    assert "[A401]\n4 |     gian 1 pp\n  |     ^^^^\n" in err      # the source line, as check shows it


def test_dot_file(tmp_path, capsys):
    target = tmp_path / "road.dot"
    code, out, err = run(capsys, "caylus", "-o", str(target))
    assert code == 0 and out == ""
    assert target.read_text().startswith('digraph "road" {')


def test_unknown_format_is_a_usage_error(tmp_path, capsys):
    code, out, err = run(capsys, "caylus", "-o", str(tmp_path / "road.pdf"))
    assert code == 2 and "use .dot, .gv, .svg or .png" in err


def test_no_renderer_is_a_clear_message(tmp_path, capsys, monkeypatch):
    import importlib.util
    import shutil
    monkeypatch.setattr(shutil, "which", lambda name: None)
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "matplotlib" else real(name, *a))
    target = tmp_path / "road.svg"
    code, out, err = run(capsys, "caylus", "-o", str(target))
    assert code == 2 and not target.exists()  # a usage error, like an unknown format
    assert "no renderer for .svg" in err and "road.dot" in err


def test_graphviz_renders_when_installed(tmp_path, capsys, monkeypatch):
    fake = tmp_path / "bin" / "dot"
    fake.parent.mkdir()
    fake.write_text("#!/bin/sh\n# a stand-in for Graphviz: dot -Tsvg -o FILE < DOT\n"
                    "echo \"$1\" > \"$3.format\"\ncat > \"$3\"\n")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", str(fake.parent) + os.pathsep + os.environ.get("PATH", ""))
    target = tmp_path / "road.svg"
    code, out, err = run(capsys, "caylus", "-o", str(target))
    assert code == 0, err
    assert target.read_text().startswith('digraph "road" {')
    assert Path(str(target) + ".format").read_text().strip() == "-Tsvg"


def test_graphviz_failing_is_exit_2_with_what_it_said(tmp_path, capsys, monkeypatch):
    """The renderer broke, not the rules: not exit 1, which says the input has errors."""
    fake = tmp_path / "bin" / "dot"
    fake.parent.mkdir()
    fake.write_text("#!/bin/sh\necho 'Error: out of \033[31mmemory' >&2\nexit 3\n")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", str(fake.parent) + os.pathsep + os.environ.get("PATH", ""))
    code, out, err = run(capsys, "caylus", "-o", str(tmp_path / "road.png"))
    assert code == 2
    assert "Graphviz failed to render" in err and "out of \\x1b[31mmemory" in err and "\x1b" not in err


def test_matplotlib_renders_without_graphviz(tmp_path, capsys, monkeypatch):
    pytest.importorskip("matplotlib")
    import shutil
    monkeypatch.setattr(shutil, "which", lambda name: None)
    target = tmp_path / "deps.png"
    code, out, err = run(capsys, "caylus", "--kind", "deps", "-o", str(target))
    assert code == 0, err
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_game_without_a_track_has_an_empty_road(capsys):
    code, out, err = run(capsys, "ys")
    assert code == 0 and "declares no track" in err
    assert nodes_and_edges(out) == ([], [])


def test_graphs_have_a_legend_and_the_road_buildings(capsys):
    code, out, err = run(capsys, "caylus", "--kind", "deps")
    assert code == 0
    assert 'subgraph "cluster_legend"' in out and "produces what the next one uses" in out
    assert "fixed buildings:\\nPeddler, Carpenter, Gold mine" in out
    assert '[label="Trading post"' in out                  # titles, not internal names


def test_an_empty_graph_says_why(capsys):
    code, out, err = run(capsys, "ys", "--kind", "deps")
    assert code == 0
    assert "Ys activates no spaces or buildings" in out and "Ys activates no spaces or buildings" in err
