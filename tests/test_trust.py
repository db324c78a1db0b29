"""Randomness and files you can trust: independent seeds, drawn seeds reported, saves checked
before use, files a rule file or a log may name, control characters escaped, switches read alike."""
from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from provost.dsl.diagnostics import RulesError, printable
from provost.dsl.loader import check_file
from provost.dsl.switches import switch_on
from provost.interpreter import rng
from provost.interpreter.engine import Game


# ------------------------------------------------------------------ seeds
def first_draws(seed: int, salt: int, k: int = 8) -> list[int]:
    st, out = rng.seed_state(seed, salt), []
    for _ in range(k):
        st, x = rng.next_u64(st)
        out.append(x)
    return out


def test_consecutive_seeds_are_not_shifted_copies_of_one_stream():
    for seed in range(200):
        a, b = first_draws(seed, 4), first_draws(seed + 1, 4)
        assert not set(a[1:]) & set(b)          # the old seeding: b == a[1:] + [...]


def bits_agreement(pairs) -> float:
    """The share of equal bits between paired 64-bit draws: 0.5 for independent streams."""
    same = total = 0
    for x, y in pairs:
        same += 64 - bin(x ^ y).count("1")
        total += 64
    return same / total


@pytest.mark.parametrize("other", [lambda s: (s + 1, 4), lambda s: (s, 3), lambda s: (s - 1, 3)])
def test_streams_of_neighbouring_seeds_and_player_counts_are_uncorrelated(other):
    pairs = []
    for seed in range(1, 400):
        mine = first_draws(seed, 4)
        theirs = first_draws(*other(seed))
        pairs += zip(mine, theirs)
    # 400 * 8 * 64 bits: an independent pair agrees on 50% +- 0.3% (3 sd = 0.83%).
    assert abs(bits_agreement(pairs) - 0.5) < 0.0085


def test_deals_of_neighbouring_seeds_and_counts_differ():
    # Caylus deals its neutral buildings at setup: with the old seeding (3 players, seed s) dealt
    # as (4 players, seed s - 1).  Over 60 seeds the deals must agree about as often as chance.
    def road(players, seed):
        return tuple(Game.new("caylus", players=players, seed=seed).s.road[:8])
    same_count = sum(road(3, s) == road(4, s) for s in range(1, 61))
    shifted = sum(road(3, s) == road(4, s - 1) for s in range(1, 61))
    assert same_count <= 3 and shifted <= 3          # 6! orders: chance gives 0.08 of 60


def test_64_bit_seeds_play_and_out_of_range_is_a_usage_error(capsys):
    from cli_run import run_cli
    code, out, _ = run_cli(capsys, "play", "caylus", "--seed", str(2**64 - 1), "--format", "json")
    assert code == 0 and json.loads(out)["seed"] == 2**64 - 1
    code, _, err = run_cli(capsys, "play", "caylus", "--seed", str(2**64))
    assert code == 2 and "2**64 - 1" in err


def test_play_and_sim_without_a_seed_draw_one_and_report_it(capsys, tmp_path):
    from cli_run import run_cli
    log = tmp_path / "g.jsonl"
    seeds = set()
    for _ in range(3):
        code, out, _ = run_cli(capsys, "play", "caylus", "--format", "json", "--log", str(log))
        assert code == 0
        seed = json.loads(out)["seed"]
        assert json.loads(log.read_text().splitlines()[0])["seed"] == seed
        seeds.add(seed)
    assert len(seeds) == 3 and all(0 <= s < 2**63 for s in seeds)
    code, out, _ = run_cli(capsys, "play", "caylus", "--seed", str(seed), "--format", "json")
    assert json.loads(out)["seed"] == seed                  # the reported seed replays the game
    code, out, _ = run_cli(capsys, "sim", "caylus", "--games", "2", "--format", "json")
    assert code == 0 and json.loads(out)["seed"] >= 0
    code, text, _ = run_cli(capsys, "play", "caylus")
    assert ", seed " in text.splitlines()[0]


# ------------------------------------------------------------------ saves
def saved_games() -> list[str]:
    out = []
    for name, players in (("caylus", 4), ("ys", 4), ("ys", 2), ("caylus1303", 3)):
        g = Game.new(name, players=players, seed=7)
        r = random.Random(players)
        for _ in range(r.randrange(30, 200)):
            if g.finished:
                break
            g.apply(r.choice(g.legal_options()))
        out.append(g.to_json())
    return out


