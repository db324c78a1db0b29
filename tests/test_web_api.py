"""The web table's API without a browser: seats and tokens, bad requests, hidden information, saves.

Skips when the ``web-test`` extra (starlette, httpx) is absent.
"""
from __future__ import annotations

import json
import random

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

from provost.tools.web.app import create_app  # noqa: E402
from web_client import client, new_game, offered  # noqa: E402,F401  (offered: a fixture)


def play_to_end(c, url, rng, seen, limit=3000):
    """Play seat `url` by posting random legal options (bots advance); every answer goes to `seen`."""
    state = c.get(url).json()
    seen.append(state)
    for _ in range(limit):
        if state["finished"]:
            return state
        if state["your_turn"]:
            opt = rng.choice(state["view"]["options"])["id"]
            r = c.post(url + "/move", json={"option": opt, "n": state["decisions"]})
        else:
            assert state["bot_to_move"], "nobody moves"
            r = c.post(url + "/advance")
        assert r.status_code == 200, r.text
        state = r.json()
        seen.append(state)
    raise AssertionError("the game did not end")


def api(url):
    return "/api" + url


def test_new_game_page_and_links(offered, tmp_path):
    c = client(offered, tmp_path)
    assert "new game" in c.get("/").text
    info = c.get("/api/rulesets").json()
    assert {r["ruleset"] for r in info["rulesets"]} >= {"caylus", "caylus1303", "ys"}
    g = new_game(c, "caylus", 3, ["human", "human", "random"])
    assert [s["seat"] for s in g["seats"]] == [0, 1]
    assert len({s["url"] for s in g["seats"]}) == 2
    page = c.get(g["game"]).text
    for s in g["seats"]:
        assert s["url"] in page


def test_a_seats_link_does_not_open_the_others(offered, tmp_path):
    """A seat's link holds the game's id: the page of every seat's link needs the creator's key,
    and the new-game page's data names no seat of a running game, nor its seed."""
    c = client(offered, tmp_path)
    g = new_game(c, "ys", 4, ["human"] * 4, seed=5)
    gid = g["gid"]
    assert g["game"].startswith("/game/%s/" % gid)
    for path in ("/game/%s" % gid, "/game/%s/%s" % (gid, "x" * 22),
                 "/game/%s/%s" % (gid, g["seats"][0]["url"].rsplit("/", 1)[1])):
        r = c.get(path)
        assert r.status_code in (403, 404), path
        assert all(s["url"] not in r.text for s in g["seats"])
    from provost.tools.web.table import Table
    started = Table.new("ys", None, 4, 5, ["human", "greedy"], str(tmp_path))
    app = create_app(offered, {"ruleset": "ys", "seed": None}, str(tmp_path), started=started)
    info = TestClient(app).get("/api/rulesets").text
    assert started.tokens[0] not in info and "started_links" not in info
    # the key survives a restart of the server
    assert Table.load(str(tmp_path / (started.gid + ".json"))).host == started.host


def test_odd_values_get_a_400_not_a_500(offered, tmp_path):
    c = client(offered, tmp_path)
    g = new_game(c, "caylus", 3, ["human", "random"])
    url = api(g["seats"][0]["url"])
    for query in ("?at=%C2%B2", "?at=" + "9" * 5000):
        assert c.get(url + query).status_code == 400, query
    for data in ({"ruleset": "ys", "seed": "\u00b2"}, {"ruleset": "ys", "variant": ["x"]},
                 {"ruleset": ["ys"]}, {"ruleset": {}}):
        r = c.post("/api/games", json=data)
        assert r.status_code == 400 and r.json()["error"], data
    r = c.post("/api/games", content=b"[" * 30000 + b"]" * 30000)
    assert r.status_code == 400 and "not JSON" in r.json()["error"]
    r = c.post(url + "/move", json={"option": "pass", "n": True})
    assert r.status_code == 400 and "number of decisions" in r.json()["error"]


def test_a_huge_body_is_refused_without_being_read(offered, tmp_path):
    """A body over the limit gets its 413 once the limit is passed: the server does not hold
    the whole of it (a few gigabytes posted would have been read into memory first), and one
    whose declared length is over the limit is refused before a byte of it is read."""
    import asyncio

    from provost.tools.web.app import MAX_BODY

    app = create_app(offered, {}, str(tmp_path))
    chunk = b" " * 65536

    def post(headers, chunks):
        sent, read, out = {"status": None}, [0], []

        async def receive():
            read[0] += 1
            return {"type": "http.request", "body": chunk, "more_body": read[0] < chunks}

        async def send(message):
            if message["type"] == "http.response.start":
                sent["status"] = message["status"]
            elif message["type"] == "http.response.body":
                out.append(message.get("body", b""))

        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
                 "scheme": "http", "path": "/api/games", "raw_path": b"/api/games", "root_path": "", "query_string": b"",
                 "headers": [(k.encode(), v.encode()) for k, v in headers], "client": ("127.0.0.1", 1),
                 "server": ("127.0.0.1", 80)}
        asyncio.run(app(scope, receive, send))
        return sent["status"], json.loads(b"".join(out)), read[0]

    status, answer, read = post([("content-type", "application/json")], 2000)      # 128 MB, chunked
    assert status == 413 and "too large" in answer["error"]
    assert read <= MAX_BODY // len(chunk) + 2, read
    status, answer, read = post([("content-type", "application/json"), ("content-length", str(1 << 40))], 2000)
    assert status == 413 and read == 0


