"""Optional compiled copies of the engine's hot modules (Cython), next to their sources.

The engine is plain Python and runs without them; compiled, the same code runs about a
third fewer instructions a game (docs/performance.md), helped by a .pxd beside some modules
that gives their classes a C layout.  A build that cannot compile (no C compiler) still
installs: every extension is optional, and PROVOST_NO_COMPILE=1 skips them.  Each build records
the hash of the sources it compiled (.py and .pxd), and interpreter/accelerate.py uses a
compiled module only while they are unchanged, so an edited module in a development checkout
runs as edited.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile

from setuptools import setup
from setuptools.command.build_ext import build_ext

# The modules the engine spends its time in (expressions.py only builds code: not here; the
# helpers its code calls are in runtime.py).
ENGINE_MODULES = ["engine", "nodes", "state", "program", "effects", "prims_pieces", "prims_zones", "prims_tiles",
                  "runtime"]
RECORD = "_compiled.json"


def _extensions():
    if os.environ.get("PROVOST_NO_COMPILE"):
        return []                   # e.g. installing an extra's dependencies on top of a build
    try:
        from Cython.Build import cythonize
    except ImportError:             # no Cython: the pure-Python engine
        return []
    # annotation_typing off: annotations document, they must not turn into run-time checks.
    from setuptools import Extension
    # The folder is interpreter/, the module provost.interpreter.X (pyproject's package-dir).
    modules = [Extension("provost.interpreter.%s" % m, ["interpreter/%s.py" % m]) for m in ENGINE_MODULES]
    with tempfile.TemporaryDirectory(prefix="provost-cython-") as view:
        # Cython finds a module's .pxd (the compiled layout of its classes, beside the .py) by
        # the module's package name: copies under provost/interpreter/ (times kept, so an
        # unchanged .pxd does not make Cython translate again).
        target = os.path.join(view, "provost", "interpreter")
        os.makedirs(target)
        for name in os.listdir("interpreter"):
            if name.endswith(".pxd"):
                shutil.copy2(os.path.join("interpreter", name), target)
        exts = cythonize(modules, quiet=True, include_path=[view],
                         compiler_directives={"language_level": 3, "annotation_typing": False,
                                              "binding": True})
    for ext in exts:
        ext.optional = True
    return exts


def _sources_hash(module: str) -> str:
    """The hash interpreter/accelerate.py compares: the module's .py, then its .pxd if any."""
    h = hashlib.sha256()
    for suffix in (".py", ".pxd"):
        path = os.path.join("interpreter", module + suffix)
        if os.path.exists(path):
            with open(path, "rb") as f:
                h.update(f.read())
    return h.hexdigest()


class BuildAndRecord(build_ext):
    """build_ext that writes which sources the compiled modules were built from."""

    def run(self):
        super().run()
        record = {}
        out_dir = None
        for ext in self.extensions:
            target = self.get_ext_fullpath(ext.name)
            if not os.path.exists(target):
                continue            # an optional extension that failed to build
            out_dir = os.path.dirname(target)
            module = ext.name.rsplit(".", 1)[1]
            record[module] = _sources_hash(module)
        if out_dir is not None:
            with open(os.path.join(out_dir, RECORD), "w") as f:
                json.dump(record, f, indent=1, sort_keys=True)


setup(ext_modules=_extensions(), cmdclass={"build_ext": BuildAndRecord})
