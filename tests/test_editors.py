"""editors/: the TextMate grammar's patterns compile and pick out every shipped file's
declarations, comments and strings; the VS Code manifest names the grammar and the server."""
from __future__ import annotations

import glob
import json
import os
import re
import shutil
import subprocess
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


#: Loads editors/vscode/extension.js in node with the two modules VS Code gives it (the editor's
#: API and vscode-languageclient) replaced by recorders, activates it and prints what it asked of
#: the language client, as JSON.
ACTIVATE = r"""
const Module = require("module");
const manifest = require(process.argv[1] + "/package.json");
const seen = {};
const load = Module._load;
Module._load = function (request, parent, isMain) {
  if (request === "vscode") {
    const defaults = manifest.contributes.configuration.properties;
    return { workspace: { getConfiguration: (section) => ({
      get: (key) => defaults[section + "." + key].default }) } };
  }
  if (request === "vscode-languageclient/node") {
    return { LanguageClient: class {
      constructor(id, name, server, client) { Object.assign(seen, { id, name, server, client }); }
      start() { seen.started = true; return Promise.resolve(); }
      stop() { return Promise.resolve(); }
    } };
  }
  return load.apply(this, arguments);
};
const extension = require(process.argv[1] + "/" + manifest.main);
extension.activate({ subscriptions: [] });
console.log(JSON.stringify(seen));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_vscode_extension_starts_the_server_for_saved_and_untitled_rule_files():
    # The server checks a buffer that is no file yet (untitled:): the client must send it one.
    done = subprocess.run(["node", "-e", ACTIVATE, "--", str(EDITORS / "vscode")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    assert seen["started"] and seen["server"] == {"command": "provost", "args": ["lsp"]}
    selector = seen["client"]["documentSelector"]
    assert {(s["scheme"], s["language"]) for s in selector} == {("file", "provost"), ("untitled", "provost")}
