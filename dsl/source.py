"""Reading input files safely: size, encoding and structure limits, as positioned diagnostics.

Everything the checker is given (rule files, YAML/JSON IR files) comes through here first, so
hostile or broken input (a huge file, a binary, bad UTF-8, a YAML alias bomb, absurd nesting) is
turned into a diagnostic with a position before any parser sees it, and never into a traceback,
a hang or an unbounded allocation.

Limits are module constants so tests and documentation can name them.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
import stat
import sys
from typing import Any


from .diagnostics import CONTROL, Diagnostic

MAX_BYTES = 1_000_000
"""Largest input file accepted. The shipped rulesets are a few tens of kilobytes."""

MAX_NESTING = 200
"""Deepest list/mapping nesting accepted in a YAML/JSON IR document."""

MAX_ENTRIES = 10_000
"""Most entries in one YAML list or mapping: a ruleset has a few hundred declarations; past this
a hostile document (100k keys) is refused before it is built."""

IR_SUFFIXES = (".json", ".yaml", ".yml")

_BOM = b"\xef\xbb\xbf"

# libyaml is much faster on large documents; its events and marks match the pure-Python ones.


def _yaml_loader():
    """PyYAML's safe loader (the C one when built); yaml is imported only for YAML files."""
    import yaml
    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)

# Tags that map onto JSON values; anything else (timestamps, binary, sets, ...) is rejected.
_JSON_SCALAR_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
}
_STR_TAG = "tag:yaml.org,2002:str"
_FLOAT_TAG = "tag:yaml.org,2002:float"
_INT_TAG = "tag:yaml.org,2002:int"
_MAX_INT_CHARS = 1000  # far beyond any game number; keeps int() clear of Python's digit limit
_MAP_TAG = "tag:yaml.org,2002:map"
_SEQ_TAG = "tag:yaml.org,2002:seq"


def is_bare_name(arg: str) -> bool:
    """True for an argument with no path separator and no file suffix (`caylus`, not `./caylus`
    or `caylus.rules`).

    Such an argument names a shipped ruleset when one has that name, even if a file or folder
    of that name sits in the current directory; anything else is a path (README, Commands).
    """
    separators = [sep for sep in ("/", os.sep, os.altsep) if sep]
    return not any(sep in arg for sep in separators) and not os.path.splitext(arg)[1]


def _error(path: str, line: int, col: int, code: str, message: str, hint: str | None = None) -> Diagnostic:
    return Diagnostic(path, max(1, line), max(1, col), "error", code, message, hint=hint)


def _line_col(data: bytes, offset: int) -> tuple[int, int]:
    """1-based line and column (in characters) of byte `offset`, which must start a character."""
    line_start = data.rfind(b"\n", 0, offset) + 1
    line = data.count(b"\n", 0, offset) + 1
    col = len(data[line_start:offset].decode("utf-8", errors="replace")) + 1
    return line, col


# Texts being edited (an editor's unsaved buffers, `provost lsp`), by absolute path: read in place
# of the files while `edited_texts` is active.
_OVERLAY: dict[str, str] = {}


@contextlib.contextmanager
def edited_texts(texts: dict[str, str]):
    """Within the block, reading one of these paths gives its text instead of the file's."""
    saved = dict(_OVERLAY)
    _OVERLAY.update({os.path.abspath(p): t for p, t in texts.items()})
    try:
        yield
    finally:
        _OVERLAY.clear()
        _OVERLAY.update(saved)


def indent_width(leading: str) -> int:
    """How deep a line starting with LEADING whitespace is indented, counted as the parser's
    indenter counts it: the spaces and tabs before anything else, a tab 8 (wherever it stands:
    "  \\t" is 10, not the 8 a tab stop would make it)."""
    head = leading[:len(leading) - len(leading.lstrip(" \t"))]
    return head.count(" ") + 8 * head.count("\t")


