"""`provost check --explain CODE` shows real examples: every line of rules in an explanation's
example is a line of a case of the diagnostics corpus (tests/diagnostics/*.cases, or
tests/graph_corpus) that reports CODE.  So an example cannot drift from what the checker says.

An example is the block indented by four spaces after a blank line.  Its comments (`# error: ...`)
are the explanation's own words and are left out, and so are command lines and the checker's
output (`provost check x.rules`, `x.rules:1:1: error: ...`).  Codes that only the engine, a log,
a save or the command line can report (E, R0xx, and those the corpus marks unreachable) show no
rule file, and are not compared.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from provost.dsl.diagnostics import CODES, explanation
from provost.tools.dev.gen_docs import import_code_modules
from test_diagnostics_corpus import CASES, UNREACHABLE

import_code_modules()

GRAPH_CORPUS = Path(__file__).parent / "graph_corpus"
_OUTPUT = re.compile(r"^(provost |\$ |\S+:\d+:\d+: (error|warning|note): )")


def _corpus_texts() -> dict[str, list[set[str]]]:
    """CODE -> the cases reporting it, each as the set of its stripped lines."""
    out: dict[str, list[set[str]]] = {}
    for case in CASES:
        lines = {ln.strip() for text in case.files.values() for ln in text.splitlines()}
        for code in {e[0] for e in case.expected}:
            out.setdefault(code, []).append(lines)
    for raw in (GRAPH_CORPUS / "expected.txt").read_text(encoding="utf-8").splitlines():
        parts = raw.split("#", 1)[0].split()
        if len(parts) == 3:
            lines = {ln.strip() for ln in (GRAPH_CORPUS / parts[0]).read_text(encoding="utf-8").splitlines()}
            out.setdefault(parts[1], []).append(lines)
    return out


def example_lines(text: str) -> list[str]:
    """The lines of rules in an explanation's examples, comments and commands left out."""
    out, blank = [], False
    for line in text.splitlines():
        if not line.strip():
            blank = True
            continue
        if line.startswith("    ") and (blank or out):
            code = line.split("#", 1)[0].strip() if not line.strip().startswith("#") else ""
            if code and not _OUTPUT.match(line.strip()):
                out.append(code)
            continue
        blank = False
    return out


CORPUS = _corpus_texts()
SHOWN = sorted(c for c in CODES if not c.startswith(("E", "R0")) and c not in UNREACHABLE
               and example_lines(explanation(c) or ""))


@pytest.mark.parametrize("code", SHOWN)
def test_an_explanations_example_is_a_case_that_reports_its_code(code):
    wanted = example_lines(explanation(code))
    cases = CORPUS.get(code) or []
    assert cases, "%s has an example, and no corpus case reports it" % code
    best = max(cases, key=lambda lines: sum(w in lines for w in wanted))
    assert [w for w in wanted if w not in best] == [], "lines of %s's example in no case reporting it" % code


@pytest.mark.parametrize("code", sorted(CODES))
def test_every_code_is_explained_with_the_fix(code):
    """What the README promises of `--explain`: the meaning, an example and the fix, for every code."""
    text = explanation(code) or ""
    assert "\nFix: " in text and "\n\n    " in text, "%s explains only its summary" % code
