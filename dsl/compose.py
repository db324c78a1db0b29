"""Rules for a player count, and variants composed on the command line.

``provost play ys --players 3 --variant kings_favor --variant express`` loads:

1. the base (a shipped game, or a rule file given by path);
2. the base's rules for 3 players: the variant of the base game that says ``for_players 3``
   (unless a variant asked for already brings player-count rules, as ``three_players_short``
   brings ``three_players``);
3. each named variant's changes, in order, with the bases of its own that are not applied yet.

A variant was written against its own base.  When a declaration it replaces was already changed
by another variant of the composition, the two changes are merged attribute by attribute against
that base (a three-way merge): an attribute only one side changed takes that side's value; the
game's ``players`` take the counts both allow, its ``rounds`` both sides' added phases, its title
both titles and its description the later variant's; any other attribute both changed differently is an error (L007) naming both
files.  So ``three_players`` + ``kings_favor`` is the 3-player rules with a fifth phase, and
``kings_favor`` + ``express`` keeps the King's Favor's reserve of '2' brokers beside Express's nine
brokers, without a file for each combination.
"""
from __future__ import annotations

import os

from .diagnostics import Diagnostic, RulesError, UnknownName, did_you_mean, register

register("L007", "error", "variants composed together change the same rule differently")
register("L008", "error", "more than one variant gives the rules for a player count")

SEPARATOR = "+"


def split_variants(variant) -> list[str]:
    """``"kings_favor+express"``, ``["kings_favor", "express"]`` or None -> a list of names or paths.

    A name that is an existing file is a path and is not split (a path may hold a '+')."""
    if not variant:
        return []
    items = [variant] if isinstance(variant, str) else list(variant)
    out = []
    for item in items:
        if os.path.isfile(item) or SEPARATOR not in item:
            out.append(item)
        else:
            out.extend(p for p in item.split(SEPARATOR) if p)
    return out


def is_composed(variant, players) -> bool:
    """Whether loading needs this module (more than one variant, a variant path, or a player count)."""
    names = split_variants(variant)
    return players is not None or len(names) > 1 or any(_is_path(n) for n in names)


def _is_path(name: str) -> bool:
    return os.sep in name or "/" in name or name.endswith(".rules")


# ------------------------------------------------------------------ finding the files
def _variant_file(root: str, name: str, ruleset: str, own: list[str] = ()) -> str:
    """The file of variant ``name``: a path, a file of ``own`` (the variant file named as the
    ruleset, and its bases) by its declared name, or a name among the game's variants."""
    from .loader import _head_of, _unreadable, variants_of

    if _is_path(name):
        if not os.path.isfile(name):
            raise RulesError([Diagnostic(name, 1, 1, "error", "P005", "file not found")])
        head = _head_of(name)
        if head is None:
            raise _unreadable(name)
        return name
    for f in own:
        if (_head_of(f) or {}).get("name") == name:
            return f
    variants = variants_of(root)
    for v in variants:
        if v["name"] == name:
            return v["path"]
    names = [v["name"] for v in variants]
    game = _head_of(root)["name"]
    raise UnknownName(Diagnostic(ruleset, 1, 1, "error", "L001", "unknown variant '%s' of %s%s (variants: %s)"
                                 % (name, game, did_you_mean(name, names), ", ".join(names) or "none")))


def chain_of(path: str) -> list[str]:
    """The variant files from the game (excluded) to ``path`` (included), bases first."""
    from .loader import MAX_VARIANT_DEPTH, _find_base, _head_of

    out = []
    while len(out) <= MAX_VARIANT_DEPTH:
        head = _head_of(path)
        if head is None or head["kind"] != "variant":
            break
        out.insert(0, path)
        path = _find_base(head["extends"], path)
        if path is None:
            break
    return out


def _same(a: str, b: str) -> bool:
    return os.path.abspath(a) == os.path.abspath(b)


