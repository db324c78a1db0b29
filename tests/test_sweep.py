"""provost sweep: rule numbers changed in the IR, games on the same seeds, paired t intervals."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from provost.dsl.diagnostics import UsageError
from provost.dsl.loader import load_checked
from provost.dsl.overrides import with_settings
from provost.interpreter.engine import Game
from provost.tools.sim.stats import paired_difference
from provost.tools.sim.sweep import parse_sets, settings_grid
from tests.cli_run import run_cli


def test_paired_difference_uses_the_differences_spread():
    base = [10, 20, 30, 40, 50]
    other = [12, 21, 33, 41, 53]            # differences 2, 1, 3, 1, 3: mean 2, sd 1
    d = paired_difference(base, other)
    half = 2.7764 * 1 / 5 ** 0.5
    assert d["diff"] == 2 and d["ci95"] == pytest.approx([2 - half, 2 + half], abs=1e-3)
    assert d["significant"] and d["n"] == 5


def test_a_table_let_is_set_whole_or_by_key():
    rs = load_checked("caylus")
    whole, diags = with_settings(rs, {"start_money": 11})
    assert whole is not None and whole.digest != rs.digest
    table = next(d for d in whole.decls if d["kind"] == "let" and d["name"] == "start_money")["value"]
    assert [item[1]["v"] for item in table["items"]] == [11] * 5
    one, _ = with_settings(rs, {"start_money[4]": 2})
    table = next(d for d in one.decls if d["kind"] == "let" and d["name"] == "start_money")["value"]
    assert [item[1]["v"] for item in table["items"]] == [5, 6, 6, 2, 7]
    # the original is untouched
    table = next(d for d in rs.decls if d["kind"] == "let" and d["name"] == "start_money")["value"]
    assert [item[1]["v"] for item in table["items"]] == [5, 6, 6, 7, 7]


def test_a_changed_number_changes_the_game():
    rs = load_checked("caylus")
    richer, _ = with_settings(rs, {"start_money": 20})
    game = Game.new(rs, players=4, seed=1)
    before = game.observation(0)["counters"]["denier"]
    after = Game.new(richer, players=4, seed=1).observation(0)["counters"]["denier"]
    # Start money goes by place in the turn order (5, 6, 6, 7 deniers), and the 2 deniers of
    # income come before the first player decides.
    order = game.s.orders["turn_order"]
    assert before == [(5, 6, 6, 7)[order.index(p)] + 2 for p in range(4)] and after == [22, 22, 22, 22]


@pytest.mark.parametrize("setting, message", [
    ({"nope": 1}, "no let"), ({"start_money[9]": 1}, "no entry '9'"), ({"cubes": 1}, "not an integer"),
    ({"gold_mine.colour": 1}, "no integer attribute"), ({"no_such_building.prestige": 1}, "no declaration"),
    ({"start money": 1}, "write NAME"),
])
def test_bad_targets_are_usage_errors(setting, message):
    with pytest.raises(UsageError, match=message):
        with_settings(load_checked("caylus"), setting)


def test_sets_make_a_grid_with_the_first_values_as_baseline():
    grid = settings_grid(parse_sets(["a=1,2", "b=5,6,7"]))
    assert grid[0] == {"a": 1, "b": 5} and len(grid) == 6
    with pytest.raises(ValueError, match="integers"):
        parse_sets(["a=x"])
    with pytest.raises(ValueError, match="repeated"):
        parse_sets(["a=1,1"])


def test_the_baseline_plays_the_same_games_as_sim(capsys):
    code, out, err = run_cli(capsys, "sweep", "caylus", "--set", "start_money[4]=7,12", "--games", "6",
                             "--players", "4", "--format", "json")
    assert code == 0, err
    sweep = json.loads(out)
    code, out, err = run_cli(capsys, "sim", "caylus", "--games", "6", "--players", "4", "--seed", "0",
                             "--format", "json")
    sim = json.loads(out)
    # start_money[4]=7 is the shipped value (the fourth seat's): the baseline's games are sim's games
    assert sweep["settings"][0]["means"]["rounds"] == pytest.approx(sim["length"]["rounds"]["mean"], abs=1e-3)
    entry = sweep["settings"][1]
    assert entry["label"] == "start_money[4]=12" and entry["vs_baseline"]["mean score"]["n"] == 6


def test_an_invalid_rule_after_the_change_is_a_usage_or_rules_error(capsys):
    code, out, err = run_cli(capsys, "sweep", "caylus", "--set", "nope=1,2", "--games", "2")
    assert code == 2 and "no let" in err


def test_a_value_the_checker_refuses_names_the_setting_that_gave_it(capsys):
    # The checker's position is the number the setting replaced in the rule file, whose line still
    # shows the file's own value: the message is the --set's, a usage error (exit 2) in one line.
    code, out, err = run_cli(capsys, "sweep", "caylus", "--set", "start_money[4]=7,99999999999",
                             "--games", "1", "--seed", "1")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("provost: error: --set start_money[4]=99999999999: "
                                                    "99999999999 is too large; numbers stay within 1,000,000 ")
    assert "caylus.rules:33:41 [R304])" in err


@pytest.mark.parametrize("setting, said", [
    ("provost.start=6,0", "--set provost.start=0: counter 'provost' starts at 0, outside 1..28"),       # below min
    ("provost.start=40", "--set provost.start=40: counter 'provost' starts at 40, outside 1..28"),      # above max
    ("provost.max=0", "--set provost.max=0: counter 'provost' has min 1 above max 0"),
    ("gold_mine.count=-1", "--set gold_mine.count=-1: count of building 'gold_mine' is -1; it must be at least 0"),
    ("start_money=5,-5", "--set start_money=-5: let 'start_money' holds -5, and is the amount of 'gain ... denier' "
                         "at line 464: an amount is never negative"),     # no game gets a negative start
    ("start_money[2]=-1", "--set start_money[2]=-1: let 'start_money' holds -1"),
    ("start_money=5,1.5", "--set 'start_money=5,1.5': '1.5' is not an integer"),
])
def test_a_value_a_declaration_cannot_take_is_a_usage_error_before_any_game(setting, said):
    # A real command: one line on stderr naming the setting, the value and the range, exit 2 as
    # every usage error, and no game played (no report, even for the valid baseline first).
    done = subprocess.run([sys.executable, "-m", "provost.tools.cli", "sweep", "caylus", "--set", setting,
                           "--games", "2"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("provost: error: " + said) and done.stderr.count("\n") == 1, done.stderr


def test_a_refused_setting_in_json_keeps_its_diagnostics(capsys):
    code, out, err = run_cli(capsys, "sweep", "caylus", "--set", "provost.start=3", "--set", "bailiff.max=2",
                             "--games", "2", "--format", "json")
    doc = json.loads(out)
    assert code == 2 and doc["error"]["kind"] == "usage" and doc["error"]["exit"] == 2
    assert doc["error"]["message"].startswith("--set provost.start=3 --set bailiff.max=2: counter 'bailiff' "
                                              "starts at 6, outside 1..2")
    (d,) = doc["diagnostics"]
    assert d["code"] == "R302" and d["line"] == 28 and d["message"].endswith("(with --set provost.start=3 --set bailiff.max=2)")


@pytest.mark.parametrize("values", ["1000000,3", "3,1000000"])
def test_games_that_fail_under_a_setting_say_what_failed(values, tmp_path, capsys):
    # A setting whose games all stop with an E100: the report said only "seeds [0, 1]" (and, for
    # the baseline, nothing at all: exit 1 with no word of an error).  It gives the first error.
    path = tmp_path / "g.rules"
    path.write_text("game g:\n    score pp\n    players 2..2\n    rounds p\n    max_rounds 1\nresource pp\n"
                    "let n = 3\nphase p:\n    each player in players():\n        gain count(1..n * n) pp\n")
    code, out, err = run_cli(capsys, "sweep", str(path), "--set", "n=" + values, "--games", "2")
    assert code == 1
    said = "n=1000000: 2 games raised an error (left out of every comparison): seeds [0, 1]; first, seed 0: "
    assert said in out and "g.rules:10:20: error: while playing: the range 1..1000000000000 has" in out, out
    code, out, err = run_cli(capsys, "sweep", str(path), "--set", "n=" + values, "--games", "2", "--format", "json")
    doc = json.loads(out)
    assert code == 1 and not doc["ok"]
    assert "g.rules:10:20: error: while playing: the range" in doc["error"]["message"]
    failed = next(e for e in doc["settings"] if e["errors"])
    assert failed["first_error"]["seed"] == 0 and "[E100]" in failed["first_error"]["error"]
