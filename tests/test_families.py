"""Declaration families: `for NAMES in VALUES:` declares one space (or tile, or anything) per
value, `{name}` in names, tags and strings replaced by the value.  Ys declares its 12 city areas
and 12 market squares this way."""
from __future__ import annotations

import json

import pytest

from cli_run import run_cli
from provost.dsl.loader import check_file, load_checked, parse_file

HEAD = '''game g "G":
    players 2..2
    score pp
    max_rounds 1
    rounds main
resource pp "points"
order turn_order
phase main:
    each player in turn_order:
        gain 1 pp
'''


def _parse(tmp_path, text):
    path = tmp_path / "g.rules"
    path.write_text(HEAD + text)
    ir, diags = parse_file(str(path))
    return ir, [d.format_text() for d in diags], str(path)


def test_a_family_declares_one_space_per_value(tmp_path):
    ir, diags, _ = _parse(tmp_path, '''for n in 1..2:
    for area, what in [[port, "port"], [commerce, "commercial"]]:
        space n{n}_{area} "Neighborhood {n}, {what} area" city n{n} {what}_area:
            placeable no
''')
    assert diags == []
    spaces = [d for d in ir["decls"] if d["kind"] == "space"]
    assert [(d["name"], d["title"], d["tags"]) for d in spaces] == [
        ("n1_port", "Neighborhood 1, port area", ["city", "n1", "port_area"]),
        ("n1_commerce", "Neighborhood 1, commercial area", ["city", "n1", "commercial_area"]),
        ("n2_port", "Neighborhood 2, port area", ["city", "n2", "port_area"]),
        ("n2_commerce", "Neighborhood 2, commercial area", ["city", "n2", "commercial_area"]),
    ]
    assert all(d["pos"][0] == 13 and d["placeable"] is False for d in spaces)   # the line that generated them


def test_a_family_of_buildings(tmp_path):
    ir, diags, _ = _parse(tmp_path, '''category wood "wood building":
    workable yes
for k, n in [[farm, 2], [mill, 3]]:
    building wood_{k} "Wooden {k}" wood:
        prestige 1
        work: gain 1 pp
''')
    assert diags == []
    assert [(d["name"], d["title"]) for d in ir["decls"] if d["kind"] == "building"] == [
        ("wood_farm", "Wooden farm"), ("wood_mill", "Wooden mill")]


def test_diagnostics_on_a_generated_declaration_point_at_its_line(tmp_path):
    path = tmp_path / "g.rules"
    path.write_text(HEAD + '''for n in 1..2:
    space s{n} "Space {n}":
        placeable no
        work: gain 1 wood
''')
    diags = [d.format_text() for d in check_file(str(path)) if d.severity == "error"]
    assert diags and all(d.startswith(str(path) + ":14:") for d in diags), diags
    assert len([d for d in diags if "undefined resource 'wood'" in d]) == 1    # one line, said once


@pytest.mark.parametrize("text, message", [
    ('space s{n} "S":\n    placeable no\n', "'s{n}' has a placeholder but no 'for' family gives it a value"),
    ('for n in 1..2:\n    space s{m} "S":\n        placeable no\n', "'{m}' is not a name of the family"),
    ('for a, b in [[x, 1], [y]]:\n    space s{a} "S":\n        placeable no\n', "each value of 'for a, b in ...' is a list of 2"),
    ('for n in [count(x)]:\n    space s{n} "S":\n        placeable no\n', "a family's values are written out"),
    ('for n in ["a b"]:\n    space s_{n} "S":\n        placeable no\n', "'s_{n}' gives 's_a b', which is not a name"),
])
def test_a_family_that_cannot_be_expanded(tmp_path, text, message):
    _, diags, path = _parse(tmp_path, text)
    assert any(message in d and "[D009]" in d for d in diags), diags


def test_a_family_twice_is_a_duplicate_at_its_line(tmp_path):
    path = tmp_path / "g.rules"
    path.write_text(HEAD + 'for n in [1, 1]:\n    space s{n} "S":\n        placeable no\n')
    diags = [d.format_text() for d in check_file(str(path)) if d.severity == "error"]
    assert any(":12:5: error: 's1' is already declared as a space at line 12 [N101]" in d for d in diags), diags


def test_a_variant_can_add_a_family(tmp_path):
    path = tmp_path / "ys.more.rules"
    path.write_text('variant more "More" extends ys:\n'
                    '    for line in [0]:\n'
                    '        for color in [blue, green]:\n'
                    '            space m_{color}_{line} "Market, {color} column, line {line}" market col_{color} line{line}:\n'
                    '                placeable no\n')
    from provost.dsl.loader import load
    rs, diags = load(str(path))
    assert rs is not None, [d.format_text() for d in diags]
    assert [d["name"] for d in rs.decls if d["kind"] == "space"][-2:] == ["m_blue_0", "m_green_0"]


def test_ys_declares_city_and_market_once_each():
    from provost.dsl.loader import resolve_path
    text = open(resolve_path("ys")).read()
    assert text.count("space n{n}_{area}") == 1 and text.count("space m_{color}_{line}") == 1
    rs = load_checked("ys")
    spaces = {d["name"]: d for d in rs.decls if d["kind"] == "space"}
    city = [n for n, d in spaces.items() if "city" in d["tags"]]
    market = [n for n, d in spaces.items() if "market" in d["tags"]]
    assert city == ["n%d_%s" % (n, a) for n in range(1, 5) for a in ("port", "commerce", "palace")]
    assert market == ["m_%s_%d" % (c, n) for n in range(1, 4) for c in ("blue", "green", "yellow", "red")]
    assert spaces["n3_commerce"]["title"] == "Neighborhood 3, commercial area"
    assert spaces["n3_commerce"]["tags"] == ["city", "n3", "commercial_area"]
    assert spaces["m_yellow_2"]["title"] == "Market, yellow column, line 2"
    assert spaces["m_yellow_2"]["tags"] == ["market", "col_yellow", "line2"]


def test_export_shows_the_expanded_declarations(capsys):
    code, out, _ = run_cli(capsys, "export", "ys", "--format", "json")
    names = [d["name"] for d in json.loads(out)["decls"] if d["kind"] == "space"]
    assert code == 0 and "n4_palace" in names and "m_red_3" in names and not any("{" in n for n in names)
