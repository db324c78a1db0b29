"""Rules compiled ahead of time: a program's generated functions as one native module.

Building a program turns each expression of the rules into Python functions (pycode.py), which
run as bytecode.  The same functions written out as one Python module and compiled with Cython
play a random game in about a fifth fewer instructions, with the same results: the bytecode
loop and the frames are gone, and a function's ``env`` is read as the dict it is.

The module holds one factory per unit of the build (the functions compiled together for one
place in the rules), in build order: ``_u12(ns)`` takes the unit's namespace (the tables,
helpers and positions its code refers to, made afresh by every build) and returns its
functions.  A build takes the next factory while it is the one being built (same place, same
names) and compiles from the first unit that differs on, as with the code cache
(codecache.py), whose key it shares: the interpreter's sources, Python's version, the rules'
digest, name and variant.

Rules with no module of their own (a variant, a player count with rules of its own, a rule file
written on top of a shipped game) share the shipped modules' units: each unit is also listed
under a digest of what its source is written from (``unit_digest``: its trees and the kinds of
its namespace's values), and a build that finds no module for its key takes every unit whose
digest a shipped module written by the same interpreter lists (``SharedUnits``): the same
source, so the same functions (the namespace it is given is checked by its factory).  A
variant changes a few definitions, so it runs 93-99% of its units compiled.  The source is
written from syntax trees that passed
``pycode.check_closed``, so it says nothing a rule file could have put there but string and
number constants.

Where modules are found, first to last: ``interpreter/_native/`` (built by ``pip install`` for
the shipped rulesets, beside the engine's own compiled modules), then the user's private cache
directory (``provost compile``), under `provost.dsl.usercache`'s rules: a regular file, not a
link, that only the user can write.  ``PROVOST_PURE_PYTHON=1`` (the engine as plain Python)
and ``PROVOST_NO_NATIVE=1`` use none.  Building needs Cython and a C compiler; without them
nothing changes but speed.
"""
from __future__ import annotations

import ast
import contextlib
import copy
import functools
import hashlib
import importlib.machinery
import importlib.util
import os
import shutil
import sys
import tempfile

from provost.dsl import usercache
from provost.dsl.switches import switch_on

from .expressions import kept_on_first_use, rewrite_children, state_table

FORMAT = 2
NO_NATIVE_ENV = "PROVOST_NO_NATIVE"
PURE_ENV = "PROVOST_PURE_PYTHON"
#: Shipped modules, built by setup.py next to the engine's own compiled modules.
SHIPPED_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_native")
#: The C compiler's optimisation (gcc and clang).  On Ys' module, instructions a random game and
#: compile time: -O1 44.6 M, 40 s; -O2 44.1 M, 130 s; Python's own -O3 42.6 M, about 170 s;
#: -O0 54.7 M (slower than the bytecode's 53.4 M).
C_FLAGS = [] if os.name == "nt" else ["-O1"]
#: The generated source's annotations are C types: ``env: dict`` (a frame's bindings) and ``g``
#: the engine's Game, whose fields and the state's tables the C code then reads directly
#: (engine.pxd, state.pxd).  ``nonecheck``: a None where an object was expected raises the
#: AttributeError the bytecode raises, rather than reading through a null pointer.
CYTHON_DIRECTIVES = {"language_level": 3, "annotation_typing": True, "nonecheck": True}
_ENV_PARAMETERS = "(g, env):"
#: ``g`` may be None (the MCTS agent probes the rules' constants with no game); any other
#: object than a Game is a TypeError.
_TYPED_PARAMETERS = "(g: typing.Optional[Game], env: dict):"
#: The module's sentinel for a binding not read yet (_keep_env_reads).
_UNSET_NAME = "_UNSET_READ"
#: Functions of the engine's compiled modules that the generated code calls through C instead of
#: Python's call protocol (argument parsing, and a ``functools.partial``'s own call): each is
#: declared ``cpdef`` in its module's .pxd, so the module can cimport it.  A namespace value that
#: is one of them, or a partial of one binding positional arguments only, is called directly
#: (``_DirectCalls``); the unit's factory checks that the value is still that function.
C_FUNCTIONS = {"provost.interpreter.prims_pieces": ("_reduced", "_room_left"),
               "provost.interpreter.runtime": ("counted", "kept_entry", "kept_list_entry")}
