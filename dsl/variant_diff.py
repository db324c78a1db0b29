"""What a variant changes, rule by rule, in plain words (``provost diff``, the rulebook's
"What this variant changes")."""
from __future__ import annotations

import difflib
import json

from .compose import without_positions
from .changes import changed_part, decl_key, named_parts, part_holder, part_of
from .prose import Prose

CONTEXT = 1
"""Unchanged lines shown around each changed line of a rule."""


def line_diff(old: list[str], new: list[str], indent: str = "    ") -> list[str]:
    """``old`` -> ``new`` line by line: '-' a line that went, '+' one that came, a few unchanged
    lines around them and '...' for the unchanged runs left out."""
    out = []
    for group in difflib.SequenceMatcher(a=old, b=new, autojunk=False).get_grouped_opcodes(CONTEXT):
        if out:
            out.append(indent + "  ...")
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                out.extend(indent + "  " + line.rstrip() for line in old[i1:i2])
                continue
            out.extend(indent + "- " + line.rstrip() for line in old[i1:i2])
            out.extend(indent + "+ " + line.rstrip() for line in new[j1:j2])
    return out


def same_rules(a: list[dict], b: list[dict]) -> bool:
    """Whether two lists of declarations say the same, wherever their lines are."""
    return without_positions(a) == without_positions(b)


def _value(v) -> str:
    if isinstance(v, list) and all(not isinstance(x, (dict, list)) for x in v):
        return ", ".join(map(str, v)) or "none"
    if v is None or v == []:
        return "none"
    text = v if isinstance(v, str) else json.dumps(without_positions(v), separators=(",", ":"))
    return text if len(text) <= 100 else text[:97] + "..."


def rule_diff(prose: Prose, old: dict, new: dict) -> list[str]:
    """A changed rule line by line in words; when the words are the same (a detail the prose leaves
    out, such as a piece's reserve), attribute by attribute."""
    lines = line_diff(prose.decl(old), prose.decl(new))
    if lines:
        return lines
    a, b = without_positions(old), without_positions(new)
    return ["    %s: %s -> %s" % (k, _value(a.get(k)), _value(b.get(k)))
            for k in dict.fromkeys(list(a) + list(b)) if a.get(k) != b.get(k)]


def _headline(prose: Prose, d: dict) -> str:
    """A removed rule in a few words: the first line of its prose, without the colon that opens its body."""
    return prose.decl(d)[0].strip().rstrip(":")


def _what(d: dict) -> str:
    return "%s '%s'" % (d["kind"], d.get("name") or d["kind"])


def compare(a_title: str, a_decls: list[dict], b_title: str, b_decls: list[dict]) -> list[str]:
    """Any two rulesets, rule by rule: what B adds, removes and changes, a changed rule line by line."""
    prose = Prose(a_decls + b_decls)
    a_index = {decl_key(d): d for d in a_decls}
    b_index = {decl_key(d): d for d in b_decls}
    out = ["%s -> %s:" % (a_title, b_title)]
    changed = added = removed = 0
    for key, d in b_index.items():
        old = a_index.get(key)
        if old is None:
            added += 1
            out += ["", "+ adds %s:" % _what(d)] + ["    " + line for line in prose.decl(d)]
        elif not same_rules([old], [d]):
            changed += 1
            out += ["", "~ changes %s:" % _what(d)] + rule_diff(prose, old, d)
    for key, d in a_index.items():
        if key not in b_index:
            removed += 1
            out += ["", "- removes %s (%s)" % (_what(d), _headline(prose, d))]
    if not (changed or added or removed):
        out.append("  the two rulesets have the same rules")
    else:
        out += ["", "%d rule%s changed, %d added, %d removed" % (changed, "" if changed == 1 else "s", added, removed)]
    return out


def describe(base_decls: list[dict], variant: dict) -> list[str]:
    """The variant's changes as readable lines (the base's declarations give the 'was' side)."""
    prose = Prose(base_decls + [ch["decl"] for ch in variant["changes"] if "decl" in ch])
    index = {decl_key(d): d for d in base_decls}
    title = variant.get("title") or variant["name"]
    also = variant.get("with") or []
    base = variant["extends"] + (" with %s's changes" % ", ".join(also) if also else "")
    out = ["%s (%s) changes %s:" % (title, variant["name"], base)]
    if variant.get("description"):
        out.append("  " + variant["description"])
    for ch in variant["changes"]:
        op = ch["op"]
        out.append("")
        if op == "add":
            d = ch["decl"]
            out.append("+ adds %s '%s':" % (d["kind"], d.get("name") or d["kind"]))
            out.extend("    " + line for line in prose.decl(d))
        elif op == "replace":
            d = ch["decl"]
            old = index.get(decl_key(d))
            out.append("~ changes %s '%s':" % (d["kind"], d.get("name") or d["kind"]))
            if old is not None:
                out.extend(rule_diff(prose, old, d))
            else:
                out.extend("    " + line for line in prose.decl(d))
        elif op == "remove":
            old = index.get((ch["kind"], ch["name"]))
            what = _headline(prose, old) if old is not None else ch["name"]
            out.append("- removes %s '%s' (%s)" % (ch["kind"], ch["name"], what))
        elif op in ("replace_step", "add_step", "remove_step", "replace_entry", "add_entry", "remove_entry"):
            out.extend(_part_change(prose, index, ch))
    return out


_VERBS = {"replace": "~ changes", "add": "+ adds", "remove": "- removes"}


def _part_change(prose: Prose, index: dict, ch: dict) -> list[str]:
    """A change of one part of a declaration, a phase's step or a table's entry: its headline,
    then what it was and is (a replacement, as a line diff) or what it adds."""
    verb = ch["op"].split("_")[0]
    part, of, name = part_of(ch)
    was = (named_parts(index.get(part_holder(index, ch)), only=False) or {}).get(name)
    new = changed_part(ch, was)
    if part == "step":
        def lines(x):
            return prose.block(x["body"])
    else:
        of = "table " + of

        def lines(x):
            return prose.entries([x])
    anchor = " after %s '%s'" % (part, ch["after"]) if ch.get("after") else (
        " before %s '%s'" % (part, ch["before"]) if ch.get("before") else "")
    out = ["%s %s '%s' of %s%s" % (_VERBS[verb], part, name, of, anchor) + (":" if new is not None else "")]
    if verb == "replace" and was is not None:
        out.extend(line_diff(lines(was), lines(new)))
    elif new is not None:
        out.extend("    " + line for line in lines(new))
    return out
