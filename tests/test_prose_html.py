"""Prose that keeps the meaning, rulebook sentences, and valid HTML (html5lib, strict)."""
from __future__ import annotations

import pytest

from provost.dsl.declarations import build_ir
from provost.dsl.parser import parse_text
from provost.dsl.prose import Prose, singular
from provost.dsl.to_ir import tree_to_raw
from provost.tools.cli.commands_rulebook import build


def _english(expr: str) -> str:
    tree, diags = parse_text("let x = %s\n" % expr, "t.rules")
    assert tree is not None, diags
    ir, _ = build_ir(tree_to_raw(tree), "t.rules")
    return Prose().expr(ir["decls"][0]["value"])


@pytest.mark.parametrize("expr, words", [
    ("f() * (5 if m else 3)", "f() × (5 if m, otherwise 3)"),
    ("(a + b) * c", "(a + b) × c"),
    ("a + b * c", "a + b × c"),
    ("a - (b - c)", "a - (b - c)"),
    ("a - b - c", "a - b - c"),
    ("(1 if a else 2) + 3", "(1 if a, otherwise 2) + 3"),
    ("not (a and b) or c", "not (a and b) or c"),
    ("(a or b) and c", "(a or b) and c"),
    ("-(a + b)", "-(a + b)"),
])
def test_the_english_keeps_every_operand_and_its_grouping(expr, words):
    assert _english(expr) == words


def test_one_of_a_resource_is_singular():
    assert singular("deniers") == "denier" and singular("prestige points") == "prestige point"
    assert singular("glass") == "glass"
    tree, _ = parse_text('resource denier "deniers"\nlet x = 1\n', "t.rules")
    ir, _ = build_ir(tree_to_raw(tree), "t.rules")
    p = Prose(ir["decls"])
    assert p.expr({"e": "amount", "n": {"e": "int", "v": 1}, "what": "denier"}) == "1 denier"
    assert p.expr({"e": "amount", "n": {"e": "int", "v": 2}, "what": "denier"}) == "2 deniers"


def test_the_favor_table_is_a_grid_and_a_choice_is_a_sentence():
    md = build("caylus", None, "md")
    assert "| | 1 | 2 | 3 | 4 | 5 |" in md
    assert "| **row deniers** | 3 deniers | 4 deniers | 5 deniers | 6 deniers | 7 deniers |" in md
    assert "| Farm | - | 0 | Gain 1 food or 1 cloth (your choice) |" in md
    assert ":;" not in md and "gains 1 deniers" not in md


def _content_model_errors(doc) -> list[str]:
    """What html5lib's parser accepts but HTML forbids, for the elements a rulebook uses."""
    problems = []
    allowed = {"ul": {"li"}, "ol": {"li"}, "table": {"thead", "tbody", "tr", "caption", "colgroup"},
               "tr": {"td", "th"}, "thead": {"tr"}, "tbody": {"tr"}}
    for el in doc.iter():
        tag = el.tag.rsplit("}", 1)[-1] if isinstance(el.tag, str) else None
        if tag in allowed:
            for child in el:
                ctag = child.tag.rsplit("}", 1)[-1]
                if ctag not in allowed[tag]:
                    problems.append("<%s> directly inside <%s>" % (ctag, tag))
    return problems


@pytest.mark.parametrize("ruleset, variant", [("caylus", None), ("ys", None), ("caylus1303", None),
                                              ("caylus", "simplified_favor")])
def test_the_html_rulebook_is_valid(ruleset, variant):
    html5lib = pytest.importorskip("html5lib")
    page = build(ruleset, variant, "html")
    parser = html5lib.HTMLParser(strict=True)          # raises on any parse error
    doc = parser.parse(page)
    assert _content_model_errors(doc) == []
    assert page.startswith("<!DOCTYPE html>")


@pytest.mark.parametrize("ruleset", ["caylus", "caylus1303", "ys"])
def test_every_shipped_expression_keeps_its_grouping_in_english(ruleset):
    from provost.dsl.loader import load_checked
    from provost.dsl.prose import _PREC, _prec
    rs = load_checked(ruleset)
    prose = Prose(rs.decls)
    checked = 0
    stack = list(rs.decls)
    while stack:
        x = stack.pop()
        if isinstance(x, list):
            stack.extend(x)
            continue
        if not isinstance(x, dict):
            continue
        stack.extend(x.values())
        if x.get("e") != "binop":
            continue
        words = prose.expr(x)
        strength = _PREC.get(x["op"], 4)
        for side, needed in ((x["left"], strength), (x["right"], strength + 1)):
            inner = prose.expr(side)
            assert inner in words                       # every operand is named
            if _prec(side) < needed:
                assert "(%s)" % inner in words          # and a looser one is grouped
            checked += 1
    assert checked > 50