SAVES = saved_games()


def test_a_valid_save_resumes_exactly():
    for text in SAVES:
        assert Game.from_json(text).to_json() == text


def _paths(x, here=(), width=4):
    """The paths into X: every key of a dict, the first WIDTH items of a list (None: all)."""
    yield here
    if isinstance(x, dict):
        for k, v in x.items():
            yield from _paths(v, here + (k,), width)
    elif isinstance(x, list):
        for i, v in enumerate(x[:width]):
            yield from _paths(v, here + (i,), width)


JUNK = [None, -1, 2**70, "x", "", [], {}, True, 1.5, [[[[[]]]]], {"a": 1}, "\x1b[2J", 0, 2]


def _tampered(d: dict, r: random.Random, paths=None) -> str:
    """D with one value (of PATHS, by default any) replaced by junk or, in a dict, removed."""
    path = r.choice(paths or list(_paths(d))[1:])
    parent = d
    for key in path[:-1]:
        parent = parent[key]
    if isinstance(parent, dict) and r.random() < 0.2:
        del parent[path[-1]]
    else:
        parent[path[-1]] = r.choice(JUNK)
    return json.dumps(d)


def test_tampered_saves_are_input_errors_never_raw_exceptions():
    r = random.Random(11)
    outcomes = {}
    for _ in range(800):
        try:
            Game.from_json(_tampered(json.loads(r.choice(SAVES)), r))
            outcomes["loaded"] = outcomes.get("loaded", 0) + 1
        except RulesError as e:
            code = e.diagnostics[0].code
            outcomes[code] = outcomes.get(code, 0) + 1
    assert set(outcomes) <= {"loaded", "E002", "E003", "E004", "L001"}     # L001: an unknown variant named
    assert outcomes.get("E004", 0) > 300


@pytest.mark.parametrize("text", SAVES)
def test_a_tampered_save_that_loads_plays_on(text):
    """A save that passes the checks is a game the engine can play: its state (zones, pieces,
    every frame and choice in progress, however deep) never fails later with a Python exception."""
    r = random.Random(5)
    d = json.loads(text)
    state_paths = [p for p in _paths(d, width=None) if p[:1] == ("state",) and len(p) > 2]
    for _ in range(300):
        try:
            g = Game.from_json(_tampered(json.loads(text), r, state_paths))
        except RulesError:
            continue
        for _ in range(20):
            if g.finished:
                break
            assert g.legal_options(), "a game neither finished nor waiting for a decision"
            try:
                g.apply(r.choice(g.legal_options()))
            except RulesError:          # a rule failing at play: positioned, never a raw exception
                break
            for seat in range(g.s.players):
                g.observation(seat)


def _save_at(decisions: int, name: str = "caylus") -> dict:
    g = Game.new(name, players=4, seed=1)
    r = random.Random(1)
    for _ in range(decisions):
        g.apply(r.choice(g.legal_options()))
    return json.loads(g.to_json())


def _first_tile(d):
    return next(iter(d["state"]["tiles"]))


@pytest.mark.parametrize("tamper, words", [
    (lambda d: d["state"]["road"].__setitem__(1, "nope"), "state.road.1: 'nope' is no tile"),
    (lambda d: d["state"]["counters"]["denier"].__setitem__(0, -50), "outside its bounds"),
    (lambda d: d["state"]["counters"]["pp"].__setitem__(0, -50), "outside its bounds"),
    (lambda d: d["state"]["counters"].__setitem__("provost", 99), "outside its bounds"),
    (lambda d: d["state"]["tiles"][_first_tile(d)].__setitem__(1, 9), "owned by seat 9 of 4"),
    (lambda d: d["state"].__setitem__("finished", True), "a finished game with play still to come"),
    (lambda d: d["state"].__setitem__("phase", "feast"), "state.phase: no phase called 'feast' in the rules"),
])
def test_a_save_no_game_could_reach_is_damaged(tamper, words):
    """Values the engine never leaves in a state: each is E004 on loading, not a rule error
    (or a broken invariant) later in play."""
    d = _save_at(30)
    tamper(d)
    with pytest.raises(RulesError) as e:
        Game.from_json(json.dumps(d))
    assert e.value.diagnostics[0].code == "E004" and words in e.value.diagnostics[0].message


