"""A variant's changes applied to resolved rules.

A variant file declares changes (`declarations.py` turns its `add`, `replace`, `remove` and their
step and entry forms into ``{"op": ...}`` records); ``apply_variant`` makes them to a `Ruleset`
in order: whole declarations by kind and name (``decl_key``), one step of a phase, or one entry
of a table, each step and entry remembering the file it came from (``Ruleset.step_files``,
``entry_files``) so that a diagnostic names the file that wrote it.  A change that names
nothing in the base is L004, with "did you mean".  Composed variants (`compose`) merge through
the ``merge`` hook; `variant_diff` describes changes with the same parts.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .diagnostics import Diagnostic, did_you_mean

if TYPE_CHECKING:
    from .loader import Ruleset


def decl_key(d: dict) -> tuple[str, str]:
    """How a variant names a declaration it changes: its kind (every let is a 'let') and its name."""
    kind = d["kind"]
    return ("let" if kind == "let" else kind, d.get("name") or kind)


# ------------------------------------------------------------------ parts: a phase's steps, a table's entries
def part_of(ch: dict) -> tuple[str, str, str]:
    """What a change of one step or entry names: ``("step", phase, step)`` or ``("entry", table, key)``."""
    return ("step", ch["phase"], ch["step"]) if "step" in ch else ("entry", ch["table"], ch["key"])


def part_holder(index, ch: dict) -> tuple[str, str] | None:
    """The key of the declaration (among those of ``index``) whose step or entry ``ch`` changes."""
    part, of, _ = part_of(ch)
    return next((k for k in ((("phase", of), (of, of)) if part == "step" else (("table", of),)) if k in index), None)


def part_files(rs: Ruleset, key: tuple[str, str]) -> dict:
    """``rs.entry_files`` for a table, ``rs.step_files`` for a phase."""
    return rs.entry_files if key[0] == "table" else rs.step_files


def named_parts(decl: dict | None, only: bool = True) -> dict | None:
    """A phase's steps by name or a table's entries by key, in order; None when there is no
    declaration, or (``only``) when not all of its parts are named: a phase with statements
    outside its steps, a table of numbered rows."""
    if decl is None:
        return None
    if decl["kind"] == "table":
        items, name = decl.get("entries") or [], "key"
    elif decl["kind"] in ("phase", "setup", "final") and isinstance(decl.get("body"), list):
        items, name = decl["body"], "name"
    else:
        return None
    named = [it for it in items if isinstance(it, dict) and it.get(name) is not None
             and (name == "key" or it.get("s") == "step")]
    return None if only and len(named) < len(items) else {it[name]: it for it in named}


def changed_part(ch: dict, was: dict | None) -> dict | None:
    """The step or entry as change ``ch`` leaves it (``was``: as it stood), None when it removes it."""
    if ch["op"].startswith("remove"):
        return None
    if "step" not in ch:
        return ch["entry"]
    return dict(was or {"s": "step", "name": ch["step"], "title": None}, body=ch["body"])


def apply_variant(rs: Ruleset, variant: dict, path: str, merge=None) -> list[Diagnostic]:
    """Apply one variant's own changes to ``rs``.  ``merge(key, current, its file, replacement,
    the files of its steps or entries)``, when given (variants composed on the command line,
    `provost.dsl.compose`), returns the declaration a ``replace`` puts in place, the conflicts that
    make it impossible (a message, or a message and its position) and the files of its steps or
    entries (None: all of them are this variant's)."""
    diags = []
    index = {decl_key(d): i for i, d in enumerate(rs.decls)}
    removed = {}                # what this variant removed: where

    def err(pos, msg):
        diags.append(Diagnostic(path, pos[0], pos[1], "error", "L004", msg))

    for ch in variant["changes"]:
        op = ch["op"]
        if op == "add":
            d = ch["decl"]
            key = decl_key(d)
            if key in index:
                err(ch["pos"], "%s '%s' already exists in the base; use 'replace %s %s'"
                    % (key[0], key[1], key[0], key[1]))
                continue
            index[key] = len(rs.decls)
            rs.decls.append(d)
            rs.files.append(path)
        elif op == "replace":
            d = ch["decl"]
            key = decl_key(d)
            if key not in index:
                same = [k[1] for k in index if k[0] == key[0]]
                err(ch["pos"], "cannot replace %s '%s': the base has none%s" % (key[0], key[1], did_you_mean(key[1], same)))
                continue
            parts = None
            if merge is not None:
                d, conflicts, parts = merge(key, rs.decls[index[key]], rs.files[index[key]], d,
                                            part_files(rs, key).get(key))
                for c in conflicts:
                    msg, pos = c if isinstance(c, tuple) else (c, None)
                    pos = pos or ch["pos"]
                    diags.append(Diagnostic(path, pos[0], pos[1], "error", "L007", msg))
            rs.decls[index[key]] = d
            rs.files[index[key]] = path
            rs.step_files.pop(key, None)
            rs.entry_files.pop(key, None)
            if parts:
                part_files(rs, key)[key] = parts
        elif op == "remove":
            key = (ch["kind"], ch["name"])
            if key in removed:
                err(ch["pos"], "%s '%s' is removed already, at line %d" % (key[0], key[1], removed[key][0]))
                continue
            if key not in index:
                same = [k[1] for k in index if k[0] == key[0]]
                err(ch["pos"], "cannot remove %s '%s': the base has none%s" % (key[0], key[1], did_you_mean(key[1], same)))
                continue
            removed[key] = ch["pos"]
            i = index.pop(key)
            rs.decls[i] = None
            rs.files[i] = None
            rs.step_files.pop(key, None)
            rs.entry_files.pop(key, None)
        elif op in ("replace_step", "remove_step", "add_step"):
            key = part_holder(index, ch)
            if key is None:
                phases = [k[1] for k in index if k[0] in ("phase", "setup", "final")]
                err(ch["pos"], "cannot change a step of phase '%s': the base has no such phase%s"
                    % (ch["phase"], did_you_mean(str(ch["phase"]), phases)))
                continue
            phase = dict(rs.decls[index[key]])
            steps = [st["name"] for st in phase["body"] if st["s"] == "step"]
            # The phase is now this file's, but its other steps keep the file they came from.
            origins = dict(rs.step_files.get(key) or {s: rs.files[index[key]] for s in steps})
            if op == "add_step":
                if ch["step"] in steps:
                    err(ch["pos"], "phase '%s' already has a step '%s'; use 'replace step'" % (ch["phase"], ch["step"]))
                    continue
                anchor = ch["after"] if ch["after"] is not None else ch.get("before")
                if anchor is not None and anchor not in steps:
                    err(ch["pos"], "phase '%s' has no step '%s'%s" % (ch["phase"], anchor,
                                                                      did_you_mean(anchor, steps)))
                    continue
                new = dict(changed_part(ch, None), pos=ch["pos"])
                body = list(phase["body"])
                at = len(body) if anchor is None else (ch["after"] is not None) + next(
                    i for i, st in enumerate(body) if st["s"] == "step" and st["name"] == anchor)
                body.insert(at, new)
                phase["body"] = body
                rs.decls[index[key]] = phase
                rs.files[index[key]] = path
                rs.step_files[key] = {**origins, ch["step"]: path}
                continue
            body, found = [], False
            for st in phase["body"]:
                if st["s"] == "step" and st["name"] == ch["step"]:
                    found = True
                    if op == "replace_step":
                        body.append(changed_part(ch, st))
                else:
                    body.append(st)
            if not found:
                steps = [st["name"] for st in phase["body"] if st["s"] == "step"]
                err(ch["pos"], "phase '%s' has no step '%s'%s" % (ch["phase"], ch["step"], did_you_mean(ch["step"], steps)))
                continue
            phase["body"] = body
            rs.decls[index[key]] = phase
            rs.files[index[key]] = path
            origins[ch["step"]] = path
            rs.step_files[key] = origins
        elif op in ("replace_entry", "remove_entry", "add_entry"):
            _change_entry(rs, ch, index, path, err)
    keep = [(d, f) for d, f in zip(rs.decls, rs.files) if d is not None]
    rs.decls = [d for d, _ in keep]
    rs.files = [f for _, f in keep]
    return diags


def _change_entry(rs: Ruleset, ch: dict, index: dict, path: str, err) -> None:
    """``replace entry``, ``add entry``, ``remove entry``: one top-level entry of a table, the
    table's other entries kept (with the file each came from)."""
    op, key = ch["op"], ("table", ch["table"])
    verb = {"replace_entry": "replace", "add_entry": "add", "remove_entry": "remove"}[op]
    if key not in index:
        tables = [k[1] for k in index if k[0] == "table"]
        err(ch["pos"], "cannot %s entry '%s' of table '%s': the base has no such table%s"
            % (verb, ch["key"], ch["table"], did_you_mean(str(ch["table"]), tables)))
        return
    table = dict(rs.decls[index[key]])
    entries = list(table.get("entries") or [])
    keys = [e["key"] for e in entries if "key" in e]
    # "" is the file of the entries no change can name (those keyed by numbers).
    origins = dict(rs.entry_files.get(key) or {"": rs.files[index[key]], **{k: rs.files[index[key]] for k in keys}})
    if op == "add_entry":
        if ch["key"] in keys:
            err(ch["pos"], "table '%s' already has an entry '%s'; use 'replace entry'" % (ch["table"], ch["key"]))
            return
        anchor = ch["after"] if ch.get("after") is not None else ch.get("before")
        if anchor is not None and anchor not in keys:
            err(ch["pos"], "table '%s' has no entry '%s'%s" % (ch["table"], anchor, did_you_mean(anchor, keys)))
            return
        at = len(entries) if anchor is None else (ch.get("after") is not None) + next(
            i for i, e in enumerate(entries) if e.get("key") == anchor)
        entries.insert(at, ch["entry"])
        origins[ch["key"]] = path
    else:
        at = next((i for i, e in enumerate(entries) if e.get("key") == ch["key"]), None)
        if at is None:
            err(ch["pos"], "cannot %s entry '%s' of table '%s': it has none%s"
                % (verb, ch["key"], ch["table"], did_you_mean(ch["key"], keys)))
            return
        if op == "replace_entry":
            entries[at] = ch["entry"]
        else:
            del entries[at]
        origins[ch["key"]] = path
    table["entries"] = entries
    rs.decls[index[key]] = table
    rs.files[index[key]] = path
    rs.entry_files[key] = origins
