"""Rules compiled ahead of time (interpreter/native.py): the same games as the bytecode plays,
every function taken from the module built for these rules and this interpreter, and nothing
taken from a file that is not what it claims or not where it should be."""
from __future__ import annotations

import ast
import copy
import hashlib
import importlib.util
import json
import marshal
import os
import random
import shutil
import subprocess
import sys
import types

import pytest

from provost.dsl.loader import load_checked
from provost.interpreter import engine, native, pycode
from provost.interpreter.codecache import program_key
from provost.interpreter.program import Program, compile_native

# A small game through the paths generated code takes: parameters with `where` and `when`, a
# payment, the entries kept between listings, lets written out, comprehensions, `X of P`.
RULES = """game n "Native":
    players 2..3
    score pp
    max_rounds 3
    rounds main

resource pp "prestige"
resource coin "coins"
counter tokens per player start 0
enum colors blue, green, red
let hues = [blue, green, red, green]
let plus(n) = n + tokens
let richest() = max([held(coin) of q for q in players()])

phase main "Main":
    step income:
        each player in players():
            gain 1 + index(hues, red) coin
    step buy:
        each player in players():
            choose "Buy":
                option take(c in colors where index(hues, c) >= 0, n in [1, 2]) when held(coin) >= n:
                    pay n coin
                    set tokens = plus(n)
                    gain n pp
                option hoard when held(coin) == richest():
                    gain 1 pp
                option skip:
                    nothing
"""


def _built() -> bool:
    """Cython and a C compiler are here, and the engine runs compiled with modules of rules on
    (an install without compiling, PROVOST_NO_COMPILE=1, or PROVOST_PURE_PYTHON or
    PROVOST_NO_NATIVE set: the rules run as bytecode, whatever is built)."""
    if importlib.util.find_spec("Cython") is None or not native.enabled() \
            or engine.__file__.endswith(".py"):
        return False
    return shutil.which(os.environ.get("CC", "cc")) is not None or shutil.which("gcc") is not None


needs_compiler = pytest.mark.skipif(not _built(), reason="no Cython, no C compiler or an engine run as Python: "
                                                           "rules run as bytecode")


def _games(rs, prog, players: int, seeds: range) -> str:
    """A digest of seeded random games played with PROG: every option listed, the final states."""
    h = hashlib.sha256()
    real = engine.program_for
    engine.program_for = lambda _rs: prog
    try:
        for seed in seeds:
            g = engine.Game.new(rs, players=players, seed=seed)
            rng = random.Random(seed)
            while not g.s.finished:
                options = g.legal_options()
                h.update(json.dumps(options).encode())
                g.apply(options[rng.randrange(len(options))])
            h.update(json.dumps(g.s.to_dict(), sort_keys=True, default=str).encode())
    finally:
        engine.program_for = real
    return h.hexdigest()


def _bytecode_program(rs, monkeypatch) -> Program:
    monkeypatch.setenv(native.NO_NATIVE_ENV, "1")
    prog = Program(rs)
    monkeypatch.delenv(native.NO_NATIVE_ENV)
    assert not prog.compiled_ahead
    return prog


@pytest.fixture
def cache(tmp_path, monkeypatch):
    path = tmp_path / "cache"
    path.mkdir(mode=0o700)
    monkeypatch.setenv("PROVOST_CACHE_DIR", str(path))
    monkeypatch.delenv("PROVOST_NO_CACHE", raising=False)
    for name in (native.NO_NATIVE_ENV, native.PURE_ENV):
        monkeypatch.delenv(name, raising=False)
    return path


@pytest.fixture(scope="module")
def own_rules(tmp_path_factory):
    path = tmp_path_factory.mktemp("native") / "n.rules"
    path.write_text(RULES)
    return load_checked(str(path))


@pytest.mark.parametrize("name, players", [("caylus", 4), ("caylus1303", 3), ("ys", 4)])
def test_the_shipped_rules_compiled_by_the_install_play_what_the_bytecode_plays(name, players, monkeypatch):
    rs = load_checked(name)
    if native.load(program_key(rs.digest, rs.name, rs.variant)) is None:
        pytest.skip("installed without compiling the rules (no C compiler, or PROVOST_PURE_PYTHON)")
    compiled = Program(rs)
    assert compiled.compiled_ahead
    assert _games(rs, compiled, players, range(3)) == _games(rs, _bytecode_program(rs, monkeypatch), players, range(3))


