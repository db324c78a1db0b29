"""The board in a real browser: Playwright for Python driving Chromium.

A server (uvicorn, in a thread) on a free port; each game puts one human seat among random bots
and clicks its decisions until the game is over.  Skips when starlette, uvicorn or playwright is
absent, or when no Chromium can be launched.  Chromium: Playwright's own download, or a system
one (``PROVOST_CHROMIUM``, else ``chromium`` / ``chromium-browser`` / ``google-chrome`` on PATH).
"""
from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import socket
import threading
import time
import urllib.request

import pytest

pytest.importorskip("starlette")
uvicorn = pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BREWERY = os.path.join(ROOT, "rulesets", "examples", "caylus.brewery.rules")


def _chromium() -> str | None:
    env = os.environ.get("PROVOST_CHROMIUM")
    if env:
        return env
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        exe = _chromium()
        try:
            b = p.chromium.launch(executable_path=exe, args=["--no-sandbox"]) if exe else p.chromium.launch()
        except Exception as e:          # no browser on this machine
            pytest.skip("no Chromium to drive: %s" % str(e).splitlines()[0])
        yield b
        b.close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def _serving(app):
    """The app served on a free port, in a thread: yields its base address."""
    port = _free_port()
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    th = threading.Thread(target=srv.run, daemon=True)
    th.start()
    base = "http://127.0.0.1:%d" % port
    for _ in range(100):
        try:
            urllib.request.urlopen(base + "/api/rulesets")
            break
        except OSError:
            time.sleep(0.1)
    try:
        yield base
    finally:
        srv.should_exit = True
        th.join(10)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from provost.tools.cli.commands_web import _offered
    from provost.tools.web.app import create_app

    offered = _offered(BREWERY)
    with _serving(create_app(offered, {}, str(tmp_path_factory.mktemp("saves")))) as base:
        yield base, offered


