"""The engine's decision API (DESIGN.md section 5), exercised through Caylus.

- an illegal option raises IllegalOption naming the legal ones, and the state is unchanged;
- the same seed (and agent seeds) gives the same game, option ids included;
- save at a random decision, resume with from_json in a fresh process, continue with the
  same agent seeds: identical final result;
- clone() is independent of the original in both directions;
- agents: registry, seat-derived seeds, unknown names.
"""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from provost.dsl.diagnostics import RulesError
from provost.dsl.loader import load_checked, resolve_path
from provost.interpreter.agents import UnknownAgent, agent_seed, make_agent, play_game
from provost.interpreter.engine import Game, IllegalOption

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def rs():
    return load_checked("caylus")


def random_agents(n, seed):
    return [make_agent("random", seed, seat) for seat in range(n)]


def play_to(game, k, agents):
    """Play ``k`` decisions (or to the end); returns the options chosen."""
    chosen = []
    while not game.finished and len(chosen) < k:
        p = game.current_player()
        opt = agents[p].choose(game, p)
        game.apply(opt)
        chosen.append(opt)
    return chosen


# ------------------------------------------------------------------ illegal options
def test_illegal_option_names_the_legal_ones_and_leaves_the_state_unchanged(rs):
    g = Game.new(rs, players=4, seed=3)
    play_to(g, 17, random_agents(4, 3))
    before = g.to_json()
    legal = g.legal_options()
    with pytest.raises(IllegalOption) as info:
        g.apply("place:the_moon")
    message = str(info.value)
    assert "place:the_moon" in message
    for opt in legal:
        assert opt in message
    assert info.value.legal == legal
    assert g.to_json() == before
    # a legal option still works afterwards
    g.apply(legal[0])
    assert g.s.decisions == 18


def test_illegal_option_names_every_legal_option_however_many():
    legal = ["build:tile_%03d" % i for i in range(120)]
    message = str(IllegalOption("build:nothing", legal, 2))
    assert all(opt in message for opt in legal) and "..." not in message


@pytest.mark.parametrize("option", [None, 3, ["pass"], {"id": "pass"}, 1.5])
def test_an_option_that_is_not_a_string_is_illegal_not_a_crash(rs, option):
    g = Game.new(rs, players=3, seed=8)
    play_to(g, 5, random_agents(3, 8))
    before, legal = g.to_json(), g.legal_options()
    with pytest.raises(IllegalOption) as info:
        g.apply(option)
    message = str(info.value)
    assert "an option id is a string, not %s" % type(option).__name__ in message
    assert all(opt in message for opt in legal)
    assert g.to_json() == before


def test_every_decision_point_rejects_a_wrong_id_without_change(rs):
    g = Game.new(rs, players=3, seed=11)
    agents = random_agents(3, 11)
    checked = 0
    while not g.finished and checked < 80:
        before = g.to_json()
        with pytest.raises(IllegalOption):
            g.apply("no-such-option")
        assert g.to_json() == before
        play_to(g, 1, agents)
        checked += 1


def test_applying_after_the_end_is_illegal(rs):
    g = play_game(Game.new(rs, players=3, seed=5), random_agents(3, 5))
    assert g.finished and g.current_player() is None and g.legal_options() == []
    before = g.to_json()
    with pytest.raises(IllegalOption) as info:
        g.apply("pass")
    assert g.to_json() == before
    assert str(info.value) == "'pass' is not a legal option now (the game is over); legal options: none"


def test_a_wrong_option_during_setup_says_setup():
    g = Game.new("caylus1303", players=4, seed=1)      # characters are chosen before the first phase
    assert g.s.phase == "" and g.legal_options()[0].startswith("character:")
    with pytest.raises(IllegalOption) as info:
        g.apply("nope")
    assert "'Choose a character' (setup)" in str(info.value) and "(phase )" not in str(info.value)


def test_option_ids_are_unique_and_readable(rs):
    g = Game.new(rs, players=5, seed=2)
    agents = random_agents(5, 2)
    while not g.finished:
        opts = g.legal_options()
        assert opts and len(opts) == len(set(opts))
        assert all(isinstance(o, str) and o and " " not in o for o in opts)
        play_to(g, 1, agents)


