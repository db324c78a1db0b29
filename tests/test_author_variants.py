"""What an author of a variant of Caylus 1303 or Ys reads back from provost: the diff of a changed
table, the variants listing of their own file, ..."""
from __future__ import annotations

from cli_run import run_cli

# Ys's table of character powers with the Jeweller taking three gems and a new character.
POWERS = '''variant jewels "Jewels" extends ys:
    description "The Jeweller takes three gems."
    replace table powers:
        bishop: set bishop_on = 1
        jeweller:
            repeat 3:
                choose "Jeweller: take a gem":
                    option gem(c in colors where bank[c] > 0):
                        take_from_bank c
'''


def test_diff_of_a_changed_table_says_which_entries_changed(capsys, tmp_path):
    f = tmp_path / "ys.jewels.rules"
    f.write_text(POWERS, encoding="utf-8")
    code, out, err = run_cli(capsys, "diff", "ys", str(f))
    assert code == 0, err
    changed = out.split("~ changes table 'powers':\n", 1)[1]
    assert "    - table powers (13 entries):\n" in changed and "    + table powers (2 entries):\n" in changed
    assert "    -     2 times:\n    +     3 times:\n" in changed           # the Jeweller's entry, line by line
    assert "    -   spy:\n" in changed and "    -   queen:\n" in changed     # the entries it dropped
