"""Compiled engine modules (setup.py) are used only while they match their sources, and a
game plays the same compiled or not."""
from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys

import pytest

from provost.interpreter import accelerate

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

FINGERPRINT = r"""
import hashlib, json, random
from provost.interpreter.accelerate import status
from provost.interpreter.engine import Game
h = hashlib.sha256()
for name, n in (("caylus", 4), ("caylus1303", 3), ("ys", 4)):
    for seed in (1, 2):
        g = Game.new(name, players=n, seed=seed)
        rng = random.Random(seed)
        while not g.finished:
            options = g.legal_options()
            h.update("|".join(options).encode())
            g.apply(options[rng.randrange(len(options))])
        h.update(g.to_json().encode())
print(json.dumps({"fingerprint": h.hexdigest(), "status": status()}))
"""


def _run(pure: bool) -> dict:
    env = dict(os.environ)
    env.pop(accelerate.PURE_ENV, None)
    if pure:
        env[accelerate.PURE_ENV] = "1"
    done = subprocess.run([sys.executable, "-c", FINGERPRINT], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_games_are_the_same_compiled_or_pure_python():
    compiled, pure = _run(pure=False), _run(pure=True)
    assert pure["status"]["compiled"] == []
    assert compiled["fingerprint"] == pure["fingerprint"]


def test_a_compiled_module_whose_source_changed_is_stale():
    record = {"nodes": "aaa", "engine": "bbb"}
    hashes = {"nodes": "aaa", "engine": "changed", "state": "ccc"}.get
    assert accelerate.stale(["nodes", "engine", "state"], record, source_hash=hashes,
                            cimports=lambda m: set()) == ["engine", "state"]


def test_a_module_compiled_against_a_stale_one_is_stale_too():
    record = {"nodes": "a", "engine": "b", "state": "c", "effects": "d"}
    hashes = {"nodes": "a", "engine": "b", "state": "edited", "effects": "d"}.get
    uses = {"engine": {"state"}, "nodes": {"state"}, "effects": {"nodes"}}
    assert accelerate.stale(["effects", "engine", "nodes", "state"], record, source_hash=hashes,
                            cimports=lambda m: uses.get(m, set())) == ["effects", "engine", "nodes", "state"]


def test_a_module_compiled_against_one_the_build_could_not_compile_is_set_aside():
    # Every extension is optional: state may have failed to compile where engine did not.
    record = {"engine": "b", "effects": "d"}
    uses = {"engine": {"state"}}
    assert accelerate.stale(["effects", "engine"], record, source_hash=record.get,
                            cimports=lambda m: uses.get(m, set())) == ["engine"]


def test_the_pxd_files_name_the_classes_they_compile_in():
    # The engine runs a node through its C method, checks the piece index through its own and
    # finds an option among the pending ones with the runtime's C loop (index_in).
    assert accelerate._cimports("engine") == {"state", "nodes", "prims_pieces", "runtime"}
    # The nodes, the piece helpers and counted read a game's fields (state.GameFields).
    assert accelerate._cimports("nodes") == accelerate._cimports("prims_pieces") == {"state"}
    assert accelerate._cimports("runtime") == accelerate._cimports("effects") == {"state"}
    assert accelerate._cimports("state") == set()


EDITED_STATE = r"""
import json, sys
import provost.interpreter
from provost.interpreter import accelerate as a
forced = a.stale(a.compiled_modules(), {**a._recorded(), "state": "edited"})
sys.meta_path.insert(0, a._FromSource(forced))
from provost.interpreter.engine import Game
g = Game.new("caylus", players=3, seed=1)
g.apply(g.legal_options()[0])
print(json.dumps(forced))
"""


def test_an_edited_state_module_runs_with_the_engine_from_source():
    # A compiled engine refuses a State that is not the compiled class it was built against.
    if "state" not in accelerate.compiled_modules():
        pytest.skip("the engine is not compiled here")
    done = subprocess.run([sys.executable, "-c", EDITED_STATE], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    forced = json.loads(done.stdout)
    assert {"state", "engine", "nodes"} <= set(forced)


def test_without_a_record_every_compiled_module_is_stale():
    assert accelerate.stale(["nodes"], {}, source_hash=lambda m: "x") == ["nodes"]


def test_a_stale_module_is_imported_from_its_source():
    finder = accelerate._FromSource(["nodes"])
    spec = finder.find_spec("provost.interpreter.nodes")
    assert spec.origin.endswith(os.path.join("interpreter", "nodes.py"))
    assert finder.find_spec("provost.interpreter.engine") is None


def test_status_names_every_compiled_module_in_use():
    st = accelerate.status()
    assert set(st["compiled"]) <= set(accelerate.compiled_modules())
    assert not set(st["compiled"]) & set(st["from_source"])


@pytest.mark.parametrize("module, cls, field", [("state", "State", "stack"), ("state", "GameFields", "s"),
                                                ("state", "ProgramFields", "nodes"), ("nodes", "Choose", "options"),
                                                ("prims_pieces", "PieceIndex", "at")])
def test_a_compiled_module_has_the_layout_of_its_pxd(module, cls, field):
    # Cython applies a .pxd only when it finds it by the module's package name (setup.py): without
    # it the build still succeeds, with slots where the .pxd declares C fields, and a third slower.
    imported = importlib.import_module("provost.interpreter." + module)
    if imported.__file__.endswith(".py"):
        pytest.skip("%s runs from its source here" % module)
    klass = getattr(imported, cls)
    assert type(klass.__dict__[field]).__name__ == "getset_descriptor"


def test_every_primitive_gamefields_declares_is_the_engines():
    # GameFields declares the primitives the nodes and statements call (so that compiled code calls
    # them through C) and raises NotImplementedError in each: engine.Game implements every one, and
    # Node.choose is implemented by every node that asks.
    from provost.interpreter import nodes
    from provost.interpreter.engine import Game
    from provost.interpreter.state import GameFields
    declared = [n for n, v in vars(GameFields).items() if callable(v) and not n.startswith("__")]
    assert len(declared) == 14
    for name in declared:
        assert getattr(Game, name) is not getattr(GameFields, name), name
    asking = [nodes.Choose, nodes.BuildTile]
    assert all(cls.choose is not nodes.Node.choose for cls in asking)


def test_the_program_keeps_its_tables_as_fields_and_anything_else_beside():
    # Program derives from ProgramFields (its hot tables, C fields when compiled) and keeps the rest
    # in its instance dictionary, as the agents' caches need.
    from provost.interpreter.engine import Game
    from provost.interpreter.state import ProgramFields
    g = Game.new("caylus", players=4, seed=1)
    assert isinstance(g.prog, ProgramFields)
    assert g.prog.nodes[g.prog.root_id] is not None and "workers" in g.prog.counter_bounds
    g.prog._a_cache_of_a_test = 1
    assert g.prog._a_cache_of_a_test == 1
    del g.prog._a_cache_of_a_test


@pytest.mark.parametrize("module", ["codecache", "expressions", "runtime", "program", "nodes", "effects", "state",
                                    "native", "engine", "prims_pieces"])
def test_any_interpreter_module_can_be_imported_first(module):
    # Compiled, a module that cimports another's classes imports that module when it starts: a
    # cycle among them (state.pxd naming the program's module, which imports the nodes, which
    # import runtime, which cimports state) fails only when one of them is imported first.
    done = subprocess.run([sys.executable, "-c", "import provost.interpreter.%s" % module], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
