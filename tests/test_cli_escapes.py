"""What the command line prints of its arguments has its control characters escaped (README,
Commands: "Text printed from files, logs, saves and arguments has its control characters
escaped"): a file name or an unknown argument holding an ANSI sequence can never rewrite the
user's terminal, whichever message quotes it."""
from __future__ import annotations

import shutil
from pathlib import Path

from cli_run import run_cli as run

ROOT = Path(__file__).resolve().parent.parent
ESC = "\x1b[2J"


def _clean(out: str, err: str) -> None:
    assert "\x1b" not in out + err


def test_an_unrecognized_argument_is_quoted_escaped(capsys):
    code, out, err = run(capsys, "play", "caylus", "--no-log", "--b" + ESC + "ad")
    assert code == 2 and "unrecognized arguments: --b\\x1b[2Jad" in err
    _clean(out, err)


def test_a_file_name_in_the_count_of_diagnostics_not_shown_is_escaped(tmp_path, capsys):
    lines = ["game g:", "    score pp", "    rounds p", "resource pp", "phase p:", "    each player in players():"]
    lines += ["        gain q%d pp" % i for i in range(60)]
    path = tmp_path / ("many" + ESC + ".rules")
    path.write_text("\n".join(lines) + "\n")
    code, out, err = run(capsys, "check", str(path))
    assert code == 1 and "many\\x1b[2J.rules: 10 more diagnostics not shown" in out
    _clean(out, err)


def test_the_note_of_an_empty_graph_names_the_rules_escaped(tmp_path, capsys):
    rules = tmp_path / ("ys" + ESC + ".rules")
    shutil.copy(ROOT / "rulesets" / "ys.rules", rules)      # Ys has no track: its road graph is empty
    code, out, err = run(capsys, "graph", str(rules), "-o", str(tmp_path / "road.dot"))
    assert code == 0 and "ys\\x1b[2J.rules: the road graph is empty" in err
    _clean(out, err)
