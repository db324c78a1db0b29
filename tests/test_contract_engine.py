"""The engine API as README.md ("Engine API") and DESIGN.md section 5 word it, promise by promise."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from provost.dsl.diagnostics import RulesError
from provost.dsl.loader import load_checked
from provost.interpreter.engine import Game, IllegalOption

ROOT = Path(__file__).resolve().parent.parent


def test_new_takes_a_name_a_path_or_a_ruleset_and_they_give_one_game():
    by_name = Game.new("caylus", players=4, seed=1)
    by_path = Game.new(str(ROOT / "rulesets" / "caylus.rules"), players=4, seed=1)
    by_ruleset = Game.new(load_checked("caylus"), players=4, seed=1)
    for g in (by_path, by_ruleset):
        assert g.legal_options() == by_name.legal_options()
        assert g.current_player() == by_name.current_player()


@pytest.mark.parametrize("seed", [-1, 2 ** 64, 1.5, "3"])
def test_a_seed_outside_0_to_2_64_is_a_value_error(seed):
    with pytest.raises(ValueError):
        Game.new("caylus", players=4, seed=seed)


def test_a_seed_left_out_is_drawn_and_reported_by_g_seed():
    g = Game.new("caylus", players=4)
    assert isinstance(g.seed, int) and 0 <= g.seed < 2 ** 64
    again = Game.new("caylus", players=4, seed=g.seed)
    assert again.to_json() == g.to_json()


def test_an_illegal_id_raises_illegal_option_naming_every_legal_one_and_changes_nothing():
    g = Game.new("caylus", players=4, seed=1)
    before, legal = g.to_json(), g.legal_options()
    with pytest.raises(IllegalOption) as caught:
        g.apply("place:nowhere")
    e = caught.value
    assert isinstance(e, ValueError)                      # IllegalOption is a ValueError
    assert e.option == "place:nowhere" and e.legal == legal and e.reason
    assert str(e).endswith("legal options: " + ", ".join(legal))
    assert g.to_json() == before


def test_option_ids_are_unique_and_the_same_across_runs():
    def ids(seed):
        g, seen = Game.new("ys", players=4, seed=seed), []
        while not g.finished and len(seen) < 60:
            options = g.legal_options()
            assert len(set(options)) == len(options)
            seen.append(options)
            g.apply(options[len(seen) % len(options)])
        return seen
    assert ids(3) == ids(3)


def test_result_and_winners_as_documented():
    g = Game.new("caylus", players=3, seed=2)
    while not g.finished:
        g.apply(g.legal_options()[0])
    r = g.result()
    assert list(r) == ["scores", "neutral_scores", "winners", "rounds", "decisions"]
    assert r["scores"] == g.scores() and r["neutral_scores"] == [] and r["winners"] == g.winners()
    assert g.legal_options() == [] and g.current_player() is None
    with pytest.raises(IllegalOption):                    # no decision pending: nothing is legal
        g.apply("pass")


def test_a_neutral_seat_scores_apart_and_never_wins():
    g = Game.new("ys", players=2, seed=3)
    while not g.finished:
        g.apply(g.legal_options()[-1])
    r = g.result()
    assert len(r["scores"]) == 2 and len(r["neutral_scores"]) == 1
    assert g.scores() == r["scores"] + r["neutral_scores"]
    assert all(w < 2 for w in g.winners())


def test_observation_is_a_copy_and_shows_options_only_to_the_seat_to_move():
    g = Game.new("caylus", players=4, seed=1)
    mover = g.current_player()
    other = (mover + 1) % 4
    assert g.observation(mover)["options"] == g.legal_options()
    assert g.observation(other)["options"] == []
    view = g.observation(other)
    before = g.to_json()
    view["counters"].clear(); view["road"].append("x")
    assert g.to_json() == before


def test_ys_observation_hides_what_is_behind_another_seat_screen():
    g = Game.new("ys", players=4, seed=2)
    view = g.observation(0)
    others = [p for p in view["pieces"] if p[1] != 0]
    assert all(p[3] != "screen" for p in others)          # another seat's screen is not listed
    assert view["private_piece_counts"]                   # only how many pieces stand there
    assert all(key.split(":")[1] != "0" for key in view["private_piece_counts"])


def _save_keys_game(rules: str):
    g = Game.new(rules, players=3, seed=4)
    for _ in range(7):
        g.apply(g.legal_options()[0])
    return g


def test_a_save_names_a_shipped_ruleset_by_name_and_resumes_in_a_fresh_process(tmp_path):
    g = _save_keys_game("caylus")
    saved = json.loads(g.to_json())
    assert saved["ruleset"] == "caylus" and "path" not in saved
    (tmp_path / "save.json").write_text(g.to_json(), encoding="utf-8")
    code = ("import sys; from provost.interpreter.engine import Game\n"
            "g = Game.from_json(open('save.json').read())\n"
            "print(g.legal_options())")
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(g.legal_options())


def test_a_save_of_a_rule_file_resumes_after_a_comment_not_after_a_change_nor_without_the_file(tmp_path):
    rules = tmp_path / "mygame.rules"
    shutil.copy(ROOT / "rulesets" / "caylus.rules", rules)
    g = _save_keys_game(str(rules))
    saved = json.loads(g.to_json())
    assert saved["path"] == str(rules) and "digest_without_positions" in saved
    text = rules.read_text(encoding="utf-8")

    rules.write_text("# laid out again\n\n" + text, encoding="utf-8")
    assert Game.from_json(g.to_json()).legal_options() == g.legal_options()

    rules.write_text(text.replace("prestige 3", "prestige 4", 1), encoding="utf-8")
    with pytest.raises(RulesError) as changed:
        Game.from_json(g.to_json())
    assert changed.value.diagnostics[0].code == "E002" and str(rules) in str(changed.value)

    rules.unlink()
    with pytest.raises(RulesError) as gone:
        Game.from_json(g.to_json())
    assert gone.value.diagnostics[0].code == "E003" and str(rules) in str(gone.value)


def test_a_damaged_save_is_e004_saying_where():
    saved = json.loads(_save_keys_game("caylus").to_json())
    saved["state"]["counters"]["pp"] = [0]
    with pytest.raises(RulesError) as caught:
        Game.from_json(json.dumps(saved))
    assert caught.value.diagnostics[0].code == "E004" and "state.counters.pp" in str(caught.value)


def test_clone_is_independent_and_plays_the_same():
    g = Game.new("caylus1303", players=3, seed=5)
    c = g.clone()
    option = g.legal_options()[0]
    c.apply(option)
    assert g.s.decisions == 0
    g.apply(option)
    assert g.to_json() == c.to_json()
