"""The balance-study and replay commands (sim, rate, sweep, soak, replay, explain, view) used as
a user would: odd inputs, odd player counts, and what the README says they do."""
from __future__ import annotations

import importlib.util
import json
import subprocess
import sys

import pytest

from tests.cli_run import run_cli

#: ``provost rate`` needs the rate extra (openskill), which the README's test command does not
#: install: its cases skip without it.
needs_rate = pytest.mark.skipif(importlib.util.find_spec("openskill") is None,
                                reason="the rate extra (openskill) is not installed")


@pytest.fixture(scope="module")
def ys3_log(tmp_path_factory):
    """A finished random game of Ys for 3, logged."""
    from provost.tools.cli import main

    path = tmp_path_factory.mktemp("logs") / "ys3.jsonl"
    assert main(["play", "ys", "--players", "3", "--seed", "7", "--agents", "random",
                 "--log", str(path), "--format", "json"]) == 0
    return path


def _with_header(log, tmp_path, name, **changes):
    lines = log.read_text().splitlines(keepends=True)
    header = json.loads(lines[0])
    header.update(changes)
    out = tmp_path / name
    out.write_text(json.dumps(header) + "\n" + "".join(lines[1:]))
    return out


@pytest.mark.parametrize("seed", [-1, 2 ** 64])
@pytest.mark.parametrize("command", [["replay"], ["explain", "--at", "2", "bid:0+0"], ["view", "-o", "OUT"]])
def test_a_log_seed_out_of_range_is_a_positioned_error(ys3_log, tmp_path, capsys, seed, command):
    log = _with_header(ys3_log, tmp_path, "seed.jsonl", seed=seed)
    argv = [command[0], str(log)] + [str(tmp_path / "o.html") if a == "OUT" else a for a in command[1:]]
    code, out, err = run_cli(capsys, *argv)
    assert code == 1, err
    assert "internal error" not in err
    # (replay prints its verdict on stdout, the others on stderr)
    assert "%s:1:1: error: the header: 'seed' should be a whole number from 0 to 2**64 - 1" % log in out + err
    assert "[R002]" in out + err


@pytest.mark.parametrize("changes, message", [
    ({"seed": "7"}, "the header: 'seed' should be an integer, not \"7\" [R002]"),
    ({"players": "3"}, "the header: 'players' should be an integer, not \"3\" [R002]"),
    ({"players": 3.5}, "the header: 'players' should be an integer, not 3.5 [R002]"),
])
def test_explain_checks_the_header_as_replay_does(ys3_log, tmp_path, capsys, changes, message):
    log = _with_header(ys3_log, tmp_path, "bad.jsonl", **changes)
    for argv in (["replay", str(log)], ["explain", str(log), "--at", "2", "bid:0+0"]):
        code, out, err = run_cli(capsys, *argv)
        assert code == 1 and "internal error" not in err
        assert "%s:1:1: error: %s" % (log, message) in out + err, (argv, out, err)


def test_explain_names_the_log_when_its_game_cannot_start(ys3_log, tmp_path, capsys):
    log = _with_header(ys3_log, tmp_path, "players.jsonl", players=99)
    code, out, err = run_cli(capsys, "explain", str(log), "--at", "2", "bid:0+0")
    assert code == 1
    assert err.startswith("%s:1:1: error: cannot start the game the header describes" % log)


def test_explain_escapes_control_characters(ys3_log, capsys):
    code, out, err = run_cli(capsys, "explain", str(ys3_log), "--at", "3", "x\x1b[31m")
    assert code == 0
    assert "\x1b" not in out + err
    assert "'x\\x1b[31m' is not an option" in out


