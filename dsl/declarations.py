"""Raw IR -> structured IR: give every declaration kind its fields.

The grammar parses every declaration as ``kind words... [: body]``; this module
knows what each kind means (which words and attributes it takes) and reports
the rest as positioned errors with "did you mean" suggestions.  The result is
the IR described by dsl/schema.json: one dict per declaration with a ``kind``.
"""
from __future__ import annotations

import re

from .diagnostics import Diagnostic, did_you_mean, explain, register

register("D001", "error", "unknown declaration kind")
register("D002", "error", "declaration needs a name")
register("D003", "error", "unknown or misplaced word in a declaration head")
register("D004", "error", "unknown attribute for this kind of declaration")
register("D005", "error", "attribute has a value of the wrong form")
register("D006", "error", "attribute given twice")
register("D007", "error", "table entry of the wrong form")
register("D008", "error", "declaration kind not allowed here")
register("D009", "error", "a declaration family that cannot be expanded")
explain("D001", """
The first word of a declaration is its kind (`game`, `resource`, `counter`, `building`, `phase`,
`table`, ...), and this one is none of them.  The parser reads any word there, so a misspelt
kind is found only here; the declaration means nothing without its kind, and skipping it would
play the game without it.  Inside a variant every line is a declaration or a change, so a statement
written there (`gain 1 food`) is reported the same way.

    buildng farm "Farm":      # error: unknown declaration kind 'buildng'; did you mean 'building'?
        prestige 2

Fix: spell the kind as dsl/README.md lists it (`building farm "Farm" CATEGORY:`), and put
statements in a block that runs them (`setup:`, a phase, a building's `work:`).""")
explain("D002", """
Every declaration but `setup:` and `final:` has a name: it is how the rest of the rules use it
(`rounds work, tally`, `activate yard`, `held(food)`) and how a variant replaces or removes it.
A declaration without one could never be referred to.  A number or a string where the name goes
is no name either (`space 3:`, `resource "food"`).

    phase:                    # error: a phase declaration needs a name
        nothing

Fix: name it (`phase income "Income":`), and use the name where it is meant to run (a phase in
the game's `rounds`).""")
explain("D003", """
After its name and title, a declaration's head holds only the words its kind takes: a counter
`per player` or `global`, `by ENUM`, `start N`, `min N`, `max N`, `reset round|phase`, `visible
WHO`; a building its category; a phase or an effect nothing more.  A word the kind does not take
is an error, not ignored: the game would be played without what the word was meant to say (a
counter meant to start at 3 would start at 0).  A value left without its word is reported too.

    counter workers per player strat 3    # error: unexpected 'strat' in a counter declaration;
                                          # did you mean 'start'? (and: unexpected '3')

Fix: spell the word as the kind takes it (`counter workers per player start 3`); attributes
(`prestige 2`, `slots 2`) go on the lines of the body, not in the head.""")
explain("D004", """
A declaration's body holds the attributes its kind knows, one a line: a building's `cost`,
`prestige`, `count`, `at`, `income`, `other_side` and its blocks `work:`, `owner:`, `on_build:`;
a space's `slots`, `per_player`, `placeable`, `work:`; the game's, a category's, pieces' and an
invariant's own (dsl/README.md).  An attribute the kind does not know is an error, not ignored:
the farm below would be built worth no prestige, and nothing would say why.  A statement
(`gain 1 food`) in such a body is reported too: effects go in a block such as `work:`.

    building farm "Farm" c:
        prestig 2             # error: unknown attribute 'prestig' for a building;
                              # did you mean 'prestige'?

Fix: spell the attribute as the kind takes it (`prestige 2`), or move effects into the block
that runs them (`work:` followed by the effects, indented).""")
explain("D005", """
An attribute or a head word is known, but its value is not of the form it takes, or a part the
kind cannot do without is missing: `players` takes a count or a range (`4`, `3..5`), `slots` and
`count` a number or `unlimited`, `workable` yes or no, `cost` amounts (`1 wood, 2 food`),
`reset` round or phase, `description` one string, `work` a block of effects on the lines below;
a building needs its category, a track its length, a trigger `on EVENT`, pieces their `values`.
The rules are not built on a guess at what the value meant (a counter reset at a time the engine
never meets would never be reset).

    game g:
        players three         # error: 'players' expects a range like 3..5

Fix: write the value in the form the message names (`players 3..5`, or `players 3` for one
count).""")
explain("D006", """
A declaration gives one attribute twice.  Only one value can hold, and taking the first or the
last silently would play a game its author did not write; when the lines differ, one of them is
a mistake (often a line copied from another declaration).

    game g:
        players 2..4
        players 3..4          # error: attribute 'players' given twice

Fix: keep the one line that is meant (`players 2..4`); an attribute that takes several values
takes them on one line (`cost 1 wood, 1 food`).""")
explain("D007", """
A table holds entries, each a key and what it does: `KEY: effect` on one line, or `KEY:` and a
block below, the key a number (`1:`), a range (`1..2:`, `3..:`) or a name.  A line without a key
could never be looked up by `do TABLE[KEY]`, so it would never run.

    table t:
        1: gain 1 pp
        gain 2 pp             # error: a table holds entries 'KEY: effect'

Fix: give the line its key (`2..: gain 2 pp` for every value from 2 up), or move it into the
block of the entry it belongs to.""")
explain("D008", """
A variant is a file of its own: it names its base after `extends` and holds the changes made to
it, and other variants and `--variant` find it by its file.  A `variant` declared inside another
has no file of its own, and its changes would be made to no clear base, so it is refused rather
than read as a change of the outer variant.

    variant v extends base:
        variant inner extends base:    # error: a variant cannot be declared inside another
            nothing                    # variant

Fix: write the inner variant in a file of its own beside the game (`base.inner.rules`), and
compose the two where both are wanted (`--variant v --variant inner`).""")
explain("D009", """
A family, `for NAME in VALUES:` followed by indented declarations, writes its declarations out
once per value with `{NAME}` filled in, before any check runs.  D009 is a family that cannot be
written out: a placeholder outside every family or not one of its names, a name that is not a
name once filled in, values that are not written out (a range like `1..4`, or a list of numbers,
names and strings), rows of the wrong length for `for A, B in ...`, or more than 1,000
declarations in one file.

    space t{n} "T":           # error: 't{n}' has a placeholder but no 'for' family gives it a value
        placeable no

Fix: indent the declaration under the family that gives `n` (`for n in 1..2:`), or write its name
out (`space t1 "T":`).""")

