"""The action catalogue and the observation encoder (no optional packages needed).

- the catalogue is derived from the program (provost.interpreter.domains, tests/test_domains.py):
  held-out games find no legal id outside it;
- an id outside it raises ActionNotInCatalogue (never a neighbour's index); it is cached
  by ruleset digest and reloads identically;
- leak tests: what a player's observation vector (and canonical observation) holds does not
  change when everything hidden from that player is resampled or rearranged (Ys brokers
  behind screens and face down, other players' hands and the decks; Caylus 1303 piles).
"""
from __future__ import annotations

import json
import random

import pytest

from provost.adapters.catalogue import ActionNotInCatalogue, Catalogue, _cache_path, catalogue_for, held_out_misses
from provost.adapters.encoding import ObservationEncoder, canonical_observation
from provost.interpreter.rewards import final_rewards, rank_rewards
from provost.interpreter.agents.mcts import determinize
from provost.interpreter.engine import Game
from provost.interpreter.prims_pieces import visible_value


@pytest.fixture(scope="module", params=["caylus", "caylus1303", "ys"])
def cat(request):
    return catalogue_for(request.param, players=4)


def test_static_ids_are_in_by_construction():
    c = catalogue_for("caylus", players=4)
    for oid in ["pass", "skip", "provost:-3", "provost:3", "build:statue@residence", "build:statue@residence_7",
                "place:gate", "build:wood_peddler/cloth"]:
        assert oid in c, oid
    assert c.actions == sorted(set(c.actions), key=lambda a: c.index[a])  # unique, indexed in order


def test_held_out_games_find_no_missing_id(cat):
    assert held_out_misses(cat, 12) == []


def test_every_legal_option_maps_and_round_trips(cat):
    g = Game.new(cat.ruleset, players=cat.players, seed=4242)
    r = random.Random(1)
    while not g.finished:
        idx = cat.legal_indices(g)
        assert [cat.action_of(i) for i in idx] == g.legal_options()
        g.apply(g.legal_options()[r.randrange(len(idx))])


def test_unknown_id_raises_clearly():
    c = catalogue_for("caylus", players=4)
    with pytest.raises(ActionNotInCatalogue) as e:
        c.index_of("place:moon")
    msg = str(e.value)
    assert "place:moon" in msg and "caylus" in msg and "derived from the rules" in msg


def test_catalogue_is_cached_by_digest(tmp_path, monkeypatch):
    monkeypatch.setenv("PROVOST_CACHE_DIR", str(tmp_path))
    a = catalogue_for("caylus", players=3, games=6, rebuild=True)
    path = _cache_path("caylus", None, a.digest, 3, 6)
    data = json.load(open(path))
    assert data["digest"] == a.digest and data["actions"] == a.actions
    assert Catalogue(data).index == a.index
    b = catalogue_for("caylus", players=3, games=6)
    assert b.actions == a.actions


def test_catalogue_checks_the_game():
    c = catalogue_for("caylus", players=4)
    with pytest.raises(ValueError):
        c.check(Game.new("caylus", players=3, seed=1))


# ------------------------------------------------------------------ rewards
def test_rank_rewards_are_zero_sum_and_agree_with_winners():
    for seed in range(6):
        g = Game.new("caylus", players=4, seed=seed)
        r = random.Random(seed)
        while not g.finished:
            g.apply(r.choice(g.legal_options()))
        rw = rank_rewards(g)
        assert abs(sum(rw)) < 1e-9
        best = max(rw)
        assert [p for p in range(4) if rw[p] == best] == g.winners()
        sc = final_rewards(g, "score")
        assert sc[g.winners()[0]] >= 0


# ------------------------------------------------------------------ leak tests
def _states(ruleset, seed, every=7, players=4):
    g = Game.new(ruleset, players=players, seed=seed)
    r = random.Random(seed)
    k = 0
    while not g.finished:
        if k % every == 0:
            yield g
        g.apply(r.choice(g.legal_options()))
        k += 1


def _hidden_exists(g, p):
    if any(pc[1] != p and visible_value(g, pc, p) is None for pc in g.s.pieces):
        return True
    return any(z.get("visible", "public") != "public" for z in g.prog.zones.values())


