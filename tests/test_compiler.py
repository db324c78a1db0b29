"""The expression compiler's optimisations keep the rules' meaning.

- a comprehension's loop-invariant parts are computed once, and only when the original would
  have computed them (never for an empty list, never past a short-circuit);
- lets that follow from the rules alone are memoised, and the purity analysis never calls a
  let static when it reads the state, the acting player, the round or the player count;
- option enumeration tests a `when` free of the parameters once, with the same outcome.
"""
from __future__ import annotations

import pytest

from provost.dsl.loader import load_checked
from provost.interpreter.engine import Game
from provost.interpreter.expressions import NOT_STATIC, _read_only
from provost.interpreter.program import _PURE_FUNCTIONS, is_static, program_for


def two_player_game(title: str, head: str = "") -> str:
    """The start of a one-round rule file for two players who score `pp` (``head``: one more
    line of the game's head); the test's own declarations follow."""
    more = "    %s\n" % head if head else ""
    return ('game g "%s":\n    players 2..2\n    score pp\n    max_rounds 1\n    rounds main\n%s\n'
            'resource pp "prestige"\n' % (title, more))


def loaded(tmp_path, text: str, name: str = "g.rules"):
    """The checked rules of ``text``, written to a file of the test's own."""
    path = tmp_path / name
    path.write_text(text)
    return load_checked(str(path))


GAME = two_player_game("Compiler") + """\
counter tokens per player start 2
zone pile

let empty = []
let bad() = [1, 2][5]
let best(xs) = [c for c in xs if c == max([d for d in xs])]
let doubled(n) = [n, n]
let now() = round
let seats() = player_count
let mine() = tokens
let piled() = count(pile)

phase main "Main":
    each player in players():
        gain count([x for x in empty if x == bad()]) pp
        gain count([x for x in [1, 2] if x > 5 and x == bad()]) pp
        gain first(best([3, 1, 4, 1, 5])) pp
        choose "Take":
            option take(k in [1, 2, 3]) when tokens > 1:
                gain k pp
            option wait: nothing
"""


@pytest.fixture(scope="module")
def rules(tmp_path_factory):
    return loaded(tmp_path_factory.mktemp("compiler"), GAME)


def test_hoisted_parts_run_only_where_the_rule_would_run_them(rules):
    # bad() fails if it is ever evaluated: neither an empty list nor a failed `x > 5` reaches it.
    g = Game.new(rules, players=2, seed=0)
    assert g.current_player() == 0
    assert g.scores() == [5, 0]          # first(best([3, 1, 4, 1, 5])) == 5: the max computed once is right


KEPT_READS = two_player_game("Kept reads") + """\
counter tokens per player start 2

phase main "Main":
    each player in players():
        choose "Take":
            option never(k in [1, 2] where k > 5 and tokens of 5 > 0): nothing
            option take(k in [1, 2, 3] where k <= (tokens of 0) + 1 and k != tokens of 1):
                gain k pp
"""


def test_reads_kept_across_a_listing_run_only_where_the_rule_runs_them(tmp_path):
    # `tokens of 5 > 0` and `(tokens of 0) + 1` name no parameter and are long enough to be kept
    # for the whole listing (_hoist_from_filters); with two players the first fails when read,
    # and `k > 5` never lets it be read.
    g = Game.new(loaded(tmp_path, KEPT_READS), players=2, seed=0)
    assert g.legal_options() == ["take:1", "take:3"]       # k <= 3 and k != 2: read once, right for every k
    g.s.counters["tokens"][0] = 3                # read afresh by the next listing
    g.s.counters["tokens"][1] = 1
    g.apply("take:1")
    assert g.current_player() == 1 and g.legal_options() == ["take:2", "take:3"]


def test_when_free_of_the_parameters_gives_the_same_options(rules):
    g = Game.new(rules, players=2, seed=0)
    assert g.legal_options() == ["take:1", "take:2", "take:3", "wait"]
    g.s.counters["tokens"][1] = 1         # `when tokens > 1` fails for the second player: no take at all
    g.apply("take:3")
    # The second player had one option left ("wait"), which is played for them: the game is over.
    assert g.finished and g.scores() == [8, 5]


