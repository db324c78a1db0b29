"""The grammar's cached tables: JSON in the user's private cache directory, never a pickle,
never a file someone else could have planted."""
from __future__ import annotations

import json
import os
import pickle

import pytest

from provost.dsl import parser, prebuilt, usercache

CAYLUS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "rulesets", "caylus.rules")


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """The user's cache alone: the build's grammar tables (test_prebuilt.py) set aside."""
    monkeypatch.setattr(prebuilt, "_reading", False)
    d = tmp_path / "cache"
    monkeypatch.setenv(usercache.CACHE_ENV, str(d))
    monkeypatch.delenv(usercache.NO_CACHE_ENV, raising=False)
    parser.get_parser.cache_clear()
    yield d
    parser.get_parser.cache_clear()


def _fresh_parse():
    parser.get_parser.cache_clear()
    with open(CAYLUS, encoding="utf-8") as f:
        tree, diags = parser.parse_text(f.read(), CAYLUS)
    assert diags == [] and tree is not None
    return tree


def _no_pickle(monkeypatch):
    def refuse(*a, **k):
        raise AssertionError("a pickle was read")
    monkeypatch.setattr(pickle, "load", refuse)
    monkeypatch.setattr(pickle, "loads", refuse)


def test_tables_are_json_in_a_private_directory_and_read_back_without_pickle(cache, monkeypatch):
    _no_pickle(monkeypatch)
    first = _fresh_parse()                  # builds and writes
    files = [f for f in os.listdir(cache) if f.startswith("grammar-")]
    assert len(files) == 1 and files[0].endswith(".json")
    assert oct(os.stat(cache).st_mode & 0o777) == oct(0o700)
    with open(cache / files[0], encoding="utf-8") as f:
        assert set(json.load(f)) == {"data", "memo"}
    assert _fresh_parse() == first          # read back from the cache


def test_a_directory_others_can_write_is_not_used(cache, monkeypatch):
    cache.mkdir(mode=0o700)
    os.chmod(cache, 0o777)
    assert usercache.cache_dir() is None
    _no_pickle(monkeypatch)
    _fresh_parse()                          # builds, caches nothing
    assert os.listdir(cache) == []


def test_a_cache_file_others_can_write_is_ignored(cache):
    _fresh_parse()
    name = next(f for f in os.listdir(cache) if f.startswith("grammar-"))
    os.chmod(cache / name, 0o666)
    assert usercache.read_json(name) is None


def test_a_planted_link_is_not_followed_and_its_target_not_written(cache, tmp_path):
    _fresh_parse()
    name = next(f for f in os.listdir(cache) if f.startswith("grammar-"))
    target = tmp_path / "victim.txt"
    target.write_text("precious")
    os.unlink(cache / name)
    os.symlink(target, cache / name)
    assert usercache.read_json(name) is None
    _fresh_parse()                          # rebuilds and replaces the link itself
    assert target.read_text() == "precious"
    assert not os.path.islink(cache / name)


def test_a_damaged_cache_file_is_rebuilt(cache):
    first = _fresh_parse()
    name = next(f for f in os.listdir(cache) if f.startswith("grammar-"))
    (cache / name).write_text('{"data": {"bogus": 1}, "memo": {}}')
    os.chmod(cache / name, 0o600)
    assert _fresh_parse() == first


@pytest.mark.parametrize("value, on", [("1", True), ("true", True), ("0", False), ("", False), ("no", False)])
def test_environment_switches_read_one_and_zero(monkeypatch, value, on):
    monkeypatch.setenv("PROVOST_SOME_SWITCH", value)
    assert usercache.switch_on("PROVOST_SOME_SWITCH") is on
