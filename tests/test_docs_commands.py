"""The outputs, files and numbers that docs/*.md show are what the commands give today."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from cli_run import run_cli as run

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def _block_after(doc: str, first_line: str) -> list[str]:
    """The lines of the fenced block of ``doc`` whose first line is ``first_line``, that line included."""
    text = (DOCS / doc).read_text(encoding="utf-8")
    start = text.index("```\n" + first_line + "\n") + 4
    return text[start:text.index("```", start)].rstrip("\n").split("\n")


def test_variants_md_shows_the_diff_the_command_prints(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    shown = _block_after("variants.md", "$ provost diff caylus rulesets/examples/caylus.generous_king.rules")
    code, out, err = run(capsys, *shown[0][2:].split()[1:])
    assert code == 0 and out.rstrip("\n").split("\n") == shown[1:]


def test_variants_md_soak_of_a_broken_invariant_says_what_the_doc_shows(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    shown = _block_after("variants.md", "$ provost soak tests/invariants/caylus.broken_invariant.rules --players 3 --seeds 1")
    code, out, err = run(capsys, *shown[0][2:].split()[1:])
    assert code == 1
    for line in shown[1:]:
        assert line in (out + err).split("\n")


def test_variants_md_line_counts_are_the_files(monkeypatch):
    text = (DOCS / "variants.md").read_text(encoding="utf-8")
    bases = re.search(r"the bases have (\d+),\s+(\d+) and (\d+) lines", text).groups()
    for name, shown in zip(("caylus", "caylus1303", "ys"), bases):
        lines = (ROOT / "rulesets" / (name + ".rules")).read_text(encoding="utf-8").count("\n")
        assert lines == int(shown), name


def test_graph_checks_md_g601_example_is_what_check_says(capsys, tmp_path):
    shown = re.search(r"^caylus_copy\.rules:.*$", (DOCS / "graph_checks.md").read_text(encoding="utf-8"), re.M).group(0)
    rules = (ROOT / "rulesets" / "caylus.rules").read_text(encoding="utf-8")
    copy = tmp_path / "caylus_copy.rules"
    copy.write_text(rules.replace("activate gate, trading_post,", "activate trading_post, gate,"), encoding="utf-8")
    code, out, err = run(capsys, "check", str(copy))
    assert code == 1 and str(tmp_path / shown) in (out + err).split("\n")


def test_ai_md_names_the_shipped_value_model():
    name = re.search(r"\(`(caylus-[0-9a-f]{16}-4p\.json)`\)", (DOCS / "ai.md").read_text(encoding="utf-8")).group(1)
    assert (ROOT / "interpreter" / "agents" / "values" / name).is_file()


def test_ai_md_example_prints_what_the_doc_shows():
    pytest.importorskip("pettingzoo")
    command = "python examples/train_random_pettingzoo.py --train 40 --eval 20"
    assert command in (DOCS / "ai.md").read_text(encoding="utf-8")
    shown = _block_after("ai.md", "caylus: 4 agents, 608 actions, observation vector of 890 numbers")
    p = subprocess.run([sys.executable, *command.split()[1:]], cwd=ROOT, capture_output=True, text=True, timeout=600)
    got = p.stdout.rstrip("\n").split("\n")
    assert p.returncode == 0 and len(got) == len(shown), p.stderr
    for want, line in zip(shown, got):
        assert line.startswith(want.removesuffix("...")), (want, line)


def _python_blocks():
    for doc in [ROOT / "README.md", ROOT / "dsl" / "README.md", *sorted(DOCS.glob("*.md"))]:
        for n, block in enumerate(re.findall(r"```python\n(.*?)```", doc.read_text(encoding="utf-8"), re.S)):
            yield pytest.param(block, id="%s-%d" % (doc.name, n))


@pytest.mark.parametrize("block", list(_python_blocks()))
def test_the_docs_python_imports_what_is_installed(block):
    """Every module a Python example imports is there once provost (and the extra it names) is
    installed: the package is `provost`, nothing of it is at the top level."""
    import ast
    import importlib.util
    for node in ast.walk(ast.parse(block)):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
            [node.module] if isinstance(node, ast.ImportFrom) else []
        for name in names:
            top = name.split(".")[0]
            if top != "provost":
                assert top in ("gymnasium", "pettingzoo", "pyspiel", "numpy"), name
                continue
            parent = name.rsplit(".", 1)[0]
            assert importlib.util.find_spec(parent) is not None and importlib.util.find_spec(name) is not None, name
