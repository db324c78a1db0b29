"""The web table's saves under strain: a save that cannot be written, a bot's move that fails, a
long game resumed while other requests wait.  Drives the real app (Starlette's TestClient, httpx).

Skips when the ``web-test`` extra (starlette, httpx) is absent.
"""
from __future__ import annotations

import errno
import os

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from provost.tools.web.app import create_app  # noqa: E402
from web_client import client, new_game, offered  # noqa: E402,F401  (offered: a fixture)


def step(c, url, state):
    """One decision: the seat's first option when it decides, else a bot's move."""
    if state["your_turn"]:
        return c.post(url + "/move", json={"option": state["view"]["options"][0]["id"], "n": state["decisions"]})
    return c.post(url + "/advance")


class _DiskFull:
    """``os.fdopen`` for files that take half of what is written, then fail as a full disk does."""

    def __init__(self, real):
        self.real = real

    def __call__(self, fd, *args, **kwargs):
        f = self.real(fd, *args, **kwargs)
        write = f.write

        def half_then_full(text):
            write(text[:len(text) // 2])
            f.flush()
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        f.write = half_then_full
        return f


def test_a_save_that_cannot_be_written_is_a_507_and_the_game_goes_on(offered, tmp_path, monkeypatch):
    c = client(offered, tmp_path)
    g = new_game(c, "caylus", 2, ["human", "random"])
    url = "/api" + g["seats"][0]["url"]
    save = tmp_path / (g["gid"] + ".json")
    state = step(c, url, c.get(url).json()).json()
    before = save.read_text()

    monkeypatch.setattr(os, "fdopen", _DiskFull(os.fdopen))
    for _ in range(3):                  # the moves are played, in memory, each answered 507
        r = step(c, url, state)
        assert r.status_code == 507, r.text
        error = r.json()["error"]
        assert "No space left on device" in error and "goes on" in error and str(tmp_path) not in error
        assert save.read_text() == before                   # the last whole save, untouched
        assert sorted(p.name for p in tmp_path.iterdir()) == [save.name]       # and nothing half written
        again = c.get(url).json()
        assert again["decisions"] == state["decisions"] + 1
        state = again
    r = c.post("/api/games", json={"ruleset": "caylus", "players": 2, "agents": ["human"]})
    assert r.status_code == 507 and "not set up" in r.json()["error"]
    assert sorted(p.name for p in tmp_path.iterdir()) == [save.name]

    monkeypatch.undo()                  # room again: the next save holds every move
    state = step(c, url, state).json()
    resumed = client(offered, tmp_path).get(url).json()
    assert resumed["decisions"] == state["decisions"] and resumed["view"] == state["view"]
    assert resumed["log"] == state["log"]


def test_a_save_folder_made_read_only_is_a_507_not_a_500(offered, tmp_path, monkeypatch):
    """Permission denied (as where the folder is no longer writable): the reason, not an internal error."""
    c = client(offered, tmp_path)
    url = "/api" + new_game(c, "caylus", 2, ["human", "random"])["seats"][0]["url"]

    def refused(*args, **kwargs):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(tmp_path))
    import tempfile
    monkeypatch.setattr(tempfile, "mkstemp", refused)
    r = step(c, url, c.get(url).json())
    assert r.status_code == 507 and "Permission denied" in r.json()["error"]
    assert str(tmp_path) not in r.text


def test_resuming_a_game_holds_up_no_other_request_and_loads_it_once(offered, tmp_path, monkeypatch):
    """Loading a save replays its game (a second or two for a long one): done in a worker thread,
    other requests are answered meanwhile, and two requests for the same game get one table."""
    import asyncio
    import threading

    import httpx

    from provost.tools.web.table import Table

    c = client(offered, tmp_path)
    url = "/api" + new_game(c, "caylus", 2, ["human", "random"])["seats"][0]["url"]
    state = c.get(url).json()
    for _ in range(20):
        state = step(c, url, state).json()

    gate, loads, real_load = threading.Event(), [], Table.load

    def slow_load(path, save_dir=None):
        loads.append(path)
        assert gate.wait(10), "the load was never let through"
        return real_load(path, save_dir)
    monkeypatch.setattr(Table, "load", staticmethod(slow_load))
    app = create_app(offered, {}, str(tmp_path))        # a restarted server: the game is on disk only

    async def requests():
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as ac:
            resumes = [asyncio.create_task(ac.get(url)) for _ in range(2)]
            while not loads:
                await asyncio.sleep(0.01)
            other = await asyncio.wait_for(ac.get("/api/rulesets"), 10)
            answered_while_loading = not gate.is_set()
            gate.set()
            return other, answered_while_loading, await asyncio.gather(*resumes)

    other, answered_while_loading, resumed = asyncio.run(requests())
    assert [r.status_code for r in resumed] == [200, 200], resumed[0].text
    assert other.status_code == 200 and answered_while_loading
    assert len(loads) == 1
    assert resumed[0].json() == resumed[1].json()
    assert resumed[0].json()["view"] == state["view"] and resumed[0].json()["log"] == state["log"]


def _bots_play_on(c, url, moves):
    state = None
    for _ in range(moves):
        r = c.post(url + "/advance")
        assert r.status_code == 200, r.text
        state = r.json()
    return state


def test_a_bots_move_that_fails_leaves_the_game_as_its_save_resumes_it(offered, tmp_path, monkeypatch):
    """A bot that fails part-way through choosing (here after drawing from its generator) answers
    500, and the table is left as its save will resume it: the bot's generator too, else the game
    in memory and the game a restarted server resumes go two ways from the bot's next move."""
    import shutil

    from provost.interpreter.agents import RandomAgent

    c = client(offered, tmp_path / "saves")
    url = "/api" + new_game(c, "caylus", 2, ["random", "random"], seed=5)["seats"][0]["url"]
    _bots_play_on(c, url, 15)

    real_choose = RandomAgent.choose

    def fails_after_drawing(self, game, player):
        real_choose(self, game, player)
        raise RuntimeError("the agent failed")
    monkeypatch.setattr(RandomAgent, "choose", fails_after_drawing)
    before = c.get(url).json()
    for _ in range(3):
        r = c.post(url + "/advance")
        assert r.status_code == 500 and "RuntimeError" in r.json()["error"]
    assert c.get(url).json() == before
    monkeypatch.undo()

    shutil.copytree(tmp_path / "saves", tmp_path / "restarted")
    resumed = client(offered, tmp_path / "restarted")
    on, resumed_on = _bots_play_on(c, url, 60), _bots_play_on(resumed, url, 60)
    assert [line["option"] for line in resumed_on["log"]] == [line["option"] for line in on["log"]]
    assert resumed_on["view"] == on["view"]
