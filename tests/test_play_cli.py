"""`provost play` and `provost replay` end to end (DESIGN.md section 6), with the real engine.

play: text and JSON output, agent lists (a short list repeats its last name), usage errors
(exit 2), rules errors (exit 1, positioned); --log writes a JSON Lines log that `replay`
reproduces (exit 0); an altered, truncated, garbage, empty or binary log, or changed rules,
make `replay` exit 1 naming the first diverging line; a human at the terminal can play and
can leave with Ctrl-D (exit 130) without a traceback.
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cli_run import run_cli as run
from provost.interpreter.gamelog import check_log, replay
from provost.tools.cli import main
from provost.tools.cli.commands_play import resolve_agents

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def game_log(tmp_path_factory):
    """A finished 4-player game by random agents, its log's lines and the JSON summary (played once)."""
    path = tmp_path_factory.mktemp("log") / "game.jsonl"
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        code = main(["play", "caylus", "--seed", "5", "--log", str(path), "--format", "json"])
    assert code == 0
    return path, path.read_text().splitlines(), json.loads(buf.getvalue())


# ------------------------------------------------------------------ play
def test_play_text_summary(capsys):
    code, out, err = run(capsys, "play", "caylus", "--players", "3", "--seed", "1")
    assert code == 0, err
    assert "caylus, 3 players, seed 1" in out
    assert out.count("  random ") == 3
    assert "winner" in out and "rounds" in out and "decisions" in out


def test_play_json_has_the_contract_fields(capsys):
    code, out, _ = run(capsys, "play", "caylus", "--players", "5", "--seed", "2", "--format", "json")
    assert code == 0
    d = json.loads(out)  # exactly one JSON object
    for key in ("ruleset", "variant", "players", "seed", "scores", "winners", "rounds", "decisions"):
        assert key in d
    assert (d["ruleset"], d["variant"], d["players"], d["seed"]) == ("caylus", None, 5, 2)
    assert len(d["scores"]) == 5 and all(isinstance(x, int) and x >= 0 for x in d["scores"])
    assert d["winners"] and all(d["scores"][w] == max(d["scores"]) for w in d["winners"])
    assert d["rounds"] > 0 and d["decisions"] > 0
    assert d["agents"] == ["random"] * 5


def test_play_default_players_and_same_seed_same_result(capsys):
    a = json.loads(run(capsys, "play", "caylus", "--seed", "9", "--format", "json")[1])
    b = json.loads(run(capsys, "play", "caylus", "--seed", "9", "--format", "json")[1])
    assert a.pop("log") != b.pop("log")         # each game its own log
    assert a == b and a["players"] == 4


def test_short_agent_list_repeats_the_last_name():
    assert resolve_agents(None, 3) == ["random"] * 3
    assert resolve_agents(["greedy", "random"], 4) == ["greedy", "random", "random", "random"]
    assert resolve_agents(["random", "greedy"], 3) == ["random", "greedy", "greedy"]
    assert resolve_agents(["human"], 2) == ["human", "human"]


def test_greedy_agent_plays_and_is_logged(capsys, tmp_path):
    log = tmp_path / "greedy.jsonl"
    code, out, _ = run(capsys, "play", "caylus", "--agents", "greedy,random", "--seed", "4", "--format", "json",
                       "--log", str(log))
    d = json.loads(out)
    assert code == 0 and d["agents"] == ["greedy", "random", "random", "random"]
    assert json.loads(log.read_text().splitlines()[0])["agents"] == d["agents"]
    assert run(capsys, "replay", str(log))[0] == 0


def test_variant(capsys, tmp_path):
    log = tmp_path / "v.jsonl"
    code, out, _ = run(capsys, "play", "caylus", "--variant", "simplified_favor", "--format", "json", "--log",
                       str(log))
    assert code == 0 and json.loads(out)["variant"] == "simplified_favor"
    assert run(capsys, "replay", str(log))[0] == 0


