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
files.  A table's entries and a phase's steps are merged one by one in the same way, whether a
variant changes one of them (``replace entry``, ``add step``, ...) or replaces the whole table or
phase: only an entry or a step both change differently is L007.  So ``three_players`` +
``kings_favor`` is the 3-player rules with a fifth phase, and ``kings_favor`` + ``express``
keeps the King's Favor's reserve of '2' brokers beside Express's nine brokers, without a file
for each combination.
"""
from __future__ import annotations

import os

from .changes import apply_variant, changed_part, decl_key, named_parts, part_files, part_holder, part_of
from .diagnostics import Diagnostic, RulesError, UnknownName, did_you_mean, explain, register
from .source import input_problem

register("L007", "error", "variants composed together change the same rule differently")
register("L008", "error", "more than one variant gives the rules for a player count")
explain("L007", """
Variants composed (`--variant A --variant B`, `A+B`, `extends BASE with A, B`, or a count's rules
under a variant) are merged attribute by attribute; two of them changing the same attribute, step
or table entry differently cannot both hold, and neither wins silently.

    provost play ys --players 2 --variant kings_favor
    ys.kings_favor.rules:7:5: error: players: King's Favor is for 3 to 4 players, the rules it
    joins for 2; no player count suits both [L007]

Fix: compose variants that change different rules, or write one variant file that extends the
first and makes the change as it should be.""")
explain("L008", """
At most one variant of a game may say `for_players N`: `--players N` applies that variant first,
as the game's rules for N players, and with two of them there is no telling which rules are
meant.  Each file checks clean on its own, so the error comes when the count is asked for
(`play`, `sim`, ... with `--players N`, or `load_checked(..., players=N)`), at the second file.

    provost play base.rules --players 2
    base.pair.rules:1:1: error: base.duo.rules and base.pair.rules both say they are the rules for 2 players (for_players) [L008]

Fix: say `for_players 2` in one file only; the other is then a variant like any, played on top
of the 2-player rules with `--players 2 --variant pair` (L007 if both change one rule
differently).""")

SEPARATOR = "+"


def split_variants(variant) -> list[str]:
    """``"kings_favor+express"``, ``["kings_favor", "express"]`` or None -> a list of names or paths.

    A name that is an existing file is a path and is not split (a path may hold a '+'), also
    when it is one of several joined (``kings_favor+/tmp/my+var.rules``: repeated ``--variant``
    options, a log's or a save's variants): the longest run of parts that names a file is one."""
    if not variant:
        return []
    items = [variant] if isinstance(variant, str) else list(variant)
    out = []
    for item in items:
        if os.path.isfile(item) or SEPARATOR not in item:
            out.append(item)
        else:
            out.extend(_split_joined(item))
    return out


#: At most this many '+' in one path of a joined argument: a save's or a log's variants are
#: untrusted, and each run of parts tried is a stat of the file system.
MAX_SEPARATORS_IN_PATH = 8


def _split_joined(item: str) -> list[str]:
    parts = item.split(SEPARATOR)
    out, i = [], 0
    while i < len(parts):
        longest = min(len(parts), i + 1 + MAX_SEPARATORS_IN_PATH)
        j = next((j for j in range(longest, i + 1, -1) if os.path.isfile(SEPARATOR.join(parts[i:j]))), i + 1)
        if SEPARATOR.join(parts[i:j]):
            out.append(SEPARATOR.join(parts[i:j]))
        i = j
    return out


def is_composed(variant, players, ruleset: str | None = None) -> bool:
    """Whether loading needs this module (more than one variant, a variant path, a player count,
    or a variant of the game chosen on top of a variant file named as ``ruleset``)."""
    names = split_variants(variant)
    return players is not None or len(names) > 1 or names_a_file(names) or \
        (ruleset is not None and len(names) == 1 and _another_variant_on_a_variant_file(ruleset, names[0]))


def _another_variant_on_a_variant_file(ruleset: str, name: str) -> bool:
    """``provost play my.variant.rules --variant simplified_favor``: composed, as with ``--players``
    or ``A+B`` (loaded alone, the file would be taken for a game whose variants are asked for)."""
    from .loader import _head_of, shipped_game
    if shipped_game(ruleset) is not None:
        return False
    head = _head_of(ruleset)
    return head is not None and head["kind"] == "variant" and head["name"] != name


def names_a_file(variant) -> bool:
    """Whether a variant argument names a rule file of the user's (which may change between loads)."""
    return any(_is_path(n) for n in split_variants(variant))