IR_VERSION = 1

YES_NO = {"yes": True, "no": False, "true": True, "false": False}


# A family writes out its declarations: past this many in a file, a hostile or mistyped range
# (`for n in 1..999999999:`) would only cost memory and time (Ys, the largest, generates 24).
MAX_FAMILY = 1_000


# What an invariant says of its expression, after every decision: it is true; its value never
# changes from the game's first decision; it never goes down; it never goes up.
INVARIANT_TESTS = ("holds", "constant", "never_decreases", "never_increases")

# When a counter, an order or a zone goes back to its start (`reset round`): the engine resets at
# the start of each round and of each phase, and a value it never meets would never reset.
RESET_WHEN = ("round", "phase")

#: The attributes a declaration's body may hold, by kind: an attribute's values on its line
#: ("args") or a block of effects ("block").  The builder checks bodies against it and the
#: language server completes from it.
ATTRIBUTES: dict[str, dict[str, str]] = {
    "game": {"description": "args", "players": "args", "score": "args", "ends_if": "args", "rounds": "args",
             "max_rounds": "args", "tiebreak": "args", "workers_return_to": "args", "neutral_players": "args"},
    "category": {"workable": "args", "transformable": "args", "removed_to": "args", "built_on": "args"},
    "space": {"slots": "args", "per_player": "args", "placeable": "args", "work": "block"},
    "pieces": {"values": "args", "start": "args", "private": "args", "public": "args", "reserve": "args",
               "neutral_values": "args"},
    "building": {"cost": "args", "prestige": "args", "count": "args", "at": "args", "income": "args",
                 "other_side": "args", "work": "block", "owner": "block", "on_build": "block"},
    "invariant": {k: "args" for k in INVARIANT_TESTS},
}


#: The IR field a head word's value goes to, where the two names differ (``trigger t on EVENT``).
FLAG_FIELDS = {"on": "event", "per": "scope", "global": "scope"}


