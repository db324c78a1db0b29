"""provost rate: the round robin's seatings, the ranks it feeds openskill, and the command."""
from __future__ import annotations

import json
from collections import Counter

import pytest

from provost.tools.sim.ratings import game_ranks, seatings
from tests.cli_run import run_cli

openskill = pytest.importorskip("openskill")


@pytest.mark.parametrize("agents, seats", [(["a", "b", "c", "d"], 4), (["a", "b", "c", "d", "e"], 3),
                                           (["a", "b"], 4), (["a", "b", "c"], 2)])
def test_every_agent_sits_in_every_seat_equally_often(agents, seats):
    arrangements = seatings(agents, seats)
    for seat in range(seats):
        held = Counter(arrangement[seat] for arrangement in arrangements)
        assert set(held) == set(agents) and len(set(held.values())) == 1


def test_ranks_follow_scores_then_the_rules_tiebreak():
    assert game_ranks({"scores": [10, 30, 20], "winners": [1]}) == [3, 1, 2]
    # a tie on score broken by the rules: the winner ranks first, the other shares nothing
    assert game_ranks({"scores": [30, 30, 5], "winners": [1]}) == [2, 1, 3]
    assert game_ranks({"scores": [30, 30, 5], "winners": [0, 1]}) == [1, 1, 3]


def _rate(capsys, *extra):
    code, out, err = run_cli(capsys, "rate", "caylus", "--agents", "random,greedy", "--players", "3", "--games", "4",
                             "--format", "json", *extra)
    assert code == 0, err
    return json.loads(out)


def test_greedy_outrates_random_and_jobs_do_not_change_the_ratings(capsys):
    one = _rate(capsys)
    assert one["games"] == 4 and [a["agent"] for a in one["agents"]] == ["greedy", "random"]
    greedy, random_ = one["agents"]
    assert greedy["mu"] > random_["mu"] and greedy["mean_score"] > random_["mean_score"]
    assert sum(s["games"] for s in one["seatings"]) == 4
    assert _rate(capsys, "--jobs", "2") == one


def test_one_agent_is_a_usage_error(capsys):
    code, out, err = run_cli(capsys, "rate", "caylus", "--agents", "random")
    assert code == 2 and "at least two" in err


def test_more_agents_than_seats_is_a_round_robin_too(capsys):
    # Once: `rate caylus --players 3 --agents random,greedy,policy,mcts:2` stopped at "4 agents
    # given for 3 players" (exit 2), though the seatings are made for it (every group of 3).
    code, out, err = run_cli(capsys, "rate", "caylus", "--players", "3", "--agents", "random,greedy,policy,mcts:2",
                             "--games", "12", "--format", "json")
    assert code == 0, err
    report = json.loads(out)
    assert sorted(a["agent"] for a in report["agents"]) == ["greedy", "mcts:2", "policy", "random"]
    assert all(len(s["agents"]) == 3 for s in report["seatings"]) and report["games"] == 12
    for bad, says in (("random,nope", "unknown agent 'nope'"), ("random,human", "'human' is for provost play")):
        code, out, err = run_cli(capsys, "rate", "caylus", "--players", "3", "--agents", bad, "--games", "2")
        assert code == 2 and says in err
