"""How commands fail (DESIGN.md section 6): exit codes, messages, and one JSON object.

- an output that cannot be written (graph -o, rulebook -o, play --log, sim --plot, stdout) is
  `provost: error: cannot write ...: <reason>`, exit 2;
- with --format json, play and sim (and check, replay, explain) print exactly one JSON object on
  stdout also when they fail: {"ok": false, "error": {"kind", "exit", "message"},
  "diagnostics": [...]}, with the exit code of text mode;
- a folder with nothing to check is an error, not a clean check.
"""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cli_run import run_cli as run
from provost.tools.cli.failures import EXIT_CODES

ROOT = Path(__file__).resolve().parent.parent


# ------------------------------------------------------------------ outputs that cannot be written
@pytest.mark.parametrize("argv", [
    ["graph", "caylus", "-o", "{missing}/x.dot"],
    ["graph", "caylus", "-o", "{missing}/x.svg"],
    ["graph", "caylus", "-o", "{folder}.dot"],
    ["rulebook", "caylus", "-o", "{missing}/book.md"],
    ["play", "caylus", "--log", "{missing}/game.jsonl"],
    ["play", "caylus", "--log", "{folder}"],
])
def test_an_unwritable_output_is_a_usage_error(capsys, tmp_path, argv):
    (tmp_path / "dir.dot").mkdir()
    (tmp_path / "dir").mkdir()
    argv = [a.format(missing=tmp_path / "no" / "such", folder=tmp_path / "dir") for a in argv]
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("provost: error: cannot write ") and "internal error" not in err
    assert "No such file or directory" in err or "Is a directory" in err