def test_bad_requests_get_4xx_with_reasons(offered, tmp_path):
    c = client(offered, tmp_path)
    assert "unknown ruleset" in c.post("/api/games", json={"ruleset": "chess"}).json()["error"]
    r = c.post("/api/games", json={"ruleset": "ys", "players": 1})   # (3 is Ys for 3, with its own rules)
    assert r.status_code == 400 and "4 players, not 1" in r.json()["error"]
    r = c.post("/api/games", json={"ruleset": "caylus", "variant": "nope"})
    assert r.status_code == 400 and "simplified_favor" in r.json()["error"]
    r = c.post("/api/games", json={"ruleset": "caylus", "players": 3, "agents": ["human"] + ["random"] * 3})
    assert r.status_code == 400 and r.json()["error"] == "4 agents given for 3 players"
    assert c.post("/api/games", content=b"{not json").status_code == 400
    g = new_game(c, "caylus", 3, ["human", "random"])
    url = api(g["seats"][0]["url"])
    gid = g["gid"]
    # a stale or foreign token
    r = c.get("/api/t/%s/%s" % (gid, "x" * 22))
    assert r.status_code == 403 and "token" in r.json()["error"]
    assert c.get("/api/t/nosuchgame/abc").status_code == 404
    state = c.get(url).json()
    while not state["your_turn"]:
        state = c.post(url + "/advance").json()
    # an option posted by hand that is not legal: the reason and the legal ones
    r = c.post(url + "/move", json={"option": "place:nowhere", "n": state["decisions"]})
    assert r.status_code == 400
    assert "not legal" in r.json()["error"] and state["view"]["options"][0]["id"] in r.json()["error"]
    # a stale page (another decision was made since)
    r = c.post(url + "/move", json={"option": state["view"]["options"][0]["id"], "n": state["decisions"] - 1})
    assert r.status_code == 409 and "stale" in r.json()["error"]
    assert c.post(url + "/move", json=["x"]).status_code == 400
    assert c.get(url + "?at=abc").status_code == 400
    why = c.get(url + "/why", params={"option": "place:nowhere"})
    assert why.status_code == 200 and why.json()["why"]
    # the server is still serving
    assert c.get(url).status_code == 200


def test_a_token_opens_its_own_seat_only(offered, tmp_path):
    c = client(offered, tmp_path)
    g = new_game(c, "caylus1303", 3, ["human", "human", "random"])
    a, b = (api(s["url"]) for s in g["seats"])
    sa, sb = c.get(a).json(), c.get(b).json()
    assert sa["seat"] == 0 and sb["seat"] == 1
    # a seat's token with another game's id is refused
    other = new_game(c, "caylus1303", 3, ["human", "random"])
    tok = g["seats"][0]["url"].rsplit("/", 1)[1]
    assert c.get("/api/t/%s/%s" % (other["gid"], tok)).status_code == 403
    # nobody moves for another seat
    mover = sa if sa["your_turn"] else sb
    idle = b if mover is sa else a
    if mover["your_turn"]:
        r = c.post(idle + "/move", json={"option": mover["view"]["options"][0]["id"]})
        assert r.status_code == 409 and "not your decision" in r.json()["error"]


def test_a_game_survives_a_restart(offered, tmp_path):
    c = client(offered, tmp_path)
    g = new_game(c, "caylus", 3, ["human", "random"])
    url = api(g["seats"][0]["url"])
    state = c.get(url).json()
    for _ in range(30):
        if state["your_turn"]:
            state = c.post(url + "/move", json={"option": state["view"]["options"][-1]["id"]}).json()
        else:
            state = c.post(url + "/advance").json()
    c2 = client(offered, tmp_path)         # a new server on the same save folder
    again = c2.get(url).json()
    assert again["decisions"] == state["decisions"] and again["view"] == state["view"]
    assert again["log"] == state["log"]


def _hidden_pieces_ok(state, me):
    """No piece of another seat that is face down (to the others) shows its value."""
    def pieces(v):
        for t in v["tracks"]:
            for cell in t["cells"]:
                yield from cell.get("pieces") or []
        for g in v["groups"]:
            for sp in g["spaces"]:
                yield from sp["pieces"]
        for p in v["panels"]:
            for grp in p["pieces"]:
                yield from grp["pieces"]
    for pc in pieces(state["view"]):
        if pc["owner"] != me and not pc["face_up"]:
            assert pc["value"] is None, pc


def test_ys_seat_never_sees_other_brokers_or_bids(offered, tmp_path):
    c = client(offered, tmp_path)
    g = new_game(c, "ys", 4, ["human", "random"], seed=5)
    seen = []
    end = play_to_end(c, api(g["seats"][0]["url"]), random.Random(5), seen)
    assert end["result"]["scores"]
    bids = 0
    for state in seen:
        _hidden_pieces_ok(state, 0)
        log = state["log"]
        for i, entry in enumerate(log):
            # the round's last bid is followed at once by the reveal: only the others stay secret
            last = i + 1 == len(log) or "secret" not in log[i + 1]["prompt"].lower()
            if entry["player"] != 0 and "secret" in entry["prompt"].lower() and not last:
                bids += 1
                assert entry["text"] == "(hidden from you)", entry
    assert bids > 0


def test_caylus1303_points_stay_hidden_until_the_end(offered, tmp_path):
    c = client(offered, tmp_path)
    g = new_game(c, "caylus1303", 3, ["human", "random"], seed=3)
    seen = []
    play_to_end(c, api(g["seats"][0]["url"]), random.Random(3), seen)
    for state in seen:
        for panel in state["view"]["panels"]:
            pp = next(r for r in panel["resources"] if r["score"])
            if panel["seat"] != 0 and not state["finished"]:
                assert pp["value"] == {"hidden": True}, (panel, state["decisions"])
        # and the log never names how many points another seat gained
        text = json.dumps(state["log"])
        assert "prestige" not in text.lower() or all(
            e["player"] == 0 or "prestige" not in e["text"].lower() for e in state["log"])


def _play(c, url, decisions):
    """The seat's state after ``decisions`` moves: its own first option when it decides, else a bot's move."""
    state = c.get(url).json()
    for _ in range(decisions):
        state = (c.post(url + "/move", json={"option": state["view"]["options"][0]["id"]}) if state["your_turn"]
                 else c.post(url + "/advance")).json()
    return state


def test_the_view_does_not_depend_on_what_the_seat_may_not_see(offered, tmp_path):
    """Reshuffle every value seat 0 may not see (determinize): seat 0's answer is the same."""
    c = client(offered, tmp_path)
    app = c.app
    g = new_game(c, "ys", 4, ["human", "random"], seed=9)
    url = api(g["seats"][0]["url"])
    state = _play(c, url, 40)
    del app
    from provost.tools.web.table import Table
    t = Table.load(str(tmp_path / (g["gid"] + ".json")))
    before = t.state_for(0)
    for seed in (1, 2, 3):
        t2 = Table.load(str(tmp_path / (g["gid"] + ".json")))
        t2.game = t.game.determinize(0, seed)
        assert t2.state_for(0)["view"] == before["view"]


