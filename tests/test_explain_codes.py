"""`provost check --explain CODE`: what a code means, with an example and the fix."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cli_run import run_cli as run


def test_explain_prints_the_meaning_an_example_and_the_fix(capsys):
    code, out, err = run(capsys, "check", "--explain", "c802")
    assert code == 0 and err == ""
    assert out.startswith("C802 (error): effects that call each other")
    assert "effect ping:" in out and "Fix:" in out


def test_every_code_explains_at_least_its_summary(capsys):
    for name in ("A401", "E100", "T219", "P011", "G603", "C804", "C806", "T220"):
        code, out, err = run(capsys, "check", "--explain", name)
        assert code == 0 and out.startswith(name + " ("), (name, out, err)


def test_the_loop_and_option_codes_show_an_example_and_the_fix(capsys):
    for name, example in (("C804", "repeat while n > 1:"), ("C806", "option stop when no: break"),
                          ("T220", "option pick(x in [[[1, 2], [3]], [[4]]]):")):
        code, out, err = run(capsys, "check", "--explain", name)
        assert example in out and "Fix:" in out, (name, out)


def test_an_unknown_code_is_a_usage_error_with_a_suggestion(capsys):
    code, out, err = run(capsys, "check", "--explain", "C8O2")
    assert code == 2 and "unknown diagnostic code 'C8O2'; did you mean 'C802'?" in err


def test_check_without_paths_or_explain_is_a_usage_error(capsys):
    code, out, err = run(capsys, "check")
    assert code == 2 and "--explain CODE" in err


@pytest.mark.parametrize("name", ["L007", "E200", "D009", "C801"])
def test_codes_registered_outside_the_checks_are_explained_by_the_command(name):
    """A fresh `provost` process knows every code of dsl/README.md's table, not only the ones the
    checker's own modules register (composition, invariants, families, cycles)."""
    p = subprocess.run([sys.executable, "-m", "provost.tools.cli", "check", "--explain", name],
                       capture_output=True, text=True)
    assert p.returncode == 0 and p.stdout.startswith(name + " ("), p.stderr


def test_every_code_in_the_reference_is_explained(capsys):
    table = (Path(__file__).resolve().parent.parent / "dsl" / "README.md").read_text(encoding="utf-8")
    for name in re.findall(r"^\| ([A-Z]\d{3}) \| (?:error|warning|note) \|", table, re.M):
        code, out, err = run(capsys, "check", "--explain", name)
        assert code == 0 and out.startswith(name + " ("), (name, err)


@pytest.mark.parametrize("name", ["G510", "G601", "G602", "G703", "L004", "L007", "E200", "E001", "P005", "P007"])
def test_the_codes_the_docs_show_come_with_an_example_and_the_fix(capsys, name):
    code, out, err = run(capsys, "check", "--explain", name)
    assert code == 0 and "\n\n    " in out and "\nFix: " in out, out


def test_explain_with_a_path_is_a_usage_error_not_a_silent_skip(capsys):
    # Once: `provost check --explain P005 broken.rules` explained P005 and exited 0 without
    # checking the file.
    code, out, err = run(capsys, "check", "--explain", "P005", "/nonexistent/broken.rules")
    assert code == 2 and "checks no files" in err and "P005 (" not in out
    code, out, err = run(capsys, "check", "--explain", "P005", "/nonexistent/broken.rules", "--format", "json")
    report = json.loads(out)
    assert code == 2 and report["ok"] is False and report["error"]["kind"] == "usage"


def test_explain_in_json_is_one_json_object(capsys):
    code, out, err = run(capsys, "check", "--explain", "p005", "--format", "json")
    report = json.loads(out)
    assert code == 0 and report["ok"] is True and report["code"] == "P005" and report["severity"] == "error"
    assert report["explanation"].startswith("P005 (error): ")
