"""`provost check --explain CODE`: what a code means, with an example and the fix."""
from __future__ import annotations

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