def test_replay_table_and_view_page(tmp_path):
    from provost.interpreter.agents import make_agent, play_game
    from provost.interpreter.engine import Game
    from provost.interpreter.gamelog import GameLogWriter
    from provost.tools.web.replay_page import replay_html
    from provost.tools.web.table import Table

    log = tmp_path / "g.jsonl"
    game = Game.new("caylus", players=3, seed=4)
    with GameLogWriter(str(log), game, ["random"] * 3, {"ruleset": "caylus", "variant": None}) as w:
        play_game(game, [make_agent("random", 4, i) for i in range(3)], log=w)
    t = Table.from_log(str(log))
    assert t.replay and len(t.decisions) == game.s.decisions
    s = t.state_for(1, at=5)
    assert s["at"] == 5 and not s["your_turn"] and len(s["log"]) == len(t.decisions)
    html = replay_html(str(log))
    assert "provost-data" in html and "<script src" not in html and "http" not in html.split("provost-data")[0]


def test_the_finished_game_gives_a_log_that_replays(offered, tmp_path):
    from provost.interpreter.gamelog import replay

    c = client(offered, tmp_path)
    g = new_game(c, "caylus", 3, ["human", "random"], seed=11)
    url = api(g["seats"][0]["url"])
    r = c.get(url + "/log")
    assert r.status_code == 409 and "over" in r.json()["error"]
    play_to_end(c, url, random.Random(11), [])
    r = c.get(url + "/log")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    path = tmp_path / "downloaded.jsonl"
    path.write_text(r.text, encoding="utf-8")
    ok, message, game = replay(str(path))
    assert ok, message
    assert (tmp_path / (g["gid"] + ".jsonl")).read_text(encoding="utf-8") == r.text


def test_the_log_of_a_rule_file_with_any_name_downloads(tmp_path):
    """The finished game's log of a rule file named "caylus.fête€.rules" was a 500 (its name
    does not fit a Latin-1 header): the download names it in ASCII and, exactly, in filename*."""
    from urllib.parse import unquote

    from provost.tools.cli.commands_web import _offered

    rules = tmp_path / "caylus.fête€ \"x\".rules"
    rules.write_text('variant fete "Fete" extends caylus:\n    description "A party"\n')
    c = client(_offered(str(rules)), tmp_path / "saves")
    g = new_game(c, rules.name, 3, ["random"])
    url = api(g["seats"][0]["url"])
    play_to_end(c, url, random.Random(1), [])
    r = c.get(url + "/log")
    assert r.status_code == 200 and r.text.startswith('{"type": "header"')
    header = r.headers["content-disposition"]
    assert header.isascii() and header.count('"') == 2
    assert unquote(header.split("filename*=UTF-8''")[1]) == "provost-caylus.fête€ \"x\"-%s.jsonl" % g["gid"]


def test_log_entries_carry_option_ids_only_when_seen(offered, tmp_path):
    c = client(offered, tmp_path)
    g = new_game(c, "ys", 4, ["human", "random"], seed=5)
    url = api(g["seats"][0]["url"])
    state = _play(c, url, 60)
    for e in state["log"]:
        assert (e["option"] is None) == (e["text"] == "(hidden from you)")


def test_a_table_with_a_variant_file_resumes_from_any_folder(tmp_path, monkeypatch):
    """A variant file named by a relative path is kept by its absolute path in the table's save;
    a save naming a variant that is not a rule file is refused before anything is read."""
    import shutil
    from pathlib import Path

    from provost.dsl.diagnostics import RulesError
    from provost.tools.web.table import Table
    examples = Path(__file__).resolve().parent.parent / "rulesets" / "examples"
    shutil.copy(examples / "caylus.generous_king.rules", tmp_path / "mine.rules")
    monkeypatch.chdir(tmp_path)
    t = Table.new("caylus", "./mine.rules", 3, 5, ["human", "random"], str(tmp_path / "saves"))
    assert t.variant == str(tmp_path / "mine.rules")
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    save = tmp_path / "saves" / (t.gid + ".json")
    assert Table.load(str(save)).game.rs.variant == "generous_king"
    d = json.loads(save.read_text())
    d["variant"] = str(tmp_path / "token.txt")
    save.write_text(json.dumps(d))
    with pytest.raises(RulesError):
        Table.load(str(save))
    # nor its game's rules anything but a shipped ruleset or a rule file (a bare "token" was read)
    (tmp_path / "elsewhere" / "token").write_text("SECRET: x\n")
    for ruleset in ("token", str(tmp_path / "elsewhere" / "token"), None):
        save.write_text(json.dumps(dict(d, variant=None, ruleset=ruleset)))
        with pytest.raises(RulesError, match="E004") as e:
            Table.load(str(save))
        assert "SECRET" not in str(e.value) and "':'" not in str(e.value)


def test_a_game_of_a_changed_rule_file_is_not_resumed_on_other_rules(tmp_path):
    """A game of the user's own variant file, resumed by a restarted server after the file's
    rules changed, answered on the new rules as if they had been played from the start (the
    seats' 12 deniers became 3).  The table's save keeps the rules' digests now: laid out again
    the game goes on, changed it is refused with a 410; a shipped game's save is as before."""
    from provost.tools.cli.commands_web import _offered
    from provost.tools.web.table import Table

    rules = tmp_path / "caylus.rich.rules"
    text = 'variant rich "Rich" extends caylus:\n    description "More money"\n    replace let start_money = [9, 10, 10, 11]\n'
    rules.write_text(text)
    saves = tmp_path / "saves"
    c = client(_offered(str(rules)), saves)
    g = new_game(c, rules.name, 3, ["human", "random"])
    url = api(g["seats"][0]["url"])
    before = c.get(url).json()
    assert before["view"]["panels"][0]["resources"]
    rules.write_text("# laid out again\n" + text.replace("[9, 10, 10, 11]", "[9,10,10,11]"))
    again = client(_offered(str(rules)), saves).get(url)
    assert again.status_code == 200 and again.json()["view"] == before["view"]
    rules.write_text(text.replace("[9, 10, 10, 11]", "[1, 1, 1, 1]"))
    r = client(_offered(str(rules)), saves).get(url)
    assert r.status_code == 410 and "rules changed" in r.json()["error"] and "caylus.rich.rules" in r.json()["error"]
    shipped = Table.new("caylus", None, 3, 5, ["human", "random"], str(saves))
    assert "digest" not in json.loads((saves / (shipped.gid + ".json")).read_text())


