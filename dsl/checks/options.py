"""The values an option's parameter takes (T220).

An option is offered once per value of each parameter, and the value is part of the option's
id (`name:value`, a list written as its items joined by `+`).  A value is a single thing -- a
number, a name, a string, a space or tile -- or a list of single things (Caylus's batches of
cubes, Ys's bids of brokers); a list of lists is neither: its id loses the inner lists
(`[[1, 2], [3]]` and `[[1], [2, 3]]` both read `1+2+3`), and paying or gaining it fails in play
(E101, "unhashable type: 'list'").  Only shapes certain from the rule text are judged: list
literals, comprehensions, lets without parameters and `+` of lists.
"""
from __future__ import annotations

from ..diagnostics import Diagnostic, explain, register
from .model import model

register("T220", "error",
         "an option's parameter takes lists of lists (an option's value is a single value or a list of them)")

explain("T220", """
An option's parameter takes single values -- numbers, names, strings, spaces, tiles -- or lists
of them (`option batch(b in batch_kinds)` with `let batch_kinds = [[food, wood], [food, stone]]`:
each value is one list of resources).  A value that is itself a list of lists cannot be an
option's value: the option's id writes a list as its items joined by `+`, so different values
read alike, and paying or gaining it fails in play.

    option pick(x in [[[1, 2], [3]], [[4]]]):    # error: option 'pick': parameter 'x' takes
                                                 # lists of lists
        gain 1 coin

Fix: one parameter per part (`option pick(a in ..., b in ...)`), or name the choices
(`let picks = [small, large]` and a table or an `if` per name).""")


class _Shapes:
    """What is certain about the lists an expression gives, from the rule text alone."""

    def __init__(self, m):
        self.m, self.sym = m, m.sym

    def _let(self, e, seen):
        """The value of the parameterless let a name expression refers to, or None."""
        name = e.get("id")
        if e.get("e") != "name" or name in seen or name in self.m.scope_at(e):
            return None
        d = self.sym.lets.get(name)
        return d.get("value") if d is not None and d.get("params") is None else None

    def is_list(self, e, seen=()) -> bool:
        k = e.get("e")
        if k in ("list", "range", "comp"):
            return True
        if k == "name" and e.get("id") in self.sym.enums and e.get("id") not in self.m.scope_at(e):
            return True
        v = self._let(e, seen)
        return v is not None and self.is_list(v, seen + (e["id"],))

    def nested_item(self, e, seen=()) -> dict | None:
        """An item of `e`'s value certain to be a list holding a list (the expression that gives
        it), or None."""
        k = e.get("e")
        if k == "list":
            return next((x for x in e.get("items") or () if self.has_list_item(x, seen)), None)
        if k == "comp":
            return e["item"] if self.has_list_item(e.get("item"), seen) else None
        if k == "binop" and e.get("op") == "+":
            return self.nested_item(e["left"], seen) or self.nested_item(e["right"], seen)
        v = self._let(e, seen)
        return self.nested_item(v, seen + (e["id"],)) if v is not None else None

    def has_list_item(self, e, seen=()) -> bool:
        """`e`'s value is certain to be a list with a list among its items."""
        k = e.get("e")
        if k == "list":
            return any(self.is_list(x, seen) for x in e.get("items") or ())
        if k == "comp":
            return self.is_list(e.get("item"), seen)
        if k == "binop" and e.get("op") == "+":
            return self.has_list_item(e["left"], seen) or self.has_list_item(e["right"], seen)
        v = self._let(e, seen)
        return v is not None and self.has_list_item(v, seen + (e["id"],))


def check_option_values(ruleset) -> list[Diagnostic]:
    """T220: an option parameter whose values include a list of lists."""
    m = model(ruleset)
    sym = m.sym
    shapes = _Shapes(m)
    out = []
    for st, i in m.uses.chooses:
        for o in st.get("options") or ():
            for prm in o.get("params") or ():
                if prm.get("in") is not None and shapes.nested_item(prm["in"]) is not None:
                    out.append(sym.diag(i, prm["in"], "T220", "option '%s': parameter '%s' takes lists of "
                                        "lists; an option's value is a single value (a number, a name, a "
                                        "string, a space ...) or a list of them, not a list of lists"
                                        % (o.get("name"), prm.get("name"))))
    return out
