"""`activate_road A..B` activates the road from slot A, as the language reference says ("the road
spaces ARG1 are activated in order") and the graph checks assume (G504, G505): workers on the
slots before A come home unused, as those beyond B do."""
from __future__ import annotations

from provost.interpreter.engine import Game

ROAD = '''game g "G":
    players 2..4
    score pp
    rounds place, activation
    max_rounds 1
resource pp, wood
counter workers per player start 3
track road 4
counter provost global start 4 min 0 max 4
order turn_order
order passing reset round
category plain "plain":
    workable yes
building a1 "A1" plain:
    work: gain 1 wood
building a2 "A2" plain:
    at 2
    work: gain 1 wood
building a3 "A3" plain:
    at 3
    work: gain 1 pp
setup:
    deal_tiles plain, 1..1
phase place:
    turns in turn_order until all passed:
        choose:
            option pass: pass_turn passing
            option place(t in open_spaces()) when workers > 0:
                place_worker t
phase activation:
    activate_road FIRST..provost
'''


def _played(tmp_path, first: int) -> Game:
    path = tmp_path / "road.rules"
    path.write_text(ROAD.replace("FIRST", str(first)), encoding="utf-8")
    g = Game.new(str(path), players=2, seed=1)
    assert g.s.road[1:4] == ["a1", "a2", "a3"]
    for option in ("place:a1", "place:a2", "place:a3"):     # seats 0, 1, 0
        g.apply(option)
    assert g.s.finished
    return g


def test_the_road_is_activated_from_the_first_slot_of_the_range(tmp_path):
    g = _played(tmp_path, 2)
    assert g.s.counters["wood"] == [0, 1]           # slot 1 (seat 0's wood) is before the range
    assert g.s.counters["pp"] == [1, 0]
    assert g.s.counters["workers"] == [3, 3]        # every worker came home
    assert not any(g.s.occ.values())


def test_from_slot_1_every_slot_works(tmp_path):
    g = _played(tmp_path, 1)
    assert g.s.counters["wood"] == [1, 1] and g.s.counters["pp"] == [1, 0]