def test_stepping_back_shows_the_rules_the_game_is_played_on(tmp_path):
    """The step-through of a game in play rebuilt the past from the rule file as it is now: once
    the file was edited, the board before decision 1 showed the new rules' start (3 deniers, not
    12), and once it was broken every step back was a 400."""
    from provost.tools.cli.commands_web import _offered

    rules = tmp_path / "caylus.rich.rules"
    text = 'variant rich "Rich" extends caylus:\n    description "More money"\n    replace let start_money = [9, 10, 10, 11]\n'
    rules.write_text(text)
    c = client(_offered(str(rules)), tmp_path / "saves")
    g = new_game(c, rules.name, 3, ["human", "random"])
    url = api(g["seats"][0]["url"])
    state = c.get(url).json()
    while state["decisions"] < 4:
        state = (c.post(url + "/move", json={"option": state["view"]["options"][-1]["id"], "n": state["decisions"]})
                 if state["your_turn"] else c.post(url + "/advance")).json()
    start = c.get(url + "?at=0").json()["view"]
    rules.write_text(text.replace("[9, 10, 10, 11]", "[1, 1, 1, 1]"))
    assert c.get(url + "?at=0").json()["view"] == start
    rules.write_text("garbage\n")
    r = c.get(url + "?at=2")
    assert r.status_code == 200 and r.json()["at"] == 2


def test_a_rule_failing_in_play_leaves_the_game_as_it_was_and_says_where(tmp_path):
    """A user's variant whose income fails in round 2 (a bad index, E100): the move that runs
    into it was answered "the rules do not load" and left the game part-way through it, nobody
    to decide, the page waiting for ever.  Now the game is as it was before that move, the
    answer is a 409 with the rule's place, and asking again says it again."""
    from provost.tools.cli.commands_web import _offered

    rules = tmp_path / "caylus.crash.rules"
    rules.write_text('variant crash "Crash" extends caylus:\n    description "x"\n'
                     '    replace step income.income:\n        each player in turn_order:\n'
                     '            gain [1, 2][round] denier\n')
    c = client(_offered(str(rules)), tmp_path / "saves")
    g = new_game(c, rules.name, 3, ["human", "random"])
    url = api(g["seats"][0]["url"])
    state = c.get(url).json()
    for _ in range(500):
        r = (c.post(url + "/move", json={"option": state["view"]["options"][-1]["id"], "n": state["decisions"]})
             if state["your_turn"] else c.post(url + "/advance"))
        if r.status_code != 200:
            break
        state = r.json()
    assert r.status_code == 409, r.text
    assert "caylus.crash.rules:5:18: error: E100, a rule failed while playing" in r.json()["error"]
    assert "as it was before that move" in r.json()["error"]
    assert "no entry" not in r.json()["error"] and str(tmp_path) not in r.json()["error"]
    after = c.get(url).json()
    assert after["decisions"] == state["decisions"] and after["view"] == state["view"]
    assert after["your_turn"] or after["bot_to_move"]
    again = (c.post(url + "/move", json={"option": state["view"]["options"][-1]["id"], "n": state["decisions"]})
             if after["your_turn"] else c.post(url + "/advance"))
    assert again.status_code == 409 and "E100" in again.json()["error"]


PEEK = """variant peek "Peek" extends ys:
    description "A bid reads the hidden ship deck"
    replace step bidding.bids:
        each player in turn_order:
            choose "Bid two brokers (secretly)":
                option bid(b in combinations(piece_values(broker, screen), 2)):
                    place_piece broker, b[0], screen, bid, down
                    place_piece broker, b[1], screen, bid, down
                    gain [0][index(ships, first(ship_deck))] vp
        gather_pieces broker, bid, front
        reveal_pieces broker, front
"""


def test_a_rule_failing_in_play_tells_the_seat_where_not_what_it_read(tmp_path, caplog):
    """The failing rule indexes a list by the ship deck's top card, which no seat sees: its
    message (``no entry 3 in [0]``) told the seat which ship comes next.  The seat is told where
    the rules failed and what kind of failure, the server's console the whole diagnostic."""
    from provost.tools.cli.commands_web import _offered

    rules = tmp_path / "ys.peek.rules"
    rules.write_text(PEEK)
    c = client(_offered(str(rules)), tmp_path / "saves")
    g = new_game(c, rules.name, 4, ["human"] * 4, seed=1)
    urls = [api(s["url"]) for s in g["seats"]]
    state = next(s for s in (c.get(u).json() for u in urls) if s["your_turn"])
    url = urls[state["seat"]]
    option = state["view"]["options"][0]["id"]
    with caplog.at_level("ERROR", logger="provost.web"):
        r = c.post(url + "/move", json={"option": option, "n": state["decisions"]})
    assert r.status_code == 409, r.text
    assert r.json()["error"] == (
        "the rules fail while playing '%s', so the game cannot go on this way: ys.peek.rules:9:26: error: E100, "
        "a rule failed while playing (a bad index, a missing value). The game is as it was before that move. "
        "The rule's own message is on the server's console." % option)
    said = "\n".join(r.getMessage() for r in caplog.records)
    assert "%s:9:26: error: while playing: no entry " % rules in said and "first(ship_deck)" in said
    assert c.get(url).json() == state


def test_a_rule_failing_in_a_games_setup_tells_where_not_what_it_dealt(tmp_path, caplog):
    """The first decision's option reads the hidden deck's top card (dealt by the setup) as an
    index: the new game is refused with the rule's place, not the card (the console has it)."""
    from provost.tools.cli.commands_web import _offered

    rules = tmp_path / "deck.rules"
    rules.write_text("game g:\n    score pp\n    players 2..2\n    rounds p\n    max_rounds 1\n"
                     "resource pp\norder turn_order\nenum cards c1, c2, c3, c4, c5\nzone deck visible none\n"
                     "setup:\n    put cards, deck\n    shuffle_zone deck\n"
                     "phase p:\n    each player in turn_order:\n        choose \"Pick\":\n"
                     "            option a: nothing\n"
                     "            option b when [1, 2][index(cards, first(deck))] > 5: nothing\n")
    c = client(_offered(str(rules)), tmp_path / "saves")
    with caplog.at_level("ERROR", logger="provost.web"):
        r = c.post("/api/games", json={"ruleset": rules.name, "players": 2, "agents": ["human"], "seed": 2})
    assert r.status_code == 400, r.text
    assert r.json()["error"].startswith("the rules fail while setting the game up: deck.rules:17:27: error: E100, ")
    assert "no entry" not in r.json()["error"] and str(tmp_path) not in r.json()["error"]
    assert "no entry" in "\n".join(r.getMessage() for r in caplog.records)