_HEADER = ["import functools", "import typing", "from cython.cimports.provost.interpreter.engine import Game",
           "%s = object()" % _UNSET_NAME]


class NativeError(Exception):
    """The module could not be built: what is missing or what failed."""


def module_name(key: str) -> str:
    return "provost_rules_%s" % key


def enabled() -> bool:
    return not (switch_on(NO_NATIVE_ENV) or switch_on(PURE_ENV))


# ------------------------------------------------------------------ writing
class Recorder:
    """The units of one program's build, as source, in build order (``pycode.make_functions``
    calls ``record`` after checking each unit's trees)."""

    def __init__(self):
        self.units: list = []

    def record(self, where: str, defs: list, namespace: dict) -> None:
        """A unit as the module writes it: ``(where, names, refs, sources, direct, digest)``, from
        its checked (and prepared) trees and the namespace they were compiled with."""
        refs, builtin, direct = _namespace_kinds(namespace)
        sources = [ast.unparse(_keep_env_reads(_Typed(builtin).visit(_DirectCalls(direct).visit(copy.deepcopy(d)))))
                   for d in defs]
        self.units.append((where, tuple(d.name for d in defs), refs, sources, sorted(direct.items()),
                           unit_digest(defs, namespace)))


def _namespace_kinds(namespace: dict) -> tuple:
    """What a unit's source takes from its namespace: the values it reads (``[(name, C type or
    None)]``), the builtins it names (``{name: 'str'}``) and the engine functions it calls
    through C (``{name: (module, function, bound arguments)}``)."""
    refs, builtin, direct = [], {}, {}
    for k in sorted(namespace):
        if k.startswith("_k"):
            value = namespace[k]
            if value is type or value is str or value is int:
                builtin[k] = value.__name__
            else:
                refs.append((k, _TYPED.get(type(value))))
                target = _c_function(value)
                if target is not None:
                    direct[k] = target
    return refs, builtin, direct


def unit_digest(defs: list, namespace: dict) -> str:
    """The digest of what a unit's source is written from: its checked and prepared trees (not
    their positions in the rules) and the kinds of its namespace's values.  The same inputs give
    the same source (an interpreter writes it the same way every time, and modules are shared
    only under the interpreter that wrote them), and digesting them is about eight times cheaper
    than writing the source (17 against 129 ms for Ys for 2's 280 units)."""
    refs, builtin, direct = _namespace_kinds(namespace)
    text = "\n".join([ast.dump(d) for d in defs] + [repr(refs), repr(sorted(builtin.items())),
                                                     repr(sorted(direct.items()))])
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _c_function(value):
    """(module, name, bound) when VALUE is one of ``C_FUNCTIONS``, or a ``functools.partial``
    of one binding ``bound`` positional arguments (None for the function itself)."""
    bound = None
    if type(value) is functools.partial:
        if value.keywords:
            return None
        bound, value = len(value.args), value.func
    module, name = getattr(value, "__module__", None), getattr(value, "__name__", None)
    if name in C_FUNCTIONS.get(module, ()):
        return module, name, bound
    return None


def _c_name(module: str, name: str) -> str:
    """The generated module's name for the C function ``name`` of ``module``."""
    return "_c_%s_%s" % (module.rsplit(".", 1)[1], name)


def _python_module_name(module: str) -> str:
    """The generated module's name for ``module`` imported as Python (the factories' checks)."""
    return "_py_%s" % module.rsplit(".", 1)[1]


def _c_imports() -> list:
    """The module's imports of ``C_FUNCTIONS``: each module as Python (for the factories'
    checks) and its functions as C."""
    lines = []
    for module, names in C_FUNCTIONS.items():
        lines.append("import %s as %s" % (module, _python_module_name(module)))
        lines.append("from cython.cimports.%s import %s"
                     % (module, ", ".join("%s as %s" % (n, _c_name(module, n)) for n in names)))
    return lines


