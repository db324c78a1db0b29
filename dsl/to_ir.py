"""Parse tree -> raw IR: plain dicts and lists, every node with its position.

Statements carry the key ``"s"`` and expressions the key ``"e"``; both keep
``"pos": [line, col, end_line, end_col]``.  Declarations come out generic
(kind, name, words, body); dsl/declarations.py gives each kind its shape.
"""
from __future__ import annotations

import re

from lark import Token, Transformer_NonRecursive, Tree, v_args


def pos_of(meta) -> list[int]:
    if meta is None or getattr(meta, "empty", True):
        return [1, 1, 1, 1]
    return [meta.line, meta.column, meta.end_line, meta.end_column]


def _tok_pos(tok: Token) -> list[int]:
    return [tok.line, tok.column, tok.end_line or tok.line, tok.end_column or tok.column]


_ESCAPES = {'"': '"', "\\": "\\", "n": "\n"}
_ESCAPE = re.compile(r"\\(.)")


def _string_value(tok: Token) -> str:
    """A string's text: its escapes read in one pass from the left (``"a\\\\nb"`` is a backslash
    and an ``n``, not a line break); any other backslash stays as written."""
    raw = str(tok)[1:-1]
    return _ESCAPE.sub(lambda m: _ESCAPES.get(m.group(1), m.group(0)), raw)


def _ref_value(tok: Token) -> str:
    """A ruleset reference: a bare name or a quoted path."""
    return _string_value(tok) if tok.type == "STRING" else str(tok)


_STEP = ("phase", "step")
_ENTRY = ("table", "key")


def _part_change(change: str, names: tuple, meta, children, anchor: str | None = None) -> dict:
    """A variant's change of one part of a declaration -- a phase's step (``_STEP``) or a table's
    entry (``_ENTRY``) -- with, for an addition, the part it goes ``after`` or ``before``."""
    outer, inner, *rest, body = children
    out = {"change": change, names[0]: str(outer), names[1]: str(inner)}
    if anchor == "after":
        out["after"] = str(rest[0]) if rest[0] is not None else None
    elif anchor == "before":
        out.update(after=None, before=str(rest[0]))
    out.update(body=body, pos=pos_of(meta))
    return out


def _binop(op):
    def method(self, meta, children):
        left, right = children[0], children[-1]
        return {"e": "binop", "op": op, "left": left, "right": right, "pos": pos_of(meta)}
    return method


