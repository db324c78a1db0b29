"""A diagnostic about one field of a declaration points at that field's value.

A building author who writes `prestige -3` four lines below the building's head was told
`2:5` (the head) for it; a category misspelt in the head, an `at` beyond the road, a counter's
`start` above its `max` were reported at the head too.  The IR now keeps, per declaration,
where each value written on a line of its own or as a head word is (`attr_pos`), and the checks
about one field point there.  The rules' digest leaves `attr_pos` out, so saves and logs of the
shipped games name the same rules as before.
"""
from __future__ import annotations

import json

import pytest

from provost.dsl import loader, prebuilt
from provost.dsl.compose import merge_decl, without_positions

BUILDING = '''variant brewery "Brewery" extends caylus:
    building brewery "Brewery" {category}:
        cost 1 wood, 1 food
        prestige {prestige}
        at {at}
        work:
            gain 4 denier, 1 pp
'''


def found(path) -> list[tuple[str, int, int]]:
    return [(d.code, d.line, d.col) for d in loader.check_file(str(path)) if d.severity == "error"]


def write(tmp_path, text, name="brewery.rules"):
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.mark.parametrize("fields, expected", [
    ({"category": "wood", "prestige": "-3", "at": "9"}, ("R303", 4, 18)),     # the value, not the head
    ({"category": "wod", "prestige": "3", "at": "9"}, ("T207", 2, 32)),       # the head word
    ({"category": "wood", "prestige": "3", "at": "99"}, ("R305", 5, 12)),     # beyond the road
], ids=["prestige", "category", "at"])
def test_a_building_fields_mistake_is_reported_at_the_field(tmp_path, fields, expected):
    assert found(write(tmp_path, BUILDING.format(**fields))) == [expected]


def test_a_counters_start_above_its_max_is_reported_at_the_start(tmp_path):
    path = write(tmp_path, 'variant v "V" extends caylus:\n'
                           '    counter tokens per player start 9 max 5\n')
    assert found(path) == [("R302", 2, 37)]


def test_the_digest_leaves_the_positions_of_values_out():
    rs = loader.load_checked("caylus")
    assert any("attr_pos" in d for d in rs.decls)
    assert loader.digest_of(rs.decls) == loader.digest_of(
        [{k: v for k, v in d.items() if k != "attr_pos"} for d in rs.decls])
    # ... and the digest without positions strips them as it strips every position
    assert all("attr_pos" not in without_positions(d) for d in rs.decls)


def test_a_value_moved_on_its_line_is_checked_again(tmp_path, monkeypatch):
    """Only where a value is written changed: same digest, but the checks' cache must not give
    back the diagnostic at the old column (a warning, which the cache keeps)."""
    monkeypatch.setattr(prebuilt, "_reading", False)
    monkeypatch.setenv("PROVOST_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("PROVOST_NO_CACHE", raising=False)
    text = open("tests/graph_corpus/g510_token_beyond.rules").read()
    assert "max 10\n" in text
    path = write(tmp_path, text, "g.rules")

    def g510():
        return [(d.line, d.col) for d in loader.check_file(str(path)) if d.code == "G510"]

    first = g510()
    assert first == g510() == [(9, 42)]
    assert list((tmp_path / "cache").iterdir()), "the clean result was kept"
    path.write_text(text.replace("max 10\n", "max   10\n"))
    assert g510() == [(9, 44)]


def test_a_merged_declaration_keeps_the_positions_of_the_values_it_took_from_the_file_reported(tmp_path):
    """Two variants replacing the same building compose field by field; the merged building is
    reported in the later one's file, so only the values taken from that file keep their own
    positions (a value the earlier file wrote points at the declaration)."""
    def built(text, name):
        ir, diags = loader.parse_file(str(write(tmp_path, text, name)))
        assert not diags
        return ir["decls"][0]["changes"][0]["decl"]

    ancestor = next(d for d in loader.load_checked("caylus").decls if d.get("name") == "wood_peddler")
    current = built('variant a "A" extends caylus:\n'
                    '    replace building wood_peddler "Peddler" wood:\n'
                    '        cost 1 wood, 1 any_cube\n'
                    '        prestige 5\n', "a.rules")
    theirs = built('variant b "B" extends caylus:\n'
                   '\n'
                   '    replace building wood_peddler "Peddler" wood:\n'
                   '        cost 1 wood, 1 any_cube\n'
                   '        prestige 4\n'
                   '        count 2\n', "b.rules")
    assert current["attr_pos"]["prestige"][:2] == [4, 18]
    merged, conflicts = merge_decl(ancestor, current, theirs, "B")
    assert conflicts == []
    assert merged["prestige"] == 5 and merged["count"] == 2
    assert merged["attr_pos"]["count"][:2] == [6, 15]        # B wrote it: B's position
    assert "prestige" not in merged["attr_pos"]                # A wrote it: the declaration's head
    assert merged["pos"] == theirs["pos"]


def test_an_ir_file_without_positions_of_values_still_checks(tmp_path, capsys):
    from provost.tools.cli import main
    assert main(["export", "caylus", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    for d in doc["decls"]:
        d.pop("attr_pos", None)
    hut = next(d for d in doc["decls"] if d["kind"] == "building")
    hut["prestige"] = -1
    path = tmp_path / "ir.json"
    path.write_text(json.dumps(doc))
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    line, col = hut["pos"][:2]
    assert ":%d:%d: error: prestige of building '%s' is -1" % (line, col, hut["name"]) in out
