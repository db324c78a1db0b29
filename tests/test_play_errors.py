"""Rules that fail while playing (what the checker cannot see) stop with an error at the
statement that failed, never at the file's first line nor as a Python error elsewhere."""
from __future__ import annotations

import pytest

from rules_failing_in_play import play_failing


CASES = {
    # A statement alone in its block fails: the error is at that statement, not at the block's parent.
    "atom_alone_in_a_block": ("        if yes:\n            gain 1 if [none] < [held(coin)] else 0 coin", "11:13", "E101", "TypeError"),
    # `as` with a value that is no seat: said at the `as`, not where its body uses the player.
    "as_a_number_past_the_seats": ("        as held(coin) + 5:\n            gain 1 pp", "10:9", "E100",
                                   "'as' needs a player"),
    "as_none_computed": ("        as first([x for x in [none] if yes]):\n            gain 1 pp", "10:9", "E100",
                         "'as' needs a player"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_failure_in_play_is_at_the_failing_statement(name, tmp_path, capsys):
    body, where, code_, word = CASES[name]
    path, said = play_failing(capsys, tmp_path, body)
    assert "%s:%s: error: while playing:" % (path, where) in said, said
    assert word in said and "[%s]" % code_ in said
