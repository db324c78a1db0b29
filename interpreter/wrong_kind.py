"""A Python error met while playing (E101), said in the rule language's words.

The checker gives every expression a type, so a rule that fails this way has found a case it does
not cover yet.  The author reads the message, so the kinds are the language's ("none", "a
number", "a list"), not Python's ("NoneType", "int"); Python's own words follow in brackets for a
report of the checker's gap.
"""
from __future__ import annotations

import re

#: Python's type names, as the rule language calls their values.
KINDS = {"NoneType": "none", "int": "a number", "bool": "true or false", "str": "a name",
         "list": "a list", "tuple": "a pair", "dict": "a table", "set": "a set", "float": "a fraction"}

_COMPARED = re.compile(r"^'(\S+)' not supported between instances of '(\w+)' and '(\w+)'$")
_OPERAND = re.compile(r"^unsupported operand type\(s\) for (\S+): '(\w+)' and '(\w+)'$")
_NOT_SUBSCRIPTABLE = re.compile(r"^'(\w+)' object is not subscriptable$")
_NOT_ITERABLE = re.compile(r"^'(\w+)' object is not iterable$")
_NO_LEN = re.compile(r"^object of type '(\w+)' has no len\(\)$")
_UNHASHABLE = re.compile(r"^unhashable type: '(\w+)'$")


def _kind(python_name: str) -> str:
    return KINDS.get(python_name, python_name)


def _said(e: Exception) -> str | None:
    text = str(e)
    if isinstance(e, TypeError):
        m = _COMPARED.match(text)
        if m:
            return "'%s' compares %s with %s" % (m.group(1), _kind(m.group(2)), _kind(m.group(3)))
        m = _OPERAND.match(text)
        if m:
            return "'%s' of %s and %s" % (m.group(1), _kind(m.group(2)), _kind(m.group(3)))
        for pattern, words in ((_NOT_SUBSCRIPTABLE, "%s has no entries to look up"), (_NOT_ITERABLE, "%s is not a list"),
                               (_NO_LEN, "%s has no length"), (_UNHASHABLE, "%s cannot be a key or a member of a set")):
            m = pattern.match(text)
            if m:
                return words % _kind(m.group(1))
    if isinstance(e, ZeroDivisionError):
        return "a division by zero"
    if isinstance(e, IndexError):
        return "an index beyond the end of a list"
    return None


def in_rule_terms(e: Exception) -> str:
    """What went wrong, in the rule language's words where they are known, then Python's."""
    python = "%s: %s" % (type(e).__name__, e)
    said = _said(e)
    return "%s (%s)" % (said, python) if said else python
