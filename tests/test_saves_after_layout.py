"""A user's rule file laid out again (`provost fmt`, a comment, blank lines) keeps its saves and logs.

Positions are part of the IR, and so of the rules' digest: before, a comment added at the top of a
file made every save of it refuse to resume (E002) and every log refuse to replay (R003).  A save
or a log of rules named by a path now also carries their digest without positions; the game resumes
when that one matches, and plays on exactly as it would have.  A change to a rule is still refused,
and saves and logs of shipped rulesets named by name are byte for byte what they were.
"""
from __future__ import annotations

import json
import random

import pytest

from cli_run import run_cli
from provost.dsl.diagnostics import RulesError
from provost.dsl.loader import load_checked, shipped_dir
from provost.interpreter.engine import Game
from test_fmt import disturbed

SAVE_KEYS = {"engine", "ruleset", "variant", "digest", "seed", "state"}
CAYLUS = open(shipped_dir() + "/caylus.rules", encoding="utf-8").read()


def play(game: Game, rng: random.Random, decisions: int | None = None) -> Game:
    while not game.s.finished and decisions != 0:
        options = game.legal_options()
        game.apply(options[rng.randrange(len(options))])
        decisions = None if decisions is None else decisions - 1
    return game


def richer(text: str) -> str:
    """TEXT with one rule changed: 4 players start with 8 deniers, not 7."""
    assert "4: 7, 5: 7}" in text
    return text.replace("4: 7, 5: 7}", "4: 8, 5: 7}")


def laid_out_again(text: str) -> str:
    return "# my notes on this file\n\n" + disturbed(text, random.Random(0))


def test_a_save_resumes_after_its_file_is_laid_out_again_and_plays_on_the_same(tmp_path):
    rules = tmp_path / "farm.rules"
    rules.write_text(CAYLUS, encoding="utf-8")
    game = play(Game.new(load_checked(str(rules)), players=4, seed=5), random.Random(2), 80)
    saved = game.to_json()
    assert json.loads(saved)["digest_without_positions"] == game.rs.digest_without_positions()

    rules.write_text(laid_out_again(CAYLUS), encoding="utf-8")
    resumed = Game.from_json(saved)             # the rules loaded again from the save's path
    assert resumed.rs.digest != game.rs.digest  # the positions moved ...
    assert resumed.s.to_dict(resumed.prog.saved_data) == game.s.to_dict(game.prog.saved_data)
    play(game, random.Random(9))
    play(resumed, random.Random(9))             # ... and the game is the same to its end
    assert resumed.result() == game.result()
    assert resumed.s.to_dict(resumed.prog.saved_data) == game.s.to_dict(game.prog.saved_data)


def test_a_changed_rule_is_still_refused(tmp_path):
    rules = tmp_path / "farm.rules"
    rules.write_text(CAYLUS, encoding="utf-8")
    saved = play(Game.new(load_checked(str(rules)), players=4, seed=5), random.Random(2), 30).to_json()
    rules.write_text(laid_out_again(richer(CAYLUS)), encoding="utf-8")
    with pytest.raises(RulesError) as e:
        Game.from_json(saved)
    assert "[E002]" in str(e.value) and "the rule file changed since the game was saved" in str(e.value)


def test_a_save_that_claims_the_rules_without_positions_of_others_is_refused(tmp_path):
    rules = tmp_path / "farm.rules"
    rules.write_text(CAYLUS, encoding="utf-8")
    saved = json.loads(play(Game.new(load_checked(str(rules)), players=4, seed=5), random.Random(2), 30).to_json())
    saved["digest_without_positions"] = "0123456789abcdef"
    rules.write_text(laid_out_again(CAYLUS), encoding="utf-8")
    with pytest.raises(RulesError, match=r"\[E002\]"):
        Game.from_json(json.dumps(saved))


def test_a_variant_file_laid_out_again_keeps_the_save(tmp_path):
    variant = tmp_path / "rich.rules"
    text = ('variant rich "Richer start" extends caylus:\n'
            '    replace let start_money = {1: 5, 2: 6, 3: 6, 4: 8, 5: 8}\n')
    variant.write_text(text, encoding="utf-8")
    game = play(Game.new(load_checked("caylus", str(variant)), players=4, seed=1), random.Random(3), 40)
    saved = game.to_json()
    variant.write_text("# richer\n\n" + text.replace("    replace", "\n\n    replace"), encoding="utf-8")
    resumed = Game.from_json(saved)
    assert resumed.s.to_dict(resumed.prog.saved_data) == game.s.to_dict(game.prog.saved_data)


def test_saves_and_logs_of_shipped_rulesets_by_name_are_as_before(tmp_path, capsys):
    game = play(Game.new("caylus", players=4, seed=5), random.Random(2), 10)
    assert set(json.loads(game.to_json())) == SAVE_KEYS
    log = tmp_path / "game.jsonl"
    code, _, _ = run_cli(capsys, "play", "caylus", "--seed", "1", "--agents", "random,random,random,random",
                         "--log", str(log))
    assert code == 0
    header = json.loads(log.read_text().splitlines()[0])
    assert "ruleset_hash_without_positions" not in header


def test_a_log_replays_after_its_file_is_laid_out_again_and_not_after_a_rule_change(tmp_path, capsys):
    rules = tmp_path / "farm.rules"
    rules.write_text(CAYLUS, encoding="utf-8")
    log = tmp_path / "game.jsonl"
    code, _, _ = run_cli(capsys, "play", str(rules), "--seed", "4", "--agents", "random,random,random,random",
                         "--log", str(log))
    assert code == 0
    assert "ruleset_hash_without_positions" in json.loads(log.read_text().splitlines()[0])

    rules.write_text(laid_out_again(CAYLUS), encoding="utf-8")
    code, out, _ = run_cli(capsys, "replay", str(log))
    assert code == 0 and "identical result" in out

    rules.write_text(richer(CAYLUS), encoding="utf-8")
    code, out, err = run_cli(capsys, "replay", str(log))
    assert code == 1 and "[R003]" in out + err


def test_rules_changed_by_a_setting_have_their_own_digest_without_positions(tmp_path):
    from provost.dsl.overrides import with_settings
    rules = tmp_path / "farm.rules"
    rules.write_text(CAYLUS, encoding="utf-8")
    rs = load_checked(str(rules))
    before = rs.digest_without_positions()
    changed, _ = with_settings(rs, {"start_money[4]": 9})     # a copy of rs, other declarations
    assert changed.digest_without_positions() != before
    assert rs.digest_without_positions() == before


def test_a_changed_variant_file_is_named_where_the_save_is_refused(tmp_path):
    # The README: a changed file is E002, "a RulesError naming the file"; for a shipped game
    # played with a variant file of the user's, that file is the one that changed.
    variant = tmp_path / "rich.rules"
    text = ('variant rich "Richer start" extends caylus:\n'
            '    replace let start_money = {1: 5, 2: 6, 3: 6, 4: 8, 5: 8}\n')
    variant.write_text(text, encoding="utf-8")
    saved = play(Game.new(load_checked("caylus", str(variant)), players=4, seed=1), random.Random(3), 20).to_json()
    variant.write_text(text.replace("4: 8", "4: 9"), encoding="utf-8")
    with pytest.raises(RulesError) as e:
        Game.from_json(saved)
    d = e.value.diagnostics[0]
    assert (d.code, d.path) == ("E002", str(variant))
    assert "the variant file changed since the game was saved" in d.message
