"""IR -> structural diagnostics, by the JSON Schema shipped beside this module."""
from __future__ import annotations

import functools
import json
from importlib import resources

from .diagnostics import Diagnostic, register

register("S001", "error", "the IR does not match the schema")


@functools.cache
def _validator():
    from jsonschema import Draft202012Validator
    schema = json.loads(resources.files("dsl").joinpath("schema.json").read_text())
    return Draft202012Validator(schema)


def _position(ir, path_parts) -> tuple[int, int]:
    """The source position of the nearest IR node on the error's path."""
    node, best = ir, (1, 1)
    for part in path_parts:
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            break
        if isinstance(node, dict) and isinstance(node.get("pos"), list) and len(node["pos"]) >= 2:
            p = node["pos"]
            if isinstance(p[0], int) and isinstance(p[1], int):
                best = (p[0], p[1])
    return best


def validate_ir(ir, path: str, text: str | None) -> list[Diagnostic]:
    out = []
    for err in sorted(_validator().iter_errors(ir), key=lambda e: list(map(str, e.absolute_path))):
        line, col = _position(ir, list(err.absolute_path))
        where = "/".join(str(p) for p in err.absolute_path) or "(top)"
        out.append(Diagnostic(path, line, col, "error", "S001", "IR at %s: %s" % (where, err.message[:300])))
        if len(out) >= 50:
            break
    return out