def test_purity_analysis(rules):
    prog = program_for(rules)

    def static(name):
        d = prog.lets[name]
        return is_static(d["value"], prog, frozenset(d["params"] or []))

    assert static("best") and static("doubled") and static("bad") and static("empty")
    for name in ("now", "seats", "mine", "piled"):
        assert not static(name), name


def test_purity_analysis_on_shipped_rules():
    prog = program_for(load_checked("ys"))
    static = {n for n, d in prog.lets.items() if is_static(d["value"], prog, frozenset(d["params"] or []))}
    assert {"areas", "area_of", "column", "board", "port_gems"} <= static
    # They read quotations, pieces, the hand or the acting player's counters.
    assert not static & {"colors_by_value", "ranking", "free_targets", "playable", "tie_keys", "sources"}


def test_memoised_lets_hand_out_copies(rules):
    prog = program_for(rules)
    doubled = prog.let_function("doubled")
    first = doubled(None, {"player": 0, "n": 7})
    first.append("changed")
    assert doubled(None, {"player": 0, "n": 7}) == [7, 7]


HELD = two_player_game("Held") + """\
enum colors blue, green
let hues = [blue, green]
let worth = {blue: 1, green: 2}
let bad() = [1, 2][5]
let now() = round

phase main "Main":
    each player in players():
        gain count([c for c in hues if c in hues]) + worth[green] pp
"""


def test_a_let_of_the_rules_alone_is_held_as_its_value_and_handed_out_as_a_copy(tmp_path):
    rs = loaded(tmp_path, HELD)
    prog = program_for(rs)
    assert prog.static_value("hues") == ["blue", "green"]
    assert prog.static_value("worth") == {"blue": 1, "green": 2}
    # One that fails, or reads the game, is called where a game runs it, as before.
    assert prog.static_value("bad") is NOT_STATIC and prog.static_value("now") is NOT_STATIC
    read = prog.expr.compile({"e": "name", "id": "hues", "pos": [1, 1]}, frozenset({"player"}))
    first = read(None, {"player": 0})           # no game: the value is held, not computed
    first.append("red")
    assert read(None, {"player": 0}) == ["blue", "green"]      # a copy each time, as the memo gave
    g = Game.new(rs, players=2, seed=0)
    assert g.s.finished and g.scores() == [4, 4]


def test_a_failing_let_of_the_rules_alone_fails_where_the_game_reads_it(tmp_path):
    from provost.dsl.diagnostics import RulesError
    rs = loaded(tmp_path, HELD.replace("+ worth[green] pp", "+ worth[green] pp\n        gain bad() pp"))
    with pytest.raises(RulesError, match=r"while playing: no entry 5 in \[1, 2\]") as e:
        Game.new(rs, players=2, seed=0)
    assert (e.value.diagnostics[0].line, e.value.diagnostics[0].col) == (11, 13)      # the let's own place


def test_a_list_only_read_is_not_copied_for_the_reader():
    import ast
    copy = ast.parse("xs[:]", mode="eval").body
    assert type(_read_only(copy)) is ast.Name
    for kept in ("xs[1:]", "xs[::2]", "xs[0]", "f(xs)"):
        tree = ast.parse(kept, mode="eval").body
        assert _read_only(tree) is tree, kept


def test_pure_functions_are_declared_functions():
    from provost.dsl.primitives import FUNCTIONS
    assert _PURE_FUNCTIONS <= set(FUNCTIONS)


def _play_to(g, prompts):
    while g.prompt() not in prompts:
        g.apply(g.legal_options()[0])


def test_the_piece_index_groups_every_piece_and_follows_it_through_a_game():
    # The index as the engine keeps it over a random game, compared after every decision with
    # the pieces grouped afresh (each key's pieces as a multiset: the order means nothing).
    import random

    from provost.interpreter.prims_pieces import PieceIndex

    def grouped(pieces):
        out = {}
        for i, x in enumerate(pieces):
            out.setdefault((x[0], x[3]), []).append(i)
            out.setdefault((x[0], x[3], x[1]), []).append(i)
        return out

    def kept(ix):
        return ix.flat()

    g = Game.new("ys", players=4, seed=11)
    rng = random.Random(11)
    clones = []
    while not g.s.finished:
        ix = g.piece_index
        if ix is not None and ix.still_valid(g.s.pieces):
            assert kept(ix) == grouped(g.s.pieces)
        if g.s.decisions % 25 == 0:
            clones.append((g.clone(), grouped(g.s.pieces)))   # shares the tables until a move
        options = g.legal_options()
        g.apply(options[rng.randrange(len(options))])
    fresh = PieceIndex(g.s.pieces)
    assert kept(fresh) == grouped(g.s.pieces)
    for clone, then in clones:
        # The original moved on; each clone's index still describes the clone, and follows it.
        if clone.piece_index is not None:
            assert kept(clone.piece_index) == then == grouped(clone.s.pieces)
        while not clone.s.finished:
            options = clone.legal_options()
            clone.apply(options[rng.randrange(len(options))])
            ix = clone.piece_index
            assert ix is None or not ix.still_valid(clone.s.pieces) or kept(ix) == grouped(clone.s.pieces)


