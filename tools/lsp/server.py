"""The language server: pygls over stdio, each request answered by ``provost.tools.lsp.analysis``.

    provost lsp          # an editor starts it and talks to it on stdin/stdout

Diagnostics are published when a document opens and, debounced (``DEBOUNCE_S`` after the last
keystroke), when it changes; the open buffers' texts are what the checker reads, and an edit
checks again the open documents whose rules are made with the edited file.  Columns are the
client's (UTF-16 code units unless negotiated), the analysis's are characters; lines are LSP's in
both (ended by CRLF, LF or a lone CR: ``analysis.lines_of``).  Hover, go to
definition, find references, completion, rename and the document outline work across a variant,
its bases and its ``with`` variants; formatting is `provost fmt`'s.
"""
from __future__ import annotations

import asyncio
import functools
import logging
import os
import re
import sys

from lsprotocol import types as T
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.uris import from_fs_path, to_fs_path

from provost.dsl.diagnostics import printable

from . import analysis as A

DEBOUNCE_S = 0.05
REQUEST_FAILED = -32803      # LSP's error code for a request that is valid but cannot be done
SEVERITY = {"error": T.DiagnosticSeverity.Error, "warning": T.DiagnosticSeverity.Warning,
            "note": T.DiagnosticSeverity.Information}
COMPLETION_KIND = {"effect": T.CompletionItemKind.Function, "function": T.CompletionItemKind.Function,
                   "keyword": T.CompletionItemKind.Keyword, "let": T.CompletionItemKind.Constant,
                   "enum": T.CompletionItemKind.Enum, "counter": T.CompletionItemKind.Variable,
                   "resource": T.CompletionItemKind.Variable, "space": T.CompletionItemKind.Class,
                   "building": T.CompletionItemKind.Class, "phase": T.CompletionItemKind.Module,
                   "local": T.CompletionItemKind.Variable, "event": T.CompletionItemKind.Event,
                   "category": T.CompletionItemKind.EnumMember, "constant": T.CompletionItemKind.Constant,
                   "property": T.CompletionItemKind.Property}
SYMBOL_KIND = {"effect": T.SymbolKind.Function, "let": T.SymbolKind.Constant, "phase": T.SymbolKind.Module,
               "enum": T.SymbolKind.Enum, "space": T.SymbolKind.Class, "building": T.SymbolKind.Class,
               "game": T.SymbolKind.Namespace, "variant": T.SymbolKind.Namespace, "table": T.SymbolKind.Array,
               "step": T.SymbolKind.Method, "entry": T.SymbolKind.Field}

class _AnsweringProtocol(LanguageServerProtocol):
    """pygls reads a request whose parameters do not fit the protocol (a negative position, a
    document that is no string) as an error, logs it and drops the request unanswered: the editor
    would wait for the answer for ever.  It is answered with JSON-RPC's error (-32602, invalid
    params), then dropped as before."""

    def structure_message(self, data):
        try:
            return super().structure_message(data)
        except JsonRpcException as e:
            if "method" in data and type(data.get("id")) in (int, str):
                self._send_response(data["id"], error=e.to_response_error())
            raise


server = LanguageServer("provost", "1", text_document_sync_kind=T.TextDocumentSyncKind.Full,
                        protocol_cls=_AnsweringProtocol)
_pending: dict[str, asyncio.TimerHandle] = {}
#: For each open document, what its last check found, by file (itself, its bases, its `with`
#: variants): a file's marks are the union of what every open document's check found in it, so
#: the check of a base opened beside a variant does not wipe the variant's findings in that base.
_found: dict[str, dict[str, list]] = {}
#: For each open document, the files its rules are made of when last checked (its bases, its
#: `with` variants), None when they did not resolve: an edit of one of them (of any open
#: document, for None) checks it again.
_made_of: dict[str, set[str] | None] = {}
#: What was last published for each file (a file no check finds anything in any more is
#: published empty, or an editor would keep stale marks; an unchanged one is not sent again).
_marked: dict[str, list] = {}
#: The documents whose URI is not a file's (an editor's `untitled:Untitled-1`), by the path
#: they are checked under.
_uri_of: dict[str, str] = {}


def _path(uri: str) -> str:
    """The path a document is checked under: its file's, or for a document that is no file
    (`untitled:`) a made-up one in the working folder (a shipped base is still found by name)."""
    path = to_fs_path(uri) if uri.startswith("file:") else None
    if path:
        return A._abs(path)
    name = re.sub(r"[^A-Za-z0-9_.-]+", "_", uri.split(":", 1)[-1]).strip("_") or "untitled"
    path = A._abs(name if name.endswith((".rules",) + A.IR_SUFFIXES) else name + ".rules")
    _uri_of[path] = uri
    return path