def _post(url, data):
    req = urllib.request.Request(url, data=json.dumps(data).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    return json.load(urllib.request.urlopen(req))


def _play_by_clicking(page, rng, limit=2000):
    """Click one of the decision's buttons until the result shows; returns the clicks made."""
    clicks = 0
    for _ in range(limit):
        page.wait_for_selector("button.opt, #result", timeout=60000)
        if page.locator("#result").count():
            return clicks
        buttons = page.locator("button.opt")
        n = buttons.count()
        if n == 0:
            continue
        before = page.locator("#app").get_attribute("data-n")
        buttons.nth(rng.randrange(n)).click()
        clicks += 1
        # this decision answered (the page moved on) before looking for the next one
        page.wait_for_function("n => document.getElementById('app').dataset.n !== n", arg=before, timeout=60000)
    raise AssertionError("the game did not end by clicking")


@pytest.mark.parametrize("ruleset,players", [("caylus", 3), ("caylus1303", 2), ("ys", 4), ("ys", 2)])
def test_a_whole_game_by_clicking(browser, server, ruleset, players):
    base, _ = server
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(base + "/")
    page.select_option("#ruleset", ruleset)
    page.fill("#players", str(players))
    page.dispatch_event("#players", "change")
    selects = page.locator(".seatkind")
    assert selects.count() == players
    for i in range(1, players):
        selects.nth(i).select_option("random")
    page.fill("#seed", "3")
    page.click("#start")
    page.wait_for_url("**/t/**")
    page.goto(page.url + "?speed=0")
    # the board is drawn from the declarations
    page.wait_for_selector(".panel")
    assert page.locator(".panel").count() >= players
    clicks = _play_by_clicking(page, random.Random(3))
    assert clicks > 5
    assert "Game over" in page.locator("#result").inner_text()
    # the result beside the board: every player's place and score, the winners first, you named
    result = page.request.get(base + "/api" + page.url.split(base)[1].split("?")[0]).json()["result"]
    rows = page.locator("#standings tr[data-seat]")
    assert rows.count() == len(result["scores"])
    seats = [int(rows.nth(i).get_attribute("data-seat")) for i in range(rows.count())]
    assert set(seats[:len(result["winners"])]) == set(result["winners"])
    assert [result["scores"][s] for s in seats[len(result["winners"]):]] == \
        sorted((result["scores"][s] for s in seats[len(result["winners"]):]), reverse=True)
    assert all("winner" in (rows.nth(i).get_attribute("class") or "") for i in range(len(result["winners"])))
    assert "(you)" in page.locator("#standings tr[data-seat='0']").inner_text()
    href = page.locator("#gamelog").get_attribute("href")
    log = page.request.get(base + href)
    assert log.status == 200 and log.text().startswith('{"type": "header"')
    # the log names every decision, and the slider steps back through them
    total = page.locator("#log li").count()
    assert total > clicks
    page.locator("#slider").fill("1")
    page.wait_for_selector("text=Showing the board before decision 2")
    assert page.locator("#log li.future").count() == total - 1
    assert not errors, errors
    page.close()


def test_the_new_game_page_offers_each_games_variants_and_counts(browser, server):
    """The variant menu lists the game's variants (not their elements as text), and the player
    count goes down to the counts the variants give rules for (Ys for 2)."""
    base, _ = server
    page = browser.new_page()
    page.goto(base + "/")
    page.select_option("#ruleset", "caylus")
    page.wait_for_function("document.querySelectorAll('#variant option').length > 1")
    names = page.locator("#variant option").all_inner_texts()
    assert len(names) == 5 and not any("[object" in n for n in names), names
    page.select_option("#ruleset", "ys")
    page.wait_for_function("document.getElementById('players').min === '2'")
    assert page.locator("#players").get_attribute("max") == "4"
    page.select_option("#variant", "two_players")
    page.close()


def test_the_spectators_page_watches_without_a_seat(browser, server):
    base, _ = server
    g = _post(base + "/api/games", {"ruleset": "ys", "players": 4, "agents": ["human", "random"], "seed": 2})
    page = browser.new_page()
    page.goto(base + g["watch"] + "?speed=0")
    page.wait_for_selector("header .who")
    assert page.locator("header .who").inner_text() == "Watching: what every seat sees"
    assert page.locator("button.opt").count() == 0 and page.locator(".panel.you").count() == 0
    page.close()


def test_the_provost_and_the_road_are_on_the_board(browser, server):
    base, _ = server
    g = _post(base + "/api/games", {"ruleset": "caylus", "players": 3, "agents": ["human", "random"], "seed": 1})
    page = browser.new_page()
    page.goto(base + g["seats"][0]["url"] + "?speed=0")
    page.wait_for_selector("[data-track=road] .cell")
    assert page.locator("[data-track=road] .cell").count() == 28
    assert page.locator("[data-marker=provost]").count() == 1
    assert page.locator("[data-marker=bailiff]").count() == 1
    assert page.locator("[data-track=road] .cell.built").count() >= 6
    # a place that is not an option: the board says why
    page.wait_for_selector("button.opt")
    page.fill("#whyopt", "place:nowhere")
    page.click("#whybtn")
    page.wait_for_selector("#whytext")
    assert page.locator("#whytext").inner_text().strip()
    page.close()


def test_a_new_building_in_a_variant_file_is_on_the_board(browser, server):
    base, offered = server
    brewery = offered[0]["ruleset"]
    assert brewery.endswith("caylus.brewery.rules")
    g = _post(base + "/api/games", {"ruleset": brewery, "players": 3, "agents": ["human", "random"], "seed": 2})
    page = browser.new_page()
    page.goto(base + g["seats"][0]["url"] + "?speed=0")
    page.wait_for_selector(".supply")
    assert page.locator(".stock[data-kind=brewery]").count() == 1
    assert "Brewery" in page.locator(".stock[data-kind=brewery]").inner_text()
    page.close()


def test_a_seat_link_shows_that_seat_and_a_stale_token_is_refused(browser, server):
    base, _ = server
    g = _post(base + "/api/games", {"ruleset": "ys", "players": 4, "agents": ["human", "human", "random"], "seed": 4})
    page = browser.new_page()
    page.goto(base + g["seats"][1]["url"] + "?speed=0")
    page.wait_for_selector(".panel.you")
    assert page.locator(".panel.you").get_attribute("data-seat") == "1"
    r = page.request.get(base + "/api/t/%s/%s" % (g["gid"], "stale-token-0000000000"))
    assert r.status == 403 and "token" in r.json()["error"]
    page.close()


def test_seat_p_is_sent_nothing_of_q_hidden_in_the_browser(browser, server):
    """Every answer the page of seat 0 receives: others' face-down brokers without values."""
    base, _ = server
    g = _post(base + "/api/games", {"ruleset": "ys", "players": 4, "agents": ["human", "random"], "seed": 6})
    page = browser.new_page()
    bodies = []
    page.on("response", lambda r: bodies.append(r) if "/api/t/" in r.url else None)
    page.goto(base + g["seats"][0]["url"] + "?speed=0")
    rng = random.Random(6)
    for _ in range(25):
        page.wait_for_selector("button.opt", timeout=60000)
        before = page.locator("#app").get_attribute("data-n")
        page.locator("button.opt").nth(rng.randrange(page.locator("button.opt").count())).click()
        page.wait_for_function("n => document.getElementById('app').dataset.n !== n", arg=before, timeout=60000)
    checked = 0
    for r in bodies:
        try:
            state = r.json()
        except Exception:
            continue
        if "view" not in state:
            continue
        for grp in state["view"]["groups"]:
            for sp in grp["spaces"]:
                for pc in sp["pieces"]:
                    if pc["owner"] != 0 and not pc["face_up"]:
                        assert pc["value"] is None
                        checked += 1
        for panel in state["view"]["panels"]:
            if panel["seat"] != 0:
                for grp in panel["pieces"]:
                    assert all(pc["value"] is None for pc in grp["pieces"] if not pc["face_up"])
    assert checked > 0
    page.close()


def test_replay_page_steps_through_a_log(browser, tmp_path):
    from provost.interpreter.agents import make_agent, play_game
    from provost.interpreter.engine import Game
    from provost.interpreter.gamelog import GameLogWriter
    from provost.tools.web.replay_page import replay_html

    log = tmp_path / "g.jsonl"
    game = Game.new("caylus", players=3, seed=8)
    with GameLogWriter(str(log), game, ["random"] * 3, {"ruleset": "caylus", "variant": None}) as w:
        play_game(game, [make_agent("random", 8, i) for i in range(3)], log=w)
    out = tmp_path / "game.html"
    out.write_text(replay_html(str(log)), encoding="utf-8")
    page = browser.new_page()
    page.goto(out.as_uri())
    page.wait_for_selector("#result")
    # as the server's replay says it: the winners, and the seat watched (nobody is "You" in a replay)
    assert "winner: Player %d" % (game.winners()[0] + 1) in page.locator("#result").inner_text()
    assert page.locator("header .who").inner_text() == "Watching: Player 1"
    assert page.locator("#standings tr[data-seat]").first.get_attribute("data-seat") == str(game.winners()[0])
    assert "(you)" not in page.locator("#standings").inner_text()
    n = game.s.decisions
    assert page.locator("#stepat").inner_text().strip() == "%d / %d" % (n, n)
    page.locator("#slider").fill("0")
    page.wait_for_selector("#stepat:has-text('0 / %d')" % n)
    assert page.locator("[data-track=road] .worker").count() == 0
    for _ in range(8):
        page.click("#next")
    for _ in range(2):                  # the step button keeps the keyboard's focus when the board is drawn again
        page.keyboard.press("Enter")
    assert page.locator("#stepat").inner_text().strip() == "10 / %d" % n
    page.select_option("#seat", "2")
    assert page.locator(".panel.you").get_attribute("data-seat") == "2"
    page.close()


def test_pages_load_without_a_failed_request(browser, server):
    """No 404 (the icon) nor any other failed request or console error on the new-game page and a table."""
    base, _ = server
    g = _post(base + "/api/games", {"ruleset": "ys", "players": 4, "agents": ["human", "random"], "seed": 2})
    page = browser.new_page()
    failed = []
    page.on("console", lambda m: failed.append(m.text) if m.type == "error" else None)
    page.on("response", lambda r: failed.append("%d %s" % (r.status, r.url)) if r.status >= 400 else None)
    for url in ("/", g["game"], g["seats"][0]["url"] + "?speed=0"):
        page.goto(base + url, wait_until="networkidle")   # (the icon is asked for after the page loads)
        page.wait_for_timeout(500)
    page.wait_for_selector("button.opt")
    assert not failed, failed
    page.close()


def _seat_page(browser, server, viewport=None, ruleset="caylus", seed=1, speed=0):
    base, _ = server
    g = _post(base + "/api/games", {"ruleset": ruleset, "players": 3, "agents": ["human", "random"], "seed": seed})
    page = browser.new_page(viewport=viewport or {"width": 1400, "height": 1000})
    page.goto(base + g["seats"][0]["url"] + "?speed=%d" % speed)
    return page


def test_a_narrow_window_shows_the_decision_without_scrolling(browser, server):
    """Below 900 px the page is one column: the prompt and its buttons come first, and stay in
    sight while the board scrolls under them."""
    page = _seat_page(browser, server, {"width": 800, "height": 600})
    page.wait_for_selector("button.opt")
    for sel in ("#decision h2", "button.opt"):
        box = page.locator(sel).first.bounding_box()
        assert box and 0 <= box["y"] and box["y"] + box["height"] <= 600, (sel, box)
    page.mouse.wheel(0, 1500)
    page.wait_for_function("window.scrollY > 0")
    box = page.locator("button.opt").first.bounding_box()
    assert 0 <= box["y"] and box["y"] + box["height"] <= 600, box
    page.close()


@pytest.mark.parametrize("ruleset", ["ys", "caylus"])
def test_a_phone_wide_window_never_scrolls_sideways(browser, server, ruleset):
    """At 360 px nothing of the board widens the page (Ys's quotation scales, 0 to 14, made it
    526 px wide): a scale's row wraps under its label, and what is still too wide scrolls in its box."""
    page = _seat_page(browser, server, {"width": 360, "height": 800}, ruleset=ruleset)
    page.wait_for_selector("button.opt")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    for box in page.locator(".scalerow").all():
        b = box.bounding_box()
        assert b["x"] + b["width"] <= 360, b
    page.close()


def test_the_bot_speed_menu_is_with_the_decision_in_either_layout(browser, server):
    """The bot speed menu is one of the controls beside the decision: below 900 px it comes with
    the decision and the step-through, before the board (not under the player panels), in sight
    without scrolling; in a wide window it stays in the side column under the step-through."""
    page = _seat_page(browser, server, {"width": 800, "height": 600})
    page.wait_for_selector("button.opt")
    speed = page.locator("label:has-text('bot speed') select").bounding_box()
    assert speed and 0 <= speed["y"] and speed["y"] + speed["height"] <= 600, speed
    for sel in (".board", ".panels"):
        assert speed["y"] < page.locator(sel).first.bounding_box()["y"], sel
    page.close()
    page = _seat_page(browser, server)
    page.wait_for_selector("button.opt")
    speed = page.locator("label:has-text('bot speed') select").bounding_box()
    board = page.locator(".board").first.bounding_box()
    stepper = page.locator(".stepper").bounding_box()
    assert speed["x"] >= board["x"] + board["width"], (speed, board)
    assert stepper["y"] <= speed["y"] < stepper["y"] + stepper["height"], (speed, stepper)
    page.close()


def test_a_collapsed_section_stays_collapsed(browser, server):
    """The supply, once folded, stays folded when the bots' moves redraw the board, and after a reload."""
    page = _seat_page(browser, server, seed=3)
    page.wait_for_selector("button.opt")
    assert page.locator("details.supply").get_attribute("open") is not None
    page.click("details.supply > summary")
    page.wait_for_function("!document.querySelector('details.supply').open")
    for _ in range(2):                  # a move of ours, then the bots': the page is drawn again each time
        before = page.locator("#app").get_attribute("data-n")
        page.locator("button.opt").first.click()
        page.wait_for_function("n => document.getElementById('app').dataset.n !== n", arg=before)
        page.wait_for_selector("button.opt")
        assert page.locator("details.supply").get_attribute("open") is None
    page.reload()
    page.wait_for_selector("details.supply")
    assert page.locator("details.supply").get_attribute("open") is None
    page.click("details.supply > summary")          # and unfolded likewise
    # The choice is kept by the section's "toggle" event, which the browser fires in a task of
    # its own after the click: a reload at once could come first.
    page.wait_for_function("localStorage.getItem('provost.open.supply') === '1'")
    page.reload()
    page.wait_for_selector("details.supply[open]")
    page.close()


def test_a_reload_keeps_the_decision_stepped_to_and_the_bot_speed(browser, server):
    """Stepping back through the game, or choosing the bots' speed, then reloading the page: the
    same decision is shown and the same speed kept (a reload went back to now, at normal speed)."""
    page = _seat_page(browser, server, seed=5)
    while int(page.locator("#app").get_attribute("data-n") or 0) < 4:     # a few decisions to step back through
        page.wait_for_selector("button.opt")
        before = page.locator("#app").get_attribute("data-n")
        page.locator("button.opt").first.click()
        page.wait_for_function("n => document.getElementById('app').dataset.n !== n", arg=before)
    page.wait_for_selector("button.opt")
    page.select_option("#speed", "150")
    page.locator("#slider").fill("2")
    page.dispatch_event("#slider", "change")
    page.wait_for_selector("text=Showing the board before decision 3")
    total = int(page.locator("#app").get_attribute("data-n"))
    page.reload()
    page.wait_for_selector("text=Showing the board before decision 3")
    assert page.locator("#stepat").inner_text().strip() == "2 / %d" % total
    assert page.input_value("#speed") == "150"
    page.click("text=Back to now")
    page.wait_for_selector("button.opt")
    page.reload()
    page.wait_for_selector("button.opt")
    assert page.locator("#stepat").inner_text().strip() == "%d / %d" % (total, total)
    page.close()


def test_stepping_back_and_forth_while_waiting_asks_the_server_once_at_a_time(browser, server):
    """A seat waiting for another asks the server every 1.5 s.  Each step back and "Back to now"
    started one more round of asking, never stopped: after five, six requests every 1.5 s."""
    base, _ = server
    g = _post(base + "/api/games", {"ruleset": "caylus", "players": 3, "agents": ["human", "human", "human"], "seed": 1})
    states = {s["url"]: json.load(urllib.request.urlopen(base + "/api" + s["url"])) for s in g["seats"]}
    mover = next(u for u, st in states.items() if st["your_turn"])
    _post(base + "/api" + mover + "/move", {"option": states[mover]["view"]["options"][-1]["id"], "n": 0})
    waiting = next(u for u in states if not json.load(urllib.request.urlopen(base + "/api" + u))["your_turn"])
    page = browser.new_page()
    asked = []
    page.on("request", lambda r: asked.append(r.url) if "/api/t/" in r.url else None)
    page.goto(base + waiting)
    page.wait_for_selector("p.waiting")
    for _ in range(5):
        page.locator("#slider").fill("0")
        page.dispatch_event("#slider", "change")
        page.click("text=Back to now")
        page.wait_for_selector("p.waiting")
    page.wait_for_timeout(500)
    before = len(asked)
    page.wait_for_timeout(6000)
    assert len(asked) - before <= 5, asked[before:]
    page.close()


def test_why_not_always_says_something_in_the_page(browser, server):
    """Asking with nothing typed says what to ask; a place that is not an option says why."""
    page = _seat_page(browser, server)
    page.wait_for_selector("button.opt")
    page.click("#whybtn")
    page.wait_for_selector("#whytext")
    assert "option" in page.locator("#whytext").inner_text()
    page.fill("#whyopt", "  ")
    page.click("#whybtn")
    assert "click a place" in page.locator("#whytext").inner_text()
    page.close()


def test_a_variant_for_one_count_sets_the_players_and_the_seats_chosen_stay(browser, server):
    """Choosing Ys for 2 (a variant for one count) sets the player count to it, so the game
    starts; changing the count keeps the seat kinds already chosen."""
    base, _ = server
    page = browser.new_page()
    page.goto(base + "/")
    page.select_option("#ruleset", "ys")
    page.locator(".seatkind").nth(1).select_option("random")
    page.select_option("#variant", "two_players")
    assert page.input_value("#players") == "2"
    assert page.get_attribute("#players", "min") == page.get_attribute("#players", "max") == "2"
    assert page.locator(".seatkind").nth(1).input_value() == "random"
    page.select_option("#variant", "kings_favor")
    assert page.input_value("#players") == "4" and page.get_attribute("#players", "min") == "3"
    page.select_option("#variant", "two_players")
    page.click("#start")
    page.wait_for_url("**/t/**")
    page.wait_for_selector(".panel")
    assert page.locator(".panel").count() == 3           # the two players and the neutral one
    page.close()


def test_a_game_of_bots_only_is_watched_to_its_end(browser, server):
    """All seats bots: the new-game page gives every seat's link to watch through, and the seat's
    page plays the bots to the end, with no decision offered."""
    base, _ = server
    page = browser.new_page()
    page.goto(base + "/")
    page.select_option("#ruleset", "caylus1303")
    page.fill("#players", "2")
    page.dispatch_event("#players", "change")
    for i in range(2):
        page.locator(".seatkind").nth(i).select_option("random")
    page.fill("#seed", "4")
    page.click("#start")
    page.wait_for_selector("#links a")
    assert page.locator("#links a").count() == 2 and "Bots only" in page.locator("#links").inner_text()
    page.goto(base + page.locator("#links a").nth(1).get_attribute("href") + "?speed=0")
    page.wait_for_selector("#result", timeout=120000)
    assert page.locator("button.opt").count() == 0
    assert page.locator(".panel.you").get_attribute("data-seat") == "1"
    assert page.locator("header .who").inner_text() == "Watching: Player 2"     # not "You": a bot plays it
    page.close()


def test_a_move_that_cannot_be_saved_says_so_and_the_board_goes_on(browser, server, monkeypatch):
    """A full disk: the move is answered 507 with the reason; the page shows it and fetches the
    board again (the move was played), and the game goes on from there."""
    import errno
    import tempfile

    base, _ = server
    g = _post(base + "/api/games", {"ruleset": "caylus", "players": 2, "agents": ["human", "human"], "seed": 4})
    page = browser.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(base + g["seats"][0]["url"])
    page.wait_for_selector("button.opt", timeout=60000)

    def disk_full(*args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    monkeypatch.setattr(tempfile, "mkstemp", disk_full)
    before = page.locator("#app").get_attribute("data-n")
    page.locator("button.opt").first.click()
    page.wait_for_function("n => document.getElementById('app').dataset.n !== n", arg=before, timeout=60000)
    page.wait_for_selector("#error", timeout=60000)
    assert "No space left on device" in page.locator("#error").inner_text()
    assert int(page.locator("#app").get_attribute("data-n")) == int(before) + 1
    assert errors == []
    page.close()


def test_the_keyboard_keeps_its_place_when_the_page_is_drawn_again(browser, server):
    """Every move redraws the page: a decision answered with Enter leaves the focus on the next
    decision's prompt (Tab goes on to its first option), and the slider, stepped with the arrow
    keys, keeps the focus from one step to the next."""
    page = _seat_page(browser, server, seed=4)
    for _ in range(3):
        page.wait_for_selector("button.opt")
        before = page.locator("#app").get_attribute("data-n")
        page.locator("button.opt").first.focus()
        page.keyboard.press("Enter")
        page.wait_for_function("n => document.getElementById('app').dataset.n !== n", arg=before)
        page.wait_for_selector("button.opt")
        page.wait_for_function("document.activeElement.id === 'prompt'")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.classList.contains('opt')")
    total = int(page.locator("#app").get_attribute("data-n"))
    page.locator("#slider").focus()
    for k in range(1, 4):
        page.keyboard.press("ArrowLeft")
        page.wait_for_selector("#stepat:has-text('%d / %d')" % (total - k, total))
        page.wait_for_selector("text=Showing the board before decision %d" % (total - k + 1))
        assert page.evaluate("document.activeElement.id") == "slider"
    page.close()


def test_the_header_says_when_it_is_your_turn(browser, server):
    """A seat with a decision to take reads "Your turn" in the header and the window's title (a
    player with the table in another tab sees it there); a seat waiting reads who is to decide."""
    base, _ = server
    g = _post(base + "/api/games", {"ruleset": "caylus", "players": 2, "agents": ["human", "human"], "seed": 2})
    page = browser.new_page()
    seen = {}
    for s in g["seats"]:
        page.goto(base + s["url"])
        page.wait_for_selector("button.opt, p.waiting")
        seen[page.locator("button.opt").count() > 0] = (page.locator("header").inner_text(), page.title())
    assert set(seen) == {True, False}
    header, title = seen[True]
    assert "Your turn" in header and title.startswith("Your turn")
    header, title = seen[False]
    assert "Your turn" not in header and "to decide" in header and not title.startswith("Your turn")
    page.close()


def test_a_replay_is_watched_even_where_its_log_names_a_human(browser, server, tmp_path):
    """`serve --replay` of a game a person played: the seat is watched, not "You" (nor its panel
    "(you)", nor its row of the result), and no bot speed is offered, as no bot moves in a replay."""
    from provost.interpreter.agents import make_agent, play_game
    from provost.interpreter.engine import Game
    from provost.interpreter.gamelog import GameLogWriter
    from provost.tools.web.app import create_app
    from provost.tools.web.table import Table

    _, offered = server
    log = tmp_path / "g.jsonl"
    game = Game.new("caylus", players=3, seed=6)
    with GameLogWriter(str(log), game, ["human", "random", "random"], {"ruleset": "caylus", "variant": None}) as w:
        play_game(game, [make_agent("random", 6, i) for i in range(3)], log=w)
    t = Table.from_log(str(log), str(tmp_path))
    with _serving(create_app(offered, {}, str(tmp_path), replay=t)) as base:
        page = browser.new_page()
        page.goto(base + t.links()[0]["url"])
        page.wait_for_selector("#standings")
        assert page.locator("header .who").inner_text() == "Watching: Player 1"
        assert page.locator(".panel.you h3").inner_text() == "Player 1 (watched)"
        assert "(you)" not in page.locator("#app").inner_text()
        assert page.locator("#speed").count() == 0
        page.close()


def test_in_a_wide_window_the_decision_stays_in_sight_beside_ones_panel(browser, server):
    """At 1024 x 768 the player panels are below the board: scrolled down to one's own panel, the
    decision's buttons stay in sight in the side column (they scrolled away with the page)."""
    page = _seat_page(browser, server, {"width": 1024, "height": 768}, seed=3)
    page.wait_for_selector("button.opt")
    page.locator(".panel.you").scroll_into_view_if_needed()
    page.mouse.wheel(0, 3000)
    page.wait_for_function("window.scrollY > 0")
    for sel in (".panel.you", "#decision h2", "button.opt"):
        box = page.locator(sel).first.bounding_box()
        assert box and 0 <= box["y"] and box["y"] + box["height"] <= 768, (sel, box)
    page.close()


def test_a_scale_of_one_row_is_not_named_twice(browser, server):
    """Caylus's current section is a scale of one row: its title names it, its row is not named
    again ("current section" twice); the favor levels' rows keep their names."""
    page = _seat_page(browser, server)
    page.wait_for_selector("[data-scale=current_section]")
    assert page.locator("[data-scale=current_section]").inner_text().count("current section") == 1
    assert page.locator("[data-scale=current_section] .box").count() == 4
    assert page.locator("[data-scale=favor_level] .slabel").count() == 4
    page.close()


def test_the_log_highlights_what_happened_since_your_last_move(browser, server):
    """Back at one's turn, the log highlights the others' moves since one's own last one (and one's
    own moves after them, a decision of several steps), not merely the last three lines."""
    page = _seat_page(browser, server, seed=7)
    for _ in range(2):                  # two moves of ours, and the bots' between them
        page.wait_for_selector("button.opt")
        before = page.locator("#app").get_attribute("data-n")
        page.locator("button.opt").first.click()
        page.wait_for_function("n => document.getElementById('app').dataset.n !== n", arg=before)
    page.wait_for_selector("button.opt")
    players = [int(p) for p in page.locator("#log li").evaluate_all("ls => ls.map((l) => l.dataset.player)")]
    recent = page.locator("#log li").evaluate_all("ls => ls.map((l) => l.classList.contains('recent'))")
    first = recent.index(True)
    assert all(recent[first:]) and not any(recent[:first])
    assert first > 0 and players[first - 1] == 0            # right after a move of ours...
    others = [p for p in players[first:] if p != 0]
    assert others and players[first:first + len(others)] == others      # ...the others' moves, then ours
    assert "since your last move" in page.locator(".logbox h2").inner_text()
    page.close()


def test_the_seat_page_steps_one_decision_at_a_time(browser, server):
    """◀ and ▶ beside the slider step one decision back or on (the slider alone is too coarse in
    a long game), from the keyboard too; ▶ from the last one back is now again."""
    page = _seat_page(browser, server, seed=5)
    while int(page.locator("#app").get_attribute("data-n") or 0) < 3:
        page.wait_for_selector("button.opt")
        before = page.locator("#app").get_attribute("data-n")
        page.locator("button.opt").first.click()
        page.wait_for_function("n => document.getElementById('app').dataset.n !== n", arg=before)
    page.wait_for_selector("button.opt")
    total = int(page.locator("#app").get_attribute("data-n"))
    page.click("#prev")
    page.wait_for_selector("text=Showing the board before decision %d" % total)
    page.keyboard.press("Enter")            # the focus stayed on ◀
    page.wait_for_selector("#stepat:has-text('%d / %d')" % (total - 2, total))
    page.click("#next")
    page.wait_for_selector("#stepat:has-text('%d / %d')" % (total - 1, total))
    page.click("#next")
    page.wait_for_selector("button.opt")
    assert page.locator("#stepat").inner_text().strip() == "%d / %d" % (total, total)
    page.close()


def test_why_not_suggests_the_places_that_are_not_options(browser, server):
    """The "Why not…?" field suggests what to ask about: the board's places that are not among
    the options, in the options' form (place:…); it named a list of suggestions that was not there."""
    page = _seat_page(browser, server, seed=2)
    page.wait_for_selector("button.opt")
    offered = set(page.locator("button.opt").evaluate_all("bs => bs.map((b) => b.dataset.option)"))
    places = set(page.locator("[data-place]").evaluate_all("ps => ps.map((p) => p.dataset.place)"))
    suggested = page.locator("#whylist option").evaluate_all("os => os.map((o) => o.value)")
    assert suggested and not offered & set(suggested)
    assert {s.split(":", 1)[1] for s in suggested} <= places
    assert all(s.startswith("place:") for s in suggested)
    page.fill("#whyopt", suggested[0])
    page.click("#whybtn")
    page.wait_for_selector("#whytext")
    assert page.locator("#whytext").inner_text().startswith(suggested[0] + ": ")
    page.close()
