"""What an author of a variant of Caylus 1303 or Ys reads back from provost: the diff of a changed
table, the variants listing of their own file, ..."""
from __future__ import annotations

import pytest

from cli_run import run_cli

# Ys's table of character powers with the Jeweller taking three gems and a new character.
POWERS = '''variant jewels "Jewels" extends ys:
    description "The Jeweller takes three gems."
    replace table powers:
        bishop: set bishop_on = 1
        jeweller:
            repeat 3:
                choose "Jeweller: take a gem":
                    option gem(c in colors where bank[c] > 0):
                        take_from_bank c
'''


def test_diff_of_a_changed_table_says_which_entries_changed(capsys, tmp_path):
    f = tmp_path / "ys.jewels.rules"
    f.write_text(POWERS, encoding="utf-8")
    code, out, err = run_cli(capsys, "diff", "ys", str(f))
    assert code == 0, err
    changed = out.split("~ changes table 'powers':\n", 1)[1]
    assert "    - table powers (13 entries):\n" in changed and "    + table powers (2 entries):\n" in changed
    assert "    -     2 times:\n    +     3 times:\n" in changed           # the Jeweller's entry, line by line
    assert "    -   spy:\n" in changed and "    -   queen:\n" in changed     # the entries it dropped


# A house rule of Ys for two or three players: played on the game's rules for that count.
HOUSE = '''variant lively "Lively market" extends ys:
    description "For 2 or 3: the columns move the quotations further."
    replace game ys "Ys, lively":
        players 2..3
        score vp
        max_rounds 4
        rounds reveal, bidding, placement, counting
    replace let quotation_moves = [3, 1, -1, -3]
'''


def _house(tmp_path):
    f = tmp_path / "ys.lively.rules"
    f.write_text(HOUSE, encoding="utf-8")
    return str(f)


@pytest.mark.parametrize("players", [2, 3])
def test_the_log_of_a_variant_file_played_for_a_count_replays(capsys, tmp_path, players):
    f, log = _house(tmp_path), str(tmp_path / "g.jsonl")
    code, _, err = run_cli(capsys, "play", f, "--players", str(players), "--seed", "1", "--log", log)
    assert code == 0, err
    code, out, err = run_cli(capsys, "replay", log)
    assert code == 0 and "identical result" in out, err


def test_a_variant_file_on_the_rules_for_its_count_resumes(tmp_path):
    from provost.interpreter.engine import Game
    f = _house(tmp_path)
    for players in (None, 2):
        g = Game.new(f, players=players, seed=1)
        assert "lively" in g.rs.variant and g.rs.variant != "lively"     # three_players+lively, ...
        for _ in range(30):
            g.apply(g.legal_options()[-1])
        back = Game.from_json(g.to_json())
        assert back.to_json() == g.to_json() and back.legal_options() == g.legal_options()


def test_the_web_table_starts_a_variant_file_for_each_count_it_offers(tmp_path):
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    from starlette.testclient import TestClient

    from provost.tools.cli.commands_web import _offered
    from provost.tools.web.app import create_app
    f = _house(tmp_path)
    offered = _offered(f)
    assert offered[0]["players"] == [2, 3]
    c = TestClient(create_app(offered, {}, str(tmp_path / "saves")), raise_server_exceptions=False)
    for players in (2, 3):
        r = c.post("/api/games", json={"ruleset": offered[0]["ruleset"], "players": players,
                                       "agents": ["human", "random"], "seed": 1})
        assert r.status_code == 200, r.text
        url = "/api" + r.json()["seats"][0]["url"]
        state = c.get(url).json()
        assert state["your_turn"] or state["bot_to_move"]
        if state["your_turn"]:
            move = c.post(url + "/move", json={"option": state["view"]["options"][0]["id"], "n": state["decisions"]})
            assert move.status_code == 200, move.text


@pytest.mark.parametrize("count", [[], ["--players", "3"]])
def test_the_rulebook_of_a_variant_file_is_of_the_rules_play_plays(capsys, tmp_path, count):
    """Without --players, play plays a variant of Ys for 2 or 3 on the 3-player rules: the rulebook
    describes those, and says what the file changes in them."""
    f = _house(tmp_path)
    code, out, err = run_cli(capsys, "rulebook", f, *count)
    assert code == 0, err
    assert out.startswith("# Ys (3 players), Lively market\n") and "For 3 players." in out
    assert "- port takes is 2, 1, 0\n" in out                          # the 3-player rules' ports
    changes = out.split("## What this variant changes", 1)[1].split("```")[1]
    assert "Lively market (lively) changes ys:" in changes and "+ quotation moves is 3, 1, -1, -3" in changes


