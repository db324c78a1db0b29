"""Rules that fail while playing (what the checker cannot see) stop with an error at the
statement that failed, never at the file's first line nor as a Python error elsewhere."""
from __future__ import annotations

import pytest

from rules_failing_in_play import play_failing


CASES = {
    # A statement alone in its block fails: the error is at that statement, not at the block's parent.
    "atom_alone_in_a_block": ("        if yes:\n            gain 1 if [none] < [held(coin)] else 0 coin", "11:13", "E101",
                              "'<' compares none with a number (TypeError"),
    # `as` with a value that is no seat: said at the `as`, not where its body uses the player.
    "as_a_number_past_the_seats": ("        as held(coin) + 5:\n            gain 1 pp", "10:9", "E100",
                                   "'as' needs a player"),
    # itertools' ValueError for a negative count was an internal error (exit 2), not the rules' error.
    "combinations_of_a_negative_count": ("        gain count(combinations([1, 2, 3], held(coin) - 1)) coin", "10:20",
                                         "E100", "combinations needs a count of 0 or more, not -1"),
    "as_none_computed": ("        as first([x for x in [none] if yes]):\n            gain 1 pp", "10:9", "E100",
                         "'as' needs a player"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_failure_in_play_is_at_the_failing_statement(name, tmp_path, capsys):
    body, where, code_, word = CASES[name]
    path, said = play_failing(capsys, tmp_path, body)
    assert "%s:%s: error: while playing:" % (path, where) in said, said
    assert word in said and "[%s]" % code_ in said


def checked_clean_then_played(tmp_path, capsys, text: str, *play_args: str):
    """Write ``text`` as a rule file that checks clean, play it: (path, exit code, stderr)."""
    from cli_run import run_cli

    path = tmp_path / "t.rules"
    path.write_text(text)
    assert run_cli(capsys, "check", str(path))[0] == 0
    code, out, err = run_cli(capsys, "play", str(path), "--seed", "1", *play_args)
    return path, code, out + err


def test_a_missing_table_entry_names_the_table(tmp_path, capsys):
    # A variant adds a value to an enum and not to the table that a `do` looks it up in: the
    # error names the table to complete, at the lookup.
    path, code, err = checked_clean_then_played(
        tmp_path, capsys, "game g:\n    score pp\n    players 2..2\n    rounds p\n    max_rounds 1\n"
        "resource pp, coin\nenum kind a, b, c\norder turn_order\n"
        "table bonus:\n    a: gain 1 pp\n    b: gain 2 pp\n"
        "phase p:\n    each player in turn_order:\n        do bonus[c if held(coin) == 0 else a]\n")
    assert code == 1
    assert "%s:14:12: error: while playing: table 'bonus' has no entry for 'c' [E100]" % path in err


@pytest.mark.parametrize("attribute, expr, said", [
    # Every player ties on 1 pp and the tiebreak is none for each: not a Python TypeError in max().
    ("tiebreak", "first([1 for p in players() if p == 99])", "the tiebreak gives none for player 0"),
    # ends_if is checked between rounds, where the game's head is running: the error is at its line.
    # ... said in the rule language's words, then Python's.
    ("ends_if", "first([p for p in players() if p == 99]) > 1",
     "'>' compares none with a number (TypeError: '>' not supported between instances of 'NoneType' and 'int')"),
])
def test_the_games_own_expressions_fail_at_their_line(attribute, expr, said, tmp_path, capsys):
    path, code, err = checked_clean_then_played(
        tmp_path, capsys, "game g:\n    score pp\n    players 2..2\n    rounds p\n    max_rounds 1\n"
        "    %s %s\nresource pp\norder turn_order\n"
        "phase p:\n    each player in players():\n        gain 1 pp\n" % (attribute, expr), "--no-log")
    assert code == 1, err
    col = 6 + len(attribute)
    assert "%s:6:%d: error: while playing: %s" % (path, col, said) in err, err
    assert "[E101]" in err and "internal error" not in err


def test_do_given_a_number_is_an_error_not_a_jump_into_the_rules(tmp_path, capsys):
    # An effect's parameter has no kind the checker knows (T218 catches `do held(coin)` itself):
    # the number reached `do`, which ran whatever part of the rules had that inner id.
    path, code, err = checked_clean_then_played(
        tmp_path, capsys, "game g:\n    score pp\n    players 2..2\n    rounds p\n    max_rounds 1\n"
        "resource pp, coin\ntable t:\n    1: gain 1 pp\neffect run_it(x):\n    do x\n"
        "phase p:\n    each player in players():\n        gain 1 coin\n        run_it(held(coin))\n"
        "        do t[1]\n", "--no-log")
    assert code == 1, err
    assert "%s:10:5: error: while playing: 'do' needs one table entry, got 1 [E100]" % path in err, err


def test_a_value_in_an_error_is_written_as_the_rules_write_it(tmp_path, capsys):
    # Once: "None is not a tile, building or space": Python's word for what the rules call none.
    path, code, err = checked_clean_then_played(
        tmp_path, capsys, "game g:\n    score pp\n    players 2..2\n    rounds p\n    max_rounds 1\n"
        "resource pp\norder turn_order\nspace well:\n    work: gain 1 pp\nphase p:\n"
        "    each player in players():\n        perform first([s for s in [well] if held(pp) > 5])\n", "--no-log")
    assert code == 1, err
    assert "%s:12:9: error: while playing: none is not a tile, building or space [E100]" % path in err, err
    assert "None" not in err


def test_short_repr_writes_none_inside_lists_and_cuts_long_values():
    from provost.interpreter.runtime import short_repr
    assert short_repr(None) == "none" and short_repr([None, "a", 1]) == "[none, 'a', 1]"
    assert short_repr(list(range(10_000))).endswith("...") and len(short_repr(list(range(10_000)))) == 83