def test_a_neutral_player_scores_apart_and_never_wins(capsys, tmp_path):
    log = tmp_path / "ys2.jsonl"
    for seed in range(4):
        code, out, _ = run(capsys, "play", "ys", "--variant", "two_players", "--players", "2", "--seed", str(seed),
                           "--format", "json", "--log", str(log))
        d = json.loads(out)
        assert code == 0 and d["players"] == 2 and d["neutral"] == [2]
        assert len(d["scores"]) == 2 and len(d["neutral_scores"]) == 1
        assert d["winners"] and set(d["winners"]) <= {0, 1}
        assert all(d["scores"][w] == max(d["scores"]) for w in d["winners"])
        result = json.loads(log.read_text().splitlines()[-1])
        assert {k: result[k] for k in ("scores", "neutral_scores", "winners")} == \
            {k: d[k] for k in ("scores", "neutral_scores", "winners")}
        assert run(capsys, "replay", str(log))[0] == 0
        replayed = json.loads(run(capsys, "replay", str(log), "--format", "json")[1])
        assert (replayed["scores"], replayed["winners"]) == (d["scores"], d["winners"])


def test_a_log_result_without_neutral_scores_still_replays(game_log, tmp_path, capsys):
    path, lines, _ = game_log
    last = json.loads(lines[-1])
    del last["neutral_scores"]      # as logs were written before the key existed
    assert run(capsys, "replay", str(_write(tmp_path, lines[:-1] + [json.dumps(last)])))[0] == 0


@pytest.mark.parametrize("argv,needle", [
    (["--agents", "bogus"], "unknown agent 'bogus' (known agents: random, greedy, human"),
    (["--agents", "mcts:0"], "bad mcts budget '0': use iterations (mcts:200"),       # not "unknown agent"
    (["--agents", "random,mcts:-1s"], "bad mcts budget '-1s'"),
    (["--agents", "greedy,random,random,random,random"], "5 agents given for 4 players"),
    (["--players", "6"], "caylus is for 3 to 5 players, not 6 (and for 2 players with their own rules"),
    (["--players", "9"], "not 9"),
])
def test_play_usage_errors_exit_2(capsys, argv, needle):
    code, out, err = run(capsys, "play", "caylus", *argv)
    assert code == 2 and needle in err and out == ""


def test_play_unwritable_log_exits_2(capsys, tmp_path):
    path = str(tmp_path / "no" / "such" / "dir.jsonl")
    code, _, err = run(capsys, "play", "caylus", "--log", path)
    assert code == 2 and "provost: error: cannot write %s: " % path in err      # (README's wording)
    code, _, err = run(capsys, "play", "caylus", "--log", str(tmp_path))
    assert code == 2 and "provost: error: cannot write %s: " % tmp_path in err


def test_an_output_that_is_the_commands_own_input_is_refused_and_left_alone(capsys, tmp_path, monkeypatch):
    # Once: play mine.rules --log mine.rules wrote the log over the rule file (exit 0), and
    # view g.jsonl -o g.jsonl the page over the log.
    monkeypatch.chdir(tmp_path)
    variant = 'variant mine "Mine" extends caylus:\n    description "x"\n'
    (tmp_path / "caylus.mine.rules").write_text(variant)
    assert run(capsys, "play", "caylus", "--seed", "1", "--log", "g.jsonl")[0] == 0
    log = (tmp_path / "g.jsonl").read_text()
    for argv, name in (
            (["play", "caylus", "--variant", "caylus.mine.rules", "--log", "./caylus.mine.rules"], "caylus.mine.rules"),
            (["play", "./caylus.mine.rules", "--log", "caylus.mine.rules"], "./caylus.mine.rules"),
            (["rulebook", "caylus.mine.rules", "-o", "caylus.mine.rules"], "caylus.mine.rules"),
            (["view", "g.jsonl", "-o", "g.jsonl"], "g.jsonl")):
        code, out, err = run(capsys, *argv)
        assert code == 2, err
        assert "provost: error: cannot write %s: it is %s, which this command reads" % (argv[-1], name) in err
    assert (tmp_path / "caylus.mine.rules").read_text() == variant and (tmp_path / "g.jsonl").read_text() == log