def follow_indent(stack: list[int], width: int) -> bool:
    """Move the stack of open blocks' indentation widths to a code line indented WIDTH, as the
    parser's indenter does: deeper opens a block, shallower closes blocks back to one of equal
    width.  False when no open block has that width (a bad dedent)."""
    if width > stack[-1]:
        stack.append(width)
        return True
    while width < stack[-1]:
        stack.pop()
    return width == stack[-1]


def is_edited(path: str) -> bool:
    return os.path.abspath(path) in _OVERLAY


def read_source(path: str | os.PathLike[str]) -> tuple[str | None, list[Diagnostic]]:
    """Read a UTF-8 text file within the limits; return `(text, [])` or `(None, [diagnostics])`.

    The size is checked with `stat` before reading, and at most `MAX_BYTES + 1` bytes are read,
    so neither a 10 MB file nor an endless device costs more than a megabyte of I/O. A UTF-8 byte
    order mark is dropped and CRLF line ends become LF, which changes no line numbers.
    """
    name = os.fspath(path)
    edited = _OVERLAY.get(os.path.abspath(name))
    if edited is not None:
        return _checked_text(name, edited.encode("utf-8"))
    st, problem = _stat_input(name)
    if problem is not None:
        return None, [problem]
    if st.st_size > MAX_BYTES:
        return None, [_too_large(name, st.st_size)]
    try:
        with open(name, "rb") as fh:
            data = fh.read(MAX_BYTES + 1)
    except OSError as exc:
        return None, [_error(name, 1, 1, "P005", f"cannot read file: {exc.strerror or exc}")]
    if len(data) > MAX_BYTES:  # the file grew, or is a device/pipe whose size stat cannot tell
        return None, [_too_large(name, None)]
    return _checked_text(name, data)


def checked_text(name: str, text: str) -> tuple[str | None, list[Diagnostic]]:
    """An editor's buffer as `read_source` reads a file: the same limits and refusals."""
    return _checked_text(name, text.encode("utf-8", "surrogatepass"))


def _checked_text(name: str, data: bytes) -> tuple[str | None, list[Diagnostic]]:
    """File bytes as rule text: BOM dropped, UTF-8, no NUL, not empty, no control character."""
    if len(data) > MAX_BYTES:
        return None, [_too_large(name, None)]
    if data.startswith(_BOM):
        data = data[len(_BOM):]

    nul = data.find(b"\x00")
    if nul >= 0:
        line, col = _line_col(data, nul)
        return None, [_error(name, line, col, "P003", "binary content: NUL byte in file")]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, col = _line_col(data, exc.start)
        bad = data[exc.start:exc.start + 1].hex()
        return None, [_error(name, line, col, "P002", f"file is not valid UTF-8 (byte 0x{bad})")]
    if not text.strip():
        return None, [_error(name, 1, 1, "P004", "empty file")]
    text = text.replace("\r\n", "\n")
    bad = CONTROL.search(text)
    if bad is not None:
        line = text.count("\n", 0, bad.start()) + 1
        col = bad.start() - (text.rfind("\n", 0, bad.start()) + 1) + 1
        return None, [_error(name, line, col, "P007", "control character U+%04X in the file: a rule file is "
                             "plain text (such characters can rewrite a terminal or hide text)" % ord(bad.group()))]
    return text, []


def _stat_input(name: str) -> tuple[os.stat_result | None, Diagnostic | None]:
    try:
        st = os.stat(name)
    except OSError as exc:
        reason = "file not found" if isinstance(exc, FileNotFoundError) else f"cannot read file: {exc.strerror}"
        return None, _error(name, 1, 1, "P005", reason)
    if stat.S_ISDIR(st.st_mode):
        return None, _error(name, 1, 1, "P005", "is a directory, not a file")
    if stat.S_ISFIFO(st.st_mode) or stat.S_ISSOCK(st.st_mode):
        # Opening a pipe waits for a writer: refused before it is opened, so nothing hangs.
        return None, _error(name, 1, 1, "P005", "is a pipe or a socket, not a file")
    return st, None


