"""The CLI's own behaviour: argument handling, output formats, exit codes, error containment.

The loader and the engine are replaced by fakes, so these tests pin down the CLI contract
(DESIGN.md section 6) independently of the rule language.
"""

from __future__ import annotations

import json
import re
import sys
import types
from pathlib import Path

import pytest

from provost.dsl.diagnostics import CODES, Diagnostic, RulesError, did_you_mean, write_codes_table_markdown
from provost.tools import cli
from provost.tools.cli import main

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def fake_loader(monkeypatch):
    """Install a fake `provost.dsl.loader` whose results each test sets."""
    module = types.ModuleType("provost.dsl.loader")
    module.results = {}  # path suffix -> diagnostics
    module.checked = []

    def check_file(path):
        module.checked.append(path)
        for suffix, diags in module.results.items():
            if str(path).endswith(suffix):
                return [Diagnostic(str(path), *d) for d in diags]
        return []

    module.check_file = check_file
    monkeypatch.setitem(sys.modules, "provost.dsl.loader", module)
    return module


def make_tree(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / ".hidden").mkdir()
    for name in ("b.rules", "a.yaml", "sub/c.json", "sub/d.yml", "notes.txt", ".hidden/e.rules"):
        (tmp_path / name).write_text("x\n")
    return tmp_path


# --- check ---------------------------------------------------------------------------------------


def test_check_missing_path_is_p005_without_a_loader(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "provost.dsl.loader", None)  # importing it would fail
    assert main(["check", "/nonexistent/game.rules"]) == 1
    out, err = capsys.readouterr()
    assert out == "/nonexistent/game.rules:1:1: error: file not found [P005]\n"
    assert "checked 0 files: 1 error, 0 warnings" in err


def test_check_walks_folders_sorted_and_skips_hidden(tmp_path, fake_loader, capsys):
    make_tree(tmp_path)
    assert main(["check", str(tmp_path)]) == 0
    names = [str(Path(p).relative_to(tmp_path)) for p in fake_loader.checked]
    assert names == ["a.yaml", "b.rules", "sub/c.json", "sub/d.yml"]
    out, err = capsys.readouterr()
    assert out == ""
    assert err.strip() == "checked 4 files: 0 errors, 0 warnings"


def test_check_text_output_and_exit_codes(tmp_path, fake_loader, capsys):
    make_tree(tmp_path)
    fake_loader.results = {
        "b.rules": [(7, 3, "warning", "S101", "unused building 'farm'"),
                    (2, 0, "error", "S001", "undefined name 'wod'; did you mean 'wood'?")],
        "c.json": [(1, 1, "note", "G201", "cloth only from stock")],
    }
    assert main(["check", str(tmp_path)]) == 1
    out, err = capsys.readouterr()
    b = tmp_path / "b.rules"
    # Each diagnostic is followed by its source line with the span underlined (when it can be read).
    assert [line for line in out.splitlines() if not re.match(r"^\s*\d* \|", line)] == [
        f"{b}:2:1: error: undefined name 'wod'; did you mean 'wood'? [S001]",  # sorted, col clamped
        f"{b}:7:3: warning: unused building 'farm' [S101]",
        f"{tmp_path / 'sub' / 'c.json'}:1:1: note: cloth only from stock [G201]",
    ]
    assert err.strip() == "checked 4 files: 1 error, 1 warning, 1 note"


def test_check_warnings_fail_only_with_strict(tmp_path, fake_loader, capsys):
    path = tmp_path / "w.rules"
    path.write_text("x\n")
    fake_loader.results = {"w.rules": [(1, 1, "warning", "S101", "unused")]}
    assert main(["check", str(path)]) == 0
    assert main(["check", "--strict", str(path)]) == 1


def test_check_json_is_one_object(tmp_path, fake_loader, capsys):
    make_tree(tmp_path)
    fake_loader.results = {"a.yaml": [(3, 4, "error", "X001", "bad")]}
    missing = str(tmp_path / "missing.rules")
    assert main(["check", "--format", "json", str(tmp_path / "a.yaml"), missing]) == 1
    out, err = capsys.readouterr()
    assert err == ""
    report = json.loads(out)
    assert report["files"] == [str(tmp_path / "a.yaml")]
    assert (report["errors"], report["warnings"], report["notes"]) == (2, 0, 0)
    assert {d["code"] for d in report["diagnostics"]} == {"X001", "P005"}
    first = report["diagnostics"][0]
    assert set(first) >= {"path", "line", "col", "severity", "code", "message", "hint"}


