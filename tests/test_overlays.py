"""Small overlays: named steps in every shipped phase (`step NAME` lines), `add step ... before`,
and triggers on the game's flow (round, phase and step starts and ends)."""
from __future__ import annotations

import os
import random

from provost.dsl.loader import check_file, load_checked, shipped_dir
from provost.interpreter.engine import Game

EXAMPLES = os.path.join(shipped_dir(), "examples")


def _play(rs, seed=1, players=None):
    g = Game.new(rs, players=players, seed=seed)
    r = random.Random(seed)
    while not g.finished:
        g.apply(r.choice(g.legal_options()))
    return g


def _variant(tmp_path, body: str, name="v"):
    f = tmp_path / ("caylus.%s.rules" % name)
    f.write_text('variant %s "V" extends caylus:\n    description "x"\n' % name + body)
    return str(f)


def test_every_caylus_phase_has_named_steps():
    rs = load_checked("caylus")
    for d in rs.decls:
        if d["kind"] in ("phase", "final", "setup"):
            assert d["body"] and all(st["s"] == "step" for st in d["body"]), d["name"]


def test_a_one_line_house_rule_is_a_one_step_overlay():
    path = os.path.join(EXAMPLES, "caylus.steady_bailiff.rules")
    assert [d for d in check_file(path) if d.severity != "note"] == []
    g = Game.new(load_checked(path), players=3, seed=2)
    before = g.s.counters["bailiff"]
    while g.s.round < 2 and not g.finished:
        g.apply(random.Random(2).choice(g.legal_options()))
    assert g.s.counters["bailiff"] == before + 1


def test_add_step_before(tmp_path):
    path = _variant(tmp_path, "    add step end_of_turn.bonus before scoring:\n        set bailiff += 0\n")
    rs = load_checked(path)
    phase = next(d for d in rs.decls if d["kind"] == "phase" and d["name"] == "end_of_turn")
    assert [st["name"] for st in phase["body"]] == ["bailiff", "bonus", "scoring"]
    bad = _variant(tmp_path, "    add step end_of_turn.bonus before scorign:\n        set bailiff += 0\n", "w")
    assert any(d.code == "L004" and "did you mean 'scoring'" in d.message for d in check_file(bad))


def test_triggers_on_the_flow_fire_in_order(tmp_path):
    # Each event adds a distinct power of ten to a global counter, once per firing.
    path = _variant(tmp_path, "    counter seen global start 0\n"
                    "    trigger a on round_start:\n        set seen += 1\n"
                    "    trigger b on phase_start:\n        if target == income:\n            set seen += 100\n"
                    "    trigger c on step_end:\n        if target == \"bailiff\":\n            set seen += 10000\n")
    assert [d for d in check_file(path) if d.severity == "error"] == []
    g = _play(load_checked(path), seed=3, players=3)
    rounds = g.s.round
    seen = g.s.counters["seen"]
    assert seen % 100 == rounds and (seen // 100) % 100 == rounds
    # the end of the turn's bailiff step runs in every complete round (the last may end earlier)
    assert seen // 10000 in (rounds, rounds - 1)


def test_the_royal_stipend_example_plays_and_pays():
    rs = load_checked(os.path.join(EXAMPLES, "caylus.royal_stipend.rules"))
    assert _play(rs, seed=1).finished


