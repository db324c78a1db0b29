"""editors/: the TextMate grammar's patterns compile and pick out every shipped file's
declarations, comments and strings; the VS Code manifest names the grammar and the server."""
from __future__ import annotations

import glob
import json
import os
import re
from pathlib import Path

import pytest

from provost.dsl.loader import parse_file, shipped_dir

EDITORS = Path(__file__).resolve().parent.parent / "editors"
GRAMMAR = json.loads((EDITORS / "vscode" / "syntaxes" / "provost.tmLanguage.json").read_text())
RULE_FILES = sorted(glob.glob(os.path.join(shipped_dir(), "**", "*.rules"), recursive=True))


def patterns() -> dict[str, re.Pattern]:
    return {name: re.compile(rule["match"]) for name, rule in GRAMMAR["repository"].items()}


def test_every_pattern_compiles_and_is_used():
    found = patterns()
    used = {p["include"].lstrip("#") for p in GRAMMAR["patterns"]}
    assert used == set(found)


@pytest.mark.parametrize("path", RULE_FILES, ids=os.path.basename)
def test_the_grammar_finds_each_files_declarations_comments_and_strings(path):
    pats = patterns()
    text = Path(path).read_text()
    ir, _ = parse_file(path)
    top = {(d["kind"], d["pos"][0]) for d in ir["decls"] if d.get("kind") and d.get("pos")}
    lines = text.split("\n")
    for kind, line in top:
        m = pats["declaration"].match(lines[line - 1])
        assert m, "line %d (%s) is not highlighted as a declaration: %r" % (line, kind, lines[line - 1])
    for line in lines:
        if line.strip().startswith("#"):
            assert pats["comment"].search(line)
        for quoted in re.findall(r'"[^"]*"', line.split("#")[0]):
            assert pats["string"].search(quoted)


def test_the_vscode_manifest_uses_the_grammar_and_the_server():
    manifest = json.loads((EDITORS / "vscode" / "package.json").read_text())
    grammar = manifest["contributes"]["grammars"][0]
    assert grammar["scopeName"] == GRAMMAR["scopeName"]
    assert (EDITORS / "vscode" / grammar["path"]).is_file()
    assert manifest["contributes"]["configuration"]["properties"]["provost.command"]["default"] == ["provost", "lsp"]
    assert "provost lsp" in (EDITORS / "README.md").read_text()
