"""A misspelt name of any kind gets a "did you mean": bases, phases, rounds, effects, names."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from provost.dsl.loader import check_file

BASE = Path(__file__).parent / "diagnostics" / "base.rules"


@pytest.mark.parametrize("text, code, hint", [
    ("variant v extends bsae:\n    description \"d\"\n", "L002", "did you mean 'base'?"),
    ("variant v extends caylsu:\n    description \"d\"\n", "L002", "did you mean 'caylus'?"),
    ("variant v extends base:\n    replace step wrk.place:\n        nothing\n", "L004", "did you mean 'work'?"),
    ("variant v extends base:\n    replace step work.plce:\n        nothing\n", "L004", "did you mean 'place'?"),
    ("variant v extends base:\n    remove space yrd\n", "L004", "did you mean 'yard'?"),
    ("variant v extends caylus with two_playrs:\n    description \"d\"\n", "L002", "did you mean 'two_players'?"),
])
def test_misspelt_names_get_a_suggestion(tmp_path, text, code, hint):
    shutil.copy(BASE, tmp_path / "base.rules")
    path = tmp_path / "v.rules"
    path.write_text(text)
    found = [d for d in check_file(str(path)) if d.severity == "error"]
    assert [d.code for d in found] == [code], found
    assert hint in found[0].message and found[0].path == str(path)