def test_paths_printed_by_replay_view_and_sim_are_escaped(ys3_log, tmp_path, capsys):
    odd = tmp_path / "g\x1b[2J.jsonl"
    odd.write_bytes(ys3_log.read_bytes())
    code, out, err = run_cli(capsys, "replay", str(odd))
    assert code == 0 and "\x1b" not in out + err and "g\\x1b[2J.jsonl: ok: replayed" in out
    code, out, err = run_cli(capsys, "view", str(odd), "-o", str(tmp_path / "o\x1b[2J.html"))
    assert code == 0 and "\x1b" not in out + err and "o\\x1b[2J.html" in err
    code, out, err = run_cli(capsys, "sim", "caylus", "--games", "1", "--seed", "1", "--agents", "random",
                             "--report", str(tmp_path / "r\x1b[2J.html"))
    assert code == 0 and "\x1b" not in out + err and "report: %s" % (tmp_path / "r\\x1b[2J.html") in out


def test_soak_replay_command_is_quoted_and_escaped(tmp_path, capsys):
    from tests.test_invariants import BROKEN

    folder = tmp_path / "my rules\x1b[2J"
    folder.mkdir()
    rules = folder / "caylus.broken_invariant.rules"
    rules.write_text(open(BROKEN, encoding="utf-8").read())
    code, out, err = run_cli(capsys, "soak", str(rules), "--players", "3", "--seeds", "1")
    assert code == 1 and "\x1b" not in out + err
    quoted = "'%s'" % str(rules).replace("\x1b", "\\x1b")
    assert "replay: provost play %s --players 3 --seed 0 --agents random,random,random --check-invariants" % quoted \
        in out


@pytest.mark.parametrize("ruleset, variant, counts", [
    ("caylus", None, [2, 3, 4, 5]),
    ("ys", None, [2, 3, 4]),
    ("ys", "kings_favor", [3, 4]),      # King's Favor has no rules for 2
    ("ys", "two_players", [2]),
])
def test_soak_plays_every_count_the_rules_allow_by_default(capsys, ruleset, variant, counts):
    argv = ["soak", ruleset, "--seeds", "1", "--format", "json"] + (["--variant", variant] if variant else [])
    code, out, err = run_cli(capsys, *argv)
    report = json.loads(out)
    assert code == 0, err
    assert sorted(int(kind.split()[0]) for kind in report["by_kind"]) == counts


@pytest.mark.parametrize("argv", [
    pytest.param(["rate", "caylus", "--agents", "random,greedy", "--games", "1"], marks=needs_rate),
    ["sweep", "caylus", "--set", "start_money=3,4", "--games", "1", "--agents", "random"],
    ["soak", "caylus", "--seeds", "1"],
    ["sim", "caylus", "--games", "1", "--agents", "random", "--seed", "0"],
])
def test_variant_given_twice_composes_in_every_balance_command(capsys, argv):
    """README: --variant may be given more than once; the variants compose, in order."""
    code, out, err = run_cli(capsys, *argv, "--players", "2", "--variant", "simplified_favor",
                             "--variant", "two_players", "--format", "json")
    assert code == 0, err
    assert json.loads(out)["variant"] == "simplified_favor+two_players"


def test_sweep_keeps_a_wins_interval_within_minus_one_and_one(capsys):
    code, out, err = run_cli(capsys, "sweep", "caylus", "--set", "start_money=4,6", "--games", "3",
                             "--agents", "random", "--seed", "0", "--format", "json")
    assert code == 0, err
    changes = json.loads(out)["settings"][1]["vs_baseline"]
    wins = {m: d for m, d in changes.items() if m.endswith(" wins")}
    assert len(wins) == 4
    for d in wins.values():
        assert -1 <= d["ci95"][0] <= d["diff"] <= d["ci95"][1] <= 1
    assert any(d["ci95"] == [-1.0, 1.0] for d in wins.values())   # wide enough to be clipped here


