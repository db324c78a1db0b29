"""dsl/README.md: the generated sections are current and every `rules` example parses."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from provost.dsl.declarations import build_ir
from provost.dsl.parser import parse_text
from provost.dsl.to_ir import tree_to_raw
from provost.tools.dev import gen_docs

README = Path(__file__).resolve().parent.parent / "dsl" / "README.md"
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
