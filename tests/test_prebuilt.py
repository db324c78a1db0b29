"""The shipped rules' derived files made by the build (dsl/prebuilt.py).

A fresh install's first check or game of a shipped ruleset reads the grammar's tables, the IR and
the check results that setup.py made, instead of parsing and checking: nothing is derived, so
nothing is written to the user's cache.  An edited file is never served from them, and
``PROVOST_NO_CACHE=1`` turns them off.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from provost.dsl import derived, prebuilt
from provost.dsl.loader import load_checked, shipped_dir, shipped_files

CAYLUS = os.path.join(shipped_dir(), "caylus.rules")
DERIVED_KINDS = ("grammar-", "ir-", "checks-", "shipped-")


def current() -> bool:
    """Whether dsl/_prebuilt holds what this checkout's sources derive (a checkout edited since
    its build names other files, as a process of those sources does)."""
    with open(CAYLUS, encoding="utf-8") as f:
        return os.path.isfile(os.path.join(prebuilt.DIR, derived._name("ir", f.read())))


needs_build = pytest.mark.skipif(not current(), reason="dsl/_prebuilt is not from these sources: "
                                                       "python setup.py build_ext --inplace makes it")


def provost(*args, cache, stdin=subprocess.DEVNULL):
    env = dict(os.environ, PROVOST_CACHE_DIR=str(cache))
    env.pop("PROVOST_NO_CACHE", None)
    return subprocess.run([sys.executable, "-m", "provost.tools.cli", *args], env=env, stdin=stdin,
                          capture_output=True, text=True, timeout=300)


@needs_build
def test_a_fresh_install_checks_and_plays_shipped_rules_without_deriving_anything(tmp_path):
    cache = tmp_path / "cache"
    done = provost("check", shipped_dir(), cache=cache)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "errors" not in done.stdout or " 0 errors" in done.stdout
    done = provost("play", "ys", "--players", "2", "--seed", "3", "--agents", "human,random", cache=cache)
    assert "Traceback" not in done.stderr
    derived_here = [f for f in os.listdir(cache) if f.startswith(DERIVED_KINDS)] if cache.exists() else []
    assert derived_here == []


@needs_build
def test_a_fresh_check_imports_none_of_the_heavy_modules(tmp_path):
    """Start-up is a goal of its own: with the build's files, checking a shipped ruleset in a
    fresh process with an empty cache imports no parser, no graph or schema library, and nothing
    a build step needs (unittest.mock alone pulls in asyncio: 27 ms)."""
    heavy = ["lark", "networkx", "jsonschema", "unittest", "asyncio"]
    code = ("import sys\nfrom provost.dsl.loader import check_file, load_checked\n"
            "check_file(%r)\nload_checked('ys', None, 2)\n"
            "print([m for m in %r if m in sys.modules])\n" % (CAYLUS, heavy))
    env = dict(os.environ, PROVOST_CACHE_DIR=str(tmp_path / "cache"))
    env.pop("PROVOST_NO_CACHE", None)
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


@needs_build
def test_the_build_derives_the_same_files_again(tmp_path):
    dest = tmp_path / "prebuilt"
    script = "from provost.dsl.prebuilt import build; print(build(%r))" % str(dest)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    made = sorted(os.listdir(dest))
    assert int(done.stdout) == len(made) > len(shipped_files())
    assert made == sorted(f for f in os.listdir(prebuilt.DIR) if f.endswith(".json"))


@needs_build
def test_no_cache_turns_the_prebuilt_files_off(monkeypatch):
    name = next(f for f in os.listdir(prebuilt.DIR) if f.startswith("ir-"))
    monkeypatch.setenv("PROVOST_CACHE_DIR", "/nonexistent/provost-cache")
    monkeypatch.delenv("PROVOST_NO_CACHE", raising=False)
    assert isinstance(prebuilt.read_json(name), dict)
    monkeypatch.setenv("PROVOST_NO_CACHE", "1")
    assert prebuilt.read_json(name) is None


def test_an_edited_copy_of_a_shipped_file_is_parsed_and_checked_itself(tmp_path):
    with open(CAYLUS, encoding="utf-8") as f:
        text = f.read()
    assert "4: 7, 5: 7}" in text
    mine = tmp_path / "caylus.rules"
    mine.write_text(text.replace("4: 7, 5: 7}", "4: 9, 5: 7}"), encoding="utf-8")
    start = next(d for d in load_checked(str(mine)).decls if d.get("name") == "start_money")
    assert "9" in repr(start) and start != next(d for d in load_checked("caylus").decls
                                                  if d.get("name") == "start_money")


def test_a_build_that_compiles_nothing_makes_the_derived_files_too(tmp_path):
    """Once: with PROVOST_NO_COMPILE=1 (or no Cython) setup.py declared no extension, so build_ext,
    which made dsl/_prebuilt/, never ran, and such an install parsed and checked the shipped rules
    on first use.  build_py makes them then (into build_lib; into dsl/ for an editable install)."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    source = tmp_path / "src"         # a checkout with no build's files in it
    shutil.copytree(root, source, ignore=shutil.ignore_patterns(
        ".*", "build", "dist", "*.egg-info", "_prebuilt", "_native", "__pycache__", "*.so", "*.c", "tests", "docs"))
    env = dict(os.environ, PROVOST_NO_COMPILE="1")
    done = subprocess.run([sys.executable, "setup.py", "-q", "build_py", "--build-lib", str(tmp_path / "lib")],
                          cwd=source, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "were not made" not in done.stderr
    made = os.listdir(tmp_path / "lib" / "provost" / "dsl" / "_prebuilt")
    assert any(f.startswith("ir-") for f in made) and any(f.startswith("checks-") for f in made)
    if current():       # (check results name the files' folder, here another one)
        same = lambda names: sorted(f for f in names if f.startswith(("grammar-", "ir-")))  # noqa: E731
        assert same(made) == same(os.listdir(prebuilt.DIR))


@needs_build
def test_the_build_byte_compiled_the_sources_it_runs_from():
    """An editable install runs its modules from the source folders, which pip does not
    byte-compile: on a machine that writes no bytecode (PYTHONDONTWRITEBYTECODE) every process
    compiled them from source again.  The build compiles them where they are (setup.py)."""
    import importlib.util

    import provost.dsl.loader
    import provost.tools.cli
    for module in (provost.dsl.loader, provost.tools.cli):
        source = module.__file__
        assert source.endswith(".py")
        assert os.path.isfile(importlib.util.cache_from_source(source)), source
