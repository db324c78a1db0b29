"""Ys games save, resume and replay exactly, secret bids included."""
from __future__ import annotations

import json
import random

from provost.interpreter.engine import Game
from provost.tools.cli import main


def _finish(g, seed):
    r = random.Random(seed)
    while not g.finished:
        g.apply(r.choice(g.legal_options()))
    return g.scores(), g.s.decisions


def test_resume_in_the_middle_of_the_secret_bids():
    g = Game.new("ys", players=4, seed=8)
    g.apply(g.legal_options()[3])                 # one bid made, three to come
    assert g.s.phase == "bidding" and g.prompt().startswith("Bid")
    saved = g.to_json()
    resumed = Game.from_json(saved)
    assert resumed.to_json() == saved
    assert _finish(resumed, 1) == _finish(g, 1)


def test_resume_at_every_tenth_decision_gives_the_same_game():
    g = Game.new("ys", players=4, seed=4)
    r = random.Random(4)
    path = []
    while not g.finished:
        if g.s.decisions % 10 == 0:
            again = Game.from_json(g.to_json())
            assert again.legal_options() == g.legal_options()
        opt = r.choice(g.legal_options())
        path.append(opt)
        g.apply(opt)
    h = Game.new("ys", players=4, seed=4)
    for opt in path:
        h.apply(opt)
    assert h.scores() == g.scores()


def test_logged_ys_game_replays(tmp_path, capsys):
    log = tmp_path / "ys.jsonl"
    assert main(["play", "ys", "--seed", "12", "--log", str(log), "--format", "json"]) == 0
    capsys.readouterr()
    assert main(["replay", str(log)]) == 0
    lines = log.read_text().splitlines()
    first_bid = next(i for i, line in enumerate(lines) if '"bid:' in line)
    rec = json.loads(lines[first_bid])
    rec["option"] = "bid:0+0" if rec["option"] != "bid:0+0" else "bid:4+4"
    lines[first_bid] = json.dumps(rec)
    log.write_text("\n".join(lines) + "\n")
    assert main(["replay", str(log)]) == 1
