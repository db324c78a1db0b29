"""README.md's examples, run as a reader copies them: the Engine API block and the command lines.

The code and the commands are read out of README.md itself, so an example that stops working, or
one edited into something that does not work, fails here.
"""
from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from cli_run import run_cli

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _fenced_after(heading: str, language: str) -> str:
    """The first ```LANGUAGE block after the line ``heading``."""
    start = ("\n" + README).index("\n" + heading + "\n")
    opening = "```" + language + "\n"
    begin = README.index(opening, start) + len(opening)
    return README[begin:README.index("```", begin)]


def _commands(block: str) -> list[list[list[str]]]:
    """Each line of a sh block as its commands (split at ``&&``), each as its words, comments dropped."""
    lines = []
    for line in block.splitlines():
        words = shlex.split(line, comments=True)
        if not words:
            continue
        commands, current = [], []
        for word in words:
            if word == "&&":
                commands.append(current)
                current = []
            else:
                current.append(word)
        lines.append(commands + [current])
    return lines


def _run(capsys, words: list[str]) -> tuple[int, str, str]:
    """``provost ARGS [> FILE]`` in-process; a ``> FILE`` writes the standard output there."""
    assert words[0] == "provost", words
    args, target = words[1:], None
    if ">" in args:
        at = args.index(">")
        args, target = args[:at], args[at + 1]
    code, out, err = run_cli(capsys, *args)
    if target is not None:
        Path(target).write_text(out, encoding="utf-8")
    return code, out, err


EXAMPLES = _commands(_fenced_after("Examples:", "sh"))


def test_the_examples_block_is_the_one_these_tests_know():
    # A new example line needs a test below: this fails until it has one.
    firsts = [line[0][:3] for line in EXAMPLES]
    assert firsts == [["provost", "check", "rulesets/"], ["provost", "export", "caylus"],
                      ["provost", "play", "ys"], ["provost", "play", "caylus"],
                      ["provost", "diff", "caylus"], ["provost", "rulebook", "caylus1303"]]


def test_check_of_the_shipped_folder_prints_one_json_object(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    (command,) = EXAMPLES[0]
    code, out, err = _run(capsys, command)
    report = json.loads(out)
    assert code == 0 and report["ok"] is True and report["errors"] == 0
    assert "rulesets/caylus.rules" in report["files"] and "rulesets/ys.rules" in report["files"]
    for d in report["diagnostics"]:
        assert {"path", "line", "col", "severity", "code", "message"} <= set(d)


def test_an_exported_ir_checks_like_its_rule_file(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    export, check = EXAMPLES[1]
    assert _run(capsys, export)[0] == 0
    assert (tmp_path / "caylus.yaml").read_text(encoding="utf-8").strip()
    code, out, err = _run(capsys, check)
    assert code == 0
    # The exported file records its rule file: diagnostics name caylus.rules, never the YAML file.
    assert "caylus.rules:" in out and "caylus.yaml:" not in out
    assert "checked 1 file: 0 errors" in err


def test_a_logged_game_replays(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    play, replay = EXAMPLES[2]
    code, out, err = _run(capsys, play)
    assert code == 0
    first = out.splitlines()[0]
    assert first.startswith("ys, 4 players, seed 7: ")
    assert out.splitlines()[-1] == "log: game.jsonl"
    code, out, err = _run(capsys, replay)
    assert code == 0 and out.startswith("game.jsonl: ok: replayed ")
    assert out.rstrip().endswith("with 4 players, seed 7: identical result")


def test_the_two_player_example_seats_a_human_who_may_quit(tmp_path):
    (command,) = EXAMPLES[3]
    assert command == ["provost", "play", "caylus", "--players", "2", "--agents", "human,greedy"]
    # `quit` at the human's prompt ends the game: exit 130 (README, Commands). Greedy may move first,
    # so the human is asked at most a few times; every prompt gets `quit`.
    done = subprocess.run([sys.executable, "-m", "provost.tools.cli", *command[1:], "--seed", "1", "--no-log"],
                          input="quit\n" * 5, capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert done.returncode == 130, done.stderr
    assert "game abandoned after" in done.stderr and "Traceback" not in done.stderr
    assert "pass" in done.stdout and "place:" in done.stdout       # the human was shown the option ids


def test_diff_names_the_variant_and_its_change(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    (command,) = EXAMPLES[4]
    code, out, err = _run(capsys, command)
    assert code == 0
    assert out.startswith("Simplified favor (simplified_favor) changes caylus:")
    assert "~ changes effect 'favor':" in out


def test_rulebook_example_writes_one_html_page(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    (command,) = EXAMPLES[5]
    code, out, err = _run(capsys, command)
    page = (tmp_path / "caylus1303.html").read_text(encoding="utf-8")
    assert code == 0 and page.lstrip().lower().startswith("<!doctype html")
    assert "Caylus 1303" in page


def test_the_engine_api_block_runs_as_written(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    code = _fenced_after("## Engine API", "python")
    names: dict = {}
    exec(compile(code, "README.md", "exec"), names)      # the README's own code, nothing added
    g, g2, view = names["g"], names["g2"], names["view"]
    printed = capsys.readouterr().out.strip()
    assert printed == "%s %s" % (g.scores(), g.winners())
    assert g.finished and g2.finished and g2.scores() == g.scores() and g2.winners() == g.winners()
    assert g.seed == 1 and view["player"] == 0
    json.loads(names["saved"])                         # a save is JSON text


def test_the_engine_api_comments_name_option_ids_the_games_give():
    # "stable ids: "place:gate", "provost:-2", "bid:3+4"": each is an id of the kind a shipped game offers.
    code = _fenced_after("## Engine API", "python")
    shown = re.search(r"stable ids: (.*)$", code, re.M).group(1)
    ids = re.findall(r'"([^"]+)"', shown)
    assert ids == ["place:gate", "provost:-2", "bid:3+4"]
    import random

    from provost.interpreter.engine import Game
    seen = set()
    for name in ("caylus", "ys"):
        g, pick = Game.new(name, players=4, seed=2), random.Random(2)
        while not g.finished:
            seen.update(g.legal_options())
            g.apply(pick.choice(g.legal_options()))
    assert "place:gate" in seen and "bid:3+4" in seen
    assert any(re.fullmatch(r"provost:-[1-3]", o) for o in seen)


@pytest.mark.parametrize("words", [["provost", "play", "caylus", "--players", "4", "--seed", "1",
                                    "--agents", "greedy,random,random,random"]])
def test_the_first_line_plays_the_game_it_says(capsys, monkeypatch, tmp_path, words):
    # README's first sh line ends with this game; it writes its log to the user's data folder.
    first_line = _fenced_after("# provost", "sh").splitlines()[0]
    assert first_line.endswith(" ".join(words))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    code, out, err = _run(capsys, words)
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith("caylus, 4 players, seed 1: ")
    log = lines[-1].removeprefix("log: ")
    assert Path(log).parent == tmp_path / "provost" / "logs" and Path(log).is_file()