def test_play_unknown_ruleset_name_is_a_usage_error(capsys):
    code, _, err = run(capsys, "play", "caylsu")
    assert code == 2
    assert "provost: error: unknown ruleset 'caylsu'; did you mean 'caylus'?" in err


def test_play_broken_rule_file_exits_1(capsys, tmp_path):
    bad = tmp_path / "bad.rules"
    bad.write_text((ROOT / "rulesets" / "caylus.rules").read_text().replace("score pp", "score ppp"))
    code, _, err = run(capsys, "play", str(bad))
    assert code == 1 and "bad.rules:" in err and "error" in err


# ------------------------------------------------------------------ logs
def test_log_layout(game_log):
    path, lines, result = game_log
    recs = [json.loads(x) for x in lines]
    head, decisions, last = recs[0], recs[1:-1], recs[-1]
    assert head["type"] == "header"
    for key in ("log_format", "ruleset", "variant", "players", "seed", "ruleset_hash", "engine", "agents", "source"):
        assert key in head
    assert head["agents"] == ["random"] * 4 and head["seed"] == 5
    assert [d["n"] for d in decisions] == list(range(1, len(decisions) + 1))
    assert all(d["type"] == "decision" and {"player", "option", "round", "phase"} <= set(d) for d in decisions)
    assert last == {"type": "result", "scores": result["scores"], "neutral_scores": [], "winners": result["winners"],
                    "rounds": result["rounds"], "decisions": result["decisions"]}
    assert len(decisions) == result["decisions"]


def test_replay_ok(game_log, capsys):
    path, lines, result = game_log
    code, out, _ = run(capsys, "replay", str(path))
    assert code == 0 and "ok" in out and "%d decisions" % result["decisions"] in out
    code, out, _ = run(capsys, "replay", str(path), "--format", "json")
    d = json.loads(out)
    assert code == 0 and d["ok"] is True and d["scores"] == result["scores"]
    ok, message, game = replay(str(path))
    assert ok and game.scores() == result["scores"] and game.finished


def _write(tmp_path, lines, name="t.jsonl"):
    p = tmp_path / name
    p.write_text("\n".join(lines) + "\n")
    return p


def _alter(lines, k, **changes):
    out = list(lines)
    rec = json.loads(out[k - 1])
    rec.update(changes)
    out[k - 1] = json.dumps(rec)
    return out


def _expect_divergence(capsys, path, line, needle=""):
    code, out, err = run(capsys, "replay", str(path))
    assert code == 1, out + err
    assert "%s:%d:1: error:" % (path, line) in out, out
    assert needle in out, out
    d = json.loads(run(capsys, "replay", str(path), "--format", "json")[1])
    assert d["ok"] is False and d["line"] == line
    ok, message, _ = replay(str(path))
    assert not ok and message.startswith("line %d:" % line)


def test_tampered_option_names_its_line(game_log, tmp_path, capsys):
    path, lines, _ = game_log
    k = 12
    rec = json.loads(lines[k - 1])
    _expect_divergence(capsys, _write(tmp_path, _alter(lines, k, option="place:the_moon")), k,
                       "'place:the_moon' is not a legal option for player %d" % rec["player"])


def test_legal_but_different_option_diverges_later_or_at_the_result(game_log, tmp_path, capsys):
    """Swapping one decision for another legal one is caught where the game stops matching."""
    path, lines, _ = game_log
    recs = [json.loads(x) for x in lines]
    k = next(i for i, r in enumerate(recs, 1) if r["type"] == "decision" and r["option"].startswith("place:")
             and i > 5)
    changed = _alter(lines, k, option="pass")
    r = check_log(str(_write(tmp_path, changed)))
    assert not r.ok and r.line > k


def test_a_divergence_in_a_log_of_another_engine_says_which_engine_wrote_it(game_log, tmp_path, capsys):
    # Engines of different versions play some choices differently: the reader is told why a log
    # of another engine may no longer replay (and that one that does was written by another).
    from provost.interpreter.engine import ENGINE_VERSION
    path, lines, _ = game_log
    older = _alter(lines, 1, engine="2")
    r = check_log(str(_write(tmp_path, _alter(older, 12, option="place:the_moon"))))
    assert not r.ok and r.code == "R001" and r.line == 12
    assert r.detail.endswith("(written by engine 2, replayed by engine %s)" % ENGINE_VERSION)
    r = check_log(str(_write(tmp_path, older, "ok.jsonl")))
    assert r.ok and r.message.endswith("(written by engine 2, replayed by engine %s)" % ENGINE_VERSION)


