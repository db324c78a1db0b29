"""What the expression compiler writes out keeps the rules' meaning: a let written out where it
is called sees nothing of the caller's scope, `X of P` reads X as P, `index` on a list of
constants finds the first occurrence (or -1), and a comprehension over a context name binds it.
Every case runs compiled and as Python (tests/test_accelerate.py compares whole games)."""
from __future__ import annotations

import pytest

from provost.dsl.loader import load_checked
from provost.interpreter.engine import Game

GAME = """game g "Codegen":
    players 2..2
    score pp
    max_rounds 1
    rounds main

resource pp "prestige"
counter tokens per player start 0
counter shadowed per player start 0
counter of_other per player start 0
counter of_computed per player start 0
counter found per player start 0
counter missing per player start 0
counter summed global start 0
counter summed_as_player global start 0
enum colors blue, green, red
enum shades yellow
let hues = [blue, green, red, green]

let plus(n) = n + tokens
let mine() = tokens
let other() = first([q for q in players() if q != player])

phase main "Main":
    step setup:
        each player in players():
            set tokens = 2 + 3 * player
    step score:
        each player in players():
            set shadowed = first([plus(1) for tokens in [100]])
            set of_other = mine() of first([q for q in players() if q != player])
            set of_computed = plus(10) of other()
            set found = 10 * index(hues, green) + index(colors, red)
            set missing = 5 + index(hues, yellow)
        set summed = sum([tokens of q for q in players()])
        set summed_as_player = sum([tokens for player in players()])
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    path = tmp_path_factory.mktemp("codegen") / "g.rules"
    path.write_text(GAME)
    g = Game.new(load_checked(str(path)), players=2, seed=0)
    assert g.finished
    return g


def counter(g, name):
    return g.s.counters[name]


def test_a_let_written_out_sees_the_counter_not_the_callers_loop_variable(game):
    # plus(1) inside `[... for tokens in [100]]` is 1 + the tokens counter (2 and 5), not 101.
    assert counter(game, "shadowed") == [3, 6]


def test_x_of_p_reads_x_as_the_other_player(game):
    assert counter(game, "of_other") == [5, 2]
    assert counter(game, "of_computed") == [15, 12]


def test_index_on_a_list_of_constants_finds_the_first_occurrence(game):
    assert counter(game, "found") == [12, 12]         # green first at 1 (again at 3); red at 2
    assert counter(game, "missing") == [4, 4]          # 5 + -1: yellow is not in the list


def test_a_players_counter_read_for_each_player(game):
    assert counter(game, "summed") == 7


def test_a_comprehension_over_player_makes_each_one_the_acting_player(game):
    assert counter(game, "summed_as_player") == 7
