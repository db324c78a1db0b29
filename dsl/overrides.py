"""A ruleset with some of its numbers changed: the settings of a parameter sweep.

A setting names a number the rules declare and gives it a new integer value:

- ``NAME``: a ``let`` whose value is an integer (``let favor_points = 3``), or a ``let`` whose
  value is a table of integers (``let start_money = {1: 5, ..., 5: 7}``), every entry of which
  takes the value;
- ``NAME[KEY]``: one entry of such a table (``start_money[4]``, ``section_size[dungeon]``);
- ``DECL.ATTR``: an integer attribute of a declaration (``gold_mine.prestige``,
  ``stone_farm.count``).

The changed ruleset is checked again like any rule file (a value out of range is an error
there) and gets its own digest, so its games and saves are told apart from the original's.
"""
from __future__ import annotations

import copy
import re

from .diagnostics import UsageError

_TARGET = re.compile(r"^(?P<name>[A-Za-z_]\w*)(?:\[(?P<key>[A-Za-z_0-9]+)\]|\.(?P<attr>[A-Za-z_]\w*))?$")


def parse_target(text: str) -> tuple[str, str | None, str | None]:
    """``(name, key, attr)`` of a setting's target, or UsageError."""
    m = _TARGET.match(text.strip())
    if not m:
        raise UsageError("--set %r: write NAME, NAME[KEY] or DECLARATION.ATTRIBUTE" % text)
    return m.group("name"), m.group("key"), m.group("attr")


def _is_int_expr(node) -> bool:
    return isinstance(node, dict) and node.get("e") == "int"


def _set_int(node: dict, value: int) -> None:
    node["v"] = value


def _let(decls: list[dict], name: str) -> dict | None:
    return next((d for d in decls if d["kind"] == "let" and d["name"] == name and not d.get("params")), None)


def _named(decls: list[dict], name: str) -> list[dict]:
    return [d for d in decls if d.get("name") == name and d["kind"] != "let"]


def _key_matches(key, text: str) -> bool:
    return str(key) == text


def _apply_one(decls: list[dict], target: str, value: int) -> None:
    name, key, attr = parse_target(target)
    if attr is not None:
        found = _named(decls, name)
        if not found:
            raise UsageError("--set %s: no declaration is named %r" % (target, name))
        decl = found[0]
        if not isinstance(decl.get(attr), int) or isinstance(decl.get(attr), bool):
            numeric = sorted(k for k, v in decl.items() if isinstance(v, int) and not isinstance(v, bool))
            raise UsageError("--set %s: %s %r has no integer attribute %r (it has: %s)"
                             % (target, decl["kind"], name, attr, ", ".join(numeric) or "none"))
        decl[attr] = value
        return
    let = _let(decls, name)
    if let is None:
        raise UsageError("--set %s: no let without parameters is named %r" % (target, name))
    node = let["value"]
    if _is_int_expr(node) and key is None:
        _set_int(node, value)
        return
    if isinstance(node, dict) and node.get("e") == "dict":
        entries = [item for item in node["items"] if _is_int_expr(item[1])]
        if len(entries) != len(node["items"]):
            raise UsageError("--set %s: let %r is not a table of integers" % (target, name))
        if key is None:
            for item in entries:
                _set_int(item[1], value)
            return
        chosen = [item for item in entries if _key_matches(item[0], key)]
        if not chosen:
            raise UsageError("--set %s: let %r has no entry %r (its keys: %s)"
                             % (target, name, key, ", ".join(str(item[0]) for item in entries)))
        _set_int(chosen[0][1], value)
        return
    raise UsageError("--set %s: let %r is not an integer or a table of integers" % (target, name))


def with_settings(rs, settings: dict[str, int]):
    """A copy of the resolved ruleset RS with SETTINGS applied, checked and digested again.

    Returns ``(ruleset, diagnostics)``; the ruleset is None when the changed rules have errors.
    """
    from .checks import run_checks
    from .loader import digest_of

    changed = copy.copy(rs)
    changed.decls = copy.deepcopy(rs.decls)
    for target, value in settings.items():
        _apply_one(changed.decls, target, value)
    changed.digest = digest_of(changed.decls)
    diags = run_checks(changed)
    if any(d.severity == "error" for d in diags):
        return None, diags
    return changed, diags