@v_args(meta=True)
class ToIR(Transformer_NonRecursive):
    # ------------------------------------------------------------ file level
    def start(self, meta, items):
        return [i for i in items if i is not None]

    def decl(self, meta, children):
        words, body = [], None
        for c in children:
            if isinstance(c, Token):
                if c.type == "STRING":
                    words.append({"str": _string_value(c), "pos": _tok_pos(c)})
                elif c.type == "INT":
                    words.append({"int": int(c), "pos": _tok_pos(c)})
                elif c.type == "NAME":
                    words.append({"name": str(c), "pos": _tok_pos(c)})
                elif c.type == "TEMPLATE_NAME":      # n{n}_port: filled in by its family
                    words.append({"name": str(c), "template": True, "pos": _tok_pos(c)})
            elif isinstance(c, dict) and (c.get("params") is not None or "int" in c) and "s" not in c:
                words.append(c)                 # parameters, or a signed number
            elif isinstance(c, list):
                body = c
        kind = words.pop(0)["name"]
        return {"decl": kind, "words": words, "body": body, "pos": pos_of(meta)}

    def signed_int(self, meta, children):
        return {"int": -int(children[0]), "pos": pos_of(meta)}

    def decl_params(self, meta, children):
        return {"params": [str(c) for c in children if c is not None], "pos": pos_of(meta)}

    def let_decl(self, meta, children):
        name = children[0]
        params = children[1]["params"] if isinstance(children[1], dict) and "params" in children[1] else None
        value = children[-1]
        return {"decl": "let", "name": str(name), "params": params, "value": value, "pos": pos_of(meta)}

    def family(self, meta, children):
        names = [str(c) for c in children if isinstance(c, Token)]
        rest = [c for c in children if not isinstance(c, Token)]
        return {"family": names, "values": rest[0], "items": rest[1:], "pos": pos_of(meta)}

    def variant_decl(self, meta, children):
        name = str(children[0])
        title = None
        rest = list(children[1:])
        # A title is a STRING followed by the base (a token); `extends "path"` has a STRING base only.
        if len(rest) > 1 and isinstance(rest[0], Token) and rest[0].type == "STRING" and isinstance(rest[1], Token):
            title = _string_value(rest.pop(0))
        base_ref = _ref_value(rest.pop(0))
        also = rest.pop(0) or []          # the optional `with V1, V2` (None when absent)
        return {"decl": "variant", "name": name, "title": title, "extends": base_ref, "with": also,
                "items": rest, "pos": pos_of(meta)}

    def with_variants(self, meta, children):
        return [_ref_value(r) for r in children]

    def replace_decl(self, meta, children):
        return {"change": "replace", "decl": children[0], "pos": pos_of(meta)}

    def replace_let(self, meta, children):
        return {"change": "replace", "decl": children[0], "pos": pos_of(meta)}

    def replace_step(self, meta, children):
        return _part_change("replace_step", _STEP, meta, children)

    def add_step(self, meta, children):
        return _part_change("add_step", _STEP, meta, children, "after")

    def add_step_before(self, meta, children):
        return _part_change("add_step", _STEP, meta, children, "before")

    def replace_entry(self, meta, children):
        return _part_change("replace_entry", _ENTRY, meta, children)

    def add_entry(self, meta, children):
        return _part_change("add_entry", _ENTRY, meta, children, "after")

    def add_entry_before(self, meta, children):
        return _part_change("add_entry", _ENTRY, meta, children, "before")

    def remove_decl(self, meta, children):
        kind, name, sub = children
        out = {"change": "remove", "kind": str(kind), "name": str(name), "pos": pos_of(meta)}
        if sub is not None:
            out["step"] = str(sub)
        return out

    # ------------------------------------------------------------ statements
    def suite(self, meta, children):
        out = []
        for c in children:
            if isinstance(c, list):
                out.extend(c)
            else:
                out.append(c)
        return out

    def simple_line(self, meta, children):
        return list(children)

    def call(self, meta, children):
        name = str(children[0])
        args, kw = [], {}
        for a in children[1:]:
            if a is None:
                continue
            if isinstance(a, dict) and a.get("e") == "kwarg":
                kw[a["name"]] = a["value"]
            else:
                args.append(a)
        return {"s": "call", "name": name, "args": args, "kw": kw, "pos": pos_of(meta)}

    def amount(self, meta, children):
        n, what = children
        return {"e": "amount", "n": n, "what": str(what), "pos": pos_of(meta)}

    def kwarg(self, meta, children):
        name, value, what = children
        if what is not None:
            value = {"e": "amount", "n": value, "what": str(what), "pos": pos_of(meta)}
        return {"e": "kwarg", "name": str(name), "value": value, "pos": pos_of(meta)}

    def set_stmt(self, meta, children):
        target, op, value = children
        return {"s": "set", "target": target, "op": str(op), "value": value, "pos": pos_of(meta)}

    def target_name(self, meta, children):
        return {"name": str(children[0]), "index": None, "of": None}

    def target_index(self, meta, children):
        return {"name": str(children[0]), "index": children[1], "of": None}

    def target_of(self, meta, children):
        return {"name": str(children[0]), "index": None, "of": children[1]}

    def target_index_of(self, meta, children):
        return {"name": str(children[0]), "index": children[1], "of": children[2]}

    def let_stmt(self, meta, children):
        return {"s": "let", "name": str(children[0]), "value": children[1], "pos": pos_of(meta)}

    def break_stmt(self, meta, children):
        return {"s": "break", "pos": pos_of(meta)}

    def either_stmt(self, meta, children):
        return {"s": "choose", "title": None, "options": list(children), "pos": pos_of(meta)}

    def either_opt(self, meta, children):
        name, call = children
        return {"name": str(name), "params": [], "when": None, "body": [call], "pos": pos_of(meta)}

    def if_stmt(self, meta, children):
        cond, body = children[0], children[1]
        branches = [[cond, body]]
        orelse = None
        for c in children[2:]:
            if c is None:
                continue
            if c[0] == "elif":
                branches.append([c[1], c[2]])
            else:
                orelse = c[1]
        return {"s": "if", "branches": branches, "else": orelse, "pos": pos_of(meta)}

    def elif_clause(self, meta, children):
        return ("elif", children[0], children[1])

    def else_clause(self, meta, children):
        return ("else", children[0])

    def for_stmt(self, meta, children):
        var, it, body = children
        return {"s": "for", "var": str(var), "iter": it, "body": body, "acting": False, "pos": pos_of(meta)}

    def each_stmt(self, meta, children):
        var, it, body = children
        return {"s": "for", "var": str(var), "iter": it, "body": body, "acting": True, "pos": pos_of(meta)}

    def as_stmt(self, meta, children):
        return {"s": "as", "player": children[0], "body": children[1], "pos": pos_of(meta)}

    def repeat_n(self, meta, children):
        return {"s": "repeat", "times": children[0], "while": None, "body": children[1], "pos": pos_of(meta)}

    def repeat_while(self, meta, children):
        return {"s": "repeat", "times": None, "while": children[0], "body": children[1], "pos": pos_of(meta)}

    def turns_stmt(self, meta, children):
        return {"s": "turns", "order": children[0], "body": children[1], "pos": pos_of(meta)}

    def defer_stmt(self, meta, children):
        return {"s": "defer", "until_vacant": children[0], "body": children[1], "pos": pos_of(meta)}

    def step_stmt(self, meta, children):
        name, title, body = children
        return {"s": "step", "name": str(name), "title": _string_value(title) if title is not None else None,
                "body": body, "pos": pos_of(meta)}

    def step_label(self, meta, children):
        name, title = children
        return {"s": "step_label", "name": str(name), "title": _string_value(title) if title is not None else None,
                "pos": pos_of(meta)}

    def choose_stmt(self, meta, children):
        title = None
        opts = []
        for c in children:
            if isinstance(c, Token):
                title = _string_value(c)
            elif c is not None:
                opts.append(c)
        return {"s": "choose", "title": title, "options": opts, "pos": pos_of(meta)}

    def option(self, meta, children):
        name, params, when, body = children
        return {"name": str(name), "params": params or [], "when": when, "body": body, "pos": pos_of(meta)}

    def option_params(self, meta, children):
        return list(children)

    def option_param(self, meta, children):
        name, it, where = children
        return {"name": str(name), "in": it, "where": where}

    def block_stmt(self, meta, children):
        return {"s": "block", "label": str(children[0]), "body": children[1], "pos": pos_of(meta)}

    def entry_stmt(self, meta, children):
        return {"s": "entry", "key": children[0], "body": children[1], "pos": pos_of(meta)}

    def key_int(self, meta, children):
        n = int(children[0])
        return {"from": n, "to": n}

    def key_range(self, meta, children):
        return {"from": int(children[0]), "to": int(children[1])}

    def key_from(self, meta, children):
        return {"from": int(children[0]), "to": None}

    # ------------------------------------------------------------ expressions
    def ifexp(self, meta, children):
        then, cond, other = children
        return {"e": "if", "cond": cond, "then": then, "else": other, "pos": pos_of(meta)}

    or_ = _binop("or")
    and_ = _binop("and")
    add = _binop("+")
    sub = _binop("-")
    mul = _binop("*")
    floordiv = _binop("//")
    mod = _binop("%")
    in_ = _binop("in")
    not_in = _binop("not in")

    def compare(self, meta, children):
        left, op, right = children
        return {"e": "binop", "op": str(op), "left": left, "right": right, "pos": pos_of(meta)}

    def not_(self, meta, children):
        return {"e": "not", "x": children[0], "pos": pos_of(meta)}

    def neg(self, meta, children):
        x = children[0]
        if x.get("e") == "int":
            return {"e": "int", "v": -x["v"], "pos": pos_of(meta)}
        return {"e": "neg", "x": x, "pos": pos_of(meta)}

    def range(self, meta, children):
        return {"e": "range", "lo": children[0], "hi": children[1], "pos": pos_of(meta)}

    def attr(self, meta, children):
        return {"e": "attr", "x": children[0], "name": str(children[1]), "pos": pos_of(meta)}

    def index(self, meta, children):
        return {"e": "index", "x": children[0], "key": children[1], "pos": pos_of(meta)}

    def of(self, meta, children):
        return {"e": "of", "x": children[0], "player": children[1], "pos": pos_of(meta)}

    def int(self, meta, children):
        return {"e": "int", "v": int(children[0]), "pos": pos_of(meta)}

    def string(self, meta, children):
        return {"e": "str", "v": _string_value(children[0]), "pos": pos_of(meta)}

    def name(self, meta, children):
        return {"e": "name", "id": str(children[0]), "pos": pos_of(meta)}

    def funcall(self, meta, children):
        return {"e": "call", "fn": str(children[0]), "args": [c for c in children[1:] if c is not None],
                "pos": pos_of(meta)}

    def list(self, meta, children):
        return {"e": "list", "items": [c for c in children if c is not None], "pos": pos_of(meta)}

    def comprehension(self, meta, children):
        item, var, it, cond = children
        return {"e": "comp", "item": item, "var": str(var), "iter": it, "cond": cond, "pos": pos_of(meta)}

    def dict(self, meta, children):
        return {"e": "dict", "items": [c for c in children if c is not None], "pos": pos_of(meta)}

    def dict_item(self, meta, children):
        key, value = children
        k = int(key) if key.type == "INT" else str(key)
        return [k, value]


def tree_to_raw(tree: Tree) -> list:
    return ToIR().transform(tree)
