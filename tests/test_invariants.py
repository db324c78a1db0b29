"""Invariant declarations: the language, the checker, and `provost soak` / `--check-invariants`.

An invariant is declared in the rule file (`invariant NAME "Message" [per player]: holds EXPR`,
or `constant`, `never_decreases`, `never_increases`); variants inherit, add, replace and remove
them.  The shipped games declare what their old soak scripts checked, and every shipped ruleset
and variant keeps them in a short soak.
"""
from __future__ import annotations

import json
import pathlib

import pytest

from cli_run import run_cli
from provost.dsl.diagnostics import RulesError
from provost.dsl.loader import check_file, list_shipped, load_checked
from provost.dsl.parser import parse_text
from provost.interpreter.engine import Game
from provost.interpreter.invariants import InvariantChecker

HERE = pathlib.Path(__file__).resolve().parent
BROKEN = str(HERE / "invariants" / "caylus.broken_invariant.rules")

GAME = '''game g "G":
    players 2..2
    score pp
    max_rounds 1
    rounds main
resource pp "points"
counter workers per player start 3
order turn_order
phase main:
    each player in turn_order:
        gain 1 pp
'''


def _ir(tmp_path, text):
    from provost.dsl.loader import parse_file
    path = tmp_path / "g.rules"
    path.write_text(text)
    ir, diags = parse_file(str(path))
    return ir, [d.format_text() for d in diags]


def test_an_invariant_in_the_ir(tmp_path):
    ir, diags = _ir(tmp_path, GAME + 'invariant three_workers "Three workers each" per player:\n'
                                     '    holds workers == 3\n')
    assert diags == []
    inv = ir["decls"][-1]
    assert inv["kind"] == "invariant" and inv["name"] == "three_workers" and inv["title"] == "Three workers each"
    assert inv["scope"] == "player" and inv["test"] == "holds" and inv["value"]["e"] == "binop"
    assert inv["pos"][:2] == [12, 1]


@pytest.mark.parametrize("decl, message", [
    ('invariant x "X"\n', "states one of holds, constant, never_decreases, never_increases"),
    ('invariant x "X":\n    holds pp >= 0\n    constant pp\n', "states one of"),
    ('invariant x "X":\n    always pp >= 0\n', "unknown attribute 'always'"),
    ('invariant x "X":\n    holds\n', "'holds' takes exactly one value"),
    ('invariant x "X" per seat:\n    holds pp >= 0\n', "'per player' or global"),
])
def test_an_invariant_says_one_thing(tmp_path, decl, message):
    _, diags = _ir(tmp_path, GAME + decl)
    assert any(message in d for d in diags), diags


def test_names_in_an_invariant_are_checked(tmp_path):
    path = tmp_path / "g.rules"
    path.write_text(GAME + 'invariant x "X":\n    holds wokers == 3\n')
    diags = [d.format_text() for d in check_file(str(path))]
    assert any(":13:11: error: undefined name 'wokers'" in d and "did you mean 'workers'" in d for d in diags), diags


def test_a_game_checks_its_invariants(tmp_path):
    path = tmp_path / "g.rules"
    path.write_text(GAME + 'invariant never "Points never come" per player:\n    constant held(pp)\n')
    rs = load_checked(str(path))
    g = Game.new(rs, players=2, seed=0)
    checker = InvariantChecker(g)
    checker.check(g)
    g.s.counters["pp"][1] += 1
    v = checker.first_violation(g)
    assert (v.name, v.seat, v.line, v.detail) == ("never", 1, 12, "was 1, now 2")


def test_variants_inherit_replace_and_remove_invariants(tmp_path):
    base = load_checked("caylus")
    names = [d["name"] for d in base.decls if d["kind"] == "invariant"]
    assert "six_workers" in names and "tiles_kept" in names
    variant = load_checked("caylus", "two_players")
    assert [d["name"] for d in variant.decls if d["kind"] == "invariant"] == names
    path = tmp_path / "caylus.fewer.rules"
    path.write_text('variant fewer "Fewer" extends caylus:\n'
                    '    remove invariant tiles_kept\n'
                    '    replace invariant six_workers "Six" per player:\n'
                    '        holds workers <= 6\n')
    rs = load_checked(str(path))
    mine = {d["name"]: d for d in rs.decls if d["kind"] == "invariant"}
    assert "tiles_kept" not in mine and mine["six_workers"]["title"] == "Six"
    path.write_text('variant fewer "Fewer" extends caylus:\n    remove invariant no_such_thing\n')
    with pytest.raises(RulesError) as e:
        load_checked(str(path))
    assert "L004" in str(e.value.diagnostics[0].format_text())