@pytest.mark.parametrize("argv", [
    ["graph", "caylus", "-o", ""],                       # wrote the graph on stdout
    ["rulebook", "caylus", "-o", ""],
    ["play", "caylus", "--log", ""],                     # wrote the log to the default place
    ["sim", "caylus", "--games", "1", "--report", ""],   # wrote no report
    ["view", "game.jsonl", "-o", ""],
    ["serve", "--saves", ""],
])
def test_an_empty_output_name_is_a_usage_error_not_none_given(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and "expected a file name, got ''" in err

def test_an_unwritable_plot_is_refused_before_the_games(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    code, out, err = run(capsys, "sim", "caylus", "--games", "1000", "--plot", str(tmp_path / "no" / "x.png"),
                         "--format", "json")
    assert code == 2 and "provost: error: cannot write %s" % (tmp_path / "no" / "x.png") in err
    assert json.loads(out)["error"]["kind"] == "usage"


def test_a_full_stdout_is_a_clean_error():
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    with open("/dev/full", "w") as full:
        p = subprocess.run([sys.executable, "-m", "provost.tools.cli", "export", "caylus"], cwd=ROOT, stdout=full,
                           stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert p.returncode == 2
    assert "provost: error: cannot write the standard output: No space left on device" in p.stderr
    assert "Traceback" not in p.stderr and "internal error" not in p.stderr




@pytest.mark.parametrize("closed", [False, True])
def test_a_usage_error_whose_json_cannot_be_written_is_still_exit_2(closed):
    """The JSON object of a command line argparse refused, on a full or closed stdout: exit 2 and
    one line saying why, where it was a traceback and exit 1."""
    if not closed and not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    argv = [sys.executable, "-m", "provost.tools.cli", "play", "caylus", "--format", "json", "--players", "0"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if closed:
        p = subprocess.run(argv, cwd=ROOT, preexec_fn=_closed(1), stderr=subprocess.PIPE, text=True, env=env)
    else:
        with open("/dev/full", "w") as full:
            p = subprocess.run(argv, cwd=ROOT, stdout=full, stderr=subprocess.PIPE, text=True, env=env)
    assert p.returncode == 2 and "provost: error: cannot write the standard output" in p.stderr
    assert "Traceback" not in p.stderr

def _closed(fd):
    return lambda: os.close(fd)


@pytest.mark.parametrize("argv", [["play", "caylus", "--seed", "1", "--no-log"],
                                  ["play", "caylus", "--seed", "1", "--no-log", "--format", "json"]])
def test_a_closed_stdout_is_a_clean_error(argv):
    """`provost ... >&-`: stdout is None in Python; it was an internal AttributeError, with a
    traceback in JSON mode."""
    p = subprocess.run([sys.executable, "-m", "provost.tools.cli", *argv], cwd=ROOT, preexec_fn=_closed(1),
                       stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert p.returncode == 2 and "provost: error: cannot write the standard output: the stream is closed" in p.stderr
    assert "Traceback" not in p.stderr and "internal error" not in p.stderr


def test_a_closed_stderr_keeps_messages_off_stdout():
    p = subprocess.run([sys.executable, "-m", "provost.tools.cli", "play", "nope", "--format", "json"], cwd=ROOT,
                       preexec_fn=_closed(2), stdout=subprocess.PIPE, text=True,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert p.returncode == 2 and json.loads(p.stdout)["error"]["kind"] == "usage"


@pytest.mark.parametrize("argv, code, said", [
    (["play", "caylus", "--agents", "human", "--no-log"], 2, "the input ended after 0 decisions"),
    pytest.param(["lsp"], 0, "", marks=pytest.mark.skipif(importlib.util.find_spec("pygls") is None,
                                                           reason="the lsp extra (pygls) is not installed")),
])
def test_a_closed_stdin_is_an_empty_one(argv, code, said):
    p = subprocess.run([sys.executable, "-m", "provost.tools.cli", *argv], cwd=ROOT, preexec_fn=_closed(0),
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=60,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert p.returncode == code and said in p.stderr and "internal error" not in p.stderr, p.stderr

# ------------------------------------------------------------------ one JSON object, also on failure
def _one_failure(out: str, code: int, kind: str) -> dict:
    d = json.loads(out)       # exactly one object: json.loads refuses trailing data
    assert d["ok"] is False and d["error"]["kind"] == kind and d["error"]["exit"] == code == EXIT_CODES[kind]
    assert isinstance(d["error"]["message"], str) and d["error"]["message"]
    assert isinstance(d["diagnostics"], list)
    return d


@pytest.mark.parametrize("argv, code, kind", [
    (["play", "caylus", "--players", "9"], 2, "usage"),
    (["play", "caylus", "--agents", "grandmaster"], 2, "usage"),
    (["play", "caylus", "--variant", "nope"], 2, "usage"),
    (["play", "nope"], 2, "usage"),
    (["play", "caylus", "--players", "0"], 2, "usage"),          # refused by argparse itself
    (["play", "caylus", "--form=json", "--seed", "x"], 2, "usage"),
    (["play", "{missing}"], 1, "input"),
    (["play", "{bad}"], 1, "input"),
    (["sim", "caylus", "--games", "1", "--players", "9"], 2, "usage"),
    (["sim", "caylus", "--games", "1", "--agents", "human"], 2, "usage"),
    (["sim", "caylus", "--games", "0"], 2, "usage"),
    (["sim", "{bad}", "--games", "1"], 1, "input"),
    (["sim", "ys", "--variant", "two_players", "--players", "2", "--agents", "greedy,random,random",
      "--games", "1"], 2, "usage"),
    (["explain", "{missing}", "--at", "1", "pass"], 1, "input"),
])
def test_play_and_sim_print_one_json_object_when_they_fail(capsys, tmp_path, argv, code, kind):
    bad = tmp_path / "bad.rules"
    bad.write_text("this is not a rule file\n")
    argv = [a.format(missing=tmp_path / "nope.rules", bad=bad) for a in argv]
    if not any(a.startswith("--form") for a in argv):
        argv += ["--format", "json"]
    got, out, err = run(capsys, *argv)
    d = _one_failure(out, got, kind)
    assert got == code and err  # the message is on stderr as in text mode
    text_argv = [a for a in argv if a not in ("--format", "json", "--form=json")]
    assert run(capsys, *text_argv)[0] == code  # the same exit code in text mode
    if kind == "input":
        assert d["diagnostics"] and all({"path", "line", "col", "code"} <= set(x) for x in d["diagnostics"])


def test_a_successful_json_report_says_ok(capsys):
    code, out, _ = run(capsys, "play", "caylus", "--players", "3", "--format", "json")
    assert code == 0 and json.loads(out)["ok"] is True
    code, out, _ = run(capsys, "check", str(ROOT / "rulesets" / "ys.rules"), "--format", "json")
    assert code == 0 and json.loads(out)["ok"] is True


def test_a_failed_check_says_so_in_the_same_shape(capsys, tmp_path):
    bad = tmp_path / "bad.rules"
    bad.write_text("this is not a rule file\n")
    code, out, _ = run(capsys, "check", str(bad), "--format", "json")
    d = _one_failure(out, code, "input")
    assert d["errors"] == len(d["diagnostics"]) >= 1


# ------------------------------------------------------------------ small things
def test_checking_a_folder_with_no_rule_files_is_an_error(capsys, tmp_path):
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "notes.txt").write_text("nothing to check\n")
    code, out, err = run(capsys, "check", str(tmp_path / "empty"))
    assert code == 1
    assert out == "%s:1:1: error: no rule or IR files (.rules, .yaml, .yml, .json) in this folder [P006]\n" % (
        tmp_path / "empty")
    assert "checked 0 files: 1 error" in err


@pytest.mark.parametrize("command", [["play"], ["sim", "--games", "1"]])
def test_the_player_range_names_the_variant(capsys, command):
    code, _, err = run(capsys, command[0], "caylus", "--variant", "two_players", "--players", "3", *command[1:])
    assert code == 2 and "caylus (two_players) is for 2 players, not 3" in err


@pytest.mark.parametrize("command", [["play"], ["sim", "--games", "1"]])
def test_more_agents_than_deciding_players_is_refused_alike(capsys, command):
    code, _, err = run(capsys, command[0], "ys", "--variant", "two_players", "--players", "2",
                       "--agents", "greedy,random,random", *command[1:])
    assert code == 2 and "3 agents given for 2 players" in err


def _duo(tmp_path) -> str:
    """A variant of Ys for 2 players only, as a player writes one (beside no shipped file)."""
    path = tmp_path / "ys.duo.rules"
    path.write_text("variant duo extends two_players:\n    for_players 2\n")
    return str(path)


def test_compare_with_a_variant_for_other_counts_names_the_players_it_takes(capsys, tmp_path):
    # Without --players the comparison plays Ys's 4: the hint is the variant's own count, not the
    # game's rules for 3 players (with which the variant does not load either).
    duo = _duo(tmp_path)
    code, out, err = run(capsys, "sim", "ys", "--compare", duo, "--games", "1", "--seed", "1")
    assert code == 2 and out == ""
    assert err == "provost: error: --compare %s: ys (duo) is for 2 players, and ys is played with 4 players " \
                  "when --players is not given: compare them with --players 2\n" % duo
    code, out, err = run(capsys, "sim", "ys", "--compare", duo, "--games", "1", "--seed", "1", "--players", "2")
    assert code == 0, err


@pytest.mark.parametrize("command", [["play", "--players", "3"], ["sim", "--games", "1", "--players", "4"],
                                     ["sweep", "--set", "placement_rounds=4", "--games", "1", "--players", "3"]])
def test_a_variant_for_other_counts_names_the_players_it_takes(capsys, tmp_path, command):
    code, _, err = run(capsys, command[0], _duo(tmp_path), *command[1:])
    n = command[-1]
    assert code == 2 and "ys (duo) is for 2 players, not %s: load it with players=2 (--players 2)" % n in err
    assert "their own rules" not in err


def test_a_composed_variant_range_gives_each_count(capsys):
    code, _, err = run(capsys, "play", "ys", "--variant", "kings_favor", "--players", "5")
    assert code == 2 and "ys (kings_favor) is for 3 to 4 players, not 5: load it with players=3 or 4 " \
                         "(--players 3 or --players 4)" in err


def test_a_count_the_base_rules_lack_names_the_counts_the_variants_give(capsys):
    """Ys is for 4 players, and for 2 and 3 with the rules of their own: the message says both."""
    code, _, err = run(capsys, "play", "ys", "--players", "1")
    assert code == 2 and "ys is for 4 players, not 1 (and for 2, 3 players with their own rules" in err
