"""The smallest playable rule file, with one line of the test's own: for tests of one declaration."""
from __future__ import annotations

_TEMPLATE = ('game g "G":\n    players 2..2\n    score vp\n    rounds p\nresource vp\n'
             '{line}\n'
             'phase p:\n    step a:\n        each player in players():\n            gain 1 vp\n')


def game_text(line: str) -> str:
    """The rule file with ``line`` on its sixth line, between the resource and the phase."""
    return _TEMPLATE.format(line=line)


def write_game(tmp_path, line: str):
    path = tmp_path / "g.rules"
    path.write_text(game_text(line))
    return path
