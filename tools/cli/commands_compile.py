"""`provost compile RULESET [--variant V]... [--players N]`: compile the rules ahead of time.

The program's generated functions are written out as one module and compiled with Cython and
the C compiler into the user's cache directory, where every later build of the same rules by
the same interpreter takes them (interpreter/native.py): the rules then play in about a fifth
fewer instructions.  The shipped rulesets without a variant are compiled by ``pip install``,
and variants, player counts with rules of their own and rule files written on top of a shipped
game take every unit they share with those modules (native.SharedUnits); this command
compiles all of a program's units, the ones a variant changes too, and rule files of games of
your own.  It prints the module's path; rules that cannot be compiled here (no Cython, no C
compiler, no private cache directory, an engine that runs from its Python sources, beside which
no compiled module loads) are a usage error (exit 2), and still play as before.
"""
from __future__ import annotations

import argparse
import os
import shlex
import shutil
import sysconfig
import time

from provost.dsl.diagnostics import UsageError, printable


def run_compile(args: argparse.Namespace) -> int:
    from provost.interpreter import native
    from provost.interpreter.gamelog import load_rules
    from provost.interpreter.program import compile_native

    from provost.tools.cli.failures import check_player_count

    rs = load_rules(args.ruleset, args.variant, args.players)  # RulesError -> diagnostics, exit 1
    check_player_count(rs, args.players)
    if not native.enabled():
        raise UsageError("compiled rules are turned off here (%s or %s is set)" % (native.PURE_ENV, native.NO_NATIVE_ENV))
    if not _engine_compiled():
        # A module built now would never be loaded (native.load): 20 s to 2 min spent for nothing.
        raise UsageError("compiled rules run only with the compiled engine, and the engine here runs from its "
                         "Python sources (%s): reinstall with Cython and a C compiler: pip install "
                         "'provost[native]', without PROVOST_NO_COMPILE" % _why_engine_from_source())
    missing = _missing_compiler()
    if missing:
        raise UsageError("cannot compile %s here: no C compiler: '%s' (the one Python was built with, or $CC) "
                         "is not on PATH" % (printable(args.ruleset), printable(missing)))
    start = time.perf_counter()
    try:
        path = compile_native(rs)
    except native.NativeError as e:
        raise UsageError("cannot compile %s here: %s" % (printable(args.ruleset), e)) from None
    print("compiled %s%s in %.0f s: %s (%d KB)" % (
        printable(rs.name), " (variant %s)" % printable(rs.variant) if rs.variant else "",
        time.perf_counter() - start, printable(path), os.path.getsize(path) // 1024))
    return 0


def _engine_compiled() -> bool:
    """The engine's game and state run compiled: the only engine a compiled rules module loads beside."""
    from provost.interpreter import engine, native, state  # noqa: F401 - imported to be looked at
    return native._beside_compiled_engine()


def _why_engine_from_source() -> str:
    from provost.interpreter import accelerate
    if not accelerate.compiled_modules():
        return "it was installed without compiling it"
    return "its compiled copies no longer match its sources"


def _missing_compiler() -> str | None:
    """The C compiler the build would run (setuptools takes $CC, else Python's own), when it is
    not on PATH: said in those words rather than as the build's "No such file or directory"."""
    if os.name == "nt":
        return None                 # MSVC is found by setuptools through the registry, not PATH
    command = shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")
    return command[0] if command and shutil.which(command[0]) is None else None