@pytest.mark.parametrize("ruleset", ["ys", "caylus1303"])
def test_resampling_hidden_information_changes_no_observation(ruleset):
    c = catalogue_for(ruleset, players=4)
    enc = None
    changed = 0
    for g in _states(ruleset, 3):
        enc = enc or ObservationEncoder(g, c)
        for p in range(g.s.humans):
            if not _hidden_exists(g, p):
                continue
            h = determinize(g, p, random.Random(p))
            if h.s.pieces != g.s.pieces or h.s.zones != g.s.zones:
                changed += 1
            assert enc.encode(h.observation(p)) == enc.encode(g.observation(p))
            assert canonical_observation(h.observation(p)) == canonical_observation(g.observation(p))
    assert changed > 0, "the test never changed anything hidden"


def _two_hidden_brokers(seed):
    """A Ys state where player 1 has two face-down brokers of different values that player 0 has not seen."""
    for g in _states("ys", seed, every=1):
        hid = [pc for pc in g.s.pieces if pc[1] == 1 and visible_value(g, pc, 0) is None
               and pc[3] not in g.prog.pieces["broker"]["private"]]
        for a in hid:
            for b in hid:
                if a[2] != b[2]:
                    return g, a, b
    return None


def test_face_down_brokers_are_not_revealed_by_their_order():
    found = None
    for seed in range(40):
        found = _two_hidden_brokers(seed)
        if found:
            break
    assert found, "no Ys state with two face-down brokers found"
    g, a, b = found
    h = g.clone()
    ia, ib = g.s.pieces.index(a), g.s.pieces.index(b)
    # The counterfactual: the two brokers were placed the other way round.
    h.s.pieces[ia][3], h.s.pieces[ib][3] = b[3], a[3]
    enc = ObservationEncoder(g, catalogue_for("ys", players=4))
    assert enc.encode(h.observation(0)) == enc.encode(g.observation(0))
    assert canonical_observation(h.observation(0)) == canonical_observation(g.observation(0))
    # But player 1 sees their own brokers: the vector must tell the two states apart.
    assert enc.encode(h.observation(1)) != enc.encode(g.observation(1))


def test_engine_observation_dict_is_order_safe():
    g, a, b = next(x for x in (_two_hidden_brokers(s) for s in range(40)) if x)
    h = g.clone()
    ia, ib = g.s.pieces.index(a), g.s.pieces.index(b)
    h.s.pieces[ia][3], h.s.pieces[ib][3] = b[3], a[3]
    assert h.observation(0) == g.observation(0)


def test_other_hands_show_only_counts():
    for g in _states("ys", 5, every=11):
        for p in range(4):
            obs = g.observation(p)
            for q, hand in enumerate(obs["zones"]["hand"]):
                assert isinstance(hand, list) == (q == p)


@pytest.mark.parametrize("argv, code, message", [
    (["caylus", "--players", "4", "--check", "2"], 0, "caylus (base), 4 players, digest "),
    (["cayls"], 2, "error: unknown ruleset 'cayls'"),
    (["caylus", "--variant", "nope"], 2, "error: unknown variant 'nope' of caylus"),
    (["caylus", "--players", "9"], 1, "error: caylus is for 3 to 5 players, not 9"),
    (["caylus", "--check", "-1"], 2, "expected a number >= 0, got -1"),
])
def test_the_catalogue_command_says_what_is_wrong_without_a_traceback(argv, code, message):
    """`python -m provost.adapters.catalogue RULESET ...` (docs/ai.md), run as a user runs it."""
    import subprocess
    import sys
    p = subprocess.run([sys.executable, "-m", "provost.adapters.catalogue", *argv], capture_output=True, text=True)
    assert p.returncode == code and message in p.stdout + p.stderr and "Traceback" not in p.stderr, p.stderr


def test_an_index_outside_the_catalogue_is_no_action():
    # Once: action_of(-1) was the last action (a Python list's index), so a raw PettingZoo env
    # stepped with -1, or an OpenSpiel state given it, played that option when it was legal.
    from provost.adapters.catalogue import catalogue_for
    from provost.dsl.loader import load_checked

    cat = catalogue_for(load_checked("caylus"), players=3, games=5)
    n = len(cat)
    assert cat.action_of(n - 1) == cat.actions[-1]
    for bad in (-1, -n, n):
        with pytest.raises(IndexError, match="is not one of 0..%d" % (n - 1)):
            cat.action_of(bad)
    np = pytest.importorskip("numpy")       # an index as the adapters' extras give it
    assert cat.action_of(np.int64(0)) == cat.actions[0]
    with pytest.raises(IndexError, match="is not one of 0..%d" % (n - 1)):
        cat.action_of(np.int64(-1))