def _is_path(name: str) -> bool:
    return os.sep in name or "/" in name or name.endswith(".rules")


# ------------------------------------------------------------------ finding the files
def _variant_file(root: str, name: str, ruleset: str, own: list[str] = ()) -> str:
    """The file of variant ``name``: a path, a file of ``own`` (the variant file named as the
    ruleset, and its bases) by its declared name, or a name among the game's variants."""
    from .loader import _head_of, _unreadable, variant_named

    if _is_path(name):
        if not os.path.isfile(name):
            # As for the ruleset: a folder or a pipe is said to be one, not "not found".
            raise RulesError([input_problem(name) or Diagnostic(name, 1, 1, "error", "P005", "not a file")])
        head = _head_of(name)
        if head is None:
            raise _unreadable(name)
        return name
    for f in own:
        if (_head_of(f) or {}).get("name") == name:
            return f
    return variant_named(root, name, ruleset)


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
    # The merged declaration is reported in their file: only the values it holds as they wrote
    # them keep a position of their own (the others point at the declaration).
    at = {k: p for k, p in (theirs.get("attr_pos") or {}).items()
          if without_positions(merged.get(k)) == without_positions(theirs.get(k))}
    merged.pop("attr_pos", None)
    if at:
        merged["attr_pos"] = at
    return merged, conflicts


# ------------------------------------------------------------------ composing
def compose(ruleset: str, variant, players: int | None):
    """The ruleset named on a command line, with its player-count rules and variants.

    Returns ``(Ruleset or None, diagnostics)``; unknown names raise as ``resolve_path`` does."""
    from .loader import (_find_base, _resolve, _root_file_of, missing_with, no_game_found, parse_file,
                         positions_file, resolve_path)

    base_path = resolve_path(ruleset)
    root = _root_file_of(base_path)
    if root is None:
        raise no_game_found(base_path)
    files = [_variant_file(root, name, ruleset, chain_of(base_path)) for name in split_variants(variant)]
    problems = [d for f in files for d in _not_a_variant_of(f, root)]
    if problems:
        return None, problems
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
            if other is None:           # as loading the file on its own says it
                return out + [missing_with(name, head, path, where)]
            for f in chain_of(other):
                out += apply_file(f)
        out += apply_composed(rs, head, path, where, [root] + chain_of(path)[:-1])
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


def _not_a_variant_of(path: str, root: str) -> list[Diagnostic]:
    """L006 when the file given as a variant is a game, or a variant of another game: its changes
    name declarations of that game (a game's would be ignored, another game's applied to names
    that mean other things here)."""
    from .loader import _head_of, _root_file_of, no_game_found
    head = _head_of(path) or {}
    pos = head.get("pos") or [1, 1]
    game = (_head_of(root) or {}).get("name")
    if head.get("kind") == "game":
        msg = "'%s' is a game, not a variant: a variant of %s says 'variant NAME extends %s'" % (path, game, game)
    else:
        other = _root_file_of(path)
        if other is None:               # its own base not found: as loading the file says it
            return no_game_found(path).diagnostics
        theirs = (_head_of(other) or {}).get("name")
        if theirs is None or theirs == game:
            return []                               # the same game
        msg = "variant '%s' changes the game '%s', not '%s'" % (head.get("name"), theirs, game)
    return [Diagnostic(path, pos[0], pos[1], "error", "L006", msg)]


