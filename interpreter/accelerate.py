"""Compiled copies of the engine's modules, used only while they match their sources.

``pip install`` compiles the engine's hot modules with Cython when it can (setup.py) and
records the hash of each source it compiled in ``_compiled.json``.  Python would import a
compiled module in preference to its source even after the source was edited, so before
any engine module is imported this package checks every compiled module against its
source, and imports from source each one that no longer matches (or every one when
``PROVOST_PURE_PYTHON=1``).  Compiled or not, the code is the same and so is every game.
"""
from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import re
import sys

from provost.dsl.switches import switch_on

PACKAGE = os.path.dirname(os.path.abspath(__file__))
RECORD = os.path.join(PACKAGE, "_compiled.json")
PURE_ENV = "PROVOST_PURE_PYTHON"


def _source_hash(module: str) -> str | None:
    """The hash of what the module is compiled from: its ``.py``, then its ``.pxd`` (the compiled
    layout of its classes) when it has one, as setup.py records it."""
    h = hashlib.sha256()
    try:
        with open(os.path.join(PACKAGE, module + ".py"), "rb") as f:
            h.update(f.read())
    except OSError:
        return None
    try:
        with open(os.path.join(PACKAGE, module + ".pxd"), "rb") as f:
            h.update(f.read())
    except FileNotFoundError:
        pass
    except OSError:
        return None
    return h.hexdigest()


def _recorded() -> dict:
    try:
        with open(RECORD) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def compiled_modules() -> list[str]:
    """Every module of this package that has a compiled copy, fresh or stale."""
    names = set()
    for entry in os.listdir(PACKAGE):
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:    # the most specific first
            if entry.endswith(suffix):
                names.add(entry[: -len(suffix)])
                break
    return sorted(names)


_CIMPORT = re.compile(r"^from provost\.interpreter\.(\w+) cimport ", re.MULTILINE)


def _cimports(module: str) -> set[str]:
    """The modules whose compiled classes this module's ``.pxd`` names (``Game.s`` is a ``State``)."""
    try:
        with open(os.path.join(PACKAGE, module + ".pxd"), encoding="utf-8") as f:
            return set(_CIMPORT.findall(f.read()))
    except OSError:
        return set()


def stale(modules, recorded: dict, source_hash=_source_hash, cimports=_cimports) -> list[str]:
    """The compiled modules whose source is not the one they were compiled from, and those that
    compiled in another one's classes which is stale or has no compiled copy (a build that could
    not compile it): a compiled engine checks at import that ``State`` is the compiled class it
    was built against, so it cannot run beside a ``state`` from source."""
    compiled = set(modules)
    uses = {m: cimports(m) for m in modules}
    out = {m for m in modules
           if recorded.get(m) is None or recorded[m] != source_hash(m) or not uses[m] <= compiled}
    while True:
        more = {m for m in modules if m not in out and uses[m] & out}
        if not more:
            return [m for m in modules if m in out]
        out |= more


class _FromSource:
    """A finder that imports the named modules of this package from their ``.py`` files."""

    def __init__(self, modules):
        self.modules = {"%s.%s" % (__package__, m): m for m in modules}

    def find_spec(self, fullname, path=None, target=None):
        module = self.modules.get(fullname)
        if module is None:
            return None
        return importlib.util.spec_from_file_location(fullname, os.path.join(PACKAGE, module + ".py"))


_from_source: list = []


def install() -> None:
    """Make the engine's imports take each module's source wherever its compiled copy is stale."""
    modules = compiled_modules()
    if not modules:
        return
    forced = modules if switch_on(PURE_ENV) else stale(modules, _recorded())
    if forced:
        finder = _FromSource(forced)
        _from_source.append(finder)
        sys.meta_path.insert(0, finder)


def status() -> dict:
    """Which engine modules run compiled, for benchmarks and bug reports."""
    compiled = []
    for m in compiled_modules():
        module = sys.modules.get("%s.%s" % (__package__, m))
        origin = getattr(module, "__file__", "") or ""
        if module is not None and not origin.endswith(".py"):
            compiled.append(m)
    return {"compiled": compiled, "pure_python": switch_on(PURE_ENV),
            "from_source": sorted(f.modules[k] for f in _from_source for k in f.modules)}
