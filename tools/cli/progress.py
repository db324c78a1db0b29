"""The progress bar of a long run (DESIGN.md section 6: "long runs show a progress bar on a
terminal and stay quiet in pipes"): `sim`, `sweep` and `rate` count their games with it."""
from __future__ import annotations


class ProgressBar:
    """A rich bar on stderr, counting to ``total`` games, when stderr is a terminal; otherwise
    nothing is drawn (``advance`` still counts).  A context manager: the bar goes when the run ends,
    however it ends."""

    def __init__(self, label: str, total: int):
        from provost.tools.sim.runner import stderr_is_tty

        self.total, self.done = total, 0
        self._progress = self._task = None
        if stderr_is_tty():
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

            self._progress = Progress(TextColumn("[bold]%s" % label), BarColumn(), MofNCompleteColumn(),
                                      TextColumn("games"), TimeRemainingColumn(), console=Console(stderr=True),
                                      transient=True)
            self._task = self._progress.add_task(label, total=total)

    @property
    def shown(self) -> bool:
        return self._progress is not None

    def advance(self, games: int) -> None:
        self.done += games
        if self._progress is not None:
            self._progress.update(self._task, advance=games)

    def __enter__(self) -> ProgressBar:
        if self._progress is not None:
            self._progress.start()
        return self

    def __exit__(self, *exc) -> None:
        if self._progress is not None:
            self._progress.stop()
