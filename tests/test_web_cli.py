"""`provost view LOG -o FILE` (no server, no extra) and `provost serve`'s checks before it listens."""
from __future__ import annotations

import json
import os
import shutil
import time

import pytest

from cli_run import run_cli
from provost.interpreter.agents import make_agent, play_game
from provost.interpreter.engine import Game
from provost.interpreter.gamelog import GameLogWriter


def _log(path, ruleset="ys", players=4, seed=2):
    game = Game.new(ruleset, players=players, seed=seed)
    with GameLogWriter(str(path), game, ["random"] * players, {"ruleset": ruleset, "variant": None}) as w:
        play_game(game, [make_agent("random", seed, i) for i in range(players)], log=w)
    return game


def test_view_writes_one_self_contained_page(capsys, tmp_path):
    import base64
    import gzip
    import re

    _log(tmp_path / "g.jsonl")
    out = tmp_path / "g.html"
    code, _, err = run_cli(capsys, "view", str(tmp_path / "g.jsonl"), "-o", str(out))
    assert code == 0 and "wrote" in err
    html = out.read_text(encoding="utf-8")
    assert "<script src" not in html and "<link" not in html
    packed = re.search(r'id="provost-data">([^<]+)<', html).group(1)
    data = json.loads(gzip.decompress(base64.b64decode(packed)))
    assert len(data["frames"]) == 4 and len(data["frames"][0]) == len(data["logs"][0]) + 1
    # each seat's frames come from its own observation: others' screens are face down
    for seat, frames in enumerate(data["frames"]):
        for v in frames[::25]:
            for p in v["panels"]:
                for grp in p["pieces"]:
                    for pc in grp["pieces"]:
                        if pc["owner"] != seat and not pc["face_up"]:
                            assert pc["value"] is None


def test_a_log_with_blank_lines_views_as_it_replays(capsys, tmp_path):
    """Blank lines are no records to replay (gamelog), and none to view either: the page once
    read the log line by line again and stopped at the first blank one (an internal error)."""
    log = tmp_path / "g.jsonl"
    game = _log(log, "caylus", 3, 5)
    lines = log.read_text(encoding="utf-8").splitlines()
    log.write_text("\n" + "\n".join(lines[:3] + ["", "   "] + lines[3:]) + "\n\n", encoding="utf-8")
    assert run_cli(capsys, "replay", str(log))[0] == 0
    out = tmp_path / "g.html"
    code, _, err = run_cli(capsys, "view", str(log), "-o", str(out))
    assert code == 0 and "wrote" in err and out.exists()
    from provost.tools.web.table import Table
    table = Table.from_log(str(log))
    assert table.game.to_json() == game.to_json()


@pytest.mark.parametrize("agents, words", [(7, "'agents' should be a list, not 7"),
                                            (["random", 3], "'agents' should be a list of agent names")])
def test_a_log_whose_agents_are_not_names_is_malformed_for_replay_and_view(capsys, tmp_path, agents, words):
    """The page names the seats' agents from the header: a number there once stopped it with an
    internal error, while replay, which does not read them, passed the log."""
    log = tmp_path / "g.jsonl"
    _log(log, "caylus", 3, 5)
    lines = log.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["agents"] = agents
    log.write_text("\n".join([json.dumps(header)] + lines[1:]) + "\n", encoding="utf-8")
    for argv in (["replay", str(log)], ["view", str(log), "-o", str(tmp_path / "g.html")]):
        code, out, err = run_cli(capsys, *argv)
        assert code == 1 and "%s:1:1: error: the header: " % log in out + err and words in out + err and "[R002]" in out + err


