"""A variant's change of one entry of a table: `replace entry TABLE.KEY:`, `add entry TABLE.KEY
[after KEY | before KEY]:`, `remove entry TABLE.KEY` (as `replace step` and its kin for a phase)."""
from __future__ import annotations

import json
import os
import random
import re

import pytest
from jsonschema import Draft202012Validator

from provost.dsl import schema as S
from provost.dsl.compose import without_positions as _strip
from provost.dsl.fmt import format_text
from provost.dsl.loader import check_file, dump_ir, load_checked, parse_file, shipped_dir
from provost.interpreter.engine import Game
from provost.tools.cli import main
from provost.tools.cli.commands_rulebook import build

RULESETS = shipped_dir()

JEWELLER = ("        repeat 3:\n"
            "            choose \"Jeweller: take a gem\":\n"
            "                option gem(c in colors where bank[c] > 0):\n"
            "                    take_from_bank c\n")
SMUGGLER = "        set spy_peeks = 1\n"

BY_ENTRY = ('variant smuggler "Smuggler" extends ys:\n'
            '    description "x"\n'
            '    replace entry powers.jeweller:\n' + JEWELLER
            + '    add entry powers.smuggler after spy:\n' + SMUGGLER)
# Removing a power the cards still name is an error in play, not in the checker: not played.
WITH_REMOVE = BY_ENTRY + '    remove entry powers.bishop\n'


def _whole_table(jeweller: str | None = JEWELLER, smuggler: str | None = SMUGGLER, drop=()) -> str:
    """Ys's `table powers` as a whole `replace table`, changed as BY_ENTRY changes it entry by entry
    (``jeweller`` None: that entry as the base has it)."""
    lines = open(os.path.join(RULESETS, "ys.rules")).read().split("\n")
    start = lines.index("table powers:")
    end = next(i for i in range(start + 1, len(lines)) if lines[i] and not lines[i].startswith(" "))
    entries, current = [], None
    for line in lines[start + 1:end]:
        m = re.match(r"^    ([a-z_]+):", line)
        if m:
            current = [m.group(1), [line]]
            entries.append(current)
        elif current is not None and line.strip():
            current[1].append(line)
    out = ["    replace table powers:"]
    for key, body in entries:
        if key in drop:
            continue
        if key == "jeweller" and jeweller is not None:
            body = ["    jeweller:"] + jeweller.rstrip("\n").split("\n")
        out.extend("    " + b for b in body)
        if key == "spy" and smuggler is not None:
            out.extend("    " + b for b in ["    smuggler:"] + smuggler.rstrip("\n").split("\n"))
    return "\n".join(out) + "\n"


def _write(tmp_path, text: str, name: str) -> str:
    path = tmp_path / ("ys.%s.rules" % name)
    path.write_text(text)
    return str(path)


def _variant(tmp_path, changes: str, name: str) -> str:
    return _write(tmp_path, 'variant %s "%s" extends ys:\n    description "x"\n' % (name, name.title()) + changes, name)


def test_changed_entries_play_and_equal_the_whole_table_replaced(tmp_path):
    head = 'variant smuggler "Smuggler" extends ys:\n    description "x"\n'
    by_entry = _write(tmp_path, BY_ENTRY, "smuggler")
    assert [d for d in check_file(by_entry) if d.severity == "error"] == []
    a = load_checked(by_entry)
    assert _strip(a.decls) == _strip(load_checked(_write(tmp_path, head + _whole_table(), "whole")).decls)
    removed = load_checked(_write(tmp_path, WITH_REMOVE, "removed")).decls
    assert _strip(removed) == _strip(load_checked(_write(tmp_path, head + _whole_table(drop=("bishop",)), "whole2")).decls)
    powers = next(d for d in removed if d["kind"] == "table" and d["name"] == "powers")
    keys = [e["key"] for e in powers["entries"]]
    assert "bishop" not in keys and keys[keys.index("spy") + 1] == "smuggler"
    g = Game.new(by_entry, players=4, seed=1)
    r = random.Random(1)
    while not g.finished:
        g.apply(r.choice(g.legal_options()))
    assert g.finished


def test_one_power_changed_plays(tmp_path):
    path = _variant(tmp_path, "    replace entry powers.jeweller:\n" + JEWELLER, "rich_jeweller")
    rs = load_checked(path)
    g = Game.new(path, players=4, seed=1)
    r = random.Random(1)
    while not g.finished:
        g.apply(r.choice(g.legal_options()))
    whole = _write(tmp_path, 'variant rich_jeweller "R" extends ys:\n    description "x"\n'
                   + _whole_table(smuggler=None, drop=()), "whole")
    assert _strip(rs.decls) == _strip(load_checked(whole).decls)


