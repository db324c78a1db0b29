"""dsl/README.md, Lexical structure: a number among the words of a declaration's head may have a
minus sign, as in an expression; table and dictionary keys are counts and take none.  The checker,
the formatter and the language server read such a number as the parser does."""
from __future__ import annotations

import json

import pytest

from cli_run import run_cli
from provost.dsl.fmt import format_text
from provost.dsl.loader import load_checked, parse_file
from provost.dsl.parser import parse_text
from tiny_rules import game_text, write_game


def test_a_counter_may_start_below_zero_and_its_numbers_are_where_written(tmp_path):
    path = write_game(tmp_path, "counter balance per player start -2 min -5 max 3")
    rs = load_checked(str(path))
    balance = next(d for d in rs.decls if d.get("name") == "balance")
    assert (balance["start"], balance["min"], balance["max"]) == (-2, -5, 3)
    assert balance["attr_pos"]["start"] == [6, 34, 6, 36]      # the sign and the digits
    assert balance["attr_pos"]["min"] == [6, 41, 6, 43]


@pytest.mark.parametrize("counter, where, code", [
    ("counter balance per player start -6 min -5", "6:34", "R302"),     # below its minimum
    ("track road -3", "6:12", "R303"),
])
def test_a_signed_number_out_of_range_is_reported_at_its_sign(tmp_path, capsys, counter, where, code):
    path = write_game(tmp_path, counter)
    status, out, _ = run_cli(capsys, "check", str(path))
    assert status == 1 and "%s:%s: error: " % (path, where) in out and "[%s]" % code in out


def test_for_players_takes_no_negative_count(tmp_path):
    path = tmp_path / "caylus.neg.rules"
    path.write_text('variant neg "Neg" extends caylus:\n    for_players -2\n')
    ir, diags = parse_file(str(path))
    assert [(d.code, d.message) for d in diags if d.severity == "error"] == [
        ("D005", "'for_players' takes player counts: for_players 3 or for_players 2, 3")]


@pytest.mark.parametrize("text", [
    "table t:\n    -1: nothing\n",
    "let d = {-1: 2}\n",
])
def test_table_and_dictionary_keys_take_no_sign(text):
    tree, diags = parse_text(text, "x.rules")
    assert tree is None and [d.code for d in diags] == ["P100"]


def test_the_formatter_keeps_a_sign_and_what_it_means(tmp_path):
    text = game_text("counter  balance per player start -2 min  - 5")
    formatted = format_text(text)
    assert "counter balance per player start -2 min  - 5\n" in formatted      # '-' keeps its spacing
    assert format_text(formatted) == formatted
    before, after = tmp_path / "a.rules", tmp_path / "b.rules"
    before.write_text(text)
    after.write_text(formatted)
    assert json.dumps(_without_positions(parse_file(str(before))[0])) == \
        json.dumps(_without_positions(parse_file(str(after))[0]))


def _without_positions(x):
    if isinstance(x, dict):
        return {k: _without_positions(v) for k, v in x.items() if k not in ("pos", "attr_pos")}
    if isinstance(x, list):
        return [_without_positions(v) for v in x]
    return x
