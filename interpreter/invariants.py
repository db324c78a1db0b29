"""The rules' invariants, checked against a game after every decision when asked.

An ``invariant`` declaration names a property every game of the rules keeps (workers conserved,
no tile lost, the provost on the road) and says it in one of four ways:

    holds EXPR             EXPR is true
    constant EXPR          EXPR keeps the value it had at the first check
    never_decreases EXPR   EXPR never goes down from one check to the next
    never_increases EXPR   EXPR never goes up

A ``per player`` invariant is evaluated once for every seat, with that seat acting.  A violation
is reported as the invariant's name and message, the position of its declaration, the seat
concerned and the decision after which it was found.
"""
from __future__ import annotations

from dataclasses import dataclass

from provost.dsl.diagnostics import explain, register

from .runtime import short_repr

register("E200", "error", "an invariant of the rules does not hold after a decision")
explain("E200", """
An `invariant` of the rules was false after a decision of a game played by `provost soak`, or by
`play`/`sim` with `--check-invariants`.  The message names the seat, the seed and the decision;
the line that follows it replays that game.

    invariant deniers_never_spent "Deniers are never spent" per player:
        never_decreases held(denier)    # error: violated for player 0 (seed 0, decision 1)

Fix: replay the game with the command given and find the rule that breaks the property, or
correct the invariant if the property is not one the rules keep.""")


@dataclass
class Violation:
    name: str
    message: str
    path: str
    line: int
    col: int
    decision: int
    seat: int | None
    detail: str

    def __str__(self) -> str:
        who = "" if self.seat is None else " for player %d" % self.seat
        return "%s:%d:%d: invariant '%s' violated%s after decision %d: %s (%s)" % (
            self.path, self.line, self.col, self.name, who, self.decision, self.message, self.detail)

    def as_dict(self) -> dict:
        return {"invariant": self.name, "message": self.message, "path": self.path, "line": self.line,
                "col": self.col, "decision": self.decision, "player": self.seat, "detail": self.detail}


class InvariantViolated(AssertionError):
    def __init__(self, violation: Violation):
        super().__init__(str(violation))
        self.violation = violation


_COMPARE = {"constant": lambda was, now: now == was,
            "never_decreases": lambda was, now: now >= was,
            "never_increases": lambda was, now: now <= was}


class InvariantChecker:
    """The invariants of one game's rules, with what the monotone ones last saw."""

    def __init__(self, game):
        prog = game.prog
        rs = game.rs
        self.items = []
        for d in rs.decls:
            if d["kind"] != "invariant" or d.get("value") is None:
                continue
            line, col = (d["pos"][0], d["pos"][1]) if d.get("pos") else (1, 1)
            self.items.append((d, prog.expr.compile(d["value"], frozenset({"player"})), rs.file_of(d), line, col))
        self.last: dict = {}

    def __len__(self) -> int:
        return len(self.items)

    def names(self) -> list[str]:
        return [d["name"] for d, *_ in self.items]

    def first_violation(self, game) -> Violation | None:
        """Check the invariants against the game as it stands; the first one broken, or None."""
        return next(self.violations(game), None)

    def violations(self, game):
        """Every invariant broken by the game as it stands (one per invariant), in rule-file order."""
        from .expressions import RuleRuntimeError

        s = game.s
        for d, f, path, line, col in self.items:
            seats = range(s.players) if d["scope"] == "player" else [None]
            test = d["test"]
            for seat in seats:
                try:
                    value = f(game, {"player": seat})
                except (RuleRuntimeError, TypeError, ValueError, KeyError, IndexError) as e:
                    yield Violation(d["name"], d["title"] or d["name"], path, line, col, s.decisions, seat,
                                    "could not be evaluated: %s" % e)
                    break
                if test == "holds":
                    if not value:
                        yield Violation(d["name"], d["title"] or d["name"], path, line, col, s.decisions, seat,
                                        "the condition is false")
                        break
                    continue
                if test != "constant" and (type(value) is not int):
                    # `never_decreases vp` compares the symbol vp: `held(vp)` is the amount.
                    yield Violation(d["name"], d["title"] or d["name"], path, line, col, s.decisions, seat,
                                    "%s needs a number, got %s" % (test, short_repr(value)))
                    break
                key = (d["name"], seat)
                if key in self.last and not _COMPARE[test](self.last[key], value):
                    was = self.last[key]
                    self.last[key] = value
                    yield Violation(d["name"], d["title"] or d["name"], path, line, col, s.decisions, seat,
                                    "was %s, now %s" % (short_repr(was), short_repr(value)))
                    break
                self.last[key] = value

    def check(self, game) -> None:
        """Raise ``InvariantViolated`` on the first broken invariant."""
        v = self.first_violation(game)
        if v is not None:
            raise InvariantViolated(v)


def violation_diagnostic(v: Violation, seed: int | None = None):
    """The violation as an E200 diagnostic at the invariant's declaration."""
    from provost.dsl.diagnostics import Diagnostic

    who = "" if v.seat is None else " for player %d" % v.seat
    at = "seed %d, decision %d" % (seed, v.decision) if seed is not None else "decision %d" % v.decision
    return Diagnostic(v.path, v.line, v.col, "error", "E200", "invariant '%s' violated%s (%s): %s (%s)"
                      % (v.name, who, at, v.message, v.detail))
