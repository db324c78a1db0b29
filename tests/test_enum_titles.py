"""An enum's values may have titles: what the board and the option buttons call them."""
from __future__ import annotations

import pytest

from provost.dsl.loader import load_checked
from provost.interpreter.boardview import Names, board_view
from provost.interpreter.engine import Game
from tiny_rules import write_game


def _enum(tmp_path, line: str):
    rs = load_checked(str(write_game(tmp_path, line)))
    return rs, next(d for d in rs.decls if d.get("kind") == "enum")


def test_values_take_the_title_written_after_them_and_the_enum_its_own(tmp_path):
    rs, decl = _enum(tmp_path, 'enum sides "Sides" left "Left bank", middle, right "Right bank"')
    assert decl["title"] == "Sides" and decl["values"] == ["left", "middle", "right"]
    assert decl["value_titles"] == {"left": "Left bank", "right": "Right bank"}
    names = Names(rs.decls)
    assert (names("left"), names("middle"), names("sides")) == ("Left bank", "middle", "Sides")


def test_an_enum_without_value_titles_has_the_ir_it_always_had(tmp_path):
    _, decl = _enum(tmp_path, "enum sides left, right")
    assert set(decl) == {"kind", "name", "title", "values", "pos"}      # (and so the same digest)


@pytest.mark.parametrize("line", ['enum sides left "A" "B", right', 'enum sides left, 3'])
def test_anything_but_a_value_and_its_one_title_is_d003(tmp_path, line):
    path = write_game(tmp_path, line)
    from provost.dsl.diagnostics import RulesError
    with pytest.raises(RulesError) as e:
        load_checked(str(path))
    assert any(d.code == "D003" for d in e.value.diagnostics)


def test_ys_board_names_its_neighborhoods_and_lines():
    g = Game.new("ys", players=4, seed=1)
    view = board_view(g.rs.decls, g.observation(0), g.prompt(), g.legal_options(), humans=4)
    titles = {t for group in view["groups"] for sp in group["spaces"] for t in sp["tag_titles"]}
    assert {"Neighborhood 1", "Neighborhood 4", "Line 1", "Line 3"} <= titles
    assert not {"n1", "line1"} & titles


def test_prose_says_a_titled_value_by_its_title_and_its_name(tmp_path):
    from provost.dsl.prose import Prose
    rs, decl = _enum(tmp_path, 'enum sides left "Left bank", right')
    assert Prose(rs.decls).decl(decl) == ["sides: Left bank (left), right"]
