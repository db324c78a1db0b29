"""Compiled engine modules (setup.py) are used only while they match their sources, and a
game plays the same compiled or not."""
from __future__ import annotations

import json
import os
import subprocess
import sys

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
    assert accelerate.stale(["nodes", "engine", "state"], record, source_hash=hashes) == ["engine", "state"]


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