def test_variants_of_an_authors_file_lists_it_with_its_description(capsys, tmp_path):
    f = _house(tmp_path)
    code, out, err = run_cli(capsys, "variants", f)
    assert code == 0, err
    rows = out.splitlines()
    assert rows[1].split()[:2] == ["ys", "(base)"] and "three_players (--players 3)" in out
    assert rows[-1].split()[:4] == ["lively", "(this", "file)", "Lively"]
    assert rows[-1].endswith("For 2 or 3: the columns move the quotations further.")


def test_a_count_no_rules_exist_for_is_not_told_to_use_the_flag_it_used(capsys, tmp_path):
    """A house rule that allows Ys for 2 to 6: --players 5 has no rules to load; the message said
    to load it with --players 5, which the user had just done."""
    f = tmp_path / "ys.wide.rules"
    f.write_text(HOUSE.replace("players 2..3", "players 2..6").replace("lively", "wide"), encoding="utf-8")
    code, _, err = run_cli(capsys, "play", str(f), "--players", "5", "--no-log")
    assert code != 0 and "--players 5" not in err
    assert "the game has no rules for 5 players (its own are for 4 players; its variants give them for 2, 3)" in err
    assert "'for_players 5'" in err


def test_an_edited_variant_file_is_read_again_by_the_next_game(tmp_path):
    """A server or a script loads rules once per name; a variant file the author edits meanwhile
    is a path, and the next game plays the edit."""
    from provost.interpreter.gamelog import load_rules

    f = tmp_path / "ys.jewels.rules"
    f.write_text(POWERS, encoding="utf-8")
    assert "3 times" in _powers_text(load_rules("ys", str(f)))
    f.write_text(POWERS.replace("repeat 3:", "repeat 4:"), encoding="utf-8")
    assert "4 times" in _powers_text(load_rules("ys", str(f)))


def _powers_text(rs) -> str:
    from provost.dsl.prose import Prose

    table = next(d for d in rs.decls if d["kind"] == "table" and d["name"] == "powers")
    return "\n".join(Prose(rs.decls).entries(table["entries"]))


# A variant with mistakes: the diff must not describe a change to a rule the base does not have.
MISTAKEN = '''variant mistaken "Mistaken" extends caylus:
    description "Typos."
    replace let start_mony = {1: 5}
    remove space joust_feld
'''


def test_diff_of_a_variant_with_errors_reports_them_instead_of_describing_them(capsys, tmp_path):
    f = tmp_path / "caylus.mistaken.rules"
    f.write_text(MISTAKEN, encoding="utf-8")
    for argv in (("caylus", str(f)), (str(f), "caylus")):
        code, out, err = run_cli(capsys, "diff", *argv)
        assert code == 1, out
        assert out == ""
        assert "caylus.mistaken.rules:3:5: error: cannot replace let 'start_mony'" in err
        assert "caylus.mistaken.rules:4:5: error: cannot remove space 'joust_feld'" in err


def test_diff_prints_a_path_with_control_characters_escaped(capsys, tmp_path):
    f = tmp_path / "caylus.odd\x1b[2J.rules"
    f.write_text('variant odd "Odd" extends caylus:\n    replace let start_money = {1: 9, 2: 9, 3: 9, 4: 9, 5: 9}\n',
                 encoding="utf-8")
    other = tmp_path / "caylus.other.rules"
    other.write_text('variant other "Other" extends caylus:\n    replace let start_money = {1: 1, 2: 1, 3: 1, 4: 1, 5: 1}\n',
                     encoding="utf-8")
    for argv in (("caylus", str(f)), (str(f), "caylus"), (str(other), str(f))):
        code, out, err = run_cli(capsys, "diff", *argv)
        assert code == 0, err
        assert "\x1b" not in out + err
        assert argv[0] == "caylus" or "odd\\x1b[2J.rules" in out + err     # the path, escaped