def _top_choice(d: dict) -> list:
    return d["state"]["stack"][-1][3]


@pytest.mark.parametrize("tamper, words", [
    (lambda d: d["state"]["zones"]["hand"].__setitem__(1, True), "state.zones.hand.1: expected a list of cards"),
    (lambda d: d["state"]["zones"]["port"].pop("n1"), "state.zones.port: expected one list per neighborhoods"),
    (lambda d: d["state"]["pieces"][3].__setitem__(2, "x"), "are not the ones the rules deal"),
    (lambda d: d["state"]["pieces"][3].__setitem__(2, 7), "are not the ones the rules deal"),
    (lambda d: d["state"]["pieces"].pop(), "are not the ones the rules deal"),
    (lambda d: d["state"]["stack"][0].__setitem__(0, d["state"]["stack"][1][0]), "the game's flow must come first"),
    (lambda d: [entry[1].__setitem__("t", 2) for entry in _top_choice(d)], "leads to a state no game reaches"),
    (lambda d: d["state"]["pieces"][3].pop(), "state.pieces.3: expected at least 7 entries"),
    (lambda d: d["state"]["pieces"][3].__setitem__(5, 1 << 4), "state.pieces.3: seen by seats beyond the 4"),
    (lambda d: d["state"]["pieces"][3].__setitem__(6, 10**6), "state.pieces.3: placed at decision 1000000"),
    (lambda d: d["state"]["counters"]["bank"].__setitem__(0, 10**18), "beyond the largest number a game keeps"),
    (lambda d: d["state"].__setitem__("round", 1.0), "state.round: 1.0 is not a whole number"),
])
def test_a_ys_save_no_game_could_reach_is_damaged(tamper, words):
    d = _save_at(60, "ys")
    assert _top_choice(d)[0][0].startswith("at:")       # deciding where a broker goes
    tamper(d)
    with pytest.raises(RulesError) as e:
        Game.from_json(json.dumps(d))
    assert e.value.diagnostics[0].code == "E004" and words in e.value.diagnostics[0].message


@pytest.mark.parametrize("text, words", [
    ("", "not JSON"), ("[" * 100000, "nested too deeply"), ("null", "top level"), ("{}", "top level"),
    ('{"engine": "9"}', "top level"), ("x" * (33 * 1024 * 1024), "the limit"),
])
def test_what_is_not_a_save_says_so(text, words):
    with pytest.raises(RulesError) as e:
        Game.from_json(text)
    assert e.value.diagnostics[0].code == "E004" and words in e.value.diagnostics[0].message


def test_a_save_never_makes_provost_read_a_file_that_is_not_a_rule_file(tmp_path):
    secret = tmp_path / "token.txt"
    secret.write_text("SECRET-TOKEN\n")
    for field, value in (("path", str(secret)), ("ruleset", str(secret))):
        d = json.loads(SAVES[0])
        d[field] = value
        with pytest.raises(RulesError) as e:
            Game.from_json(json.dumps(d))
        assert "SECRET" not in str(e.value) and e.value.diagnostics[0].code == "E004"

    d = json.loads(SAVES[0])
    d["variant"] = str(secret)          # a variant named by the save is a rule file, or refused
    with pytest.raises(RulesError) as e:
        Game.from_json(json.dumps(d))
    assert "SECRET" not in str(e.value) and e.value.diagnostics[0].code == "E004"