@needs_compiler
def test_own_rules_compiled_into_the_cache_play_what_the_bytecode_plays(own_rules, cache, monkeypatch, tmp_path, capfd):
    path = compile_native(own_rules)
    assert os.path.dirname(path) == str(cache)
    assert capfd.readouterr() == ("", "")       # the C compiler's warnings are not shown
    compiled = Program(own_rules)
    assert compiled.compiled_ahead
    # The functions are the module's, not bytecode.
    assert not any(isinstance(n.fn, types.FunctionType) for n in compiled.nodes if hasattr(n, "fn"))
    # ``g`` is typed as the engine's Game, yet None goes through as in the bytecode: the MCTS
    # agent reads the rules' constants with no game, and a read of the state fails as it would.
    bytecode = _bytecode_program(own_rules, monkeypatch)
    for prog in (compiled, bytecode):
        assert prog.let_value("hues")(None, {}) == ["blue", "green", "red", "green"]
        with pytest.raises(AttributeError, match="'NoneType' object has no attribute 's'"):
            prog.let_value("richest")(None, {"player": 0})
    for players in (2, 3):
        assert _games(own_rules, compiled, players, range(4)) == \
            _games(own_rules, _bytecode_program(own_rules, monkeypatch), players, range(4))
    # Other rules (here: a changed cost) find no module and compile as before.
    changed = tmp_path / "changed.rules"
    changed.write_text(RULES.replace("pay n coin", "pay 1 coin"))
    assert not Program(load_checked(str(changed))).compiled_ahead


def _loads(key: str) -> bool:
    """Whether a fresh process takes the module for KEY (a process keeps a module it loaded)."""
    code = "import sys; from provost.interpreter import engine, native; print(native.load(sys.argv[1]) is not None)"
    done = subprocess.run([sys.executable, "-c", code, key], capture_output=True, text=True, env=dict(os.environ))
    assert done.returncode == 0, done.stderr
    return done.stdout.strip() == "True"


def _plant(cache, own_rules, data: bytes, mode: int = 0o600) -> str:
    key = program_key(own_rules.digest, own_rules.name, own_rules.variant)
    path = os.path.join(str(cache), native._file_name(key))
    with open(path, "wb") as f:
        f.write(data)
    os.chmod(path, mode)
    return key


def test_a_file_that_is_not_a_module_is_not_taken(own_rules, cache):
    key = _plant(cache, own_rules, b"\x7fELF not really")
    assert not _loads(key)


@needs_compiler
def test_a_module_is_taken_only_under_its_own_key_and_only_where_it_should_be(own_rules, cache, tmp_path):
    built = compile_native(own_rules)
    data = open(built, "rb").read()
    key = program_key(own_rules.digest, own_rules.name, own_rules.variant)
    os.remove(built)
    # Renamed for other rules: its init function is named for its own key, so it does not load.
    other = os.path.join(str(cache), native._file_name("0" * 32))
    with open(other, "wb") as f:
        f.write(data)
    assert not _loads("0" * 32)
    # Writable by others, or reached through a link: not taken.
    _plant(cache, own_rules, data, mode=0o666)
    assert not _loads(key)
    os.remove(built)
    elsewhere = tmp_path / "elsewhere.so"
    elsewhere.write_bytes(data)
    os.symlink(elsewhere, built)
    assert not _loads(key)
    os.remove(built)
    # As it was built: taken.
    _plant(cache, own_rules, data)
    assert _loads(key)


def test_no_module_is_taken_when_the_engine_runs_as_python_or_natives_are_off(own_rules, cache, monkeypatch):
    for name in (native.PURE_ENV, native.NO_NATIVE_ENV):
        monkeypatch.setenv(name, "1")
        assert not native.enabled()
        assert native.load(program_key(own_rules.digest, own_rules.name, own_rules.variant)) is None
        monkeypatch.delenv(name)
    assert native.enabled()


def test_no_module_is_taken_beside_an_engine_run_from_its_source(monkeypatch):
    # The module reads Game and State as C structs: a Python class of the same size would be
    # read wrongly, so an engine from source (an edited module, accelerate.py) gets none.
    rs = load_checked("caylus")
    key = program_key(rs.digest, rs.name, rs.variant)
    source = types.ModuleType("provost.interpreter.engine")
    source.__file__ = os.path.join(os.path.dirname(native.__file__), "engine.py")
    monkeypatch.setitem(sys.modules, "provost.interpreter.engine", source)
    assert native.load(key) is None