def test_piece_index_sees_pieces_moved_from_outside_the_engine():
    # The index of pieces by place outlives an engine run; a piece moved by hand between two
    # decisions (a test, a referee) must still be seen by the next rule that counts pieces.
    g = Game.new("ys", players=4, seed=5)
    brokers = ("Choose a broker to place", "Choose your first broker and its face")
    _play_to(g, ["Choose where the broker goes"])
    target = [o for o in g.legal_options() if o.startswith("at:m_")][-1][3:]   # a free market square
    g.apply(g.legal_options()[0])              # a city area
    _play_to(g, brokers)
    assert g.piece_index is not None           # built by the last run and kept
    other = (g.current_player() + 1) % 4
    moved = next(pc for pc in g.s.pieces if pc[1] == other and pc[3] == "screen")
    moved[3] = target                          # by hand: the square is taken
    g.apply(g.legal_options()[0])
    assert g.prompt() == "Choose where the broker goes"
    assert "at:" + target not in g.legal_options()

    g.apply(g.legal_options()[0])
    _play_to(g, brokers)
    g.s.pieces = [pc[:] for pc in g.s.pieces]  # a new list of pieces, the square free again
    next(pc for pc in g.s.pieces if pc[3] == target)[3] = "screen"
    g.apply(g.legal_options()[0])
    assert "at:" + target in g.legal_options()


OPS = two_player_game("Operators") + """\
let xs = [1, 3]
let cmp(x) = [x == 3, x != 3, x < 3, x > 3, x <= 3, x >= 3, x in xs, x not in xs, not (x in xs), not (x not in xs)]
let cmp_expr(x) = [x == count(xs) + 1, x < count(xs) + 1, x in [count(xs)], not (x in [count(xs)])]

phase main "Main":
    step s:
        each player in players():
            gain 1 pp
"""


def test_specialised_comparisons_keep_their_meaning(tmp_path):
    # A scope variable against a literal or an expression, and `not (x in xs)`, have their own
    # closures: they must agree with the operators' plain meaning for every operand.
    prog = program_for(loaded(tmp_path, OPS, "ops.rules"))
    cmp, cmp_expr = prog.let_function("cmp"), prog.let_function("cmp_expr")
    for x in range(6):
        assert cmp(None, {"player": 0, "x": x}) == [
            x == 3, x != 3, x < 3, x > 3, x <= 3, x >= 3, x in (1, 3), x not in (1, 3), x not in (1, 3), x in (1, 3)]
        assert cmp_expr(None, {"player": 0, "x": x}) == [x == 3, x < 3, x == 2, x != 2]


FUSED = two_player_game("Fused") + """\
counter tokens per player start 3

let nothing_here = []
let bad() = [1, 2][5]

phase main "Main":
    each player in players():
        choose "Take":
            option take(k in [1, 2, 3, 4]) when k != 2:
                pay k tokens
                gain k pp
            option both(k in [1, 2, 3, 4]):
                pay k tokens, 1 pp
                gain k pp
            option some(k in [1, 2, 3]) when k <= count(players()):
                nothing
            option never(k in [1, 2]) when k > 5 and k == bad():
                nothing
            option none(k in nothing_here) when k == bad():
                nothing
            option wait: nothing
"""