def input_problem(path: str | os.PathLike[str]) -> Diagnostic | None:
    """The P005 diagnostic for an input that is not a file (missing, a folder, unreadable), else
    None: what every command reports for such an input, as `check` does."""
    return _stat_input(os.fspath(path))[1]


def _too_large(name: str, size: int | None) -> Diagnostic:
    what = f"{size} bytes" if size is not None else f"more than {MAX_BYTES} bytes"
    return _error(name, 1, 1, "P001", f"file too large ({what}; the limit is {MAX_BYTES} bytes)")


def load_ir_document(path: str | os.PathLike[str], text: str) -> tuple[Any | None, list[Diagnostic]]:
    """Parse a YAML or JSON IR document (chosen by suffix); return `(obj, [])` or `(None, diags)`.

    Only plain JSON data is accepted: no YAML anchors/aliases (which make alias bombs possible),
    no tags beyond the JSON types, string keys only, whole numbers (as in rule text), nesting at most
    `MAX_NESTING`. Structure is checked iteratively before anything recursive runs.
    """
    name = os.fspath(path)
    suffix = os.path.splitext(name)[1].lower()
    if suffix == ".json":
        return _load_json(name, text)
    if suffix in (".yaml", ".yml"):
        return _load_yaml(name, text)
    raise ValueError(f"not an IR document suffix: {suffix!r} (expected one of {IR_SUFFIXES})")


def not_a_mapping(path: str | os.PathLike[str], text: str, obj: Any) -> Diagnostic | None:
    """P011 for a document that parsed but is not a mapping (null, a list, a scalar), else None."""
    if isinstance(obj, dict):
        return None
    line, col = _first_content(text)
    what = {type(None): "null", list: "a list", str: "a string", bool: "a boolean"}.get(type(obj), "a number")
    return _error(os.fspath(path), line, col, "P011",
                  f"an IR document is a mapping with provost_ir and decls, not {what}")


def _first_content(text: str) -> tuple[int, int]:
    """Line and column of the document's first character that is not blank or a comment."""
    for n, line in enumerate(text.split("\n"), 1):
        stripped = line.lstrip()
        if stripped and not stripped.startswith("#"):
            return n, len(line) - len(stripped) + 1
    return 1, 1


# --- JSON --------------------------------------------------------------------------------------

_JSON_STRING = r'"(?:[^"\\]|\\.)*"'
_JSON_BRACKETS = re.compile(_JSON_STRING + r"|[\[\]{}]", re.DOTALL)
_JSON_CONSTANT = re.compile(_JSON_STRING + r"|NaN|-?Infinity", re.DOTALL)
_JSON_LONG_INT = re.compile(_JSON_STRING + r"|[0-9]{%d,}" % (sys.get_int_max_str_digits() or 10**9), re.DOTALL)


def _fraction_error(name: str, line: int, col: int, value: str) -> Diagnostic:
    return _error(name, line, col, "P010", f"{value} is not a whole number; numbers in the rules are integers",
                  hint="write it without a fraction or an exponent")


class _Fraction(ValueError):
    pass


def _reject_fraction(value: str) -> Any:
    raise _Fraction(value)


_JSON_FRACTION = re.compile(_JSON_STRING + r"|-?[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?", re.DOTALL)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not allowed in an IR document")