def _uri(path: str) -> str:
    return _uri_of.get(path) or from_fs_path(path)


def _texts() -> dict[str, str]:
    """Every open document's current text, by absolute path."""
    return {_path(uri): doc.source for uri, doc in server.workspace.text_documents.items()}


# ------------------------------------------------------------------ positions
# LSP counts a line's columns in the client's code units (UTF-16 unless negotiated otherwise: an
# emoji is 2), the analysis in Python's characters.
def _units(text: str) -> int:
    return server.workspace.position_codec.client_num_units(text)


def _line_of(path: str, texts: dict[str, str], line: int) -> str:
    # Asked for every position sent (each diagnostic, each reference): the lines are split once
    # per text, and a file not open is read once per change on disk, not once per position.
    try:
        text = texts[path] if path in texts else _file_text(path, os.stat(path).st_mtime_ns)
        return _rows(text)[line]
    except (OSError, IndexError, UnicodeDecodeError):
        return ""


@functools.lru_cache(maxsize=16)
def _rows(text: str) -> tuple[str, ...]:
    return tuple(A.lines_of(text))


@functools.lru_cache(maxsize=16)
def _file_text(path: str, mtime_ns: int) -> str:
    with open(path, encoding="utf-8") as f:
        return f.read()


def _column_in(path: str, texts: dict[str, str], position: T.Position) -> int:
    """A client's column on a line of PATH, in characters."""
    row, seen = _line_of(path, texts, position.line), 0
    for i, ch in enumerate(row):
        if seen >= position.character:
            return i
        seen += _units(ch)
    return len(row) + max(0, position.character - seen)


def _position(path: str, texts: dict[str, str], line: int, col: int) -> T.Position:
    """A position in characters as the client counts it."""
    row = _line_of(path, texts, line)
    return T.Position(line, _units(row[:col]) + max(0, col - len(row)))


def _range(path: str, texts: dict[str, str], line: int, start: int, end_line: int, end: int) -> T.Range:
    return T.Range(_position(path, texts, line, start), _position(path, texts, end_line, end))


def _at(params) -> tuple[str, dict[str, str], int, int]:
    """A request's document path, the open texts and its position in characters.  A document
    the editor has not opened (or closed meanwhile) is answered from its file as saved (none: empty)."""
    path, texts = _path(params.text_document.uri), _texts()
    if path not in texts:
        try:
            texts[path] = _file_text(path, os.stat(path).st_mtime_ns)
        except (OSError, UnicodeDecodeError, ValueError):
            texts[path] = ""
    return path, texts, params.position.line, _column_in(path, texts, params.position)


# ------------------------------------------------------------------ diagnostics
def _check(uri: str) -> None:
    """Check the document at URI and publish the marks of every file that check concerns."""
    path = _path(uri)
    texts = _texts()
    try:
        found, files = A.checked(path, texts)
    except Exception as e:  # noqa: BLE001 - a checker bug must not take the editor's server down
        server.window_log_message(T.LogMessageParams(T.MessageType.Error, "provost: %s: %s" % (type(e).__name__, e)))
        return
    _found[uri] = found
    _made_of[uri] = set(files) if files is not None else None
    _publish_marks(texts, path)


def _publish_marks(texts: dict[str, str], checked: str | None = None) -> None:
    """Publish each file's marks that changed (and the CHECKED document's own, always)."""
    marks: dict[str, dict] = {}
    for found in _found.values():
        for file, diags in found.items():
            for d in diags:
                marks.setdefault(file, {}).setdefault((d.line, d.col, d.code, d.message), d)
    for file in set(_marked) | set(marks) | ({checked} if checked else set()):
        items = _items(file, texts, marks.get(file, {}).values())
        if items != _marked.get(file) or file == checked:
            server.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=_uri(file), diagnostics=items))
        if items:
            _marked[file] = items
        else:
            _marked.pop(file, None)


def _items(file: str, texts: dict[str, str], diags) -> list[T.Diagnostic]:
    text = texts.get(file)
    if text is None:
        try:
            text = A._text_of(file, texts)
        except (OSError, UnicodeDecodeError):
            text = None
    items = []
    for d in diags:
        a, b, c, e = A.lsp_range(d, text)
        items.append(T.Diagnostic(range=_range(file, texts, a, b, c, e), message=d.message,
                                  severity=SEVERITY.get(d.severity), code=d.code, source="provost"))
    return items