def test_tests_inside_the_bindings_give_the_options_of_the_general_check(tmp_path):
    g = Game.new(loaded(tmp_path, FUSED, "fused.rules"), players=2, seed=0)
    take, both = g.prog.nodes[g.s.stack[-1][0]].options[:2]
    # `when k != 2` and `pay k tokens` go into take's comprehension; two amounts need the general check.
    assert take.filtered and not both.filtered
    # take: 4 tokens too many, 2 excluded by `when`.  `count(players())` and `bad()` name no
    # parameter: computed once, on first use; bad() would fail, and no value reaches it.
    assert g.legal_options() == ["take:1", "take:3", "some:1", "some:2", "wait"]
    # The option's own `when` and payment check, called per value as the general check does, agree.
    env = g.s.stack[-1][2]
    general = ["take:%d" % k for k in [1, 2, 3, 4]
               if take.when(g, {**env, "k": k}) and take.requires(g, {**env, "k": k})]
    assert general == [o for o in g.legal_options() if o.startswith("take:")]
    g.s.counters["tokens"][0] = 0
    assert g.prog.nodes[g.s.stack[-1][0]].legal(g, env)[0] == ["some:1", "some:2", "wait"]


def test_attribute_readers_answer_as_the_general_attribute():
    # attribute_reader answers tiles and spaces from the state's tiles (owner, kind) or from
    # tables of the declarations (any other attribute): the same values as Program.attribute for
    # every kind of thing, None included, and the same error otherwise.
    from provost.interpreter.program import RuleRuntimeError
    g = Game.new("caylus", players=4, seed=1)
    prog = g.prog
    built = next(t for t in g.s.road if t is not None)
    g.s.tiles[built] = [g.s.tiles[built][0], 2]                  # owned by seat 2
    neutral = next(t for t in g.s.road if t is not None and t != built)
    g.s.tiles[neutral] = [g.s.tiles[neutral][0], -1]             # nobody's
    things = [built, neutral, "gate", next(iter(prog.buildings)), None]
    for attr in ("owner", "kind", "category", "workable", "prestige", "no_such_attribute"):
        read = prog.attribute_reader(attr)
        assert prog.attribute_reader(attr) is read                # one reader an attribute
        for x in things:
            assert read(g.s.tiles, x, g, None) == prog.attribute(g, x, attr, None), (attr, x)
        with pytest.raises(RuleRuntimeError, match="has no attribute '%s'" % attr):
            read(g.s.tiles, "no_such_place", g, None)
    assert prog.attribute_reader("owner")(g.s.tiles, built, g, None) == 2
    assert prog.attribute_reader("owner")(g.s.tiles, neutral, g, None) is None



def test_a_tiles_owner_and_kind_read_inline_answer_as_the_reader():
    # `owner of x` and `kind of x` are written out in the generated code for a placed tile and
    # (owner) a space; the reader is called for anything else.  Not inside a comprehension's
    # iterable, where Python allows no `:=`: there the reader answers (and the code compiles).
    from provost.interpreter.expressions import ExprCompiler
    g = Game.new("caylus", players=4, seed=1)
    prog = program_for(load_checked("caylus"))
    built = next(t for t in g.s.road if t is not None)
    g.s.tiles[built] = [g.s.tiles[built][0], 2]
    neutral = next(t for t in g.s.road if t is not None and t != built)
    g.s.tiles[neutral] = [g.s.tiles[neutral][0], -1]
    called = []
    readers = dict(prog._readers)
    for a in ("owner", "kind"):
        reader = prog.attribute_reader(a)
        prog._readers[a] = lambda tiles, x, g, pos, reader=reader: called.append(x) or reader(tiles, x, g, pos)
    try:
        _check_inline_tile_reads(ExprCompiler(prog), prog, g, [built, neutral, "gate"], called)
    finally:
        prog._readers = readers           # the program is the process's, shared with other tests


def _check_inline_tile_reads(compiler, prog, g, things, called):
    from provost.interpreter.program import RuleRuntimeError

    def at(n):
        return [1, n]

    def name(n):
        return {"e": "name", "id": n, "pos": at(1)}

    def attr(a, x):
        return {"e": "attr", "name": a, "x": x, "pos": at(2)}

    def listed(xs):
        return {"e": "list", "items": [{"e": "str", "v": x, "pos": at(3)} for x in xs], "pos": at(3)}

    def comp(var, over, item):
        return {"e": "comp", "var": var, "iter": over, "item": item, "cond": None, "pos": at(4)}

    for a in ("owner", "kind"):
        want = [prog.attribute(g, x, a, None) for x in things]
        alone = compiler.compile(attr(a, name("x")), frozenset({"player", "x"}))
        assert [alone(g, {"player": 0, "x": x}) for x in things] == want
        assert compiler.compile(comp("t", listed(things), attr(a, name("t"))), frozenset({"player"}))(g, {"player": 0}) == want
        assert called == (["gate", "gate"] if a == "kind" else [])     # a space's kind: the reader's
        called.clear()
        inner = comp("t", listed(things), attr(a, name("t")))
        nested = compiler.compile(comp("v", inner, name("v")), frozenset({"player"}))
        assert nested(g, {"player": 0}) == want and called == things
        called.clear()
        with pytest.raises(RuleRuntimeError, match="has no attribute '%s'" % a):
            alone(g, {"player": 0, "x": "no_such_place"})
        called.clear()


