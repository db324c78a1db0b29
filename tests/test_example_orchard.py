"""examples/orchard: a new game written from the language reference alone, and its variant.

It checks clean, keeps its canonical layout, plays, replays and simulates as the README says, and
shows no seat another's hand or face-down bid (the re-dealing test of test_hidden_information.py,
on rules that are not shipped)."""
from __future__ import annotations

import json
import os

import pytest

from cli_run import run_cli as run
from provost.dsl.loader import load_checked
from test_hidden_information import in_order, other_world, states, wrong_option_text

HERE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "examples", "orchard")
GAME = os.path.join(HERE, "orchard.rules")
VARIANT = os.path.join(HERE, "orchard.long_harvest.rules")


def test_the_game_and_its_variant_check_clean_in_canonical_layout(capsys):
    code, out, err = run(capsys, "check", HERE, "--strict")
    assert code == 0 and "checked 2 files: 0 errors, 0 warnings" in out + err
    assert run(capsys, "fmt", "--check", HERE)[0] == 0


@pytest.mark.parametrize("ruleset, rounds", [(GAME, 5), (VARIANT, 6)])
def test_a_game_of_bots_plays_and_replays(ruleset, rounds, capsys, tmp_path):
    log = str(tmp_path / "game.jsonl")
    code, out, _ = run(capsys, "play", ruleset, "--players", "3", "--seed", "1", "--agents", "greedy,random",
                       "--log", log, "--format", "json")
    assert code == 0
    assert json.loads(out)["rounds"] == rounds
    code, out, err = run(capsys, "replay", log)
    assert code == 0 and "identical result" in out + err


def test_the_variant_is_simulated_beside_the_game(capsys):
    code, out, _ = run(capsys, "sim", GAME, "--games", "6", "--players", "2", "--seed", "1",
                       "--compare", VARIANT, "--format", "json")
    assert code == 0 and out.strip().startswith("{")


@pytest.mark.parametrize("players", [2, 4])
def test_no_seat_sees_another_hand_or_bid(players):
    rs = load_checked(GAME, None, players)
    for seed in (1, 2, 3):
        for g in states(rs, players, seed, stops=4):
            for viewer in range(g.s.humans):
                seen = g.observation(viewer)
                for k in (11, 12):
                    w = other_world(g, viewer, k)
                    assert in_order(w.observation(viewer)) == in_order(seen), (players, seed, viewer)
                    if g.current_player() == viewer:
                        assert w.legal_options() == g.legal_options()
                        assert wrong_option_text(w) == wrong_option_text(g)
