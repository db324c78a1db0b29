"""IR -> English: every construct of the language says itself in plain words.

Used by ``provost diff`` (what a variant changes), and meant for generated
rulebooks and "why is this illegal?" messages.  Effects and functions take
their sentence from the ``says`` template of their signature in
dsl/primitives.py; named declarations show their titles.
"""
from __future__ import annotations

from .primitives import CONSTANTS, CONTEXT_NAMES, EFFECTS, FUNCTIONS

_COMPARE = {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most", ">": "is more than",
            ">=": "is at least", "in": "is one of", "not in": "is not one of", "and": "and", "or": "or",
            "+": "+", "-": "-", "*": "×", "//": "divided by (rounded down)", "%": "modulo"}


# Binding strength, as in the grammar: an operand that binds more loosely than its operator is
# written in parentheses, so the words keep the grouping ("f() × (5 if m, otherwise 3)").
_PREC = {"or": 1, "and": 2, "==": 4, "!=": 4, "<": 4, "<=": 4, ">": 4, ">=": 4, "in": 4, "not in": 4,
         "+": 5, "-": 5, "*": 6, "//": 6, "%": 6}


def _prec(e) -> int:
    k = e.get("e") if isinstance(e, dict) else None
    if k == "if":
        return 0
    if k == "comp":
        return 0
    if k == "binop":
        return _PREC.get(e["op"], 4)
    if k == "not":
        return 3
    return 9


def singular(title: str) -> str:
    """'prestige points' -> 'prestige point', for an amount of 1."""
    head, _, last = title.rpartition(" ")
    if last.endswith("s") and not last.endswith("ss") and len(last) > 2:
        last = last[:-1]
    return (head + " " + last) if head else last