CALLED_PAYMENT = two_player_game("Called payments", head="workers_return_to camp") + """\
resource coin "coin"
counter workers per player start 3
counter camp per player start 0
space well "Well" slots 2
space mill "Mill" slots 2

effect spend(n):
    pay n coin

effect rest(n):
    pay n workers
    gain n camp

phase main "Main":
    each player in players():
        choose "Buy":
            option buy(k in [1, 2, 3, 4]):
                spend k
                gain k pp
            option skip: nothing
        choose "Place":
            option place(t in open_spaces()):
                place_worker t
                rest 2
            option wait: nothing
"""


def test_a_called_effects_payment_is_tested_as_the_general_check_tests_it(tmp_path):
    # `spend k` pays k coins through a called effect: the bindings test the caller's k against
    # the coins (effects._in_callers_terms), per binding; `place_worker t` then `rest 2` needs
    # three workers in all (one placed, two rested), tested once per listing.
    g = Game.new(loaded(tmp_path, CALLED_PAYMENT), players=2, seed=0)
    buy = next(n for n in g.prog.nodes if type(n).__name__ == "Choose" and n.title == "Buy").options[0]
    assert buy.filtered                       # the payment is a filter of the bindings
    g.s.counters["coin"] = [2, 9]
    g.s.counters["workers"] = [3, 2]
    g.start_phase("main")
    assert g.legal_options() == ["buy:1", "buy:2", "skip"]
    g.apply("buy:2")
    assert g.legal_options() == ["place:well", "place:mill", "wait"]
    g.apply("wait")
    assert g.current_player() == 1 and g.legal_options() == ["buy:1", "buy:2", "buy:3", "buy:4", "skip"]
    g.apply("buy:4")
    # Two workers cannot pay for a placement and a rest of two: `wait` alone, played for them.
    assert g.finished and g.scores() == [2, 4] and g.s.counters["workers"] == [3, 2]


BUNDLES = two_player_game("Bundles") + """\
resource gem "gem"
resource ore "ore"
counter workers per player start 1
space well "Well" slots 2

phase main "Main":
    each player in players():
        choose "Give":
            option give(x in [[gem], [gem, gem], [gem, ore], [ore, ore, ore]]):
                pay x
                gain 1 pp
            option hire(t in open_spaces(), x in [[gem], [ore]]):
                place_worker t
                pay x
            option skip: nothing
"""


def test_a_bundle_payment_in_the_bindings_counts_each_resource_and_the_placed_workers(tmp_path):
    g = Game.new(loaded(tmp_path, BUNDLES), players=2, seed=0)
    give = next(n for n in g.prog.nodes if type(n).__name__ == "Choose").options[0]
    assert give.filtered
    g.s.counters["gem"] = [1, 2]
    g.s.counters["ore"] = [1, 2]
    g.s.counters["workers"] = [0, 1]
    g.start_phase("main")
    # Seat 0: one gem, one ore, no worker to place.
    assert g.legal_options() == ["give:gem", "give:gem+ore", "skip"]
    g.apply("give:gem+ore")
    # Seat 1: two of each, a worker: two gems yes, three ores no.
    assert g.legal_options() == ["give:gem", "give:gem+gem", "give:gem+ore", "hire:well:gem", "hire:well:ore", "skip"]


