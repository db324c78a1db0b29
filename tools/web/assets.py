"""The page's files (HTML, script, style), shipped as package data beside this module."""
from __future__ import annotations

from importlib import resources


def static_text(name: str) -> str:
    return resources.files("provost.tools.web").joinpath("static", name).read_text(encoding="utf-8")
