"""The OpenSpiel Python games: GameType, OpenSpiel's random_sim_test, observations.

Skipped (with the reason) when open_spiel is not installed: ``pip install -e .[openspiel]``.
"""
from __future__ import annotations

import json
import random

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="optional: pip install provost[openspiel]")

import provost.adapters.openspiel_game as osg  # noqa: E402
from provost.interpreter.agents.mcts import determinize  # noqa: E402

GT = pyspiel.GameType


@pytest.mark.parametrize("name,info", [("caylus", GT.Information.PERFECT_INFORMATION),
                                       ("caylus1303", GT.Information.IMPERFECT_INFORMATION),
                                       ("ys", GT.Information.IMPERFECT_INFORMATION)])
def test_game_type(name, info):
    game = pyspiel.load_game("python_provost_" + name)
    t = game.get_type()
    assert t.dynamics == GT.Dynamics.SEQUENTIAL
    assert t.chance_mode == GT.ChanceMode.EXPLICIT_STOCHASTIC     # one chance node: the deal
    assert t.information == info
    assert t.utility == GT.Utility.ZERO_SUM
    assert game.num_distinct_actions() == len(game.catalogue)


@pytest.mark.parametrize("name", ["caylus", "caylus1303", "ys"])
def test_random_sim(name):
    game = pyspiel.load_game("python_provost_" + name, {"players": 4})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_serialize_pickle_and_clone_keep_the_game():
    import pickle
    game = pyspiel.load_game("python_provost_ys", {"players": 4})
    s = game.new_initial_state()
    s.apply_action(17)                                   # the deal
    r = random.Random(4)
    for _ in range(60):
        s.apply_action(r.choice(s.legal_actions()))
    for other in (pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, s))[1],
                  pickle.loads(pickle.dumps(s)), s.clone(), game.deserialize_state(s.serialize())):
        assert other.engine.to_json() == s.engine.to_json() and other.history() == s.history()
    assert s.clone()._catalogue is s._catalogue          # shared, never copied per clone


def test_playthrough_and_observers():
    from open_spiel.python.algorithms import generate_playthrough
    text = generate_playthrough.playthrough("python_provost_caylus1303(players=3)", action_sequence=None,
                                            alsologtostdout=False)
    assert "ObservationString(0)" in text and "InformationStateString(0)" in text and "deal " in text
    game = pyspiel.load_game("python_provost_ys")
    recall = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    assert recall is not None and recall.tensor is None          # strings only: no fixed-size history
    assert game.make_py_observer() is not None
    everyone = pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS)
    assert game.make_py_observer(everyone) is None


@pytest.mark.parametrize("name", ["caylus", "caylus1303", "ys"])
def test_openspiel_mcts_bots_play_whole_games(name):
    import numpy as np
    from open_spiel.python.algorithms import mcts
    game = pyspiel.load_game("python_provost_" + name, {"players": 3})
    rng = np.random.RandomState(5)
    bots = [mcts.MCTSBot(game, uct_c=2, max_simulations=3, evaluator=mcts.RandomRolloutEvaluator(1, rng),
                         random_state=rng) for _ in range(3)]
    s = game.new_initial_state()
    while not s.is_terminal():
        if s.is_chance_node():
            outcomes = s.chance_outcomes()
            s.apply_action(outcomes[rng.randint(len(outcomes))][0])
        else:
            s.apply_action(bots[s.current_player()].step(s))
    assert abs(sum(s.returns())) < 1e-9


def test_variant_and_players_parameters():
    game = pyspiel.load_game("python_provost_ys", {"variant": "two_players", "players": 2})
    assert game.num_players() == 2
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_each_deal_is_a_chance_outcome_reproducibly():
    a = pyspiel.load_game("python_provost_caylus", {"seed": 3})
    b = pyspiel.load_game("python_provost_caylus", {"seed": 3})
    s = a.new_initial_state()
    assert s.is_chance_node() and len(s.chance_outcomes()) == osg.DEALS
    seeds = []
    for game in (a, b):
        for k in (0, 1, 2):
            t = game.new_initial_state()
            t.apply_action(k)
            seeds.append(t.engine.seed)
    assert seeds[:3] == seeds[3:] and len(set(seeds[:3])) == 3