# ------------------------------------------------------------------ determinism
@pytest.mark.parametrize("players", [3, 4, 5])
def test_same_seed_same_game(rs, players):
    runs = []
    for _ in range(2):
        g = Game.new(rs, players=players, seed=42)
        trace = []
        agents = random_agents(players, 42)
        while not g.finished:
            trace.append((g.current_player(), tuple(g.legal_options())))
            play_to(g, 1, agents)
        runs.append((trace, g.to_json(), g.scores()))
    assert runs[0] == runs[1]


def test_same_seed_in_another_process(rs):
    g = play_game(Game.new(rs, players=4, seed=8), random_agents(4, 8))
    code = ("import sys; from provost.interpreter.engine import Game; from provost.interpreter.agents import make_agent, play_game\n"
            "g = play_game(Game.new('caylus', players=4, seed=8), [make_agent('random', 8, i) for i in range(4)])\n"
            "sys.stdout.write(g.to_json())")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": "123"})
    assert out.stdout == g.to_json()


def test_different_seeds_differ(rs):
    a = Game.new(rs, players=4, seed=1)
    b = Game.new(rs, players=4, seed=2)
    assert a.to_json() != b.to_json()


def test_agent_seeds_depend_on_game_seed_and_seat():
    assert agent_seed(1, 0) == agent_seed(1, 0)
    assert len({agent_seed(s, seat) for s in range(5) for seat in range(5)}) == 25
    a, b = make_agent("random", 7, 2), make_agent("random", 7, 2)
    assert [a.rng.random() for _ in range(3)] == [b.rng.random() for _ in range(3)]


def test_unknown_agent_lists_the_known_ones():
    with pytest.raises(UnknownAgent) as info:
        make_agent("greedyy", 0, 0)
    msg = str(info.value)
    assert "greedyy" in msg and "did you mean 'greedy'" in msg
    for name in ("random", "greedy", "human"):
        assert name in msg


# ------------------------------------------------------------------ save and resume
RESUME = """
import json, sys
from provost.interpreter.engine import Game
from provost.interpreter.agents import make_agent, play_game
text = open(sys.argv[1]).read()
names = json.loads(sys.argv[2])
seed = int(sys.argv[3])
g = Game.from_json(text)
play_game(g, [make_agent(n, seed, i) for i, n in enumerate(names)])
print(json.dumps({"state": g.to_json(), "scores": g.scores(), "winners": g.winners(), "decisions": g.s.decisions}))
"""