def test_diff_keeps_a_line_break_of_a_rule_string_indented(capsys, tmp_path):
    f = tmp_path / "caylus.odd.rules"
    f.write_text('variant odd "Odd\\nprovost: error: fake" extends caylus:\n'
                 '    description "first\\nprovost: error: fake too"\n'
                 '    replace space trading_post "Trading\\nprovost: error: post" special:\n'
                 '        slots 1\n'
                 '        work: gain 3 denier\n', encoding="utf-8")
    for argv in (("caylus", str(f)), (str(f), "caylus")):
        code, out, err = run_cli(capsys, "diff", *argv)
        assert code == 0, err
        assert "provost: error: post" in out and (argv[0] != "caylus" or "provost: error: fake too" in out)
        assert not any(line.startswith("provost:") for line in out.splitlines()), out


def test_a_variant_name_two_files_beside_the_game_declare_is_refused_not_picked(capsys, tmp_path, monkeypatch):
    """A copy of a variant file to try something, before it is renamed: `--variant rich` could mean
    either file, and provost used to play the first alphabetically without a word."""
    from provost.dsl.loader import shipped_dir
    monkeypatch.chdir(tmp_path)
    (tmp_path / "farm.rules").write_text(open(shipped_dir() + "/caylus.rules", encoding="utf-8").read(),
                                         encoding="utf-8")
    rich = ('variant rich "Richer start" extends farm:\n'
            '    replace let start_money = {1: 5, 2: 6, 3: 6, 4: %d, 5: 8}\n')
    (tmp_path / "farm.rich.rules").write_text(rich % 8, encoding="utf-8")
    (tmp_path / "farm.rich_try.rules").write_text(rich % 9, encoding="utf-8")
    args = ["farm.rules", "--seed", "1", "--agents", "random,random,random,random", "--no-log"]
    code, out, err = run_cli(capsys, "play", *args, "--variant", "rich")
    assert code == 2
    assert "variant 'rich' is declared by 2 files:" in err and "--variant farm.rich_try.rules" in err
    code, out, err = run_cli(capsys, "play", *args, "--variant", "farm.rich_try.rules")
    assert code == 0, err                               # named by its path: that file
    (tmp_path / "farm.rich_try.rules").unlink()
    code, out, err = run_cli(capsys, "play", *args, "--variant", "rich")
    assert code == 0, err


def test_a_declaration_removed_twice_says_so_not_that_the_base_lacks_it(capsys, tmp_path):
    f = tmp_path / "caylus.nogate.rules"
    f.write_text('variant nogate "No gate" extends caylus:\n    remove space gate\n    remove space gate\n',
                 encoding="utf-8")
    code, out, err = run_cli(capsys, "check", str(f))
    assert code == 1
    assert "caylus.nogate.rules:3:5: error: space 'gate' is removed already, at line 2 [L004]" in out
    assert "the base has none" not in out


# A table of start money with a string among its numbers: the base reads it as an amount.
MIXED_MONEY = '''variant mixed "Mixed money" extends caylus:
    replace let start_money = {1: 5, 2: 6, 3: "six", 4: 7, 5: 7}
'''


@pytest.mark.parametrize("command", [("check",), ("play", "caylus", "--seed", "1", "--no-log", "--variant")])
def test_a_name_among_a_tables_numbers_is_an_error_in_the_variant_not_in_play(capsys, tmp_path, command):
    f = tmp_path / "caylus.mixed.rules"
    f.write_text(MIXED_MONEY, encoding="utf-8")
    code, out, err = run_cli(capsys, *command, str(f))
    assert code == 1, err
    assert "caylus.mixed.rules:2:47: error: a name in a dictionary of numbers" in out + err
    assert "caylus.rules" not in out + err and "Traceback" not in err      # not the base's line at play


@pytest.mark.parametrize("name", ["house.txt", "house.rule"])
def test_a_variant_file_of_another_suffix_is_said_to_be_no_variant_file(capsys, tmp_path, monkeypatch, name):
    """A file beside the player named with another suffix is read neither as a variant's name nor
    as a file (no save or log could name it): the error says what a variant file is named by."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / name).write_text(MIXED_MONEY.replace('3: "six"', "3: 6"), encoding="utf-8")
    code, out, err = run_cli(capsys, "play", "caylus", "--variant", name, "--seed", "1", "--no-log")
    assert code == 2, out
    assert ("variant '%s' is no variant of caylus (variants: first_edition, one_architect, simplified_favor, "
            "two_players) and no variant file: a variant file is named by a path ending in .rules" % name) in err
