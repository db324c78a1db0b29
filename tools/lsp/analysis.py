"""What the language server knows about a rule file, as plain functions of texts and positions.

Everything here works on the open documents' texts (``dsl.source.edited_texts`` puts them in
place of the files while the checker and the loader read them), so a buffer is checked as typed,
not as last saved.  Positions are LSP's: 0-based lines and columns.  The server
(``provost.tools.lsp.server``) only turns these results into protocol messages.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass

from provost.dsl.diagnostics import CONTROL, Diagnostic
from provost.dsl.loader import check_file_and_sources, files_of_rules, parse_file, resolve
from provost.dsl.declarations import ATTRIBUTES, KINDS
from provost.dsl.primitives import CONSTANTS, CONTEXT_NAMES, EFFECTS, EVENTS, FUNCTIONS
from provost.dsl.source import IR_SUFFIXES, edited_texts

NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
#: What a diagnostic without an end marks at its start: a name, or a number with its sign (`-6`).
MARKED_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|-?[0-9]+")
#: Where a line ends for LSP (and so for the editor): at "\r\n", "\n" or a lone "\r".
LINE_END = re.compile(r"\r\n|\r|\n")
#: A building's head: the name after its title is its category (Caylus has a resource and a
#: category both called `wood`: there the category is meant).
BUILDING_CATEGORY = re.compile(r'^\s*(?:replace\s+)?building\s+\w+\s+"[^"]*"\s+(\w+)')
STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
COMMENT_OR_STRING = re.compile(r'#.*$|"(?:[^"\\\n]|\\.)*"')
# What a declaration kind is called when hovered.
KIND_WORDS = {"let": "let", "effect": "effect", "space": "space", "building": "building", "counter": "counter",
              "resource": "resource", "enum": "enum", "zone": "zone", "pieces": "pieces", "phase": "phase",
              "table": "table", "order": "order", "track": "track", "category": "category", "trigger": "trigger"}


@dataclass
class Declared:
    """A declared name: its kind, the file and 0-based position of its declaration, and words."""
    name: str
    kind: str
    path: str
    line: int
    col: int
    detail: str = ""


def _abs(path: str) -> str:
    return os.path.abspath(path)


def lines_of(text: str) -> list[str]:
    """TEXT's lines as the editor counts them: every position here and in the protocol is in these
    lines (the checker's own count differs only past a lone CR, which it refuses, P007, there)."""
    return LINE_END.split(text)


#: How many times a document that does not parse has its faulty lines set aside before the
#: names are read without it (each try is one parse: about 50 ms on `caylus.rules`).
REPAIR_TRIES = 8
#: The syntax errors a line can be set aside for (a file too long, P104, stays as it is).
LINE_ERRORS = ("P100", "P101", "P102", "P103", "P105")
_repaired_cache: dict[str, tuple[str, str]] = {}


def readable(path: str, texts: dict[str, str]) -> dict[str, str]:
    """TEXTS with the document at PATH made to parse, for its names: a control character (which
    makes the whole file unreadable, P007) becomes a space, and each line a syntax error is
    reported at (and a block it heads) is blanked, lines and columns kept, so a mistake being typed
    in the middle of a file leaves hover, completion, definition and the outline of the rest
    working.  Its lines are the editor's (`lines_of`), joined by "\n": a buffer with lone CR line
    ends is read line by line, not as one line.  Diagnostics are always of the real text."""
    key = _abs(path)
    text = texts.get(key)
    if text is None or key.lower().endswith(IR_SUFFIXES):
        return texts
    cached = _repaired_cache.get(key)
    if cached is not None and cached[0] == text:
        return dict(texts, **{key: cached[1]})
    from provost.dsl.parser import parse_text
    lines = [CONTROL.sub(" ", row) for row in lines_of(text)]
    for _ in range(REPAIR_TRIES):
        tree, found = parse_text("\n".join(lines), path)
        rows = sorted({d.line - 1 for d in found if d.code in LINE_ERRORS and 0 < d.line <= len(lines)})
        if tree is not None or not rows:
            break
        for row in rows:
            if not _keep_variant_head(lines, row):
                _blank_block(lines, row)
    else:
        lines = [CONTROL.sub(" ", row) for row in lines_of(text)]
    repaired = "\n".join(lines)
    _repaired_cache.clear()
    _repaired_cache[key] = (text, repaired)
    return dict(texts, **{key: repaired})


#: A variant's head: set aside, it would take its base with it (every name of the game).
VARIANT_HEAD = re.compile(r"^variant\b[^#]*:\s*(?:#.*)?$")
#: What a variant's body holds, when every change in it was set aside, so that its head parses.
EMPTY_CHANGE = '    description ""'


def _keep_variant_head(lines: list[str], row: int) -> bool:
    """When ROW is a variant's head left without a body (its changes set aside as being typed),
    give it an empty description in the blank line below it and keep it; False otherwise."""
    if not VARIANT_HEAD.match(lines[row]):
        return False
    if row + 1 == len(lines):
        lines.append("")
    if lines[row + 1].strip():
        return False
    lines[row + 1] = EMPTY_CHANGE
    return True


def _blank_block(lines: list[str], row: int) -> None:
    """Blank line ROW and, when it heads a block (`work:`), the lines indented under it."""
    head = lines[row]
    lines[row] = ""
    if not head.split("#", 1)[0].rstrip().endswith(":"):
        return
    indent = len(head) - len(head.lstrip())
    for at in range(row + 1, len(lines)):
        code = lines[at].split("#", 1)[0]
        if code.strip() and len(code) - len(code.lstrip()) <= indent:
            break
        lines[at] = ""


# ------------------------------------------------------------------ diagnostics
def diagnostics(path: str, texts: dict[str, str]) -> dict[str, list[Diagnostic]]:
    """The checker's diagnostics for the document at PATH, by file (a variant's error may be in its base)."""
    return checked(path, texts)[0]


def checked(path: str, texts: dict[str, str]) -> tuple[dict[str, list[Diagnostic]], list[str] | None]:
    """`diagnostics` and the files the rules are made of (None when they do not resolve)."""
    with edited_texts(texts):
        found, files = check_file_and_sources(path)
    out: dict[str, list[Diagnostic]] = {_abs(path): []}
    for d in found:
        out.setdefault(_abs(d.path), []).append(d)
    return out, files


def lsp_range(d: Diagnostic, text: str | None) -> tuple[int, int, int, int]:
    """A diagnostic's span, 0-based: its end if it has one, else the word or number at its start; at the
    end of a line (P007 at a lone CR), the line end itself, up to the start of the next line."""
    line, col = max(1, d.line) - 1, max(1, d.col) - 1
    if d.end_line is not None and d.end_col is not None and (d.end_line, d.end_col) > (d.line, d.col):
        return line, col, d.end_line - 1, d.end_col - 1
    lines = lines_of(text or "")
    width = 1
    if line < len(lines):
        if col == len(lines[line]) and line + 1 < len(lines):
            return line, col, line + 1, 0
        m = MARKED_WORD.match(lines[line], col)
        width = max(1, m.end() - col) if m else 1
    return line, col, line, col + width


# ------------------------------------------------------------------ names
def declarations(path: str, texts: dict[str, str]) -> dict[str, Declared]:
    """Every name the rules declare, by name: the resolved rules' (a replacement is found where it
    was written), then what each file of the chain declares itself (a name a variant removed is
    still found in its base)."""
    out: dict[str, Declared] = {}
    with edited_texts(texts):
        rs, _ = resolve(path)
        if rs is not None:
            for d in rs.decls:
                _declare(out, d, rs.file_of(d))
        for f in reversed(rs.chain if rs is not None else [path]):
            ir, _ = parse_file(f)
            for d in (ir or {}).get("decls") or ():
                _declare(out, d, f)
    return out


def _declare(out: dict, d, where: str) -> None:
    if not d or "name" not in d or not isinstance(d.get("pos"), list) or d.get("kind") in ("replace", "remove"):
        return
    pos = d["pos"]
    detail = " ".join(x for x in (d.get("title"), d.get("description")) if isinstance(x, str) and x).strip()
    out.setdefault(d["name"], Declared(d["name"], d["kind"], _abs(where), pos[0] - 1, pos[1] - 1, detail))
    if d["kind"] == "enum":
        for v in d.get("values") or ():
            out.setdefault(str(v), Declared(str(v), "value of enum %s" % d["name"], _abs(where), pos[0] - 1, pos[1] - 1))


def word_at(text: str, line: int, col: int) -> tuple[str, int, int] | None:
    """The name under the cursor and its 0-based start and end columns, or None."""
    lines = lines_of(text)
    if not 0 <= line < len(lines):
        return None
    for m in NAME.finditer(lines[line]):
        if m.start() <= col <= m.end():
            return m.group(), m.start(), m.end()
    return None


def occurrences(text: str, name: str) -> list[tuple[int, int, int]]:
    """Where NAME stands as a name in TEXT (comments and strings left out): (line, start, end)."""
    out = []
    for i, line in enumerate(lines_of(text)):
        blanked = COMMENT_OR_STRING.sub(lambda m: " " * len(m.group()), line)
        for m in NAME.finditer(blanked):
            if m.group() == name:
                out.append((i, m.start(), m.end()))
    return out


def files_of(path: str, texts: dict[str, str]) -> list[str]:
    """The files the rules at PATH are made of (its bases, `with` variants and itself)."""
    with edited_texts(readable(path, texts)):
        rs, _ = resolve(path)
    return [_abs(path)] if rs is None else files_of_rules(rs, path)


# ------------------------------------------------------------------ hover and completion
def primitive_doc(name: str) -> str | None:
    sig = EFFECTS.get(name) or FUNCTIONS.get(name)
    if sig is None:
        return None
    what = "effect" if name in EFFECTS else "function"
    arity = "%d" % sig.min_args if sig.max_args == sig.min_args else \
        "%d or more" % sig.min_args if sig.max_args is None else "%d to %d" % (sig.min_args, sig.max_args)
    kinds = ", ".join(sig.arg_kinds) if sig.arg_kinds else "none"
    return "**%s** (%s, %s arguments: %s)\n\n%s" % (name, what, arity, kinds, sig.says.replace("{args}", "...")
                                                    .replace("{0}", "...").replace("{1}", "..."))


def hover(path: str, texts: dict[str, str], line: int, col: int) -> str | None:
    texts = readable(path, texts)
    word = word_at(texts[_abs(path)], line, col)
    if word is None:
        return None
    name = word[0]
    found = _declaration_at(path, texts, line, word)
    if found is not None:
        where = "%s:%d" % (os.path.basename(found.path), found.line + 1)
        return "**%s** `%s` (%s)%s" % (KIND_WORDS.get(found.kind, found.kind), name, where,
                                       "\n\n" + found.detail if found.detail else "")
    return primitive_doc(name)


#: The word put where the cursor is, to find its place (and the names in scope there) in the IR.
CURSOR = "provost_cursor_"
STATEMENT_WORDS = ("if", "elif", "else", "for", "each", "as", "repeat", "turns", "choose", "option", "step",
                   "set", "let", "break", "either", "defer")
EXPRESSION_WORDS = ("not", "and", "or", "in", "if", "else", "of", "for", "when", "where")
VARIANT_WORDS = ("replace", "add", "remove", "description", "for_players")
#: Declarations whose names are never values in an expression.
NOT_VALUES = {"effect", "trigger", "invariant", "game", "variant", "phase"}
#: Names a line binds for what follows on it (a one-line body, a comprehension, a head's parameters).
LINE_BINDERS = re.compile(r"\b(?:for|each)\s+([A-Za-z_]\w*)\s+in\b"
                          r"|^\s*(?:replace\s+)?(?:effect|let)\s+\w+\s*\(([^)]*)\)")
TRIGGER_EVENT = re.compile(r"^\s*(?:replace\s+)?trigger\s+\w+\s+on\s+$")
REMOVE = re.compile(r"^\s*remove\s+(?:(\w+)\s+)?$")
#: What a variant's `replace`, `add` or `remove` may change a part of: `replace step`, `add entry`...
PART_WORDS = ["step", "entry"]
CHANGE_PART = re.compile(r"^\s*(?:replace|add|remove)\s+(step|entry)\s+(?:(\w+)\.)?$")
REPLACE_OR_ADD = re.compile(r"^\s*(replace|add)\s+$")
#: A declaration's head (a variant's `replace` of one included) and its kind; a name must follow,
#: so a table's `space:` label is not taken for one.
DECL_HEAD = re.compile(r"^\s*(?:replace\s+)?([a-z_]+)\s+\w")


def completions(path: str, texts: dict[str, str], line: int, col: int) -> list[tuple[str, str, str]]:
    """``(label, kind, detail)``: what may be written at the cursor.

    At the start of a line: the declaration kinds at the top level (and a variant's changes in a
    variant), a declaration's attributes directly in a body that holds them (a building's, a
    game's...), the statement words and the effects in any other body.  Elsewhere on a line: the names in
    scope there -- the enclosing rule's parameters and local names (found by the checker's scoped
    walk, `provost.dsl.checks.model`), the ruleset's values, the functions, constants and context
    names -- and the expression words; a building's category, a trigger's event and the kinds and
    names after `remove` where those are expected."""
    text = texts[_abs(path)]
    lines = lines_of(text)
    if not 0 <= line < len(lines):
        return []                 # a position past the document's end (a stale request): nothing is typed there
    current = lines[line]
    col = min(col, len(current))
    start = col
    while start > 0 and (current[start - 1].isalnum() or current[start - 1] == "_"):
        start -= 1
    end = col
    while end < len(current) and (current[end].isalnum() or current[end] == "_"):
        end += 1
    before = current[:start]
    code = STRING.sub("", before)
    if "#" in code or '"' in code:
        return []                                     # in a comment or a string
    # The rest of the document as far as it parses (a mistake elsewhere is set aside), this line as
    # typed.  It is repaired with a word at the cursor: `remove building ` does not parse, and set
    # aside it would leave a new variant's head without a body, set aside in turn.
    key = _abs(path)
    with_word = lines[:line] + [current[:start] + CURSOR + current[end:]] + lines[line + 1:]
    fixed = lines_of(readable(path, dict(texts, **{key: "\n".join(with_word)}))[key])
    parsed, local = _scope_at(path, fixed[:line] + [current] + fixed[line + 1:], line, start, end)
    # The declarations as they are with the cursor's word in place (a line being typed may not
    # parse), when those rules resolve: the word alone on a line parses and resolves to nothing.
    texts = dict(texts, **{key: parsed}) if parsed is not None and _resolves(path, dict(texts, **{key: parsed})) \
        else readable(path, texts)
    declared = declarations(path, texts)
    words = lambda ws: [(w, "keyword", "") for w in ws]  # noqa: E731
    named = lambda test: [(d.name, d.kind, d.detail[:80]) for d in declared.values() if test(d)]  # noqa: E731
    if not before.strip() or (before.rstrip()[-1] in ":;" and not _in_brackets(code)):
        # a line's first word, or a one-line body's (`work: `; a dictionary's `{1: ` is an expression)
        where = _block_at(lines, line, len(before)) if not before.strip() else "body"
        if where == "top":
            return words(KINDS + ["variant", "for"])
        if where == "variant":
            return words(KINDS + ["for"] + list(VARIANT_WORDS))
        if where in ATTRIBUTES:
            return attribute_words(where)
        return (words(STATEMENT_WORDS) + named(lambda d: d.kind == "effect")
                + [(n, "effect", s.says[:80]) for n, s in EFFECTS.items()])
    head = BUILDING_CATEGORY.match(before + CURSOR)
    if head is not None and head.group(1) == CURSOR:
        return [(n, "category", "") for n in _names_of_kind(path, texts, "category")]
    if TRIGGER_EVENT.match(before):
        return [(e, "event", "binds " + ", ".join(b)) for e, b in EVENTS.items()]
    part = CHANGE_PART.match(before)
    if part:
        # The line being typed (`replace entry powers.`) does not parse yet: the rules without it.
        # (An empty change in its place: it may be the variant's only one.)
        without = "\n".join(fixed[:line] + [EMPTY_CHANGE] + fixed[line + 1:])
        return _change_part_names(path, dict(texts, **{_abs(path): without}), part.group(1), part.group(2))
    change = REPLACE_OR_ADD.match(before)
    if change:
        return words((list(KINDS) if change.group(1) == "replace" else []) + PART_WORDS)
    remove = REMOVE.match(before)
    if remove and remove.group(1):
        return [(n, remove.group(1), "") for n in _names_of_kind(path, texts, remove.group(1))]
    if remove:
        return words(list(KINDS) + PART_WORDS)
    local |= {n.strip() for m in LINE_BINDERS.finditer(before) for n in (m.group(1) or m.group(2)).split(",")}
    out = [(n, "local", "") for n in sorted(local - {""})]
    out += named(lambda d: d.kind not in NOT_VALUES and d.name not in local)
    out += [(n, "function", s.says[:80]) for n, s in FUNCTIONS.items()]
    out += [(n, "constant", "") for n in CONSTANTS] + [(n, "context", s) for n, s in CONTEXT_NAMES.items()]
    return out + words(EXPRESSION_WORDS)


def _resolves(path: str, texts: dict[str, str]) -> bool:
    with edited_texts(texts):
        return resolve(path)[0] is not None


def _in_brackets(code: str) -> bool:
    """CODE (a line up to the cursor, strings taken out) leaves a bracket open: the cursor is in
    an expression (a dictionary's `{1: `, a call's arguments), whatever the word before it."""
    depth = 0
    for ch in code:
        depth += (ch in "([{") - (ch in ")]}")
    return depth > 0


def _change_part_names(path: str, texts: dict[str, str], part: str, owner: str | None) -> list[tuple[str, str, str]]:
    """After `replace entry ` the tables (after `replace step ` the phases, setup and final);
    after `replace entry TABLE.` the table's named entries (after `replace step PHASE.` its steps)."""
    with edited_texts(texts):
        rs, _ = resolve(path)
    decls = rs.decls if rs is not None else ()
    kinds = ("table",) if part == "entry" else ("phase", "setup", "final")
    if owner is None:
        return [(d.get("name") or d["kind"], d["kind"], "") for d in decls if d.get("kind") in kinds]
    found = next((d for d in decls if d.get("kind") in kinds and (d.get("name") or d["kind"]) == owner), None)
    if found is None:
        return []
    if part == "entry":
        return [(e["key"], "entry", "") for e in found.get("entries") or [] if "key" in e]
    return [(st["name"], "step", "") for st in found.get("body") or [] if st.get("s") == "step"]


def _names_of_kind(path: str, texts: dict[str, str], kind: str) -> list[str]:
    """The names the resolved rules declare as a KIND (a name may be a resource and a category)."""
    with edited_texts(texts):
        rs, _ = resolve(path)
    return list(dict.fromkeys(d["name"] for d in (rs.decls if rs is not None else ())
                              if d.get("kind") == kind and isinstance(d.get("name"), str)))


def attribute_words(kind: str) -> list[tuple[str, str, str]]:
    """The attributes a KIND of declaration holds, as completions saying whose they are and which
    take a block (`work:`) rather than values on their line."""
    article = "an" if kind[0] in "aeiou" else "a"
    return [(name, "property", "attribute of %s %s%s" % (article, kind, "; takes a block" if form == "block" else ""))
            for name, form in ATTRIBUTES[kind].items()]


def _block_at(lines: list[str], line: int, indent: int) -> str:
    """Where a line indented by INDENT stands: "top" (a declaration), "variant" (a change of a
    variant), the kind of declaration whose attributes it is among (a key of ATTRIBUTES), or
    "body" (statements: an effect's, a phase's, a building's `work:`...), by the line heading its block."""
    found = _head_above(lines, line, indent)
    if found is None:
        return "top"
    at, head = found
    if re.match(r"variant\b", head):
        return "variant"
    if re.match(r"\s*for\b", head):
        # A family of declarations (`for n in 1..4:` among them) holds what its own place holds;
        # a `for` in a body repeats statements.
        where = _block_at(lines, at, len(head) - len(head.lstrip()))
        return where if where in ("top", "variant") else "body"
    kind = DECL_HEAD.match(head)
    return kind.group(1) if kind is not None and kind.group(1) in ATTRIBUTES else "body"


def _head_above(lines: list[str], line: int, indent: int) -> tuple[int, str] | None:
    """The line heading the block that a line indented by INDENT is in, as (its index, its code):
    the nearest one above indented less (None at the top level)."""
    if indent == 0:
        return None
    for at in range(min(line, len(lines)) - 1, -1, -1):
        code = lines[at].split("#", 1)[0]
        if code.strip() and len(code) - len(code.lstrip()) < indent:
            return at, code
    return None


def _scope_at(path: str, lines: list[str], line: int, start: int, end: int) -> tuple[str | None, set[str]]:
    """The text that parsed and the local names in scope where the cursor is: the checker's
    scoped walk over the document with the word at the cursor replaced by CURSOR -- in the whole
    text, or in the text up to this line (what follows may not parse while it is being typed), or
    with this line replaced by CURSOR alone at its indentation (the statement the cursor is in
    sees what it sees).  (None, no names) when none of them parses."""
    from provost.dsl.checks.model import Uses, Walker
    from provost.dsl.declarations import build_ir
    from provost.dsl.parser import parse_text
    from provost.dsl.to_ir import tree_to_raw
    current = lines[line]
    typed = current[:start] + CURSOR + current[end:]
    indent = current[:len(current) - len(current.lstrip())]
    for attempt in (lines[:line] + [typed] + lines[line + 1:], lines[:line] + [typed], lines[:line] + [indent + CURSOR]):
        text = "\n".join(attempt) + "\n"
        tree, _ = parse_text(text, path)
        if tree is None:
            continue
        ir, _ = build_ir(tree_to_raw(tree), path)
        uses = Uses()
        walker = Walker(uses)
        for i, d in enumerate(ir["decls"]):
            for part in [_walked(ch) for ch in d.get("changes") or ()] if d.get("kind") == "variant" else [d]:
                walker.decl(part, i)
        for node, scope, _i in uses.names + uses.calls + uses.sets + [a[:3] for a in uses.amounts]:
            if CURSOR in (node.get("id"), node.get("name"), node.get("what"), (node.get("target") or {}).get("name")):
                return text, set(scope)
        return text, set()          # it parses, the cursor is in no body: no locals
    return None, set()


def _walked(change: dict) -> dict:
    """What a variant's change holds, as a declaration the scoped walk visits: its declaration, an
    entry it replaces or adds (as a table of that entry), or the change itself (a step's body)."""
    if change.get("decl"):
        return change["decl"]
    if isinstance(change.get("entry"), dict):
        return {"kind": "table", "entries": [change["entry"]]}
    return change


def document_symbols(path: str, texts: dict[str, str]) -> list[Declared]:
    """The declarations written in the document itself (its outline), in order: a variant's own,
    what it adds or replaces, and the steps and entries it changes (`income.income`).  Two
    declarations of one name (Caylus's resource and category `wood`) are both listed."""
    if path.lower().endswith(IR_SUFFIXES):
        return []                     # an IR document's positions are its source file's
    texts = readable(path, texts)
    with edited_texts(texts):
        ir, _ = parse_file(path)
    out: list[Declared] = []
    for d in (ir or {}).get("decls") or ():
        _symbol(out, d, path, d.get("kind"), d.get("name"))
        for ch in d.get("changes") or () if d.get("kind") == "variant" else ():
            if ch.get("decl") and ch.get("op") != "remove":
                _symbol(out, ch["decl"], path, ch["decl"].get("kind"), ch["decl"].get("name"))
            elif "step" in ch or "key" in ch:
                part, owner, name = ("step", ch.get("phase"), ch["step"]) if "step" in ch else \
                    ("entry", ch.get("table"), ch["key"])
                _symbol(out, ch, path, part, "%s.%s" % (owner, name))
    return out


def _symbol(out: list, d: dict, path: str, kind, name) -> None:
    if isinstance(name, str) and isinstance(kind, str) and isinstance(d.get("pos"), list):
        out.append(Declared(name, kind, _abs(path), d["pos"][0] - 1, d["pos"][1] - 1))


# ------------------------------------------------------------------ definition, references, rename
def definition(path: str, texts: dict[str, str], line: int, col: int) -> Declared | None:
    """Where the name under the cursor is declared; on a declaration that replaces a base's
    (``replace let start_money = ...``), the base's."""
    texts = readable(path, texts)
    word = word_at(texts[_abs(path)], line, col)
    if word is None:
        return None
    found = _declaration_at(path, texts, line, word)
    if found is not None and found.kind != "category" and found.path == _abs(path) and found.line == line:
        return _in_bases(path, texts, word[0]) or found
    return found


def _declaration_at(path: str, texts: dict[str, str], line: int, word: tuple[str, int, int]) -> Declared | None:
    """The declaration of the WORD on LINE: after a building's title, its category (Caylus's
    `wood` is a resource and a category), else the name's declaration."""
    head = BUILDING_CATEGORY.match(lines_of(texts[_abs(path)])[line])
    if head is not None and head.start(1) == word[1]:
        category = _declared_as(path, texts, word[0], "category")
        if category is not None:
            return category
    return declarations(path, texts).get(word[0])


def name_span(path: str, texts: dict[str, str], line: int, col: int, name: str) -> tuple[int, int]:
    """The columns of NAME in the head of a declaration starting at LINE, COL (after its kind
    word: `building tavern ...`), or of its first character when the name is not written there
    (a family's `area_{n}`)."""
    try:
        row = lines_of(_text_of(path, texts))[line]
    except (OSError, IndexError):
        return col, col + 1
    m = re.compile(r"\b%s\b" % re.escape(name)).search(row, col)
    return (m.start(), m.end()) if m else (col, col + 1)


def _declared_as(path: str, texts: dict[str, str], name: str, kind: str) -> Declared | None:
    """The declaration of ``name`` as a ``kind`` in the resolved rules (a name may be a resource
    and a category at once)."""
    with edited_texts(texts):
        rs, _ = resolve(path)
    for d in rs.decls if rs is not None else ():
        if d.get("kind") == kind and d.get("name") == name and isinstance(d.get("pos"), list):
            out: dict = {}
            _declare(out, d, rs.file_of(d))
            return out.get(name)
    return None


def _in_bases(path: str, texts: dict[str, str], name: str) -> Declared | None:
    with edited_texts(texts):
        rs, _ = resolve(path)
        for f in reversed((rs.chain if rs is not None else [])[:-1]):
            ir, _ = parse_file(f)
            for d in (ir or {}).get("decls") or ():
                if d and d.get("name") == name and isinstance(d.get("pos"), list):
                    out: dict = {}
                    _declare(out, d, f)
                    if name in out:
                        return out[name]
    return None


def _text_of(path: str, texts: dict[str, str]) -> str:
    if path in texts:
        return texts[path]
    with open(path, encoding="utf-8") as f:
        return f.read()


def references(path: str, texts: dict[str, str], line: int, col: int) -> list[tuple[str, int, int, int]]:
    """Every place the name under the cursor stands in the files of these rules: (file, line, start, end)."""
    word = word_at(texts[_abs(path)], line, col)
    if word is None:
        return []
    out = []
    for f in files_of(path, texts):
        out += [(f, ln, a, b) for ln, a, b in occurrences(_text_of(f, texts), word[0])]
    return out


def rename(path: str, texts: dict[str, str], line: int, col: int, new: str) -> dict[str, list[tuple[int, int, int]]]:
    """The edits renaming the declared name under the cursor in every file of these rules, by file;
    empty when the cursor is not on a declared name.  Refused (RenameRefused, with the reason)
    when NEW is not a name or is taken, or when a shipped file would be edited."""
    word = word_at(texts[_abs(path)], line, col)
    declared = declarations(path, readable(path, texts))
    if word is None or word[0] not in declared:
        return {}
    if not NAME.fullmatch(new):
        raise RenameRefused("'%s' is not a name: a letter or '_', then letters, digits or '_'" % new)
    taken = declared.get(new)
    if taken is not None or new in EFFECTS or new in FUNCTIONS or new in KINDS:
        # Two declarations of one name, or a name the rule language has: the rules would change meaning.
        raise RenameRefused("'%s' is already %s" % (new, "declared (%s %s, %s:%d)" % (
            taken.kind, new, os.path.basename(taken.path), taken.line + 1) if taken else "a word of the rule language"))
    edits: dict[str, list[tuple[int, int, int]]] = {}
    for f, ln, a, b in references(path, texts, line, col):
        edits.setdefault(f, []).append((ln, a, b))
    shipped = [f for f in edits if _is_shipped(f)]
    if shipped:
        # The installed games are read-only: a rename there would change every user's Caylus.
        raise RenameRefused("'%s' is also used in the shipped rules (%s): they are not yours to edit; rename "
                            "it in a copy of the game, or give your own declaration another name"
                            % (word[0], ", ".join(sorted(os.path.basename(f) for f in shipped))))
    return edits


class RenameRefused(Exception):
    """A rename that would edit files that are not the user's (the message says which)."""


def _is_shipped(path: str) -> bool:
    from provost.dsl.loader import shipped_dir
    return os.path.commonpath([_abs(path), _abs(shipped_dir())]) == _abs(shipped_dir())
