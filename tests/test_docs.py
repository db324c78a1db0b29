"""dsl/README.md: the generated sections are current, every `rules` example parses, and an example
from a shipped file is what the file says (a variant written for the reference checks clean)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from provost.dsl.declarations import build_ir
from provost.dsl.loader import check_file
from provost.dsl.parser import parse_text
from provost.dsl.to_ir import tree_to_raw
from provost.tools.dev import gen_docs

README = Path(__file__).resolve().parent.parent / "dsl" / "README.md"
RULESETS = README.parent.parent / "rulesets"
EXAMPLES = re.findall(r"```rules\n(.*?)```", README.read_text(encoding="utf-8"), re.DOTALL)


def test_generated_sections_are_current():
    text = README.read_text(encoding="utf-8")
    assert gen_docs.render(text) == text, "dsl/README.md is out of date: run 'python -m provost.tools.dev.gen_docs'"


def test_there_are_examples():
    assert len(EXAMPLES) >= 15


@pytest.mark.parametrize("n", range(len(EXAMPLES)))
def test_example_parses_and_builds(n):
    text = EXAMPLES[n]
    tree, diags = parse_text(text, "README example %d" % (n + 1))
    assert diags == [] and tree is not None
    ir, diags = build_ir(tree_to_raw(tree), "README example")
    assert diags == [] and ir["decls"]


def test_every_code_and_primitive_is_documented():
    from provost.dsl import primitives as P
    from provost.dsl.diagnostics import CODES
    text = README.read_text(encoding="utf-8")
    gen_docs.import_code_modules()
    for code in CODES:
        assert "| %s |" % code in text, code
    for name in list(P.EFFECTS) + list(P.FUNCTIONS):
        assert "| `%s` |" % name in text, name


def _shipped_lines() -> set[str]:
    return {ln.strip() for path in RULESETS.glob("*.rules") for ln in path.read_text(encoding="utf-8").splitlines()}


@pytest.mark.parametrize("n", range(len(EXAMPLES)))
def test_example_is_shipped_rules_or_a_variant_that_checks(n, tmp_path):
    """The reference quotes the shipped games ("examples come from the shipped rule files"): a
    quoted line that is in no shipped file has drifted from them.  The one kind of example of its
    own, a variant file, must check clean against the shipped game it extends."""
    lines = [ln.strip() for ln in EXAMPLES[n].splitlines() if ln.strip() and not ln.strip().startswith("#")]
    missing = [ln for ln in lines if ln not in _shipped_lines()]
    if not missing:
        return
    assert lines[0].startswith("variant "), "example %d: lines in no shipped rule file: %s" % (n + 1, missing)
    name = lines[0].split()[1]
    game = lines[0].split(" extends ")[1].rstrip(":")
    path = tmp_path / ("%s.%s.rules" % (game, name))
    path.write_text(EXAMPLES[n], encoding="utf-8")
    errors = [d for d in check_file(str(path)) if d.severity == "error"]
    assert errors == [], "example %d does not check: %s" % (n + 1, errors)