class _DirectCalls(ast.NodeTransformer):
    """``_k4(g, a, b)``, where ``_k4`` is ``partial(f, x)`` of a function of ``C_FUNCTIONS``,
    becomes ``_c_module_f(_k4_0, g, a, b)``: a C call of the cimported function with the bound
    arguments the factory took out of the partial."""

    def __init__(self, direct: dict):
        self.direct = direct

    def visit_Call(self, node):
        self.generic_visit(node)
        func = node.func
        target = self.direct.get(func.id) if type(func) is ast.Name else None
        if target is None or node.keywords or any(type(a) is ast.Starred for a in node.args):
            return node
        module, name, bound = target
        args = [ast.Name(id="%s_%d" % (func.id, j), ctx=ast.Load()) for j in range(bound or 0)]
        return ast.copy_location(ast.Call(func=ast.Name(id=_c_name(module, name), ctx=ast.Load()),
                                          args=args + node.args, keywords=[]), node)


#: Values of the namespace typed in the factory, so that the C code reads them directly
#: (``memo.get(v)``, ``table[k]``) instead of through Python's method calls.
_TYPED = {dict: "dict", list: "list"}
#: The state's tables, always dicts: a function's local copy of one is typed.
_DICT_TABLES = frozenset({"counters", "orders", "occ", "tiles", "zones"})


class _Typed(ast.NodeTransformer):
    """What Cython can compile to C that the bytecode cannot use: ``type``, ``str`` and ``int``
    by their own names (``type(v) is str`` becomes a pointer comparison), and the local copies of the
    state's tables (``_t3 = g.s.occ``) declared as dicts."""

    def __init__(self, builtin: dict):
        self.builtin = builtin

    def visit_Name(self, node):
        name = self.builtin.get(node.id)
        return ast.Name(id=name, ctx=node.ctx) if name is not None else node

    def visit_Assign(self, node):
        target, value = node.targets[0], node.value
        if len(node.targets) == 1 and type(target) is ast.Name and state_table(value) in _DICT_TABLES:
            return ast.AnnAssign(target=target, annotation=ast.Name(id="dict", ctx=ast.Load()), value=value,
                                 simple=1)
        return self.generic_visit(node)


def _keep_env_reads(fn: ast.FunctionDef) -> ast.FunctionDef:
    """Each ``env['name']`` read in a listing's items or tests read once per call, on first use
    (``_x0 if _x0 is not _u else (_x0 := env['name'])``), not once per item: compiled, a read
    is a dictionary lookup, and the bindings do not change while an expression runs.  A state
    table's entry read by name (``_t3['locked']``, the table a local of the function) likewise:
    an expression changes no state.  Not in a comprehension's iterable nor in a lambda, where an
    assignment is not allowed or would bind in the lambda's own scope; but a listing returned
    whole (``return [... for x in ITERABLE ...]``) has its first iterable computed in a statement
    just before, which is where Python computes it first anyway, so that the reads of a listing
    in it (an option's domain written as a comprehension) are kept too."""
    kept: dict = {}
    tables = {_assigned_name(stmt) for stmt in fn.body if _assigned_table(stmt)}

    def rewrite(node):
        if type(node) is ast.Subscript and type(node.value) is ast.Name and type(node.slice) is ast.Constant \
                and type(node.ctx) is ast.Load and (node.value.id == "env" or node.value.id in tables):
            key = node.slice.value if node.value.id == "env" else (node.value.id, node.slice.value)
            name = kept.setdefault(key, "_x%d" % len(kept))
            return kept_on_first_use(name, ast.Name(id="_xu", ctx=ast.Load()), node)
        if type(node) is ast.Lambda:
            return node
        if type(node) is ast.comprehension:
            node.ifs = [rewrite(x) for x in node.ifs]      # not node.iter
            return node
        return rewrite_children(node, rewrite)

    def visit(node):
        if type(node) is ast.ListComp:
            rewrite(node)               # its items and tests, not its iterables
        elif type(node) is not ast.Lambda:
            for child in ast.iter_child_nodes(node):
                visit(child)

    fn.body = _first_iterables_computed_before(fn.body)
    for stmt in fn.body:
        visit(stmt)
    if kept:
        start = [ast.Assign(targets=[ast.Name(id="_xu", ctx=ast.Store())], value=ast.Name(id=_UNSET_NAME, ctx=ast.Load()))]
        start += [ast.Assign(targets=[ast.Name(id=name, ctx=ast.Store())], value=ast.Name(id="_xu", ctx=ast.Load()))
                  for name in kept.values()]
        fn.body[:0] = [ast.fix_missing_locations(a) for a in start]
    return fn


