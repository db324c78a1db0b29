"""`provost check` with the real pipeline: exit codes, text lines, the --format json object."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from provost.tools.cli import main

ROOT = Path(__file__).resolve().parent.parent
# The source excerpt printed under each diagnostic (`12 |     gian 1 pp` and `   |     ^^^^`).
EXCERPT = re.compile(r"^\s*\d* \|")
LINE = re.compile(r"^(?P<path>.+):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|warning|note): (?P<msg>.+) \[(?P<code>[A-Z]\d{3})\]$")

BROKEN = """game g:
    players 2..4
    score pp
resource pp, food
phase p:
    gian 1 pp
    gain 2 fod
"""


@pytest.fixture
def broken(tmp_path):
    path = tmp_path / "broken.rules"
    path.write_text(BROKEN)
    return path


def test_shipped_rulesets_check_clean(capsys):
    # No errors.  The graph checks' few warnings and notes on shipped files are intended and
    # explained in comments there (tests/test_graph_checks.py holds them to that).
    assert main(["check", str(ROOT / "rulesets")]) == 0
    out, err = capsys.readouterr()
    parsed = [LINE.match(line) for line in out.splitlines() if not EXCERPT.match(line)]
    assert all(m and m["sev"] in ("warning", "note") and m["code"].startswith("G") for m in parsed), out
    assert re.match(r"checked \d+ files: 0 errors", err.strip())


def test_errors_exit_1_with_compiler_style_lines(broken, capsys):
    assert main(["check", str(broken)]) == 1
    out, err = capsys.readouterr()
    lines = out.splitlines()
    parsed = [LINE.match(line) for line in lines if not EXCERPT.match(line)]
    assert all(parsed), lines
    assert [(m["line"], m["col"], m["code"]) for m in parsed] == [("6", "5", "A401"), ("7", "12", "N103")]
    assert lines[1:3] == ["6 |     gian 1 pp", "  |     ^^^^"]      # the line, the span underlined
    assert parsed[0]["path"] == str(broken)
    assert "did you mean 'gain'?" in parsed[0]["msg"] and "did you mean 'food'?" in parsed[1]["msg"]
    assert "checked 1 file: 2 errors, 0 warnings" in err


def test_json_format_is_one_object(broken, tmp_path, capsys):
    good = tmp_path / "good.rules"
    good.write_text("game g:\n    players 2..4\n    score pp\nresource pp\n")
    assert main(["check", "--format", "json", str(tmp_path)]) == 1
    out, err = capsys.readouterr()
    assert err == ""
    report = json.loads(out)
    assert report["files"] == [str(broken), str(good)]
    assert (report["errors"], report["warnings"], report["notes"]) == (2, 0, 0)
    first = report["diagnostics"][0]
    assert first["path"] == str(broken) and (first["line"], first["col"]) == (6, 5)
    assert {"path", "line", "col", "severity", "code", "message", "end_line", "end_col", "hint"} <= set(first)
    assert [d["code"] for d in report["diagnostics"]] == ["A401", "N103"]


def test_json_format_clean(capsys):
    assert main(["check", "--format", "json", str(ROOT / "rulesets" / "caylus.rules")]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["errors"] == 0
    assert all(d["severity"] != "error" and d["code"].startswith("G") for d in report["diagnostics"])


def test_hostile_inputs_exit_1_never_2(tmp_path, capsys):
    (tmp_path / "binary.rules").write_bytes(b"\x00\x01\x02game")
    (tmp_path / "latin1.rules").write_bytes(b"game caf\xe9:\n")
    (tmp_path / "empty.yaml").write_text("")
    (tmp_path / "deep.rules").write_text("game g:\n    players 2..4\nlet x = " + "not " * 5000 + "1\n")
    assert main(["check", "--format", "json", str(tmp_path)]) == 1
    report = json.loads(capsys.readouterr().out)
    codes = {Path(d["path"]).name: d["code"] for d in report["diagnostics"]}
    assert codes == {"binary.rules": "P003", "latin1.rules": "P002", "empty.yaml": "P004", "deep.rules": "S002"}


def test_usage_errors_exit_2(capsys):
    assert main(["check"]) == 2
    assert main(["check", "--format", "xml", "x.rules"]) == 2


def test_missing_file_exits_1(tmp_path, capsys):
    assert main(["check", str(tmp_path / "nope.rules")]) == 1
    assert "[P005]" in capsys.readouterr().out


def test_unknown_ruleset_name_is_a_usage_error(capsys):
    assert main(["export", "caylsu"]) == 2
    err = capsys.readouterr().err
    assert "provost: error: unknown ruleset 'caylsu'; did you mean 'caylus'?" in err
    assert "(shipped: caylus, caylus1303, ys)" in err


def test_an_exported_ir_file_names_the_rule_file_its_positions_are_in(tmp_path, capsys):
    rules = ROOT / "rulesets" / "caylus.rules"
    assert main(["check", "--format", "json", str(rules)]) == 0
    direct = json.loads(capsys.readouterr().out)["diagnostics"]
    assert direct  # the shipped file's intended warnings and notes
    exported = tmp_path / "cay.json"
    assert main(["export", "caylus"]) == 0
    exported.write_text(capsys.readouterr().out)
    doc = json.loads(exported.read_text())
    assert doc["source"] == str(rules)
    assert main(["check", "--format", "json", str(exported)]) == 0
    assert json.loads(capsys.readouterr().out)["diagnostics"] == direct
    # exporting the exported file keeps the original source
    assert main(["export", str(exported), "--format", "yaml"]) == 0
    assert "source: %s" % rules in capsys.readouterr().out
    # without a source, the IR file is its own positions file
    del doc["source"]
    exported.write_text(json.dumps(doc))
    assert main(["check", "--format", "json", str(exported)]) == 0
    assert {d["path"] for d in json.loads(capsys.readouterr().out)["diagnostics"]} == {str(exported)}


def test_an_exported_ir_file_asked_for_another_player_count_says_how_to_export_it(tmp_path, capsys):
    # Once: 'ys is for 4 players, not 2 (and for 2, 3 players with their own rules: ... --players N)',
    # said to a user who had given --players 2: the count's rules are a file a document lacks.
    exported = tmp_path / "ys.yaml"
    assert main(["export", "ys", "--format", "yaml"]) == 0
    exported.write_text(capsys.readouterr().out)
    assert main(["play", str(exported), "--players", "2", "--seed", "1", "--no-log"]) == 2
    assert "ys is for 4 players, not 2: an IR document holds the rules of the count it was exported for " \
           "(provost export ys --players 2)" in capsys.readouterr().err
    two = tmp_path / "ys2.yaml"
    assert main(["export", "ys", "--players", "2", "--format", "yaml"]) == 0
    two.write_text(capsys.readouterr().out)
    assert main(["play", str(two), "--players", "2", "--seed", "1", "--no-log"]) == 0


def test_an_error_in_the_ir_document_itself_names_the_ir_file(tmp_path, capsys):
    assert main(["export", "caylus"]) == 0
    text = capsys.readouterr().out.replace('"kind": "game"', '"kind": "gaem"', 1)
    broken = tmp_path / "cay.json"
    broken.write_text(text)
    assert main(["check", str(broken)]) == 1
    out = capsys.readouterr().out
    line = next(i for i, l in enumerate(text.splitlines(), 1) if '"gaem"' in l)
    assert out.startswith("%s:%d:" % (broken, line)) and "[S0" in out


def test_an_exported_variant_moved_from_its_base_says_where_its_base_was_looked_for(tmp_path, capsys):
    # The error is at the variant's line in its rule file, beside which the base is: it says that
    # the base was looked for beside the exported document, which is where it is missing.
    (tmp_path / "src").mkdir()
    (tmp_path / "out").mkdir()
    (tmp_path / "src" / "mini.rules").write_text('game mini "Mini":\n    players 2..2\n    score vp\n'
                                                  '    rounds p\nresource vp\nphase p:\n    step s\n    nothing\n')
    variant = tmp_path / "src" / "mv.rules"
    variant.write_text('variant mv "MV" extends "mini.rules":\n    replace step p.s:\n        nothing\n')
    assert main(["check", str(variant)]) == 0
    capsys.readouterr()
    assert main(["export", str(variant)]) == 0
    exported = tmp_path / "out" / "mv.json"
    exported.write_text(capsys.readouterr().out)
    assert main(["check", str(exported)]) == 1
    out = capsys.readouterr().out
    assert out.startswith("%s:1:1: error: cannot find the base ruleset 'mini.rules' beside %s (the folder of the "
                          "IR document, where its base is looked for) [L002]" % (variant, exported)), out

def test_check_without_a_path_is_a_usage_error(capsys):
    assert main(["check"]) == 2
    assert "check needs a PATH" in capsys.readouterr().err
    assert main(["check", "--format", "json"]) == 2
    assert json.loads(capsys.readouterr().out)["error"]["kind"] == "usage"
