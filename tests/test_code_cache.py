"""The code of a program's generated functions comes back from the user's cache exactly as a
fresh build compiles it, and only for the unit it was compiled for."""
from __future__ import annotations

import marshal
import os
import random
import subprocess
import sys

import pytest

from provost.dsl.loader import load_checked
from provost.interpreter import codecache, program, pycode
from provost.interpreter.engine import Game
from provost.interpreter.program import Program


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("PROVOST_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("PROVOST_NO_CACHE", raising=False)
    # The bytecode's cache: rules compiled ahead of time (tests/test_native.py) would bypass it.
    monkeypatch.setenv("PROVOST_NO_NATIVE", "1")
    return tmp_path / "cache"


def _units(rs, monkeypatch) -> list:
    """(where, names, code objects) of every unit a fresh Program of ``rs`` compiles or takes."""
    seen, make = [], pycode.make_functions

    def recorded(defs, namespace, where, cache=None, prepare=None):
        made = make(defs, namespace, where, cache, prepare)
        seen.append((where, tuple(made), tuple(f.__code__ for f in made.values())))
        return made
    monkeypatch.setattr("provost.interpreter.expressions.make_functions", recorded)
    Program(rs)
    monkeypatch.setattr("provost.interpreter.expressions.make_functions", make)
    return seen


def _compiles(monkeypatch) -> list:
    """Count the trees checked (each one compiled) from now on."""
    checked, check = [], pycode.check_closed

    def counted(tree):
        checked.append(tree)
        return check(tree)
    monkeypatch.setattr(pycode, "check_closed", counted)
    return checked


@pytest.mark.parametrize("name", ["caylus", "caylus1303", "ys"])
def test_a_build_from_the_cache_has_the_code_of_a_fresh_build(cache, monkeypatch, name):
    rs = load_checked(name)
    fresh = _units(rs, monkeypatch)
    assert [f.name for f in cache.iterdir() if f.name.startswith("code-")]
    checked = _compiles(monkeypatch)
    again = _units(rs, monkeypatch)
    assert not checked, "every unit came from the cache"
    assert again == fresh                 # code objects compare by their bytecode, constants, names


def _random_game(rs, seed: int) -> list:
    g = Game.new(rs, players=4, seed=seed)
    rng = random.Random(seed)
    chosen = []
    while not g.s.finished:
        options = g.legal_options()
        chosen.append(options[rng.randrange(len(options))])
        g.apply(chosen[-1])
    return chosen + [g.scores()]


@pytest.mark.parametrize("name", ["caylus1303", "ys"])
def test_a_game_played_by_cached_code_is_the_same_game(cache, monkeypatch, name):
    rs = load_checked(name)
    monkeypatch.setattr(program, "_programs", {})       # a program built afresh (and its code kept)
    fresh = _random_game(rs, 5)
    monkeypatch.setattr(program, "_programs", {})       # built again, from the kept code
    checked = _compiles(monkeypatch)
    assert _random_game(rs, 5) == fresh
    assert not checked


def test_a_damaged_cache_file_means_compiling(cache, monkeypatch):
    rs = load_checked("caylus")
    fresh = _units(rs, monkeypatch)
    for f in cache.iterdir():
        if f.name.startswith("code-"):
            f.write_bytes(b"\x00not marshal")
    checked = _compiles(monkeypatch)
    assert _units(rs, monkeypatch) == fresh
    assert len(checked) == len(fresh)
    checked.clear()
    _units(rs, monkeypatch)
    assert not checked, "the damaged file was written again"


def test_a_unit_of_other_rules_is_never_taken(cache, monkeypatch):
    rs = load_checked("caylus")
    fresh = _units(rs, monkeypatch)
    [path] = [f for f in cache.iterdir() if f.name.startswith("code-")]
    # The file's third unit says it was compiled somewhere else: units from there on are compiled.
    fmt, units = marshal.loads(path.read_bytes())
    where, names, codes, digest = units[2]
    units[2] = ("<rules 1:1>", names, codes, digest)
    path.write_bytes(marshal.dumps((fmt, units)))
    checked = _compiles(monkeypatch)
    assert _units(rs, monkeypatch) == fresh
    assert len(checked) == len(fresh) - 2


def test_well_formed_but_foreign_contents_are_refused():
    code = compile("1", "<x>", "eval")
    for digest in (None, "d" * 32):
        assert codecache._entries(marshal.dumps((codecache._FORMAT, [("<rules 1:1>", ("_f0",), (code,), digest)]))) \
            == [["<rules 1:1>", ("_f0",), (code,), digest]]
    # A unit taken from a shipped module is kept by its digest alone.
    assert codecache._entries(marshal.dumps((codecache._FORMAT, [("w", ("_f0",), None, "d" * 32)]))) \
        == [["w", ("_f0",), None, "d" * 32]]
    for doc in [[1, 2], (codecache._FORMAT + 1, []), (codecache._FORMAT, [("w", ("_f0",), ("not code",), None)]),
                (codecache._FORMAT, [("w", ("_f0",), None, None)]),
                (codecache._FORMAT, [("w", ("_f0", "_f1"), (code,), None)]), (codecache._FORMAT, {"w": 1}),
                (codecache._FORMAT, [("w", ("_f0",), (code,))]), (codecache._FORMAT, [("w", ("_f0",), (code,), 7)])]:
        assert codecache._entries(marshal.dumps(doc)) == []
    assert codecache._entries(b"") == [] and codecache._entries(None) == []


def test_provost_play_keeps_the_code_and_plays_the_same_game_from_it(tmp_path):
    # As a user runs it: two fresh processes, the first compiles and keeps the code, the second
    # takes every unit from the file (so leaves it as it was) and plays the same game.
    env = dict(os.environ, PROVOST_CACHE_DIR=str(tmp_path / "cache"), PROVOST_NO_NATIVE="1")
    env.pop("PROVOST_NO_CACHE", None)
    cmd = [sys.executable, "-m", "provost.tools.cli", "play", "ys", "--seed", "4", "--format", "json", "--no-log"]
    first = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True).stdout
    [code] = (tmp_path / "cache").glob("code-*.marshal")
    kept = code.stat().st_mtime_ns, code.read_bytes()
    second = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True).stdout
    assert second == first
    assert (code.stat().st_mtime_ns, code.read_bytes()) == kept


