"""Parsed IR and check results come back from the user's cache only when nothing they depend on changed."""
import glob
import json
import os

import pytest

from provost.dsl import derived, loader, prebuilt

RULE_FILES = sorted(glob.glob(os.path.join(loader.shipped_dir(), "**", "*.rules"), recursive=True))


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """The user's cache alone: the build's files of the shipped rules (test_prebuilt.py) set aside."""
    monkeypatch.setattr(prebuilt, "_reading", False)
    monkeypatch.setenv("PROVOST_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("PROVOST_NO_CACHE", raising=False)
    return tmp_path / "cache"


@pytest.mark.parametrize("path", RULE_FILES, ids=os.path.basename)
def test_rules_from_the_cache_are_the_rules_computed_afresh(cache, path):
    cold, cold_diags = loader.load(path)
    assert list(cache.iterdir()), "the clean results were kept"
    warm, warm_diags = loader.load(path)
    # The checks must not have changed the declarations they read: the warm load skips them.
    assert json.dumps(warm.decls, sort_keys=True) == json.dumps(cold.decls, sort_keys=True)
    assert warm.digest == cold.digest
    assert warm_diags == cold_diags


def test_an_edit_is_parsed_and_checked_again(cache, tmp_path):
    path = tmp_path / "caylus.rules"
    text = open(loader.resolve_path("caylus")).read()
    path.write_text(text)
    assert loader.check_file(str(path)) == loader.check_file(str(path))
    path.write_text(text + "\nthis is not a declaration\n")
    found = loader.check_file(str(path))
    assert any(d.severity == "error" for d in found)


def test_a_damaged_or_foreign_cache_file_is_ignored(cache, tmp_path):
    path = loader.resolve_path("caylus")
    expected = loader.check_file(path)
    for f in cache.iterdir():
        f.write_text('{"decls": "not a list"' if f.name.startswith("ir-") else '[{"path": 1}]')
    assert loader.check_file(path) == expected


def test_no_cache_means_nothing_written(tmp_path, monkeypatch):
    monkeypatch.setenv("PROVOST_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PROVOST_NO_CACHE", "1")
    loader.check_file(loader.resolve_path("ys"))
    assert not (tmp_path / "cache").exists()


def test_the_key_follows_the_code(cache):
    before = derived._name("ir", "text")
    derived.code_digest.cache_clear()
    try:
        assert derived._name("ir", "text") == before       # the same code, the same key
        assert derived._name("ir", "other text") != before
    finally:
        derived.code_digest.cache_clear()


def test_the_shipped_listing_follows_the_files(cache, tmp_path, monkeypatch):
    shipped = tmp_path / "shipped"
    shipped.mkdir()
    (shipped / "tiny.rules").write_text(
        'game tiny "Tiny":\n    players 2..2\n    score pp\n    max_rounds 1\n    rounds main\n\n'
        'resource pp "prestige"\n\nphase main "Main":\n    step s:\n        gain 1 pp\n')
    variant = shipped / "tiny.fast.rules"
    variant.write_text('variant fast "Fast" extends tiny:\n    change game:\n        max_rounds 1\n')
    monkeypatch.setattr(loader, "shipped_dir", lambda: str(shipped))
    first = loader.list_shipped()
    assert [(g["name"], [v["title"] for v in g["variants"]]) for g in first] == [("tiny", ["Fast"])]
    assert any(f.name.startswith("shipped-") for f in cache.iterdir())
    first[0]["variants"].clear()                       # a caller's change stays its own
    assert loader.list_shipped() == loader.list_shipped() and loader.list_shipped()[0]["variants"]
    variant.write_text(variant.read_text().replace('"Fast"', '"Faster"'))
    assert loader.list_shipped()[0]["variants"][0]["title"] == "Faster"
    loader._SHIPPED.clear()                            # a new process: from the user's cache
    assert loader.list_shipped()[0]["variants"][0]["title"] == "Faster"


def test_a_player_count_variant_is_found_from_the_kept_listing_and_a_damaged_one_is_not_trusted(
        cache, tmp_path, monkeypatch):
    # A shipped game's variants (and which one holds the rules for a player count) come from the
    # kept listing, without parsing every variant file; a listing in the cache whose variants
    # are not what the loader writes is made again from the files.
    shipped = tmp_path / "shipped"
    shipped.mkdir()
    (shipped / "tiny.rules").write_text(
        'game tiny "Tiny":\n    players 2..3\n    score pp\n    max_rounds 1\n    rounds main\n\n'
        'resource pp "prestige"\n\nphase main "Main":\n    step s:\n        gain 1 pp\n')
    (shipped / "tiny.trio.rules").write_text(
        'variant trio "Three" extends tiny:\n    for_players 3\n\n    replace game tiny "Tiny (3)":\n'
        '        players 3..3\n        score pp\n        max_rounds 2\n        rounds main\n')
    monkeypatch.setattr(loader, "shipped_dir", lambda: str(shipped))
    game = str(shipped / "tiny.rules")
    assert [g["name"] for g in loader.list_shipped()] == ["tiny"]     # as naming a shipped game does
    from provost.dsl.compose import player_count_file
    assert player_count_file(game, 3) == str(shipped / "tiny.trio.rules") and player_count_file(game, 2) is None
    loader._SHIPPED.clear()                            # a new process: the listing from the user's cache
    loader._HEADS.clear()
    parsed = []
    real = loader.parse_file
    monkeypatch.setattr(loader, "parse_file", lambda path, *a, **k: parsed.append(path) or real(path, *a, **k))
    assert player_count_file(game, 3) == str(shipped / "tiny.trio.rules")
    assert parsed == []
    [listing] = [f for f in cache.iterdir() if f.name.startswith("shipped-")]
    games = json.loads(listing.read_text())
    games[0]["variants"][0]["for_players"] = "3"       # damaged: not a list of counts
    listing.write_text(json.dumps(games))
    loader._SHIPPED.clear()
    assert [v.get("for_players") for v in loader.variants_of(game)] == [[3]]
    assert parsed                                      # made again from the files' heads