def test_a_variant_file_named_by_a_path_resumes_and_replays_from_any_folder(tmp_path, monkeypatch, capsys):
    """A save and a log name a variant file by its absolute path (its declared name would be
    looked for among the shipped variants, and not found)."""
    import shutil

    from pathlib import Path

    from cli_run import run_cli
    examples = Path(__file__).resolve().parent.parent / "rulesets" / "examples"
    shutil.copy(examples / "caylus.generous_king.rules", tmp_path / "mine.rules")
    monkeypatch.chdir(tmp_path)
    g = Game.new("caylus", variant="./mine.rules", seed=1)
    code, _, err = run_cli(capsys, "play", "caylus", "--variant", "./mine.rules", "--seed", "1", "--log", "g.jsonl")
    assert code == 0, err
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    assert Game.from_json(g.to_json()).to_json() == g.to_json()
    code, out, err = run_cli(capsys, "replay", "../g.jsonl")
    assert code == 0 and "identical result" in out + err
    (tmp_path / "mine.rules").unlink()
    with pytest.raises(RulesError) as e:
        Game.from_json(g.to_json())
    assert e.value.diagnostics[0].code == "E003"
    code, out, err = run_cli(capsys, "replay", "../g.jsonl")
    assert code == 1 and "the variant file this game was played with is gone" in out + err
    assert (out + err).count("[R003]") == 1      # one finding, said once


def _save_during_activation() -> tuple[Game, str]:
    """A Caylus game stopped at a decision taken while the road is activated, and its save."""
    from provost.interpreter.nodes import Activate
    g = Game.new("caylus", players=4, seed=3)
    r = random.Random(3)
    while not any(isinstance(g.prog.nodes[f[0]], Activate) and f[3] is not None for f in g.s.stack):
        g.apply(r.choice(g.legal_options()))
    return g, g.to_json()


def test_an_activations_progress_is_saved_by_name_and_resumes_exactly():
    # The engine keeps an activation's progress as a list; a save holds it as a dict of its names.
    g, text = _save_during_activation()
    frames = json.loads(text)["state"]["stack"]
    progress = [f[3] for f in frames if isinstance(f[3], dict) and "snap" in f[3]]
    assert progress and list(progress[0]) == ["road", "i", "snap", "j", "cur", "bonus"]
    resumed = Game.from_json(text)
    assert resumed.to_json() == text
    r = random.Random(5)
    while not g.finished:
        option = r.choice(g.legal_options())
        assert resumed.legal_options() == g.legal_options()
        g.apply(option)
        resumed.apply(option)
    assert resumed.to_json() == g.to_json()


@pytest.mark.parametrize("tamper", [
    lambda p: p.pop("snap"), lambda p: p.update(extra=1), lambda p: p.update(i="x"),
    lambda p: p.update(cur=[1, 2]), lambda p: p.update(snap=["gate", ["x"]]), lambda p: p.update(bonus=0),
])
def test_an_activations_progress_that_is_not_one_is_a_damaged_save(tamper):
    _, text = _save_during_activation()
    d = json.loads(text)
    frame = next(f for f in d["state"]["stack"] if isinstance(f[3], dict) and "snap" in f[3])
    tamper(frame[3])
    with pytest.raises(RulesError) as e:
        Game.from_json(json.dumps(d))
    assert e.value.diagnostics[0].code == "E004"


def test_a_save_nested_deeper_than_any_game_is_damaged_not_a_recursion_error():
    """Deep values inside a frame's bindings pass the schema (they are free-form) and once broke
    the copy of the state with a RecursionError."""
    d = _save_at(60, "ys")
    d["state"]["envs"][0]["deep"] = json.loads("[" * 900 + "]" * 900)
    with pytest.raises(RulesError) as e:
        Game.from_json(json.dumps(d))
    assert e.value.diagnostics[0].code == "E004" and "nested too deeply" in e.value.diagnostics[0].message


def test_a_binding_that_makes_the_engine_write_junk_is_damaged_not_a_type_error():
    """A player who is None in a frame's bindings makes an option write None where a seat goes;
    the check of the state the option leads to trips over it: damaged, not a TypeError."""
    d = _save_at(12)
    d["state"]["envs"][2]["player"] = None
    with pytest.raises(RulesError) as e:
        Game.from_json(json.dumps(d))
    assert e.value.diagnostics[0].code == "E004" and "leads to a state no game reaches" in e.value.diagnostics[0].message


# Rules that make a string: `+` joins two names, and the card joined is put in a zone.
JOINED_NAMES = """game joined "Joined":
    players 2..3
    score pp
    max_rounds 2
    rounds main

resource pp "prestige"
zone pile "Pile"
enum colors blue, red

phase main "Main":
    step one:
        put blue + red, pile
        each player in players():
            choose "Go":
                option go:
                    gain 1 pp
                option stay:
                    nothing
"""