def test_a_long_sim_keeps_few_tasks_in_flight_and_stops_on_ctrl_c(capsys, monkeypatch):
    """Every batch of a sim used to be submitted to the pool before the first game (a future per
    ten games: gigabytes, and Ctrl-C held back meanwhile, for --games 10**9)."""
    from concurrent.futures import ProcessPoolExecutor

    submitted = []
    real_submit = ProcessPoolExecutor.submit

    def submit(self, fn, *args, **kwargs):
        submitted.append(args)
        return real_submit(self, fn, *args, **kwargs)

    monkeypatch.setattr(ProcessPoolExecutor, "submit", submit)
    monkeypatch.setenv("PROVOST_SIM_STOP_AFTER", "20")     # as if Ctrl-C came after 20 games
    code, out, err = run_cli(capsys, "sim", "caylus", "--games", "100000", "--jobs", "2", "--seed", "0",
                             "--agents", "random", "--format", "json")
    report = json.loads(out)
    assert code == 130 and report["error"]["kind"] == "interrupted"
    assert 20 <= report["games"] < 100
    assert len(submitted) <= 2 * 4 + report["games"]        # a window per worker, refilled as batches end


def test_more_games_than_seeds_is_said_plainly(capsys):
    code, out, err = run_cli(capsys, "sim", "caylus", "--games", str(2 ** 64 + 1), "--seed", "0")
    assert code == 2
    assert err.strip() == "provost: error: %d games are more than there are seeds (2**64): play fewer" % (2 ** 64 + 1)


def test_soak_starts_no_more_processes_than_games(capsys, monkeypatch):
    import multiprocessing.pool

    sizes = []

    class Pool(multiprocessing.pool.Pool):
        def __init__(self, processes=None, *args, **kwargs):
            sizes.append(processes)
            super().__init__(processes, *args, **kwargs)

    monkeypatch.setattr(multiprocessing.pool, "Pool", Pool)
    code, out, err = run_cli(capsys, "soak", "caylus", "--players", "3", "--seeds", "2", "--jobs", "64")
    assert code == 0, err
    assert sizes == [2]


@pytest.mark.parametrize("argv, kind, message", [
    pytest.param(["rate", "caylus", "--agents", "random,foo"], "usage", "unknown agent 'foo'", marks=needs_rate),
    (["sweep", "caylus", "--set", "nosuch=1,2"], "usage", "no let without parameters is named 'nosuch'"),
    (["sweep", "caylus", "--set", "start_money=1", "--games", "0"], "usage", "--games"),
    pytest.param(["rate", "/no/such.rules", "--agents", "random,greedy"], "input", "file not found", marks=needs_rate),
    pytest.param(["rate", "caylus", "--agents", "greedy,human"], "usage", "'human' is for provost play", marks=needs_rate),   # not "sim plays ..."
    (["sweep", "caylus", "--set", "start_money=3,4", "--agents", "human"], "usage", "sweep and rate games are played by bots"),
])
def test_rate_and_sweep_print_one_json_object_when_they_fail(capsys, argv, kind, message):
    code, out, err = run_cli(capsys, *argv, "--format", "json")
    report = json.loads(out)
    assert code == report["error"]["exit"] == {"usage": 2, "input": 1}[kind]
    assert report["ok"] is False and report["error"]["kind"] == kind
    assert message in report["error"]["message"] + json.dumps(report["diagnostics"])


@needs_rate
def test_rate_json_report_starts_with_ok(capsys):
    code, out, _ = run_cli(capsys, "rate", "caylus", "--agents", "random,greedy", "--games", "1", "--format", "json")
    assert code == 0 and list(json.loads(out))[0] == "ok"


def test_sweep_json_report_starts_with_ok_also_when_games_fail(capsys, monkeypatch):
    from provost.interpreter import agents

    class Broken(agents.RandomAgent):
        def choose(self, game, player):
            raise RuntimeError("boom")

    monkeypatch.setitem(agents.AGENTS, "random", Broken)
    code, out, _ = run_cli(capsys, "sweep", "caylus", "--set", "start_money=3,4", "--games", "2", "--agents", "random",
                           "--format", "json")
    report = json.loads(out)
    assert code == 1 and list(report)[0] == "ok" and report["ok"] is False
    assert report["error"] == {"kind": "input", "exit": 1,
                               "message": "4 games raised an engine error (see each setting's errors; "
                                          "first, start_money=3, seed 0: RuntimeError: boom)"}


