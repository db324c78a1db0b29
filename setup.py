"""Optional compiled copies of the engine's hot modules (Cython), next to their sources.

The engine is plain Python and runs without them; compiled, the same code runs about a
third fewer instructions a game (docs/performance.md), helped by a .pxd beside some modules
that gives their classes a C layout.  A build that cannot compile (no C compiler) still
installs: every extension is optional, and PROVOST_NO_COMPILE=1 skips them.  Each build records
the hash of the sources it compiled (.py and .pxd), and interpreter/accelerate.py uses a
compiled module only while they are unchanged, so an edited module in a development checkout
runs as edited.

The shipped rulesets are compiled ahead of time too (interpreter/native.py): each one's
generated functions, written out as one module, compiled into interpreter/_native/, where a
program of the same rules built by the same interpreter takes them (Caylus, Caylus 1303 and Ys
play a random game in 17-20% fewer instructions).  Variants and other rule files are compiled
on demand with ``provost compile``.

The shipped rules' derived files (the grammar's tables, each file's IR, each ruleset's check
results) are made too, into dsl/_prebuilt/ (dsl/prebuilt.py), whether anything compiles or not:
the first check or game of a shipped ruleset after installing starts as fast as the next ones.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import tempfile
import types

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

# The modules the engine spends its time in (expressions.py only builds code: not here; the
# helpers its code calls are in runtime.py).
ENGINE_MODULES = ["engine", "nodes", "state", "program", "effects", "prims_pieces", "prims_zones", "prims_tiles",
                  "runtime"]
RECORD = "_compiled.json"
#: Compiled ahead of time, each without a variant (interpreter/native.py).
SHIPPED_RULESETS = ["caylus", "caylus1303", "ys"]
NATIVE_DIR = os.path.join("interpreter", "_native")
NATIVE_PACKAGE = "provost.interpreter._native"
NATIVE_BUILD = os.path.join("build", "provost-native")
#: The subpackages' folders (pyproject's package-dir), byte-compiled where they are by an editable install.
PACKAGE_FOLDERS = ["adapters", "dsl", "interpreter", "tools", "rulesets"]


def _extensions():
    if os.environ.get("PROVOST_NO_COMPILE"):
        return []                   # e.g. installing an extra's dependencies on top of a build
    try:
        from Cython.Build import cythonize
    except ImportError:             # no Cython: the pure-Python engine
        return []
    # annotation_typing off: annotations document, they must not turn into run-time checks
    # (effects.py, prims_pieces.py and prims_zones.py turn it on in their headers: their closures
    # type the game).
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
        exts += _native_extensions(cythonize, Extension, view)
    for ext in exts:
        ext.optional = True
    return exts


def _native_extensions(cythonize, Extension, view: str) -> list:
    """The shipped rulesets' generated functions as extensions (interpreter/native.py), the
    modules of earlier builds removed; none when the rules cannot be loaded here.  ``view``
    holds the engine's .pxd files under provost/interpreter/ (the generated code cimports Game)."""
    saved = {k: os.environ.get(k) for k in ("PROVOST_PURE_PYTHON", "PROVOST_NO_CACHE")}
    # The sources as they are (not compiled copies a build may be replacing), and nothing
    # written to the user's cache by a build.
    os.environ.update(PROVOST_PURE_PYTHON="1", PROVOST_NO_CACHE="1")
    if "provost" not in sys.modules:
        package = sys.modules["provost"] = types.ModuleType("provost")
        package.__path__ = [os.path.abspath(".")]      # the folders are provost's subpackages
    try:
        from provost.dsl.loader import load_checked
        from provost.interpreter import native
        from provost.interpreter.program import native_source
        sources = {}
        for name in SHIPPED_RULESETS:
            key, text = native_source(load_checked(name))
            sources[native.module_name(key)] = text
    except Exception as e:          # e.g. lark missing: the rules run as bytecode, as before
        print("provost: shipped rules not compiled ahead of time: %s" % e, file=sys.stderr)
        return []
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    os.makedirs(NATIVE_DIR, exist_ok=True)
    for entry in os.listdir(NATIVE_DIR):
        if entry.startswith("provost_rules_") and entry.split(".")[0] not in sources:
            os.remove(os.path.join(NATIVE_DIR, entry))
    # Kept until build_ext compiles the C files (build/ is the build's own scratch folder).
    os.makedirs(NATIVE_BUILD, exist_ok=True)
    modules = []
    for name, text in sources.items():
        path = os.path.join(NATIVE_BUILD, name + ".py")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        modules.append(Extension("%s.%s" % (NATIVE_PACKAGE, name), [path], extra_compile_args=native.C_FLAGS))
    return cythonize(modules, quiet=True, include_path=[view], compiler_directives=native.CYTHON_DIRECTIVES)


