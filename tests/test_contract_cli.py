"""The command line's written contract (README.md "Commands", DESIGN.md section 6): the game log's
records, `--format json` reports and failure objects, exit codes, and how RULESET is read."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cli_run import run_cli

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def logged(tmp_path_factory):
    """A logged game of Ys for 2 (a neutral seat) and its `--format json` report."""
    import io
    from contextlib import redirect_stdout

    from provost.tools.cli import main

    path = tmp_path_factory.mktemp("log") / "game.jsonl"
    out = io.StringIO()
    with redirect_stdout(out):
        code = main(["play", "ys", "--players", "2", "--seed", "3", "--agents", "greedy,random",
                     "--log", str(path), "--format", "json"])
    assert code == 0
    return path, json.loads(out.getvalue())


def test_play_json_has_the_documented_keys(logged):
    path, report = logged
    assert {"ok", "ruleset", "variant", "players", "seed", "agents", "scores", "neutral_scores", "neutral",
            "winners", "rounds", "decisions", "ruleset_hash", "log"} <= set(report)
    assert report["ok"] is True and report["ruleset"] == "ys" and report["seed"] == 3
    assert report["players"] == 2 == len(report["scores"]) and report["agents"] == ["greedy", "random"]
    assert report["neutral"] == [2] and len(report["neutral_scores"]) == 1
    assert all(w in (0, 1) for w in report["winners"])
    assert report["log"] == str(path)


def test_the_log_is_a_header_one_line_per_decision_and_the_result(logged):
    path, report = logged
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    header, decisions, result = records[0], records[1:-1], records[-1]
    assert list(header)[:11] == ["type", "log_format", "ruleset", "variant", "players", "seed", "ruleset_hash",
                                 "engine", "agents", "source"][:11]
    assert header["type"] == "header" and header["ruleset"] == "ys" and header["players"] == 2
    assert header["seed"] == 3 and header["ruleset_hash"] == report["ruleset_hash"]
    assert header["agents"] == ["greedy", "random"] and isinstance(header["engine"], str)
    assert "ruleset_hash_without_positions" not in header          # shipped rules named by name
    assert [d["n"] for d in decisions] == list(range(1, len(decisions) + 1)) == list(range(1, report["decisions"] + 1))
    for d in decisions:
        assert list(d) == ["type", "n", "player", "option", "round", "phase"] and d["type"] == "decision"
    assert result == {"type": "result", "scores": report["scores"], "neutral_scores": report["neutral_scores"],
                      "winners": report["winners"], "rounds": report["rounds"], "decisions": report["decisions"]}


def test_replay_json_of_a_good_log(capsys, logged):
    path, report = logged
    code, out, err = run_cli(capsys, "replay", str(path), "--format", "json")
    got = json.loads(out)
    assert code == 0 and got["ok"] is True
    assert {k: got[k] for k in ("scores", "neutral_scores", "winners", "rounds", "decisions")} == \
        {k: report[k] for k in ("scores", "neutral_scores", "winners", "rounds", "decisions")}


def test_a_replay_that_diverges_names_its_first_line_and_exits_1(capsys, logged, tmp_path):
    path, _ = logged
    lines = path.read_text(encoding="utf-8").splitlines()
    third = json.loads(lines[3])
    third["option"] = "no:such"
    lines[3] = json.dumps(third)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = run_cli(capsys, "replay", str(bad))
    assert code == 1 and out.startswith("%s:4:1: error: " % bad) and out.rstrip().endswith("[R001]")
    code, out, err = run_cli(capsys, "replay", str(bad), "--format", "json")
    got = json.loads(out)
    assert code == 1 and got["ok"] is False and got["line"] == 4
    assert err == ""                   # a report that failed is said in its JSON object alone
    assert got["error"] == {"kind": "input", "exit": 1, "message": got["message"]}
    assert got["diagnostics"][0]["code"] == "R001" and got["diagnostics"][0]["line"] == 4


def _failure(capsys, *argv):
    code, out, err = run_cli(capsys, *argv)
    got = json.loads(out)              # exactly one JSON object on stdout
    assert got["ok"] is False and got["error"]["exit"] == code and isinstance(got["diagnostics"], list)
    # Messages for people go to stderr; a report that failed (replay's) is its JSON object alone.
    assert bool(err) == (argv[0] != "replay")
    return code, got


@pytest.mark.parametrize("argv, kind, code", [
    (["play", "nosuch"], "usage", 2),                         # an unknown ruleset name
    (["play", "caylus", "--variant", "nosuch"], "usage", 2),  # an unknown variant
    (["play", "caylus", "--players", "9"], "usage", 2),       # a count the rules are not for
    (["play", "caylus", "--agents", "nobody"], "usage", 2),   # an unknown agent
    (["play", "caylus", "--seed", "-1"], "usage", 2),         # argparse's own refusal
    (["sim", "caylus", "--games", "0"], "usage", 2),
    (["sweep", "caylus"], "usage", 2),                        # --set is required
    (["play", "./nosuch.rules"], "input", 1),                 # a path that does not exist: P005
    (["replay", "nosuch.jsonl"], "input", 1),                 # so is a log that does not exist
    (["explain", "nosuch.jsonl", "--at", "1", "pass"], "input", 1),
    (["soak", "caylus", "--players", "1"], "usage", 2),
])
def test_a_json_command_that_fails_prints_one_failure_object(capsys, monkeypatch, tmp_path, argv, kind, code):
    monkeypatch.chdir(tmp_path)
    got_code, got = _failure(capsys, *argv, "--format", "json")
    assert got_code == code and got["error"]["kind"] == kind
    if kind == "input":
        assert got["diagnostics"][0]["code"] == "P005"


def test_a_missing_log_is_p005_for_view_too(capsys, tmp_path):
    code, out, err = run_cli(capsys, "view", str(tmp_path / "nosuch.jsonl"), "-o", str(tmp_path / "x.html"))
    assert code == 1 and "[P005]" in err and not (tmp_path / "x.html").exists()


def test_an_output_that_cannot_be_written_is_a_usage_error(capsys, tmp_path):
    target = tmp_path / "no" / "such" / "game.jsonl"
    code, out, err = run_cli(capsys, "play", "caylus", "--seed", "1", "--log", str(target))
    assert code == 2 and err.startswith("provost: error: cannot write %s: " % target)


def test_a_bare_shipped_name_is_the_shipped_ruleset_even_beside_a_file_of_that_name(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    shutil.copy(ROOT / "rulesets" / "examples" / "caylus.generous_king.rules", tmp_path / "caylus")
    code, out, err = run_cli(capsys, "play", "caylus", "--seed", "1", "--no-log")
    assert code == 0 and out.startswith("caylus, 4 players, seed 1: ")
    code, out, err = run_cli(capsys, "play", "./caylus", "--seed", "1", "--no-log")
    assert "caylus, 4 players" not in out                  # ./caylus is the file, not the shipped game


def test_variants_compose_given_twice_or_joined_with_a_plus(capsys):
    twice = run_cli(capsys, "play", "ys", "--players", "3", "--variant", "kings_favor", "--variant", "express",
                    "--seed", "1", "--no-log", "--format", "json")
    joined = run_cli(capsys, "play", "ys", "--players", "3", "--variant", "kings_favor+express",
                     "--seed", "1", "--no-log", "--format", "json")
    assert twice[0] == joined[0] == 0
    assert json.loads(twice[1]) == json.loads(joined[1])
    assert json.loads(twice[1])["variant"] == "three_players+kings_favor+express"


def test_sim_game_i_plays_seed_s_plus_i(capsys):
    code, out, err = run_cli(capsys, "sim", "caylus", "--games", "3", "--seed", "5", "--format", "json")
    report = json.loads(out)
    assert code == 0 and report["ok"] is True and report["seed"] == 5 and report["games"] == 3
    played = []
    for seed in (5, 6, 7):
        code, out, err = run_cli(capsys, "play", "caylus", "--seed", str(seed), "--no-log", "--format", "json")
        played.append(json.loads(out)["scores"][0])
    shown = sorted(v for v, n in report["score"]["by_seat"][0]["distribution"] for _ in range(n))
    assert shown == sorted(played)


def test_check_explain_json_keys_and_a_path_beside_it_is_a_usage_error(capsys):
    code, out, err = run_cli(capsys, "check", "--explain", "R001", "--format", "json")
    got = json.loads(out)
    assert code == 0 and {"code", "severity", "summary", "explanation"} <= set(got) and got["code"] == "R001"
    code, out, err = run_cli(capsys, "check", "--explain", "R001", "rulesets")
    assert code == 2 and out == ""


def test_a_control_character_in_an_argument_is_printed_escaped(capsys):
    code, out, err = run_cli(capsys, "play", "nos\x1buch")
    assert code == 2 and "\x1b" not in err and "nos\\x1buch" in err


def test_diff_of_two_games_says_their_player_counts_in_plain_words(capsys):
    code, out, err = run_cli(capsys, "diff", "caylus", "ys")
    assert code == 0
    assert "Ys, for 4 players; rounds: " in out and "Caylus, for 3 to 5 players; rounds: " in out


def test_view_writes_one_self_contained_html_page(capsys, logged, tmp_path):
    import re

    path, _ = logged
    page = tmp_path / "game.html"
    code, out, err = run_cli(capsys, "view", str(path), "-o", str(page))
    html = page.read_text(encoding="utf-8")
    assert code == 0 and html.lstrip().lower().startswith("<!doctype html")
    assert not re.findall(r'(?:src|href)\s*=\s*"(?!#|data:)[^"]+"', html)      # nothing fetched from elsewhere


def test_a_variant_file_is_logged_by_its_absolute_path_and_replays_from_any_folder(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(ROOT)
    log = tmp_path / "brewery.jsonl"
    code, out, err = run_cli(capsys, "play", "caylus", "--variant", "rulesets/examples/caylus.brewery.rules",
                             "--players", "3", "--seed", "2", "--log", str(log))
    header = json.loads(log.read_text(encoding="utf-8").splitlines()[0])
    assert code == 0 and header["ruleset"] == "caylus" and header["variant"] == "brewery"
    assert header["source"] == {"ruleset": "caylus",
                                "variant": str(ROOT / "rulesets" / "examples" / "caylus.brewery.rules")}
    assert "ruleset_hash_without_positions" in header          # the user's file may be laid out again
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(capsys, "replay", str(log))
    assert code == 0 and "identical result" in out


def test_a_report_that_fails_is_its_json_object_alone(capsys, tmp_path):
    broken = tmp_path / "broken.rules"
    broken.write_text("game g:\n    players 2..4\n    gian 1 pp\n", encoding="utf-8")
    code, out, err = run_cli(capsys, "check", str(broken), "--format", "json")
    report = json.loads(out)
    assert code == 1 and report["ok"] is False and report["diagnostics"] and err == ""
    code, out, err = run_cli(capsys, "soak", str(ROOT / "tests" / "invariants" / "caylus.broken_invariant.rules"),
                             "--players", "3", "--seeds", "1", "--format", "json")
    report = json.loads(out)
    assert code == 1 and report["ok"] is False and report["failures"] and err == ""