def test_add_entry_places_it_at_the_end_or_before_a_key(tmp_path):
    path = _variant(tmp_path, "    add entry powers.smuggler:\n" + SMUGGLER
                    + "    add entry powers.forger before alchemist:\n" + SMUGGLER, "two")
    powers = next(d for d in load_checked(path).decls if d["kind"] == "table" and d["name"] == "powers")
    keys = [e["key"] for e in powers["entries"]]
    assert keys[0] == "forger" and keys[-1] == "smuggler"


def test_an_entry_can_be_a_row_of_a_nested_table(tmp_path):
    path = tmp_path / "caylus.row.rules"
    path.write_text('variant row "Row" extends caylus:\n    description "x"\n'
                    "    replace entry favor_table.row_deniers:\n"
                    + "".join("        %d: gain %d denier\n" % (n, n + 3) for n in range(1, 6)))
    assert [d for d in check_file(str(path)) if d.severity == "error"] == []
    table = next(d for d in load_checked(str(path)).decls if d["name"] == "favor_table")
    row = next(e for e in table["entries"] if e["key"] == "row_deniers")
    assert [e["from"] for e in row["entries"]] == [1, 2, 3, 4, 5]


def test_an_error_in_a_replaced_entry_is_in_the_variant(tmp_path):
    path = _variant(tmp_path, "    replace entry powers.spy:\n        set spy_peks = 3\n", "typo")
    errors = [d for d in check_file(path) if d.severity == "error"]
    assert errors and all(d.path == path and d.line == 4 for d in errors), errors


# ------------------------------------------------------------------ composed on the command line
def test_two_variants_changing_different_entries_compose(tmp_path):
    a = _variant(tmp_path, "    replace entry powers.jeweller:\n" + JEWELLER, "aa")
    b = _variant(tmp_path, "    replace entry powers.spy:\n        set spy_peeks = 5\n"
                 "    remove entry powers.bishop\n", "bb")
    rs = load_checked("ys", a + "+" + b)
    assert rs.variant == "aa+bb"
    powers = {e["key"]: e for e in next(d for d in rs.decls if d["name"] == "powers")["entries"]}
    only_a = {e["key"]: e for e in next(d for d in load_checked(a).decls if d["name"] == "powers")["entries"]}
    assert _strip(powers["jeweller"]) == _strip(only_a["jeweller"])
    assert _strip(powers["spy"]["body"])[0]["value"]["v"] == 5 and "bishop" not in powers
    # each entry's positions are read in the file that wrote it
    assert rs.file_at(powers["jeweller"]["pos"]) == a and rs.file_at(powers["spy"]["pos"]) == b
    assert rs.file_at(powers["captain"]["pos"]).endswith("ys.rules")


def test_two_variants_changing_one_entry_cannot_compose(tmp_path):
    a = _variant(tmp_path, "    replace entry powers.jeweller:\n" + JEWELLER, "aa")
    b = _variant(tmp_path, "    remove entry powers.jeweller\n", "bb")
    with pytest.raises(Exception, match="entry powers.jeweller: ys.aa.rules and ys.bb.rules both change it"):
        load_checked("ys", a + "+" + b)
    with pytest.raises(Exception, match="entry powers.jeweller: ys.bb.rules and ys.aa.rules both change it"):
        load_checked("ys", b + "+" + a)


# ------------------------------------------------------------------ a whole table and one of its entries
OTHER_JEWELLER = "        take_from_bank \"white\"\n"


def _play_json(capsys, *argv):
    assert main(["play", "ys", "--seed", "1", "--format", "json", "--no-log"] + list(argv)) == 0
    out = json.loads(capsys.readouterr().out)
    return out["variant"], [out[k] for k in ("scores", "winners", "decisions")]


def _refused(capsys, *argv) -> str:
    assert main(["play", "ys", "--seed", "1"] + list(argv)) == 1
    return capsys.readouterr().err


def _line_of(path: str, text: str) -> int:
    return open(path).read().split("\n").index(text) + 1


ADDS_SMUGGLER = dict(jeweller=None, smuggler=SMUGGLER)
DROPS_SPY = dict(jeweller=None, smuggler=None, drop=("spy",))