def test_a_save_holding_a_string_the_rules_made_resumes(tmp_path):
    """A card need not be a name the rules write: they can join strings.  What the engine did,
    a save holds, and resumes."""
    path = tmp_path / "joined.rules"
    path.write_text(JOINED_NAMES)
    g = Game.new(str(path), players=2, seed=1)
    assert "bluered" in g.s.zones["pile"] and g.legal_options() == ["go", "stay"]
    resumed = Game.from_json(g.to_json())
    assert resumed.s.zones["pile"] == g.s.zones["pile"]
    for game in (g, resumed):
        while not game.s.finished:
            game.apply("go")
    assert resumed.to_json() == g.to_json()


@pytest.mark.parametrize("tamper, words", [
    (lambda st: st["stack"].__setitem__(slice(1, 1), [list(st["stack"][1]) for _ in range(200)]), "state.stack: 20"),
    (lambda st: st["envs"].append({"player": 0}), "state.envs: 5 bindings, not the 4 the frames name in turn"),
    (lambda st: st["occ"].update(nowhere=[0]), "state.occ: no space or tile called 'nowhere'"),
    (lambda st: st["deferred"].append([5, st["deferred"][0][1], 0]), "state.deferred.1: waits for no space or tile"),
    (lambda st: st["deferred"].extend([list(st["deferred"][0])] * 10001), "state.deferred: "),
])
def test_a_save_whose_frames_no_game_could_reach_is_damaged(tamper, words):
    """Frames the rules could never stack, bindings no frame uses, places that are not the board's
    and effects waiting for no place: each is E004 (they were loaded, and slowed every option's
    probe: thousands of frames or places took seconds)."""
    g = _save_with_a_deferred_effect()
    d = json.loads(g.to_json())
    tamper(d["state"])
    with pytest.raises(RulesError) as e:
        Game.from_json(json.dumps(d))
    assert e.value.diagnostics[0].code == "E004" and words in e.value.diagnostics[0].message


def _save_with_a_deferred_effect() -> Game:
    """Caylus: the lawyer turns an occupied sawmill into a residence once the sawmill is activated;
    a marketplace between them asks a question first, while the change waits."""
    from caylus_scenarios import choose, empty_road_after_neutrals, give, new_game, occupy
    g = new_game(players=3)
    empty_road_after_neutrals(g)
    g.put_tile("lawyer", 9, 0)
    g.put_tile("wood_marketplace", 10, 1)
    g.put_tile("wood_sawmill", 11, 0)
    g.s.counters["provost"] = 11
    occupy(g, "lawyer", 0)
    occupy(g, "wood_marketplace", 1)
    occupy(g, "wood_sawmill", 1)
    give(g, 0, cloth=1, denier=1, pp=0)
    give(g, 1, wood=2, food=2)
    g.start_phase("activation")
    choose(g, "transform:wood_sawmill")
    return g


def test_a_save_with_an_effect_waiting_for_a_building_resumes_exactly():
    g = _save_with_a_deferred_effect()
    assert g.s.deferred and g.prompt() == "Sell one cube"
    text = g.to_json()
    resumed = Game.from_json(text)
    assert resumed.to_json() == text
    for option in ("sell:wood", "skip"):
        for game in (g, resumed):
            game.apply(option) if option in game.legal_options() else None
    assert resumed.to_json() == g.to_json() and not g.s.deferred


def test_an_engine_1_save_still_resumes():
    d = json.loads(SAVES[1])
    d["engine"] = "1"
    for pc in d["state"]["pieces"]:
        del pc[6]
    g = Game.from_json(json.dumps(d))
    assert all(len(pc) >= 7 for pc in g.s.pieces)



def test_an_engine_2_save_resumes_as_it_is():
    # Engine 3 changed how some choices are played, not the layout of a save.
    from provost.interpreter.engine import ENGINE_VERSION
    d = json.loads(SAVES[1])
    d["engine"] = "2"
    g = Game.from_json(json.dumps(d))
    assert json.loads(g.to_json())["engine"] == ENGINE_VERSION == "3"
    assert json.loads(g.to_json())["state"] == d["state"]