def test_units_are_taken_in_build_order_and_none_after_the_first_that_differs():
    made = []
    module = types.SimpleNamespace(UNITS=(("<rules 1:1>", ("_f0",), lambda ns: (made.append(ns) or "a",), "d0"),
                                          ("<rules 2:1>", ("_f1",), lambda ns: ("b",), "d1"),
                                          ("<rules 3:1>", ("_f2",), lambda ns: ("c",), "d2")))
    units = native.NativeUnits(module)
    ns: dict = {"_k0": 1}
    assert units.functions("<rules 1:1>", ("_f0",), ns) == {"_f0": "a"} and ns["_f0"] == "a" and made == [ns]
    assert units.functions("<rules 9:9>", ("_f1",), {}) is None           # another place: a changed rule
    assert units.functions("<rules 3:1>", ("_f2",), {}) is None           # and nothing after it
    assert not units.complete


@pytest.mark.parametrize("name, variant, players", [("ys", None, 2), ("ys", "express", 4),
                                                    ("caylus", "simplified_favor", 4), ("caylus1303", "first_game", 3)])
def test_a_variant_runs_the_units_it_shares_with_a_shipped_module_compiled(name, variant, players, monkeypatch):
    base = load_checked(name)
    if native.load(program_key(base.digest, base.name, base.variant)) is None:
        pytest.skip("installed without compiling the rules (no C compiler, or PROVOST_PURE_PYTHON)")
    rs = load_checked(name, variant=variant, players=players)
    assert rs.variant and native.load(program_key(rs.digest, rs.name, rs.variant)) is None
    prog = Program(rs)
    compiled, units = prog.units_compiled
    assert not prog.compiled_ahead and units > 100 and compiled >= 0.9 * units
    assert _games(rs, prog, players, range(3)) == _games(rs, _bytecode_program(rs, monkeypatch), players, range(3))


def test_a_rule_file_of_ones_own_on_a_shipped_game_shares_its_units(tmp_path, cache, monkeypatch):
    base = load_checked("caylus")
    if native.load(program_key(base.digest, base.name, base.variant)) is None:
        pytest.skip("installed without compiling the rules (no C compiler, or PROVOST_PURE_PYTHON)")
    mine = tmp_path / "caylus.dear_favor.rules"
    mine.write_text('variant dear_favor "Dear favor" extends caylus:\n'
                    '    replace effect favor(n):\n'
                    '        gain 2 * n pp\n')
    rs = load_checked("caylus", variant=str(mine))
    first = Program(rs)
    compiled, units = first.units_compiled
    assert compiled >= 0.9 * units and compiled < units         # the changed favor is bytecode
    # The cache keeps each unit's digest: the next build finds the shared units without
    # digesting the trees again.
    monkeypatch.setattr(native, "unit_digest", lambda *a: pytest.fail("digested again"))
    again = Program(rs)
    assert again.units_compiled == (compiled, units)
    assert _games(rs, again, 4, range(2)) == _games(rs, _bytecode_program(rs, monkeypatch), 4, range(2))


def test_a_unit_taken_from_a_shipped_module_is_compiled_when_the_module_is_not_there(cache, monkeypatch):
    base = load_checked("ys")
    if native.load(program_key(base.digest, base.name, base.variant)) is None:
        pytest.skip("installed without compiling the rules (no C compiler, or PROVOST_PURE_PYTHON)")
    rs = load_checked("ys", players=2)
    shared = Program(rs)
    # The cache keeps a shared unit by its digest only: its code is compiled only if needed.
    [path] = [f for f in cache.iterdir() if f.name.startswith("code-")]
    kept = marshal.loads(path.read_bytes())[1]
    assert sum(u[2] is None for u in kept) == shared.units_compiled[0] and all(u[3] for u in kept)
    # Without the modules (rules as bytecode), those units are compiled, the same game is
    # played, and the cache gets their code: a later build compiles nothing.
    checked, check = [], pycode.check_closed
    monkeypatch.setattr(pycode, "check_closed", lambda tree: checked.append(tree) or check(tree))
    bytecode = _bytecode_program(rs, monkeypatch)
    assert len(checked) == shared.units_compiled[0]
    assert _games(rs, bytecode, 2, range(2)) == _games(rs, shared, 2, range(2))
    checked.clear()
    _bytecode_program(rs, monkeypatch)
    assert not checked


