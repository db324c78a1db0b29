"""`provost fmt` as README.md's table says it: which files, --check and --diff, line ends and
byte-order marks kept, IR documents left alone."""
from __future__ import annotations

from cli_run import run_cli

LOOSE = 'game  g "G":\n    players 2\n'
TIDY = 'game g "G":\n    players 2\n'


def test_check_writes_nothing_and_exits_1_when_a_file_would_change(capsys, tmp_path):
    (tmp_path / "a.rules").write_text(LOOSE, encoding="utf-8")
    code, out, err = run_cli(capsys, "fmt", "--check", str(tmp_path))
    assert code == 1 and (tmp_path / "a.rules").read_text(encoding="utf-8") == LOOSE


def test_diff_writes_nothing_and_prints_a_unified_diff_exit_1_only_with_check(capsys, tmp_path):
    path = tmp_path / "a.rules"
    path.write_text(LOOSE, encoding="utf-8")
    code, out, err = run_cli(capsys, "fmt", "--diff", str(path))
    assert code == 0 and out.startswith("--- %s\n+++ %s\n" % (path, path))
    assert "-game  g \"G\":" in out and "+game g \"G\":" in out
    assert run_cli(capsys, "fmt", "--check", "--diff", str(path))[0] == 1
    assert path.read_text(encoding="utf-8") == LOOSE


def test_a_folder_means_its_rules_files_a_named_file_is_one_whatever_its_suffix(capsys, tmp_path):
    (tmp_path / "a.rules").write_text(LOOSE, encoding="utf-8")
    (tmp_path / "b.txt").write_text(LOOSE, encoding="utf-8")
    assert run_cli(capsys, "fmt", str(tmp_path))[0] == 0
    assert (tmp_path / "a.rules").read_text(encoding="utf-8") == TIDY
    assert (tmp_path / "b.txt").read_text(encoding="utf-8") == LOOSE
    assert run_cli(capsys, "fmt", str(tmp_path / "b.txt"))[0] == 0
    assert (tmp_path / "b.txt").read_text(encoding="utf-8") == TIDY
    assert run_cli(capsys, "fmt", "--check", str(tmp_path))[0] == 0


def test_line_ends_and_byte_order_mark_are_kept(capsys, tmp_path):
    path = tmp_path / "crlf.rules"
    path.write_bytes(b"\xef\xbb\xbf" + LOOSE.replace("\n", "\r\n").encode())
    assert run_cli(capsys, "fmt", str(path))[0] == 0
    assert path.read_bytes() == b"\xef\xbb\xbf" + TIDY.replace("\n", "\r\n").encode()


def test_an_ir_document_is_left_alone_with_a_note(capsys, tmp_path):
    path = tmp_path / "g.json"
    path.write_text('{"provost_ir": 1}', encoding="utf-8")
    code, out, err = run_cli(capsys, "fmt", str(path))
    assert code == 0 and "IR document" in err and path.read_text(encoding="utf-8") == '{"provost_ir": 1}'