@pytest.mark.parametrize("table, change", [
    (ADDS_SMUGGLER, "    replace entry powers.jeweller:\n" + JEWELLER),
    (DROPS_SPY, "    replace entry powers.jeweller:\n" + JEWELLER),
    (ADDS_SMUGGLER, "    remove entry powers.jeweller\n"),
    (ADDS_SMUGGLER, "    add entry powers.forger after bishop:\n" + SMUGGLER),
    (ADDS_SMUGGLER, "    add entry powers.forger before alchemist:\n" + SMUGGLER),
    (ADDS_SMUGGLER, "    add entry powers.forger:\n" + SMUGGLER),
    # the same change on both sides is made once
    (dict(jeweller=JEWELLER, smuggler=None), "    replace entry powers.jeweller:\n" + JEWELLER),
    (ADDS_SMUGGLER, "    add entry powers.smuggler after spy:\n" + SMUGGLER),
    (dict(jeweller=None, smuggler=None, drop=("jeweller",)), "    remove entry powers.jeweller\n"),
])
def test_a_whole_table_composes_with_a_change_of_an_entry_it_left(tmp_path, capsys, table, change):
    # A replaces the whole table, B changes one entry: what A left as the base has it, B's change
    # of it composes, in either order, to the same rules and the same game.
    a = _write(tmp_path, 'variant aa "A" extends ys:\n    description "x"\n' + _whole_table(**table), "aa")
    b = _variant(tmp_path, change, "bb")
    ab, ba = load_checked("ys", a + "+" + b), load_checked("ys", b + "+" + a)
    powers = [next(d for d in rs.decls if d["name"] == "powers") for rs in (ab, ba)]
    assert _strip(powers[0]) == _strip(powers[1])
    assert [d["name"] for d in ab.decls] == [d["name"] for d in ba.decls]
    # both changes are in: each entry as the variant that changed it has it
    for rs in (ab, ba):
        keys = [e["key"] for e in next(d for d in rs.decls if d["name"] == "powers")["entries"]]
        mine = {e["key"]: e for e in next(d for d in load_checked(b).decls if d["name"] == "powers")["entries"]}
        theirs = {e["key"]: e for e in next(d for d in load_checked(a).decls if d["name"] == "powers")["entries"]}
        assert set(keys) == (set(mine) & set(theirs)) | (set(mine) - set(BASE_POWERS)) | (set(theirs) - set(BASE_POWERS))
        powers_now = {e["key"]: e for e in next(d for d in rs.decls if d["name"] == "powers")["entries"]}
        for k in keys:
            assert _strip(powers_now[k]) in (_strip(mine.get(k)), _strip(theirs.get(k)))
        assert rs.file_at(powers_now["captain"]["pos"]).endswith(("ys.rules", "ys.aa.rules"))
    if "remove" in change or table.get("drop"):
        return                              # the cards still name the power: not played
    first, one = _play_json(capsys, "--variant", a, "--variant", b)
    second, other = _play_json(capsys, "--variant", b + "+" + a)
    assert (first, second) == ("aa+bb", "bb+aa") and one == other


BASE_POWERS = [e["key"] for e in next(d for d in load_checked("ys").decls if d["name"] == "powers")["entries"]]


@pytest.mark.parametrize("table, change", [
    (dict(jeweller=OTHER_JEWELLER, smuggler=None), "    replace entry powers.jeweller:\n" + JEWELLER),
    (dict(jeweller=OTHER_JEWELLER, smuggler=None), "    remove entry powers.jeweller\n"),
    (dict(jeweller=None, smuggler=None, drop=("jeweller",)), "    replace entry powers.jeweller:\n" + JEWELLER),
    (dict(jeweller=None, smuggler=SMUGGLER), "    add entry powers.smuggler:\n        set spy_peeks = 2\n"),
])
def test_a_whole_table_that_changed_the_entry_is_l007_in_either_order(tmp_path, capsys, table, change):
    a = _write(tmp_path, 'variant aa "A" extends ys:\n    description "x"\n' + _whole_table(**table), "aa")
    b = _variant(tmp_path, change, "bb")
    name = "jeweller" if "jeweller" in change else "smuggler"
    # later the entry's change: the error is at it
    err = _refused(capsys, "--variant", a, "--variant", b)
    assert err.startswith("%s:3:5: error: entry powers.%s: ys.aa.rules and ys.bb.rules both change it; they "
                          "cannot be composed [L007]\n" % (b, name)), err
    # later the whole table: at the entry in it, or at the table when it has none
    err = _refused(capsys, "--variant", b + "+" + a)
    line = _line_of(a, "        %s:" % name) if "drop" not in table else 3
    assert err.startswith("%s:%d:%d: error: entry powers.%s: ys.bb.rules and ys.aa.rules both change it; they "
                          "cannot be composed [L007]\n" % (a, line, 9 if "drop" not in table else 5, name)), err