def test_a_shared_unit_is_taken_only_with_the_same_names_and_a_namespace_its_factory_accepts():
    def refuses(ns):
        raise TypeError("_k0")
    shared = native.SharedUnits(None)
    assert not shared
    shared._factories = {"d0": (("_f0",), lambda ns: ("a",)), "d1": (("_f1",), refuses)}
    ns: dict = {}
    assert shared.functions("d0", ("_f0",), ns) == {"_f0": "a"} and ns["_f0"] == "a"
    assert shared.functions("d0", ("_f9",), {}) is None         # other names: not this unit
    assert shared.functions("d1", ("_f1",), {}) is None         # a namespace of other types
    assert shared.functions("dx", ("_f0",), {}) is None
    assert shared.taken == 1


def test_a_units_digest_is_that_of_what_its_source_is_written_from(own_rules, monkeypatch):
    # Every unit the recorder writes is listed under the digest a build computes from the same
    # trees and namespace, and only the place in the rules may differ for the same digest.
    recorded = []

    def record(self, where, defs, namespace):
        recorded.append((where, copy.deepcopy(defs), dict(namespace)))
        return real(self, where, defs, namespace)
    real = native.Recorder.record
    recorder = native.Recorder()
    monkeypatch.setattr(native.Recorder, "record", record)
    Program(own_rules, recorder)
    source = native.module_source("k" * 32, recorder.units, "i" * 64)
    namespace: dict = {}
    exec(compile(source.replace("from cython.cimports.", "from "), "<unit>", "exec"), namespace)
    listed = [u[3] for u in namespace["UNITS"]]
    assert listed == [native.unit_digest(defs, ns) for _, defs, ns in recorded]
    assert namespace["INTERPRETER"] == "i" * 64
    where, defs, ns = next(r for r in recorded if any(type(n) is ast.Compare for d in r[1] for n in ast.walk(d)))
    for d in defs:
        ast.increment_lineno(d, 40)                 # elsewhere in the rules: the same unit
    assert native.unit_digest(defs, ns) in listed
    compare = next(n for d in defs for n in ast.walk(d) if type(n) is ast.Compare)
    compare.ops = [ast.NotEq() if type(compare.ops[0]) is not ast.NotEq else ast.Eq()]
    assert native.unit_digest(defs, ns) not in listed      # another test: another unit
    typed, defs, ns = next((k, d, n) for _, d, n in recorded for k, v in n.items()
                           if k.startswith("_k") and type(v) in (dict, list))
    assert native.unit_digest(defs, {**ns, typed: object()}) not in listed   # read as another kind


def test_the_module_source_holds_only_what_the_checked_trees_say(own_rules):
    recorder = native.Recorder()
    Program(own_rules, recorder)
    source = native.module_source("k" * 32, recorder.units, "i" * 64)
    compile(source, "<native>", "exec")         # Python, as Cython reads it
    # The only imports are the header's: the engine's Game, whose layout types ``g``, and the
    # engine's functions the rules call through C.
    assert [line for line in source.splitlines() if "import" in line] == \
        [line for line in native._HEADER + native._c_imports() if "import" in line]
    assert "eval" not in source and "exec" not in source
    # A binding a listing's tests read at every value is read once (compiled, it is a lookup).
    assert "(_x0 := env['player'])" in source
    assert source.count("def _u") == len(recorder.units) > 10


@needs_compiler
def test_a_failed_build_says_what_the_compiler_said(cache, capfd):
    with pytest.raises(native.NativeError) as failed:
        native.build("k" * 32, "def f(:\n")
    assert "the C build failed" in str(failed.value) and "def f(:" in str(failed.value)
    assert capfd.readouterr() == ("", "")


def test_compile_says_why_it_cannot(cache, monkeypatch):
    monkeypatch.setenv(native.PURE_ENV, "1")
    done = subprocess.run([sys.executable, "-m", "provost.tools.cli", "compile", "caylus"],
                          capture_output=True, text=True, env=dict(os.environ))
    assert done.returncode == 2
    assert "turned off" in done.stderr and "Traceback" not in done.stderr