def _assigned_table(stmt) -> bool:
    """``_t3 = g.s.zones`` (or, typed, ``_t3: dict = ...``): a local copy of a state table."""
    if type(stmt) is ast.Assign:
        return len(stmt.targets) == 1 and type(stmt.targets[0]) is ast.Name and state_table(stmt.value) is not None
    return type(stmt) is ast.AnnAssign and type(stmt.target) is ast.Name and state_table(stmt.value) is not None


def _assigned_name(stmt) -> str:
    return stmt.targets[0].id if type(stmt) is ast.Assign else stmt.target.id


def _first_iterables_computed_before(body: list) -> list:
    """BODY with ``return [E for x in IT ...]`` written ``_it0 = IT`` then ``return [E for x in
    _it0 ...]``: the same order of evaluation (Python computes a comprehension's first iterable
    before anything else of it), with IT out of the comprehension's iterable."""
    out = []
    for stmt in body:
        if type(stmt) is ast.Return and type(stmt.value) is ast.ListComp \
                and type(stmt.value.generators[0].iter) is not ast.Name:
            first = stmt.value.generators[0]
            name = "_it%d" % len(out)
            out.append(ast.copy_location(ast.Assign(targets=[ast.Name(id=name, ctx=ast.Store())], value=first.iter),
                                         stmt))
            first.iter = ast.Name(id=name, ctx=ast.Load())
        out.append(stmt)
    return out


def module_source(key: str, units: list, interpreter: str) -> str:
    """The module's Python source: a factory per unit, then ``UNITS``.  ``interpreter``: the
    digest of the interpreter's sources (codecache.py), which a module's units are shared under."""
    out = ['"""Generated by provost (interpreter/native.py): the rules\' functions, compiled ahead of time."""',
           *_HEADER, *_c_imports(), "FORMAT = %d" % FORMAT, "KEY = %r" % key, "INTERPRETER = %r" % interpreter, ""]
    table = []
    for i, unit in enumerate(units):
        out.append("def _u%d(ns):" % i)
        out += _factory_body(unit)
        out.append("")
        table.append("    (%r, %r, _u%d, %r)," % (unit[0], unit[1], i, unit[5]))
    out += ["UNITS = ("] + table + [")", ""]
    return "\n".join(out)


def _factory_body(unit: tuple) -> list:
    """The lines of a unit's factory after its ``def`` line (``Recorder.record``'s tuple)."""
    where, names, refs, sources, direct, digest = unit
    out = ["    %s%s = ns[%r]" % (k, ": " + kind if kind else "", k) for k, kind in refs]
    for k, (module, name, bound) in direct:
        # Still the function the source calls directly, or the build falls back on the
        # bytecode (a TypeError: NativeUnits.functions, SharedUnits.functions).
        python = "%s.%s" % (_python_module_name(module), name)
        if bound is None:
            out.append("    if %s is not %s: raise TypeError(%r)" % (k, python, k))
        else:
            out.append("    if type(%s) is not functools.partial or %s.func is not %s or len(%s.args) != %d"
                       " or %s.keywords: raise TypeError(%r)" % (k, k, python, k, bound, k, k))
            out += ["    %s_%d = %s.args[%d]" % (k, j, k, j) for j in range(bound)]
    for text in sources:
        # Typed only on the ``def`` line: the body may pass ``(g, env)`` on to a helper.
        head, newline, body = text.partition("\n")
        if head.endswith(_ENV_PARAMETERS):
            head = head[:-len(_ENV_PARAMETERS)] + _TYPED_PARAMETERS
        out += ["    " + line for line in (head + newline + body).split("\n")]
    out.append("    return (%s,)" % ", ".join(names))
    return out