def test_an_internal_error_says_its_kind_not_its_message(offered, tmp_path, monkeypatch, caplog):
    """A bug's message may hold anything the game holds (a hidden card's name): the answer names
    the exception's kind only, the console has the traceback."""
    from provost.tools.web.table import Table

    c = client(offered, tmp_path)
    g = new_game(c, "ys", 4, ["human"] * 4, seed=5)
    monkeypatch.setattr(Table, "state_for", lambda self, seat, at=None: {}["hidden_card_s17"])
    with caplog.at_level("ERROR", logger="provost.web"):
        r = c.get(api(g["seats"][0]["url"]))
    assert r.status_code == 500 and r.json()["error"] == "internal error (KeyError); the server's console says more"
    assert any("hidden_card_s17" in str(rec.exc_info[1]) for rec in caplog.records if rec.exc_info)


@pytest.mark.parametrize("ruleset, players", [("ys", 2), ("ys", 3), ("caylus", 2)])
def test_a_variant_file_on_the_rules_for_a_count_resumes(tmp_path, ruleset, players):
    """`serve ys --variant ./mine.rules --players 2`: the table's save names the variant file
    alone, and loading it put the file on Ys for 4 (E001, the game lost at the next restart).
    It is loaded for the table's count, as a log's variant file is."""
    from provost.tools.web.table import Table

    mine = tmp_path / ("%s.mine.rules" % ruleset)
    mine.write_text('variant mine "Mine" extends %s:\n    description "x"\n' % ruleset)
    t = Table.new(ruleset, str(mine), players, 5, ["human"], str(tmp_path / "saves"))
    for _ in range(5):
        t._apply(t.game.legal_options()[0])
    t.save()
    again = Table.load(str(tmp_path / "saves" / (t.gid + ".json")))
    assert again.game.rs.variant == t.game.rs.variant and again.game.observation(0) == t.game.observation(0)


@pytest.mark.parametrize("named", ["absolute", "relative"])
def test_the_rulesets_list_names_a_rule_file_not_the_servers_folders(tmp_path, monkeypatch, named):
    """`provost serve /home/me/games/caylus.rich.rules` listed the file by its absolute path in
    /api/rulesets (and the page's defaults), telling a remote viewer where the server keeps it.
    It is listed by its name, or by the relative path it was named by; a new game of it starts
    by that name, and a file broken since is reported by its name too."""
    from provost.tools.cli.commands_web import _offered

    (tmp_path / "games").mkdir()
    rules = tmp_path / "games" / "caylus.rich.rules"
    text = 'variant rich "Rich" extends caylus:\n    description "More money"\n'
    rules.write_text(text)
    monkeypatch.chdir(tmp_path)
    given, shown = (str(rules), "caylus.rich.rules") if named == "absolute" else (["games/caylus.rich.rules"] * 2)
    offered = _offered(given)
    c = TestClient(create_app(offered, {"ruleset": offered[0]["ruleset"]}, str(tmp_path / "saves")),
                   raise_server_exceptions=False)
    info = c.get("/api/rulesets")
    assert info.json()["rulesets"][0]["ruleset"] == shown and info.json()["defaults"]["ruleset"] == shown
    assert str(tmp_path) not in info.text
    monkeypatch.chdir(tmp_path / "games")           # (the server loads the file it was named, wherever it runs)
    g = new_game(c, shown, 3, ["human", "random"])
    assert c.get(api(g["seats"][0]["url"])).status_code == 200
    r = c.post("/api/games", json={"ruleset": str(rules), "players": 3})
    assert r.status_code == 400 and "unknown ruleset" in r.json()["error"]
    rules.write_text(text + "    this is not a rule\n")
    r = c.post("/api/games", json={"ruleset": shown, "players": 3})
    assert r.status_code == 400 and "caylus.rich.rules:3:" in r.json()["error"]
    assert str(tmp_path) not in r.json()["error"]


def test_the_new_game_page_offers_the_counts_and_variants_and_ys_for_2_plays(offered, tmp_path):
    """Ys for 2 and 3 and Caylus for 2 have rules of their own: the page offers those counts, the
    server loads the rules for the count (as provost play --players does), and the game's log
    replays."""
    from provost.interpreter.gamelog import replay

    c = client(offered, tmp_path)
    info = {r["ruleset"]: r for r in c.get("/api/rulesets").json()["rulesets"]}
    assert info["ys"]["players"] == [2, 4] and info["caylus"]["players"] == [2, 5]
    assert {"two_players", "kings_favor"} <= {v["name"] for v in info["ys"]["variants"]}
    g = new_game(c, "ys", 2, ["human", "random"], seed=3)
    url = api(g["seats"][0]["url"])
    state = play_to_end(c, url, random.Random(3), [])
    assert state["finished"]
    path = tmp_path / "ys2.jsonl"
    path.write_text(c.get(url + "/log").text, encoding="utf-8")
    ok, message, game = replay(str(path))
    assert ok and game.s.humans == 2, message


def test_the_icon_is_served(offered, tmp_path):
    """No 404 for the icon a browser asks for; every page names it."""
    c = client(offered, tmp_path)
    for path in ("/favicon.ico", "/static/favicon.svg"):
        r = c.get(path)
        assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
        assert r.text.startswith("<svg")
    g = new_game(c, "caylus", 3, ["human", "human", "random"])
    for page in ("/", g["game"], g["seats"][0]["url"]):
        assert 'rel="icon" href="/static/favicon.svg"' in c.get(page).text, page


def _my_turn(c, url, until=lambda state: True, limit=500):
    """This seat's state at its next decision that ``until`` accepts (bots advance, the seat takes its last option)."""
    state = c.get(url).json()
    for _ in range(limit):
        if state["your_turn"] and until(state):
            return state
        if state["your_turn"]:
            state = c.post(url + "/move", json={"option": state["view"]["options"][-1]["id"]}).json()
        else:
            state = c.post(url + "/advance").json()
    raise AssertionError("no such decision")


