"""The single-agent Gymnasium environment: Gymnasium's own env_checker, masks, opponents that play
on purpose, illegal actions, reproducible seeds, rendering; and PettingZoo's state() and board
rendering."""
from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import provost.adapters.gym_env  # noqa: E402,F401 - registers provost/Caylus-v0 ...


@pytest.mark.parametrize("env_id", ["provost/Caylus-v0", "provost/Caylus1303-v0", "provost/Ys-v0"])
def test_gymnasium_env_checker(env_id):
    env = gymnasium.make(env_id, players=3, catalogue_games=20)
    check_env(env.unwrapped, skip_render_check=True)


def play(env, seed, pick):
    obs, info = env.reset(seed=seed)
    total, steps, done = 0.0, 0, False
    while not done:
        assert (info["action_mask"] == env.unwrapped.action_masks()).all() and info["action_mask"].any()
        assert env.observation_space.contains(obs)
        obs, reward, terminated, truncated, info = env.step(pick(info["action_mask"]))
        total, steps, done = total + reward, steps + 1, terminated or truncated
    return total, steps, info


@pytest.mark.parametrize("env_id, opponents", [("provost/Caylus-v0", "greedy"), ("provost/Ys-v0", "policy"),
                                               ("provost/Caylus1303-v0", "greedy")])
def test_whole_episodes_against_bots_that_play_on_purpose(env_id, opponents):
    env = gymnasium.make(env_id, players=3, opponents=opponents, catalogue_games=20)
    rng = np.random.default_rng(1)
    total, steps, info = play(env, 4, lambda mask: rng.choice(np.flatnonzero(mask)))
    assert steps > 10 and -1.0 <= total <= 1.0 and "winners" in info and "illegal_action" not in info


@pytest.mark.parametrize("env_id, players", [("provost/Ys-v0", 2), ("provost/Caylus1303-v0", 3)])
def test_info_gives_the_players_scores_at_the_end_and_none_before(env_id, players):
    """Ys for 2 has a neutral third seat the rules play: info["scores"] held its score too, three
    scores for an environment of two players.  They are the players' now, the neutral seat's under
    neutral_scores, as PettingZoo's info and Game.result give them.  Before the end info holds the
    mask only (Caylus 1303's prestige points are hidden until then)."""
    env = gymnasium.make(env_id, players=players, catalogue_games=5)
    obs, info = env.reset(seed=3)
    done = False
    while not done:
        assert set(info) == {"action_mask"}
        obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        done = terminated or truncated
    g = env.unwrapped.game
    assert g.finished and len(info["scores"]) == players == env.unwrapped.players
    assert info["scores"] == g.scores()[:players] and info["neutral_scores"] == g.scores()[players:]
    assert len(info["neutral_scores"]) == (1 if env_id == "provost/Ys-v0" else 0)
    assert info["winners"] == g.winners() and set(info["winners"]) <= set(range(players))


def test_the_same_seed_is_the_same_episode():
    runs = []
    for _ in range(2):
        env = gymnasium.make("provost/Ys-v0", players=3, catalogue_games=20)
        runs.append(play(env, 9, lambda mask: int(np.flatnonzero(mask)[0])))
    assert runs[0][:2] == runs[1][:2]


def test_reset_takes_the_seeds_gymnasium_takes_and_says_what_a_seed_is_otherwise():
    # Once: what Gymnasium's seeding refuses came out as its bare gymnasium.error.Error, no ValueError.
    env = gymnasium.make("provost/Caylus-v0", players=3, catalogue_games=20)
    for big in (2 ** 63, 2 ** 64, 2 ** 200):            # Gymnasium's generator takes any size
        first = env.reset(seed=big)[0]
        assert np.array_equal(env.reset(seed=big)[0], first)
    for bad in (-1, -2 ** 63, 1.5, "3", np.int64(5)):
        with pytest.raises(ValueError, match=r"reset\(seed=\.\.\.\) takes None or a whole number >= 0") as e:
            env.reset(seed=bad)
        assert isinstance(e.value, gymnasium.error.Error)


def test_an_illegal_action_ends_the_episode_and_names_the_legal_ones():
    env = gymnasium.make("provost/Caylus-v0", players=3, catalogue_games=20)
    obs, info = env.reset(seed=2)
    illegal = int(np.flatnonzero(~info["action_mask"])[0])
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert terminated and reward == -1.0 and "legal actions:" in info["illegal_action"]
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_bad_options_are_clear_errors():
    with pytest.raises(ValueError, match="known"):
        gymnasium.make("provost/Caylus-v0", opponents="grandmaster", catalogue_games=20)
    with pytest.raises(ValueError, match="seat"):
        gymnasium.make("provost/Caylus-v0", players=3, seat=5, catalogue_games=20)


def test_rendering_shows_the_board_without_hidden_values():
    env = gymnasium.make("provost/Caylus1303-v0", players=3, render_mode="ansi", catalogue_games=20)
    env.reset(seed=1)
    text = env.render()
    assert "scores: [None, None, None]" in text and "Player 1" in text
    pytest.importorskip("PIL")
    env = gymnasium.make("provost/Ys-v0", players=3, render_mode="rgb_array", catalogue_games=20)
    env.reset(seed=1)
    img = env.render()
    assert img.ndim == 3 and img.shape[2] == 3 and img.dtype == np.uint8 and img.min() == 0