# ------------------------------------------------------------------ the command line
def test_soak_reports_a_broken_invariant_with_its_position_seed_and_decision(capsys):
    code, out, _ = run_cli(capsys, "soak", BROKEN, "--players", "3", "--seeds", "2", "--seed", "5")
    assert code == 1
    lines = [line for line in out.splitlines() if "[E200]" in line]
    assert len(lines) == 2
    assert lines[0].startswith(BROKEN + ":8:5: error: invariant 'deniers_never_spent' violated for player ")
    assert "(seed 5, decision " in lines[0] and "(seed 6, decision " in lines[1]
    assert "Deniers are never spent (was " in lines[0]
    assert "replay: provost play %s --players 3 --seed 5 --agents random,random,random --check-invariants" % BROKEN in out


def test_soak_json_names_the_violation(capsys):
    code, out, _ = run_cli(capsys, "soak", BROKEN, "--players", "3", "--seeds", "1", "--format", "json")
    report = json.loads(out)
    assert code == 1 and report["ok"] is False and report["error"]["exit"] == 1
    v = report["failed"][0]["violation"]
    assert (v["invariant"], v["path"], v["line"], v["col"]) == ("deniers_never_spent", BROKEN, 8, 5)
    assert v["decision"] >= 1 and report["failed"][0]["seed"] == 0
    assert report["diagnostics"][0]["code"] == "E200"


def test_play_checks_invariants_only_when_asked(capsys):
    code, out, _ = run_cli(capsys, "play", BROKEN, "--players", "3", "--seed", "1")
    assert code == 0
    code, out, err = run_cli(capsys, "play", BROKEN, "--players", "3", "--seed", "1", "--check-invariants")
    assert code == 1
    assert BROKEN + ":8:5: error: invariant 'deniers_never_spent' violated" in out + err
    assert "(seed 1, decision " in out + err


def test_sim_counts_a_violation_as_a_games_error(capsys):
    code, out, _ = run_cli(capsys, "sim", BROKEN, "--players", "3", "--games", "2", "--check-invariants",
                           "--format", "json")
    report = json.loads(out)
    assert code == 1 and len(report["errors"]) == 2
    assert "invariant 'deniers_never_spent' violated" in report["errors"][0]["error"]
    code, out, _ = run_cli(capsys, "sim", BROKEN, "--players", "3", "--games", "2", "--format", "json")
    assert code == 0


def _shipped():
    for r in list_shipped():
        yield r["name"], None
        for v in r.get("variants", []):
            yield r["name"], v["name"]


@pytest.mark.parametrize("ruleset, variant", list(_shipped()))
def test_every_shipped_ruleset_and_variant_keeps_its_invariants(capsys, ruleset, variant):
    argv = ["soak", ruleset, "--seeds", "2", "--format", "json"] + (["--variant", variant] if variant else [])
    code, out, _ = run_cli(capsys, *argv)
    report = json.loads(out)
    assert code == 0 and report["failures"] == 0, report.get("failed")
    assert len(report["invariants"]) >= 5


def test_a_monotone_invariant_needs_a_number(tmp_path):
    """`never_decreases pp` would compare the symbol pp with itself: reported, not passed."""
    path = tmp_path / "g.rules"
    path.write_text(GAME + 'invariant up "Points only grow" per player:\n    never_decreases pp\n')
    g = Game.new(load_checked(str(path)), players=2, seed=0)
    v = InvariantChecker(g).first_violation(g)
    assert v.name == "up" and v.detail == "never_decreases needs a number, got 'pp'"


def test_invariants_are_not_part_of_the_digest(tmp_path):
    """Invariants check games without changing them: saves, logs and learned values stay valid."""
    path = tmp_path / "caylus.checked.rules"
    path.write_text('variant checked "Checked" extends caylus:\n'
                    '    invariant rich "Nobody has 1000 deniers" per player:\n'
                    '        holds held(denier) < 1000\n'
                    '    remove invariant tiles_kept\n')
    assert load_checked(str(path)).digest == load_checked("caylus").digest


def test_soak_gives_the_same_games_with_more_jobs(capsys):
    def report(*more):
        code, out, _ = run_cli(capsys, "soak", BROKEN, "--players", "3", "4", "--seeds", "2", "--greedy",
                               "--format", "json", *more)
        r = json.loads(out)
        return code, r["games"], [(f["players"], f["seed"], f["agents"], f["violation"]) for f in r["failed"]]
    one = report()
    assert one[0] == 1 and one[1] == 8 and len(one[2]) == 8
    assert report("--jobs", "2") == one


def test_ctrl_c_on_a_soak_with_jobs_prints_no_worker_traceback():
    """SIGINT to the whole process group, as a terminal sends it: the pool's workers leave Ctrl-C
    to the parent (once each printed 'Process ForkPoolWorker-1:' and its KeyboardInterrupt)."""
    import os
    import signal
    import subprocess
    import sys
    import time
    if sys.platform == "win32":
        pytest.skip("process groups and SIGINT")
    root = pathlib.Path(__file__).resolve().parent.parent
    proc = subprocess.Popen([sys.executable, "-m", "provost.tools.cli", "soak", "caylus", "--seeds", "5000",
                             "--jobs", "2"], cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(4)
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "ForkPoolWorker" not in err, err
