"""Rules that used to check clean and fail only in play, now found by the checker at the line
that causes them: a `repeat while` on names that keep their value (C804), a loop whose only way
out is an option never offered (C806), an option taking lists of lists (T220), a worker placed with no counter
'workers' to take it from (N103), a hand used where no player acts (T219), a game without a
score (T209).  Each rule is
the turn of tests/rules_failing_in_play.py's one-phase game."""
from __future__ import annotations

import pytest

from cli_run import run_cli as run
from rules_failing_in_play import GAME

CASES = {
    # Ran until the step budget (E100): n is 3 on entry and nothing in the loop changes it.
    "fixed_names": ("effect spend(n):\n    repeat while n > 1:\n        gain 1 coin\n",
                    "        spend 3", "9:5", "warning", "C804", "it reads only 'n'"),
    # Ran until the step budget: 'stop' is never offered, 'more' alone is taken without asking.
    "exit_never_offered": ("", "        repeat while yes:\n            choose \"Stop?\":\n"
                           "                option stop when no: break\n                option more: gain 1 coin",
                           "11:13", "error", "C806", "option 'stop' of this choice, is never offered"),
    # Failed at the choice with E101 "unhashable type: 'list'" (the payment tested on a list of lists).
    "lists_of_lists": ("", "        choose \"Pick\":\n            option pick(x in [[[pp], [coin]]]): pay x\n"
                       "            option skip: nothing",
                       "11:30", "error", "T220", "parameter 'x' takes lists of lists"),
    # Failed at the first worker placed with E101 "KeyError: 'workers'": the engine takes the
    # worker from the counter named 'workers', which these rules do not declare.
    "no_workers_counter": ("space yard:\n    slots 2\n", "        place_worker yard",
                           "12:9", "error", "N103", "counter 'workers'"),
    # Failed in setup with E101 "TypeError: list indices must be integers or slices, not
    # NoneType": a per-player zone (a hand) is the acting player's, and no player acts there.
    "hand_outside_a_turn": ("zone hand per player visible owner\nsetup:\n    put coin, hand\n",
                            "        put coin, hand", "10:15", "error", "T219", "'hand' is a per-player zone"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_checker_reports_what_failed_in_play(name, tmp_path, capsys):
    before, turn, where, severity, code, words = CASES[name]
    text = GAME % turn
    if before:
        text = text.replace("phase p:\n", before + "phase p:\n")
    path = tmp_path / "g.rules"
    path.write_text(text)
    status, out, err = run(capsys, "check", str(path))
    said = out + err
    assert "%s:%s: %s: " % (path, where, severity) in said and "[%s]" % code in said, said
    assert words in said
    assert status == (1 if severity == "error" else 0)
    if severity == "error":           # play refuses the rules before the first step
        status, out, err = run(capsys, "play", str(path), "--players", "2", "--seed", "1")
        assert status != 0 and "[%s]" % code in out + err and "while playing" not in out + err


def test_a_game_without_a_score_is_reported_at_its_head(tmp_path, capsys):
    # Ended with "internal error: KeyError" at the first prestige gained or at the final ranking.
    path = tmp_path / "g.rules"
    path.write_text((GAME % "        gain 1 coin").replace("    score pp\n", ""))
    status, out, err = run(capsys, "check", str(path))
    assert status == 1 and "%s:1:1: error: game 'g' names no score; add 'score RESOURCE'" % path in out + err
    assert "(coin, pp) [T209]" in out + err
    status, out, err = run(capsys, "play", str(path), "--players", "2", "--seed", "1")
    assert status != 0 and "[T209]" in out + err and "internal error" not in out + err