def test_an_options_entries_are_kept_from_one_listing_to_the_next_and_never_changed():
    # A one-parameter option's entry ([id, bindings, number]) for a string value is made once and
    # shared by later listings; choosing it copies what it takes, so the kept entries stay as made.
    import copy
    import random

    from provost.interpreter.runtime import MAX_KEPT_ENTRIES, kept_entry

    g = Game.new("caylus", players=4, seed=1)
    _play_to(g, ["Place a worker or pass"])
    frame = g.s.stack[-1]
    place = g.prog.nodes[frame[0]].options[1]
    first, again = place.bindings(g, frame[2]), place.bindings(g, frame[2])
    assert first and first == again and all(a is b for a, b in zip(first, again))
    made = copy.deepcopy(first)
    rng = random.Random(1)
    while not g.s.finished:
        options = g.legal_options()
        g.apply(options[rng.randrange(len(options))])
    assert first == made
    memo: dict = {}
    for n in range(MAX_KEPT_ENTRIES + 10):
        kept_entry(memo, "v%d" % n, ["x", {}, 0])
    kept_entry(memo, [1, 2], ["x", {}, 0])                  # the memo is full: nothing more is kept
    assert len(memo) == MAX_KEPT_ENTRIES
    small: dict = {}
    kept_entry(small, 1, ["n:1", {"n": 1}, 0])
    kept_entry(small, True, ["n:true", {"n": True}, 0])     # True is no int here: never kept as 1
    assert small == {1: ["n:1", {"n": 1}, 0]} and type(next(iter(small))) is int


def test_an_int_options_entry_is_kept_and_a_bool_is_not_taken_for_it(tmp_path):
    from provost.interpreter.runtime import kept_entry
    rs = loaded(tmp_path, two_player_game("Kept numbers") + """\
phase main "Main":
    each player in players():
        choose "Pick":
            option pick(k in [1, 2, 3]):
                gain k pp
            option flag(b in [1 == 1, 1]):
                gain 1 pp
            option pair(z in ["a", "b"], n in [1, 2], f in [1 == 1]):
                gain n pp
            option duo(z in ["a", "b"], n in [1, 2]):
                gain n pp
            option bid(b in [[1, 2], ["a", 3], [1 == 1, 2], [first([[1]]), 2]]):
                gain 1 pp
""")
    g = Game.new(rs, players=2, seed=0)
    node = g.prog.nodes[g.s.stack[-1][0]]
    env = g.s.stack[-1][2]
    first, again = node.options[0].bindings(g, env), node.options[0].bindings(g, env)
    assert [e[0] for e in first] == ["pick:1", "pick:2", "pick:3"] and all(a is b for a, b in zip(first, again))
    flags = node.options[1].bindings(g, env)
    assert flags[0][1]["b"] is True and flags[1][1]["b"] == 1 and type(flags[1][1]["b"]) is int
    assert flags[0][0] != flags[1][0]
    # Several parameters: kept under the tuple of the values, when each is a string or an int.
    duos, again = node.options[3].bindings(g, env), node.options[3].bindings(g, env)
    assert [e[0] for e in duos] == ["duo:a:1", "duo:a:2", "duo:b:1", "duo:b:2"]
    assert all(a is b for a, b in zip(duos, again)) and duos[1][1] == {"z": "a", "n": 2}
    pairs, again = node.options[2].bindings(g, env), node.options[2].bindings(g, env)
    assert [e[0] for e in pairs] == ["pair:a:1:True", "pair:a:2:True", "pair:b:1:True", "pair:b:2:True"]
    assert not any(a is b for a, b in zip(pairs, again))          # a bool among the values: made anew
    # One parameter whose values are lists: a list of strings and ints is kept under its tuple;
    # one holding a bool or a list is made anew.  Choosing a kept entry binds a copy of its list.
    # (The checker rejects a list of lists written out as an option's value, T220; through a
    # function, `[first([[1]]), 2]`, it cannot tell, and the engine still copes.)
    bids, again = node.options[4].bindings(g, env), node.options[4].bindings(g, env)
    assert [a is b for a, b in zip(bids, again)] == [True, True, False, False]
    c = g.clone()
    node.choose(c, c.s.stack[-1], bids[0])                  # the option's body, about to run
    assert c.s.stack[-1][2]["b"] == [1, 2] and c.s.stack[-1][2]["b"] is not bids[0][1]["b"]
    memo: dict = {}
    kept_entry(memo, ("a", 1), ["pair:a:1", {}, 0])
    kept_entry(memo, ("a", True), ["pair:a:true", {}, 0])
    kept_entry(memo, ("a", [1]), ["pair:a:1", {}, 0])
    assert list(memo) == [("a", 1)]
