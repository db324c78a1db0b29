"""provost fmt: one layout, comments kept, idempotent, and never a change to the IR.

Every shipped file is already in the layout.  Each is then disturbed -- its indentation halved,
random spaces around operators, after commas and between words, trailing spaces, extra blank
lines -- in ways that leave its tokens alone; the disturbed file must parse to the same IR
(positions aside) and format back to the shipped text exactly.
"""
from __future__ import annotations

import glob
import json
import os
import random

import pytest

from cli_run import run_cli
from provost.dsl.fmt import TOKEN, Unformattable, format_text
from provost.dsl.loader import parse_file, shipped_dir

RULE_FILES = sorted(glob.glob(os.path.join(shipped_dir(), "**", "*.rules"), recursive=True))


def without_positions(x):
    if isinstance(x, dict):
        return {k: without_positions(v) for k, v in x.items() if not k.endswith("pos")}
    if isinstance(x, list):
        return [without_positions(v) for v in x]
    return x


def ir_of(path) -> str:
    ir, diags = parse_file(str(path))
    assert ir is not None, [d.format_text() for d in diags]
    return json.dumps(without_positions(ir), sort_keys=True)


def disturbed(text: str, r: random.Random) -> str:
    """TEXT with its whitespace changed where the grammar ignores it (halved block indentation)."""
    out, depth = [], 0
    for line in text.split("\n"):
        body = line.strip(" ")
        if not body:
            out.append(" " * r.randrange(3))
            if r.random() < 0.2:
                out.append("")
            continue
        lead = len(line) - len(line.lstrip(" "))
        indent = line[:lead] if depth else " " * (lead // 2)
        pieces = [m for m in TOKEN.finditer(body) if m.lastgroup != "space"]
        parts = [pieces[0].group()]
        for prev, m in zip(pieces, pieces[1:]):
            words = prev.lastgroup == "word" and m.lastgroup == "word"
            gap = body[prev.end():m.start()]
            if m.lastgroup == "comment" or prev.group() in "+-" or m.group() in "+-" or (m.group() in "([" and prev.lastgroup == "word"):
                parts.append(gap + m.group())
            else:
                parts.append(r.choice([" ", "  "] if words or prev.lastgroup == "string" or m.lastgroup == "string"
                                      else ["", " ", "  "]) + m.group())
        out.append(indent + "".join(parts) + " " * r.randrange(2))
        depth += sum(1 for m in pieces if m.group() in "([{") - sum(1 for m in pieces if m.group() in ")]}")
    return "\n".join(out) + "\n\n"


@pytest.mark.parametrize("path", RULE_FILES, ids=os.path.basename)
def test_shipped_files_are_formatted_and_formatting_restores_them(path, tmp_path):
    text = open(path, encoding="utf-8").read()
    assert format_text(text) == text
    r = random.Random(os.path.basename(path))
    messy = tmp_path / os.path.basename(path)
    messy.write_text(disturbed(text, r))
    assert messy.read_text() != text
    # Same name, same folder neighbours: a variant's base resolves as for the shipped file.
    assert ir_of(messy) == ir_of(path)
    assert format_text(messy.read_text()) == text
    assert format_text(format_text(messy.read_text())) == text


def test_comments_and_strings_are_kept_as_written():
    text = 'game g "A  title,with  spaces":\n    # a comment ,  with  odd spacing\n    score pp   #  after code\n'
    out = format_text(text)
    assert '"A  title,with  spaces"' in out and "# a comment ,  with  odd spacing" in out and "#  after code" in out


def test_a_comment_ending_in_a_backslash_continues_nothing(tmp_path):
    """A backslash at the end of a comment is the comment's, as the parser reads it: the next
    line is indented as its block says and the comment is kept as written (the formatter took it
    for a line continuation, kept the next line's old indentation and broke the file)."""
    text = ('variant bs "Backslash" extends ys:\n  description "x"\n  # a note\\\n'
            '  replace let placement_rounds = 3\n  replace let draft_rounds=1\n')
    out = format_text(text)
    assert out == ('variant bs "Backslash" extends ys:\n    description "x"\n    # a note\\\n'
                   '    replace let placement_rounds = 3\n    replace let draft_rounds = 1\n')
    assert format_text(out) == out
    before, after = tmp_path / "a.rules", tmp_path / "b.rules"
    before.write_text(text)
    after.write_text(out)
    assert ir_of(before) == ir_of(after)


def test_a_tab_after_spaces_is_as_deep_as_the_parser_reads_it(tmp_path):
    """The parser counts a tab as 8 wherever it stands ("  \\t" is 10, as deep as "\\t  "), not
    to the next tab stop: a line indented so stays in the block it is in, and a bad dedent is
    reported at its own line."""
    text = ('variant tabs "Tabs" extends caylus:\n    description "x"\n    effect bonus(p):\n'
            '\tif p > 0:\n\t  gain 1 denier\n  \tgain 2 denier\n')
    out = format_text(text)
    assert out.endswith("        if p > 0:\n            gain 1 denier\n            gain 2 denier\n"), out
    before, after = tmp_path / "a.rules", tmp_path / "b.rules"
    before.write_text(text)
    after.write_text(out)
    assert ir_of(before) == ir_of(after)
    from provost.dsl.parser import parse_text
    _, found = parse_text('variant dd "D" extends caylus:\n    description "x"\n    effect bonus(p):\n'
                          '  \tgain 1 denier\n\tgain 2 denier\n', "caylus.dd.rules")
    assert [(d.code, d.line) for d in found] == [("P102", 5)]


def test_what_cannot_be_formatted_safely_is_refused():
    with pytest.raises(Unformattable):
        format_text("game g:\n        score pp\n    players 2..2\n")     # a dedent to no open block
    with pytest.raises(Unformattable):
        format_text("game g:\n    score pp @\n")


def test_the_command_checks_writes_and_reports(tmp_path, capsys):
    shipped = os.path.join(shipped_dir(), "caylus.simplified_favor.rules")
    messy = tmp_path / "caylus.simplified_favor.rules"
    messy.write_text(disturbed(open(shipped).read(), random.Random(3)))
    code, out, err = run_cli(capsys, "fmt", "--check", str(tmp_path))
    assert code == 1 and "would reformat" in out and messy.read_text() != open(shipped).read()
    code, out, err = run_cli(capsys, "fmt", str(tmp_path))
    assert code == 0 and "reformatted" in out and messy.read_text() == open(shipped).read()
    code, out, err = run_cli(capsys, "fmt", "--check", str(tmp_path))
    assert code == 0 and "0 files would be reformatted" in err
    code, _, _ = run_cli(capsys, "fmt", "--check", os.path.join(shipped_dir()))
    assert code == 0



def test_a_file_named_is_laid_out_whatever_its_suffix_but_an_ir_document(tmp_path, capsys):
    """`fmt FILE` as `check FILE`: a rule file under another name is laid out (it was passed over:
    "0 files reformatted", exit 0); a file that is no rule file is a syntax error; an IR document
    is left alone with a note.  In a folder, only the .rules files are looked at."""
    named = tmp_path / "mine.txt"
    named.write_text('variant   x "X"   extends caylus:\n  description "d"\n')
    code, out, err = run_cli(capsys, "fmt", str(named))
    assert code == 0 and "reformatted %s" % named in out
    assert named.read_text() == 'variant x "X" extends caylus:\n    description "d"\n'
    log = tmp_path / "game.jsonl"
    log.write_text('{"type": "header"}\n')
    code, out, err = run_cli(capsys, "fmt", "--check", str(log))
    assert code == 1 and "%s:1:1: error: unexpected '{'" % log in err
    ir = tmp_path / "game.json"
    ir.write_text('{"provost_ir": 1,   "decls": []}')
    code, out, err = run_cli(capsys, "fmt", str(ir))
    assert code == 0 and "note: %s is an IR document (data): fmt lays out rule files only" % ir in err
    assert ir.read_text() == '{"provost_ir": 1,   "decls": []}'
    code, out, err = run_cli(capsys, "fmt", "--check", str(tmp_path))       # mine.txt and game.jsonl: not looked at
    assert code == 0 and "0 files would be reformatted" in err and "note" not in err

def test_diff_previews_the_change_as_a_patch_and_writes_nothing(tmp_path, capsys):
    import shutil
    import subprocess

    shipped = os.path.join(shipped_dir(), "caylus.simplified_favor.rules")
    messy = tmp_path / "caylus.simplified_favor.rules"
    before = disturbed(open(shipped).read(), random.Random(3))
    messy.write_text(before)
    code, out, err = run_cli(capsys, "fmt", "--diff", str(tmp_path))
    assert code == 0 and messy.read_text() == before           # as black --diff: a preview
    assert out.startswith("--- ") and "reformat" not in out and "would reformat" in err
    if shutil.which("patch"):           # stdout is a patch that gives the formatted file
        subprocess.run(["patch", "-s", str(messy)], input=out, text=True, check=True)
        assert messy.read_text() == open(shipped).read()
        messy.write_text(before)
    code, out, _ = run_cli(capsys, "fmt", "--diff", "--check", str(tmp_path))
    assert code == 1 and out.startswith("--- ") and messy.read_text() == before


def test_the_diff_names_a_file_with_its_control_characters_escaped(tmp_path, capsys):
    """A folder whose name holds an escape sequence: the diff's --- and +++ lines name the file
    as every other message does (\\x1b), not with the raw character that rewrites the terminal."""
    folder = tmp_path / "a\x1b[31mb"
    folder.mkdir()
    (folder / "caylus.c.rules").write_text('variant c "C" extends caylus:\n  description "x"\n')
    code, out, err = run_cli(capsys, "fmt", "--diff", str(folder))
    assert code == 0 and out.startswith("--- ")
    assert "\x1b" not in out + err and "a\\x1b[31mb" in out.splitlines()[0]


def test_a_file_is_rewritten_in_place_with_its_permissions_and_links(tmp_path, capsys):
    """provost fmt made every file it rewrote private (-rw-------, the temporary file's mode),
    and replaced a symbolic link by a formatted copy, leaving the file it pointed to as it was."""
    import stat
    messy = 'variant c "C" extends caylus:\n  description "x"\n'
    plain = tmp_path / "caylus.c.rules"
    plain.write_text(messy)
    plain.chmod(0o664)
    (tmp_path / "real").mkdir()
    real = tmp_path / "real" / "caylus.d.rules"
    real.write_text(messy.replace("c \"C\"", "d \"D\""))
    link = tmp_path / "caylus.d.rules"
    link.symlink_to(real)
    code, out, _ = run_cli(capsys, "fmt", str(plain), str(link))
    assert code == 0 and out.count("reformatted") == 2
    assert stat.S_IMODE(plain.stat().st_mode) == 0o664 and plain.read_text() == format_text(messy)
    assert link.is_symlink() and real.read_text().startswith('variant d "D" extends caylus:\n    description')


def test_a_file_that_cannot_be_written_is_a_usage_error(tmp_path, capsys, monkeypatch):
    """A rule file in a folder fmt may not write in was an internal error (PermissionError); it is
    said as README says an output that cannot be written is, and the file is left as it was."""
    import tempfile

    def refused(*args, **kwargs):
        raise PermissionError(13, "Permission denied")
    monkeypatch.setattr(tempfile, "mkstemp", refused)
    messy = tmp_path / "caylus.c.rules"
    messy.write_text('variant c "C" extends caylus:\n  description "x"\n')
    code, _, err = run_cli(capsys, "fmt", str(messy))
    assert code == 2 and "provost: error: cannot write %s: Permission denied" % messy in err
    assert "internal error" not in err and messy.read_text().startswith('variant c "C" extends caylus:\n  description')


def test_a_syntax_error_is_reported_with_its_position_and_the_file_left_alone(tmp_path, capsys):
    bad = tmp_path / "syn.rules"
    text = 'game x "X":\n    players 2 "oops\n'
    bad.write_text(text)
    code, _, err = run_cli(capsys, "fmt", str(bad))
    assert code == 1 and "%s:2:15: error: " % bad in err and "[P101]" in err
    assert '[P101]\n2 |     players 2 "oops\n  |' in err     # the source line, as check shows it
    assert bad.read_text() == text


def test_without_a_path_the_current_folder_is_formatted(tmp_path, capsys, monkeypatch):
    """DESIGN: `provost fmt [PATH...]`: no PATH, the rule files under the current folder."""
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "g.rules").write_text('game g  "G":\n    players 2\n')
    monkeypatch.chdir(tmp_path)
    code, out, _ = run_cli(capsys, "fmt", "--check")
    assert code == 1 and "g.rules" in out
    code, _, _ = run_cli(capsys, "fmt")
    assert code == 0 and (tmp_path / "sub" / "g.rules").read_text() == 'game g "G":\n    players 2\n'


def test_a_file_keeps_its_line_ends_and_byte_order_mark(tmp_path, capsys):
    """A file saved on Windows (CRLF, often with a BOM) was rewritten with LF ends and no BOM:
    every line of it changed in the user's version control, for what is only layout."""
    shipped = open(os.path.join(shipped_dir(), "caylus.simplified_favor.rules")).read()
    path = tmp_path / "caylus.simplified_favor.rules"
    messy = disturbed(shipped, random.Random(3))
    path.write_bytes(b"\xef\xbb\xbf" + messy.replace("\n", "\r\n").encode("utf-8"))
    code, out, _ = run_cli(capsys, "fmt", str(path))
    assert code == 0 and "reformatted" in out
    assert path.read_bytes() == b"\xef\xbb\xbf" + shipped.replace("\n", "\r\n").encode("utf-8")
    code, _, err = run_cli(capsys, "fmt", "--check", str(path))
    assert code == 0 and "0 files would be reformatted" in err       # formatted once is formatted
    path.write_bytes(shipped.encode("utf-8"))                         # an LF file stays LF, no BOM
    assert run_cli(capsys, "fmt", "--check", str(path))[0] == 0 and path.read_bytes() == shipped.encode("utf-8")
