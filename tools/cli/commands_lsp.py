"""`provost lsp`: the language server for rule files, over stdio (docs/editors.md)."""
from __future__ import annotations

import argparse

from provost.dsl.diagnostics import UsageError


def run_lsp(args: argparse.Namespace) -> int:
    try:
        from provost.tools.lsp.server import main
    except ModuleNotFoundError as e:
        if e.name and e.name.split(".")[0] in ("pygls", "lsprotocol"):
            raise UsageError("provost lsp needs pygls: pip install 'provost[lsp]'") from None
        raise
    return main(debug=getattr(args, "debug", False))