@pytest.mark.parametrize("command", [["sim", "caylus", "--games", "1"], ["sweep", "caylus", "--set", "start_money=3,4"]])
def test_question_without_report_is_a_usage_error(capsys, command):
    code, out, err = run_cli(capsys, *command, "--question", "Is it fair?")
    assert code == 2 and out == ""
    assert err.strip() == "provost: error: --question is for --report FILE.html (the page that answers it)"


def test_html_and_markdown_outputs_escape_what_they_write(ys3_log, tmp_path, capsys):
    # Once: sim --report wrote the command line raw into its page (a path or --question holding
    # ESC reached the HTML), the rulebook put a rule string's line break where it starts a
    # heading or closes the variant's fenced block, and `serve --replay`'s game page wrote a log's
    # agent names into HTML unescaped.
    odd = tmp_path / "odd\x1b[2J.rules"
    odd.write_text('variant odd "Odd\\n# Forged heading" extends ys:\n'
                   '    description "x\\n```\\n## Out of the fence"\n'
                   '    replace let bank_start = {blue: 40, green: 40, yellow: 40, red: 40, black: 20, white: 5}\n')
    report = tmp_path / "r.html"
    done = subprocess.run([sys.executable, "-m", "provost.tools.cli", "sim", str(odd), "--games", "2", "--seed", "1",
                           "--agents", "random", "--report", str(report), "--question", "why\x07 `now`\x1b[2J?"],
                          capture_output=True, text=True, timeout=300)
    page = report.read_text(encoding="utf-8")
    assert done.returncode == 0, done.stderr
    assert not any(ord(c) < 32 and c not in "\n\t" for c in page)
    assert "odd\\x1b[2J.rules" in page
    for kind in ("md", "html"):
        book = tmp_path / ("book." + kind)
        code, out, err = run_cli(capsys, "rulebook", str(odd), "--format", kind, "-o", str(book))
        text = book.read_text(encoding="utf-8")
        assert code == 0 and "\x1b" not in text
        assert "\n# Forged" not in text and "<h1 id=\"s1\">Forged" not in text
        assert "\n## Out of the fence" not in text and ">Out of the fence</h2>" not in text
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    from starlette.testclient import TestClient

    from provost.tools.web.app import create_app
    from provost.tools.web.table import Table
    evil = _with_header(ys3_log, tmp_path, "evil.jsonl", agents=["<img src=x onerror=alert(1)>\x1b", "random", "random"])
    t = Table.from_log(str(evil))
    page = TestClient(create_app([], {}, None, replay=t)).get("/game/%s/%s" % (t.gid, t.host)).text
    assert "<img" not in page and "\x1b" not in page and "&lt;img src=x onerror=alert(1)&gt;\\x1b" in page


@pytest.mark.parametrize("argv, label, total", [
    (["sim", "caylus", "--games", "3", "--seed", "1"], "sim", 3),
    (["sweep", "caylus", "--set", "start_money=5,6", "--games", "2"], "sweep", 4),
    pytest.param(["rate", "caylus", "--agents", "random,greedy", "--games", "3"], "rate", 3, marks=needs_rate),
])
@pytest.mark.parametrize("tty", [True, False])
def test_long_runs_show_a_progress_bar_on_a_terminal_only(capsys, monkeypatch, argv, label, total, tty):
    """DESIGN.md section 6: a bar counting the games when stderr is a terminal, for sweep and rate
    as for sim (they drew none), and nothing in a pipe."""
    from provost.tools.cli import progress
    from provost.tools.sim import runner

    monkeypatch.setattr(runner, "stderr_is_tty", lambda: tty)
    bars = []
    ended = progress.ProgressBar.__exit__
    monkeypatch.setattr(progress.ProgressBar, "__exit__",
                        lambda self, *exc: (bars.append((self.shown, self.done, self.total)), ended(self, *exc))[1])
    code, out, err = run_cli(capsys, *argv, "--format", "json")
    assert code == 0 and json.loads(out)["ok"], err
    assert bars == [(tty, total, total)]
