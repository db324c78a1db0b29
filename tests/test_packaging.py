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
