"""The pipeline's layers import only downwards: dsl < interpreter < adapters < tools.

Every module of the four packages is read as a syntax tree (nothing is imported), each import
is resolved to the ``provost`` subpackage it names (relative imports included), and an import
of a higher layer, or of a bare pre-``provost`` name (``import dsl``), is a failure naming the
file and line.
"""
from __future__ import annotations

import ast
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LAYERS = ["dsl", "interpreter", "adapters", "tools"]      # lowest first; rulesets/ holds data only
BARE = set(LAYERS) | {"rulesets"}


def _module_name(path: str) -> str:
    rel = os.path.relpath(path, ROOT)[:-3].split(os.sep)
    if rel[-1] == "__init__":
        rel = rel[:-1]
    return "provost." + ".".join(rel)


def _imported(tree: ast.AST, module: str, is_package: bool):
    """(line, absolute module name) for every import in the tree."""
    package = module if is_package else module.rsplit(".", 1)[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            names = [target] if node.module else ["%s.%s" % (target, a.name) for a in node.names]
            for name in names:
                yield node.lineno, name


def layer_violations(source: str, path: str) -> list[str]:
    """The imports in SOURCE (the module at PATH) that go against the layers."""
    module = _module_name(path)
    own = LAYERS.index(module.split(".")[1])
    problems = []
    tree = ast.parse(source, path)
    for line, name in _imported(tree, module, path.endswith("__init__.py")):
        parts = name.split(".")
        if parts[0] in BARE:
            problems.append("%s:%d: imports '%s': write provost.%s" % (path, line, name, name))
        elif parts[0] == "provost" and len(parts) > 1 and parts[1] in LAYERS:
            if LAYERS.index(parts[1]) > own:
                problems.append("%s:%d: %s imports %s, a higher layer" % (path, line, module, name))
    return problems


def _modules():
    for layer in LAYERS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, layer)):
            dirnames[:] = [d for d in dirnames if d != "__pycache__"]
            for f in filenames:
                if f.endswith(".py"):
                    yield os.path.join(dirpath, f)


def test_no_module_imports_against_the_layers():
    problems = []
    for path in _modules():
        with open(path, encoding="utf-8") as f:
            problems.extend(layer_violations(f.read(), path))
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("source, where, found", [
    ("from provost.tools.cli import main\n", "dsl/prose.py", "a higher layer"),
    ("import provost.adapters.catalogue\n", "interpreter/engine.py", "a higher layer"),
    ("from ..tools import cli\n", "adapters/encoding.py", "a higher layer"),
    ("from ...tools.sim import runner\n", "interpreter/agents/mcts.py", "a higher layer"),
    ("from interpreter.engine import Game\n", "tools/cli/__init__.py", "write provost.interpreter"),
])
def test_an_upward_or_bare_import_is_caught(source, where, found):
    problems = layer_violations(source, os.path.join(ROOT, where))
    assert len(problems) == 1 and found in problems[0]


@pytest.mark.parametrize("source, where", [
    ("from provost.dsl.loader import load_rules\n", "tools/cli/commands_play.py"),
    ("from ..engine import Game\n", "interpreter/agents/greedy.py"),
    ("from .catalogue import catalogue_for\n", "adapters/encoding.py"),
])
def test_downward_imports_pass(source, where):
    assert layer_violations(source, os.path.join(ROOT, where)) == []
