"""Engine budgets: rules the checker cannot prove finite stop with a positioned E100, fast.

A bounded number of steps between two decisions (engine.MAX_STEPS) and of decisions in a game
(engine.MAX_DECISIONS), a bounded length for every
list a rule builds (runtime.MAX_LIST) and a bounded number of list items the comprehensions go
through between two decisions (runtime.MAX_WORK): never a hang or a MemoryError.
"""
from __future__ import annotations

import json
import time

import pytest

from cli_run import run_cli as run
from rules_failing_in_play import GAME, play_failing


CASES = {
    "loop_on_state": ("        repeat while held(coin) >= 0:\n            gain 1 coin", "10:9", "steps"),
    "huge_repeat": ("        repeat 999999:\n            gain 1 coin", "10:9", "steps"),
    "huge_range": ("        gain count([x for x in 1..held(coin) + 1000000]) coin", "10:32", "range"),
    "combinations": ("        gain count(combinations([x for x in 1..40 + held(coin)], 20)) coin", "10:20", "combinations"),
    "multisets": ("        gain count(multisets([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], 9 + held(coin))) coin",
                  "10:20", "multisets"),
    # Each list within MAX_LIST, but nested they multiply: the work between decisions is bounded too.
    "nested_comprehensions": ("        gain count([[[x + y for x in 1..5000] for y in 1..5000] for z in 1..9]) coin",
                              "10:22", "items of lists"),
    "comprehensions_in_a_loop": ("        repeat 5000:\n            gain count([x for x in 1..5000]) coin",
                                 "11:24", "items of lists"),
    # Choices none of which leads on: a bounded number of decisions in a game (engine.MAX_DECISIONS).
    "endless_choices": ("        repeat while held(coin) >= 0:\n            choose \"Again?\":\n"
                        "                option yes: nothing\n                option also_yes: nothing",
                        "11:13", "decisions without ending"),
    # A choice offers only its legal options, and one with none is passed over: `stop` is never
    # offered, `more` alone is taken without asking, so no decision comes.  The condition reads the
    # game and the body changes it, so the checker cannot tell (C806 is for a constant condition).
    "exit_never_offered": ("        repeat while held(coin) >= 0:\n            choose \"Stop?\":\n"
                           "                option stop when no: break\n                option more: gain 1 coin",
                           "10:9", "steps"),
    # Numbers and lists a rule keeps are bounded (runtime.MAX_NUMBER, MAX_KEPT): squared or doubled
    # in a loop they grew in Python's unbounded integers and lists until the machine gave up.
    "resource_squared": ("        gain 2 coin\n        repeat 60:\n            gain held(coin) * held(coin) coin",
                         "12:13", "would hold a number of"),
    "let_squared": ("        let x = 2\n        repeat 60:\n            let x = x * x\n        gain x coin",
                    "12:13", "would hold a number of"),
    "list_doubled": ("        let x = [1]\n        repeat 60:\n            let x = x + x\n        gain count(x) coin",
                     "12:13", "would hold a list of"),
    "payment_below_nothing": ("        gain 2 coin\n        repeat 60:\n            pay 0 - held(coin) * held(coin) coin",
                              "12:13", "would hold a number of"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_budget_exceeded_is_a_positioned_error(name, tmp_path, capsys):
    body, where, word = CASES[name]
    start = time.perf_counter()
    path, said = play_failing(capsys, tmp_path, body)
    assert time.perf_counter() - start < 10
    assert "%s:%s: error: while playing:" % (path, where) in said
    assert word in said and "[E100]" in said


def test_small_ranges_and_multisets_still_work(tmp_path, capsys):
    path = tmp_path / "g.rules"
    path.write_text(GAME % "        gain count([x for x in 1..held(coin) + 3]) + count(multisets([1, 2, 3], 2)) coin")
    code, out, err = run(capsys, "play", str(path), "--players", "2", "--seed", "1", "--format", "json")
    assert code == 0, out + err


@pytest.mark.parametrize("body, word", [
    ("    repeat 60:\n        set big = big * big", "'big' would hold a number of"),
    ("    repeat 60:\n        put max(deck) * max(deck), deck", "zone 'deck' would hold a number of"),
    ("    repeat 60:\n        put deck, deck", "zone 'deck' would hold a list of"),
])
def test_a_counter_or_zone_that_grows_in_a_loop_is_an_error(body, word, tmp_path, capsys):
    path = tmp_path / "g.rules"
    path.write_text("game g:\n    score pp\n    players 2..2\n    rounds p\n    max_rounds 1\nresource pp\n"
                    "counter big global start 2\nzone deck visible public\nsetup:\n    put 2, deck\n"
                    "phase p:\n%s\n    each player in players():\n        gain count(deck) + big pp\n" % body)
    assert run(capsys, "check", str(path))[0] == 0
    start = time.perf_counter()
    code, out, err = run(capsys, "play", str(path), "--seed", "1", "--no-log")
    assert time.perf_counter() - start < 10
    assert code == 1, out + err
    assert "%s:13:9: error: while playing: %s" % (path, word) in err, err
    assert "[E100]" in err


def test_a_counter_with_a_max_is_still_clamped_and_big_numbers_below_the_bound_play(tmp_path, capsys):
    path = tmp_path / "g.rules"
    path.write_text("game g:\n    score pp\n    players 2..2\n    rounds p\n    max_rounds 1\nresource pp\n"
                    "counter capped global start 2 max 1000\n"
                    "phase p:\n    repeat 60:\n        set capped = capped * capped\n"
                    "    each player in players():\n        gain 999999 * 999999 * 999 pp\n        gain capped pp\n")
    code, out, err = run(capsys, "play", str(path), "--seed", "1", "--no-log", "--format", "json")
    assert code == 0, out + err
    assert json.loads(out)["scores"] == [999999 * 999999 * 999 + 1000] * 2
