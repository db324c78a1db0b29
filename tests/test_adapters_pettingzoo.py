"""The PettingZoo AEC environment: PettingZoo's own API and seed tests, and a leak test.

Skipped (with the reason) when pettingzoo is not installed: ``pip install -e .[pettingzoo]``.
"""
from __future__ import annotations

import random

import pytest

pytest.importorskip("pettingzoo", reason="optional: pip install provost[pettingzoo]")
pytest.importorskip("gymnasium", reason="optional: pip install provost[pettingzoo]")

import numpy as np  # noqa: E402
from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402

from provost.adapters.pettingzoo_env import ProvostAECEnv, env, raw_env  # noqa: E402
from provost.interpreter.agents.mcts import determinize  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

CASES = [("caylus", None, 4), ("caylus1303", None, 4), ("ys", None, 4)]


@pytest.mark.parametrize("ruleset,variant,players", CASES)
def test_api(ruleset, variant, players):
    api_test(env(ruleset, variant=variant, players=players), num_cycles=1000, verbose_progress=False)


@pytest.mark.parametrize("ruleset,variant,players", CASES)
def test_seed(ruleset, variant, players):
    seed_test(lambda: env(ruleset, variant=variant, players=players), num_cycles=300)


def test_render():
    # PettingZoo's own test tries every mode the environment advertises (rgb_array: Pillow, which
    # the pettingzoo extra installs).
    render_test(lambda render_mode=None: env("ys", players=2, render_mode=render_mode))


def test_variant_with_a_neutral_seat():
    e = env("ys", variant="two_players", players=2)
    api_test(e, num_cycles=300, verbose_progress=False)
    assert e.unwrapped.possible_agents == ["player_0", "player_1"]


def test_the_final_info_gives_the_agents_scores_and_the_neutral_seats_apart():
    # Ys for 2: info["scores"] held the neutral third seat's score too, one more than the agents.
    e = env("ys", players=2)
    e.reset(seed=3)
    final = {}
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        if term or trunc:
            final[agent] = info
            e.step(None)
            continue
        assert info == {}
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    g = e.unwrapped.game
    assert g.finished and g.s.players == 3
    assert final == {a: {"scores": g.scores()[:2], "neutral_scores": g.scores()[2:], "winners": g.winners()}
                     for a in e.possible_agents}


def _play(e, seed, policy_seed=0):
    e.reset(seed=seed)
    r = random.Random(policy_seed)
    total = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        total[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(legal[r.randrange(len(legal))]))
    return total


def test_full_game_rewards_are_ranks():
    e = env("caylus", players=4)
    total = _play(e, 5)
    assert abs(sum(total.values())) < 1e-9 and max(total.values()) > 0
    g = e.unwrapped.game
    assert g.finished
    assert [i for i, a in enumerate(e.possible_agents) if total[a] == max(total.values())] == g.winners()


def test_reset_without_seed_continues_the_seeded_sequence():
    a, b = raw_env("caylus", players=3), raw_env("caylus", players=3)
    a.reset(seed=9), b.reset(seed=9)
    a.reset(), b.reset()
    assert a.game.seed == b.game.seed != 9


def test_illegal_action_raises_naming_the_legal_ones():
    e = raw_env("caylus", players=4)
    e.reset(seed=1)
    mask = e.observe(e.agent_selection)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match="not legal"):
        e.step(bad)
    # An action that is no integer is not rounded to one (1.5 was played as action 1).
    legal = int(np.flatnonzero(mask)[0])
    with pytest.raises(ValueError, match=r"action %s is not legal for %s now; legal actions: .*%d \(" % (legal + 0.5, e.agent_selection, legal)):
        e.step(legal + 0.5)
    assert e.game.s.decisions == 0


def test_mask_only_for_the_agent_to_move():
    e = raw_env("ys", players=4)
    e.reset(seed=2)
    for a in e.possible_agents:
        m = e.observe(a)["action_mask"]
        assert (m.sum() > 0) == (a == e.agent_selection)


def test_observation_vectors_do_not_leak_hidden_values():
    """Resampling everything player p cannot see leaves p's observation (vector and mask) unchanged."""
    e = raw_env("ys", players=4)
    e.reset(seed=3)
    r = random.Random(0)
    checked = 0
    for step in range(400):
        g = e.game
        if g.finished:
            break
        if step % 9 == 0:
            for p, agent in enumerate(e.possible_agents):
                before = e.observe(agent)
                e.game = determinize(g, p, random.Random(step))
                after = e.observe(agent)
                e.game = g
                assert np.array_equal(before["observation"], after["observation"])
                assert np.array_equal(before["action_mask"], after["action_mask"])
                checked += 1
        mask = e.observe(e.agent_selection)["action_mask"]
        legal = np.flatnonzero(mask)
        e.step(int(legal[r.randrange(len(legal))]))
    assert checked > 20


