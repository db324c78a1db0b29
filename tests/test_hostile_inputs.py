"""Hostile inputs on the command line: pipes named *.rules, endless devices, deeply nested log lines.

Each is an input error with a position (exit 1), never a hang, a traceback or unbounded memory.
"""
from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from cli_run import run_cli as run

RULESETS = Path(__file__).resolve().parent.parent / "rulesets"


@pytest.fixture
def fifo_dir(tmp_path):
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs on this system")
    shutil.copy(RULESETS / "caylus.rules", tmp_path / "caylus.rules")
    os.mkfifo(tmp_path / "pipe.rules")
    return tmp_path


@pytest.mark.parametrize("argv", [("check", "{d}/pipe.rules"), ("check", "{d}"), ("play", "{d}/pipe.rules"),
                                  ("replay", "{d}/pipe.rules"), ("variants", "{d}/caylus.rules")])
def test_a_pipe_named_rules_never_hangs(fifo_dir, capsys, argv):
    start = time.perf_counter()
    code, out, err = run(capsys, *[a.format(d=fifo_dir) for a in argv])
    assert time.perf_counter() - start < 10
    if "pipe.rules" in " ".join(argv) or argv == ("check", "{d}"):
        assert code == 1
        assert "pipe.rules:1:1: error: is a pipe or a socket, not a file [P005]" in out + err
    else:
        assert code == 0                # the pipe beside a game is not one of its variants


def test_replaying_an_endless_device_stops_at_the_line_limit(capsys):
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    code, out, err = run(capsys, "replay", "/dev/zero")
    assert code == 1 and "/dev/zero:1:1: error: a line longer than" in out + err


def test_a_deeply_nested_log_line_is_an_input_error(tmp_path, capsys):
    log = tmp_path / "g.jsonl"
    assert run(capsys, "play", "caylus", "--players", "3", "--seed", "1", "--log", str(log))[0] == 0
    header = log.read_text().splitlines()[0]
    log.write_text(header + "\n" + "[" * 100_000 + "]" * 100_000 + "\n")
    code, out, err = run(capsys, "replay", str(log))
    assert code == 1 and "g.jsonl:2:1: error: not a log record: JSON nested too deeply [R002]" in out + err


def test_an_unknown_field_in_a_decision_is_an_input_error(tmp_path, capsys):
    import json
    log = tmp_path / "g.jsonl"
    assert run(capsys, "play", "caylus", "--players", "3", "--seed", "1", "--log", str(log))[0] == 0
    lines = log.read_text().splitlines()
    lines[1] = json.dumps(dict(json.loads(lines[1]), bogus=1))
    log.write_text("\n".join(lines) + "\n")
    code, out, err = run(capsys, "replay", str(log))
    assert code == 1 and 'g.jsonl:2:1: error: decision: unknown field "bogus"' in out + err


def test_text_output_shows_fifty_diagnostics_a_file_and_counts_the_rest(tmp_path, capsys):
    lines = ["game g:", "    score pp", "    rounds p", "resource pp", "phase p:", "    each player in players():"]
    lines += ["        gain q%d pp" % i for i in range(300)]
    path = tmp_path / "many.rules"
    path.write_text("\n".join(lines) + "\n")
    code, out, err = run(capsys, "check", str(path))
    assert code == 1
    assert out.count(": error: ") == 50
    assert "%s: 250 more diagnostics not shown (--format json lists every one)" % path in out
    assert "checked 1 file: 300 errors" in err