def test_view_of_a_bad_log_is_a_clear_error(capsys, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n", encoding="utf-8")
    code, _, err = run_cli(capsys, "view", str(bad), "-o", str(tmp_path / "x.html"))
    assert code == 1 and "%s:1:1: error: not valid JSON" % bad in err and "[R002]" in err   # as replay says it
    missing = tmp_path / "missing.jsonl"
    code, _, err = run_cli(capsys, "view", str(missing), "-o", str(tmp_path / "x.html"))
    assert code == 1 and "%s:1:1: error: file not found [P005]" % missing in err      # as replay says it
    assert not (tmp_path / "x.html").exists()


def test_serve_checks_the_rules_before_listening(capsys, tmp_path):
    pytest.importorskip("starlette")
    pytest.importorskip("uvicorn")
    broken = tmp_path / "broken.rules"
    broken.write_text("game broken \"Broken\":\n    players 2..\n", encoding="utf-8")
    code, _, err = run_cli(capsys, "serve", str(broken), "--no-browser", "--saves", str(tmp_path))
    assert code == 1 and "broken.rules:" in err and "error" in err
    code, _, err = run_cli(capsys, "serve", "caylus", "--variant", "nope", "--no-browser", "--saves", str(tmp_path))
    assert code == 2 and "simplified_favor" in err
    # a log to replay that is missing or bad is said as `provost replay` says it, before listening
    missing = tmp_path / "missing.jsonl"
    code, _, err = run_cli(capsys, "serve", "--replay", str(missing), "--no-browser", "--saves", str(tmp_path))
    assert code == 1 and "%s:1:1: error: file not found [P005]" % missing in err
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n", encoding="utf-8")
    code, _, err = run_cli(capsys, "serve", "--replay", str(bad), "--no-browser", "--saves", str(tmp_path))
    assert code == 1 and "[R002]" in err


def test_a_rule_file_broken_after_start_is_reported_in_the_page(tmp_path):
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    from starlette.testclient import TestClient

    from provost.tools.cli.commands_web import _offered
    from provost.tools.web.app import create_app

    src = tmp_path / "mygame.rules"
    shutil.copy(Game.new("caylus", players=3).rs.source_path or "rulesets/caylus.rules", src)
    offered = _offered(str(src))
    c = TestClient(create_app(offered, {}, str(tmp_path / "saves")))
    ok = c.post("/api/games", json={"ruleset": offered[0]["ruleset"], "players": 3, "agents": ["human", "random"]})
    assert ok.status_code == 200
    src.write_text(src.read_text(encoding="utf-8") + "\nthis is not a rule\n", encoding="utf-8")
    r = c.post("/api/games", json={"ruleset": offered[0]["ruleset"], "players": 3})
    assert r.status_code == 400 and "mygame.rules:" in r.json()["error"]
    # the game started before the file broke still answers its seat
    assert c.get("/api" + ok.json()["seats"][0]["url"]).status_code in (200, 410)


def test_serve_replay_offers_every_seat(tmp_path):
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    from starlette.testclient import TestClient

    from provost.tools.cli.commands_web import _offered
    from provost.tools.web.app import create_app
    from provost.tools.web.table import Table

    game = _log(tmp_path / "g.jsonl", "caylus", 3, 5)
    t = Table.from_log(str(tmp_path / "g.jsonl"), str(tmp_path))
    c = TestClient(create_app(_offered(None), {}, str(tmp_path), t))
    links = c.get("/api/rulesets").json()["replay_links"]
    assert [l["seat"] for l in links] == [0, 1, 2]
    url = "/api" + links[2]["url"]
    s = c.get(url).json()
    assert s["replay"] and s["finished"] and s["decisions"] == game.s.decisions
    mid = c.get(url, params={"at": 10}).json()
    assert mid["at"] == 10 and mid["view"]["round"] <= s["view"]["round"]
    r = c.post(url + "/move", json={"option": "pass"})
    assert r.status_code == 409 and "replay" in r.json()["error"]


def test_serve_with_more_agents_than_players_is_a_usage_error(capsys, tmp_path):
    pytest.importorskip("starlette")
    code, _, err = run_cli(capsys, "serve", "ys", "--players", "2", "--agents", "human,greedy,random",
                           "--no-browser", "--saves", str(tmp_path))
    assert code == 2 and "3 agents given for 2 players" in err


def test_serve_on_a_port_in_use_is_a_usage_error(capsys, tmp_path):
    import socket

    pytest.importorskip("starlette")
    pytest.importorskip("uvicorn")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        code, _, err = run_cli(capsys, "serve", "--port", str(port), "--no-browser", "--saves", str(tmp_path))
    assert code == 2 and "cannot listen on 127.0.0.1:%d" % port in err


@pytest.mark.parametrize("agents", [[], ["caylus", "--agents", "human,random"]])
def test_serve_with_a_saves_folder_it_cannot_write_is_a_usage_error(capsys, tmp_path, agents, monkeypatch):
    """--saves naming a file's child: said before listening, as an output that cannot be written
    (it was an internal error with --agents, and without it the server started and every new
    game was a 500)."""
    pytest.importorskip("starlette")
    pytest.importorskip("uvicorn")
    from provost.tools.cli import commands_web
    monkeypatch.setattr(commands_web, "serve_forever", lambda *a: None)      # (never serve: the answer comes before)
    (tmp_path / "file").write_text("x")
    code, _, err = run_cli(capsys, "serve", *agents, "--no-browser", "--port", "0", "--saves", str(tmp_path / "file" / "saves"))
    assert code == 2 and "provost: error: cannot write %s" % (tmp_path / "file" / "saves") in err, err
    assert "internal error" not in err


def test_serve_a_rule_file_with_agents_lists_it_by_name_and_starts_it(capsys, tmp_path, monkeypatch):
    """`provost serve /abs/mine.rules --agents ...`: the page lists the file by its name (not
    where the server keeps it), its default is that name, and the game set up plays that file."""
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    pytest.importorskip("uvicorn")
    from starlette.testclient import TestClient

    from provost.tools.cli import commands_web
    served = []
    monkeypatch.setattr(commands_web, "serve_forever", lambda app, sock: served.append(app))
    rules = tmp_path / "caylus.mine.rules"
    rules.write_text('variant mine "Mine" extends caylus:\n    description "x"\n')
    code, _, err = run_cli(capsys, "serve", str(rules), "--agents", "human,random", "--players", "3", "--no-browser",
                           "--port", "0", "--saves", str(tmp_path / "saves"))
    assert code == 0, err
    c = TestClient(served[0])
    info = c.get("/api/rulesets")
    assert info.json()["rulesets"][0]["ruleset"] == info.json()["defaults"]["ruleset"] == "caylus.mine.rules"
    assert str(tmp_path) not in info.text
    seat = next(line.split(": ", 1)[1] for line in err.splitlines() if line.strip().startswith("Player 1:"))
    state = c.get("/api" + seat[seat.index("/t/"):])
    assert state.status_code == 200 and state.json()["agents"] == ["human", "random", "random"]


@pytest.mark.parametrize("argv", [
    ["--port", "99999"],                          # not a port: said by the argument parser, no traceback
    ["--port", "http"],
    ["caylus", "--players", "9"],                 # a count the rules do not allow, with or without --agents
    ["caylus", "--players", "9", "--agents", "human"],
])
def test_serve_refuses_a_bad_port_or_player_count_before_listening(capsys, tmp_path, argv):
    pytest.importorskip("starlette")
    pytest.importorskip("uvicorn")
    code, out, err = run_cli(capsys, "serve", *argv, "--no-browser", "--saves", str(tmp_path))
    assert code == 2 and "internal error" not in err
    assert "a port is a number from 0 to 65535" in err or "expected a port number" in err or "not 9" in err


@pytest.mark.parametrize("ruleset, players, agents, links, title", [
    ("caylus", "3", "human,human,random", 2, "Caylus"),
    ("ys", "2", "random,human", 1, "Ys (2 players)"),   # --players picks the rules for that count, as for play
])
def test_serve_with_agents_starts_the_game_and_prints_the_seat_links(tmp_path, ruleset, players, agents, links, title):
    """The real command in a subprocess: it listens, prints each human seat's link, and answers it."""
    import os
    import signal
    import socket
    import subprocess
    import sys
    import time
    import urllib.request

    pytest.importorskip("starlette")
    pytest.importorskip("uvicorn")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "provost.tools.cli", "serve", ruleset, "--players", players,
                             "--agents", agents, "--port", str(port), "--no-browser",
                             "--saves", str(tmp_path)], stderr=subprocess.PIPE, text=True)
    try:
        lines = [proc.stderr.readline() for _ in range(links + 1)]
        urls = [ln.split(": ", 1)[1].strip() for ln in lines if ln.strip().startswith("Player")]
        assert len(urls) == links, lines
        for _ in range(100):
            try:
                state = json.load(urllib.request.urlopen(urls[-1].replace("/t/", "/api/t/")))
                break
            except OSError:
                time.sleep(0.1)
        assert state["seat"] == 1 and state["view"]["title"] == title
        assert [f for f in os.listdir(tmp_path) if f.endswith(".json")]      # saved from the start
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