def test_pettingzoo_state_holds_every_seats_view():
    from pettingzoo.test import api_test
    from provost.adapters.pettingzoo_env import env, raw_env
    e = raw_env("ys", players=3, catalogue_games=20)
    e.reset(seed=3)
    state = e.state()
    assert e.state_space.contains(state)
    size = e.encoder.size
    for seat, agent in enumerate(e.possible_agents):
        assert (state[seat * size:(seat + 1) * size] == e.observe(agent)["observation"]).all()
    api_test(env("caylus", players=3, catalogue_games=20), num_cycles=30, verbose_progress=False)


def test_the_training_example_runs():
    import subprocess
    import sys
    from pathlib import Path
    example = Path(__file__).resolve().parent.parent / "examples" / "gym_masked_reinforce.py"
    done = subprocess.run([sys.executable, str(example), "--episodes", "4"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "mean reward, first" in done.stdout


def _continue(env, info, seed):
    """Play ``env`` to the end with actions drawn from ``seed``: every observation, reward and mask."""
    rng, out, done = np.random.default_rng(seed), [], False
    while not done:
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        out.append((obs.tobytes(), reward, info["action_mask"].tobytes()))
        done = terminated or truncated
    return out


def test_the_env_pickles_mid_game_and_plays_on_the_same():
    """Pickled as what rebuilds it (its arguments, the engine's save, the generators' states): the
    copy sees the same observation and mask, and the same actions give the same continuation --
    the opponents' choices included -- and the same next episode."""
    import copy
    import pickle
    env = gymnasium.make("provost/Ys-v0", players=3, opponents="random", catalogue_games=20)
    obs, info = env.reset(seed=3)
    for _ in range(12):
        obs, _, _, _, info = env.step(int(np.flatnonzero(info["action_mask"])[-1]))
    copies = [pickle.loads(pickle.dumps(env)), copy.deepcopy(env)]
    for other in copies:
        assert (other.unwrapped._observation() == obs).all()
        assert (other.unwrapped.action_masks() == info["action_mask"]).all()
        assert other.unwrapped.game.to_json() == env.unwrapped.game.to_json()
    runs = [_continue(e, info, 5) for e in [env] + copies]
    assert len(runs[0]) > 10 and runs[0] == runs[1] == runs[2]
    nexts = [e.reset()[0] for e in [env] + copies]       # the env's own generator went along too
    assert (nexts[0] == nexts[1]).all() and (nexts[0] == nexts[2]).all()


def test_a_fresh_env_pickles_and_a_spawned_vector_env_steps():
    """AsyncVectorEnv with the ``spawn`` context sends the env to processes that import nothing
    of this one: an env that pickles is what that needs (as Ray's workers do)."""
    import pickle
    env = gymnasium.make("provost/Caylus-v0", players=3, catalogue_games=20)
    assert pickle.loads(pickle.dumps(env)).unwrapped.game is None
    made = [env, gymnasium.make("provost/Caylus-v0", players=3, catalogue_games=20)]
    vec = gymnasium.vector.AsyncVectorEnv([lambda e=e: e for e in made], context="spawn")
    try:
        obs, infos = vec.reset(seed=[1, 2])
        assert obs.shape == (2, env.unwrapped.encoder.size)
        for _ in range(5):
            masks = np.stack(vec.call("action_masks"))
            obs, rewards, terminated, truncated, infos = vec.step(np.array([int(np.flatnonzero(m)[0]) for m in masks]))
        assert obs.shape[0] == 2 and not terminated.any()
    finally:
        vec.close()


def test_a_human_opponent_is_refused_not_waited_for():
    # Once: opponents="human" was accepted, and reset() then prompted on stdin for the human
    # seat (waiting forever in a vector env's worker, or failing with HumanInputEnded).
    with pytest.raises(ValueError, match="'human' is for provost play"):
        gymnasium.make("provost/Caylus-v0", players=3, opponents="human", catalogue_games=20)
    with pytest.raises(ValueError, match="'human' is for provost play"):
        gymnasium.make("provost/Caylus-v0", players=3, opponents=["greedy", "human"], seat=0, catalogue_games=20)


def test_an_action_that_is_no_integer_is_illegal_not_rounded():
    """1.5 was played as action 1, and "x" raised int()'s own error: an action that is no
    catalogue index ends the episode as any illegal one does, naming the legal ones."""
    env = gymnasium.make("provost/Ys-v0", players=2, catalogue_games=20)
    obs, info = env.reset(seed=5)
    legal = int(np.flatnonzero(info["action_mask"])[0])
    for action in (legal + 0.5, str(legal), None):
        obs, info = env.reset(seed=5)
        obs, reward, terminated, truncated, info = env.step(action)
        assert terminated and reward == -1.0, action
        assert info["illegal_action"].startswith("action %r is not legal" % (action,))
        assert "%d (%s)" % (legal, env.unwrapped.catalogue.action_of(legal)) in info["illegal_action"]
    obs, info = env.reset(seed=5)
    assert not env.step(np.array([legal]))[2]        # an array holding one integer is that integer
