"""The user's cache stays under its budget: the files least recently used go first, and only
the cache's own files ever go."""
import os
import time

import pytest

from provost.dsl import loader, usercache

MB = 1024 * 1024


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("PROVOST_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("PROVOST_NO_CACHE", raising=False)
    monkeypatch.setenv("PROVOST_CACHE_MAX_MB", "1")
    monkeypatch.setattr(usercache, "_written", 0)
    return tmp_path / "cache"


def _size(folder) -> int:
    return sum(f.stat().st_size for f in folder.iterdir() if f.is_file() and not f.is_symlink())


def _age(path, seconds: float) -> None:
    then = time.time() - seconds
    os.utime(path, (then, then))


def test_an_editor_checking_every_edit_stays_under_the_budget(cache, tmp_path):
    # Every edit is new content: its IR and checks are new files (about 80 KB for Caylus).
    path = tmp_path / "caylus.rules"
    text = open(loader.resolve_path("caylus"), encoding="utf-8").read()
    for n in range(20):
        path.write_text(text + "\n# edit %d\n" % n, encoding="utf-8")
        assert not [d for d in loader.check_file(str(path)) if d.severity == "error"]
    assert _size(cache) <= MB
    # The last edit's results are still there: checking it again reads them, writes nothing.
    before = sorted(f.name for f in cache.iterdir())
    loader.check_file(str(path))
    assert sorted(f.name for f in cache.iterdir()) == before


def test_the_least_recently_used_files_go_first(cache):
    usercache.cache_dir()
    for n, name in enumerate(["old", "read", "new"]):
        usercache.write_bytes(name, b"x" * (MB // 3))
        _age(cache / name, 3 * 24 * 3600 - n)
    assert usercache.read_bytes("read") is not None     # marked used now: it was days old
    usercache.write_bytes("newest", b"x" * (MB // 3))   # over the budget: look over the folder
    assert sorted(f.name for f in cache.iterdir() if not f.name.startswith(".")) == ["newest", "read"]


def test_a_look_every_ten_minutes_even_for_small_writes(cache):
    usercache.cache_dir()
    (cache / "big").write_bytes(b"x" * 2 * MB)
    _age(cache / "big", 3600)
    usercache.write_bytes("small", b"x")            # never looked over: looks now
    assert not (cache / "big").exists()
    (cache / "big").write_bytes(b"x" * 2 * MB)
    _age(cache / "big", 3600)
    usercache.write_bytes("small", b"y")            # looked over a moment ago: not again
    assert (cache / "big").exists()
    _age(cache / usercache.PRUNED_MARK, 11 * 60)
    usercache.write_bytes("small", b"z")
    assert not (cache / "big").exists()


def test_only_the_caches_own_files_go(cache, tmp_path):
    usercache.cache_dir()
    outside = tmp_path / "precious"
    outside.write_bytes(b"x" * 2 * MB)
    os.symlink(outside, cache / "link")
    (cache / "catalogues").mkdir()
    (cache / "catalogues" / "kept.json").write_bytes(b"x" * 2 * MB)
    (cache / ".tmp-fresh").write_bytes(b"being written")
    (cache / ".tmp-stale").write_bytes(b"left by a process that died")
    _age(cache / ".tmp-stale", 2 * 3600)
    usercache.prune(str(cache), usercache.budget())
    assert outside.read_bytes() == b"x" * 2 * MB and (cache / "link").is_symlink()
    assert (cache / "catalogues" / "kept.json").exists()
    assert (cache / ".tmp-fresh").exists() and not (cache / ".tmp-stale").exists()


@pytest.mark.parametrize("value, mb", [("64", 64), ("", 256), ("0", 256), ("-5", 256), ("lots", 256)])
def test_the_budget_is_read_from_the_environment(monkeypatch, value, mb):
    monkeypatch.setenv("PROVOST_CACHE_MAX_MB", value)
    assert usercache.budget() == mb * MB