def player_count_file(root: str, players: int) -> str | None:
    """The variant of the game in ``root`` that holds its rules for ``players`` players, if any."""
    from .loader import variants_of

    found = [v["path"] for v in variants_of(root) if players in (v.get("for_players") or [])]
    if len(found) > 1:
        raise RulesError([Diagnostic(found[1], 1, 1, "error", "L008", "%s and %s both say they are the rules for %d "
                                     "players (for_players)" % (found[0], found[1], players))])
    return found[0] if found else None


# ------------------------------------------------------------------ merging
def without_positions(v):
    """A value without its source positions, for comparing declarations from different files."""
    if isinstance(v, dict):
        return {k: without_positions(x) for k, x in v.items() if k != "pos" and not k.endswith("_pos")}
    if isinstance(v, list):
        return [without_positions(x) for x in v]
    return v


def _merge_rounds(ancestor: list, current: list, theirs: list) -> list:
    """Phases: those ``theirs`` removed go, those it added come in after the phase they follow there."""
    out = [p for p in current if p in theirs or p not in ancestor]
    for i, p in enumerate(theirs):
        if p in out:
            continue
        before = theirs[i - 1] if i else None
        out.insert(out.index(before) + 1 if before in out else (0 if before is None else len(out)), p)
    return out


def _counts(r: list) -> str:
    return "%d" % r[0] if r[0] == r[1] else "%d to %d" % (r[0], r[1])


def merge_decl(ancestor: dict, current: dict, theirs: dict, their_title: str) -> tuple[dict, list[str]]:
    """A three-way merge of one declaration; returns it and the attributes both sides changed."""
    merged, conflicts = dict(current), []
    for key in dict.fromkeys(list(current) + list(theirs)):
        if key == "pos" or key.endswith("_pos"):
            continue
        a, c, t = (without_positions(d.get(key)) for d in (ancestor, current, theirs))
        if t == a or c == t:
            continue                                    # they left it alone, or agree
        if c == a:
            merged[key] = theirs.get(key)               # only they changed it
            if key + "_pos" in theirs:
                merged[key + "_pos"] = theirs[key + "_pos"]
        elif current.get("kind") == "game" and key == "players" and c and t:
            lo, hi = max(c[0], t[0]), min(c[1], t[1])
            if lo > hi:
                conflicts.append("players: %s is for %s players, the rules it joins for %s; no player count "
                                 "suits both" % (their_title, _counts(t), _counts(c)))
            merged[key] = [lo, hi]
        elif current.get("kind") == "game" and key == "rounds":
            merged[key] = _merge_rounds(a or [], c or [], t or [])
        elif current.get("kind") == "game" and key == "title":
            merged[key] = "%s, %s" % (c, their_title)
        elif current.get("kind") == "game" and key == "description":
            merged[key] = theirs.get(key)                # the later variant's words
        else:
            conflicts.append(key)
    merged["pos"] = theirs.get("pos", current.get("pos"))
    return merged, conflicts


