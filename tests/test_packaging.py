"""The distribution installs one import package, provost, and every subpackage of it.

pyproject.toml lists the packages explicitly (stray folders must never reach a wheel), so a new
folder of code that is not listed would be missing from every installed copy: this test finds
it.  It also checks that nothing is mapped outside provost.
"""
from __future__ import annotations

import os
import tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _setuptools():
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        return tomllib.load(f)["tool"]["setuptools"]


def test_every_package_is_under_provost():
    assert all(p.startswith("provost.") for p in _setuptools()["packages"])


def test_every_code_folder_is_a_listed_package():
    config = _setuptools()
    listed = set(config["packages"])
    folders = {folder: package for package, folder in config["package-dir"].items()}
    missing = []
    for folder, package in folders.items():
        for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, folder)):
            dirnames[:] = [d for d in dirnames if d != "__pycache__"]
            if "__init__.py" not in filenames:
                continue
            rel = os.path.relpath(dirpath, os.path.join(ROOT, folder))
            name = package if rel == "." else package + "." + rel.replace(os.sep, ".")
            if name not in listed:
                missing.append(name)
    assert not missing, "add to [tool.setuptools] packages in pyproject.toml: %s" % missing


def test_the_installed_package_is_this_checkout():
    import provost.dsl
    import provost.tools.cli
    assert os.path.dirname(provost.dsl.__file__) == os.path.join(ROOT, "dsl")
    assert os.path.dirname(provost.tools.cli.__file__) == os.path.join(ROOT, "tools", "cli")


def test_the_gym_extra_holds_what_the_gymnasium_environment_imports():
    # `pip install 'provost[gym]'` must be enough for adapters/gym_env.py and the adapter modules
    # it uses (Pillow stays optional: rgb_array rendering checks for it and says so)
    import ast
    import re

    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        project = tomllib.load(f)["project"]
    reqs = project["optional-dependencies"]["gym"] + project["dependencies"]
    declared = {re.split(r"[<>=!~\[ ]", req, maxsplit=1)[0].lower() for req in reqs}
    needed = set()
    for name in ("gym_env", "catalogue", "encoding", "rendering"):
        with open(os.path.join(ROOT, "adapters", name + ".py"), encoding="utf-8") as f:
            tree = ast.parse(f.read())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                needed.update(a.name.split(".")[0] for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                needed.add(node.module.split(".")[0])
    import sys
    third_party = {m for m in needed if m not in sys.stdlib_module_names and m not in ("provost", "__future__", "PIL")}
    assert third_party <= declared, third_party - declared