def test_no_cache_means_no_code_file(tmp_path, monkeypatch):
    monkeypatch.setenv("PROVOST_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PROVOST_NO_CACHE", "1")
    Program(load_checked("ys"))
    assert not (tmp_path / "cache").exists()


_BUILD_ORDER = """
import hashlib, sys
from provost.interpreter import expressions, pycode
from provost.dsl.loader import load_checked
from provost.interpreter.program import Program
h = hashlib.sha256()
make = pycode.make_functions
def shape(c):
    # A code object as data: nested code (a comprehension) and sets of constants spelt out.
    consts = tuple(shape(x) if hasattr(x, "co_code") else sorted(map(repr, x)) if isinstance(x, frozenset)
                   else x for x in c.co_consts)
    return (c.co_name, c.co_code, consts, c.co_names, c.co_varnames)
def recorded(defs, namespace, where, cache=None, prepare=None):
    made = make(defs, namespace, where, cache, prepare)
    for name, f in made.items():
        h.update(repr((where, name, shape(f.__code__))).encode())
    return made
expressions.make_functions = recorded
for name in ("caylus", "caylus1303", "ys"):
    Program(load_checked(name))
print(h.hexdigest())
"""


def test_a_build_makes_its_units_in_the_same_order_whatever_the_hash_seed(tmp_path):
    # The cache is a list in build order: no set of strings may decide that order.
    digests = set()
    for seed in ("1", "2", "3"):
        env = dict(os.environ, PYTHONHASHSEED=seed, PROVOST_NO_CACHE="1")
        done = subprocess.run([sys.executable, "-c", _BUILD_ORDER], capture_output=True, text=True, env=env,
                              check=True)
        digests.add(done.stdout.strip())
    assert len(digests) == 1