def test_a_variant_file_is_offered_under_its_own_title_and_counts(tmp_path):
    # `provost serve FILE` lists FILE first: a variant under its own title after its game's (the
    # list offers the game too), for the counts it can be played with, the game's rules for a
    # count included when they compose with it.
    from provost.dsl.loader import shipped_dir
    from provost.tools.cli.commands_web import _offered

    brewery = os.path.join(shipped_dir(), "examples", "caylus.brewery.rules")
    first = _offered(brewery)[0]
    assert first["title"] == "Caylus: The Brewery" and first["players"] == [2, 5]
    assert first["description"].startswith("A new wood building")
    assert _offered("caylus")[0]["players"] == [2, 5] == _offered(None)[0]["players"]
    express = _offered(os.path.join(shipped_dir(), "ys.express.rules"))[0]
    assert express["title"] == "Ys Express" and express["players"] == [3, 4]     # not for 2: L007
    mine = tmp_path / "takes.rules"
    mine.write_text('variant takes "Takes" extends ys:\n    replace let port_takes = [3, 1, 0]\n')
    assert _offered(str(mine))[0]["players"] == [4, 4]        # the 3- and 2-player rules change it too


def test_serve_on_port_0_prints_the_port_it_listens_on_and_ctrl_c_exits_130(tmp_path):
    """--port 0 lets the system choose: the address printed is the one that answers (it said
    :0).  Ctrl-C stops the server as any command: exit 130 (README, Commands)."""
    import re
    import signal
    import subprocess
    import sys
    import urllib.request

    pytest.importorskip("starlette")
    pytest.importorskip("uvicorn")
    proc = subprocess.Popen([sys.executable, "-m", "provost.tools.cli", "serve", "caylus", "--port", "0",
                             "--no-browser", "--saves", str(tmp_path)], stderr=subprocess.PIPE, text=True)
    try:
        banner = proc.stderr.readline()
        url = re.match(r"provost serve: (http://127\.0\.0\.1:(\d+)/) ", banner)
        assert url and url.group(2) != "0", banner
        for _ in range(100):
            try:
                page = urllib.request.urlopen(url.group(1))
                break
            except OSError:
                time.sleep(0.1)
        assert page.status == 200
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            code = proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            raise
    assert code == 130 and "Traceback" not in proc.stderr.read()