def apply_composed(rs, head: dict, path: str, where: str, own_bases: list) -> list[Diagnostic]:
    """Apply variant ``head`` (read from ``path``, positions in ``where``) on top of the other
    variants of a composition.  A rule, a step or an entry it changes that another variant changed
    first is merged with that change against the rule as the variant's own base has it (a
    three-way merge); what both changed differently is a conflict (L007).  A rule last changed in
    one of its own bases (``own_bases``) is the one it was written against: its change stands."""
    base = _base_decls(head, path, where)
    out, done = _part_conflicts(rs, head, where, own_bases, base)
    if done:
        head = dict(head, changes=[ch for ch in head["changes"] if not any(ch is d for d in done)])
    return out + apply_variant(rs, head, where, merge=merge_against_base(head, where, own_bases, base))


def _base_decls(head: dict, path: str, where: str):
    """A function giving the declarations of the base variant ``head`` was written against, by key
    (read once, when first asked: most changes need no merge)."""
    from .loader import variant_base
    got: dict = {}

    def base() -> dict:
        if "decls" not in got:
            rules, _ = variant_base(head, path, where)
            got["decls"] = {decl_key(d): d for d in (rules.decls if rules else [])}
        return got["decls"]
    return base


def _own(path, own_bases) -> bool:
    return any(_same(path, f) for f in own_bases)


def merge_against_base(head: dict, where: str, own_bases: list, base):
    """The ``merge`` with which variant ``head`` (positions in ``where``) is applied on top of
    other variants: see ``apply_composed``.  A table's entries and a phase's steps are merged one
    by one, so a variant that replaces a whole table composes with one that changes an entry the
    first left as it was."""
    def merge(key, current, current_file, theirs, files):
        if _own(current_file, own_bases):
            return theirs, [], None                 # written against exactly this rule
        before = base().get(key)
        if before is None:
            return theirs, [], None
        parts = _merge_parts(before, current, theirs, files or {}, current_file, where)
        attr, merged_parts, conflicts, part_origins = None, None, [], None
        if parts is not None:
            merged_parts, conflicts, part_origins = parts
            attr = "entries" if current["kind"] == "table" else "body"
            before, current, theirs = ({k: v for k, v in d.items() if k != attr} for d in (before, current, theirs))
        merged, more = merge_decl(before, current, theirs, head.get("title") or head["name"])
        if attr is not None:
            merged[attr] = merged_parts
        return merged, conflicts + [c if c.startswith("players:") else
                                    "%s %s: %s and %s both change its %s; they cannot be composed"
                                    % (current["kind"], current.get("name"), os.path.basename(current_file),
                                       os.path.basename(where), c) for c in more], part_origins
    return merge


def _both_change(part: str, of: str, name: str, first: str, then: str) -> str:
    return ("%s %s.%s: %s and %s both change it; they cannot be composed"
            % (part, of, name, os.path.basename(first), os.path.basename(then)))


def _anchor_removed(part: str, of: str, name: str, adder: str, side: str, anchor: str, remover: str) -> str:
    return ("%s %s.%s: %s adds it %s %s %s, which %s removes; they cannot be composed"
            % (part, of, name, os.path.basename(adder), side, part, anchor, os.path.basename(remover)))