#: `provost compile` with the engine's modules imported from their sources, as after an edit of
#: them since the install (a finder like the one accelerate.py installs for stale copies; in an
#: install without compiled modules they come from source anyway).
ENGINE_FROM_SOURCE = """
import sys
from provost.interpreter import accelerate
sys.meta_path.insert(0, accelerate._FromSource(accelerate.compiled_modules()))
from provost.tools.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_compile_refuses_when_the_engine_runs_from_its_sources(cache, tmp_path):
    # A compiled rules module loads only beside the compiled engine (native.load): built here, it
    # would never be used, so it is not built, and the reason is given.
    mine = tmp_path / "caylus.mine.rules"
    mine.write_text('variant mine "Mine" extends caylus:\n    replace let start_money = {1: 8, 2: 9, 3: 9, 4: 10, 5: 10}\n')
    done = subprocess.run([sys.executable, "-c", ENGINE_FROM_SOURCE, "compile", "caylus", "--variant", str(mine)],
                          capture_output=True, text=True, env=dict(os.environ), timeout=300)
    assert done.returncode == 2, done.stderr
    assert "the compiled engine" in done.stderr and "Python sources" in done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""
    assert not [f for f in cache.iterdir() if f.name.startswith(native.module_name(""))]


def test_compile_without_a_c_compiler_says_so(cache, tmp_path, monkeypatch):
    engine_here = subprocess.run([sys.executable, "-c", "import provost.interpreter.engine as e; print(e.__file__)"],
                                 capture_output=True, text=True, timeout=60).stdout
    if engine_here.strip().endswith(".py"):
        pytest.skip("the engine runs from its sources here: compile refuses before looking for a compiler")
    monkeypatch.delenv("CC", raising=False)
    nothing = tmp_path / "empty"
    nothing.mkdir()
    done = subprocess.run([sys.executable, "-m", "provost.tools.cli", "compile", "caylus"], capture_output=True,
                          text=True, env=dict(os.environ, PATH=str(nothing)), timeout=300)
    assert done.returncode == 2
    assert "no C compiler" in done.stderr and "is not on PATH" in done.stderr and "Traceback" not in done.stderr
    assert not [f for f in cache.iterdir() if f.name.startswith(native.module_name(""))]


def test_the_engine_functions_a_rule_calls_are_called_through_c():
    # Ys calls room() and strength(), partials of prims_pieces' functions, and counts every list
    # it builds (runtime.counted): the generated source calls the cimported functions.
    recorder = native.Recorder()
    Program(load_checked("ys"), recorder)
    source = native.module_source("k" * 32, recorder.units, "i" * 64)
    assert "_c_prims_pieces__room_left(_k" in source and "_c_prims_pieces__reduced(_k" in source
    assert "_c_runtime_counted(g, " in source
    # The free squares of the board, an option's domain written as a comprehension over
    # board(): computed before the listing, with the acting player and the locked areas read
    # once per listing rather than once per square.
    domain = next(line for line in source.splitlines() if "_it" in line and "'broker', _l0" in line)
    assert "(_x0 := env['player'])" in domain and ":= _t" in domain and "['locked'])" in domain


def test_a_direct_call_computes_what_the_call_it_replaces_does_and_checks_its_function():
    import ast
    import functools

    from provost.interpreter import prims_pieces, runtime
    g = engine.Game.new("ys", players=4, seed=5)
    slots = {name: d["slots"] for name, d in g.prog.spaces.items()}
    tree = ast.parse("def _f0(g, env):\n    return [_k0(g, env['player'], 'broker', t) for t in _k1(g, env['places'], None)]")
    recorder = native.Recorder()
    recorder.record("<rules 1:1>", tree.body, {"_k0": functools.partial(prims_pieces._room_left, slots),
                                               "_k1": runtime.counted})
    source = native.module_source("k" * 32, recorder.units, "i" * 64)
    assert "_c_prims_pieces__room_left(_k0_0, g, " in source and "_c_runtime_counted(g, " in source
    # Run as Python, the cimports as imports of the same functions.
    namespace: dict = {}
    exec(compile(source.replace("from cython.cimports.", "from "), "<unit>", "exec"), namespace)
    factory = namespace["UNITS"][0][2]
    places = sorted(slots)
    env = {"player": 1, "places": places}
    room = functools.partial(prims_pieces._room_left, slots)
    (f,) = factory({"_k0": room, "_k1": runtime.counted})
    assert f(g, env) == [room(g, 1, "broker", t) for t in places]
    # Not the function the source calls: the factory refuses, and the build takes the bytecode.
    for wrong in ({"_k0": functools.partial(prims_pieces._reduced, prims_pieces._count, True), "_k1": runtime.counted},
                  {"_k0": functools.partial(prims_pieces._room_left, slots, 1), "_k1": runtime.counted},
                  {"_k0": room, "_k1": len}):
        with pytest.raises(TypeError):
            factory(wrong)