def _publish(uri: str) -> None:
    """Check URI and every open document whose rules are made with it (a variant of an edited
    base, a composition of an edited `with` variant): their findings change with it."""
    path = _path(uri)
    _check(uri)
    for other in _made_with(path):
        if other != uri:
            _check(other)


def _made_with(path: str) -> list[str]:
    """The open documents whose rules are made with the file at PATH."""
    return [uri for uri, files in _made_of.items()
            if (files is None or path in files) and uri in server.workspace.text_documents]


@server.feature(T.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls, params: T.DidOpenTextDocumentParams):
    _publish(params.text_document.uri)


@server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls, params: T.DidChangeTextDocumentParams):
    uri = params.text_document.uri
    old = _pending.pop(uri, None)
    if old is not None:
        old.cancel()
    _pending[uri] = asyncio.get_event_loop().call_later(DEBOUNCE_S, _publish, uri)


@server.feature(T.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls, params: T.DidSaveTextDocumentParams):
    _publish(params.text_document.uri)


@server.feature(T.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls, params: T.DidCloseTextDocumentParams):
    """A closed document's findings go; the open documents made with it are checked again
    against its file on disk (its unsaved edits are gone)."""
    uri = params.text_document.uri
    pending = _pending.pop(uri, None)
    if pending is not None:
        pending.cancel()
    path = _path(uri)
    _found.pop(uri, None)
    _made_of.pop(uri, None)
    if not uri.startswith("file:"):
        _uri_of.pop(path, None)
    for other in _made_with(path):
        _check(other)
    _publish_marks(_texts())


@server.feature(T.TEXT_DOCUMENT_HOVER)
def hover(ls, params: T.HoverParams):
    text = A.hover(*_at(params))
    return T.Hover(contents=T.MarkupContent(kind=T.MarkupKind.Markdown, value=text)) if text else None


def _location(path: str, texts: dict[str, str], line: int, start: int, end: int) -> T.Location:
    return T.Location(uri=_uri(path), range=_range(path, texts, line, start, line, end))


@server.feature(T.TEXT_DOCUMENT_DEFINITION)
def definition(ls, params: T.DefinitionParams):
    path, texts, line, col = _at(params)
    found = A.definition(path, texts, line, col)
    if found is None:
        return None
    return _location(found.path, texts, found.line, *A.name_span(found.path, texts, found.line, found.col, found.name))


@server.feature(T.TEXT_DOCUMENT_REFERENCES)
def references(ls, params: T.ReferenceParams):
    path, texts, line, col = _at(params)
    return [_location(f, texts, ln, a, b) for f, ln, a, b in A.references(path, texts, line, col)]


@server.feature(T.TEXT_DOCUMENT_COMPLETION)
def completion(ls, params: T.CompletionParams):
    items = [T.CompletionItem(label=label, kind=COMPLETION_KIND.get(kind, T.CompletionItemKind.Text),
                              detail=(kind + (": " + detail if detail else "")))
             for label, kind, detail in A.completions(*_at(params))]
    return T.CompletionList(is_incomplete=False, items=items)


@server.feature(T.TEXT_DOCUMENT_RENAME)
def rename(ls, params: T.RenameParams):
    path, texts, line, col = _at(params)
    try:
        edits = A.rename(path, texts, line, col, params.new_name)
    except A.RenameRefused as e:      # the editor shows the reason (LSP's RequestFailed)
        raise JsonRpcException(str(e), code=REQUEST_FAILED) from None
    if not edits:
        return None
    return T.WorkspaceEdit(changes={_uri(f): [
        T.TextEdit(range=_range(f, texts, ln, a, ln, b), new_text=params.new_name)
        for ln, a, b in spans] for f, spans in edits.items()})


