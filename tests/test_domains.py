"""Domains bounded from the rules alone (provost.interpreter.domains) and the action catalogue
built on them: what a zone can hold follows what the rules put in it, a counter stays within
its declared limits, an effect's parameters range over its calls' arguments, a let called with
a list reads that list's items; what the rules do not bound is reported, explored, and an id
outside the catalogue says which of the two it is."""
from __future__ import annotations

import pytest

from provost.adapters.catalogue import ActionNotInCatalogue, build_catalogue, catalogue_for
from provost.dsl.loader import load_checked, shipped_configurations
from provost.interpreter.domains import Domains
from provost.interpreter.engine import Game

RULES = '''game g "Domains":
    players 2..3
    score pp
    max_rounds 2
    rounds main

resource pp "prestige"
counter tokens per player start 2 min 0 max 5
counter coins per player start 3
enum cards ace, king, queen, jack
zone deck visible none
zone hand per player visible owner
zone table

let firsts(xs) = [x for x in xs]
let royals = [king, queen]

effect deal_to_table(c):
    put c, table

setup:
    put cards, deck
    shuffle_zone deck
    each player in players():
        move_top deck, 1, hand

phase main "Main":
    each player in players():
        choose "Play":
            option play(c in firsts(hand)):
                take c, hand
                deal_to_table c
            option spend(n in 1..tokens):
                gain n pp
            option pay(n in 1..coins):
                gain 1 pp
            option royal(r in royals, k in 0..1):
                nothing
            option wait: nothing
        choose "Pick up":
            option pick(c in table):
                nothing
            option skip: nothing
'''


@pytest.fixture(scope="module")
def rules(tmp_path_factory):
    path = tmp_path_factory.mktemp("domains") / "g.rules"
    path.write_text(RULES)
    return load_checked(str(path))


def _options(rules):
    d = Domains(Game.new(rules, players=3, seed=0))
    return d, {name: doms for name, doms in d.options}


def test_zones_hold_what_the_rules_put_there(rules):
    d, opts = _options(rules)
    assert d.zone_items["deck"] == d.zone_items["hand"] == frozenset({"ace", "king", "queen", "jack"})
    # `put c, table` inside an effect: c ranges over every argument of its calls
    assert d.zone_items["table"] == frozenset({"ace", "king", "queen", "jack"})
    assert opts["pick"] == [frozenset({"ace", "king", "queen", "jack"})]
    # a let called with a list (its values unbounded) reads the list's items
    assert opts["play"] == [frozenset({"ace", "king", "queen", "jack"})]


def test_counters_stay_within_their_declared_limits(rules):
    _, opts = _options(rules)
    assert opts["spend"] == [frozenset(range(1, 6))]        # 1..tokens, tokens within 0..5
    assert opts["pay"] == [None]                 # no maximum: not bounded by the rules
    assert opts["royal"] == [frozenset({"king", "queen"}), frozenset({0, 1})]


def test_the_catalogue_explores_only_what_the_rules_leave_unbounded(rules, tmp_path, monkeypatch):
    monkeypatch.setenv("PROVOST_CACHE_DIR", str(tmp_path))
    data = build_catalogue(rules, 3, games=20)
    assert data["sources"]["explored_templates"] == ["pay/1"]
    assert data["sources"]["exploration_decisions"] > 0
    actions = set(data["actions"])
    assert {"play:ace", "play:jack", "pick:queen", "spend:1", "spend:5", "royal:king:1", "wait", "skip"} <= actions
    assert "pay:1" in actions and "pay:3" in actions              # met in the exploration games
    cat = catalogue_for(rules, players=3, games=20)
    with pytest.raises(ActionNotInCatalogue) as unbounded:
        cat.index_of("pay:999")
    assert "--rebuild" in str(unbounded.value) and "exploration games" in str(unbounded.value)
    with pytest.raises(ActionNotInCatalogue) as derived:
        cat.index_of("play:joker")
    assert "derived from the rules" in str(derived.value) and "--rebuild" not in str(derived.value)


def test_every_shipped_catalogue_is_derived_whole():
    for name, variant, players, rs in shipped_configurations([]):
        data = build_catalogue(rs, players)
        src = data["sources"]
        assert src["explored_templates"] == [] and src["exploration_decisions"] == 0, (name, variant, players)
        assert src["analysis_error"] is None
        assert set(data["vocab"]["zone_items"]) == set(Game.new(rs, players=players, seed=0).prog.zones)


def test_the_derivation_is_deterministic():
    a = build_catalogue(load_checked("ys"), 4)
    b = build_catalogue(load_checked("ys"), 4)
    assert a == b


def test_a_failing_analysis_falls_back_to_exploring_every_template(rules, monkeypatch):
    import provost.adapters.catalogue as catalogue

    class Broken:
        def __init__(self, game):
            raise RecursionError("too deep")
    monkeypatch.setattr(catalogue, "Domains", Broken)
    data = build_catalogue(rules, 3, games=10)
    assert data["sources"]["analysis_error"] == "RecursionError: too deep"
    assert "pay/1" in data["sources"]["explored_templates"] and "play/1" in data["sources"]["explored_templates"]
    assert {"wait", "skip", "spend:1"} <= set(data["actions"])