def test_why_not_always_says_something(offered, tmp_path):
    """An empty question gets a 400 saying what to ask, not an answer about the option ''."""
    c = client(offered, tmp_path)
    g = new_game(c, "caylus", 3, ["human", "random"])
    url = api(g["seats"][0]["url"])
    state = _my_turn(c, url)
    for option in ("", "   "):
        r = c.get(url + "/why", params={"option": option})
        assert r.status_code == 400 and "ask about an option" in r.json()["error"]
        assert state["view"]["options"][0]["id"] in r.json()["error"]
    r = c.get(url + "/why")
    assert r.status_code == 400 and r.json()["error"]


def test_why_not_names_players_as_the_board_does(offered, tmp_path):
    """The explanation names the seat "Player 1", as the page does, not by its index."""
    c = client(offered, tmp_path)
    g = new_game(c, "caylus", 3, ["human", "random"], seed=1)
    url = api(g["seats"][0]["url"])
    placing = lambda state: any(o["id"] == "place:stables" for o in state["view"]["options"])
    state = _my_turn(c, url, placing)
    c.post(url + "/move", json={"option": "place:stables", "n": state["decisions"]})
    state = _my_turn(c, url, lambda state: any(o["id"].startswith("place:") for o in state["view"]["options"]))
    why = c.get(url + "/why", params={"option": "place:stables"}).json()["why"]
    assert "Player 1 already has a worker on Stables" in why and "player 0" not in why


def test_answers_name_the_rule_files_not_where_the_server_keeps_them(offered, tmp_path):
    """An option of another decision is explained with the rule's place: 'ys.rules:321:17', not
    the server's folders."""
    from provost.dsl.loader import shipped_dir

    c = client(offered, tmp_path)
    g = new_game(c, "ys", 4, ["human", "random"], seed=1)
    url = api(g["seats"][0]["url"])
    state = _my_turn(c, url)
    why = c.get(url + "/why", params={"option": "place:1"}).json()["why"]
    move = c.post(url + "/move", json={"option": "place:1", "n": state["decisions"]}).json()["error"]
    for text in (why, move):
        assert "ys.rules:" in text and shipped_dir() not in text and "/" not in text.split("ys.rules:")[0][-20:]


def test_the_first_player_is_named_as_players_are(offered, tmp_path):
    """Caylus 1303's first player (a counter holding a seat) is shown by the player's name, the
    one that opens the turn order, not as a seat number counted from 0."""
    c = client(offered, tmp_path)
    g = new_game(c, "caylus1303", 3, ["human", "random"], seed=1)
    view = c.get(api(g["seats"][0]["url"])).json()["view"]
    first = next(x for x in view["shared"]["counters"] if x["name"] == "first_player")
    opener = next(p["name"] for p in view["panels"] if p["order"].get("turn order") == 1)
    assert first["value"] == opener and first["value"] in view["players"]


def test_options_that_read_alike_are_told_apart_by_what_the_seat_sees(offered, tmp_path):
    """Caylus's neutral carpenter and its printed one are both titled "Carpenter": their buttons
    say where each stands on the road (and whose a building is), from the seat's own board."""
    c = client(offered, tmp_path)
    for seed in (1, 2):
        g = new_game(c, "caylus", 3, ["human", "random"], seed=seed)
        state = _my_turn(c, api(g["seats"][0]["url"]), lambda s: any(o["id"].startswith("place:") for o in s["view"]["options"]))
        labels = [o["label"] for o in state["view"]["options"]]
        assert len(set(labels)) == len(labels), labels
        road = {cell["tile"]: cell["index"] for cell in state["view"]["tracks"][0]["cells"] if cell["tile"]}
        carpenters = {o["id"]: o["label"] for o in state["view"]["options"] if o["label"].startswith("Place: Carpenter")}
        assert len(carpenters) == 2, carpenters
        for oid, label in carpenters.items():
            assert label == "Place: Carpenter (road %d)" % road[oid.split(":")[1]], label
        # a label told nobody apart keeps its plain words
        assert "Place: Gate" in labels


def test_the_log_tells_apart_what_the_buttons_told_apart(offered, tmp_path):
    """A move taken from options that read alike is logged with the words its button had
    ("Place: Carpenter (road 2)"), for the seat that took it and for a seat watching; it is
    still logged after a restart, and a move hidden from a seat stays hidden from it."""
    c = client(offered, tmp_path)
    g = new_game(c, "caylus", 3, ["human", "human", "random"], seed=1)
    me, other = api(g["seats"][0]["url"]), api(g["seats"][1]["url"])
    for _ in range(500):
        state = c.get(me).json()
        if state["your_turn"] and sum(o["label"].startswith("Place: Carpenter") for o in state["view"]["options"]) == 2:
            break
        watcher = c.get(other).json()
        if state["your_turn"] or watcher["your_turn"]:
            url, s = (me, state) if state["your_turn"] else (other, watcher)
            c.post(url + "/move", json={"option": s["view"]["options"][-1]["id"], "n": s["decisions"]})
        else:
            c.post(me + "/advance")
    else:
        raise AssertionError("no decision between two carpenters")
    button = next(o for o in state["view"]["options"] if o["label"].startswith("Place: Carpenter ("))
    state = c.post(me + "/move", json={"option": button["id"], "n": state["decisions"]}).json()
    for log in (state["log"], c.get(other).json()["log"]):
        entry = next(e for e in log if e["option"] == button["id"])
        assert entry["text"] == button["label"], (entry, button)
    again = client(offered, tmp_path)
    assert again.get(me).json()["log"] == state["log"]
    # a seat's hidden moves stay hidden from the others (Ys's secret bids)
    g = new_game(c, "ys", 4, ["human", "random"], seed=5)
    url = api(g["seats"][0]["url"])
    state = _play(c, url, 60)
    hidden = [e for e in state["log"] if e["option"] is None]
    assert hidden and all(e["text"] == "(hidden from you)" for e in hidden)