def test_tampered_player_names_its_line(game_log, tmp_path, capsys):
    path, lines, _ = game_log
    rec = json.loads(lines[7])
    _expect_divergence(capsys, _write(tmp_path, _alter(lines, 8, player=(rec["player"] + 1) % 4)), 8,
                       "player %d is to decide" % rec["player"])


def test_tampered_result_names_the_last_line(game_log, tmp_path, capsys):
    path, lines, result = game_log
    scores = list(result["scores"])
    scores[1] += 1
    _expect_divergence(capsys, _write(tmp_path, _alter(lines, len(lines), scores=scores)), len(lines),
                       "the result differs: scores")


def test_a_log_of_another_layout_is_refused_not_replayed_as_this_one(game_log, tmp_path, capsys):
    path, lines, _ = game_log
    _expect_divergence(capsys, _write(tmp_path, _alter(lines, 1, log_format=2)), 1,
                       "the header: log_format 2 is not a log layout this provost reads (it reads 1) [R002]")
    _expect_divergence(capsys, _write(tmp_path, _alter(lines, 1, log_format="1")), 1,
                       "'log_format' should be an integer")

def test_tampered_seed_or_hash(game_log, tmp_path, capsys):
    path, lines, _ = game_log
    _expect_divergence(capsys, _write(tmp_path, _alter(lines, 1, ruleset_hash="0123456789abcdef")), 1,
                       "the rules changed since the game was played")
    r = check_log(str(_write(tmp_path, _alter(lines, 1, seed=6), "s.jsonl")))
    assert not r.ok and r.line > 1


def test_missing_decision_names_its_line(game_log, tmp_path, capsys):
    path, lines, _ = game_log
    _expect_divergence(capsys, _write(tmp_path, lines[:20] + lines[21:]), 21, "decision number 21, expected 20")