class Builder:
    def __init__(self, path: str):
        self.path = path
        self.diags: list[Diagnostic] = []
        self.generated = 0          # declarations written out by families so far
        self.value_at: dict = {}    # field -> position of its value, in the declaration being built

    # ------------------------------------------------------------ reporting
    def error(self, pos, code: str, message: str) -> None:
        line, col = (pos[0], pos[1]) if pos else (1, 1)
        self.diags.append(Diagnostic(self.path, line, col, "error", code, message))

    # ------------------------------------------------------------ entry point
    def build_file(self, raw_items: list) -> dict:
        decls = []
        for item in raw_items:
            if item.get("decl") == "variant":
                decls.append(self.variant(item))
            elif "family" in item:
                for raw in self.family(item, {}):
                    decls.extend(self.decl(raw))
            else:
                decls.extend(self.decl(item))
        return {"provost_ir": IR_VERSION, "decls": decls}

    def variant(self, item: dict) -> dict:
        changes = []
        description = None
        for_players, for_players_pos = None, None
        for it in item["items"]:
            change = it.get("change")
            if change is None and it.get("decl") == "description":
                words = it["words"]
                if len(words) != 1 or "str" not in words[0] or it["body"]:
                    self.error(it["pos"], "D005", "'description' takes one string")
                else:
                    description = words[0]["str"]
                continue
            if change is None and it.get("decl") == "for_players":
                counts = [w.get("int") for w in it["words"]]
                if not counts or it["body"] or not all(isinstance(n, int) and n >= 1 for n in counts):
                    self.error(it["pos"], "D005", "'for_players' takes player counts: for_players 3 or for_players 2, 3")
                else:
                    for_players, for_players_pos = counts, it["pos"]
                continue
            if change is None and "family" in it:
                for raw in self.family(it, {}):
                    for d in self.decl(raw):
                        changes.append({"op": "add", "decl": d, "pos": d["pos"]})
            elif change is None:
                for d in self.decl(it):
                    changes.append({"op": "add", "decl": d, "pos": d["pos"]})
            elif change == "replace":
                for d in self.decl(it["decl"]):
                    changes.append({"op": "replace", "decl": d, "pos": it["pos"]})
            elif change == "add_step":
                out = {"op": "add_step", "phase": it["phase"], "step": it["step"], "after": it["after"],
                       "body": group_steps(it["body"]), "pos": it["pos"]}
                if it.get("before"):
                    out["before"] = it["before"]
                changes.append(out)
            elif change == "replace_step":
                changes.append({"op": "replace_step", "phase": it["phase"], "step": it["step"],
                                "body": it["body"], "pos": it["pos"]})
            elif change in ("replace_entry", "add_entry"):
                # The entry as the table would hold it (`KEY:` with statements, or nested entries).
                entry = self.table_entries([{"s": "block", "label": it["key"], "body": it["body"],
                                             "pos": it["pos"]}])[0]
                out = {"op": change, "table": it["table"], "key": it["key"], "entry": entry, "pos": it["pos"]}
                if change == "add_entry":
                    out["after"] = it["after"]
                    if it.get("before"):
                        out["before"] = it["before"]
                changes.append(out)
            else:
                out = {"op": "remove", "kind": it["kind"], "name": it["name"], "pos": it["pos"]}
                if "step" in it and it["kind"] in ("entry", "table"):
                    out = {"op": "remove_entry", "table": it["name"], "key": it["step"], "pos": it["pos"]}
                elif "step" in it:
                    out = {"op": "remove_step", "phase": it["name"], "step": it["step"], "pos": it["pos"]}
                changes.append(out)
        out = {"kind": "variant", "name": item["name"], "title": item["title"], "extends": item["extends"],
               "description": description, "changes": changes, "pos": item["pos"]}
        if item.get("with"):
            out["with"] = list(item["with"])
        if for_players:
            out["for_players"] = for_players
            out["for_players_pos"] = for_players_pos      # where a problem with the counts is reported
        return out

    # ------------------------------------------------------------ families
    def family(self, fam: dict, bound: dict) -> list[dict]:
        """The raw declarations of ``for NAMES in VALUES:``, one per value, placeholders filled in.

        Every generated declaration keeps the positions of the lines that generated it, so a
        diagnostic on one of them points at its line in the family."""
        names = fam["family"]
        rows = self.family_values(fam["values"])
        if rows is None:
            return []
        if type(rows) is list and not rows:
            # A family that declares nothing is a slip (a range written backwards, 4..1), and every
            # use of what it was meant to declare would be reported as unknown, far from here.
            e = fam["values"]
            self.error(e["pos"], "D009", "the family's values are empty, so it declares nothing%s" % (
                "; a range counts up: write %d..%d" % (e["hi"]["v"], e["lo"]["v"]) if e["e"] == "range" else ""))
            return []
        out = []
        for row in rows:
            if self.generated >= MAX_FAMILY:
                self.error(fam["values"]["pos"], "D009", "families give more than %d declarations in one file"
                           % MAX_FAMILY)
                return out
            values = row if len(names) > 1 else [row]
            if len(names) > 1 and (type(row) is not list or len(row) != len(names)):
                self.error(fam["values"]["pos"], "D009", "each value of 'for %s in ...' is a list of %d: got %s"
                           % (", ".join(names), len(names), _shown(row)))
                return out
            if any(type(v) is list for v in values):
                self.error(fam["values"]["pos"], "D009", "a family's value is a number, a name or a string, not a list")
                return out
            inner = dict(bound, **dict(zip(names, values)))
            for item in fam["items"]:
                if "family" in item:
                    out.extend(self.family(item, inner))
                else:
                    self.generated += 1
                    out.append(self.fill(item, inner))
        return out

    def family_values(self, e: dict):
        """A family's values, written out in the rule file: numbers, names, strings, lists, ranges."""
        k = e["e"]
        if k in ("int", "str"):
            return e["v"]
        if k == "name":
            return e["id"]
        if k == "list":
            items = [self.family_values(i) for i in e["items"]]
            return None if any(i is None for i in items) else items
        if k == "range" and e["lo"]["e"] == "int" and e["hi"]["e"] == "int":
            lo, hi = e["lo"]["v"], e["hi"]["v"]
            if hi - lo >= MAX_FAMILY:
                self.error(e["pos"], "D009", "a family of %d values; a family gives at most %d declarations"
                           % (hi - lo + 1, MAX_FAMILY))
                return None
            return list(range(lo, hi + 1))
        self.error(e["pos"], "D009", "a family's values are written out: numbers, names, strings, lists of them "
                   "or a range like 1..4")
        return None

    def fill(self, raw, bound: dict):
        """A copy of a raw declaration with ``{name}`` replaced in its head words and strings."""
        if type(raw) is list:
            return [self.fill(x, bound) for x in raw]
        if type(raw) is not dict:
            return raw
        out = {k: self.fill(v, bound) for k, v in raw.items()}
        if raw.get("template"):
            del out["template"]
            name = _PLACEHOLDER.sub(lambda m: self.placeholder(m, bound, raw["pos"]), raw["name"])
            if not _NAME.fullmatch(name):
                self.error(raw["pos"], "D009", "'%s' gives '%s', which is not a name" % (raw["name"], name))
            out["name"] = name
        elif "str" in raw and type(raw["str"]) is str and "pos" in raw:
            out["str"] = _PLACEHOLDER.sub(lambda m: str(bound.get(m.group(1), m.group(0))), raw["str"])
        elif raw.get("e") == "str":
            out["v"] = _PLACEHOLDER.sub(lambda m: str(bound.get(m.group(1), m.group(0))), raw["v"])
        return out

    def placeholder(self, m, bound: dict, pos) -> str:
        if m.group(1) not in bound:
            self.error(pos, "D009", "'{%s}' is not a name of the family%s"
                       % (m.group(1), did_you_mean(m.group(1), bound)))
            return m.group(1)
        return str(bound[m.group(1)])

    def decl(self, raw: dict) -> list[dict]:
        """The declarations ``raw`` writes, each with ``attr_pos``: where the value of each of its
        fields written on a line of its own or as a head word is, so that a check about one
        field (a prestige below 0, an undeclared category) points at it, not at the head."""
        self.value_at: dict = {}
        out = self._decl(raw)
        if self.value_at and len(out) == 1:
            at = {k: pos for k, pos in self.value_at.items() if k in out[0] and k != "pos"}
            if at:
                out[0]["attr_pos"] = at
        return out

    def _decl(self, raw: dict) -> list[dict]:
        kind = raw["decl"]
        for w in raw.get("words") or []:
            if w.get("template"):
                self.error(w["pos"], "D009", "'%s' has a placeholder but no 'for' family gives it a value" % w["name"])
                return []
        if kind == "let":
            return [{"kind": "let", "name": raw["name"], "params": raw["params"], "value": raw["value"],
                     "pos": raw["pos"]}]
        if kind == "variant":
            self.error(raw["pos"], "D008", "a variant cannot be declared inside another variant")
            return []
        handler = getattr(self, "k_" + kind, None)
        if handler is None:
            self.error(raw["pos"], "D001", "unknown declaration kind '%s'%s" % (kind, did_you_mean(kind, KINDS)))
            return []
        return handler(raw)

    # ------------------------------------------------------------ helpers
    def head(self, raw: dict, *, need_name: bool = True):
        """Split the head words into name, params, title and the remaining words."""
        words = list(raw["words"])
        name = params = title = None
        if words and "name" in words[0]:
            name = words.pop(0)["name"]
        elif need_name:
            self.error(raw["pos"], "D002", "a %s declaration needs a name" % raw["decl"])
        if words and "params" in words[0]:
            params = words.pop(0)["params"]
        rest = []
        for w in words:
            if "str" in w and title is None:
                title = w["str"]
            else:
                rest.append(w)
        return name, params, title, rest

    def attributes(self, raw: dict) -> dict:
        """Collect ``attr args`` lines and ``attr:`` blocks of a declaration body, checked
        against the kind's entry in ATTRIBUTES."""
        allowed = ATTRIBUTES[raw["decl"]]
        out: dict = {}
        for st in raw["body"] or []:
            if st["s"] == "block":
                key, value, form = st["label"], st["body"], "block"
            elif st["s"] == "call":
                key, value, form = st["name"], st, "args"
            else:
                self.error(st["pos"], "D004", "a %s declaration holds attributes, not statements" % raw["decl"])
                continue
            if key not in allowed:
                self.error(st["pos"], "D004", "unknown attribute '%s' for a %s%s"
                           % (key, raw["decl"], did_you_mean(key, allowed)))
                continue
            if allowed[key] == "block" and form == "args":
                # A one-statement effect written on the attribute's line: `work: gain 1 wood`
                # parses as a block already, so an args form here means `work gain ...`.
                self.error(st["pos"], "D005", "'%s' takes a block: write '%s:' followed by effects" % (key, key))
                continue
            if allowed[key] == "args" and form == "block":
                self.error(st["pos"], "D005", "'%s' takes values on its line, not a block" % key)
                continue
            if key in out:
                self.error(st["pos"], "D006", "attribute '%s' given twice" % key)
                continue
            out[key] = value
            if form == "args":
                self.value_at[key] = (value["args"][0] if value["args"] else value)["pos"]
        return out

    def one_arg(self, call: dict | None, what: str, kinds=("int",)):
        if call is None:
            return None
        if len(call["args"]) != 1 or call["kw"]:
            self.error(call["pos"], "D005", "'%s' takes exactly one value" % call["name"])
            return None
        a = call["args"][0]
        if a["e"] == "int" and "int" in kinds:
            return a["v"]
        if a["e"] == "name" and "name" in kinds:
            return a["id"]
        if a["e"] == "name" and "bool" in kinds and a["id"] in YES_NO:
            return YES_NO[a["id"]]
        if a["e"] == "str" and "str" in kinds:
            return a["v"]
        if a["e"] == "range" and "range" in kinds and a["lo"]["e"] == "int" and a["hi"]["e"] == "int":
            return [a["lo"]["v"], a["hi"]["v"]]
        if "expr" in kinds:
            return a
        self.error(a["pos"], "D005", "'%s' expects %s" % (call["name"], what))
        return None

    def names_arg(self, call: dict | None) -> list[str]:
        if call is None:
            return []
        out = []
        for a in call["args"]:
            if a["e"] != "name":
                self.error(a["pos"], "D005", "'%s' expects names" % call["name"])
                continue
            out.append(a["id"])
        return out

    def words_as_flags(self, rest: list, raw: dict, allowed: dict, where: dict | None = None) -> dict:
        """Parse head words like ``per player start 6 max 28 reset round``.

        ``allowed`` maps a word to the number of following words it takes; ``where``, when
        given, gets the position of each word's first value (else the word's), for errors about
        the value.
        """
        flags: dict = {}
        i = 0
        while i < len(rest):
            w = rest[i]
            word = w.get("name")
            if word is None or word not in allowed:
                shown = word if word is not None else w.get("str", w.get("int"))
                self.error(w["pos"], "D003", "unexpected '%s' in a %s declaration%s"
                           % (shown, raw["decl"], did_you_mean(str(shown), allowed)))
                i += 1
                continue
            n = allowed[word]
            vals = rest[i + 1:i + 1 + n]
            if len(vals) < n:
                self.error(w["pos"], "D003", "'%s' needs a value" % word)
                break
            flags[word] = [v.get("name", v.get("int", v.get("str"))) for v in vals]
            at = (vals[0] if vals else w)["pos"]
            self.value_at[FLAG_FIELDS.get(word, word)] = at
            if where is not None:
                where[word] = at
            i += 1 + n
        return flags

    def choice_flag(self, flags: dict, where: dict, word: str, allowed: tuple, default):
        """The value of the head word ``word`` (``reset round``), one of ``allowed``; another is
        D005 at the value, and the default is kept so no later stage reports it again."""
        if word not in flags:
            return default
        value = flags[word][0]
        if value not in allowed:
            self.error(where.get(word), "D005", "'%s' is %s or %s, not '%s'"
                       % (word, ", ".join(allowed[:-1]), allowed[-1], value))
            return default
        return value

    # ------------------------------------------------------------ kinds
    def k_game(self, raw):
        name, _, title, rest = self.head(raw)
        for w in rest:
            self.error(w["pos"], "D003", "unexpected word in the game declaration")
        a = self.attributes(raw)
        players = self.one_arg(a.get("players"), "a range like 3..5", ("range", "int"))
        if isinstance(players, int):
            players = [players, players]
        return [{"kind": "game", "name": name, "title": title,
                 "description": self.one_arg(a.get("description"), "a string", ("str",)),
                 "players": players, "score": self.one_arg(a.get("score"), "a resource name", ("name",)),
                 "ends_if": self.one_arg(a.get("ends_if"), "a condition", ("expr",)),
                 "max_rounds": self.one_arg(a.get("max_rounds"), "a number", ("int",)),
                 "tiebreak": self.one_arg(a.get("tiebreak"), "a number for each player", ("expr",)),
                 "neutral_players": self.one_arg(a.get("neutral_players"), "a number", ("int",)) or 0,
                 "workers_return_to": self.one_arg(a.get("workers_return_to"), "a per-player counter", ("name",)),
                 "rounds": self.names_arg(a.get("rounds")),
                 "rounds_pos": a["rounds"]["pos"] if "rounds" in a else raw["pos"],
                 "pos": raw["pos"]}]

    def k_resource(self, raw):
        # resource food "food", wood "wood"   -- several resources in one line
        # resource pp "prestige points" visible owner   -- kept hidden from the other players
        out = []
        words = list(raw["words"])
        while words:
            w = words.pop(0)
            if w.get("name") == "visible" and out:
                flag = words.pop(0) if words else {}
                if flag.get("name") not in ("public", "owner"):
                    self.error(w["pos"], "D005", "'visible' is public or owner")
                else:
                    out[-1]["visible"] = flag["name"]
            elif "name" in w:
                out.append({"kind": "resource", "name": w["name"], "title": None, "pos": w["pos"]})
            elif "str" in w and out and out[-1]["title"] is None:
                out[-1]["title"] = w["str"]
            else:
                self.error(w["pos"], "D003", "a resource declaration lists names with optional titles")
        if not out:
            self.error(raw["pos"], "D002", "a resource declaration needs a name")
        if raw["body"]:
            self.error(raw["pos"], "D005", "a resource declaration has no body")
        return out

    def k_counter(self, raw):
        name, _, title, rest = self.head(raw)
        where: dict = {}
        flags = self.words_as_flags(rest, raw, {"per": 1, "global": 0, "by": 1, "start": 1, "min": 1,
                                                "max": 1, "reset": 1, "visible": 1}, where)
        scope = "global" if "global" in flags else "player"
        if "per" in flags and flags["per"] != ["player"]:
            self.error(raw["pos"], "D003", "a counter is 'per player' or 'global'")
        for key in ("start", "min", "max"):
            if key in flags and not isinstance(flags[key][0], int):
                self.error(where[key], "D005", "'%s' takes a number" % key)
                flags.pop(key)
        return [{"kind": "counter", "name": name, "title": title, "scope": scope,
                 "by": flags.get("by", [None])[0],
                 "start": flags.get("start", [0])[0], "min": flags.get("min", [0])[0],
                 "max": flags.get("max", [None])[0],
                 "reset": self.choice_flag(flags, where, "reset", RESET_WHEN, None),
                 "visible": self.choice_flag(flags, where, "visible", ("public", "owner", "none"), "public"),
                 "pos": raw["pos"]}]

    def k_enum(self, raw):
        # `enum neighborhoods "Neighborhoods" n1 "Neighborhood 1", n2 ...`: the enum's title comes
        # right after its name, a value's title right after the value (what the board shows).
        words = list(raw["words"])
        name = words.pop(0)["name"] if words and "name" in words[0] else None
        if name is None:
            self.error(raw["pos"], "D002", "an enum declaration needs a name")
        title = words.pop(0)["str"] if words and "str" in words[0] else None
        values, value_titles = [], {}
        for w in words:
            if "name" in w:
                values.append(w["name"])
            elif "str" in w and values and values[-1] not in value_titles:
                value_titles[values[-1]] = w["str"]
            else:
                self.error(w["pos"], "D003", "enum values are names, each with an optional title in quotes after it")
        decl = {"kind": "enum", "name": name, "title": title, "values": values, "pos": raw["pos"]}
        if value_titles:        # (absent otherwise: the IR, and so the digest, of enums without titles unchanged)
            decl["value_titles"] = value_titles
        return [decl]

    def one_word(self, rest: list, kind: str, usage: str, field: str):
        """The single head word of ``kind`` ("int" or "name") after the name, the IR's ``field``;
        the others are errors."""
        value = None
        for w in rest:
            if kind in w and value is None:
                value = w[kind]
                self.value_at[field] = w["pos"]
            else:
                self.error(w["pos"], "D003", usage)
        return value

    def k_track(self, raw):
        name, _, title, rest = self.head(raw)
        length = self.one_word(rest, "int", "a track declaration is 'track NAME LENGTH'", "length")
        if length is None:
            self.error(raw["pos"], "D005", "a track needs a length")
        return [{"kind": "track", "name": name, "title": title, "length": length, "pos": raw["pos"]}]

    def k_order(self, raw):
        name, _, title, rest = self.head(raw)
        where: dict = {}
        flags = self.words_as_flags(rest, raw, {"reset": 1}, where)
        return [{"kind": "order", "name": name, "title": title,
                 "reset": self.choice_flag(flags, where, "reset", RESET_WHEN, None), "pos": raw["pos"]}]

    def k_category(self, raw):
        name, _, title, rest = self.head(raw)
        for w in rest:
            self.error(w["pos"], "D003", "unexpected word in a category declaration")
        a = self.attributes(raw)
        return [{"kind": "category", "name": name, "title": title,
                 "workable": bool(self.one_arg(a.get("workable"), "yes or no", ("bool",))),
                 "transformable": bool(self.one_arg(a.get("transformable"), "yes or no", ("bool",))),
                 "removed_to": self.one_arg(a.get("removed_to"), "supply or discard", ("name",)) or "discard",
                 "built_on": self.one_arg(a.get("built_on"), "a category", ("name",)),
                 "pos": raw["pos"]}]

    def k_space(self, raw):
        name, _, title, rest = self.head(raw)
        tags = [w["name"] for w in rest if "name" in w]
        a = self.attributes(raw)
        placeable = self.one_arg(a.get("placeable"), "yes or no", ("bool",))
        slots = self.one_arg(a.get("slots"), "a number or 'unlimited'", ("int", "name"))
        if isinstance(slots, str) and slots != "unlimited":
            self.error(a["slots"]["pos"], "D005", "'slots' expects a number or 'unlimited'")
            slots = None
        # 'unlimited' stays a word in the IR (as a building's count does): a number, -1 included,
        # is a number, and the range checks hold it to at least 1.
        return [{"kind": "space", "name": name, "title": title, "tags": tags,
                 "slots": 1 if slots is None else slots,
                 "per_player": self.one_arg(a.get("per_player"), "a number", ("int",)),
                 "placeable": True if placeable is None else placeable,
                 "work": a.get("work"), "pos": raw["pos"]}]

    def k_zone(self, raw):
        # zone hand per player visible owner        -- a list of symbols (cards, gems, tiles)
        name, _, title, rest = self.head(raw)
        where: dict = {}
        flags = self.words_as_flags(rest, raw, {"per": 1, "global": 0, "by": 1, "visible": 1, "reset": 1}, where)
        return [{"kind": "zone", "name": name, "title": title,
                 "scope": "player" if "per" in flags else "global", "by": flags.get("by", [None])[0],
                 "visible": self.choice_flag(flags, where, "visible", ("public", "owner", "none"), "public"),
                 "reset": self.choice_flag(flags, where, "reset", RESET_WHEN, None), "pos": raw["pos"]}]

    def k_pieces(self, raw):
        # pieces broker "brokers" per player:  values 0, 1, 4 / start screen / private screen / public front
        name, _, title, rest = self.head(raw)
        flags = self.words_as_flags(rest, raw, {"per": 1})
        a = self.attributes(raw)
        values = []
        for arg in (a["values"]["args"] if "values" in a else []):
            if arg["e"] != "int":
                self.error(arg["pos"], "D005", "piece values are numbers")
                continue
            values.append(arg["v"])
        if "values" not in a:
            self.error(raw["pos"], "D005", "pieces need 'values'")
        del flags
        reserve = [arg["v"] for arg in (a["reserve"]["args"] if "reserve" in a else []) if arg["e"] == "int"]
        neutral = [arg["v"] for arg in (a["neutral_values"]["args"] if "neutral_values" in a else []) if arg["e"] == "int"]
        return [{"kind": "pieces", "name": name, "title": title, "values": values, "reserve": reserve,
                 "neutral_values": neutral,
                 "start": self.one_arg(a.get("start"), "a zone name", ("name",)) or "reserve",
                 "private": self.names_arg(a.get("private")), "public": self.names_arg(a.get("public")),
                 "pos": raw["pos"]}]

    def k_building(self, raw):
        name, _, title, rest = self.head(raw)
        category = self.one_word(rest, "name", "a building head is 'building NAME \"Title\" CATEGORY'", "category")
        if category is None:
            self.error(raw["pos"], "D005", "building '%s' needs a category" % name)
        a = self.attributes(raw)
        count = self.one_arg(a.get("count"), "a number or 'unlimited'", ("int", "name"))
        if isinstance(count, str) and count != "unlimited":
            self.error(a["count"]["pos"], "D005", "'count' expects a number or 'unlimited'")
            count = 1
        cost = []
        if "cost" in a:
            for arg in a["cost"]["args"]:
                if arg["e"] != "amount":
                    self.error(arg["pos"], "D005", "a cost is a list of amounts like '1 wood, 2 food'")
                    continue
                cost.append(arg)
        return [{"kind": "building", "name": name, "title": title, "category": category, "cost": cost,
                 "prestige": self.one_arg(a.get("prestige"), "a number", ("int",)) or 0,
                 "count": 1 if count is None else count,
                 "at": self.one_arg(a.get("at"), "a road space number", ("int",)),
                 "income": self.one_arg(a.get("income"), "a number", ("int",)) or 0,
                 "other_side": self.one_arg(a.get("other_side"), "a building name", ("name",)),
                 "work": a.get("work"), "owner": a.get("owner"), "on_build": a.get("on_build"),
                 "pos": raw["pos"]}]

    def k_effect(self, raw):
        name, params, title, rest = self.head(raw)
        for w in rest:
            self.error(w["pos"], "D003", "unexpected word in an effect declaration")
        return [{"kind": "effect", "name": name, "title": title, "params": params or [],
                 "body": raw["body"] or [], "pos": raw["pos"]}]

    def k_trigger(self, raw):
        name, _, title, rest = self.head(raw)
        flags = self.words_as_flags(rest, raw, {"on": 1})
        if "on" not in flags:
            self.error(raw["pos"], "D005", "a trigger needs 'on EVENT'")
        return [{"kind": "trigger", "name": name, "title": title, "event": flags.get("on", [None])[0],
                 "body": raw["body"] or [], "pos": raw["pos"]}]

    def k_phase(self, raw):
        name, _, title, rest = self.head(raw)
        for w in rest:
            self.error(w["pos"], "D003", "unexpected word in a phase declaration")
        return [{"kind": "phase", "name": name, "title": title, "body": group_steps(raw["body"] or []),
                 "pos": raw["pos"]}]

    def _unnamed_block(self, raw):
        if raw["words"]:
            self.error(raw["words"][0]["pos"], "D003", "'%s' takes no name" % raw["decl"])
        return [{"kind": raw["decl"], "name": raw["decl"], "body": group_steps(raw["body"] or []), "pos": raw["pos"]}]

    k_setup = _unnamed_block
    k_final = _unnamed_block

    def k_invariant(self, raw):
        # invariant workers_kept "Each player has 6 workers" per player:  holds workers + ... == 6
        name, _, title, rest = self.head(raw)
        flags = self.words_as_flags(rest, raw, {"per": 1, "global": 0})
        if "per" in flags and flags["per"] != ["player"]:
            self.error(raw["pos"], "D003", "an invariant is 'per player' or global")
        a = self.attributes(raw)
        tests = [k for k in INVARIANT_TESTS if k in a]
        if len(tests) != 1:
            self.error(raw["pos"], "D005", "an invariant states one of %s, followed by an expression"
                       % ", ".join(INVARIANT_TESTS))
        test = tests[0] if tests else "holds"
        return [{"kind": "invariant", "name": name, "title": title,
                 "scope": "player" if "per" in flags else "global", "test": test,
                 "value": self.one_arg(a.get(test), "an expression", ("expr",)), "pos": raw["pos"]}]

    def k_table(self, raw):
        name, _, title, rest = self.head(raw)
        return [{"kind": "table", "name": name, "title": title,
                 "entries": self.table_entries(raw["body"] or []), "pos": raw["pos"]}]

    def table_entries(self, body: list) -> list:
        out = []
        for st in body:
            if st["s"] == "entry":
                out.append({"from": st["key"]["from"], "to": st["key"]["to"], "body": st["body"], "pos": st["pos"]})
            elif st["s"] == "block":
                inner = st["body"]
                if inner and all(s["s"] in ("entry", "block") for s in inner):
                    out.append({"key": st["label"], "entries": self.table_entries(inner), "pos": st["pos"]})
                else:
                    out.append({"key": st["label"], "body": inner, "pos": st["pos"]})
            else:
                self.error(st["pos"], "D007", "a table holds entries 'KEY: effect'")
        return out


_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _shown(v) -> str:
    return '"%s"' % v if type(v) is str and not _NAME.fullmatch(v) else str(v)


KINDS = sorted(k[2:] for k in dir(Builder) if k.startswith("k_")) + ["let"]


def build_ir(raw_items: list, path: str) -> tuple[dict, list[Diagnostic]]:
    b = Builder(path)
    ir = b.build_file(raw_items)
    return ir, b.diags


def group_steps(body: list) -> list:
    """``step NAME`` lines (`step_label`) -> step statements holding what follows each, up to the
    next one: the same IR as an indented ``step NAME:`` block."""
    if not any(st.get("s") == "step_label" for st in body):
        return body
    out, current = [], None
    for st in body:
        if st.get("s") == "step_label":
            current = {"s": "step", "name": st["name"], "title": st["title"], "body": [], "pos": st["pos"]}
            out.append(current)
        elif current is not None:
            current["body"].append(st)
        else:
            out.append(st)
    return out