def test_an_ir_documents_source_never_shows_a_line_of_a_file_that_is_not_a_rule_file(tmp_path, capsys):
    import json

    from provost.tools.cli import main
    # 'source' says which rule file the positions are in; once it could name any JSON or YAML
    # file, and a diagnostic printed the line of it the position gave (here a token).
    secret = tmp_path / "creds.json"
    secret.write_text('{\n "a": 1,\n "b": 2,\n "token": "SECRET-123"\n}\n')
    assert main(["export", "caylus", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    game = next(d for d in doc["decls"] if d["kind"] == "game")
    game["score"], game["pos"], game["attr_pos"] = "ppp", [4, 2, 4, 10], {"score": [4, 2, 4, 10]}
    for key, value in (("source", str(secret)), ("sources", [str(secret)] * len(doc["decls"]))):
        ir = dict(doc, **{key: value})
        if key == "sources":
            del ir["source"]
        path = tmp_path / ("ir_%s.json" % key)
        path.write_text(json.dumps(ir))
        assert main(["check", str(path)]) == 1
        out, err = capsys.readouterr()
        assert "SECRET" not in out + err and str(secret) not in out + err
        assert "%s:4:2: error: the score of game 'caylus' must be a resource" % path in out


def _chain(kind: str, n: int) -> str:
    head = "game g:\n    score pp\n    players 2..2\n    rounds p\n    max_rounds 1\nresource pp, coin\n"
    if kind == "effects":          # each effect calls the next
        body = "".join("effect e%d:\n    gain 1 pp\n    e%d\n" % (i, i + 1) for i in range(n))
        body += "effect e%d:\n    gain 1 coin\n" % n
        return head + body + "phase p:\n    each player in players():\n        e0\n"
    if kind == "tables":           # an entry of each table does the next table's
        body = "enum k a\n" + "".join("table t%d:\n    a:\n        gain 1 pp\n        do t%d[a]\n" % (i, i + 1)
                                      for i in range(n))
        body += "table t%d:\n    a: gain 1 coin\n" % n
        return head + body + "phase p:\n    each player in players():\n        do t0[a]\n"
    if kind == "lets":             # each let defined through the next
        body = "".join("let v%d = v%d + 1\n" % (i, i + 1) for i in range(n)) + "let v%d = held(coin)\n" % n
    else:                          # ten lets, each 60 brackets deep around the next
        body = "".join("let v%d = %sv%d + 1%s\n" % (i, "(1 + " * 60, i + 1, ")" * 60) for i in range(n))
        body += "let v%d = held(coin)\n" % n
    return head + body + "phase p:\n    each player in players():\n        gain v0 pp\n"


@pytest.mark.parametrize("kind, n, said", [
    ("effects", 400, "effect 'e0', with the effects it calls written out in place, is nested 404 levels deep"),
    ("lets", 300, "let 'v0', written out with the lets it uses, is nested 302 levels deep"),
    ("deep_lets", 10, "let 'v0', written out with the lets it uses, is nested 612 levels deep"),
    ("tables", 400, "table 't0', with what its entries do written out in place, is nested 2406 levels deep"),
])
@pytest.mark.parametrize("command", ["check", "play"])
def test_chains_of_lets_or_effects_too_deep_are_c807_not_a_recursion_error(kind, n, said, command, tmp_path, capsys):
    # They were 'provost: internal error: RecursionError' (exit 2) in check and play alike.
    path = tmp_path / "chain.rules"
    path.write_text(_chain(kind, n))
    code, out, err = run(capsys, command, str(path), *(["--seed", "1", "--no-log"] if command == "play" else []))
    assert code == 1, out + err
    assert said in out + err and "[C807]" in out + err and "internal error" not in out + err


def test_a_chain_within_the_limit_plays(tmp_path, capsys):
    path = tmp_path / "chain.rules"
    path.write_text(_chain("effects", 100))
    code, out, err = run(capsys, "play", str(path), "--seed", "1", "--no-log", "--format", "json")
    assert code == 0, out + err


def test_a_log_cut_after_one_decision_says_one_decision(tmp_path, capsys):
    log = tmp_path / "g.jsonl"
    assert run(capsys, "play", "caylus", "--players", "3", "--seed", "1", "--log", str(log))[0] == 0
    log.write_text("".join(log.read_text().splitlines(keepends=True)[:2]))
    code, out, err = run(capsys, "replay", str(log))
    assert code == 1 and "g.jsonl:3:1: error: the log ends without a result line after 1 decision (truncated" in out


@pytest.mark.parametrize("suffix", [".json", ".yaml"])
def test_a_control_character_in_an_ir_string_is_placed_in_the_ir_file(tmp_path, capsys, suffix):
    """P007 in an IR document names the line of that document that holds the string: it gave the
    declaration's `pos`, a line of the rule file the IR was exported from, with the IR file's name
    (bidi.json:7:1 for a one-line file)."""
    from provost.dsl.loader import dump_ir, load_ruleset

    ir, _ = load_ruleset("caylus")
    ir["decls"][5]["title"] = "x\x1b[2J"
    path = tmp_path / ("caylus" + suffix)
    path.write_text(dump_ir(ir, suffix[1:]))
    line = next(n for n, text in enumerate(path.read_text().splitlines(), 1) if "x\\u001b" in text or "x\\e" in text)
    code, out, err = run(capsys, "check", str(path))
    assert code == 1 and "%s:%d:" % (path, line) in out and "control character U+001B in a string" in out
    assert "\x1b" not in out + err


@pytest.mark.parametrize("argv", [("play", "caylus", "--seed", "1", "--log", "{d}/pipe.rules"),
                                  ("rulebook", "caylus", "-o", "{d}/pipe.rules"),
                                  ("graph", "caylus", "-o", "{d}/pipe.dot")])
def test_an_output_that_is_a_pipe_nothing_reads_is_a_usage_error_not_a_hang(fifo_dir, argv):
    import subprocess
    import sys

    os.mkfifo(fifo_dir / "pipe.dot")
    done = subprocess.run([sys.executable, "-m", "provost.tools.cli", *(a.format(d=fifo_dir) for a in argv)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "a named pipe that nothing reads" in done.stderr


def test_an_output_pipe_that_is_read_gets_everything(fifo_dir, capsys):
    import threading

    got = []
    reader = threading.Thread(target=lambda: got.append(open(fifo_dir / "pipe.rules").read()), daemon=True)
    reader.start()
    time.sleep(0.2)
    code, out, err = run(capsys, "rulebook", "caylus", "-o", str(fifo_dir / "pipe.rules"))
    reader.join(30)
    assert code == 0 and got and got[0].startswith("# Caylus")
