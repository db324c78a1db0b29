"""A two-player game of one phase whose turn runs a statement given by the test, for rules that
check clean and fail while playing (tests/test_budgets.py, tests/test_play_errors.py)."""
from __future__ import annotations

from cli_run import run_cli as run

GAME = """game g:
    score pp
    players 2..2
    rounds p
    max_rounds 1
resource pp, coin
order turn_order
phase p:
    each player in turn_order:
%s
"""


def play_failing(capsys, tmp_path, body: str) -> tuple[str, str]:
    """The game file with ``body`` as each player's turn, and what `provost play` printed: the
    checker finds nothing, the game stops with exit code 1."""
    path = tmp_path / "g.rules"
    path.write_text(GAME % body)
    assert run(capsys, "check", str(path))[0] == 0          # the checker cannot tell
    code, out, err = run(capsys, "play", str(path), "--players", "2", "--seed", "1")
    assert code == 1, out + err
    return str(path), out + err
