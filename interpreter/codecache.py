"""The compiled code of a program's generated functions, kept in the user's cache.

Building a program turns each expression of the rules into Python functions: a syntax tree,
walked to check it stays in the closed language (`pycode.check_closed`), then compiled.  For Ys
that is 264 units and about half of the time from a fresh process to its first decision's
options.  The code depends only on the rules (their declarations with positions: the rules'
digest), on the interpreter's and the rule language's sources, and on Python's version; and a
build makes the units in the same order every time (a test builds under several hash seeds).
So the cache of a program is the list of its units in build order, each as the place in the
rules it was compiled for, its functions' names and their code objects.  A build takes the
next unit from the list while it is the one being built (same place, same names) and compiles
from the first unit that differs on, then writes the list again.

When the rules were compiled ahead of time (native.py), the units come from that module
instead, and nothing is read or written here unless a unit differs.  Rules with no module of
their own take each unit a shipped module holds, found by its digest (`native.SharedUnits`): the
cache keeps that digest beside the unit's code, so a build from the cache finds the shared units
without preparing and digesting the trees again.

Format: ``marshal``, Python's own format for compiled code (what ``.pyc`` files hold), read
under `provost.dsl.usercache`'s rules: the user's private cache directory only, no links, a
bounded size; anything unexpected means "compile".  Never a pickle: loading builds code
objects and strings, runs nothing.
"""
from __future__ import annotations

import functools
import hashlib
import importlib.util
import marshal
import os
import types

from provost.dsl import derived, usercache

from . import native

_FORMAT = 2


@functools.cache
def interpreter_digest() -> str:
    """A digest of everything the generated code depends on besides the rules: the interpreter's
    modules, and the compiled layouts (.pxd) that code compiled ahead of time is built against."""
    h = hashlib.sha256(importlib.util.MAGIC_NUMBER + derived.code_digest().encode())
    here = os.path.dirname(os.path.abspath(__file__))
    for name in sorted(os.listdir(here)):
        if name.endswith((".py", ".pxd")):
            with open(os.path.join(here, name), "rb") as f:
                h.update(name.encode() + b"\0" + f.read() + b"\0")
    return h.hexdigest()


def program_key(rules_digest: str, name: str, variant: str | None) -> str:
    """What a program's generated code depends on, as 32 hex digits: the interpreter's sources,
    Python's version, the rules' digest, name and variant."""
    key = "\0".join([interpreter_digest(), rules_digest, name, variant or ""])
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _entries(data: bytes | None) -> list:
    """The units in DATA, or [] unless it is exactly a list of ``(str, names, codes, digest)``:
    ``digest`` the unit's digest as native modules list it (None when it was not needed), ``codes``
    None for a unit taken from a shipped module (compiled if that module is gone)."""
    if data is None:
        return []
    try:
        doc = marshal.loads(data)
    except (ValueError, EOFError, TypeError):
        return []
    if type(doc) is not tuple or len(doc) != 2 or doc[0] != _FORMAT or type(doc[1]) is not list:
        return []
    for unit in doc[1]:
        if not (type(unit) is tuple and len(unit) == 4 and type(unit[0]) is str
                and type(unit[1]) is tuple and all(type(n) is str for n in unit[1])
                and (unit[3] is None or type(unit[3]) is str)
                and ((unit[2] is None and unit[3] is not None)
                     or (type(unit[2]) is tuple and len(unit[1]) == len(unit[2])
                         and all(type(c) is types.CodeType for c in unit[2])))):
            return []
    return [list(unit) for unit in doc[1]]


class CodeCache:
    """The units of one program's build: taken from the native module or the cache in order,
    or recorded as compiled (``recorder``: a `native.Recorder` that also gets each unit's
    source, for which the cache is not read: its code skips the rewriting the source needs).
    Without a module of its own, ``shared`` has the shipped modules' units (`native.SharedUnits`)."""

    def __init__(self, rules_digest: str, name: str, variant: str | None, recorder=None):
        self.key = program_key(rules_digest, name, variant)
        self.file = "code-%s.marshal" % self.key
        self.recorder = recorder
        module = native.load(self.key) if recorder is None else None
        self.native = native.NativeUnits(module) if module is not None else None
        self.shared = native.SharedUnits(interpreter_digest() if recorder is None and module is None else None)
        self._cached = [] if recorder is not None or module is not None else _entries(usercache.read_bytes(self.file))
        self._made: list = []
        self._in_step = True          # every unit so far came from the cache, in its order
        self._changed = False         # a digest or code was added to a cached unit

    def next_unit(self, where: str, names: tuple) -> list | None:
        """The next unit (compiled at ``where``, defining ``names``) as ``[where, names, codes,
        digest]``, if the cache has it."""
        k = len(self._made)
        if self._in_step and k < len(self._cached):
            unit = self._cached[k]
            if unit[0] == where and unit[1] == names:
                self._made.append(unit)
                return unit
        self._in_step = False
        return None

    def keep(self, where: str, names: tuple) -> list:
        """A unit the cache did not have, as kept (its code and digest to come)."""
        self._in_step = False
        unit = [where, names, None, None]
        self._made.append(unit)
        return unit

    def compiled(self, unit: list, codes: dict) -> None:
        """The code of a kept unit, just compiled."""
        unit[2] = tuple(codes[n] for n in unit[1])
        self._changed = True

    def digest(self, unit: list, defs: list, namespace: dict) -> str:
        """The unit's digest as a native module lists it (`native.unit_digest`, its trees
        prepared), kept in the cache from the first time it is needed."""
        if unit[3] is None:
            unit[3] = native.unit_digest(defs, namespace)
            self._changed = True
        return unit[3]

    def counts(self) -> tuple[int, int]:
        """(units taken compiled, units) of the build so far."""
        exact = self.native.taken if self.native is not None else 0
        return exact + self.shared.taken, exact + len(self._made)

    def close(self) -> None:
        """The build is over: write the units again unless they are exactly the cached ones."""
        if self._in_step and len(self._made) == len(self._cached) and not self._changed:
            return
        usercache.write_bytes(self.file, marshal.dumps((_FORMAT, [tuple(u) for u in self._made])))