def _merge_parts(before: dict, current: dict, theirs: dict, files: dict, current_file: str, where: str):
    """A whole table (or phase) ``theirs`` replaces merged with the one in place, entry by entry
    (step by step) against the base's: ``(parts, conflicts, the file of each part)``, in the order
    ``theirs`` gives them, the entries only ``current`` added beside the one they were added
    next to.  None when the parts are not all named (they are then merged as one attribute)."""
    a, c, t = (named_parts(d) for d in (before, current, theirs))
    if a is None or c is None or t is None:
        return None
    part, of = ("entry", current["name"]) if current["kind"] == "table" else ("step", current.get("name"))
    whose = lambda n: files.get(n, current_file)      # noqa: E731
    merged, conflicts = {}, []
    origins = {n: f for n, f in files.items() if n and n not in c}    # earlier removals
    for n in dict.fromkeys(list(a) + list(c) + list(t)):
        was, now, new = (without_positions(x.get(n)) for x in (a, c, t))
        if new == was or new == now and n in c:
            keep, from_ = c.get(n), whose(n)                     # they left it, or agree
        elif now == was or now == new:
            keep, from_ = t.get(n), where                        # only they changed it
        else:
            keep, from_ = t.get(n), where
            conflicts.append((_both_change(part, of, n, whose(n), where), (t.get(n) or {}).get("pos")))
        if keep is not None:
            merged[n] = keep
        origins[n] = from_
    order = [n for n in t if n in merged]
    for i, n in enumerate(c):
        if n in merged and n not in order:                      # only the one in place has it
            side, anchor = _added_at(whose(n), part, of, n) or ("after", None)
            if anchor is not None and anchor in a and anchor not in t:
                conflicts.append((_anchor_removed(part, of, n, whose(n), side, anchor, where), None))
            prev = list(c)[i - 1] if i else None
            if side == "before" and anchor in order:
                at = order.index(anchor)
            elif side is None:
                at = len(order)
            else:
                at = order.index(prev) + 1 if prev in order else (0 if prev is None else len(order))
            order.insert(at, n)
    return [merged[n] for n in order], conflicts, origins


def _added_at(path: str, part: str, of: str, name: str):
    """Where the variant in ``path`` adds step or entry ``name`` of ``of``: ``("after", X)``,
    ``("before", X)`` or ``(None, None)`` (at the end); None when it does not add it itself."""
    from .loader import parse_file
    try:
        ir, _ = parse_file(path)
    except Exception:                                            # noqa: BLE001 - a file gone since
        return None
    for ch in ((ir or {}).get("decls") or [{}])[0].get("changes") or []:
        if ch["op"] == "add_" + part and part_of(ch) == (part, of, name):
            return ("after", ch["after"]) if ch.get("after") else (
                ("before", ch["before"]) if ch.get("before") else (None, None))
    return None


def _part_conflicts(rs, head: dict, where: str, own_bases: list, base) -> tuple[list[Diagnostic], list]:
    """Each step (or table's entry) this variant replaces, adds or removes that another variant of
    the composition changed first, from the way this variant's base has it: if the other left it
    differently from this change, the two cannot both hold (L007; a step has no attributes to
    merge).  Returns the conflicts and the changes the other variant already made the same way
    (to be skipped)."""
    out, done = [], []
    index = {decl_key(d): i for i, d in enumerate(rs.decls)}
    for ch in head.get("changes") or []:
        key = part_holder(index, ch) if ch["op"].endswith(("_step", "_entry")) else None
        now = named_parts(rs.decls[index[key]], only=False) if key else None
        if now is None:
            continue                                # apply_variant says what is missing
        part, of, name = part_of(ch)
        files = part_files(rs, key).get(key) or {}
        whose = lambda n: files.get(n, rs.files[index[key]])     # noqa: E731
        side = "after" if ch.get("after") else ("before" if ch.get("before") else None)
        anchor = ch.get(side) if side else None

        def error(msg):
            out.append(Diagnostic(where, ch["pos"][0], ch["pos"][1], "error", "L007", msg))

        if (side and anchor not in now and not _own(whose(anchor), own_bases)
                and anchor in (named_parts(base().get(key), only=False) or {})):
            error(_anchor_removed(part, of, name, where, side, anchor, whose(anchor)))
            continue
        if _own(whose(name), own_bases):
            continue
        was = (named_parts(base().get(key), only=False) or {}).get(name)
        if without_positions(now.get(name)) == without_positions(was):
            continue                                # the other variant left it as it was
        if without_positions(now.get(name)) == without_positions(changed_part(ch, now.get(name))):
            if not ch["op"].startswith("replace"):
                done.append(ch)                     # already added, or removed, the same way
            continue
        error(_both_change(part, of, name, whose(name), where))
    return out, done


def _head_of_variant(path: str) -> dict:
    from .loader import _head_of
    return _head_of(path) or {}
