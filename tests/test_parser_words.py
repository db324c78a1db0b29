"""Syntax errors said in the rule language's words, not the parser's token names."""
from __future__ import annotations

import pytest

from provost.dsl.parser import parse_text

HEAD = "game g:\n    score pp\nresource pp\n"


@pytest.mark.parametrize("text, where, message", [
    (HEAD + "space yard:\n    work:\n    slots 1\n", (6, 5), "expected an indented block after `work:` on line 5"),
    (HEAD + "phase p:\ngain 1 pp\n", (5, 1), "expected an indented block after `phase p:` on line 4"),
    ("game g\n    score pp\n", (1, 7), "missing `:` at the end of `game g`"),
    (HEAD + "phase p:\n    if 1 > 0\n        gain 1 pp\n", (5, 13), "missing `:` at the end of `if 1 > 0`"),
])
def test_common_mistakes_in_words(text, where, message):
    tree, diags = parse_text(text, "x.rules")
    assert tree is None and len(diags) == 1
    d = diags[0]
    assert (d.line, d.col, d.code) == (*where, "P100") and d.message.startswith(message), d.message


def test_string_escapes_are_read_in_one_pass(tmp_path):
    """dsl/README.md: strings have the escapes \\", \\\\ and \\n.  "a\\\\nb" is a backslash and an n
    (it was read as a line break: the \\\\ became \\ and then, with the n, a line break)."""
    from provost.dsl.loader import load_checked

    path = tmp_path / "caylus.esc.rules"
    path.write_text('variant esc "Esc" extends caylus:\n'
                    '    description "C:\\\\new \\"q\\" two\\nlines \\\\\\\\"\n')
    rs = load_checked(str(path))
    assert rs.variant_head["description"] == 'C:\\new "q" two\nlines \\\\'