def test_truncated_log(game_log, tmp_path, capsys):
    path, lines, _ = game_log
    # cut at a line boundary: no result line
    _expect_divergence(capsys, _write(tmp_path, lines[:40]), 41, "ends without a result line after 39 decisions")
    # cut in the middle of a line
    text = path.read_text()
    cut = tmp_path / "cut.jsonl"
    cut.write_text(text[: len(text) // 2])
    k = text[: len(text) // 2].count("\n") + 1
    _expect_divergence(capsys, cut, k, "not valid JSON (the log looks truncated)")


def test_lines_after_the_result(game_log, tmp_path, capsys):
    path, lines, _ = game_log
    _expect_divergence(capsys, _write(tmp_path, lines + [lines[-2]]), len(lines) + 1, "after the result")


@pytest.mark.parametrize("content,line,needle", [
    (b"garbage\n", 1, "not valid JSON"),
    (b"", 1, "the log is empty"),
    (b"\x00\xff\xfe binary \x81\n", 1, "not valid UTF-8"),
    (b"[1, 2, 3]\n", 1, "not a JSON object"),
    (b'{"type": "decision", "n": 1}\n', 1, "the first line should be the header"),
    (b'{"type": "header", "ruleset": "caylus"}\n', 1, "the header has no 'variant' field"),
    (b'{"type": "header", "ruleset": "caylus", "variant": null, "players": true, "seed": 1, "ruleset_hash": "x"}\n',
     1, "'players' should be an integer"),
    (b'{"type": "header", "ruleset": "nope", "variant": null, "players": 4, "seed": 1, "ruleset_hash": "x"}\n',
     1, "unknown ruleset 'nope'"),
])
def test_garbage_logs(tmp_path, capsys, content, line, needle):
    p = tmp_path / "g.jsonl"
    p.write_bytes(content)
    _expect_divergence(capsys, p, line, needle)


def test_garbage_inside_a_good_log(game_log, tmp_path, capsys):
    path, lines, _ = game_log
    bad = list(lines)
    bad[9] = '{"type": "decision", "n": 9, "player": "zero", "option": "pass"}'
    _expect_divergence(capsys, _write(tmp_path, bad), 10, "'player' should be an integer")
    bad[9] = '{"type": "shrug"}'
    _expect_divergence(capsys, _write(tmp_path, bad, "b.jsonl"), 10, "unknown line type")


@pytest.mark.parametrize("name, reason", [("none.jsonl", "file not found"), ("", "is a directory, not a file")])
def test_replay_missing_file_or_folder_is_p005_as_in_check(capsys, tmp_path, name, reason):
    path = str(tmp_path / name) if name else str(tmp_path)
    code, out, _ = run(capsys, "replay", path)
    assert code == 1 and out == "%s:1:1: error: %s [P005]\n" % (path, reason)
    code, out, _ = run(capsys, "replay", path, "--format", "json")
    d = json.loads(out)   # one object, with the diagnostic
    assert code == 1 and d["ok"] is False and d["code"] == "P005" and d["error"]["kind"] == "input"
    assert [(x["path"], x["line"], x["col"], x["code"], x["message"]) for x in d["diagnostics"]] == [
        (path, 1, 1, "P005", reason)]


def test_changed_rule_file_is_caught(tmp_path, capsys):
    rules = tmp_path / "mycaylus.rules"
    text = (ROOT / "rulesets" / "caylus.rules").read_text()
    rules.write_text(text)
    log = tmp_path / "p.jsonl"
    assert run(capsys, "play", str(rules), "--seed", "3", "--log", str(log))[0] == 0
    assert json.loads(log.read_text().splitlines()[0])["source"]["ruleset"] == str(rules.resolve())
    assert run(capsys, "replay", str(log))[0] == 0
    rules.write_text(text.replace("work: gain 3 denier", "work: gain 4 denier"))
    _expect_divergence(capsys, log, 1, "the rules changed since the game was played")


# ------------------------------------------------------------------ a human at the terminal
def test_human_plays_a_whole_game_by_numbers_and_ids(capsys, monkeypatch, tmp_path):
    answers = ["nonsense", "0", "999", "?"] + ["1", "pass"] * 400
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(answers) + "\n"))
    log = tmp_path / "h.jsonl"
    code, out, _ = run(capsys, "play", "caylus", "--players", "3", "--agents", "human,random", "--log", str(log))
    assert code == 0
    assert "'nonsense' is not one of the options" in out
    assert "Place a worker or pass" in out and "   1. pass" in out
    assert "player 0 (pp 0, denier" in out
    assert "winner" in out
    assert run(capsys, "replay", str(log))[0] == 0


def test_a_human_is_told_why_an_option_is_not_legal(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("place:nowhere\nprovost:2\nquit\n"))
    code, out, _ = run(capsys, "play", "caylus", "--seed", "1", "--agents", "human", "--no-log")
    assert code == 130
    assert "why: t = nowhere is not a possible choice here; the choices are gate, " in out
    assert "why: 'provost:2' is not an option of 'Place a worker or pass' (phase placement); it belongs " \
           "to the decision 'Move the provost for free' (" in out


def test_a_humans_answer_is_echoed_with_its_control_characters_escaped(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("\x1b[2Jpass\x07\nquit\n"))
    code, out, err = run(capsys, "play", "caylus", "--agents", "human", "--no-log")
    assert code == 130
    assert "'\\x1b[2Jpass\\x07' is not one of the options" in out
    assert "\x1b" not in out + err and "\x07" not in out + err


def test_a_human_sees_a_rule_strings_line_break_as_a_space(capsys, monkeypatch, tmp_path):
    rules = tmp_path / "caylus.odd.rules"
    rules.write_text('variant odd "Odd" extends caylus:\n'
                     '    replace space trading_post "Trading\\npost" special:\n'
                     '        slots 1\n'
                     '        work: gain 3 denier\n')
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    code, out, err = run(capsys, "play", "caylus", "--variant", str(rules), "--agents", "human", "--no-log")
    assert code == 130
    assert "place:trading_post  (Place: Trading post)" in out

def test_end_of_input_for_a_human_is_a_usage_error(capsys, monkeypatch, tmp_path):
    monkeypatch.setattr(sys, "stdin", io.StringIO("2\nplace:nowhere\n"))
    log = tmp_path / "q.jsonl"
    code, out, err = run(capsys, "play", "caylus", "--agents", "human,random", "--log", str(log))
    assert code == 2
    assert re.search(r"provost: error: the input ended after \d+ decisions?, before the game did", err)
    assert "(the log has no result line)" in err
    r = check_log(str(log))
    assert not r.ok and "without a result line" in r.message


def test_end_of_input_with_json_is_one_failure_object(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    code, out, err = run(capsys, "play", "caylus", "--agents", "human", "--format", "json")
    d = json.loads(out)   # the human's prompts went to stderr: stdout is the one object
    assert "Place a worker or pass" in err
    assert code == 2 and d["ok"] is False and d["error"] == {
        "kind": "usage", "exit": 2, "message": d["error"]["message"]} and "input ended" in d["error"]["message"]


@pytest.mark.parametrize("answer", ["quit\n", KeyboardInterrupt])
def test_human_quit_word_or_ctrl_c_exits_130(capsys, monkeypatch, answer):
    class CtrlC(io.StringIO):
        def readline(self, *a):
            raise KeyboardInterrupt

    monkeypatch.setattr(sys, "stdin", CtrlC() if answer is KeyboardInterrupt else io.StringIO(answer))
    code, _, err = run(capsys, "play", "caylus", "--agents", "human")
    assert code == 130 and "provost: game abandoned after 0 decisions" in err


def test_real_command_line_never_shows_a_traceback(tmp_path):
    """The installed entry point, in a subprocess: EOF on a human and a garbage log."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    p = subprocess.run([sys.executable, "-m", "provost.tools.cli", "play", "caylus", "--agents", "human"], cwd=ROOT,
                       input="", capture_output=True, text=True, env=env)
    assert p.returncode == 2 and "Traceback" not in p.stderr and "input ended" in p.stderr
    junk = tmp_path / "junk.jsonl"
    junk.write_bytes(b'{"type": "header", "ruleset": [1], "variant": 3}\n\x00\n')
    p = subprocess.run([sys.executable, "-m", "provost.tools.cli", "replay", str(junk)], cwd=ROOT, capture_output=True,
                       text=True, env=env)
    assert p.returncode == 1 and "Traceback" not in p.stderr + p.stdout and ":1:1: error:" in p.stdout


def test_every_game_writes_a_log_unless_told_not_to(capsys, tmp_path, monkeypatch):
    """DESIGN: every game writes a JSON Lines log. Without --log, a new file in the user's data
    folder, named in the JSON and the closing line, that replays; --no-log writes none."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    code, out, _ = run(capsys, "play", "caylus", "--seed", "3", "--format", "json")
    log = json.loads(out)["log"]
    assert code == 0 and log.startswith(str(tmp_path / "data")) and log.endswith(".jsonl")
    code, out, err = run(capsys, "replay", log)
    assert code == 0 and "identical result" in out + err
    code, out, _ = run(capsys, "play", "caylus", "--seed", "3")
    assert code == 0 and "log: %s" % (tmp_path / "data") in out
    code, out, _ = run(capsys, "play", "caylus", "--seed", "3", "--format", "json", "--no-log")
    assert code == 0 and json.loads(out)["log"] is None
    assert len(os.listdir(tmp_path / "data" / "provost" / "logs")) == 2


def test_log_and_no_log_together_are_a_usage_error(capsys, tmp_path):
    """`[--log FILE | --no-log]`: one or the other, never both (no game is played)."""
    log = tmp_path / "game.jsonl"
    code, out, err = run(capsys, "play", "caylus", "--seed", "3", "--log", str(log), "--no-log", "--format", "json")
    assert code == 2 and "not allowed with argument --log" in err and not log.exists()
    assert json.loads(out)["error"]["kind"] == "usage"
