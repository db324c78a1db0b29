"""E101 says what went wrong in the rule language's words: its kinds, not Python's type names."""
from __future__ import annotations

import pytest

from provost.interpreter.wrong_kind import in_rule_terms


def raised(f) -> Exception:
    try:
        f()
    except Exception as e:      # noqa: BLE001 - the very exceptions a rule's expression raises
        return e
    raise AssertionError("no exception")


@pytest.mark.parametrize("f, said", [
    (lambda: None < 1, "'<' compares none with a number"),
    (lambda: "a" - 1, "'-' of a name and a number"),
    (lambda: [1] + 1, None),                      # Python's words alone, where no pattern is known
    (lambda: [5][0][0], "a number has no entries to look up"),
    (lambda: len(5), "a number has no length"),
    (lambda: {[1]: 2}, "a list cannot be a key or a member of a set"),
    (lambda: 1 // 0, "a division by zero"),
    (lambda: [][3], "an index beyond the end of a list"),
    (lambda: [x for x in None], "none is not a list"),
])
def test_python_errors_are_said_in_the_rule_languages_words_then_pythons(f, said):
    e = raised(f)
    text = in_rule_terms(e)
    python = "%s: %s" % (type(e).__name__, e)
    assert text == ("%s (%s)" % (said, python) if said else python)
    assert "NoneType" not in text.split(" (")[0] and "'int'" not in text.split(" (")[0]