@server.feature(T.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def document_symbol(ls, params: T.DocumentSymbolParams):
    path, texts = _path(params.text_document.uri), _texts()
    out = []
    for d in A.document_symbols(path, texts):
        start, end = A.name_span(path, texts, d.line, d.col, d.name.rsplit(".", 1)[-1])
        name = _range(path, texts, d.line, start, d.line, end)
        whole = T.Range(_position(path, texts, d.line, d.col), name.end)
        out.append(T.DocumentSymbol(name=d.name, kind=SYMBOL_KIND.get(d.kind, T.SymbolKind.Object), range=whole,
                                    selection_range=name, detail=d.kind))
    return out


@server.feature(T.TEXT_DOCUMENT_FORMATTING)
def formatting(ls, params: T.DocumentFormattingParams):
    """The whole document in `provost fmt`'s layout (one edit), or nothing when it is already;
    a document `provost fmt` refuses (it does not parse, or holds a control character: a lone
    carriage return, which the editor counts as a line end and the layout does not) is left as it is."""
    from provost.dsl.fmt import Unformattable, format_text, refusals
    path = _path(params.text_document.uri)
    text = _texts().get(path)
    if text is None or refusals(text, path):
        return None
    try:
        new = format_text(text)
    except Unformattable:
        return None
    if new == text.replace("\r\n", "\n"):
        return []                   # as `provost fmt`, which reads CRLF line ends as LF, leaves it
    if "\r\n" in text:
        new = new.replace("\n", "\r\n")      # the document's line ends are kept
    return [T.TextEdit(range=T.Range(T.Position(0, 0), T.Position(len(A.lines_of(text)), 0)), new_text=new)]


def _end_process(code: int) -> None:
    """End the process now, its output flushed.  pygls reads stdin in a pool thread, and a read may
    still be waiting there: a normal exit joins that pool, so it would wait for input that the
    editor closes only once the process has ended (both then wait for ever)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):       # (closed)
            pass
    os._exit(code)


@server.feature(T.EXIT)
def exit_(ls, params=None):
    # Run before pygls' own handling of ``exit``, which ends in that join.  As the protocol says:
    # 0 after a shutdown request, else 1.
    _end_process(0 if getattr(ls.protocol, "_shutdown", True) else 1)


MAX_HEADER_LINE = 4096
"""Bytes in one header line (``Content-Length: N``): a line without end is not read for ever, and
N stays short enough to be a number at all."""
MAX_MESSAGE = 64 << 20
"""Bytes in one message: a rule file is at most 1 MB, its text escaped in JSON a few times that."""


class BoundedInput:
    """The server's input as pygls reads it, refusing a header line or a message beyond the limits
    (a bogus ``Content-Length`` had pygls allocate that much: a MemoryError).  What is refused ends
    the input; ``problem`` says why."""

    def __init__(self, stream):
        self._stream = stream
        self.problem: str | None = None

    def readline(self) -> bytes:
        line = self._stream.readline(MAX_HEADER_LINE + 1)
        if len(line) > MAX_HEADER_LINE:
            return self._refuse("a header line longer than %d bytes" % MAX_HEADER_LINE)
        return line

    def read(self, n: int) -> bytes:
        if n > MAX_MESSAGE:
            return self._refuse("a message of %d bytes (at most %d)" % (n, MAX_MESSAGE))
        return self._stream.read(n)

    def _refuse(self, what: str) -> bytes:
        self.problem = what
        return b""


_TRACEBACK = re.compile(r"\n[ |+]*(?:Exception Group )?Traceback \(most recent call last\):")
_ERROR_LINE = re.compile(r"^[ |]*([A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt)\w*(?::.*)?)$", re.M)


def _without_traceback(text: str) -> str:
    """A log message with the traceback pygls formats into some messages ("Unable to deserialize
    message") cut off: what is left is the message and the innermost error's line."""
    cut = _TRACEBACK.search(text)
    if cut is None:
        return text
    errors = _ERROR_LINE.findall(text, cut.end())
    return text[:cut.start()] + (": " + errors[-1].strip() if errors else "")


class _OneLine(logging.Formatter):
    """pygls's log records as one escaped line each: a message it cannot read logs its exception,
    which must not print a Python traceback (``--debug`` shows them)."""

    def format(self, record: logging.LogRecord) -> str:
        text = _without_traceback(record.getMessage())
        exc = record.exc_info[1] if record.exc_info else None
        if exc is not None:
            text += ": %s: %s" % (type(exc).__name__, exc)
        return "provost lsp: " + printable(text)


def _log_to_stderr(debug: bool) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setLevel(logging.WARNING)
    if not debug:
        handler.setFormatter(_OneLine())
    log = logging.getLogger("pygls")
    log.addHandler(handler)
    log.propagate = False


def main(debug: bool = False) -> int:
    _log_to_stderr(debug)
    stdin = BoundedInput(sys.stdin.buffer)
    server.start_io(stdin=stdin)
    if stdin.problem:       # not a client speaking LSP: say so, and end as for any bad input
        print("provost lsp: error: %s: not a language server message; stopped" % stdin.problem, file=sys.stderr)
        _end_process(1)
    _end_process(0)     # the editor closed our input