def test_env_class_is_an_aec_env():
    from pettingzoo import AECEnv
    assert issubclass(ProvostAECEnv, AECEnv)


def test_the_env_pickles_mid_game_and_plays_on_the_same():
    """Pickled as its arguments, the engine's save and the episode's plain data: the copy gives
    every agent the same observation and mask, and the same actions the same game."""
    import copy
    import pickle
    e = raw_env("ys", players=3, catalogue_games=20)
    e.reset(seed=4)
    for _ in range(20):
        e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    copies = [pickle.loads(pickle.dumps(e)), copy.deepcopy(e)]

    def rest(env):
        out = []
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            out.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward))
            env.step(None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[-1]))
        return out

    for other in copies:
        assert other.agent_selection == e.agent_selection
        for agent in e.possible_agents:
            assert all((other.observe(agent)[k] == e.observe(agent)[k]).all() for k in ("observation", "action_mask"))
    runs = [rest(x) for x in [e] + copies]
    assert len(runs[0]) > 10 and runs[0] == runs[1] == runs[2]
    e.reset()
    copies[0].reset()                       # the next game's seed comes from the pickled generator
    assert e.game.to_json() == copies[0].game.to_json()


def test_reset_takes_numpy_seeds_and_refuses_what_is_not_a_seed():
    # Once: reset(seed=np.int64(5)) raised random.Random's TypeError, and reset(seed=1.5) or
    # reset(seed="1") silently played the game of seed 1 (with another generator for later resets).
    import numpy as np

    e = env("caylus", players=3)
    e.reset(seed=np.int64(5))
    first = e.game.seed
    e.reset(seed=5)
    assert e.game.seed == first
    for bad in (1.5, "1", True, -1, 2 ** 64):
        with pytest.raises(ValueError, match="a seed is a whole number"):
            e.reset(seed=bad)


def test_the_greedy_agent_plays_through_the_environment_and_beats_random():
    """docs/ai.md: a bundled bot chooses an option id from the game, the catalogue makes it an
    action the mask allows; greedy in seat 0 outscores a random player."""
    from provost.interpreter.agents import make_agent
    rewards = []
    for seed in (1, 2):
        e = env("caylus", players=2)
        e.reset(seed=seed)
        u, greedy, r = e.unwrapped, make_agent("greedy", seed=seed, seat=0), random.Random(seed)
        for agent in e.agent_iter():
            obs, reward, terminated, truncated, info = e.last()
            if terminated or truncated:
                rewards += [reward] if agent == "player_0" else []
                e.step(None)
                continue
            if agent == "player_0":
                action = u.catalogue.index_of(greedy.choose(u.game, u.game.current_player()))
                assert obs["action_mask"][action] == 1
            else:
                action = r.choice(np.flatnonzero(obs["action_mask"]).tolist())
            e.step(action)
    assert rewards == [1.0, 1.0]


def first_legal(mask) -> int:
    return int(np.flatnonzero(mask)[0])


def test_the_parallel_api_through_pettingzoos_turn_based_conversion():
    """docs/ai.md: the environment is turn-based, so not "is_parallelizable"; PettingZoo's own
    turn_based_aec_to_parallel makes it a ParallelEnv that passes parallel_api_test (and, with
    illegal actions punished, parallel_seed_test, which samples actions without masks), and a
    game played through it is the AEC game."""
    from pettingzoo.test import parallel_api_test, parallel_seed_test
    from pettingzoo.utils.conversions import turn_based_aec_to_parallel
    from pettingzoo.utils.wrappers import TerminateIllegalWrapper

    parallel_api_test(turn_based_aec_to_parallel(env("ys", players=2)), num_cycles=300)
    parallel_seed_test(lambda: turn_based_aec_to_parallel(
        TerminateIllegalWrapper(env("caylus1303", players=3), illegal_reward=-1)), num_cycles=50)

    par = turn_based_aec_to_parallel(env("ys", players=2))
    obs, infos = par.reset(seed=4)
    while par.agents:
        movers = [a for a in par.agents if obs[a]["action_mask"].any()]
        assert len(movers) == 1                     # only the agent to move has legal actions
        obs, rewards, terminations, truncations, infos = par.step(
            {a: first_legal(obs[a]["action_mask"]) if a in movers else 0 for a in par.agents})
    aec = env("ys", players=2)
    aec.reset(seed=4)
    final = {}
    for agent in aec.agent_iter():
        o, reward, terminated, truncated, info = aec.last()
        if terminated or truncated:
            final[agent] = reward
            aec.step(None)
        else:
            aec.step(first_legal(o["action_mask"]))
    assert rewards == final and sum(rewards.values()) == 0
    assert infos["player_0"]["scores"] == aec.unwrapped.game.result()["scores"][:2]
