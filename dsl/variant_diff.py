"""What a variant changes, rule by rule, in plain words (``provost diff``, the rulebook's
"What this variant changes")."""
from __future__ import annotations

from .loader import _decl_key
from .prose import Prose


def describe(base_decls: list[dict], variant: dict) -> list[str]:
    """The variant's changes as readable lines (the base's declarations give the 'was' side)."""
    prose = Prose(base_decls + [ch["decl"] for ch in variant["changes"] if "decl" in ch])
    index = {_decl_key(d): d for d in base_decls}
    title = variant.get("title") or variant["name"]
    also = variant.get("with") or []
    base = variant["extends"] + (" with %s's changes" % ", ".join(also) if also else "")
    out = ["%s (%s) changes %s:" % (title, variant["name"], base)]
    if variant.get("description"):
        out.append("  " + variant["description"])
    for ch in variant["changes"]:
        op = ch["op"]
        out.append("")
        if op == "add":
            d = ch["decl"]
            out.append("+ adds %s '%s':" % (d["kind"], d.get("name") or d["kind"]))
            out.extend("    " + line for line in prose.decl(d))
        elif op == "replace":
            d = ch["decl"]
            old = index.get(_decl_key(d))
            out.append("~ changes %s '%s':" % (d["kind"], d.get("name") or d["kind"]))
            if old is not None:
                out.append("    was:")
                out.extend("      " + line for line in prose.decl(old))
            out.append("    now:")
            out.extend("      " + line for line in prose.decl(d))
        elif op == "remove":
            old = index.get((ch["kind"], ch["name"]))
            what = prose.decl(old)[0] if old is not None else ch["name"]
            out.append("- removes %s '%s' (%s)" % (ch["kind"], ch["name"], what))
        elif op in ("replace_step", "add_step", "remove_step"):
            verb = {"replace_step": "~ changes", "add_step": "+ adds", "remove_step": "- removes"}[op]
            where = " after step '%s'" % ch["after"] if ch.get("after") else ""
            out.append("%s step '%s' of %s%s" % (verb, ch["step"], ch["phase"], where) + (":" if "body" in ch else ""))
            old = index.get(("phase", ch["phase"])) or index.get((ch["phase"], ch["phase"]))
            if op == "replace_step" and old is not None:
                was = next((st for st in old["body"] if st["s"] == "step" and st["name"] == ch["step"]), None)
                if was is not None:
                    out.append("    was:")
                    out.extend("      " + line for line in prose.block(was["body"]))
                out.append("    now:")
            if "body" in ch:
                out.extend("      " + line for line in prose.block(ch["body"]))
    return out
