"""tools/bench_instructions: the measured work plays real games, and the figure is computed from
valgrind's counts (valgrind itself is not run here: a measurement takes minutes)."""
from __future__ import annotations

import subprocess
import sys

import pytest

from provost.tools.dev import bench_instructions as bi


def test_the_measured_work_plays_games_from_the_given_checkout():
    # The child program alone (no valgrind): two Caylus games from this checkout.
    done = subprocess.run([sys.executable, "-c", bi._CHILD + "\nprint(g.s.finished, g.s.decisions)",
                           bi.ROOT, "caylus", "2", "4", ""], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    finished, decisions = done.stdout.split()
    assert finished == "True" and int(decisions) > 100


def test_the_measured_work_plays_the_rules_for_the_player_count_and_the_variant():
    # As `provost play` picks them: Ys for 2 is the two-player variant (a neutral third seat).
    show = "\nprint(rs.variant, g.s.players, g.s.humans, g.s.finished)"
    done = subprocess.run([sys.executable, "-c", bi._CHILD + show, bi.ROOT, "ys", "1", "2", ""],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    variant, seats, humans, finished = done.stdout.split()
    assert "two_players" in variant and (seats, humans, finished) == ("3", "2", "True")
    done = subprocess.run([sys.executable, "-c", bi._CHILD + show, bi.ROOT, "caylus", "1", "4", "simplified_favor"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["simplified_favor", "4", "4", "True"]


def test_figure_is_the_difference_per_game(monkeypatch):
    counts = {0: 1_000_000_000, 4: 1_400_000_000}
    calls = []
    monkeypatch.setattr(bi, "_child", lambda tree, ruleset, games, players, cache, under_valgrind, greedy=False,
                        variant=None: calls.append(("fill", games, cache, under_valgrind, variant)) or "")
    monkeypatch.setattr(bi, "_instructions", lambda tree, ruleset, games, players, cache, greedy=False, variant=None:
                        calls.append(("count", games, cache, variant)) or (counts[games], None))
    assert bi.measure(bi.ROOT, "ys", 4, 4, "express") == {"games": 4, "players": 4, "variant": "express",
                                                          "load_minstr": 1000, "minstr_per_game": 100.0}
    assert {c[-1] for c in calls} == {"express"}
    # The cache is filled outside valgrind first; both counted runs then load from it.
    assert [c[0] for c in calls] == ["fill", "count", "count"]
    assert calls[0][1] == 0 and calls[0][3] is False
    assert len({c[2] for c in calls}) == 1


def test_the_greedy_work_plays_the_first_decisions_of_a_greedy_game():
    done = subprocess.run([sys.executable, "-c", bi._CHILD + "\nprint(g.s.decisions, type(agents[0]).__name__)",
                           bi.ROOT, "caylus", "3", "4", "", "greedy"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["3", "GreedyAgent"]
    assert bi._DECISIONS.search(done.stderr).group(1) == "3"


def test_a_greedy_figure_is_per_decision_played(monkeypatch):
    # Asked for 500 decisions of a game that ended after 400: the work is divided by 400.
    runs = {0: (1_000_000_000, 0), 500: (5_000_000_000, 400)}
    monkeypatch.setattr(bi, "_child", lambda *a, **k: "")
    monkeypatch.setattr(bi, "_instructions", lambda tree, ruleset, n, players, cache, greedy=False, variant=None: runs[n])
    assert bi.measure_greedy(bi.ROOT, "caylus", 500, 4) == {
        "greedy_decisions": 400, "players": 4, "variant": None, "load_minstr": 1000, "minstr_per_decision": 10.0}


def test_games_must_be_positive(capsys):
    with pytest.raises(SystemExit):
        bi.main(["caylus", "--games", "0"])
    assert "--games" in capsys.readouterr().err