@pytest.mark.parametrize("players,seed,names", [
    (4, 21, ["random"] * 4),
    (3, 22, ["random", "random", "random"]),
    (5, 23, ["random", "greedy", "random", "random", "random"]),
])
def test_save_at_a_random_decision_and_resume_in_a_fresh_process(rs, tmp_path, players, seed, names):
    g = Game.new(rs, players=players, seed=seed)
    total = play_game(g.clone(), random_agents(players, seed)).s.decisions
    k = random.Random(seed).randrange(1, total)
    play_to(g, k, random_agents(players, seed))
    assert not g.finished and g.s.decisions == k
    saved = g.to_json()
    (tmp_path / "save.json").write_text(saved)
    # in this process: a round trip through JSON, then continue with fresh agents of the same seeds
    resumed_here = Game.from_json(saved, rs)
    assert resumed_here.to_json() == saved
    play_game(resumed_here, [make_agent(n, 1000 + seed, i) for i, n in enumerate(names)])
    # the same from the original object, untouched by the save
    play_game(g, [make_agent(n, 1000 + seed, i) for i, n in enumerate(names)])
    assert g.to_json() == resumed_here.to_json()
    # in a fresh process
    out = subprocess.run([sys.executable, "-c", RESUME, str(tmp_path / "save.json"), json.dumps(names),
                          str(1000 + seed)], cwd=ROOT, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": "99"})
    assert out.returncode == 0, out.stderr
    there = json.loads(out.stdout)
    assert there["state"] == g.to_json()
    assert (there["scores"], there["winners"], there["decisions"]) == (g.scores(), g.winners(), g.s.decisions)


def test_save_is_plain_json_and_names_its_rules(rs):
    g = Game.new(rs, players=4, seed=4)
    play_to(g, 30, random_agents(4, 4))
    d = json.loads(g.to_json())
    assert d["ruleset"] == "caylus" and d["digest"] == rs.digest and d["seed"] == 4
    # loading without a ruleset loads it by name
    assert Game.from_json(g.to_json()).to_json() == g.to_json()


def test_a_game_of_rules_from_a_file_resumes_from_that_file_in_a_fresh_process(tmp_path):
    rules = tmp_path / "mycaylus.rules"
    rules.write_text((ROOT / "rulesets" / "caylus.rules").read_text())
    g = Game.new(load_checked(str(rules)), players=3, seed=6)
    play_to(g, 40, random_agents(3, 6))
    saved = g.to_json()
    assert json.loads(saved)["path"] == str(rules.resolve())
    (tmp_path / "save.json").write_text(saved)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    out = subprocess.run([sys.executable, "-c", RESUME, str(tmp_path / "save.json"), json.dumps(["random"] * 3),
                          "77"], cwd=elsewhere, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stderr
    play_game(g, [make_agent("random", 77, i) for i in range(3)])
    assert json.loads(out.stdout)["state"] == g.to_json()
    # the file changed, then gone: a RulesError naming it, never a game on other rules
    rules.write_text(rules.read_text().replace("start 6 min 1 max 28", "start 7 min 1 max 28", 1))
    with pytest.raises(RulesError, match="the rule file changed since the game was saved") as info:
        Game.from_json(saved)
    assert info.value.diagnostics[0].path == str(rules.resolve())
    rules.unlink()
    with pytest.raises(RulesError, match="the rule file this game was saved with is gone"):
        Game.from_json(saved)


def test_a_shipped_ruleset_is_saved_by_name_only(rs):
    assert "path" not in json.loads(Game.new("caylus", players=3, seed=1).to_json())


def test_a_neutral_player_scores_but_never_wins():
    g = Game.new("ys", players=2, seed=1, variant="two_players")
    assert (g.s.players, g.s.humans) == (3, 2)
    g.s.counters[g.prog.score][:] = [30, 41, 55]      # the neutral seat (2) has the best score
    assert g.winners() == [1]
    assert g.scores() == [30, 41, 55]                 # every seat's score, neutral last
    assert g.result()["scores"] == [30, 41] and g.result()["neutral_scores"] == [55]
    g.s.counters[g.prog.score][:] = [41, 41, 55]
    assert set(g.winners()) <= {0, 1} and g.winners()


# ------------------------------------------------------------------ clone
def test_clone_is_independent(rs):
    g = Game.new(rs, players=4, seed=9)
    play_to(g, 25, random_agents(4, 9))
    before = g.to_json()
    c = g.clone()
    assert c.to_json() == before
    play_to(c, 60, random_agents(4, 77))
    assert g.to_json() == before, "playing on a clone changed the original"
    after_clone = c.to_json()
    play_to(g, 60, random_agents(4, 78))
    assert c.to_json() == after_clone, "playing on the original changed the clone"


def test_clone_replays_identically(rs):
    g = Game.new(rs, players=5, seed=10)
    play_to(g, 40, random_agents(5, 10))
    c = g.clone()
    a = play_game(g, random_agents(5, 3))
    b = play_game(c, random_agents(5, 3))
    assert a.to_json() == b.to_json()


def test_clone_at_every_decision_matches_the_save(rs):
    g = Game.new(rs, players=3, seed=12)
    agents = random_agents(3, 12)
    while not g.finished:
        assert g.clone().to_json() == g.to_json()
        play_to(g, 1, agents)


# ------------------------------------------------------------------ observation
def test_observation_lists_options_only_for_the_player_to_move(rs):
    g = Game.new(rs, players=4, seed=13)
    play_to(g, 10, random_agents(4, 13))
    p = g.current_player()
    assert g.observation(p)["options"] == g.legal_options()
    for q in range(4):
        obs = g.observation(q)
        json.dumps(obs)
        if q != p:
            assert obs["options"] == []
        assert obs["counters"][rs.game()["score"]] == g.scores()


@pytest.mark.parametrize("seat", [-1, 5, 99, "0", None, 1.0, True])
def test_observation_of_a_seat_that_is_not_one_is_a_value_error(seat):
    # Seats 0..players-1 and the spectator (players); -1 once raised 'negative shift count' from
    # the pieces' seen bits, and '0' or None gave a view of nobody under that name.
    g = Game.new("ys", players=4, seed=3)
    for option in ["bid:0+1", "bid:0+1", "bid:0+1", "bid:0+1"]:
        g.apply(option)
    with pytest.raises(ValueError, match="a seat is a whole number from 0 to 4 \\(4: a spectator\\), not "):
        g.observation(seat)
    assert g.observation(4)["player"] == 4 and g.observation(0)["player"] == 0


def test_an_occupied_unlimited_space_stays_open(tmp_path):
    # `slots unlimited` is kept as -1 at run time: a worker already there must not make it "full".
    big = tmp_path / "caylus.big_castle.rules"
    big.write_text('variant big_castle "Big castle" extends caylus:\n'
                   '    replace space castle "Castle":\n'
                   '        slots unlimited\n')
    g = Game.new(load_checked(str(big)), players=3, seed=0)
    g.s.occ["castle"] = [1, 2]
    assert "castle" in g.open_spaces(0)


def test_a_game_without_a_seed_draws_one_and_reports_it(rs):
    """DESIGN: with no seed given, one is drawn and reported (``game.seed``), and the game it
    gives is the game of that seed."""
    a, b = Game.new(rs, players=4), Game.new(rs, players=4)
    assert a.seed != b.seed and 0 <= a.seed < 2 ** 64
    again = Game.new(rs, players=4, seed=a.seed)
    assert again.to_json() == a.to_json()


@pytest.mark.parametrize("seed", [-1, 2 ** 64, True, 1.0, "7", [7]])
def test_a_seed_outside_0_to_2_64_is_refused_not_aliased(rs, seed):
    with pytest.raises(ValueError, match="0 to 2\\*\\*64 - 1"):
        Game.new(rs, players=4, seed=seed)
    top = Game.new(rs, players=4, seed=2 ** 64 - 1)
    assert Game.from_json(top.to_json()).to_json() == top.to_json()


@pytest.mark.parametrize("players", ["4", 4.0, True, [4]])
@pytest.mark.parametrize("by_name", [False, True])
def test_a_player_count_that_is_not_a_whole_number_is_a_value_error(rs, players, by_name):
    # Was a bare TypeError from inside the loader ('<=' not supported between 'int' and 'str').
    with pytest.raises(ValueError, match="players is a whole number of players, not "):
        Game.new("caylus" if by_name else rs, players=players, seed=1)


def test_new_says_what_it_takes_for_the_rules_and_the_variant(rs, tmp_path):
    with pytest.raises(ValueError, match="variant is a variant's name or a variant file's path"):
        Game.new("caylus", players=4, seed=1, variant=5)
    with pytest.raises(ValueError, match="rs is a ruleset's name, a rule file's path or a Ruleset"):
        Game.new(42, players=4, seed=1)
    # A Ruleset has its variants applied already: a variant given with it was silently ignored.
    with pytest.raises(ValueError, match="load_checked\\('caylus', 'simplified_favor'\\) gives the rules"):
        Game.new(rs, players=4, seed=1, variant="simplified_favor")
    rules = tmp_path / "caylus.rules"       # a Path, as pathlib gives it
    rules.write_text(open(resolve_path("caylus"), encoding="utf-8").read(), encoding="utf-8")
    assert Game.new(rules, players=4, seed=1).to_json() == Game.new(str(rules), players=4, seed=1).to_json()
