"""The shipped rules' derived files, made when provost is built and installed with it.

A fresh install's first `provost check` or `provost play` of a shipped ruleset would build the
grammar's tables, parse the files and check them: 0.47 s for `provost check caylus.rules` and
0.87 s to the first decision of `provost play caylus`, against 0.11 s and 0.20 s once the user's
cache (`usercache`, `derived`) holds the results.  So the build (setup.py) runs ``build`` in a
process of its own: every shipped game, variant and player count is loaded, and every shipped
file checked, with the cache pointed at a temporary folder, and the files written there are
installed in ``dsl/_prebuilt/``.  ``read_json`` looks there before the user's cache.

A file there is named as the cache names it: by a digest of its inputs (a file's text, the
resolved rules and their files) and of the code that derived it (this package's sources, Lark's
and Python's versions: `derived.code_digest`).  A process whose code or inputs differ from the
build's (an edited rule file or checker, another Lark) names other files, so nothing stale is
read; rules checked from another folder than the one built from (a wheel installed elsewhere)
miss their check results, whose key holds the files' paths, and the user's cache keeps them.
The folder is part of the installed package, as trusted as its code, and nothing writes to it
after the build.  ``PROVOST_NO_CACHE=1`` turns it off with the cache.
"""
from __future__ import annotations

import json
import os
import shutil
import tempfile

from . import usercache
from .switches import switch_on

DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_prebuilt")
_reading = True         # off while ``build`` runs: it must derive every file, not find last build's


def read_json(name: str, object_pairs_hook=None):
    """The derived document NAME made by the build, else the user's cache's, else None."""
    doc = _built(name, object_pairs_hook)
    return doc if doc is not None else usercache.read_json(name, object_pairs_hook)


def _built(name: str, object_pairs_hook):
    if not _reading or switch_on(usercache.NO_CACHE_ENV):
        return None
    try:
        fd = os.open(os.path.join(DIR, name), os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        with os.fdopen(fd, "rb") as f:
            data = f.read(usercache.MAX_BYTES + 1)
        if len(data) > usercache.MAX_BYTES:
            return None
        return json.loads(data, object_pairs_hook=object_pairs_hook)
    except (OSError, ValueError, RecursionError):
        return None


def build(dest: str) -> int:
    """Write into DEST (emptied of earlier builds' files first) the derived files of every shipped
    game, variant and player count, and of `provost check` of every shipped file; the number of
    files.  Run it in a fresh process: the loader keeps what it made in the process, and a
    result found there is not written again."""
    global _reading
    from unittest import mock       # (here: importing it costs every command 27 ms, asyncio included)

    from . import loader
    _reading = False
    with tempfile.TemporaryDirectory(prefix="provost-prebuilt-") as scratch:
        with mock.patch.dict(os.environ, {usercache.CACHE_ENV: scratch}):   # (restored after)
            os.environ.pop(usercache.NO_CACHE_ENV, None)
            loader.shipped_configurations()             # the listing, then every ruleset played
            for path in loader.shipped_files():
                loader.check_file(path)                 # `provost check rulesets/`
        os.makedirs(dest, exist_ok=True)
        for old in os.listdir(dest):
            if old.endswith(".json"):
                os.remove(os.path.join(dest, old))
        made = sorted(f for f in os.listdir(scratch) if f.endswith(".json") and not f.startswith("."))
        for name in made:
            shutil.copyfile(os.path.join(scratch, name), os.path.join(dest, name))
    return len(made)
