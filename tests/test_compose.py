"""Player-count rules chosen by --players, variants composed on the command line, and
`provost diff` / `sim --compare` for any two rule files (DESIGN.md section 6)."""
from __future__ import annotations

import json
import os

import pytest

from provost.dsl.compose import merge_decl, split_variants, without_positions as _strip
from provost.dsl.loader import load_checked, shipped_dir
from provost.dsl.variant_diff import line_diff
from provost.interpreter.engine import Game
from provost.tools.cli import main

RULESETS = shipped_dir()


def _rules_but_the_header(rs):
    return [_strip(d) for d in rs.decls if d["kind"] != "game"]


def test_players_picks_the_player_count_rules():
    assert load_checked("caylus", None, players=2).variant == "two_players"
    assert load_checked("ys", None, players=3).variant == "three_players"
    assert load_checked("ys", None, players=2).variant == "three_players+three_players_short+two_players"
    assert load_checked("caylus", None, players=4).variant is None         # the base's own count
    # a variant that brings player-count rules is not given them twice
    assert load_checked("ys", "three_players_short", players=3).variant == "three_players+three_players_short"


def test_composed_three_player_kings_favor_is_the_old_combined_file(tmp_path):
    # The file ys.kings_favor_three.rules was "extends three_players with kings_favor" plus a
    # restated header: the composition gives the same rules, header aside.
    old = tmp_path / "ys.kf3.rules"
    old.write_text('variant kf3 "KF3" extends three_players with kings_favor:\n    description "x"\n')
    composed = load_checked("ys", "kings_favor", players=3)
    assert _rules_but_the_header(composed) == _rules_but_the_header(load_checked(str(old)))
    game = composed.game()
    assert game["players"] == [3, 3] and game["rounds"][-1] == "kings_favor"
    assert game["title"] == "Ys (3 players), King's Favor"


@pytest.mark.parametrize("argv", [["--variant", "kings_favor", "--variant", "express"],
                                  ["--variant", "kings_favor+express"]])