# ------------------------------------------------------------------ files a rule file or log may name
def test_a_variant_may_not_name_a_file_outside_its_folder_or_not_a_rule_file(tmp_path):
    (tmp_path / "token.txt").write_text("SECRET-TOKEN\n")
    inner = tmp_path / "mine"
    inner.mkdir()
    for ref, words in (("../token.txt", "outside the variant's folder"), ("token.txt", "not a rule file")):
        variant = (inner if ref.startswith("..") else tmp_path) / "v.rules"
        variant.write_text('variant v "V" extends "%s":\n    description "x"\n' % ref)
        found = [d for d in check_file(str(variant)) if d.severity == "error"]
        assert found and found[0].code == "L002" and words in found[0].message
        assert "SECRET" not in found[0].message


def test_a_diagnostic_shows_no_line_of_a_file_that_is_not_provosts(tmp_path, capsys):
    from cli_run import run_cli
    secret = tmp_path / "token.txt"
    secret.write_text("game SECRET-TOKEN\n")
    code, out, err = run_cli(capsys, "check", str(secret))
    assert code == 1 and "SECRET-TOKEN" not in out + err
    secret.write_text("game g:\n    score pp SECRET@\n")
    code, out, err = run_cli(capsys, "check", str(secret))
    assert code == 1 and "SECRET" not in out + err and "'@'" not in out + err   # not even one character


def test_a_log_naming_a_file_that_is_not_a_rule_file_is_refused(tmp_path, capsys):
    from cli_run import run_cli
    (tmp_path / "token.txt").write_text("SECRET\n")
    log = tmp_path / "g.jsonl"
    log.write_text(json.dumps({"type": "header", "ruleset": str(tmp_path / "token.txt"), "variant": None,
                               "players": 4, "seed": 1, "ruleset_hash": "0" * 16}) + "\n")
    code, out, err = run_cli(capsys, "replay", str(log))
    assert code == 1 and "SECRET" not in out + err and "neither a shipped ruleset nor a rule file" in out + err
    assert (out + err).count("[R003]") == 1 and "<log>" not in out + err      # one finding, said once
    for source in ({"ruleset": "caylus", "variant": str(tmp_path / "token.txt")}, None):
        log.write_text(json.dumps({"type": "header", "ruleset": "caylus", "variant": str(tmp_path / "token.txt"),
                                   "players": 4, "seed": 1, "ruleset_hash": "0" * 16, "source": source}) + "\n")
        code, out, err = run_cli(capsys, "replay", str(log))
        assert code == 1 and "SECRET" not in out + err and "is not a rule file" in out + err


def test_the_log_of_rules_played_from_a_file_that_is_not_a_rule_file_says_why_it_does_not_replay(tmp_path, capsys):
    # `provost play` plays the file its user names; its log names that file, which a log may not
    # make provost read.  The replay says so, rather than looking for a variant of another name.
    from cli_run import run_cli
    from provost.dsl.loader import shipped_dir
    rules = tmp_path / "mine.txt"
    rules.write_text(open(shipped_dir() + "/caylus.rules", encoding="utf-8").read(), encoding="utf-8")
    log = tmp_path / "g.jsonl"
    code, out, err = run_cli(capsys, "play", str(rules), "--players", "4", "--seed", "2", "--log", str(log))
    assert code == 0 and log.exists()
    code, out, err = run_cli(capsys, "replay", str(log))
    assert code == 1 and "[R003]" in out + err
    assert "which is not a rule file (.rules, .json, .yaml, .yml)" in out + err and "mine.txt" in out + err


@pytest.mark.parametrize("source, words", [
    ({"ruleset": "ys", "variant": 10**30}, "the header's source: 'variant' should be a string or null"),
    ({"ruleset": ["ys"], "variant": None}, "the header's source: 'ruleset' should be a string"),
    ({"variant": None}, "the header's source has no 'ruleset' field"),
    ("ys", "the header: 'source' should be an object or null"),
])
def test_a_log_header_whose_source_is_ill_typed_is_malformed_not_an_internal_error(tmp_path, capsys, source, words):
    from cli_run import run_cli
    g = Game.new("ys", players=4, seed=1)
    log = tmp_path / "g.jsonl"
    log.write_text(json.dumps({"type": "header", "ruleset": "ys", "variant": None, "players": 4, "seed": 1,
                               "ruleset_hash": g.rs.digest, "source": source}) + "\n")
    for command in ("replay", "explain"):
        code, out, err = run_cli(capsys, command, str(log), *(["--at", "1", "pass"] if command == "explain" else []))
        assert code == 1 and "[R002]" in out + err and words in out + err and "internal error" not in out + err