def build(key: str, source: str) -> str:
    """Compile SOURCE (``module_source``) to an extension module in the user's cache directory;
    its path.  Raises NativeError when it cannot."""
    try:
        from Cython.Build import cythonize
        from setuptools import Distribution, Extension
        from setuptools.command.build_ext import build_ext
    except ImportError as e:
        raise NativeError("compiling rules needs Cython and setuptools (pip install 'provost[native]'): %s"
                          % e) from None
    cache = usercache.cache_dir()
    if cache is None:
        raise NativeError("no private cache directory to keep the module in (see PROVOST_CACHE_DIR)")
    name = module_name(key)
    with tempfile.TemporaryDirectory(prefix="provost-native-") as work:
        py = os.path.join(work, name + ".py")
        with open(py, "w", encoding="utf-8") as f:
            f.write(source)
        ext = Extension(name, [py], extra_compile_args=C_FLAGS)
        with _output_kept() as output:
            try:
                exts = cythonize([ext], quiet=True, build_dir=work, include_path=[include_view(work)],
                                 compiler_directives=CYTHON_DIRECTIVES)
                dist = Distribution({"name": name, "ext_modules": exts})
                cmd = build_ext(dist)
                cmd.build_lib, cmd.build_temp = work, os.path.join(work, "tmp")
                cmd.ensure_finalized()
                cmd.run()
            except Exception as e:      # Cython's and distutils' errors share no base class
                raise NativeError("the C build failed: %s%s" % (e, output.tail())) from None
        with open(cmd.get_ext_fullpath(name), "rb") as f:
            data = f.read()
    # Written whole and renamed into place: a reader sees the old module or the new one.
    if not usercache.write_bytes(_file_name(key), data):
        raise NativeError("the module could not be written to the cache directory (%d bytes)" % len(data))
    return os.path.join(cache, _file_name(key))


class _KeptOutput:
    def __init__(self, sink, text):
        self.sink, self.text = sink, text

    def tail(self, limit: int = 4000) -> str:
        """The end of what the build printed, to show with its failure ('' when it printed nothing)."""
        self.text.flush()
        self.sink.seek(0, os.SEEK_END)
        self.sink.seek(max(0, self.sink.tell() - limit))
        text = self.sink.read().decode("utf-8", "replace").strip()
        return "\n" + text if text else ""