def _start_serve(saves):
    """`provost serve` in a process of its own on a port the system chose: (process, address)."""
    import re
    import subprocess
    import sys
    import urllib.request

    proc = subprocess.Popen([sys.executable, "-m", "provost.tools.cli", "serve", "--port", "0", "--no-browser",
                             "--saves", str(saves)], stderr=subprocess.PIPE, text=True)
    banner = proc.stderr.readline()
    found = re.match(r"provost serve: (http://127\.0\.0\.1:\d+)/ ", banner)
    if not found:
        proc.kill()
        raise AssertionError(banner)
    for _ in range(100):
        try:
            urllib.request.urlopen(found.group(1) + "/api/rulesets")
            return proc, found.group(1)
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("the server did not answer")


def _http(url, body=None):
    import urllib.request
    request = urllib.request.Request(url, data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.loads(answer.read())


def _stopped(proc, how):
    import subprocess
    proc.send_signal(how)
    try:
        return proc.wait(30), proc.stderr.read()
    except subprocess.TimeoutExpired:
        proc.kill()
        raise


def test_sigterm_stops_serve_cleanly_and_its_games_resume(tmp_path):
    """systemd and `docker stop` send SIGTERM: the server ends with 0 (not killed by the signal,
    not 130 as an interrupt), says so in one line, and a new server resumes the game from its save."""
    import signal

    pytest.importorskip("starlette")
    pytest.importorskip("uvicorn")
    proc, address = _start_serve(tmp_path)
    try:
        game = _http(address + "/api/games", {"ruleset": "caylus", "players": 3, "agents": ["human", "random"],
                                              "seed": 5})
        seat = address + "/api" + game["seats"][0]["url"]
        state = _http(seat)
        while not state["your_turn"]:
            state = _http(seat + "/advance", {})
        moved = _http(seat + "/move", {"option": state["view"]["options"][-1]["id"], "n": state["decisions"]})
        assert moved["decisions"] > state["decisions"]
    finally:
        code, said = _stopped(proc, signal.SIGTERM)
    assert code == 0 and "Traceback" not in said and said.strip() == "provost serve: stopped (SIGTERM); the games are saved"
    again, address = _start_serve(tmp_path)
    try:
        resumed = _http(address + "/api" + game["seats"][0]["url"])
    finally:
        _stopped(again, signal.SIGTERM)
    assert resumed["decisions"] == moved["decisions"] and resumed["view"] == moved["view"]
    assert resumed["log"] == moved["log"]


@pytest.mark.parametrize("host, url", [("127.0.0.1", "http://127.0.0.1:80/"), ("0.0.0.0", "http://127.0.0.1:80/"),
                                       ("::", "http://127.0.0.1:80/"), ("::1", "http://[::1]:80/"),
                                       ("localhost", "http://localhost:80/")])
def test_the_address_printed_is_one_a_browser_opens(host, url):
    from provost.tools.cli.commands_web import _url
    assert _url(host, 80) == url


def test_the_saves_folder_is_printed_escaped(capsys, tmp_path, monkeypatch):
    pytest.importorskip("starlette")
    pytest.importorskip("uvicorn")
    from provost.tools.cli import commands_web
    monkeypatch.setattr(commands_web, "serve_forever", lambda *a: None)
    code, out, err = run_cli(capsys, "serve", "--no-browser", "--port", "0", "--saves", str(tmp_path / "s\x1b[2J"))
    assert code == 0 and "games saved in %s" % (tmp_path / "s\\x1b[2J") in err and "\x1b" not in out + err


def _served(capsys, monkeypatch, *argv):
    """The app `provost serve ARGV` would serve (on a port the system chose), and its stderr."""
    from provost.tools.cli import commands_web
    served = []
    monkeypatch.setattr(commands_web, "serve_forever", lambda app, sock: served.append(app))
    code, _, err = run_cli(capsys, "serve", *argv, "--no-browser", "--port", "0")
    assert code == 0 and len(served) == 1, err
    return served[0], err


def test_the_servers_seed_reaches_no_page_and_still_deals_the_same_games(capsys, tmp_path, monkeypatch):
    """`serve caylus --seed S`: the new-game page is open to every seat, so S is not its default
    (it told every hidden card of the games set up there); a game set up without a seed of its own
    is given one derived from S and its number, never S, so a finished game's log tells nothing of
    another game's cards, and the same --seed deals the same games again."""
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    pytest.importorskip("uvicorn")
    from starlette.testclient import TestClient

    secret = 8473920174561
    games = []
    for run in ("a", "b"):
        app, err = _served(capsys, monkeypatch, "caylus", "--seed", str(secret), "--saves", str(tmp_path / run))
        c = TestClient(app)
        answers = [c.get("/").text, c.get("/api/rulesets").text, err]
        assert c.get("/api/rulesets").json()["defaults"].get("seed") is None
        for _ in range(2):
            made = c.post("/api/games", json={"ruleset": "caylus", "players": 2, "agents": ["human", "random"]})
            assert made.status_code == 200, made.text
            url = "/api" + made.json()["seats"][0]["url"]
            answers += [made.text, c.get(made.json()["game"]).text, c.get(url).text, c.get(url + "/log").text,
                        c.post(url + "/move", json={"option": "no such option"}).text]
            save = json.loads((tmp_path / run / (made.json()["gid"] + ".json")).read_text())
            games.append(save["seed"])
        assert not any(str(secret) in text for text in answers)
    assert secret not in games and games[0] != games[1] and games[:2] == games[2:], games


def test_serve_checks_its_arguments_before_it_binds_the_port(capsys, tmp_path):
    """With the port taken, a mistake in the arguments is still what is said: serve checks every
    argument, the rules and the log to replay before it binds; and a game --agents sets up is not
    saved until the server listens (the port in use: no save of a game nobody can reach)."""
    import socket

    pytest.importorskip("starlette")
    pytest.importorskip("uvicorn")
    bad_log = tmp_path / "bad.jsonl"
    bad_log.write_text("not json\n")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = str(s.getsockname()[1])
        saves = ["--no-browser", "--port", port, "--saves", str(tmp_path / "saves")]
        code, _, err = run_cli(capsys, "serve", "ys", "--players", "2", "--agents", "human,greedy,random", *saves)
        assert code == 2 and "3 agents given for 2 players" in err and "cannot listen" not in err, err
        code, _, err = run_cli(capsys, "serve", "--agents", "human,random", *saves)
        assert code == 2 and "--agents needs a RULESET" in err and "cannot listen" not in err, err
        code, out, err = run_cli(capsys, "serve", "--replay", str(bad_log), *saves)
        assert code == 1 and "%s:1:1: error:" % bad_log in out + err and "cannot listen" not in err, err
        code, _, err = run_cli(capsys, "serve", "caylus", "--agents", "human,random", *saves)
        assert code == 2 and "cannot listen on 127.0.0.1:%s" % port in err, err
    assert not list((tmp_path / "saves").glob("*.json"))


@pytest.mark.parametrize("absolute", [False, True])
def test_a_downloaded_log_names_the_rules_as_the_command_line_did_and_replays(capsys, tmp_path, monkeypatch, absolute):
    """The finished game's log named a rule file by where the server keeps it (its absolute path):
    a seat learnt the server's folders.  It names it as `serve` was given it (a relative path), or
    by its name (an absolute path), and replays with `provost replay` from the folder it was named from."""
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    pytest.importorskip("uvicorn")
    from pathlib import Path

    from starlette.testclient import TestClient
    examples = Path(__file__).resolve().parent.parent / "rulesets" / "examples"
    (tmp_path / "rules").mkdir()
    shutil.copy(examples / "caylus.brewery.rules", tmp_path / "rules")
    monkeypatch.chdir(tmp_path)
    named = str(tmp_path / "rules" / "caylus.brewery.rules") if absolute else "rules/caylus.brewery.rules"
    app, _ = _served(capsys, monkeypatch, named, "--saves", str(tmp_path / "saves"))
    c = TestClient(app)
    made = c.post("/api/games", json={"ruleset": os.path.basename(named) if absolute else named, "players": 2,
                                      "agents": ["random"], "seed": 3})
    assert made.status_code == 200, made.text
    url = "/api" + made.json()["seats"][0]["url"]
    for _ in range(3000):
        if c.post(url + "/advance").json()["finished"]:
            break
    log = c.get(url + "/log")
    assert log.status_code == 200 and str(tmp_path) not in log.text
    header = json.loads(log.text.splitlines()[0])
    assert header["source"]["ruleset"] == ("caylus.brewery.rules" if absolute else named)
    if absolute:
        monkeypatch.chdir(tmp_path / "rules")
    (tmp_path / "downloaded.jsonl").write_text(log.text, encoding="utf-8")
    code, out, err = run_cli(capsys, "replay", str(tmp_path / "downloaded.jsonl"))
    assert code == 0 and "identical result" in out + err, out + err
