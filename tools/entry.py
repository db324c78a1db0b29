"""The ``provost`` console script: Ctrl-C before the command line is even imported ends quietly.

Importing the command line (argparse, the loader's modules) takes a tenth of a second; a Ctrl-C in
that window used to print a KeyboardInterrupt traceback.  This module is tiny and imported first:
until ``main`` has parsed the arguments and starts the command, Ctrl-C exits with 130 and says
nothing; from there ``main`` handles it itself (a sim prints its partial report).
"""
from __future__ import annotations

import signal
import sys


def _quiet_interrupt(signum, frame):
    sys.exit(130)


def run() -> int:
    signal.signal(signal.SIGINT, _quiet_interrupt)       # main() sets Ctrl-C back when it is ready
    from provost.tools.cli import main
    return main()