@contextlib.contextmanager
def _output_kept():
    """What Cython and the C compiler print (hundreds of warnings about generated code nobody
    can act on) kept in a file rather than on the terminal: shown only when the build fails.
    Python's streams (Cython) and the process's descriptors 1 and 2 (the compiler, a child
    process) are both redirected."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = os.dup(1), os.dup(2)
    with tempfile.TemporaryFile() as sink, \
            open(os.dup(sink.fileno()), "w", encoding="utf-8", errors="replace") as text, \
            contextlib.redirect_stdout(text), contextlib.redirect_stderr(text):
        try:
            os.dup2(sink.fileno(), 1)
            os.dup2(sink.fileno(), 2)
            yield _KeptOutput(sink, text)
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            os.close(saved[0])
            os.close(saved[1])


def include_view(root: str) -> str:
    """ROOT, holding a copy of the engine's .pxd files as ``provost/interpreter/*.pxd``: where
    Cython finds the compiled layout the generated source cimports, by package name (in a
    checkout the package's folder is not called provost).  Times are kept, so that an unchanged
    .pxd does not make Cython translate again."""
    here = os.path.dirname(os.path.abspath(__file__))
    target = os.path.join(root, "provost", "interpreter")
    os.makedirs(target, exist_ok=True)
    for name in os.listdir(here):
        if name.endswith(".pxd"):
            shutil.copy2(os.path.join(here, name), target)
    return root


# ------------------------------------------------------------------ loading
def _file_name(key: str) -> str:
    return module_name(key) + importlib.machinery.EXTENSION_SUFFIXES[0]


def _valid_units(units) -> bool:
    return type(units) is tuple and all(
        type(u) is tuple and len(u) == 4 and type(u[0]) is str and type(u[1]) is tuple
        and all(type(n) is str for n in u[1]) and callable(u[2]) and type(u[3]) is str for u in units)


def _beside_compiled_engine() -> bool:
    """The engine's state and game classes in use are the compiled ones.  A module's code reads
    them as the C structs of engine.pxd and state.pxd, and checks only their sizes when it
    loads: a class run from its Python source (interpreter/accelerate.py) may have the same
    size and another layout."""
    for name in ("state", "engine"):
        module = sys.modules.get("provost.interpreter." + name)
        if module is None or getattr(module, "__file__", "").endswith(".py"):
            return False
    return True


def load(key: str):
    """The native module built for KEY, or None (none built, disabled, not beside the compiled
    engine, or not what it should be)."""
    if not enabled() or not _beside_compiled_engine():
        return None
    name = module_name(key)
    found = sys.modules.get(name)
    if found is not None:
        return found
    shipped = os.path.join(SHIPPED_DIR, _file_name(key))
    for path in (shipped if os.path.isfile(shipped) and not os.path.islink(shipped) else None,
                 usercache.private_file(_file_name(key))):
        if path is not None:
            module = _load_file(name, path)
            if module is not None:
                return module
    return None


def _load_file(name: str, path: str):
    """The module NAME at PATH, kept in ``sys.modules``, or None if it does not load or is not
    a module of this format."""
    try:
        loader = importlib.machinery.ExtensionFileLoader(name, path)
        spec = importlib.util.spec_from_file_location(name, path, loader=loader)
        module = importlib.util.module_from_spec(spec)
        loader.exec_module(module)
    except (ImportError, OSError, ValueError):  # ValueError: the engine's layout changed
        return None
    if getattr(module, "FORMAT", None) == FORMAT and module_name(getattr(module, "KEY", "")) == name \
            and type(getattr(module, "INTERPRETER", None)) is str and _valid_units(getattr(module, "UNITS", None)):
        sys.modules[name] = module
        return module
    return None


@functools.cache
def _shipped_factories(interpreter: str) -> dict:
    """digest -> (names, factory) of every unit of the shipped modules built by this
    interpreter (``interpreter``: the digest of its sources)."""
    table: dict = {}
    try:
        entries = sorted(os.listdir(SHIPPED_DIR))
    except OSError:
        return table
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    for entry in entries:
        name = entry[:-len(suffix)]
        path = os.path.join(SHIPPED_DIR, entry)
        if not (entry.endswith(suffix) and name.startswith("provost_rules_")) \
                or not os.path.isfile(path) or os.path.islink(path):
            continue
        module = sys.modules.get(name) or _load_file(name, path)
        if module is not None and module.INTERPRETER == interpreter:
            for where, names, factory, digest in module.UNITS:
                table.setdefault(digest, (names, factory))
    return table


class NativeUnits:
    """The factories of a loaded module, taken in build order while they match the build."""

    def __init__(self, module):
        self._units = module.UNITS
        self._next = 0
        self.in_step = True         # every unit so far came from the module

    @property
    def taken(self) -> int:
        """How many units were taken from the module."""
        return self._next

    @property
    def complete(self) -> bool:
        """Every unit of the module was taken, in order."""
        return self.in_step and self._next == len(self._units)

    def functions(self, where: str, names: tuple, namespace: dict) -> dict | None:
        """The unit's functions (also put in ``namespace``), or None from the first mismatch on."""
        k = self._next
        if self.in_step and k < len(self._units):
            unit_where, unit_names, factory, _ = self._units[k]
            if unit_where == where and unit_names == names:
                try:
                    functions = factory(namespace)
                except TypeError:       # a value of another type than the module was built for
                    functions = None
                if functions is not None:
                    self._next = k + 1
                    made = dict(zip(names, functions))
                    namespace.update(made)
                    return made
        self.in_step = False
        return None


class SharedUnits:
    """The units of the shipped modules, taken by the digest of what their source is written
    from (``unit_digest``), for rules that have no module of their own."""

    def __init__(self, interpreter: str | None):
        """``interpreter``: the digest of the interpreter's sources (None: no units to share)."""
        self._factories = _shipped_factories(interpreter) \
            if interpreter is not None and enabled() and _beside_compiled_engine() else {}
        self.taken = 0

    def __bool__(self) -> bool:
        return bool(self._factories)

    def functions(self, digest: str, names: tuple, namespace: dict) -> dict | None:
        """The unit's functions (also put in ``namespace``), or None when no shipped module
        has this source, or its factory refuses the namespace."""
        found = self._factories.get(digest)
        if found is None or found[0] != names:
            return None
        try:
            functions = found[1](namespace)
        except TypeError:       # a value of another type than the module was built for
            return None
        self.taken += 1
        made = dict(zip(names, functions))
        namespace.update(made)
        return made
