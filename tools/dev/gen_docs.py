"""Regenerate the generated parts of dsl/README.md: the declaration kinds' IR fields (from
dsl/schema.json), the effect and function library (from dsl/primitives.py) and the diagnostic
codes (from every module of dsl/ and interpreter/ that registers codes).

    python -m provost.tools.dev.gen_docs            rewrite the sections between the markers in dsl/README.md
    python -m provost.tools.dev.gen_docs --check    exit 1 if dsl/README.md is out of date (tests run this)

A generated section sits between `<!-- BEGIN GENERATED: NAME -->` and
`<!-- END GENERATED: NAME -->`; everything outside the markers is written by hand.
"""
from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
README = os.path.join(ROOT, "dsl", "README.md")
CODE_PACKAGES = ("provost.dsl", "provost.interpreter")   # every module in these is imported to collect its codes


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _sig(name: str, sig) -> str:
    if sig.max_args is None:
        return "%d or more" % sig.min_args
    return str(sig.min_args) if sig.min_args == sig.max_args else "%d to %d" % (sig.min_args, sig.max_args)


def _says(text: str) -> str:
    """The sentence with its placeholders as ARG1, ARG2 ... and ARGS."""
    text = re.sub(r"\{(\d+)\}", lambda m: "ARG%d" % (int(m.group(1)) + 1), text)
    return _cell(text.replace("{args}", "ARGS"))


def _kinds(sig) -> str:
    if not sig.arg_kinds:
        return ""
    kinds = list(sig.arg_kinds)
    if sig.max_args is None or sig.max_args > len(kinds):
        kinds[-1] += "..."
    return ", ".join(kinds)


def primitives_markdown() -> str:
    from provost.dsl import primitives as P

    out = ["### Effects (statements)", "",
           "Called as `NAME ARG1, ARG2, KEY = VALUE`. *Arguments* is how many positional arguments it takes; "
           "*kinds* says what each must be (`amount`: `2 food`, a list of resources or a variable; a "
           "declaration kind such as `space`: a name of that kind; `expr`: any value; `...`: the last kind "
           "repeats).", "",
           "| Effect | Arguments | Kinds | Keywords | What it does |", "| --- | --- | --- | --- | --- |"]
    for name in sorted(P.EFFECTS):
        sig = P.EFFECTS[name]
        out.append("| `%s` | %s | %s | %s | %s |" % (name, _sig(name, sig), _cell(_kinds(sig)),
                                                    ", ".join("`%s`" % k for k in sig.kwargs), _says(sig.says)))
    out += ["", "### Functions (expressions)", "",
            "Called as `name(arg, ...)` inside expressions; a `let` with parameters is called the same way.", "",
            "| Function | Arguments | Kinds | What it gives |", "| --- | --- | --- | --- |"]
    for name in sorted(P.FUNCTIONS):
        sig = P.FUNCTIONS[name]
        out.append("| `%s` | %s | %s | %s |" % (name, _sig(name, sig), _cell(_kinds(sig)), _says(sig.says)))
    out += ["", "### Constants and context names", "",
            "| Name | Meaning |", "| --- | --- |"]
    shown = {None: "no value", True: "true", False: "false"}
    for name, value in P.CONSTANTS.items():
        text = shown[value] if value is None or isinstance(value, bool) else repr(value)
        out.append("| `%s` | constant: %s |" % (name, _cell(text)))
    for name, says in P.CONTEXT_NAMES.items():
        out.append("| `%s` | %s |" % (name, _cell(says)))
    out += ["", "### Events", "", "For `trigger NAME on EVENT:`; each binds the names listed.", "",
            "| Event | Binds |", "| --- | --- |"]
    for name, bound in P.EVENTS.items():
        out.append("| `%s` | %s |" % (name, ", ".join("`%s`" % b for b in bound)))
    out += ["", "### Attributes", "", "Readable as `x.NAME` on a space or a tile: " +
            ", ".join("`%s`" % a for a in sorted(P.ATTRIBUTES)) + "."]
    return "\n".join(out) + "\n"


def declarations_markdown() -> str:
    """Each declaration kind's head and IR fields, from dsl/schema.json."""
    from provost.dsl.schema import schema_document

    defs = schema_document()["$defs"]
    kinds = defs["decl"]["properties"]["kind"]["enum"]
    out = ["In the IR (see [The IR](#the-ir)) each kind has these fields besides `kind`, `pos` and "
           "`attr_pos` (generated from `dsl/schema.json`):", "",
           "| Kind | Written | IR fields |", "| --- | --- | --- |"]
    for kind in kinds:
        d = defs.get("decl_" + kind, {})
        fields = [k for k in d.get("properties", {}) if k not in ("kind", "pos", "attr_pos")]
        out.append("| `%s` | %s | %s |" % (kind, _cell(d.get("description", "")),
                                           ", ".join("`%s`" % f for f in fields)))
    return "\n".join(out) + "\n"


def import_code_modules() -> None:
    """Import every module of CODE_PACKAGES so that all diagnostic codes are registered."""
    for pkg_name in CODE_PACKAGES:
        pkg = importlib.import_module(pkg_name)
        for info in pkgutil.walk_packages(pkg.__path__, pkg_name + "."):
            if info.name.rsplit(".", 1)[-1].startswith("_"):
                continue
            importlib.import_module(info.name)


def codes_markdown() -> str:
    import_code_modules()
    from provost.dsl.diagnostics import write_codes_table_markdown
    return write_codes_table_markdown()


SECTIONS = {"declarations": declarations_markdown, "primitives": primitives_markdown, "codes": codes_markdown}
_MARKERS = re.compile(r"(<!-- BEGIN GENERATED: (\w+) -->\n)(.*?)(<!-- END GENERATED: \2 -->)", re.DOTALL)


def render(text: str) -> str:
    """`text` with every generated section replaced by fresh output."""
    found = set()

    def fill(m):
        name = m.group(2)
        if name not in SECTIONS:
            raise SystemExit("dsl/README.md: unknown generated section %r" % name)
        found.add(name)
        return m.group(1) + SECTIONS[name]() + m.group(4)
    out = _MARKERS.sub(fill, text)
    missing = set(SECTIONS) - found
    if missing:
        raise SystemExit("dsl/README.md lacks the markers for %s" % ", ".join(sorted(missing)))
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m provost.tools.dev.gen_docs", description=__doc__.splitlines()[0])
    p.add_argument("--check", action="store_true", help="exit 1 if dsl/README.md is out of date")
    args = p.parse_args(argv)
    with open(README, encoding="utf-8") as fh:
        text = fh.read()
    fresh = render(text)
    if args.check:
        if fresh != text:
            print("dsl/README.md is out of date: run 'python -m provost.tools.dev.gen_docs'", file=sys.stderr)
            return 1
        return 0
    if fresh != text:
        with open(README, "w", encoding="utf-8") as fh:
            fh.write(fresh)
        print("updated dsl/README.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