def test_a_seed_openspiel_cannot_hold_is_a_value_error_naming_the_range():
    # Once: load_game(..., {"seed": 2**31}) and the game's class failed in pybind ("Unable to cast
    # Python instance of type int"), and the class made 1.5, "3" and True seeds 1, 3 and 1.
    same = osg.load("caylus", players=3, seed=-2 ** 31).new_initial_state()
    same.apply_action(5)
    game = pyspiel.load_game("python_provost_caylus", {"players": 3, "seed": -2 ** 31})
    twin = game.new_initial_state()
    twin.apply_action(5)
    assert same.engine.to_json() == twin.engine.to_json()                  # a negative seed plays as before
    np = pytest.importorskip("numpy")
    assert osg.load("caylus", players=3, seed=np.int64(2 ** 31 - 1)).get_parameters()["seed"] == 2 ** 31 - 1
    game_class = type(game)
    for bad in (2 ** 31, -2 ** 31 - 1, 2 ** 63, 2 ** 64, 1.5, "3", True):
        with pytest.raises(ValueError, match=r"the seed parameter is a whole number from -2\*\*31 to 2\*\*31 - 1"):
            osg.load("caylus", players=3, seed=bad)
        with pytest.raises(ValueError, match=r"from -2\*\*31 to 2\*\*31 - 1 \(an OpenSpiel int parameter\), not "):
            game_class({"players": 3, "seed": bad})


def test_play_to_the_end_with_returns():
    game = pyspiel.load_game("python_provost_caylus", {"players": 3})
    s = game.new_initial_state()
    s.apply_action(1)                                    # the deal
    r = random.Random(1)
    while not s.is_terminal():
        s.apply_action(r.choice(s.legal_actions()))
    ret = s.returns()
    assert abs(sum(ret)) < 1e-9 and -1.0 <= min(ret) <= max(ret) <= 1.0


def test_observations_do_not_leak_hidden_values():
    game = pyspiel.load_game("python_provost_ys", {"players": 4})
    s = game.new_initial_state()
    s.apply_action(2)                                    # the deal
    r = random.Random(2)
    checked = 0
    for step in range(300):
        if s.is_terminal():
            break
        if step % 13 == 0:
            for p in range(4):
                text, tensor = s.observation_string(p), list(s.observation_tensor(p))
                other = s.clone()
                other._box.g = determinize(s.engine, p, random.Random(step))
                assert other.observation_string(p) == text
                assert list(other.observation_tensor(p)) == tensor
                json.loads(text)
                checked += 1
        s.apply_action(r.choice(s.legal_actions()))
    assert checked > 10


def test_clone_is_independent():
    game = pyspiel.load_game("python_provost_caylus")
    s = game.new_initial_state()
    s.apply_action(0)                                    # the deal
    c = s.clone()
    c.apply_action(c.legal_actions()[0])
    assert s.history() == [0] and len(c.history()) == 2
    assert s.engine.s.decisions == 0


@pytest.mark.parametrize("name,keys", [("ys", "information states"), ("caylus1303", "information states"),
                                       ("caylus1303", "observations")])
def test_openspiel_ismcts_bots_play_whole_games(name, keys):
    """ISMCTS on the imperfect-information games (it refuses Caylus, which hides nothing: MCTSBot
    is its search), its worlds drawn by resample_from_infostate (Game.determinize), its tree keyed
    by perfect-recall information states (its default) or by observation strings."""
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts
    game = pyspiel.load_game("python_provost_" + name, {"players": 3})
    rng = np.random.RandomState(2)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    bots = [ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=3,
                             use_observation_string=keys == "observations", random_state=rng) for _ in range(3)]
    s = game.new_initial_state()
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(int(rng.randint(osg.DEALS)))
        else:
            s.apply_action(bots[s.current_player()].step(s))
    assert abs(sum(s.returns())) < 1e-9


def test_resampled_states_look_the_same_to_the_player():
    game = pyspiel.load_game("python_provost_ys", {"players": 4})
    s = game.new_initial_state()
    s.apply_action(5)
    r = random.Random(5)
    for _ in range(80):
        s.apply_action(r.choice(s.legal_actions()))
    p = s.current_player()
    worlds = [s.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0)) for _ in range(4)]
    assert all(w.observation_string(p) == s.observation_string(p) for w in worlds)
    assert len({w.engine.to_json() for w in worlds}) > 1            # the hidden part differs


def _played(game, deal, steps, seed):
    s = game.new_initial_state()
    s.apply_action(deal)
    r = random.Random(seed)
    for _ in range(steps):
        s.apply_action(r.choice(s.legal_actions()))
    return s


def test_information_states_recall_everything_a_player_saw():
    game = pyspiel.load_game("python_provost_ys", {"players": 4})
    s = _played(game, 9, 70, 9)
    strings = [s.information_state_string(p) for p in range(4)]
    assert len(set(strings)) == 4                                   # each player saw something else
    # built by replaying the history once, then extended action by action: the same strings
    later = s.clone()
    r = random.Random(1)
    for _ in range(25):
        a = r.choice(later.legal_actions())
        later.apply_action(a)
    replayed = game.deserialize_state(later.serialize())
    assert [later.information_state_string(p) for p in range(4)] == \
        [replayed.information_state_string(p) for p in range(4)]
    assert all(later.information_state_string(p) != strings[p] for p in range(4))   # time is seen too
    # a world re-dealt for player p is the same information state for p
    p = s.current_player()
    world = s.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert world.information_state_string(p) == s.information_state_string(p)
    a = world.legal_actions()[0]
    world.apply_action(a)
    assert world.information_state_string(p) != s.information_state_string(p)