class Prose:
    def __init__(self, decls: list[dict] | None = None):
        self.titles = {}
        # A name may be both a resource and a category (Caylus's `wood`): in
        # sentences the resource reads best, so resources are entered last.
        ordered = sorted(decls or [], key=lambda d: d["kind"] == "resource")
        for d in ordered:
            if d.get("name") and d.get("title"):
                self.titles[d["name"]] = d["title"]

    # ------------------------------------------------------------ names and expressions
    def name(self, n: str) -> str:
        if n in self.titles:
            return self.titles[n]
        if n in CONTEXT_NAMES and n == "player":
            return "the player"
        if n in CONSTANTS:
            return {"none": "nobody", "yes": "yes", "no": "no", "unlimited": "unlimited"}[n]
        return n.replace("_", " ")

    def expr(self, e) -> str:
        if e is None:
            return ""
        k = e.get("e")
        if k == "int":
            return str(e["v"])
        if k == "str":
            return '"%s"' % e["v"]
        if k == "name":
            return self.name(e["id"])
        if k == "amount":
            what = self.name(e["what"])
            n = e["n"]
            if isinstance(n, dict) and n.get("e") == "int" and n.get("v") == 1:
                what = singular(what)
            return "%s %s" % (self.operand(n, 6), what)
        if k == "binop":
            p = _PREC.get(e["op"], 4)
            # left-associative: an equal-strength right operand needs parentheses (a - (b - c))
            return "%s %s %s" % (self.operand(e["left"], p), _COMPARE.get(e["op"], e["op"]),
                                 self.operand(e["right"], p + 1))
        if k == "not":
            return "not (%s)" % self.expr(e["x"])
        if k == "neg":
            return "-%s" % self.operand(e["x"], 7)
        if k == "if":
            return "%s if %s, otherwise %s" % (self.operand(e["then"], 1), self.operand(e["cond"], 1),
                                               self.operand(e["else"], 1))
        if k == "range":
            return "%s to %s" % (self.expr(e["lo"]), self.expr(e["hi"]))
        if k == "list":
            items = ["(%s)" % self.expr(i) if i.get("e") == "list" else self.expr(i) for i in e["items"]]
            return ", ".join(items) if items else "nothing"
        if k == "dict":
            return "; ".join("%s: %s" % (self.name(str(key)), self.expr(v)) for key, v in e["items"])
        if k == "comp":
            cond = " where %s" % self.expr(e["cond"]) if e.get("cond") else ""
            return "%s for each %s in %s%s" % (self.expr(e["item"]), self.name(e["var"]), self.expr(e["iter"]), cond)
        if k == "attr":
            return "the %s of %s" % (e["name"].replace("_", " "), self.operand(e["x"], 8))
        if k == "index":
            key = e["key"]
            if key["e"] == "int":       # a position in a list: "item 1 of h", counting from 1
                return "item %d of %s" % (key["v"] + 1, self.expr(e["x"]))
            return "%s for %s" % (self.operand(e["x"], 8), self.operand(key, 8))
        if k == "of":
            return "%s of %s" % (self.operand(e["x"], 8), self.operand(e["player"], 8))
        if k == "call":
            sig = FUNCTIONS.get(e["fn"])
            args = [self.expr(a) for a in e["args"]]
            if sig is not None and sig.says:
                return _fill(sig.says, args)
            return "%s(%s)" % (self.name(e["fn"]), ", ".join(args))
        return "?"

    def operand(self, e, strength: int) -> str:
        """``e`` as an operand of an operator of that strength: in parentheses when it binds looser."""
        text = self.expr(e)
        return "(%s)" % text if _prec(e) < strength else text

    # ------------------------------------------------------------ statements
    def block(self, stmts, depth: int = 0) -> list[str]:
        out = []
        for st in stmts or []:
            out.extend(self.stmt(st, depth))
        return out

    def stmt(self, st, depth: int = 0) -> list[str]:
        pad = "  " * depth
        s = st["s"]
        if s == "call":
            return [pad + self.call(st)]
        if s == "set":
            t = st["target"]
            target = self.name(t["name"])
            if t.get("index") is not None:
                target += " for " + self.expr(t["index"])
            if t.get("of") is not None:
                target += " of " + self.expr(t["of"])
            verb = {"=": "becomes", "+=": "goes up by", "-=": "goes down by"}[st["op"]]
            return [pad + "%s %s %s" % (target, verb, self.expr(st["value"]))]
        if s == "let":
            return [pad + "let %s be %s" % (self.name(st["name"]), self.expr(st["value"]))]
        if s == "break":
            return [pad + "stop repeating"]
        if s == "if":
            out = []
            for i, (cond, body) in enumerate(st["branches"]):
                out.append(pad + ("if " if i == 0 else "otherwise, if ") + self.expr(cond) + ":")
                out.extend(self.block(body, depth + 1))
            if st.get("else"):
                out.append(pad + "otherwise:")
                out.extend(self.block(st["else"], depth + 1))
            return out
        if s == "for":
            head = "each player in %s, in turn:" if st["acting"] else "for each %s in %%s:" % self.name(st["var"])
            if st["acting"]:
                return [pad + head % self.expr(st["iter"])] + self.block(st["body"], depth + 1)
            return [pad + head % self.expr(st["iter"])] + self.block(st["body"], depth + 1)
        if s == "as":
            return [pad + "%s does this:" % self.expr(st["player"])] + self.block(st["body"], depth + 1)
        if s == "repeat":
            head = ("%s times:" % self.expr(st["times"])) if st.get("times") is not None else \
                ("as long as %s:" % self.expr(st["while"]))
            return [pad + head] + self.block(st["body"], depth + 1)
        if s == "turns":
            return [pad + "players take turns in %s until all have passed:" % self.expr(st["order"])] + \
                self.block(st["body"], depth + 1)
        if s == "defer":
            return [pad + "once %s is empty:" % self.expr(st["until_vacant"])] + self.block(st["body"], depth + 1)
        if s == "step":
            title = st.get("title") or self.name(st["name"])
            return [pad + "%s:" % (title[:1].upper() + title[1:])] + self.block(st["body"], depth + 1)
        if s == "choose":
            out = [pad + ("the player chooses one (%s):" % st["title"] if st.get("title") else "the player chooses one:")]
            for o in st["options"]:
                params = ", ".join("%s from %s" % (self.name(p["name"]), self.expr(p["in"])) for p in o["params"])
                when = " if %s" % self.expr(o["when"]) if o.get("when") else ""
                head = "%s%s%s:" % (self.name(o["name"]), " (%s)" % params if params else "", when)
                body = self.block(o["body"], depth + 2)
                if len(body) == 1:          # "pass: nothing happens", on one line
                    out.append(pad + "  " + head + " " + body[0].strip())
                else:
                    out.append(pad + "  " + head)
                    out.extend(body)
            return out
        if s in ("block", "entry"):
            return self.block(st["body"], depth)
        return [pad + "?"]

    # ------------------------------------------------------------ one sentence (table cells)
    def sentence(self, stmts) -> str:
        """A block as one sentence, for a table cell: "if ..., ...; otherwise, ...", "the player
        chooses: gains 1 food or 1 cloth" rather than a list flattened with semicolons."""
        parts = [self._sentence(st) for st in stmts or []]
        return ", then ".join(p for p in parts if p)

    def _sentence(self, st) -> str:
        s = st["s"]
        if s in ("block", "entry", "step"):
            return self.sentence(st["body"])
        if s == "if":
            out = []
            for i, (cond, body) in enumerate(st["branches"]):
                out.append(("if " if i == 0 else "otherwise, if ") + self.expr(cond) + ", " + self.sentence(body))
            if st.get("else"):
                out.append("otherwise, " + self.sentence(st["else"]))
            return "; ".join(out)
        if s == "choose":
            return self._choice(st)
        lines = self.stmt(st)
        if len(lines) == 1:
            return lines[0].strip()
        return lines[0].strip().rstrip(":") + ": " + self.sentence(st.get("body") or [])

    def _choice(self, st) -> str:
        head = "the player chooses one" + (" (%s)" % st["title"] if st.get("title") else "")
        options = st["options"]
        calls = [o["body"][0] if len(o["body"]) == 1 and o["body"][0]["s"] == "call" else None for o in options]
        # "gain 1 food" | "gain 1 cloth" -> "the acting player gains 1 food or 1 cloth"
        if not any(o["params"] or o.get("when") for o in options) and all(calls) \
                and len({c["name"] for c in calls}) == 1 and not any(c.get("kw") for c in calls):
            sig = EFFECTS.get(calls[0]["name"])
            if sig is not None and sig.says and "{args}" in sig.says:
                alternatives = [", ".join(self.expr(a) for a in c["args"]) for c in calls]
                return _fill(sig.says, [" or ".join(alternatives)]) + " (their choice)"
        alternatives = []
        for o in options:
            params = ", ".join("%s from %s" % (self.name(p["name"]), self.expr(p["in"])) for p in o["params"])
            when = " (if %s)" % self.expr(o["when"]) if o.get("when") else ""
            label = self.name(o["name"]) + (" (%s)" % params if params else "") + when
            alternatives.append("%s: %s" % (label, self.sentence(o["body"])))
        return head + ": " + "; or ".join(alternatives)

    def call(self, st) -> str:
        args = [self.expr(a) for a in st["args"]]
        sig = EFFECTS.get(st["name"])
        if sig is not None and sig.says:
            text = _fill(sig.says, args)
        else:
            text = "%s%s" % (self.name(st["name"]), " (%s)" % ", ".join(args) if args else "")
        for key, value in st.get("kw", {}).items():
            text += ", %s %s" % (self.name(key), self.expr(value))
        return text

    def table_key(self, e) -> str:
        """A table entry's key in words: a name, a number, "3 to 4", "5 or more"."""
        if "key" in e:
            return self.name(str(e["key"]))
        if e["to"] == e["from"]:
            return str(e["from"])
        return "%s or more" % e["from"] if e["to"] is None else "%s to %s" % (e["from"], e["to"])

    def entries(self, entries, depth: int = 0) -> list[str]:
        """A table's entries, each key followed by its statements (or its own entries)."""
        out = []
        for e in entries or []:
            out.append("  " * depth + self.table_key(e) + ":")
            out.extend(self.entries(e["entries"], depth + 1) if "entries" in e else self.block(e.get("body"), depth + 1))
        return out

    # ------------------------------------------------------------ declarations
    def decl(self, d: dict) -> list[str]:
        kind = d["kind"]
        title = d.get("title") or self.name(d.get("name") or kind)
        if kind == "building":
            cost = ", ".join(self.expr(a) for a in d.get("cost", [])) or "nothing"
            lines = ["%s (%s building): costs %s, worth %s prestige" % (title, self.name(d["category"] or "?"), cost,
                                                                         d.get("prestige", 0))]
            count = d.get("count", 1)
            if count != 1:          # how many tiles the box holds, when not one (a printing's difference)
                lines[0] += ", %s tiles" % ("any number of" if count == "unlimited" else count)
            for part, label in (("work", "when a worker is here"), ("owner", "its owner, when another player works here"),
                                ("on_build", "when built")):
                if d.get(part):
                    lines.append("  %s:" % label)
                    lines.extend(self.block(d[part], 2))
            return lines
        if kind == "space":
            lines = ["%s: %s place(s)%s" % (title, "any number of" if d["slots"] == "unlimited" else d["slots"],
                                             ", one per player" if d.get("per_player") == 1 else "")]
            if d.get("work"):
                lines.extend(self.block(d["work"], 1))
            return lines
        if kind in ("effect", "phase", "setup", "final"):
            params = " (%s)" % ", ".join(d["params"]) if d.get("params") else ""
            return ["%s%s:" % (title, params)] + self.block(d.get("body"), 1)
        if kind == "let":
            params = " (%s)" % ", ".join(d["params"]) if d.get("params") else ""
            return ["%s%s is %s" % (self.name(d["name"]), params, self.expr(d["value"]))]
        if kind == "enum":
            titled = d.get("value_titles") or {}
            return ["%s: %s" % (title, ", ".join("%s (%s)" % (titled[v], self.name(v)) if v in titled else self.name(v)
                                                 for v in d["values"]))]
        if kind == "counter":
            scope = "each player's" if d["scope"] == "player" else "the"
            return ["%s %s starts at %s" % (scope, title, d["start"])]
        if kind == "pieces":
            return ["%s per player, of values %s" % (title, ", ".join(map(str, d["values"])))]
        if kind == "game":
            lo, hi = d.get("players") or ["?", "?"]
            counts = "%s players" % lo if lo == hi else "%s to %s players" % (lo, hi)     # not "4 to 4"
            return ["%s, for %s; rounds: %s" % (title, counts, ", ".join(self.name(r) for r in d["rounds"]))]
        if kind == "table":     # every entry, so that a changed table reads entry by entry
            return ["table %s (%d entries):" % (title, len(d.get("entries", [])))] + self.entries(d.get("entries"), 1)
        if kind == "trigger":       # as the rulebook gives it: the event, then what happens
            return ["%s: when %s:" % (title, self.name(d.get("event") or "?"))] + self.block(d.get("body"), 1)
        if kind == "invariant" and d.get("value") is not None:
            says = {"holds": "always: %s", "constant": "%s never changes", "never_decreases": "%s never goes down",
                    "never_increases": "%s never goes up"}.get(d.get("test"), "%s")
            who = " (for each player)" if d.get("scope") == "player" else ""
            return ["invariant: %s%s -- %s" % (title, who, says % self.expr(d["value"]))]
        return ["%s %s" % (kind, title)]


def _fill(template: str, args: list[str]) -> str:
    text = template.replace("{args}", ", ".join(args))
    for i, a in enumerate(args):
        for article in ("a ", "every "):      # "a brokers" -> "a broker"
            text = text.replace(article + "{%d}" % i, article + singular(a))
        text = text.replace("{%d}" % i, a)
    # Unused optional placeholders disappear with their parentheses.
    import re
    text = re.sub(r"\s*\([^()]*\{\d+\}[^()]*\)", "", text)
    text = re.sub(r"\{\d+\}", "", text)
    return text.strip()