def _load_json(name: str, text: str) -> tuple[Any | None, list[Diagnostic]]:
    try:
        obj = json.loads(text, parse_constant=_reject_constant, parse_float=_reject_fraction)
    except _Fraction as exc:
        line, col = _json_locate_fraction(text, str(exc)) or (1, 1)
        return None, [_fraction_error(name, line, col, str(exc))]
    except json.JSONDecodeError as exc:
        return None, [_error(name, exc.lineno, exc.colno, "P010", f"JSON syntax error: {exc.msg}")]
    except RecursionError:
        obj = None  # nested beyond the interpreter's stack; the scan below finds where
    except ValueError as exc:  # NaN/Infinity, or an integer beyond Python's digit limit
        line, col = _json_locate(text, _JSON_CONSTANT) or _json_locate(text, _JSON_LONG_INT) or (1, 1)
        message = str(exc).split(";")[0]
        return None, [_error(name, line, col, "P010", f"invalid JSON value: {message}")]
    deep = _json_too_deep(text)
    if deep is not None:
        return None, [_nesting_error(name, *deep)]
    if obj is None and text.strip() != "null":
        return None, [_nesting_error(name, 1, 1)]
    return obj, []


def _json_locate(text: str, pattern: re.Pattern[str]) -> tuple[int, int] | None:
    """Position of the first match of `pattern` outside string literals, or None."""
    for m in pattern.finditer(text):
        if not m.group().startswith('"'):
            return _text_line_col(text, m.start())
    return None


def _json_locate_fraction(text: str, value: str) -> tuple[int, int] | None:
    """Position of the first number written `value` outside string literals, or None."""
    for m in _JSON_FRACTION.finditer(text):
        if m.group() == value:
            return _text_line_col(text, m.start())
    return None


def _json_too_deep(text: str) -> tuple[int, int] | None:
    """Line and column of the first bracket nested deeper than MAX_NESTING, or None.

    A flat scan that skips string literals; exact for syntactically valid JSON.
    """
    depth = 0
    for m in _JSON_BRACKETS.finditer(text):
        tok = m.group()
        if tok in "[{":
            depth += 1
            if depth > MAX_NESTING:
                return _text_line_col(text, m.start())
        elif tok in "]}":
            depth -= 1
    return None


def _text_line_col(text: str, index: int) -> tuple[int, int]:
    """1-based line and column of character `index` in `text`."""
    return text.count("\n", 0, index) + 1, index - (text.rfind("\n", 0, index) + 1) + 1


def _nesting_error(name: str, line: int, col: int) -> Diagnostic:
    return _error(name, line, col, "P010", f"nesting deeper than {MAX_NESTING} levels")


# --- YAML --------------------------------------------------------------------------------------


def _yaml_error(name: str, text: str, exc: yaml.YAMLError) -> Diagnostic:
    import yaml
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    if mark is not None:
        problem = getattr(exc, "problem", None) or str(exc)
        context = getattr(exc, "context", None)
        message = f"YAML syntax error: {problem}" + (f" ({context})" if context else "")
        return _error(name, mark.line + 1, mark.column + 1, "P010", message)
    if isinstance(exc, yaml.reader.ReaderError):
        line, col = _text_line_col(text, min(max(exc.position, 0), len(text)))
        char = exc.character if isinstance(exc.character, int) else ord(str(exc.character)[:1] or "\0")
        return _error(name, line, col, "P010", f"YAML error: {exc.reason} (U+{char:04X})")
    return _error(name, 1, 1, "P010", f"YAML error: {exc}")