def test_explain_refuses_a_log_whose_rules_changed(tmp_path, capsys):
    from cli_run import run_cli
    log = tmp_path / "g.jsonl"
    assert run_cli(capsys, "play", "caylus", "--seed", "3", "--log", str(log))[0] == 0
    lines = log.read_text().splitlines()
    header = json.loads(lines[0])
    header["ruleset_hash"] = "0" * 16
    log.write_text("\n".join([json.dumps(header)] + lines[1:]) + "\n")
    code, out, err = run_cli(capsys, "explain", str(log), "--at", "2", "pass")
    assert code == 1 and "the rules changed since the game was played" in out + err


# ------------------------------------------------------------------ printing
def test_control_characters_are_escaped_when_printed():
    assert printable("a\x1b[2Jb\rc\u202ed") == "a\\x1b[2Jb\\x0dc\\u202ed"
    assert printable("plain text, tabs\tstay") == "plain text, tabs\\x09stay"


def test_a_rule_file_with_a_control_character_is_refused_and_nothing_raw_is_printed(tmp_path):
    bad = tmp_path / "evil.rules"
    bad.write_bytes(b'game g "Evil\x1b[2J":\n    score pp\n')
    done = subprocess.run([sys.executable, "-m", "provost.tools.cli", "check", str(bad)],
                          capture_output=True, text=True)
    assert done.returncode == 1 and "P007" in done.stdout + done.stderr
    assert "\x1b" not in done.stdout + done.stderr and "\\x1b[2J" in done.stdout + done.stderr


def test_a_hostile_argument_is_printed_escaped():
    done = subprocess.run([sys.executable, "-m", "provost.tools.cli", "play", "caylus", "--agents", "x\x1b[2J"],
                          capture_output=True, text=True)
    assert done.returncode == 2 and "\x1b" not in done.stderr and "\\x1b" in done.stderr


# ------------------------------------------------------------------ switches
@pytest.mark.parametrize("value, on", [("1", True), ("true", True), ("YES", True), (" on ", True), ("0", False),
                                       ("false", False), ("no", False), ("off", False), ("", False), ("2", False)])
def test_switches_read_one_and_zero_alike(monkeypatch, value, on):
    monkeypatch.setenv("PROVOST_PURE_PYTHON", value)
    assert switch_on("PROVOST_PURE_PYTHON") is on
    from provost.interpreter import accelerate
    assert accelerate.status()["pure_python"] is on


def test_a_log_naming_a_bare_name_never_reads_the_file_of_that_name(tmp_path, capsys, monkeypatch):
    """A header's ruleset "token" (no suffix, no folder), replayed in the folder holding a file
    "token": the file was read as rules (from /etc, "passwd" was, and its character at 1:7 told).
    Only a shipped ruleset's name or a rule file is loaded; a user's rule file that is gone is said so."""
    from cli_run import run_cli
    (tmp_path / "token").write_text("SECRET: x\n")
    monkeypatch.chdir(tmp_path)
    log = tmp_path / "g.jsonl"
    log.write_text(json.dumps({"type": "header", "ruleset": "token", "variant": None,
                               "players": 4, "seed": 1, "ruleset_hash": "0" * 16}) + "\n")
    code, out, err = run_cli(capsys, "replay", str(log))
    assert code == 1 and "unknown ruleset 'token'" in out + err and "[R003]" in out + err
    assert "SECRET" not in out + err and "':'" not in out + err
    log.write_text(json.dumps({"type": "header", "ruleset": "farm", "variant": None, "players": 4, "seed": 1,
                               "ruleset_hash": "0" * 16, "source": {"ruleset": str(tmp_path / "farm.rules"),
                                                                    "variant": None}}) + "\n")
    code, out, err = run_cli(capsys, "replay", str(log))
    assert code == 1 and "the rule file this game was played with is gone: %s" % (tmp_path / "farm.rules") in out + err