# ------------------------------------------------------------------ composing
def compose(ruleset: str, variant, players: int | None):
    """The ruleset named on a command line, with its player-count rules and variants.

    Returns ``(Ruleset or None, diagnostics)``; unknown names raise as ``resolve_path`` does."""
    from .loader import (_find_base, _resolve, _root_file_of, _unreadable, apply_variant, parse_file,
                         positions_file, resolve_path)

    base_path = resolve_path(ruleset)
    root = _root_file_of(base_path)
    if root is None:
        raise _unreadable(base_path)
    files = [_variant_file(root, name, ruleset, chain_of(base_path)) for name in split_variants(variant)]
    if not _same(base_path, root) and any(_same(base_path, f) for f in files):
        # The variant file named as the ruleset is one of the variants, as a log or a save names
        # the rules it was loaded with (three_players+mine): it comes at its place among them.
        base_path = root
    wanted = [f for path in [base_path] + files for f in chain_of(path)]
    if players is not None and not any(_head_of_variant(f).get("for_players") for f in wanted):
        auto = player_count_file(root, players)
        if auto is not None:
            files.insert(0, auto)
            if not _same(base_path, root):
                # A variant file named as the ruleset comes after the count's rules, as it would
                # with --variant: its changes are merged with theirs, and a conflict is its own.
                files.insert(1, base_path)
                base_path = root
    rs, diags = _resolve(base_path)
    if rs is None:
        return None, diags
    names = [rs.variant] if rs.variant else []

    def apply_file(path: str) -> list[Diagnostic]:
        if any(_same(path, f) for f in rs.chain):
            return []
        ir, more = parse_file(path)
        if ir is None or any(d.severity == "error" for d in more):
            return more
        head, where = ir["decls"][0], positions_file(ir, path)
        out = []
        for name in head.get("with") or []:
            other = _find_base(name, path)
            for f in chain_of(other) if other else []:
                out += apply_file(f)
        own_bases = [root] + chain_of(path)[:-1]
        out += _step_conflicts(rs, head, where, own_bases)
        out += apply_variant(rs, head, where, merge=merge_against_base(head, path, where, own_bases))
        rs.chain.append(where)
        rs.variant_head = head                  # the head of the last file in the chain
        rs.count_rules += head.get("for_players") or []
        names.append(head["name"])
        return out

    for path in files:
        for f in chain_of(path):
            diags += apply_file(f)
            if any(d.severity == "error" for d in diags):
                return None, diags
    rs.variant = SEPARATOR.join(names) if names else None
    return rs, diags


def merge_against_base(head: dict, path: str, where: str, own_bases: list):
    """The ``merge`` with which variant ``head`` (read from ``path``, positions in ``where``) is
    applied on top of other variants: a rule it replaces that another variant changed first is
    merged with that change against the rule as the variant's own base has it (a three-way
    merge); what both changed is a conflict (L007).  A rule last changed in one of its own bases
    (``own_bases``) is the one it was written against: its replacement stands."""
    from .loader import variant_base
    ancestor: dict = {}

    def merge(key, current, current_file, theirs):
        if any(_same(current_file, f) for f in own_bases):
            return theirs, []                       # written against exactly this rule
        if not ancestor:
            base, _ = variant_base(head, path, where)
            ancestor.update(((d["kind"], d.get("name")), d) for d in (base.decls if base else []))
        before = ancestor.get((current["kind"], current.get("name")))
        if before is None:
            return theirs, []
        merged, conflicts = merge_decl(before, current, theirs, head.get("title") or head["name"])
        return merged, [c if c.startswith("players:") else
                        "%s %s: %s and %s both change its %s; they cannot be composed"
                        % (current["kind"], current.get("name"), os.path.basename(current_file),
                           os.path.basename(where), c) for c in conflicts]
    return merge


def _step_conflicts(rs, head: dict, where: str, own_bases: list) -> list[Diagnostic]:
    """A step (or a table's entry) this variant replaces or removes that another variant of the
    composition already changed: the two cannot both hold (a step has no attributes to merge)."""
    out = []
    for ch in head.get("changes") or []:
        if ch["op"] in ("replace_step", "remove_step"):
            what = "step %s.%s" % (ch["phase"], ch["step"])
            origins = [o[ch["step"]] for key, o in rs.step_files.items() if key[1] == ch["phase"] and ch["step"] in o]
        elif ch["op"] in ("replace_entry", "remove_entry"):
            what = "entry %s.%s" % (ch["table"], ch["key"])
            origins = [(rs.entry_files.get(("table", ch["table"])) or {}).get(ch["key"])]
        else:
            continue
        for origin in origins:
            if origin and not any(_same(origin, f) for f in own_bases):
                out.append(Diagnostic(where, ch["pos"][0], ch["pos"][1], "error", "L007",
                                      "%s: %s and %s both change it; they cannot be composed"
                                      % (what, os.path.basename(origin), os.path.basename(where))))
    return out


def _head_of_variant(path: str) -> dict:
    from .loader import _head_of
    return _head_of(path) or {}
