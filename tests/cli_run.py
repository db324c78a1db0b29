"""Running the `provost` command line in-process, for the CLI tests."""
from __future__ import annotations

from provost.tools.cli import main


def run_cli(capsys, *argv):
    """(exit code, stdout, stderr) of `provost ARGV`; no input may ever give a traceback."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err