def test_information_states_tell_apart_what_the_observations_of_the_moment_do_not():
    """Perfect recall: two histories that end in the same observation for a player but came
    through different ones are different information states for that player."""
    game = pyspiel.load_game("python_provost_caylus1303", {"players": 3})
    a, b = _played(game, 3, 0, 0), _played(game, 4, 0, 0)
    assert a.information_state_string(0) != b.information_state_string(0)
    before = game.new_initial_state()
    assert before.information_state_string(0) == "before the deal"


def test_a_perfect_information_game_resamples_to_the_same_world_with_its_history():
    """OpenSpiel's default for perfect-information games: a clone, whose history() leads to it
    from the root (deserialize_state rebuilds it); nothing is hidden, so nothing leaks."""
    game = pyspiel.load_game("python_provost_caylus", {"players": 3})
    s = _played(game, 7, 30, 7)
    for p in range(3):
        world = s.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert world.history() == s.history() and len(world.history()) == 31
        assert world.engine.to_json() == s.engine.to_json()
        assert world.information_state_string(p) == s.information_state_string(p)
        assert game.deserialize_state(world.serialize()).engine.to_json() == s.engine.to_json()


def test_a_variant_file_or_an_edited_copy_registers_as_its_own_game(tmp_path):
    # Once: register() named the game by the rules' game name alone, so a variant file of Ys or
    # an edited copy of caylus.rules got "python_provost_ys" / "_caylus" back: the shipped rules,
    # the user's changes silently left out.
    import pickle

    from provost.dsl.loader import shipped_dir

    mine = tmp_path / "a+b" / "my+var.rules"
    mine.parent.mkdir()
    mine.write_text('variant myvar "Mine" extends ys:\n    description "x"\n'
                    '    replace let bank_start = {blue: 40, green: 40, yellow: 40, red: 40, black: 20, white: 5}\n')
    short = osg.register(str(mine))
    assert short == "python_provost_ys_myvar" and osg.register(str(mine)) == short
    game = pyspiel.load_game(short)
    bank = next(d for d in game.rs.decls if d.get("name") == "bank_start")
    assert bank["value"]["items"][0][1]["v"] == 40
    assert pickle.loads(pickle.dumps(game)).get_type().short_name == short
    copy = tmp_path / "caylus.rules"
    with open("%s/caylus.rules" % shipped_dir(), encoding="utf-8") as f:
        copy.write_text(f.read().replace("4: 7, 5: 7}", "4: 9, 5: 7}"), encoding="utf-8")
    other = osg.register(str(copy))
    assert other.startswith("python_provost_caylus_") and other != "python_provost_caylus"
    start = next(d for d in pyspiel.load_game(other).rs.decls if d.get("name") == "start_money")
    assert "9" in repr(start)
    assert osg.register("caylus") == "python_provost_caylus"


def test_an_illegal_action_raises_naming_the_legal_actions_and_changes_nothing():
    """The engine's error named option ids only (and an index past the catalogue said nothing
    of the legal ones): an OpenSpiel caller plays indexes, so the legal ones are named as
    ``index (id)``, and the state is as it was."""
    game = pyspiel.load_game("python_provost_ys", {"players": 3})
    state = game.new_initial_state()
    state.apply_action(7)
    legal, history = state.legal_actions(), state.history()
    for bad in (next(a for a in range(game.num_distinct_actions()) if a not in legal), game.num_distinct_actions()):
        with pytest.raises(ValueError) as e:
            state.apply_action(bad)
        assert ("action %d" % bad) in str(e.value)
        named = str(e.value).split("legal actions: ", 1)[1].split(", ")
        assert named == ["%d (%s)" % (a, state.action_to_string(a)) for a in legal]
        assert state.history() == history and state.legal_actions() == legal
    state.apply_action(legal[0])


def test_the_greedy_agent_plays_through_the_game_and_beats_random():
    """docs/ai.md: a bundled bot's option id is an OpenSpiel action through the catalogue."""
    from provost.interpreter.agents import make_agent
    game = pyspiel.load_game("python_provost_caylus", {"players": 2})
    for deal in (1, 2):
        state = game.new_initial_state()
        state.apply_action(deal)
        greedy, r = make_agent("greedy", seed=deal, seat=1), random.Random(deal)
        while not state.is_terminal():
            if state.current_player() == 1:
                action = game.catalogue.index_of(greedy.choose(state.engine, state.current_player()))
                assert action in state.legal_actions()
            else:
                action = r.choice(state.legal_actions())
            state.apply_action(action)
        assert state.returns() == [-1.0, 1.0]
