"""Caylus, "Building the castle", the end of the turn's scoring and "End of the Game".

The rulebook (English, page "End of the turn"): "check if a scoring is necessary: if the
bailiff, during his move, reached or went past a scoring space, or if a section of the castle
has been completed during this turn, proceed to scoring (in any case, there will only be one
scoring per section)"; "The game ends right after the scoring of the Towers section (that is,
after the bailiff has reached the Towers scoring space or when the 14 parts of the Towers have
been built)".
"""
from __future__ import annotations

from caylus_scenarios import BLUE, GREEN, ORANGE, RED, choose, counter, give, new_game, occupy


def _answer_favors(g, rows=None):
    """Answer every royal favor prompt: the given rows in turn (else the first legal), column 1."""
    rows = list(rows or [])
    asked = []
    while not g.finished and g.prompt().startswith("Royal favor"):
        if g.prompt() == "Royal favor: choose a row":
            legal = g.legal_options()
            asked.append((g.s.pending["player"], legal))
            choose(g, rows.pop(0) if rows else legal[0])
        else:
            choose(g, g.legal_options()[0])
    return asked


def test_the_bailiff_reaching_the_dungeon_also_scores_the_completed_walls():
    g = new_game(players=4, turn_order=[RED, BLUE, GREEN, ORANGE])
    g.s.counters["section_filled"] = [6, 10, 0]        # the Walls were completed this turn
    g.s.counters["castle_parts"][RED] = [3, 5, 0]
    g.s.counters["bailiff"] = 11
    g.s.counters["provost"] = 12                         # beyond the bailiff: he moves 2, to 13
    for p in range(4):
        give(g, p, pp=10)
    g.start_phase("end_of_turn")
    asked = _answer_favors(g)
    assert g.s.counters["scored"] == [1, 1, 0]           # both sections, in the same turn
    assert g.s.counters["current_section"] == 2
    assert g.s.counters["favor_columns"] == 5            # column 5 opens after the Walls
    # Red: 3 Dungeon parts (1 favor) and 5 Walls parts (3 favors), all in one phase: the
    # favors go to different rows, so the last of the four has one row left (a fifth would be
    # lost: test_audit_caylus_edges.py).
    red_rows = [legal for who, legal in asked if who == RED]
    assert [len(legal) for legal in red_rows] == [4, 3, 2]   # the fourth row is the only one left
    assert g.s.counters["favor_level"][RED] == [1, 1, 1, 1]     # one step on each of the four rows
    # Players without parts lose 2 (Dungeon) and 3 (Walls) PP.
    assert counter(g, "pp", BLUE) == 10 - 2 - 3


def test_completing_the_towers_ends_the_game_at_once():
    g = new_game(players=3, turn_order=[RED, BLUE, GREEN])
    g.s.counters["scored"] = [1, 0, 0]
    g.s.counters["current_section"] = 1
    g.s.counters["favor_columns"] = 4
    g.s.counters["section_filled"] = [6, 9, 0]
    g.s.counters["bailiff"] = 13
    g.s.counters["provost"] = 13
    give(g, RED, food=15, wood=15, stone=15, pp=0)
    occupy(g, "castle", RED)
    g.start_phase("build_castle")
    batches = 0
    while g.prompt() == "Deliver a batch to the castle":
        choose(g, "batch:food+wood+stone")
        batches += 1
    assert batches == 15                                 # the last Walls part and the 14 Towers parts
    assert g.s.counters["section_filled"] == [6, 10, 14]
    _answer_favors(g)
    assert g.s.counters["scored"] == [1, 1, 1]
    assert g.finished                                    # no further turn is played
    assert g.s.round == 1


def test_the_bailiff_alone_scores_one_section():
    g = new_game(players=4)
    g.s.counters["bailiff"] = 11
    g.s.counters["provost"] = 11
    g.start_phase("end_of_turn")
    _answer_favors(g)
    assert g.s.counters["bailiff"] == 12
    assert g.s.counters["scored"] == [1, 0, 0]           # the Walls are neither reached nor complete
    assert g.s.counters["current_section"] == 1


def test_a_batch_may_hold_gold():
    # "A batch must be composed of three different cubes, one of which must be a food cube";
    # gold is a cube.
    g = new_game(players=3)
    give(g, RED, food=1, wood=1, stone=0, cloth=0, gold=1, pp=5)
    occupy(g, "castle", RED)
    g.start_phase("build_castle")
    assert g.legal_options() == ["stop", "batch:food+wood+gold"]
    choose(g, "batch:food+wood+gold")
    assert counter(g, "gold", RED) == 0
    assert counter(g, "pp", RED) == 5 + 5                # a Dungeon part: 5 PP, no penalty


def test_without_food_there_is_no_batch_and_the_penalty_applies():
    g = new_game(players=3)
    give(g, RED, food=0, wood=2, stone=1, cloth=1, gold=1, pp=5)
    occupy(g, "castle", RED)
    g.start_phase("build_castle")
    # "stop" is the only option, so it is taken without asking.
    assert g.s.pending is None or g.prompt() != "Deliver a batch to the castle"
    assert counter(g, "pp", RED) == 3                    # no batch: 2 PP lost