def test_variants_compose_on_the_command_line(argv, capsys):
    assert main(["play", "ys", "--players", "3", "--seed", "1", "--format", "json"] + argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["variant"] == "three_players+kings_favor+express" and out["players"] == 3


def test_composition_merges_attribute_by_attribute():
    rs = load_checked("ys", "kings_favor+express")
    broker = next(d for d in rs.decls if d["kind"] == "pieces")
    assert broker["values"] == [0, 0, 1, 1, 2, 3, 3, 4, 4]          # Express's nine brokers
    assert broker["reserve"] == [2, 2, 2]                            # the King's Favor's reserve
    assert rs.game()["rounds"] == ["reveal", "bidding", "placement", "counting", "kings_favor"]


def test_both_sides_changing_one_attribute_is_an_error():
    a = {"kind": "let", "name": "x", "value": 1}
    merged, conflicts = merge_decl(a, dict(a, value=2), dict(a, value=3), "V")
    assert conflicts == ["value"]
    merged, conflicts = merge_decl(a, dict(a, value=2), dict(a, value=2), "V")
    assert conflicts == [] and merged["value"] == 2


def test_a_count_no_composed_variant_allows_is_refused(capsys):
    assert main(["play", "ys", "--players", "2", "--variant", "kings_favor"]) == 1
    err = capsys.readouterr().err
    assert "[L007]" in err and "King's Favor is for 3 to 4 players" in err


def test_play_caylus_two_players(capsys):
    assert main(["play", "caylus", "--players", "2", "--seed", "3", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["variant"] == "two_players" and len(out["scores"]) == 2


def test_a_variant_of_its_own_player_count_plays_without_players(tmp_path, capsys):
    # A user's variant that makes Caylus a game for two (`players 2..2`) and says no
    # `for_players`: played without --players, it is a 2-player game with the game's rules for
    # two, as with --players 2, and its log replays.
    duo = tmp_path / "duo.rules"
    duo.write_text('variant duo "Duo" extends caylus:\n'
                   '    replace game caylus "Caylus (duo)":\n'
                   '        description "For two."\n'
                   '        players 2..2\n'
                   '        score pp\n'
                   '        ends_if scored[towers] == 1\n'
                   '        rounds income, placement, specials, provost_moves, activation, build_castle, end_of_turn\n')
    assert load_checked(str(duo)).variant == "two_players+duo"
    game = Game.new(str(duo), seed=1)
    assert game.s.humans == 2
    log = tmp_path / "duo.jsonl"
    assert main(["play", str(duo), "--seed", "1", "--agents", "random", "--format", "json", "--log", str(log)]) == 0
    alone = json.loads(capsys.readouterr().out)
    assert main(["play", str(duo), "--players", "2", "--seed", "1", "--agents", "random", "--format", "json"]) == 0
    told = json.loads(capsys.readouterr().out)
    assert alone["players"] == 2 and alone["scores"] == told["scores"] and alone["decisions"] == told["decisions"]
    assert main(["replay", str(log)]) == 0


def test_a_variant_file_named_as_the_ruleset_comes_after_the_player_count_rules(tmp_path, capsys):
    # As with --variant: the 3-player rules first, then the user's file, whose change of the same
    # let is the conflict, reported where it can be fixed.
    mine = tmp_path / "takes.rules"
    mine.write_text('variant takes "Takes" extends ys:\n    replace let port_takes = [3, 1, 0]\n')
    assert main(["play", str(mine), "--players", "3", "--seed", "1"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("%s:2:5: error: let port_takes: ys.three_players.rules and takes.rules both change "
                          "its value; they cannot be composed [L007]" % mine)
    assert main(["play", "ys", "--variant", str(mine), "--players", "3", "--seed", "1"]) == 1
    assert capsys.readouterr().err == err
    assert main(["play", str(mine), "--players", "4", "--seed", "1", "--format", "json"]) == 0
    capsys.readouterr()
    # Ys Express is for 3 or 4 players, named as a file or as a variant alike.
    express = os.path.join(RULESETS, "ys.express.rules")
    assert main(["play", express, "--players", "2", "--seed", "1"]) == 1
    assert "Ys Express is for 3 to 4 players, the rules it joins for 2; no player count suits both [L007]" \
        in capsys.readouterr().err
    assert load_checked(express, None, players=3).variant == "three_players+express"


def test_the_log_header_names_the_composition_and_replays(tmp_path, capsys):
    log = tmp_path / "g.jsonl"
    assert main(["play", "ys", "--players", "3", "--variant", "express", "--seed", "2", "--log", str(log)]) == 0
    header = json.loads(log.read_text().splitlines()[0])
    assert header["variant"] == "three_players+express" and header["source"]["variant"] == "three_players+express"
    capsys.readouterr()
    assert main(["replay", str(log)]) == 0


def test_a_save_of_a_composed_game_resumes():
    g = Game.new("ys", players=3, seed=1, variant="kings_favor")
    g.apply(g.legal_options()[0])
    assert Game.from_json(g.to_json()).s.to_dict() == g.s.to_dict()


def test_a_variant_path_composes(tmp_path):
    brewery = os.path.join(RULESETS, "examples", "caylus.brewery.rules")
    rs = load_checked("caylus", "two_players+" + brewery)
    assert rs.variant == "two_players+brewery"
    assert any(d["kind"] == "building" and d["name"] == "brewery" for d in rs.decls)
    assert split_variants("a+b") == ["a", "b"] and split_variants(brewery) == [brewery]
    # the same rule changed by both sides cannot be composed: the error names both files
    mine = tmp_path / "my_house_rule.rules"
    mine.write_text('variant mine "Mine" extends caylus:\n    description "x"\n'
                    '    replace let start_money = {1: 7, 2: 7}\n')
    with pytest.raises(Exception, match="caylus.two_players.rules and my_house_rule.rules both change"):
        load_checked("caylus", "two_players+" + str(mine))



def test_a_variant_file_of_another_game_or_a_game_file_is_not_applied(tmp_path, capsys):
    # Once: a Caylus variant given to Ys was applied to Ys's names (a screen of undefined
    # 'stone', 'wood', ...), and a game file given as a variant was silently left out.
    brewery = os.path.join(RULESETS, "examples", "caylus.brewery.rules")
    game = tmp_path / "mini.rules"
    game.write_text('game mini "Mini":\n    players 2..2\n    score vp\n    rounds p\n'
                    'resource vp\nphase p:\n    nothing\n')
    for argv, message in (
            (["ys", "--variant", brewery], "%s:4:1: error: variant 'brewery' changes the game 'caylus', "
                                           "not 'ys' [L006]" % brewery),
            (["caylus1303", "--variant", "first_game+" + brewery], "changes the game 'caylus', not 'caylus1303'"),
            (["ys", "--variant", str(game)], "%s:1:1: error: '%s' is a game, not a variant" % (game, game))):
        code, out, err = main(["play", *argv, "--seed", "1", "--no-log"]), *capsys.readouterr()
        assert code == 1 and out == "" and message in err and "[N103]" not in err, err
    code = main(["play", "caylus", "--variant", brewery, "--seed", "1", "--no-log"])
    assert code == 0



def test_a_variant_file_given_with_a_with_variant_that_is_nowhere_is_refused_as_check_says(tmp_path, capsys):
    # Once: --variant FILE played FILE without the variant its 'with' names, when none was found.
    combo = tmp_path / "caylus.combo.rules"
    combo.write_text('variant combo "Combo" extends caylus with nothing_such:\n'
                     '    replace let start_money = {1: 7, 2: 7}\n')
    message = "%s:1:1: error: cannot find the variant 'nothing_such' named after 'with'" % combo
    assert main(["check", str(combo)]) == 1
    assert message in capsys.readouterr()[0]
    for argv in (["caylus", "--variant", str(combo)], [str(combo)], ["caylus", "--variant", "two_players+" + str(combo)]):
        code, out, err = main(["play", *argv, "--seed", "1", "--no-log"]), *capsys.readouterr()
        assert code == 1 and message in err, (argv, err)
    # Named after 'with' and found: its changes are applied, as when the file is loaded on its own.
    combo.write_text('variant combo "Combo" extends caylus with simplified_favor:\n'
                     '    replace let start_money = {1: 7, 2: 7}\n')
    assert load_checked("caylus", str(combo)).digest == load_checked(str(combo)).digest


def test_a_variant_file_with_players_replays_and_resumes(tmp_path, capsys):
    # Once 'the rules changed since the game was played' (R003) and E002 for unchanged rules: the
    # log and the save name the variant file, not the 2-player rules --players 2 put under it.
    brewery = os.path.join(RULESETS, "examples", "caylus.brewery.rules")
    log = tmp_path / "g.jsonl"
    assert main(["play", "caylus", "--players", "2", "--variant", brewery, "--seed", "1", "--log", str(log)]) == 0
    assert main(["replay", str(log)]) == 0
    assert "identical result" in capsys.readouterr().out
    g = Game.new("caylus", players=2, variant=brewery, seed=1)
    g.apply(g.legal_options()[0])
    assert Game.from_json(g.to_json()).to_json() == g.to_json()



def test_a_variant_of_the_game_on_a_variant_file_named_as_the_ruleset(tmp_path, capsys):
    # Was "brewery.rules is variant 'brewery', not a game" alone, though it composed with
    # --players or as A+B.
    brewery = os.path.join(RULESETS, "examples", "caylus.brewery.rules")
    for argv in (["play", brewery, "--variant", "simplified_favor", "--seed", "1", "--no-log", "--format", "json"],
                 ["rulebook", brewery, "--variant", "simplified_favor"],
                 ["export", brewery, "--variant", "simplified_favor"],
                 ["diff", brewery, "simplified_favor"]):
        assert main(argv) == 0, capsys.readouterr().err
    out = capsys.readouterr().out
    assert '"variant": "brewery+simplified_favor"' in out
    assert load_checked(brewery, "simplified_favor").variant == "brewery+simplified_favor"


def test_diff_uses_both_arguments(capsys):
    assert main(["diff", "ys", os.path.join(RULESETS, "caylus.two_players.rules")]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Ys (ys) -> Caylus (2 players)")
    assert "- removes resource 'vp'" in out


def test_diff_shows_a_changed_rule_line_by_line(capsys):
    assert main(["diff", "caylus", "two_players"]) == 0
    out = capsys.readouterr().out
    assert "~ changes step 'income' of income:" in out
    assert "    + if the round is more than 1:" in out or "    + if round" in out
    assert "was:" not in out


def test_line_diff_marks_only_what_changed():
    old = ["a", "b", "c", "d", "e", "f"]
    new = ["a", "b", "C", "d", "e", "f"]
    assert line_diff(old, new, "") == ["  b", "- c", "+ C", "  d"]


def test_sim_compare_takes_a_variant_file_anywhere(tmp_path, capsys):
    mine = tmp_path / "generous.rules"
    mine.write_text('variant generous "Generous" extends caylus:\n    description "x"\n'
                    '    replace let start_money = {1: 9, 2: 9, 3: 9, 4: 9, 5: 9}\n')
    assert main(["sim", "caylus", "--games", "2", "--compare", str(mine), "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["compare"]["variant"] == "generous"


# ------------------------------------------------------------------ positions in the file that holds the rule
def test_explain_on_a_variant_game_cites_the_base_file_for_a_base_rule(tmp_path, capsys):
    log = tmp_path / "sf.jsonl"
    assert main(["play", "caylus", "--variant", "simplified_favor", "--seed", "1", "--log", str(log)]) == 0
    capsys.readouterr()
    main(["explain", str(log), "--at", "5", "place:nowhere"])
    out = capsys.readouterr().out
    assert os.path.join(RULESETS, "caylus.rules") + ":" in out
    assert "simplified_favor.rules:" not in out


def test_a_run_time_error_names_the_file_of_the_rule_that_failed(tmp_path, capsys):
    # The variant breaks a let the base's setup indexes: the failing line is the base's.
    mine = tmp_path / "broken.rules"
    mine.write_text('variant broken "Broken" extends caylus:\n    description "x"\n'
                    '    replace let start_money = {1: 9, 2: 9}\n')
    assert main(["play", str(mine), "--seed", "1"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(os.path.join(RULESETS, "caylus.rules") + ":") and "[E100]" in err


def test_g502_names_the_file_of_the_other_tile(tmp_path):
    from provost.dsl.loader import check_file
    mine = tmp_path / "two.rules"
    mine.write_text('variant two "Two" extends caylus:\n    description "x"\n'
                    '    building extra "Extra" neutral:\n        at 1\n        work: nothing\n')
    g502 = [d for d in check_file(str(mine)) if d.code == "G502"]
    assert g502 and all("caylus.rules:" in d.message for d in g502), g502


def test_two_files_for_one_player_count_is_an_error(tmp_path):
    import shutil
    shutil.copy(os.path.join(RULESETS, "caylus.rules"), tmp_path / "caylus.rules")
    for name in ("a", "b"):
        (tmp_path / ("caylus.%s.rules" % name)).write_text(
            'variant %s "%s" extends caylus:\n    description "x"\n    for_players 2\n' % (name, name))
    with pytest.raises(Exception, match="L008|both say they are the rules for 2"):
        load_checked(str(tmp_path / "caylus.rules"), None, players=2)


def test_two_variants_changing_one_step_cannot_compose():
    generous = os.path.join(RULESETS, "examples", "caylus.generous_king.rules")
    with pytest.raises(Exception, match="step income.income: caylus.two_players.rules and "
                                        "caylus.generous_king.rules both change it"):
        load_checked("caylus", "two_players+" + generous)
    assert load_checked("caylus", "simplified_favor+" + generous).variant == "simplified_favor+generous_king"


def _end_of_turn(bailiff: str = "set bailiff += 2 if provost > bailiff else 1") -> str:
    """Caylus's phase end_of_turn replaced whole, its bailiff step as given, with a step added."""
    lines = open(os.path.join(RULESETS, "caylus.rules")).read().split("\n")
    start = lines.index('phase end_of_turn "End of the turn":')
    end = lines.index("final:", start)
    body = [line.replace("set bailiff += 2 if provost > bailiff else 1", bailiff) for line in lines[start + 1:end]
            if line.strip() and not line.startswith("#")]
    return ("variant tidy \"Tidy\" extends caylus:\n    description \"x\"\n"
            '    replace phase end_of_turn "End of the turn":\n'
            + "".join("    " + line + "\n" for line in body)
            + "        step tidy\n        set bailiff += 0\n")


def _outcome(capsys, *argv):
    code = main(["play", "caylus", "--seed", "1", "--format", "json", "--no-log"] + list(argv))
    out = capsys.readouterr()
    return code, out.err if code else [json.loads(out.out)[k] for k in ("scores", "winners", "decisions")]


def test_a_whole_phase_composes_with_a_change_of_a_step_it_left(tmp_path, capsys):
    steady = os.path.join(RULESETS, "examples", "caylus.steady_bailiff.rules")
    tidy = tmp_path / "caylus.tidy.rules"
    tidy.write_text(_end_of_turn())
    one = _outcome(capsys, "--variant", str(tidy), "--variant", steady)
    assert one[0] == 0 and one == _outcome(capsys, "--variant", steady + "+" + str(tidy))
    def end_of_turn(rs):
        return next(d for d in rs.decls if d.get("name") == "end_of_turn")["body"]

    steady_bailiff = end_of_turn(load_checked(steady))[0]
    for rs in (load_checked("caylus", "%s+%s" % (tidy, steady)), load_checked("caylus", "%s+%s" % (steady, tidy))):
        assert [st["name"] for st in end_of_turn(rs)] == ["bailiff", "scoring", "tidy"]
        assert _strip(end_of_turn(rs)[0]) == _strip(steady_bailiff)
        assert rs.file_at(end_of_turn(rs)[0]["body"][0]["pos"]) == steady
        assert rs.file_at(end_of_turn(rs)[2]["body"][0]["pos"]) == str(tidy)
    # the same step changed in the whole phase: an error at the later of the two changes
    tidy = tmp_path / "caylus.tidier.rules"       # a new name: the CLI keeps a shipped game's rules
    tidy.write_text(_end_of_turn("set bailiff += 3"))
    code, err = _outcome(capsys, "--variant", str(tidy), "--variant", steady)
    assert code == 1 and err.startswith("%s:3:5: error: step end_of_turn.bailiff: caylus.tidier.rules and "
                                        "caylus.steady_bailiff.rules both change it; they cannot be composed "
                                        "[L007]\n" % steady), err
    code, err = _outcome(capsys, "--variant", steady + "+" + str(tidy))
    assert code == 1 and err.startswith("%s:4:9: error: step end_of_turn.bailiff: caylus.steady_bailiff.rules and "
                                        "caylus.tidier.rules both change it; they cannot be composed [L007]\n"
                                        % tidy), err


def test_diff_with_players_compares_the_rules_for_that_count(capsys):
    assert main(["diff", "ys", "kings_favor", "--players", "3"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Ys (3 players) (ys) -> Ys (3 players), King's Favor (kings_favor):")
    assert "removes space 'm_blue_1'" not in out          # both sides have the 3-player rules


def test_a_count_the_rules_allow_is_answered_without_reading_the_variants(monkeypatch):
    # Game.new asks at every new game: listing the game's variants (a folder read) costs a
    # random Caylus game 0.9 M instructions, so it is read only to explain a refused count.
    from provost.dsl import loader

    rs = load_checked("caylus")

    def unexpected(path):
        raise AssertionError("variants read for a count the rules allow")
    monkeypatch.setattr(loader, "variants_of", unexpected)
    assert loader.players_out_of_range(rs, 4) is None


def test_a_variant_file_whose_path_holds_a_plus_composes(tmp_path, capsys):
    # Once: `--variant kings_favor --variant /tmp/my+var.rules` (joined as "kings_favor+/tmp/my+var.rules"),
    # `kings_favor+/tmp/my+var.rules` and `provost diff ys kings_favor+/tmp/my+var.rules` looked
    # for the file "/tmp/my" (P005): the '+' of the path was taken for the composition's.
    folder = tmp_path / "a+b"
    folder.mkdir()
    mine = folder / "my+var.rules"
    mine.write_text('variant myvar "Mine" extends ys:\n    description "x"\n'
                    '    replace let bank_start = {blue: 40, green: 40, yellow: 40, red: 40, black: 20, white: 5}\n')
    path = str(mine)
    assert split_variants(path) == [path]
    assert split_variants("kings_favor+" + path) == ["kings_favor", path]
    assert split_variants(path + "+kings_favor") == [path, "kings_favor"]
    assert split_variants(["kings_favor", path]) == ["kings_favor", path]
    assert split_variants("a+b") == ["a", "b"]
    assert load_checked("ys", "kings_favor+" + path).variant == "kings_favor+myvar"
    g = Game.new("ys", players=4, seed=2, variant="kings_favor+" + path)
    g.apply(g.legal_options()[0])
    assert Game.from_json(g.to_json()).s.to_dict() == g.s.to_dict()      # the save names the path
    log = tmp_path / "g.jsonl"
    assert main(["play", "ys", "--variant", "kings_favor", "--variant", path, "--seed", "1",
                 "--agents", "random", "--log", str(log)]) == 0
    assert main(["replay", str(log)]) == 0
    assert main(["check", path]) == 0
    assert main(["play", path, "--players", "3", "--seed", "1", "--agents", "random", "--no-log"]) == 0
    capsys.readouterr()
    assert main(["diff", "ys", "kings_favor+" + path]) == 0
    out = capsys.readouterr().out
    assert "bank start" in out and "King's Favor" in out


def test_a_long_joined_argument_splits_at_once(monkeypatch):
    """A save's or a log's variants are untrusted: a name of 20,000 joined parts costs a few
    stats each (the runs of parts a path with '+' may span are bounded), not 200 million."""
    stats = []
    real = os.path.isfile
    monkeypatch.setattr(os.path, "isfile", lambda p: stats.append(p) or real(p))
    assert split_variants("a+" * 20000 + "b") == ["a"] * 20000 + ["b"]
    assert len(stats) < 20 * 20001