def _sources_hash(module: str) -> str:
    """The hash interpreter/accelerate.py compares: the module's .py, then its .pxd if any."""
    h = hashlib.sha256()
    for suffix in (".py", ".pxd"):
        path = os.path.join("interpreter", module + suffix)
        if os.path.exists(path):
            with open(path, "rb") as f:
                h.update(f.read())
    return h.hexdigest()


def _prebuild_derived(dest: str) -> None:
    """The shipped rules' derived files (grammar tables, IR, check results) into DEST
    (dsl/prebuilt.py), in a process of its own: a fresh install's first check or game of a
    shipped ruleset reads them instead of parsing and checking.  Never fails the install."""
    import subprocess
    script = ("import sys, types; p = sys.modules['provost'] = types.ModuleType('provost'); "
              "p.__path__ = [sys.argv[1]]; from provost.dsl.prebuilt import build; print(build(sys.argv[2]))")
    done = subprocess.run([sys.executable, "-c", script, os.path.abspath("."), os.path.abspath(dest)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        print("provost: the shipped rules' derived files were not made: %s" % done.stderr[-2000:], file=sys.stderr)


def _byte_compile_in_place() -> None:
    """Byte-compile the sources an editable install runs where they are.  pip byte-compiles the
    modules it copies, never a source folder: on a machine that writes no bytecode
    (PYTHONDONTWRITEBYTECODE, common in containers and CI) every process compiled each module it
    imports from source again, 70-80 ms of the 0.2 s `provost play` takes to its first decision
    and a third of a `provost check`.  A module edited since is compiled from source as before
    (its bytecode records the source's time and size).  Never fails the install."""
    import compileall
    for folder in PACKAGE_FOLDERS:
        if not compileall.compile_dir(folder, quiet=2):
            print("provost: some modules under %s/ were not byte-compiled" % folder, file=sys.stderr)


class BuildAndRecord(build_ext):
    """build_ext that writes which sources the compiled modules were built from, and makes the
    shipped rules' derived files."""

    def initialize_options(self):
        super().initialize_options()
        # One C compiler per core unless told otherwise (-j): a dozen modules, the rules' the longest.
        self.parallel = True

    def run(self):
        super().run()
        record = {}
        out_dir = None
        for ext in self.extensions:
            target = self.get_ext_fullpath(ext.name)
            if not os.path.exists(target) or ext.name.startswith(NATIVE_PACKAGE):
                continue            # an optional extension that failed to build, or rules
            out_dir = os.path.dirname(target)
            module = ext.name.rsplit(".", 1)[1]
            record[module] = _sources_hash(module)
        if out_dir is not None:
            with open(os.path.join(out_dir, RECORD), "w") as f:
                json.dump(record, f, indent=1, sort_keys=True)
        # provost.dsl's folder: dsl/ when built in place (an editable install), else under build_lib.
        dsl_folder = os.path.dirname(self.get_ext_fullpath("provost.dsl.x"))
        _prebuild_derived(os.path.join(dsl_folder, "_prebuilt"))
        if os.path.abspath(dsl_folder) == os.path.abspath("dsl"):
            _byte_compile_in_place()


class BuildPyAndPrebuild(build_py):
    """build_py that makes the shipped rules' derived files when nothing is compiled
    (PROVOST_NO_COMPILE=1, no Cython): build_ext, which makes them after compiling, does not
    run then, and they are plain JSON that need no compiler (a few seconds)."""

    def run(self):
        super().run()
        if self.distribution.has_ext_modules():
            return                  # BuildAndRecord makes them (build_ext runs after build_py)
        # provost.dsl's folder: dsl/ for an editable install, else under build_lib.
        folder = "dsl" if self.editable_mode else os.path.join(self.build_lib, *"provost.dsl".split("."))
        _prebuild_derived(os.path.join(folder, "_prebuilt"))
        if self.editable_mode:
            _byte_compile_in_place()


setup(ext_modules=_extensions(), cmdclass={"build_ext": BuildAndRecord, "build_py": BuildPyAndPrebuild})