def test_a_game_of_bots_only_is_watched_through_any_seat(offered, tmp_path):
    """Nobody plays it: every seat's link is given (with none, nothing would make the bots move),
    and a seat of a bot shows its board with no decision of its own to make."""
    c = client(offered, tmp_path)
    g = new_game(c, "caylus1303", 3, ["random"], seed=4)
    assert [s["seat"] for s in g["seats"]] == [0, 1, 2]
    assert "Player 3" in c.get(g["game"]).text
    url = api(g["seats"][1]["url"])
    state = c.get(url).json()
    for _ in range(2000):
        assert not state["your_turn"] and state["view"]["options"] == []
        if state["finished"]:
            break
        assert state["bot_to_move"]
        state = c.post(url + "/advance").json()
    assert state["finished"] and c.get(url + "/log").status_code == 200
    # a human among bots still gets the human seats' links only
    assert [s["seat"] for s in new_game(c, "caylus1303", 3, ["random", "human"])["seats"]] == [1, 2]


def test_no_route_and_a_wrong_method_say_why_as_json(offered, tmp_path):
    c = client(offered, tmp_path)
    r = c.get("/api/nothing")
    assert r.status_code == 404 and "/api/nothing" in r.json()["error"]
    r = c.get("/api/games")
    assert r.status_code == 405 and "POST" in r.json()["error"]
    g = new_game(c, "caylus", 3, ["human", "random"])
    r = c.post(api(g["seats"][0]["url"]) + "/move", json={"option": "pass", "n": -1})
    assert r.status_code == 400 and "number of decisions" in r.json()["error"]


def test_each_variant_is_offered_with_the_counts_it_is_played_for(offered):
    counts = {(r["ruleset"], v["name"]): v["players"] for r in offered for v in r["variants"]}
    assert counts[("ys", "two_players")] == counts[("ys", "strong_neutral")] == [2, 2]
    assert counts[("ys", "three_players_short")] == [3, 3]
    assert counts[("ys", "kings_favor")] == [3, 4]
    assert counts[("caylus", "two_players")] == [2, 2] and counts[("caylus", "first_edition")] == [2, 5]


def test_the_spectators_link_shows_what_every_seat_sees_and_nothing_more(offered, tmp_path):
    """The spectators' link: the public view (the engine's observation of the seat after the last),
    no decision, and in its log only moves that every seat's log names."""
    c = client(offered, tmp_path)
    g = new_game(c, "ys", 4, ["human", "random"], seed=3)
    watch, seats = api(g["watch"]), [api(s["url"]) for s in g["seats"]]
    assert g["watch"] in c.get(g["game"]).text                       # on the page of every seat's link
    _my_turn(c, seats[0], lambda state: state["decisions"] >= 40)    # past the secret bids, into placing
    state = c.get(watch).json()
    assert state["spectator"] and state["seat"] == 4 and not state["your_turn"]
    assert state["view"]["options"] == [] and state["decisions"] >= 40
    logs = [c.get(url).json()["log"] for url in seats]
    for i, line in enumerate(state["log"]):
        if line["option"] is not None:                # the spectator may know it: so may every seat
            assert all(log[i]["option"] == line["option"] for log in logs), line
    assert any(line["option"] is None for line in state["log"])      # the secret bids are not named
    assert any(line["option"] is not None for line in state["log"])
    # Each seat sees the brokers behind its own screen; the spectators see none of them.
    def screen(view, seat):
        return [pc.get("value") for p in view["panels"] if p["seat"] == seat
                for grp in p["pieces"] if grp["place"] == "screen" for pc in grp["pieces"]]
    assert all(v is not None for v in screen(c.get(seats[0]).json()["view"], 0))
    assert all(screen(state["view"], p) and set(screen(state["view"], p)) == {None} for p in range(4))
    r = c.post(watch + "/move", json={"option": "pass", "n": state["decisions"]})
    assert r.status_code == 409
    assert c.get(watch + "/why", params={"option": "pass"}).status_code == 409


@pytest.mark.parametrize("secret", ["%C3%A9t%C3%A9", "%EF%BF%BD", "%FF%FE", "caf%C3%A9" * 6])
def test_a_link_with_any_characters_in_its_token_or_key_is_refused_not_a_crash(offered, tmp_path, secret):
    """A token or key that is not ASCII (a link typed with an accent, bytes that are no UTF-8)
    was compared with ``compare_digest``, which raises on such strings: a 500 instead of a 403."""
    c = client(offered, tmp_path)
    g = new_game(c, "caylus", 3, ["human", "random"])
    gid = g["gid"]
    for method, path in (("GET", "/t/%s/%s"), ("GET", "/api/t/%s/%s"), ("GET", "/api/t/%s/%s/why?option=pass"),
                         ("GET", "/api/t/%s/%s/log"), ("POST", "/api/t/%s/%s/advance"), ("GET", "/game/%s/%s")):
        r = c.request(method, path % (gid, secret))
        assert r.status_code == 403, (path, r.text)
        assert "link" in r.json()["error"]
    r = c.post("/api/t/%s/%s/move" % (gid, secret), json={"option": "pass"})
    assert r.status_code == 403 and "token" in r.json()["error"]
    assert c.get(api(g["seats"][0]["url"])).status_code == 200      # the right token still opens its seat


@pytest.mark.parametrize("change,words", [
    ({"tokens": [1, 2, 3]}, "tokens"), ({"tokens": "abc"}, "tokens"), ({"tokens": ["a"]}, "tokens"),
    ({"tokens": ["a", "a", "a"]}, "tokens"), ({"agents": "human"}, "agents"), ({"agents": [1, 2, 3]}, "agents"),
    ({"agents": ["human", "human", "mcts"]}, "agents"), ({"decisions": [1]}, "decisions"),
    ({"decisions": "pass"}, "decisions"), ({"players": "3"}, "players"), ({"replay": "yes"}, "replay"),
    ({"watch": 5}, "watch"), ({"host": ["k"]}, "host"), ({"variant": 5}, "variant"),
    ({"gid": "another"}, "not of"), ({"gid": None}, "not of"),
])
def test_a_damaged_save_is_refused_with_a_reason(offered, tmp_path, change, words):
    """A save is untrusted: one whose tokens are not strings was a 500 on every request, one with
    fewer tokens than seats a 500 on the page of the seats' links, and one whose id is not its
    file's name was served as that other game.  Each is refused (410) saying what is wrong."""
    c = client(offered, tmp_path)
    g = new_game(c, "caylus", 3, ["human", "human", "random"])
    save = json.loads((tmp_path / (g["gid"] + ".json")).read_text(encoding="utf-8"))
    damaged = {**save, "gid": "damaged", **change}
    (tmp_path / "damaged.json").write_text(json.dumps(damaged), encoding="utf-8")
    fresh = client(offered, tmp_path)          # a server started on that folder
    token = save["tokens"][0]
    for path in ("/api/t/damaged/%s" % token, "/game/damaged/%s" % save["host"], "/t/damaged/%s" % token):
        r = fresh.get(path)
        assert r.status_code == 410, (path, r.text)
        assert "damaged" in r.json()["error"] and words in r.json()["error"], r.json()
    # and the game it was copied from is untouched, under its own id
    assert fresh.get(api(g["seats"][1]["url"])).json()["gid"] == g["gid"]


