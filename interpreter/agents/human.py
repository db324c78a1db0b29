"""A human at the terminal.

Each decision shows the board as the player may see it (``board_text``: the road with its tiles,
workers and markers, the spaces, scales, shared zones and everyone's resources), then the round and phase, the prompt, the player's key counters
(score first, then the other resources and per-player counters the player may
see) and the numbered options with their ids.  The player answers with an id
or its number; anything else re-asks (with a "did you mean").  ``?`` shows the
options again.  ``quit`` (or Ctrl-C) raises ``HumanQuit``, which the command
line turns into a clean exit (130); the end of input (Ctrl-D, an empty or
exhausted pipe) raises ``HumanInputEnded``, a usage error there (exit 2).
Never a traceback.
"""
from __future__ import annotations

import sys

from .base import SeededAgent


class HumanQuit(Exception):
    """The human gave up (``quit``, or Ctrl-C at the prompt): abandon the game."""


class HumanInputEnded(HumanQuit):
    """The input ended (EOF: Ctrl-D, an empty or exhausted pipe): nobody is there to answer."""


QUIT_WORDS = frozenset({"quit", "exit", ":q"})


class HumanAgent(SeededAgent):
    name = "human"

    LAST_MOVES = 8

    def __init__(self, seed: int = 0, seat: int = 0, stdin=None, stdout=None):
        super().__init__(seed, seat)
        self.stdin, self.stdout = stdin, stdout
        self.moves: list[tuple[int, str | None, str]] = []     # (player, option or None if hidden, prompt)

    def saw(self, player: int, option: str | None, prompt: str) -> None:
        """A decision was made (``option`` None: one this seat may not know); kept for the next display."""
        self.moves = (self.moves + [(player, option, prompt)])[-self.LAST_MOVES:]

    # streams are looked up late so that tests (and pytest's capture) can swap sys.stdin/stdout
    def _in(self):
        return self.stdin if self.stdin is not None else sys.stdin

    def _out(self):
        return self.stdout if self.stdout is not None else sys.stdout

    def _say(self, text: str = "") -> None:
        out = self._out()
        out.write(text + "\n")
        out.flush()

    def key_counters(self, game, player: int) -> str:
        """``pp 12, denier 5, food 2, ... workers 4``: the counters of ``player`` that they may see."""
        obs = game.observation(player)
        counters = obs["counters"]
        prog = game.prog
        names = [prog.score] + [r for r in prog.resources if r != prog.score]
        names += [n for n, c in prog.counters.items()
                  if c.get("scope") == "player" and not c.get("by") and not c.get("reset") and n not in names]
        parts = []
        for name in names:
            row = counters.get(name)
            if isinstance(row, list) and player < len(row) and isinstance(row[player], int):
                parts.append("%s %d" % (name, row[player]))
        return ", ".join(parts)

    def show_board(self, game, player: int) -> None:
        """The board as this seat sees it (its observation only), before the decision."""
        from provost.interpreter.boardview import board_view

        from .board_text import print_board
        print_board(board_view(game.rs.decls, game.observation(player), humans=game.s.humans), self._out())
        if self.moves:
            from provost.interpreter.boardview import Names, option_label
            names = Names(game.rs.decls, game.observation(player).get("tiles"))
            self._say("last moves: " + "; ".join(
                "P%d %s" % (p + 1, option_label(names, o) if o is not None else "(%s: hidden)" % pr)
                for p, o, pr in self.moves))

    def show(self, game, player: int, options: list[str]) -> None:
        s = game.s
        self._say("")
        self.show_board(game, player)
        self._say("-- round %s, %s -- player %d (%s)" % (s.round, s.phase or "setup", player,
                                                         self.key_counters(game, player)))
        from provost.dsl.diagnostics import one_line, printable
        from provost.interpreter.boardview import Names, option_labels, option_places
        self._say(one_line(game.prompt() or "Choose"))
        obs = game.observation(player)
        labels = option_labels(Names(game.rs.decls, obs.get("tiles")), options,
                               option_places(game.rs.decls, obs, game.s.humans))
        width = len(str(len(options)))
        for i, (opt, label) in enumerate(zip(options, labels), 1):
            self._say("  %*d. %s  (%s)" % (width, i, printable(opt), one_line(label)))

    def parse(self, answer: str, options: list[str]) -> str | None:
        """The option an answer names (an id, or a number from 1), or None."""
        answer = answer.strip()
        if answer in options:
            return answer
        if answer.isdigit() and 1 <= int(answer) <= len(options):
            return options[int(answer) - 1]
        return None

    def choose(self, game, player: int) -> str:
        from provost.dsl.diagnostics import did_you_mean, printable

        options = game.legal_options()
        self.show(game, player, options)
        inp = self._in()
        while True:
            out = self._out()
            out.write("player %d> " % player)
            out.flush()
            try:
                line = inp.readline()
            except EOFError:
                raise HumanInputEnded("input closed") from None
            except KeyboardInterrupt:
                raise HumanQuit("interrupted") from None
            if not line:
                self._say("")
                raise HumanInputEnded("input closed")
            answer = line.strip()
            if answer.lower() in QUIT_WORDS:
                raise HumanQuit("quit")
            if answer in ("?", "help", ""):
                self.show(game, player, options)
                continue
            chosen = self.parse(answer, options)
            if chosen is not None:
                return chosen
            hint = did_you_mean(answer, options).lstrip("; ")
            self._say("'%s' is not one of the options%s" % (printable(answer), " (" + hint + ")" if hint else ""))
            if not answer.isdigit():
                # What the rules say of it, as an illegal move through the API would (`explain`:
                # a choice that is not among those offered, a condition, a payment, another decision).
                from provost.interpreter.explain import explain
                self._say("why: " + printable(explain(game, answer)))
            self._say("answer with an id or a number from 1 to %d; ? lists the options, quit gives up" % len(options))
