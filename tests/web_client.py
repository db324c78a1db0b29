"""The web table's app driven in-process (Starlette's TestClient), for the API and save tests.

Import it after ``pytest.importorskip("starlette")`` and ``("httpx")``: it needs the web-test extra.
"""
from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from provost.tools.cli.commands_web import _offered
from provost.tools.web.app import create_app


@pytest.fixture(scope="module")
def offered():
    """What the new-game page offers: the shipped rulesets and their variants."""
    return _offered(None)


def client(offered, save_dir):
    return TestClient(create_app(offered, {}, str(save_dir)), raise_server_exceptions=False)


def new_game(c, ruleset, players, agents, seed=1, variant=None):
    r = c.post("/api/games", json={"ruleset": ruleset, "players": players, "agents": agents,
                                   "seed": seed, "variant": variant})
    assert r.status_code == 200, r.text
    return r.json()