def test_an_entry_added_beside_one_a_whole_table_removes_is_l007(tmp_path, capsys):
    a = _write(tmp_path, 'variant aa "A" extends ys:\n    description "x"\n'
               + _whole_table(jeweller=None, smuggler=None, drop=("spy",)), "aa")
    b = _variant(tmp_path, "    add entry powers.smuggler after spy:\n" + SMUGGLER, "bb")
    err = _refused(capsys, "--variant", a + "+" + b)
    assert err.startswith("%s:3:5: error: entry powers.smuggler: ys.bb.rules adds it after entry spy, which "
                          "ys.aa.rules removes; they cannot be composed [L007]\n" % b), err
    err = _refused(capsys, "--variant", b + "+" + a)
    assert err.startswith("%s:3:5: error: entry powers.smuggler: ys.bb.rules adds it after entry spy, which "
                          "ys.aa.rules removes; they cannot be composed [L007]\n" % a), err


def test_check_reports_the_conflict_of_a_variant_composed_with_another(tmp_path, capsys):
    # `extends aa with bb` composes as --variant aa --variant bb does: `provost check` shows where.
    _write(tmp_path, 'variant aa "A" extends ys:\n    description "x"\n'
           + _whole_table(jeweller=OTHER_JEWELLER, smuggler=None), "aa")
    b = _variant(tmp_path, "    replace entry powers.jeweller:\n" + JEWELLER, "bb")
    both = _write(tmp_path, 'variant both "Both" extends "ys.aa.rules" with "ys.bb.rules":\n    description "x"\n', "both")
    assert main(["check", both]) == 1
    out = capsys.readouterr().out
    assert ("%s:3:5: error: entry powers.jeweller: ys.aa.rules and ys.bb.rules both change it; they cannot be "
            "composed [L007]" % b) in out, out
    _write(tmp_path, 'variant aa "A" extends ys:\n    description "x"\n' + _whole_table(**ADDS_SMUGGLER), "aa")
    assert main(["check", both]) == 0, capsys.readouterr().out


# ------------------------------------------------------------------ diff, rulebook, schema, fmt
def test_diff_and_rulebook_describe_each_entry(tmp_path, capsys):
    path = _write(tmp_path, WITH_REMOVE, "smuggler")
    assert main(["diff", "ys", path]) == 0
    out = capsys.readouterr().out
    assert "~ changes entry 'jeweller' of table powers:" in out
    assert "    -   2 times:" in out and "    +   3 times:" in out
    assert "+ adds entry 'smuggler' of table powers after entry 'spy':" in out
    assert "- removes entry 'bishop' of table powers" in out
    book = build(path, None, "md")
    assert "~ changes entry 'jeweller' of table powers:" in book
    assert "+ adds entry 'smuggler' of table powers after entry 'spy':" in book


def test_the_schema_accepts_the_changes_and_the_ir_round_trips(tmp_path):
    path = _write(tmp_path, WITH_REMOVE.replace("after spy", "before spy"), "smuggler")
    ir, diags = parse_file(path)
    assert diags == []
    ops = [ch["op"] for ch in ir["decls"][0]["changes"]]
    assert ops == ["replace_entry", "add_entry", "remove_entry"]
    assert S.is_valid(ir) and not list(Draft202012Validator(S.schema_document()).iter_errors(ir))
    bad = json.loads(json.dumps(ir))
    del bad["decls"][0]["changes"][0]["entry"]
    assert not S.is_valid(bad)
    as_json = tmp_path / "ys.smuggler_ir.json"
    as_json.write_text(dump_ir(ir, "json"))
    again, diags = parse_file(str(as_json))
    assert diags == [] and again == ir
    assert _strip(load_checked(str(as_json)).decls) == _strip(load_checked(path).decls)


def test_fmt_round_trips_the_syntax(tmp_path):
    messy = WITH_REMOVE.replace("powers.jeweller:", "powers . jeweller :").replace(
        "after spy:", "after  spy :").replace("powers.bishop", "powers .bishop")
    assert format_text(messy) == WITH_REMOVE
    a, b = _write(tmp_path, messy, "messy"), _write(tmp_path, format_text(messy), "tidy")
    ia, ib = parse_file(a)[0], parse_file(b)[0]
    assert _strip(ia) == _strip(ib)


def test_the_editor_offers_the_words_and_names(tmp_path):
    from provost.tools.lsp import analysis as A
    path = _write(tmp_path, WITH_REMOVE, "smuggler")

    def labels(extra):
        text = WITH_REMOVE + extra + "\n"
        line = len(text.split("\n")) - 2
        return {label for label, _kind, _detail in A.completions(path, {path: text}, line, len(extra))}

    assert {"entry", "step"} <= labels("    add ") and {"entry", "step", "building"} <= labels("    replace ")
    assert {"entry", "step"} <= labels("    remove ")
    assert "powers" in labels("    replace entry ") and "powers" in labels("    remove entry ")
    assert {"jeweller", "smuggler", "spy"} <= labels("    replace entry powers.")
    assert "bishop" not in labels("    remove entry powers.") and "alchemist" in labels("    remove entry powers.")
    assert {"placement", "setup"} <= labels("    replace step ")