def test_check_collects_diagnostics_from_rules_error(tmp_path, fake_loader, capsys):
    path = tmp_path / "r.rules"
    path.write_text("x\n")

    def check_file(p):
        raise RulesError([Diagnostic(str(p), 4, 2, "error", "P020", "unexpected token")])

    fake_loader.check_file = check_file
    assert main(["check", str(path)]) == 1
    assert f"{path}:4:2: error: unexpected token [P020]" in capsys.readouterr().out


# --- export / variants -------------------------------------------------------------------------


def test_export_prints_dump_or_diagnostics(fake_loader, capsys):
    ir = {"name": "caylus"}
    fake_loader.load_ruleset = lambda name, variant=None: (
        (ir, []) if name == "caylus" else (None, [Diagnostic(name, 1, 1, "error", "P005", "file not found")]))
    fake_loader.dump_ir = lambda obj, fmt: f"{fmt}:{json.dumps(obj)}"
    assert main(["export", "caylus", "--format", "yaml"]) == 0
    assert capsys.readouterr().out == 'yaml:{"name": "caylus"}\n'
    assert main(["export", "nope"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and "nope:1:1: error: file not found [P005]" in err


def test_variants_plain_table(fake_loader, capsys):
    fake_loader.list_shipped = lambda: [
        {"name": "caylus", "title": "Caylus", "variants": [
            {"name": "simplified_favor", "title": "Simplified favor", "description": "a favor is 3 PP"}]},
        {"name": "ys", "title": "Ys", "variants": []},
    ]
    assert main(["variants"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["RULESET", "VARIANT", "TITLE", "DESCRIPTION"]
    assert lines[1].split() == ["caylus", "(base)", "Caylus"]
    assert "simplified_favor" in lines[2] and "a favor is 3 PP" in lines[2]
    assert lines[1].index("(base)") == lines[2].index("simplified_favor")  # aligned
    assert main(["variants", "ys"]) == 0
    assert "caylus" not in capsys.readouterr().out
    assert main(["variants", "caylu"]) == 2  # an unknown name is a usage error
    assert "did you mean 'caylus'?" in capsys.readouterr().err


# --- argument handling and error containment ---------------------------------------------------


@pytest.mark.parametrize("argv", [
    [],
    ["frobnicate"],
    ["check"],
    ["check", "x.rules", "--format", "xml"],
    ["play"],
    ["play", "caylus", "--players", "0"],
    ["play", "caylus", "--seed", "abc"],
    ["play", "caylus", "--agents", "greedy,,random"],
    ["sim", "caylus"],  # --games is required
    ["sim", "caylus", "--games", "10", "--jobs", "0"],
    ["graph", "caylus", "--kind", "cycle"],
    ["export", "caylus", "--format", "toml"],
])
def test_usage_errors_exit_2(argv, capsys):
    assert main(argv) == 2
    assert "usage:" in capsys.readouterr().err


def test_help_exits_0(capsys):
    assert main(["--help"]) == 0
    assert "check" in capsys.readouterr().out


def test_play_arguments_parsed_fully():
    args = cli.build_parser().parse_args(
        ["play", "caylus", "--players", "4", "--seed", "1", "--agents", "greedy,random", "--log", "g.jsonl",
         "--format", "json", "--debug"])
    assert (args.ruleset, args.players, args.seed, args.agents, args.log, args.format, args.debug) == (
        "caylus", 4, 1, ["greedy", "random"], "g.jsonl", "json", True)
    defaults = cli.build_parser().parse_args(["play", "ys"])
    # No --seed: None, and the command draws one from the operating system (and reports it).
    assert (defaults.seed, defaults.variant, defaults.players, defaults.agents, defaults.format) == (
        None, None, None, None, "text")
    sim = cli.build_parser().parse_args(["sim", "ys", "--games", "20", "--jobs", "2"])
    assert (sim.games, sim.jobs, sim.seed) == (20, 2, None)
    graph = cli.build_parser().parse_args(["graph", "caylus", "--kind", "deps", "-o", "g.dot"])
    assert (graph.kind, graph.output) == ("deps", "g.dot")


@pytest.mark.parametrize("argv, module", [
    (["play", "caylus"], "provost.tools.cli.commands_play"),
    (["replay", "game.jsonl"], "provost.tools.cli.commands_play"),
    (["sim", "caylus", "--games", "3"], "provost.tools.cli.commands_sim"),
    (["graph", "caylus"], "provost.tools.cli.commands_graph"),
])
def test_missing_command_module_reports_unavailable(argv, module, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, module, None)  # makes the import fail as if absent
    assert main(argv) == 2
    assert capsys.readouterr().err.strip() == (
        f"provost: error: the '{argv[0]}' command is not available in this build")


def test_dispatches_to_command_module(monkeypatch):
    module = types.ModuleType("provost.tools.cli.commands_play")
    seen = []
    module.run_play = lambda args: seen.append(args.seed) or 0
    module.run_replay = lambda args: 1
    monkeypatch.setitem(sys.modules, "provost.tools.cli.commands_play", module)
    assert main(["play", "caylus", "--seed", "7"]) == 0 and seen == [7]
    assert main(["replay", "g.jsonl"]) == 1


def _install_play(monkeypatch, run_play):
    module = types.ModuleType("provost.tools.cli.commands_play")
    module.run_play = run_play
    monkeypatch.setitem(sys.modules, "provost.tools.cli.commands_play", module)


def test_rules_error_prints_diagnostics_and_exits_1(monkeypatch, capsys):
    def run_play(args):
        raise RulesError([Diagnostic("caylus.rules", 3, 5, "error", "E001", "illegal option 'place:x'")])

    _install_play(monkeypatch, run_play)
    assert main(["play", "caylus"]) == 1
    assert capsys.readouterr().err == "caylus.rules:3:5: error: illegal option 'place:x' [E001]\n"


def test_internal_error_is_contained(monkeypatch, capsys):
    _install_play(monkeypatch, lambda args: {}["boom"])
    assert main(["play", "caylus"]) == 2
    err = capsys.readouterr().err
    assert err == "provost: internal error: KeyError: 'boom' (run with --debug for the traceback)\n"
    assert main(["--debug", "play", "caylus"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" in err and "provost: internal error: KeyError: 'boom'" in err


def test_keyboard_interrupt_and_broken_pipe(monkeypatch, capsys):
    def interrupted(args):
        raise KeyboardInterrupt

    def broken(args):
        raise BrokenPipeError

    _install_play(monkeypatch, interrupted)
    assert main(["play", "caylus"]) == 130
    _install_play(monkeypatch, broken)
    assert main(["play", "caylus"]) == 0
    assert capsys.readouterr().err == ""


# --- diagnostics helpers -------------------------------------------------------------------------


def test_diagnostic_format_and_dict():
    diag = Diagnostic("g.rules", 0, -3, "warning", "S101", "unused", hint="remove it")
    assert diag.format_text() == "g.rules:1:1: warning: unused [S101]"
    assert diag.to_dict()["hint"] == "remove it"
    with pytest.raises(ValueError):
        Diagnostic("g.rules", 1, 1, "fatal", "S1", "x")


def test_did_you_mean():
    assert did_you_mean("wod", ["wood", "food", "stone"]) == "; did you mean 'wood'?"
    assert did_you_mean("zzz", ["wood"]) == ""


def test_codes_table_lists_registered_codes():
    table = write_codes_table_markdown()
    assert table.splitlines()[0] == "| Code | Severity | Meaning |"
    for code in CODES:
        assert f"| {code} |" in table


# --- the README and CI agree -------------------------------------------------------------------


def test_ci_runs_exactly_the_readme_test_command():
    readme = (ROOT / "README.md").read_text().split("```")[1].splitlines()
    commands = [line for line in readme[1:] if line.strip()]
    assert len(commands) == 2
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert commands[1] in ci
