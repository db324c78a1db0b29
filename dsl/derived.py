"""Results derived from rule files, kept in the user's cache by content (`usercache`); those of the
shipped rules are also installed with provost (`prebuilt`).

Parsing caylus.rules takes about 0.1 s and checking it another 0.1 s; reading both back from a
JSON file takes a few milliseconds.  A result is keyed by a digest of everything it depends on:
the input (the file's text, or the resolved declarations and the files they came from) and the
code that computed it (every source file of this package, Lark's and Python's versions).  A change
to either is a new key, so a stale result is never read; a damaged or foreign file is ignored and
the result computed again.  Only results without errors are kept: a file with a syntax error
or rules with an error are parsed and checked again each time.
"""
from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
import os
import sys

from . import prebuilt, usercache
from .diagnostics import Diagnostic


@functools.cache
def code_digest() -> str:
    """A digest of the code that turns rule files into checked IR."""
    h = hashlib.sha256(("%s|" % (sys.version_info[:3],)).encode())
    # Lark's version, read from its source without importing it (40 ms saved on every warm load).
    lark_spec = importlib.util.find_spec("lark")
    if lark_spec is not None and lark_spec.origin:
        with open(lark_spec.origin, "rb") as f:
            h.update(f.read())
    here = os.path.dirname(os.path.abspath(__file__))
    for dirpath, dirnames, filenames in os.walk(here):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith((".", "_")))
        for name in sorted(filenames):
            if name.endswith((".py", ".lark", ".json")):
                path = os.path.join(dirpath, name)
                with open(path, "rb") as f:
                    h.update(os.path.relpath(path, here).encode() + b"\0" + f.read() + b"\0")
    return h.hexdigest()


def _name(kind: str, *parts: str) -> str:
    h = hashlib.sha256(code_digest().encode())
    for part in parts:
        h.update(b"\0" + part.encode("utf-8", "surrogatepass"))
    return "%s-%s.json" % (kind, h.hexdigest()[:32])


def parsed_ir(text: str) -> dict | None:
    """The IR of rule-file TEXT parsed cleanly before, or None."""
    doc = prebuilt.read_json(_name("ir", text))
    return doc if isinstance(doc, dict) and isinstance(doc.get("decls"), list) else None


def keep_parsed_ir(text: str, ir: dict) -> None:
    usercache.write_json(_name("ir", text), ir)


def _resolved_key(rs, decl_texts: list[str]) -> str:
    """The resolved rules as text: their files and chain, where each declaration's values are
    written (a diagnostic points there), then each declaration's JSON."""
    head = json.dumps([rs.name, rs.variant, rs.files, rs.chain,
                       sorted((list(k), v) for k, v in rs.step_files.items()),
                       sorted((list(k), v) for k, v in rs.entry_files.items()),
                       [d.get("attr_pos") for d in rs.decls]],
                      sort_keys=True, separators=(",", ":"))
    return head + "\n" + "\n".join(decl_texts)


def checked(rs, decl_texts: list[str]) -> list[Diagnostic] | None:
    """The diagnostics the checks gave these resolved rules before, or None.  ``decl_texts``:
    the declarations as ``loader.decl_texts`` encodes them."""
    doc = prebuilt.read_json(_name("checks", _resolved_key(rs, decl_texts)))
    if not isinstance(doc, list):
        return None
    try:
        return [Diagnostic(**d) for d in doc]
    except (TypeError, ValueError):
        return None


def keep_checked(rs, decl_texts: list[str], diags: list[Diagnostic]) -> None:
    if not any(d.severity == "error" for d in diags):
        usercache.write_json(_name("checks", _resolved_key(rs, decl_texts)), [d.to_dict() for d in diags])


def shipped_listing(state: str):
    """The listing of shipped games (``loader.list_shipped``) made before from files of this
    digest, or None."""
    return prebuilt.read_json(_name("shipped", state))


def keep_shipped_listing(state: str, games: list) -> None:
    usercache.write_json(_name("shipped", state), games)
