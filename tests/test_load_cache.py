"""Rules loaded by name or path are parsed and checked once per process while their files are unchanged."""
import shutil

from provost.dsl import loader
from provost.interpreter.engine import Game


def test_loading_by_name_twice_gives_equal_rules_as_separate_records():
    first = loader.load_checked("caylus")
    again = loader.load_checked("caylus")
    assert first is not again
    assert first.digest == again.digest and first.decls is again.decls
    again.source_path = "/elsewhere"            # a caller's change to its record stays its own
    assert loader.load_checked("caylus").source_path is None


def test_games_by_name_and_by_ruleset_are_the_same_game():
    by_name = Game.new("caylus", players=4, seed=3)
    by_rules = Game.new(loader.load_checked("caylus"), players=4, seed=3)
    for g in (by_name, by_rules):
        while not g.finished:
            g.apply(g.legal_options()[0])
    assert by_name.to_json() == by_rules.to_json()


def test_an_edited_file_is_loaded_again(tmp_path):
    base = tmp_path / "caylus.rules"
    shutil.copy(loader.resolve_path("caylus"), base)
    variant = tmp_path / "rich.rules"
    variant.write_text('variant rich "Rich" extends "caylus.rules":\n    description "The base, named by its path."\n')
    before = loader.load_checked(str(variant))
    # The base changes under the variant: the variant must see it.
    base.write_text(base.read_text() + "\n# edited\n")
    after_comment = loader.load_checked(str(variant))
    assert after_comment.digest == before.digest    # a comment changes no rule...
    assert after_comment.decls is not before.decls  # ...but the file was read again


def test_a_broken_edit_is_reported_not_served_from_memory(tmp_path):
    import pytest
    from provost.dsl.diagnostics import RulesError
    path = tmp_path / "caylus.rules"
    shutil.copy(loader.resolve_path("caylus"), path)
    loader.load_checked(str(path))
    path.write_text(path.read_text() + "\nthis is not a declaration\n")
    with pytest.raises(RulesError):
        loader.load_checked(str(path))