@pytest.mark.parametrize("text", ["{", "[]", "\ufeff\ufeff", "{\"gid\": \"damaged\"}"])
def test_a_save_that_is_no_table_is_refused_with_a_reason(offered, tmp_path, text):
    (tmp_path / "damaged.json").write_text(text, encoding="utf-8")
    (tmp_path / "binary.json").write_bytes(b"\xff\xfe\x00")
    c = client(offered, tmp_path)
    for gid in ("damaged", "binary"):
        r = c.get("/api/t/%s/token" % gid)
        assert r.status_code == 410 and "damaged" in r.json()["error"], r.text


@pytest.mark.parametrize("agents", [None, [], ["greedy"], ["greedy"] * 6])
def test_a_replay_offers_every_seat_whatever_agents_its_log_names(offered, tmp_path, agents):
    """A log need not name its agents (``provost replay`` takes it): its replay offered no seat to
    watch, or only the seats named; a log naming more agents than seats made the new-game page a 500."""
    from provost.interpreter.agents import make_agent, play_game
    from provost.interpreter.engine import Game
    from provost.interpreter.gamelog import GameLogWriter
    from provost.tools.web.table import Table

    log = tmp_path / "g.jsonl"
    game = Game.new("caylus", players=3, seed=4)
    with GameLogWriter(str(log), game, ["random"] * 3, {"ruleset": "caylus", "variant": None}) as w:
        play_game(game, [make_agent("random", 4, i) for i in range(3)], log=w)
    lines = log.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    if agents is None:
        del header["agents"]
    else:
        header["agents"] = agents
    log.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", encoding="utf-8")
    t = Table.from_log(str(log), str(tmp_path))
    c = TestClient(create_app(offered, {}, str(tmp_path), replay=t), raise_server_exceptions=False)
    info = c.get("/api/rulesets")
    assert info.status_code == 200, info.text
    links = info.json()["replay_links"]
    assert [link["seat"] for link in links] == [0, 1, 2]
    for link in links:
        state = c.get(api(link["url"])).json()
        assert state["replay"] and state["finished"] and len(state["log"]) == game.s.decisions
    assert c.get(t.watch_link()).status_code == 200
    # and the replay resumes after a restart
    again = client(offered, tmp_path).get(api(links[2]["url"]))
    assert again.status_code == 200 and again.json()["seat"] == 2


@pytest.mark.parametrize("text", ['{"option": "\\ud800", "n": %d}', '{"option": "place:\\udfff"}',
                                  '{"option": "pass", "x": ["\\ud83d"]}'])
def test_half_a_character_in_a_body_is_a_400_not_a_500(offered, tmp_path, text):
    """JSON may escape a lone surrogate ("\\ud800"): the option quoted in the refusal could not be
    sent as UTF-8, and the answer was a bare "Internal Server Error" (500)."""
    c = client(offered, tmp_path)
    g = new_game(c, "caylus", 3, ["human", "random"])
    url = api(g["seats"][0]["url"])
    n = _my_turn(c, url)["decisions"]
    body = (text % n if "%d" in text else text).encode("ascii")
    r = c.post(url + "/move", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 400 and "surrogate" in r.json()["error"], r.text
    for field in ('"ruleset": "\\ud800"', '"ruleset": "ys", "agents": ["human", "\\udc00"]',
                  '"ruleset": "caylus", "variant": "\\ud800"'):
        r = c.post("/api/games", content=("{%s}" % field).encode("ascii"), headers={"content-type": "application/json"})
        assert r.status_code == 400 and "surrogate" in r.json()["error"], r.text
    assert c.get(url).json()["decisions"] == n          # nothing was played


def test_what_the_console_prints_of_a_request_has_its_control_characters_escaped(offered, tmp_path, monkeypatch, caplog):
    """An internal error's line on the console quotes the request's path, and its traceback the
    exception's message: a path holding an escape sequence could clear or rewrite the terminal."""
    import logging

    from provost.tools.web.table import Table

    c = client(offered, tmp_path)
    g = new_game(c, "caylus", 3, ["human", "random"])

    def fails(self, token):
        raise RuntimeError("token " + token)
    monkeypatch.setattr(Table, "seat_of", fails)
    with caplog.at_level("ERROR", logger="provost.web"):
        r = c.get("/api/t/%s/%%1b[2J%%1b]0;owned%%07%%E2%%80%%AE" % g["gid"])
    assert r.status_code == 500
    (record,) = [rec for rec in caplog.records if rec.name == "provost.web"]
    printed = logging.Formatter().format(record)
    assert "\\x1b[2J\\x1b]0;owned\\x07\\u202e" in printed.splitlines()[0]
    assert "RuntimeError: token \\x1b[2J" in printed
    assert not any(ch in printed for ch in "\x1b\x07\u202e")
    assert printed.count("\n") >= 2                # the traceback keeps its lines


@pytest.mark.parametrize("ruleset,players", [("caylus", 3), ("ys", 4)])
def test_bots_go_on_after_a_restart_as_they_would_have(offered, tmp_path, ruleset, players):
    """Same seed, same game: a bot draws from its own seeded generator, which a restarted server
    made anew, so from the first bot move after a restart the game went another way."""
    agents = ["random", "greedy", "random", "greedy"][:players]

    def bots_play(restart_at=None):
        c = client(offered, tmp_path / ("restarted" if restart_at else "straight"))
        url = api(new_game(c, ruleset, players, agents, seed=5)["seats"][0]["url"])
        for moves in range(1, 120):
            state = c.post(url + "/advance").json()
            if moves == restart_at:
                c = client(offered, tmp_path / "restarted")      # a new server on the same saves
        return state["log"]

    straight, restarted = bots_play(), bots_play(restart_at=40)
    assert len(straight) == len(restarted) > 40
    assert [line["option"] for line in restarted] == [line["option"] for line in straight]