def _load_yaml(name: str, text: str) -> tuple[Any | None, list[Diagnostic]]:
    import yaml
    # Pass 1: the event stream (iterative) -- depth, anchors/aliases, single document.
    try:
        problem = _scan_yaml_events(name, text)
    except yaml.YAMLError as exc:
        # libyaml reads ahead and stops at its own depth limit (1000) before the events reach
        # MAX_NESTING; the pure-Python parser yields events as it goes, so it finds the real place.
        if "nesting depth" not in str(exc) or _yaml_loader() is yaml.SafeLoader:
            return None, [_yaml_error(name, text, exc)]
        try:
            problem = _scan_yaml_events(name, text, yaml.SafeLoader)
        except yaml.YAMLError as exc2:
            return None, [_yaml_error(name, text, exc2)]
    if problem is not None:
        return None, [problem]

    # Pass 2: compose nodes (bounded depth now) and check they are plain JSON data.
    loader = _yaml_loader()(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None, [_error(name, 1, 1, "P004", "empty document")]
        problem = _check_yaml_nodes(name, loader, node)
        if problem is not None:
            return None, [problem]
        return loader.construct_document(node), []
    except yaml.YAMLError as exc:
        return None, [_yaml_error(name, text, exc)]
    except ValueError as exc:  # not expected after the node checks; still the input's fault
        return None, [_error(name, 1, 1, "P010", f"invalid YAML value: {exc}")]
    finally:
        loader.dispose()


def _scan_yaml_events(name: str, text: str, loader=None) -> Diagnostic | None:
    import yaml
    depth = 0
    documents = 0
    sizes = [0]          # entries so far in each open collection (a mapping counts keys and values)
    node_events = (yaml.ScalarEvent, yaml.MappingStartEvent, yaml.SequenceStartEvent, yaml.AliasEvent)
    for event in yaml.parse(text, Loader=loader or _yaml_loader()):
        mark = event.start_mark
        if isinstance(event, node_events):
            sizes[-1] += 1
            if sizes[-1] > 2 * MAX_ENTRIES:
                return _error(name, mark.line + 1, mark.column + 1, "P010",
                              f"more than {MAX_ENTRIES} entries in one list or mapping")
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None) is not None:
            return _error(name, mark.line + 1, mark.column + 1, "P010",
                          "YAML anchors and aliases are not allowed in IR documents",
                          hint="write the repeated value out in full")
        if isinstance(event, yaml.DocumentStartEvent):
            documents += 1
            if documents > 1:
                return _error(name, mark.line + 1, mark.column + 1, "P010",
                              "more than one YAML document in the file")
        if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            # a list counts from MAX_ENTRIES, so both kinds stop at MAX_ENTRIES entries
            sizes.append(0 if isinstance(event, yaml.MappingStartEvent) else MAX_ENTRIES)
            depth += 1
            if depth > MAX_NESTING:
                return _nesting_error(name, mark.line + 1, mark.column + 1)
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            sizes.pop()
            depth -= 1
    return None


def _check_yaml_nodes(name: str, loader: Any, root: yaml.Node) -> Diagnostic | None:
    import yaml
    """Iteratively check that every node is a JSON type and every mapping key a string."""
    stack = [root]
    while stack:
        node = stack.pop()
        mark = node.start_mark
        where = (mark.line + 1, mark.column + 1)
        if isinstance(node, yaml.MappingNode):
            if node.tag != _MAP_TAG:
                return _error(name, *where, "P010", f"YAML tag {node.tag!r} is not allowed in IR documents")
            for key, value in node.value:
                if not (isinstance(key, yaml.ScalarNode) and key.tag == _STR_TAG):
                    kmark = key.start_mark
                    return _error(name, kmark.line + 1, kmark.column + 1, "P010",
                                  "mapping keys must be strings in IR documents",
                                  hint="quote the key")
                stack.append(value)
        elif isinstance(node, yaml.SequenceNode):
            if node.tag != _SEQ_TAG:
                return _error(name, *where, "P010", f"YAML tag {node.tag!r} is not allowed in IR documents")
            stack.extend(node.value)
        elif isinstance(node, yaml.ScalarNode):
            if node.tag not in _JSON_SCALAR_TAGS:
                return _error(name, *where, "P010",
                              f"YAML value {node.value!r} ({node.tag}) is not plain JSON data",
                              hint="quote it to make it a string")
            if node.tag == _FLOAT_TAG:
                if not math.isfinite(loader.construct_yaml_float(node)):
                    return _error(name, *where, "P010", "NaN and infinite numbers are not allowed")
                return _fraction_error(name, *where, node.value)
            if node.tag == _INT_TAG and len(node.value) > _MAX_INT_CHARS:
                return _error(name, *where, "P010", "integer too long")
    return None
