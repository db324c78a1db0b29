"""The tutorial's example files (docs/variants.md) check clean, play, and do what they say."""
from __future__ import annotations

import os
import random

import pytest

from provost.dsl.loader import check_file, load_checked
from provost.interpreter.engine import Game
from provost.tools.cli import main

from caylus_scenarios import choose, counter, empty_road_after_neutrals, give

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.join(os.path.dirname(HERE), "rulesets", "examples")
FILES = sorted(os.path.join(EXAMPLES, f) for f in os.listdir(EXAMPLES) if f.endswith(".rules"))


@pytest.mark.parametrize("path", FILES, ids=os.path.basename)
def test_example_checks_clean_and_plays(path):
    assert [d for d in check_file(path) if d.severity != "note"] == []
    g = Game.new(load_checked(path), players=4, seed=1)
    r = random.Random(1)
    while not g.finished:
        g.apply(r.choice(g.legal_options()))


def test_brewery_is_built_by_the_carpenter_and_brews():
    rs = load_checked(os.path.join(EXAMPLES, "caylus.brewery.rules"))
    g = Game.new(rs, players=3, seed=0)
    empty_road_after_neutrals(g)
    g.s.counters["provost"] = 8
    g.s.occ["carpenter"] = [0]
    g.s.counters["workers"][0] -= 1
    give(g, 0, wood=1, food=1, pp=0)
    g.start_phase("activation")
    choose(g, "build:brewery")
    assert g.s.road[9] == "brewery" and counter(g, "pp", 0) == 3


def test_generous_king_pays_three():
    rs = load_checked(os.path.join(EXAMPLES, "caylus.generous_king.rules"))
    g = Game.new(rs, players=3, seed=0)
    give(g, 0, denier=0)
    g.start_phase("income")
    assert counter(g, "denier", 0) == 3


def test_diff_names_the_change(capsys):
    assert main(["diff", "caylus", os.path.join(EXAMPLES, "caylus.generous_king.rules")]) == 0
    out = capsys.readouterr().out
    assert "changes step 'income' of income" in out and "3 +" in out


def test_variant_replacing_a_missing_definition_is_positioned(tmp_path):
    bad = tmp_path / "bad.rules"
    bad.write_text('variant bad "Bad" extends caylus:\n    replace let start_mony = {1: 5}\n')
    diags = check_file(str(bad))
    assert any(d.code == "L004" and d.line == 2 and "start_money" in d.message for d in diags)


def test_with_combines_two_variants_of_one_game(tmp_path):
    # Caylus's 2-player rules with the simplified favor, without copying either file.
    both = tmp_path / "caylus.both.rules"
    both.write_text('variant both "Both" extends two_players with simplified_favor:\n'
                    '    description "2 players, favors worth 3 PP."\n')
    assert [d for d in check_file(str(both)) if d.severity == "error"] == []
    rs = load_checked(str(both))
    assert not any(d and d.get("kind") == "table" and d.get("name") == "favor_table" for d in rs.decls)
    g = Game.new(rs, players=2, seed=3)                          # two_players' player count
    r = random.Random(3)
    while not g.finished:
        g.apply(r.choice(g.legal_options()))


@pytest.mark.parametrize("text, code, words", [
    ('variant v "V" extends two_players with nonesuch:\n    description "x"\n', "L002", "nonesuch"),
    ('variant v "V" extends two_players with caylus:\n    description "x"\n', "L006", "not a variant"),
    ('variant v "V" extends caylus with kings_favor:\n    description "x"\n', "L006", "game 'ys'"),
    ('variant v "V" extends two_players with two_players:\n    description "x"\n', "L003", "already"),
])
def test_with_names_variants_of_the_same_game(tmp_path, text, code, words):
    bad = tmp_path / "caylus.v.rules"
    bad.write_text(text)
    diags = check_file(str(bad))
    assert any(d.code == code and d.line == 1 and words in d.message for d in diags), diags


def test_diff_of_composed_variants_compares_the_resolved_rules(capsys):
    assert main(["diff", "ys", "kings_favor+express"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Ys (ys) -> Ys, King's Favor, Ys Express (kings_favor+express):")
    # both variants' changes, merged: Express's nine brokers, the King's Favor's fifth phase
    assert "    + brokers per player, of values 0, 0, 1, 1, 2, 3, 3, 4, 4" in out
    assert "+ adds phase 'kings_favor':" in out


def test_diff_says_what_an_added_trigger_does(capsys):
    """A trigger is described as the rulebook gives it: the event, then what happens."""
    from pathlib import Path

    from cli_run import run_cli
    example = Path(__file__).resolve().parent.parent / "rulesets" / "examples" / "caylus.royal_stipend.rules"
    code, out, _ = run_cli(capsys, "diff", "caylus", str(example))
    assert code == 0 and "+ adds trigger 'stipend':" in out
    assert "when round start:" in out and "gains 1 denier" in out
