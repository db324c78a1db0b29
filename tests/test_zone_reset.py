"""A zone declared with `reset round` (or `phase`) is emptied at the start of each round (phase),
as counters and orders are put back to their start: the reference's `zone ... [reset WHEN]`."""
from __future__ import annotations

from provost.interpreter.engine import Game

RULES = '''game g "G":
    players 2..2
    score pp
    rounds collect, look
    max_rounds 2
resource pp
enum colors red, blue
zone found per player reset round
zone kept per player
zone seen by colors reset phase
order turn_order
phase collect:
    each player in turn_order:
        put [round], found
        put [round], kept
        put [round], seen[red]
phase look:
    each player in turn_order:
        gain count(found) + count(seen[red]) pp
'''


def test_a_zone_is_emptied_when_it_resets(tmp_path):
    path = tmp_path / "zones.rules"
    path.write_text(RULES, encoding="utf-8")
    g = Game.new(str(path), players=2, seed=1)
    assert g.s.finished
    assert g.s.zones["found"] == [[2], [2]]                 # round 1's item went at round 2's start
    assert g.s.zones["kept"] == [[1, 2], [1, 2]]            # no reset: kept
    assert g.s.zones["seen"] == {"red": [], "blue": []}     # emptied as each phase starts
    assert g.s.counters["pp"] == [2, 2]                     # 1 found, 0 seen, in each round's look
